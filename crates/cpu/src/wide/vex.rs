//! The tier's code for AVX2 hosts ([`super::Isa::Avx2`]): the instructions `emit.rs`
//! selected, in EVEX forms, encoded again in their VEX forms.
//!
//! On such a host every vector value fits a `ymm` register (the tier runs 8 lanes, and
//! `Plan::classify` refuses wider types), values take vector registers 0 to 11 and the
//! scratch registers 28 to 31 become 12 to 15, so each EVEX instruction without a mask,
//! a broadcast memory operand, embedded rounding or a register past 15 has a VEX form of the
//! same mnemonic (or of its AVX2 name: `vpandd` is `vpand`) that computes the same lanes: a
//! `zmm` named by a spill or a move between registers is its `ymm`, whose 32 bytes are all a
//! value has. Whatever has no such form refuses the function, which Cranelift compiles.

use std::collections::HashMap;
use std::sync::OnceLock;

use iced_x86::{Code, Instruction, OpKind, Register, RoundingControl};

use super::regs::{number, XMM, YMM};

/// The VEX codes by name (`VEX_Vaddps_ymm_ymm_ymmm256`).
fn vex_codes() -> &'static HashMap<String, Code> {
    static CODES: OnceLock<HashMap<String, Code>> = OnceLock::new();
    CODES.get_or_init(|| {
        Code::values()
            .map(|c| (format!("{c:?}"), c))
            .filter(|(name, _)| name.starts_with("VEX_"))
            .collect()
    })
}

/// The AVX2 name of an AVX-512 mnemonic that has one of its own.
fn vex_mnemonic(m: &str) -> &str {
    match m {
        "Vmovdqu8" | "Vmovdqu16" | "Vmovdqu32" | "Vmovdqu64" => "Vmovdqu",
        "Vmovdqa32" | "Vmovdqa64" => "Vmovdqa",
        "Vpandd" | "Vpandq" => "Vpand",
        "Vpandnd" | "Vpandnq" => "Vpandn",
        "Vpord" | "Vporq" => "Vpor",
        "Vpxord" | "Vpxorq" => "Vpxor",
        // VRNDSCALE with a scale of 0 (immediate bits 7:4) rounds as VROUND does with the
        // same low four bits (Intel SDM, VRNDSCALEPS and ROUNDPS); checked in `to_vex`.
        "Vrndscaleps" => "Vroundps",
        "Vrndscaless" => "Vroundss",
        "Vextracti32x4" | "Vextracti64x2" => "Vextracti128",
        "Vextractf32x4" | "Vextractf64x2" => "Vextractf128",
        "Vinserti32x4" | "Vinserti64x2" => "Vinserti128",
        "Vinsertf32x4" | "Vinsertf64x2" => "Vinsertf128",
        "Vbroadcasti32x4" => "Vbroadcasti128",
        "Vbroadcastf32x4" => "Vbroadcastf128",
        _ => m,
    }
}

/// The register `r` is on an AVX2 host: values' registers 0 to 11 stay, scratch 28 to 31
/// become 12 to 15, and a `zmm` is named by its `ymm`.
fn renamed(r: Register) -> Result<Register, String> {
    if !(r.is_xmm() || r.is_ymm() || r.is_zmm()) {
        return if r.is_k() {
            Err(format!("mask register {r:?}"))
        } else {
            Ok(r)
        };
    }
    let n = match number(r) {
        n @ 0..=11 => n,
        n @ 28..=31 => n - 16,
        n => return Err(format!("vector register {n}")),
    };
    Ok(if r.is_xmm() { XMM[n] } else { YMM[n] })
}

