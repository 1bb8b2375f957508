//! Register names of the wide-vector tier, by number.

use iced_x86::Register;

/// `xmm0` to `xmm31`.
pub(super) const XMM: [Register; 32] = [
    Register::XMM0,
    Register::XMM1,
    Register::XMM2,
    Register::XMM3,
    Register::XMM4,
    Register::XMM5,
    Register::XMM6,
    Register::XMM7,
    Register::XMM8,
    Register::XMM9,
    Register::XMM10,
    Register::XMM11,
    Register::XMM12,
    Register::XMM13,
    Register::XMM14,
    Register::XMM15,
    Register::XMM16,
    Register::XMM17,
    Register::XMM18,
    Register::XMM19,
    Register::XMM20,
    Register::XMM21,
    Register::XMM22,
    Register::XMM23,
    Register::XMM24,
    Register::XMM25,
    Register::XMM26,
    Register::XMM27,
    Register::XMM28,
    Register::XMM29,
    Register::XMM30,
    Register::XMM31,
];

/// `ymm0` to `ymm31`.
pub(super) const YMM: [Register; 32] = [
    Register::YMM0,
    Register::YMM1,
    Register::YMM2,
    Register::YMM3,
    Register::YMM4,
    Register::YMM5,
    Register::YMM6,
    Register::YMM7,
    Register::YMM8,
    Register::YMM9,
    Register::YMM10,
    Register::YMM11,
    Register::YMM12,
    Register::YMM13,
    Register::YMM14,
    Register::YMM15,
    Register::YMM16,
    Register::YMM17,
    Register::YMM18,
    Register::YMM19,
    Register::YMM20,
    Register::YMM21,
    Register::YMM22,
    Register::YMM23,
    Register::YMM24,
    Register::YMM25,
    Register::YMM26,
    Register::YMM27,
    Register::YMM28,
    Register::YMM29,
    Register::YMM30,
    Register::YMM31,
];

/// `zmm0` to `zmm31`.
pub(super) const ZMM: [Register; 32] = [
    Register::ZMM0,
    Register::ZMM1,
    Register::ZMM2,
    Register::ZMM3,
    Register::ZMM4,
    Register::ZMM5,
    Register::ZMM6,
    Register::ZMM7,
    Register::ZMM8,
    Register::ZMM9,
    Register::ZMM10,
    Register::ZMM11,
    Register::ZMM12,
    Register::ZMM13,
    Register::ZMM14,
    Register::ZMM15,
    Register::ZMM16,
    Register::ZMM17,
    Register::ZMM18,
    Register::ZMM19,
    Register::ZMM20,
    Register::ZMM21,
    Register::ZMM22,
    Register::ZMM23,
    Register::ZMM24,
    Register::ZMM25,
    Register::ZMM26,
    Register::ZMM27,
    Register::ZMM28,
    Register::ZMM29,
    Register::ZMM30,
    Register::ZMM31,
];

/// The 32-bit name of a 64-bit general register.
pub(super) fn r32(r: Register) -> Register {
    match r {
        Register::RAX => Register::EAX,
        Register::RCX => Register::ECX,
        Register::RDX => Register::EDX,
        Register::RBX => Register::EBX,
        Register::RSP => Register::ESP,
        Register::RBP => Register::EBP,
        Register::RSI => Register::ESI,
        Register::RDI => Register::EDI,
        Register::R8 => Register::R8D,
        Register::R9 => Register::R9D,
        Register::R10 => Register::R10D,
        Register::R11 => Register::R11D,
        Register::R12 => Register::R12D,
        Register::R13 => Register::R13D,
        Register::R14 => Register::R14D,
        Register::R15 => Register::R15D,
        other => other,
    }
}

/// The 8-bit name of a 64-bit general register.
pub(super) fn r8(r: Register) -> Register {
    match r {
        Register::RAX => Register::AL,
        Register::RCX => Register::CL,
        Register::RDX => Register::DL,
        Register::RBX => Register::BL,
        Register::RBP => Register::BPL,
        Register::RSI => Register::SIL,
        Register::RDI => Register::DIL,
        Register::R8 => Register::R8L,
        Register::R9 => Register::R9L,
        Register::R10 => Register::R10L,
        Register::R11 => Register::R11L,
        Register::R12 => Register::R12L,
        Register::R13 => Register::R13L,
        Register::R14 => Register::R14L,
        Register::R15 => Register::R15L,
        other => other,
    }
}

/// The number of vector register `r` (any size).
pub(super) fn number(r: Register) -> usize {
    let base = if r.is_zmm() {
        Register::ZMM0
    } else if r.is_ymm() {
        Register::YMM0
    } else {
        Register::XMM0
    };
    r as usize - base as usize
}

/// The 16-bit name of a 64-bit general register.
pub(super) fn r16(r: Register) -> Register {
    match r {
        Register::RAX => Register::AX,
        Register::RCX => Register::CX,
        Register::RDX => Register::DX,
        Register::RBX => Register::BX,
        Register::RBP => Register::BP,
        Register::RSI => Register::SI,
        Register::RDI => Register::DI,
        Register::R8 => Register::R8W,
        Register::R9 => Register::R9W,
        Register::R10 => Register::R10W,
        Register::R11 => Register::R11W,
        Register::R12 => Register::R12W,
        Register::R13 => Register::R13W,
        Register::R14 => Register::R14W,
        Register::R15 => Register::R15W,
        other => other,
    }
}
