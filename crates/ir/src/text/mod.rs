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
//!
//! Module items:
//! - `global @name: <space>, size <n>, align <n>[, init "<hex bytes>"]`
//! - `declare @name(<types>[, ...]) [-> <type>]` (`...`: variadic)
//! - `func @name(<types>) [-> <type>] { <preamble> <blocks> }`, and `kernel` likewise, whose
//!   preamble holds one `arg "<name>": "<type name>" <space> <access> [<qualifiers>]` line
//!   per parameter and optionally `reqd_work_group_size(x, y, z)`,
//!   `work_group_size_hint(x, y, z)`, `vec_type_hint("<type>")`; any function's preamble
//!   declares its stack slots, `ss<n> = slot <size>, align <n>`.
//!
//! A block is `block<n>[(v<n>: <type>, ...)]:` followed by instructions; an instruction with
//! a result is written `v<n>: <type> = <instruction>`. The instructions:
//!
//! ```text
//! iconst <int>          fconst <float or 0xbits>    null    undef
//! vconst [<lane>, ...]  (a vector constant whose lanes differ)
//! <unary> x             (ineg bnot clz ctz popcnt fneg fabs sqrt floor ceil ftrunc nearest)
//! <binary> a, b         (iadd isub imul smulhi umulhi sdiv udiv srem urem smin smax umin
//!                        umax band bor bxor shl lshr ashr rotl fadd fsub fmul fdiv fmin fmax
//!                        copysign)
//! fma a, b, c           icmp <cc> a, b          fcmp <cc> a, b        select c, a, b
//! trunc x   zext x   sext x   satconv.<s|u>.<s|u> x   fconv.<round> x
//! sitofp.<round> x   uitofp.<round> x   fptosi.<round>[.sat] x   fptoui.<round>[.sat] x
//! bitcast x   ptrtoint p   inttoptr x   addrcast p   ptradd p, offset
//! splat x   extractlane v, <n>   insertlane v, x, <n>   shuffle a, b, [<n>, ...]
//! load.<space>[.volatile][.trusted] p, align <n>
//! store.<space>[.volatile][.trusted] x, p, align <n>
//! atomic_rmw.<op>.<order>.<scope>.<space> p, x
//! cmpxchg.<order>.<failure order>.<scope>.<space> p, expected, desired
//! atomic_load.<order>.<scope>.<space> p     atomic_store.<order>.<scope>.<space> x, p
//! fence[.local][.global][.image].<order>.<scope>
//! barrier[.local][.global][.image].<scope>
//! global_id <dim>   (and work_dim, global_size, local_size, enqueued_local_size, local_id,
//!                    num_groups, group_id, global_offset; without a dimension:
//!                    global_linear_id, local_linear_id, sub_group_size, max_sub_group_size,
//!                    num_sub_groups, enqueued_num_sub_groups, sub_group_id,
//!                    sub_group_local_id)
//! slotaddr ss<n>   globaladdr @name   call @name(args)
//! jump block<n>[(args)]   brif c, block<n>[(args)], block<n>[(args)]
//! switch x, <default block>[(args)], [<int>: block<n>[(args)], ...]
//! return [x]   unreachable
//! ```
//!
//! Integer constants print as signed decimals at their width (`i1` as 0 or 1) and parse from
//! decimal or `0x` hex; float constants print as the shortest decimal that reads back
//! exactly, NaNs and `f16` as their bits in hex (an `f16` decimal is accepted on input).
//! A load's or store's flags ([`crate::MemFlags`]) follow its space: `volatile`, and
//! `trusted` for an access that stays inside its space's memory by construction.

mod diff;
mod lex;
mod parse;
mod print;

pub use diff::{check_expected, line_diff};
pub use parse::{parse_module, ParseError};
pub use print::{print_function, print_module};