/// The name of the VEX form of EVEX `code` for an instruction whose operands are of `kinds`:
/// the masks, rounding and broadcasts taken off the operands; each operand that may be a
/// register or memory named for what it is where the VEX forms differ (`vbroadcastss` from
/// `m32` or from an `xmm`). The first name that exists.
fn vex_code(code: Code, kinds: &[OpKind]) -> Option<Code> {
    let name = format!("{code:?}");
    let rest = name.strip_prefix("EVEX_")?;
    let mut parts = rest.split('_');
    let mnemonic = vex_mnemonic(parts.next()?);
    let operands: Vec<String> = parts
        .filter(|p| !matches!(*p, "k1" | "k1z" | "er" | "sae"))
        .map(|p| {
            let p = p.replace("zmm", "ymm").replace("m512", "m256");
            let p = p
                .strip_suffix("b32")
                .or(p.strip_suffix("b64"))
                .unwrap_or(&p);
            p.to_string()
        })
        .collect();
    let codes = vex_codes();
    let find = |ops: &[String]| {
        codes
            .get(&format!("VEX_{mnemonic}_{}", ops.join("_")))
            .copied()
    };
    if let Some(c) = find(&operands) {
        return Some(c);
    }
    // `xmmm128` (register or memory) as `xmm` or `m128`, by the operand's kind.
    let exact: Vec<String> = operands
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let split = ["xmmm", "ymmm"]
                .iter()
                .find_map(|pre| p.strip_prefix(pre).map(|size| (&pre[..3], size)));
            match (split, kinds.get(k)) {
                (Some((reg, _)), Some(OpKind::Register)) => reg.to_string(),
                (Some((_, size)), Some(OpKind::Memory)) => format!("m{size}"),
                _ => p.clone(),
            }
        })
        .collect();
    find(&exact)
}

