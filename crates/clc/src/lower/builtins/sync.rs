//! Synchronization (6.15.8 barriers) and memory fences (6.15.9): `barrier` and `fence`
//! instructions, their flags, order and scope read from constant arguments.

use super::*;
use atomics::{fence_flags, order_of, scope_of};
use catalogue::Sync;

/// A barrier or fence.
pub(super) fn sync(fl: &mut FnLower, f: Sync, c: &Call) -> Res<()> {
    let flags = fence_flags(const_arg(fl, &c.args[0]));
    match f {
        Sync::Barrier | Sync::WorkGroupBarrier | Sync::SubGroupBarrier => {
            let default = if f == Sync::SubGroupBarrier {
                Scope::SubGroup
            } else {
                Scope::WorkGroup
            };
            let scope = match c.args.get(1) {
                Some(s) => scope_of(const_arg(fl, s), default),
                None => default,
            };
            fl.b.barrier(flags, scope);
        }
        Sync::MemFence | Sync::ReadMemFence | Sync::WriteMemFence => {
            let order = match f {
                Sync::ReadMemFence => Ordering::Acquire,
                Sync::WriteMemFence => Ordering::Release,
                _ => Ordering::AcqRel,
            };
            fl.b.fence(flags, order, Scope::WorkGroup);
        }
        Sync::AtomicWorkItemFence => {
            let order = order_of(const_arg(fl, &c.args[1]));
            let scope = scope_of(const_arg(fl, &c.args[2]), Scope::Device);
            fl.b.fence(flags, order, scope);
        }
    }
    Ok(())
}
