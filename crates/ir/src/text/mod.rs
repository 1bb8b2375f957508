//! The text form of the IR: a printer and a parser that round-trip exactly, so compiler tests
//! are text in, text out.
//!
//! ```text
//! global @table: constant, size 8, align 4, init "0100000002000000"
//! declare @helper(f32) -> f32
//!
//! kernel @scale(ptr.global, f32) {
//!     arg "data": "float*" global none []
//!     arg "k": "float" private none [const]
//!     reqd_work_group_size(64, 1, 1)
//! block0(v0: ptr.global, v1: f32):
//!     v2: i64 = global_id 0
//!     v3: i64 = iconst 4
//!     v4: i64 = imul v2, v3
//!     v5: ptr.global = ptradd v0, v4
//!     v6: f32 = load.global v5, align 4
//!     v7: f32 = fmul v6, v1
//!     store.global v7, v5, align 4
//!     return
//! }
//! ```
//!
//! Values and blocks keep their numbers through a round trip; `;` starts a comment.

mod parse;
mod print;

pub use parse::{parse_module, ParseError};
pub use print::{print_function, print_module};
