//! Miscellaneous vector functions (6.15.13): `shuffle` and `shuffle2`, one `shuffle`
//! instruction for a constant mask, lanes loaded from a spilled copy for a run-time one.

use super::*;
use catalogue::VectorMisc;

/// 6.15.13: result lane i is lane mask[i] (modulo the lane count of the inputs) of x, or of
/// x ++ y for shuffle2.
pub(super) fn shuffle(fl: &mut FnLower, f: VectorMisc, c: &Call) -> Res<Value> {
    let x = fl.val(&c.args[0])?;
    let xt = fl.b.value_type(x);
    let n = xt.lanes();
    let (y, mask_e) = match f {
        VectorMisc::Shuffle2 => (Some(fl.val(&c.args[1])?), &c.args[2]),
        VectorMisc::Shuffle => (None, &c.args[1]),
    };
    let total = if y.is_some() { 2 * n } else { n };
    if let Ok(lanes) = fl.cx.const_eval(mask_e) {
        let idx: Option<Vec<u8>> = lanes
            .iter()
            .map(|l| match l {
                crate::lower::CV::I(v) => Some((*v as u64 % u64::from(total)) as u8),
                crate::lower::CV::F(_) => None,
            })
            .collect();
        if let Some(idx) = idx {
            let other = y.unwrap_or(x);
            return Ok(fl.b.shuffle(x, other, &idx));
        }
    }
    // A run-time mask: spill the inputs and load each selected lane.
    let m = fl.val(mask_e)?;
    let mt = fl.b.value_type(m);
    let et = xt.lane_type();
    let es = et.bytes();
    let vt = fl.reg(c.args[0].ty)?;
    let slot =
        fl.b.func
            .create_slot(2 * vt.bytes(), vt.bytes().next_power_of_two());
    let base = fl.b.slot_addr(slot);
    fl.b.store(x, base, es, false);
    if let Some(y) = y {
        let at = fl.offset(base, i64::from(n * es));
        fl.b.store(y, at, es, false);
    }
    let rt_ty = fl.reg(c.rt)?;
    let mut lanes = Vec::new();
    for i in 0..mt.lanes() {
        let k = fl.b.extractlane(m, i as u8);
        let k = fl.int_resize(k, false, Type::I64);
        let modulo = fl.iconst(Type::I64, i64::from(total));
        let k = fl.b.binary(BinaryOp::Urem, k, modulo);
        let sz = fl.iconst(Type::I64, i64::from(es));
        let off = fl.b.imul(k, sz);
        let a = fl.b.ptradd(base, off);
        lanes.push(fl.b.load(et, a, es, false));
    }
    Ok(fl.build_vector(rt_ty, &lanes))
}
