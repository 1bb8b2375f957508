//! The interface between the runtime and generated code.
//!
//! A compiled kernel is one function per work-group:
//! `extern "C" fn(args: *const u8, group: *const GroupCtx, frames: *mut u8)`.
//! `args` is the argument block ([`arg_layout`]), `group` describes the NDRange and this
//! work-group, and `frames` is per-work-item memory: every private variable kept in memory,
//! and the values live across a barrier ([`crate::CompiledKernel::frame_size`] bytes each).
//!
//! A work-group's private region is one power-of-two block: the copies of its by-value
//! struct arguments, then the frames of its work-items. Generated code masks every
//! `__private` address into it, as it masks `__local` addresses into the local region, so an
//! out-of-bounds private access stays inside memory the launch owns.

use ferrocl_device::ArgSlot;
use ferrocl_ir::Function;

/// What generated code knows of the NDRange and of the work-group it runs. Dimensions past
/// `work_dim` hold the values the spec gives them: sizes 1, ids and offsets 0.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GroupCtx {
    pub work_dim: u64,
    pub global_offset: [u64; 3],
    pub global_size: [u64; 3],
    /// The size of this work-group (smaller than the enqueued size for the last group of a
    /// dimension when the NDRange is not a multiple of it).
    pub local_size: [u64; 3],
    pub enqueued_local_size: [u64; 3],
    pub num_groups: [u64; 3],
    pub group_id: [u64; 3],
    /// This work-group's `__local` memory: the kernel's static `__local` variables, then the
    /// `__local` pointer arguments.
    pub local_mem: u64,
    /// The local memory region's size minus one; the size is a power of two, the region is
    /// aligned to it, and generated code masks every `__local` address into the region
    /// (`local_mem | (p & local_mask)`), so no access escapes it.
    pub local_mask: u64,
    /// This work-group's private region: by-value struct arguments, then the frames.
    pub private_mem: u64,
    /// The private region's size minus one (a power of two, like the local region).
    pub private_mask: u64,
    /// Where the window around the local region that generated code clamps shared
    /// addresses into starts (`local_mem - CLAMP_WINDOW`), and its size minus one
    /// (`local_mask + 2 * CLAMP_WINDOW`): see `codegen::Translator::clamped`.
    pub local_window: u64,
    pub local_window_span: u64,
    /// The same for the private region.
    pub private_window: u64,
    pub private_window_span: u64,
    /// Nonzero where the launch writes more than the last-level cache holds through the
    /// stores the wide tier streams (`CompiledKernel::stream_bytes`): those then bypass the
    /// caches (`wide/emit.rs`, `Emitter::streaming_store`).
    pub streaming: u64,
}

/// Byte offsets of the fields of [`GroupCtx`], for generated code.
pub mod offsets {
    use super::GroupCtx;
    use std::mem::offset_of;

    // Derived from the struct, so they cannot drift from it (the struct is under 2^31 bytes).
    pub const WORK_DIM: i32 = offset_of!(GroupCtx, work_dim) as i32;
    pub const GLOBAL_OFFSET: i32 = offset_of!(GroupCtx, global_offset) as i32;
    pub const GLOBAL_SIZE: i32 = offset_of!(GroupCtx, global_size) as i32;
    pub const LOCAL_SIZE: i32 = offset_of!(GroupCtx, local_size) as i32;
    pub const ENQUEUED_LOCAL_SIZE: i32 = offset_of!(GroupCtx, enqueued_local_size) as i32;
    pub const NUM_GROUPS: i32 = offset_of!(GroupCtx, num_groups) as i32;
    pub const GROUP_ID: i32 = offset_of!(GroupCtx, group_id) as i32;
    pub const LOCAL_MEM: i32 = offset_of!(GroupCtx, local_mem) as i32;
    pub const LOCAL_MASK: i32 = offset_of!(GroupCtx, local_mask) as i32;
    pub const PRIVATE_MEM: i32 = offset_of!(GroupCtx, private_mem) as i32;
    pub const PRIVATE_MASK: i32 = offset_of!(GroupCtx, private_mask) as i32;
    pub const LOCAL_WINDOW: i32 = offset_of!(GroupCtx, local_window) as i32;
    pub const LOCAL_WINDOW_SPAN: i32 = offset_of!(GroupCtx, local_window_span) as i32;
    pub const PRIVATE_WINDOW: i32 = offset_of!(GroupCtx, private_window) as i32;
    pub const PRIVATE_WINDOW_SPAN: i32 = offset_of!(GroupCtx, private_window_span) as i32;
    pub const STREAMING: i32 = offset_of!(GroupCtx, streaming) as i32;
}

/// The argument block layout of kernel `f`: each argument in a slot of its parameter type's
/// size, aligned to that size (rounded up to a power of two), in order; the runtime fills each
/// slot as its kind says ([`ferrocl_device`]'s kernel ABI). Returns the slots and the block
/// size.
pub fn arg_layout(f: &Function) -> (Vec<ArgSlot>, usize) {
    let args = f.kernel.as_ref().map_or(&[][..], |k| &k.args[..]);
    let mut offset = 0usize;
    let mut out = Vec::with_capacity(args.len());
    for (arg, &ty) in args.iter().zip(&f.sig.params) {
        let size = ty.bytes() as usize;
        let align = size.next_power_of_two().clamp(1, 128);
        offset = offset.div_ceil(align) * align;
        out.push(ArgSlot {
            offset,
            size,
            kind: arg.kind,
        });
        offset += size;
    }
    (out, offset.div_ceil(16) * 16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrocl_ir::ArgKind;

    #[test]
    fn arguments_are_aligned_to_their_size() {
        let m = ferrocl_ir::parse_module(
            r#"
kernel @k(ptr.global, i32, f32x4, i8) {
    arg "p": "float*" global none []
    arg "n": "int" private none []
    arg "v": "float4" private none []
    arg "c": "char" private none []
block0(v0: ptr.global, v1: i32, v2: f32x4, v3: i8):
    return
}
"#,
        )
        .expect("parses");
        let (_, f) = m.kernels().next().expect("a kernel");
        let (layout, size) = arg_layout(f);
        let offsets: Vec<usize> = layout.iter().map(|a| a.offset).collect();
        assert_eq!(offsets, vec![0, 8, 16, 32]);
        assert_eq!(size, 48);
        assert_eq!(layout[0].kind, ArgKind::Buffer);
        assert_eq!(layout[1].kind, ArgKind::Value);
    }
}