/// The VEX instructions that do what EVEX instruction `i` does on an AVX2 host (one, or a
/// broadcast from a general register as a move and a broadcast), or why there are none.
pub(super) fn to_vex(i: &Instruction) -> Result<Vec<Instruction>, String> {
    let why = |what: &str| Err(format!("no AVX2 form: {what} in {:?}", i.code()));
    if i.has_op_mask() || i.zeroing_masking() {
        return why("a mask");
    }
    if i.suppress_all_exceptions() || i.rounding_control() != RoundingControl::None {
        return why("embedded rounding");
    }
    let mut out = *i;
    let kinds: Vec<OpKind> = (0..i.op_count()).map(|k| i.op_kind(k)).collect();
    for (k, kind) in kinds.iter().enumerate() {
        match kind {
            OpKind::Register => match renamed(i.op_register(k as u32)) {
                Ok(r) => out.set_op_register(k as u32, r),
                Err(what) => return why(&what),
            },
            OpKind::Memory => {
                if i.is_broadcast() {
                    return why("a broadcast memory operand");
                }
                if i.memory_index().is_xmm() || i.memory_index().is_ymm() {
                    return why("a vector index");
                }
            }
            _ => {}
        }
    }
    let name = format!("{:?}", i.code());
    if !name.starts_with("EVEX_") {
        return Ok(vec![out]);
    }
    if name.starts_with("EVEX_Vrndscale") && i.immediate(kinds.len() as u32 - 1) > 15 {
        return why("a scale");
    }
    if let Some(size) = name.strip_prefix("EVEX_Vpbroadcast") {
        if name.ends_with("_r32") {
            // From a general register: moved into the destination's low lane, broadcast
            // from there.
            let d = out.op_register(0);
            let low = XMM[number(d)];
            let mov = Instruction::with2(Code::VEX_Vmovd_xmm_rm32, low, i.op_register(1))
                .map_err(|e| e.to_string())?;
            let code = match (&size[..1], d.is_ymm()) {
                ("b", false) => Code::VEX_Vpbroadcastb_xmm_xmmm8,
                ("b", true) => Code::VEX_Vpbroadcastb_ymm_xmmm8,
                ("w", false) => Code::VEX_Vpbroadcastw_xmm_xmmm16,
                ("w", true) => Code::VEX_Vpbroadcastw_ymm_xmmm16,
                ("d", false) => Code::VEX_Vpbroadcastd_xmm_xmmm32,
                ("d", true) => Code::VEX_Vpbroadcastd_ymm_xmmm32,
                _ => return why("a broadcast"),
            };
            let splat = Instruction::with2(code, d, low).map_err(|e| e.to_string())?;
            return Ok(vec![mov, splat]);
        }
    }
    match vex_code(i.code(), &kinds) {
        Some(code) => {
            out.set_code(code);
            Ok(vec![out])
        }
        None => why("the instruction"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evex_forms_find_their_vex_forms() {
        let r = OpKind::Register;
        let m = OpKind::Memory;
        let cases = [
            (
                Code::EVEX_Vaddps_ymm_k1z_ymm_ymmm256b32,
                vec![r, r, m],
                Some(Code::VEX_Vaddps_ymm_ymm_ymmm256),
            ),
            (
                Code::EVEX_Vaddps_zmm_k1z_zmm_zmmm512b32_er,
                vec![r, r, r],
                Some(Code::VEX_Vaddps_ymm_ymm_ymmm256),
            ),
            (
                Code::EVEX_Vmovups_zmmm512_k1z_zmm,
                vec![m, r],
                Some(Code::VEX_Vmovups_ymmm256_ymm),
            ),
            (
                Code::EVEX_Vpxord_xmm_k1z_xmm_xmmm128b32,
                vec![r, r, r],
                Some(Code::VEX_Vpxor_xmm_xmm_xmmm128),
            ),
            (
                Code::EVEX_Vbroadcastss_ymm_k1z_xmmm32,
                vec![r, m],
                Some(Code::VEX_Vbroadcastss_ymm_m32),
            ),
            (
                Code::EVEX_Vbroadcastss_ymm_k1z_xmmm32,
                vec![r, r],
                Some(Code::VEX_Vbroadcastss_ymm_xmm),
            ),
            (
                Code::EVEX_Vpsrad_ymm_k1z_ymmm256b32_imm8,
                vec![r, r, OpKind::Immediate8],
                Some(Code::VEX_Vpsrad_ymm_ymm_imm8),
            ),
            (
                Code::EVEX_Vrndscaleps_ymm_k1z_ymmm256b32_imm8,
                vec![r, r, OpKind::Immediate8],
                Some(Code::VEX_Vroundps_ymm_ymmm256_imm8),
            ),
            (
                Code::EVEX_Vfmadd231ps_ymm_k1z_ymm_ymmm256b32,
                vec![r, r, r],
                Some(Code::VEX_Vfmadd231ps_ymm_ymm_ymmm256),
            ),
            // AVX-512 only: a 64-bit arithmetic shift, a narrowing move.
            (Code::EVEX_Vpsraq_ymm_k1z_ymm_xmmm128, vec![r, r, r], None),
            (Code::EVEX_Vpmovdb_xmmm64_k1z_ymm, vec![r, r], None),
        ];
        for (evex, kinds, want) in cases {
            assert_eq!(vex_code(evex, &kinds), want, "{evex:?}");
        }
    }

    #[test]
    fn masked_and_high_registers_have_no_vex_form() {
        let mut i = Instruction::with3(
            Code::EVEX_Vaddps_ymm_k1z_ymm_ymmm256b32,
            Register::YMM1,
            Register::YMM2,
            Register::YMM3,
        )
        .unwrap();
        i.set_op_mask(Register::K1);
        assert!(to_vex(&i).is_err());
        let i = Instruction::with3(
            Code::EVEX_Vaddps_ymm_k1z_ymm_ymmm256b32,
            Register::YMM20,
            Register::YMM2,
            Register::YMM3,
        )
        .unwrap();
        assert!(to_vex(&i).is_err());
        // The scratch registers 28 to 31 are 12 to 15.
        let i = Instruction::with3(
            Code::EVEX_Vaddps_zmm_k1z_zmm_zmmm512b32_er,
            Register::ZMM30,
            Register::ZMM2,
            Register::ZMM31,
        )
        .unwrap();
        let v = to_vex(&i).unwrap();
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].code(), Code::VEX_Vaddps_ymm_ymm_ymmm256);
        assert_eq!(v[0].op_register(0), Register::YMM14);
        assert_eq!(v[0].op_register(2), Register::YMM15);
    }
}
