//! Memory builtins: `vload`/`vstore` (half ones included) and the asynchronous copies between
//! global and local memory (shared over the work-group).

use super::*;
use catalogue::{AsyncCopy, HalfData, VectorData};

/// vloadn / vstoren and the half forms (6.15.7): element loads and stores at
/// `p + offset * n` (`n` rounded up to 4 for the aligned `vloada_half3`/`vstorea_half3`).
pub(super) fn vload_store(fl: &mut FnLower, v: VectorData, c: &Call) -> Res<Option<Value>> {
    let (load, half, aligned) = (
        !v.store,
        v.half != HalfData::No,
        v.half == HalfData::Aligned,
    );
    let n = u32::from(v.lanes);
    let args = c.args;
    let (off_e, p_e) = if load {
        (&args[0], &args[1])
    } else {
        (&args[1], &args[2])
    };
    let Some(q) = fl.cx.p.types.pointee(p_e.ty) else {
        return library_call(fl, c);
    };
    let Some((s, _)) = fl.cx.arith(q.ty) else {
        return library_call(fl, c);
    };
    let et = scalar_ir(s);
    let es = s.size();
    let stride = if aligned && n == 3 { 4 } else { n };
    let align = if aligned { es * stride } else { es };
    let p = fl.val(p_e)?;
    let off = fl.val(off_e)?;
    let off = fl.int_resize(off, false, Type::I64);
    let k = fl.iconst(Type::I64, i64::from(es * stride));
    let byte = fl.b.imul(off, k);
    let base = fl.b.ptradd(p, byte);
    let mt = et.vector(n).expect("vector type");
    if load {
        let raw = if n == 3 {
            let mut lanes = Vec::new();
            for i in 0..3 {
                let a = fl.offset(base, i64::from(i * es));
                lanes.push(fl.b.load(et, a, align.min(es), false));
            }
            fl.build_vector(mt, &lanes)
        } else {
            fl.b.load(mt, base, align, false)
        };
        if !half {
            return Ok(Some(raw));
        }
        // vload_half: half values widened to float, exactly.
        let t = fl.reg(c.rt)?;
        return Ok(Some(fl.b.convert(ConvOp::Fconv(Round::Rte), raw, t)));
    }
    let mut x = fl.val(&args[0])?;
    if half {
        // vstore_half: rounded to half as the suffix says, to nearest even by default.
        let r = v.round.map_or(Round::Rte, convert::round);
        x = fl.b.convert(ConvOp::Fconv(r), x, mt);
    }
    if n == 3 {
        for i in 0..3 {
            let a = fl.offset(base, i64::from(i * es));
            let l = fl.b.extractlane(x, i as u8);
            fl.b.store(l, a, align.min(es), false);
        }
    } else {
        fl.b.store(x, base, align, false);
    }
    Ok(None)
}

/// async_work_group_copy / async_work_group_strided_copy (6.15.11): the work-items of the
/// group share the copy (item `l` copies elements `l`, `l + size`, ...); the copy is
/// complete at wait_group_events, a barrier. Returns the event argument.
pub(super) fn async_copy(fl: &mut FnLower, f: AsyncCopy, c: &Call) -> Res<Option<Value>> {
    let args = c.args;
    let strided = match f {
        AsyncCopy::AsyncWorkGroupCopy => false,
        AsyncCopy::AsyncWorkGroupStridedCopy => true,
        AsyncCopy::WaitGroupEvents => {
            fl.val(&args[0])?;
            fl.val(&args[1])?;
            fl.b.barrier(FenceFlags::LOCAL | FenceFlags::GLOBAL, Scope::WorkGroup);
            return Ok(None);
        }
        AsyncCopy::Prefetch => {
            // A hint only.
            fl.val(&args[0])?;
            fl.val(&args[1])?;
            return Ok(None);
        }
    };
    let Some(q) = fl.cx.p.types.pointee(args[0].ty) else {
        return library_call(fl, c);
    };
    let ety = q.ty;
    let size = fl.cx.size_of(ety) as i64;
    let align = fl.cx.align_of(ety);
    let Some(mt) = fl.cx.mem_type(ety) else {
        return library_call(fl, c);
    };
    let dst = fl.val(&args[0])?;
    let src = fl.val(&args[1])?;
    let n = fl.val(&args[2])?;
    let n = fl.int_resize(n, false, Type::I64);
    let stride = if strided {
        let s = fl.val(&args[3])?;
        Some(fl.int_resize(s, false, Type::I64))
    } else {
        None
    };
    let event = fl.val(&args[if strided { 4 } else { 3 }])?;
    // 6.15.11: the strided form reads (local destination) or writes (global destination)
    // every `stride`-th element of the global buffer.
    let dst_local = fl.b.value_type(dst).addr_space() == Some(IrSpace::Local);
    let lid = fl.b.work_item(WorkItemOp::LocalLinearId, 0, Type::I64);
    let mut lsize = fl.b.work_item(WorkItemOp::LocalSize, 0, Type::I64);
    for d in 1..3 {
        let s = fl.b.work_item(WorkItemOp::LocalSize, d, Type::I64);
        lsize = fl.b.imul(lsize, s);
    }
    let head = fl.b.create_block();
    let body = fl.b.create_block();
    let exit = fl.b.create_block();
    fl.b.jump(head, &[lid]);
    fl.b.switch_to_block(head);
    let i = fl.b.append_block_param(head, Type::I64);
    let c = fl.b.icmp(IntCC::Ult, i, n);
    fl.b.brif(c, body, &[], exit, &[]);
    fl.b.switch_to_block(body);
    let k = fl.iconst(Type::I64, size);
    let plain = fl.b.imul(i, k);
    let far = match stride {
        Some(s) => {
            let j = fl.b.imul(i, s);
            fl.b.imul(j, k)
        }
        None => plain,
    };
    let (soff, doff) = if dst_local {
        (far, plain)
    } else {
        (plain, far)
    };
    let sp = fl.b.ptradd(src, soff);
    let dp = fl.b.ptradd(dst, doff);
    let v = fl.b.load(mt, sp, align, false);
    fl.b.store(v, dp, align, false);
    let next = fl.b.iadd(i, lsize);
    fl.b.jump(head, &[next]);
    fl.b.switch_to_block(exit);
    Ok(Some(event))
}
