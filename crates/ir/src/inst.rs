//! Instructions: what each operation is, its immediates, and its value operands.
//!
//! An instruction is an `Op` (the operation and its immediate operands) and a list of value
//! operands. Branches carry their targets in the `Op` as `Dest`s, each with the arguments
//! passed to the target block's parameters. Every instruction has at most one result.

use crate::entity::{Block, Func, Global, StackSlot, Value};
use crate::types::AddrSpace;

/// Operations on one operand, lane-wise on vectors.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum UnaryOp {
    /// Two's complement negation.
    Ineg,
    /// Bitwise not.
    Bnot,
    /// Count of leading zero bits (the width for zero).
    Clz,
    /// Count of trailing zero bits (the width for zero).
    Ctz,
    /// Count of one bits.
    Popcnt,
    /// Float negation (flips the sign bit, NaNs included).
    Fneg,
    /// Float absolute value (clears the sign bit).
    Fabs,
    /// Correctly rounded square root.
    Sqrt,
    /// Round toward negative infinity.
    Floor,
    /// Round toward positive infinity.
    Ceil,
    /// Round toward zero.
    Ftrunc,
    /// Round to nearest integral value, ties to even.
    Nearest,
    /// Square root within the bound OpenCL C gives `sqrt` where correct rounding is not
    /// asked for (`-cl-fp32-correctly-rounded-divide-sqrt`): 3 ulp for float (OpenCL C 3.0,
    /// Table 65: "sqrt ≤ 3 ulp"), correctly rounded for double. A device may compute it
    /// correctly rounded; the GPU device uses the hardware's approximation for float.
    SqrtRelaxed,
    /// Reciprocal square root within OpenCL C's bound for `rsqrt`, 2 ulp for float and double
    /// (Table 65 and the double table: "rsqrt ≤ 2 ulp"); `1 / sqrt(x)` meets it.
    Rsqrt,
}

impl UnaryOp {
    /// All unary operations.
    pub const ALL: [UnaryOp; 14] = [
        UnaryOp::Ineg,
        UnaryOp::Bnot,
        UnaryOp::Clz,
        UnaryOp::Ctz,
        UnaryOp::Popcnt,
        UnaryOp::Fneg,
        UnaryOp::Fabs,
        UnaryOp::Sqrt,
        UnaryOp::Floor,
        UnaryOp::Ceil,
        UnaryOp::Ftrunc,
        UnaryOp::Nearest,
        UnaryOp::SqrtRelaxed,
        UnaryOp::Rsqrt,
    ];

    /// The mnemonic.
    pub fn name(self) -> &'static str {
        match self {
            UnaryOp::Ineg => "ineg",
            UnaryOp::Bnot => "bnot",
            UnaryOp::Clz => "clz",
            UnaryOp::Ctz => "ctz",
            UnaryOp::Popcnt => "popcnt",
            UnaryOp::Fneg => "fneg",
            UnaryOp::Fabs => "fabs",
            UnaryOp::Sqrt => "sqrt",
            UnaryOp::Floor => "floor",
            UnaryOp::Ceil => "ceil",
            UnaryOp::Ftrunc => "ftrunc",
            UnaryOp::Nearest => "nearest",
            UnaryOp::SqrtRelaxed => "sqrt_relaxed",
            UnaryOp::Rsqrt => "rsqrt",
        }
    }

    /// Whether the operand is a float (else an integer).
    pub fn is_float(self) -> bool {
        !matches!(
            self,
            UnaryOp::Ineg | UnaryOp::Bnot | UnaryOp::Clz | UnaryOp::Ctz | UnaryOp::Popcnt
        )
    }
}

/// Operations on two operands of one type, lane-wise on vectors, with the result of that type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BinaryOp {
    /// Wrapping addition.
    Iadd,
    /// Wrapping subtraction.
    Isub,
    /// Wrapping multiplication (the low half).
    Imul,
    /// The high half of the signed double-width product.
    Smulhi,
    /// The high half of the unsigned double-width product.
    Umulhi,
    /// Signed division, rounding toward zero. 6.5.1: division by zero or overflow gives an
    /// unspecified value (no trap).
    Sdiv,
    /// Unsigned division; by zero gives an unspecified value.
    Udiv,
    /// Signed remainder (the sign of the dividend); by zero gives an unspecified value.
    Srem,
    /// Unsigned remainder; by zero gives an unspecified value.
    Urem,
    /// Signed minimum.
    Smin,
    /// Signed maximum.
    Smax,
    /// Unsigned minimum.
    Umin,
    /// Unsigned maximum.
    Umax,
    /// Bitwise and.
    Band,
    /// Bitwise or.
    Bor,
    /// Bitwise xor.
    Bxor,
    /// Shift left. 6.5.10: the amount is taken modulo the lane width.
    Shl,
    /// Logical shift right, amount modulo the lane width.
    Lshr,
    /// Arithmetic shift right, amount modulo the lane width.
    Ashr,
    /// Rotate left, amount modulo the lane width (the `rotate` builtin).
    Rotl,
    /// IEEE addition, round to nearest even.
    Fadd,
    /// IEEE subtraction.
    Fsub,
    /// IEEE multiplication.
    Fmul,
    /// IEEE division.
    Fdiv,
    /// Minimum; if one operand is a NaN the other is returned (the `fmin` builtin).
    Fmin,
    /// Maximum; if one operand is a NaN the other is returned (the `fmax` builtin).
    Fmax,
    /// The magnitude of the first operand with the sign of the second.
    Copysign,
    /// Division within the bound OpenCL C gives `x / y` where correct rounding is not asked
    /// for: 2.5 ulp for float (Table 65: "x / y ≤ 2.5 ulp"), correctly rounded for double. A
    /// device may divide correctly rounded; the GPU device uses the hardware's full-range
    /// approximation for float.
    FdivRelaxed,
}

impl BinaryOp {
    /// All binary operations.
    pub const ALL: [BinaryOp; 28] = [
        BinaryOp::Iadd,
        BinaryOp::Isub,
        BinaryOp::Imul,
        BinaryOp::Smulhi,
        BinaryOp::Umulhi,
        BinaryOp::Sdiv,
        BinaryOp::Udiv,
        BinaryOp::Srem,
        BinaryOp::Urem,
        BinaryOp::Smin,
        BinaryOp::Smax,
        BinaryOp::Umin,
        BinaryOp::Umax,
        BinaryOp::Band,
        BinaryOp::Bor,
        BinaryOp::Bxor,
        BinaryOp::Shl,
        BinaryOp::Lshr,
        BinaryOp::Ashr,
        BinaryOp::Rotl,
        BinaryOp::Fadd,
        BinaryOp::Fsub,
        BinaryOp::Fmul,
        BinaryOp::Fdiv,
        BinaryOp::Fmin,
        BinaryOp::Fmax,
        BinaryOp::Copysign,
        BinaryOp::FdivRelaxed,
    ];

    /// The mnemonic.
    pub fn name(self) -> &'static str {
        match self {
            BinaryOp::Iadd => "iadd",
            BinaryOp::Isub => "isub",
            BinaryOp::Imul => "imul",
            BinaryOp::Smulhi => "smulhi",
            BinaryOp::Umulhi => "umulhi",
            BinaryOp::Sdiv => "sdiv",
            BinaryOp::Udiv => "udiv",
            BinaryOp::Srem => "srem",
            BinaryOp::Urem => "urem",
            BinaryOp::Smin => "smin",
            BinaryOp::Smax => "smax",
            BinaryOp::Umin => "umin",
            BinaryOp::Umax => "umax",
            BinaryOp::Band => "band",
            BinaryOp::Bor => "bor",
            BinaryOp::Bxor => "bxor",
            BinaryOp::Shl => "shl",
            BinaryOp::Lshr => "lshr",
            BinaryOp::Ashr => "ashr",
            BinaryOp::Rotl => "rotl",
            BinaryOp::Fadd => "fadd",
            BinaryOp::Fsub => "fsub",
            BinaryOp::Fmul => "fmul",
            BinaryOp::Fdiv => "fdiv",
            BinaryOp::Fmin => "fmin",
            BinaryOp::Fmax => "fmax",
            BinaryOp::Copysign => "copysign",
            BinaryOp::FdivRelaxed => "fdiv_relaxed",
        }
    }

    /// Whether the operands are floats (else integers).
    pub fn is_float(self) -> bool {
        matches!(
            self,
            BinaryOp::Fadd
                | BinaryOp::Fsub
                | BinaryOp::Fmul
                | BinaryOp::Fdiv
                | BinaryOp::FdivRelaxed
                | BinaryOp::Fmin
                | BinaryOp::Fmax
                | BinaryOp::Copysign
        )
    }

    /// Whether `a op b == b op a` for all operands (bit-exact, NaNs included).
    pub fn is_commutative(self) -> bool {
        matches!(
            self,
            BinaryOp::Iadd
                | BinaryOp::Imul
                | BinaryOp::Smulhi
                | BinaryOp::Umulhi
                | BinaryOp::Smin
                | BinaryOp::Smax
                | BinaryOp::Umin
                | BinaryOp::Umax
                | BinaryOp::Band
                | BinaryOp::Bor
                | BinaryOp::Bxor
        )
    }
}

impl BinaryOp {
    /// Whether the operation can combine the values of a work-group collective
    /// ([`GroupOp`]): the associative operations the OpenCL C collectives name (add, mul,
    /// min, max, and, or, xor).
    pub fn is_group_combinable(self) -> bool {
        matches!(
            self,
            BinaryOp::Iadd
                | BinaryOp::Imul
                | BinaryOp::Smin
                | BinaryOp::Smax
                | BinaryOp::Umin
                | BinaryOp::Umax
                | BinaryOp::Band
                | BinaryOp::Bor
                | BinaryOp::Bxor
                | BinaryOp::Fadd
                | BinaryOp::Fmul
                | BinaryOp::Fmin
                | BinaryOp::Fmax
        )
    }

    /// The identity of a group-combinable operation on lanes of `bits` bits (floats: 32 or
    /// 64), as the lane's bits; None for other operations. OpenCL C 6.15.16: "If op = add,
    /// the identity I is 0. If op = min, the identity I is INT_MAX, UINT_MAX, LONG_MAX,
    /// ULONG_MAX, for int, uint, long, ulong types and is +INF for floating-point types.
    /// Similarly if op = max, the identity I is INT_MIN, 0, LONG_MIN, 0 and -INF"; 6.15.17:
    /// 1 for mul, ~0 for and, 0 for or and xor.
    pub fn identity(self, bits: u32) -> Option<u64> {
        let all = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let sign = 1u64 << (bits.clamp(1, 64) - 1);
        let float = |x: f64| match bits {
            32 => u64::from((x as f32).to_bits()),
            _ => x.to_bits(),
        };
        Some(match self {
            BinaryOp::Iadd | BinaryOp::Bor | BinaryOp::Bxor | BinaryOp::Umax => 0,
            BinaryOp::Imul => 1,
            BinaryOp::Band | BinaryOp::Umin => all,
            BinaryOp::Smin => all >> 1,
            BinaryOp::Smax => sign,
            BinaryOp::Fadd => float(0.0),
            BinaryOp::Fmul => float(1.0),
            BinaryOp::Fmin => float(f64::INFINITY),
            BinaryOp::Fmax => float(f64::NEG_INFINITY),
            _ => return None,
        })
    }
}

/// Work-group collective operations (OpenCL C 6.15.16 "Work-group Collective Functions" and
/// 6.15.17, `cl_khr_work_group_uniform_arithmetic`). Every work-item of the group must
/// reach the instruction, in work-group uniform control flow, like a barrier (6.15.16:
/// "These built-in functions must be encountered by all work-items in a work-group"); each
/// passes its operand and gets a result computed from the operands of all of them, in the
/// order of their linear local ids. The value type is a scalar integer (not `i1`) or float.
/// The IR leaves the exchange to the device: the CPU device passes the operands through the
/// work-items' frames, a GPU through its shared memory.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum GroupOp {
    /// work_group_broadcast: the operand of the work-item whose linear local id is the second
    /// operand (an `i64`, equal for all work-items; an id past the group gives an
    /// unspecified value). Operands: `[x, id]`.
    Broadcast,
    /// work_group_reduce_<op>: the combination of every work-item's operand. Operands: `[x]`.
    Reduce(BinaryOp),
    /// work_group_scan_inclusive_<op>: the combination of the operands of the work-items
    /// whose linear local id is at most this one's. Operands: `[x]`.
    ScanInclusive(BinaryOp),
    /// work_group_scan_exclusive_<op>: as the inclusive scan over the ids below this one's;
    /// the operation's identity ([`BinaryOp::identity`]) for the first. Operands: `[x]`.
    ScanExclusive(BinaryOp),
}

impl GroupOp {
    /// The mnemonic, without the combining operation.
    pub fn name(self) -> &'static str {
        match self {
            GroupOp::Broadcast => "group_broadcast",
            GroupOp::Reduce(_) => "group_reduce",
            GroupOp::ScanInclusive(_) => "group_scan_inclusive",
            GroupOp::ScanExclusive(_) => "group_scan_exclusive",
        }
    }

    /// The mnemonic of the sub-group form.
    pub fn sub_group_name(self) -> &'static str {
        match self {
            GroupOp::Broadcast => "sub_group_broadcast",
            GroupOp::Reduce(_) => "sub_group_reduce",
            GroupOp::ScanInclusive(_) => "sub_group_scan_inclusive",
            GroupOp::ScanExclusive(_) => "sub_group_scan_exclusive",
        }
    }

    /// The combining operation (None for a broadcast).
    pub fn combine(self) -> Option<BinaryOp> {
        match self {
            GroupOp::Broadcast => None,
            GroupOp::Reduce(b) | GroupOp::ScanInclusive(b) | GroupOp::ScanExclusive(b) => Some(b),
        }
    }

    /// The operation of this kind with combining operation `b` (`name` as [`GroupOp::name`]
    /// gives it); None for an unknown name.
    pub fn from_name(name: &str, b: Option<BinaryOp>) -> Option<GroupOp> {
        Some(match (name, b) {
            ("group_broadcast", None) => GroupOp::Broadcast,
            ("group_reduce", Some(b)) => GroupOp::Reduce(b),
            ("group_scan_inclusive", Some(b)) => GroupOp::ScanInclusive(b),
            ("group_scan_exclusive", Some(b)) => GroupOp::ScanExclusive(b),
            _ => return None,
        })
    }
}

/// Integer comparisons.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum IntCC {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Signed less than.
    Slt,
    /// Signed less than or equal.
    Sle,
    /// Signed greater than.
    Sgt,
    /// Signed greater than or equal.
    Sge,
    /// Unsigned less than.
    Ult,
    /// Unsigned less than or equal.
    Ule,
    /// Unsigned greater than.
    Ugt,
    /// Unsigned greater than or equal.
    Uge,
}

impl IntCC {
    /// All integer conditions.
    pub const ALL: [IntCC; 10] = [
        IntCC::Eq,
        IntCC::Ne,
        IntCC::Slt,
        IntCC::Sle,
        IntCC::Sgt,
        IntCC::Sge,
        IntCC::Ult,
        IntCC::Ule,
        IntCC::Ugt,
        IntCC::Uge,
    ];

    /// The text form.
    pub fn name(self) -> &'static str {
        match self {
            IntCC::Eq => "eq",
            IntCC::Ne => "ne",
            IntCC::Slt => "slt",
            IntCC::Sle => "sle",
            IntCC::Sgt => "sgt",
            IntCC::Sge => "sge",
            IntCC::Ult => "ult",
            IntCC::Ule => "ule",
            IntCC::Ugt => "ugt",
            IntCC::Uge => "uge",
        }
    }

    /// The condition with the operands swapped: `a cc b == b cc.swapped() a`.
    pub fn swapped(self) -> IntCC {
        match self {
            IntCC::Eq | IntCC::Ne => self,
            IntCC::Slt => IntCC::Sgt,
            IntCC::Sle => IntCC::Sge,
            IntCC::Sgt => IntCC::Slt,
            IntCC::Sge => IntCC::Sle,
            IntCC::Ult => IntCC::Ugt,
            IntCC::Ule => IntCC::Uge,
            IntCC::Ugt => IntCC::Ult,
            IntCC::Uge => IntCC::Ule,
        }
    }

    /// The negated condition: `!(a cc b) == a cc.inverse() b`.
    pub fn inverse(self) -> IntCC {
        match self {
            IntCC::Eq => IntCC::Ne,
            IntCC::Ne => IntCC::Eq,
            IntCC::Slt => IntCC::Sge,
            IntCC::Sle => IntCC::Sgt,
            IntCC::Sgt => IntCC::Sle,
            IntCC::Sge => IntCC::Slt,
            IntCC::Ult => IntCC::Uge,
            IntCC::Ule => IntCC::Ugt,
            IntCC::Ugt => IntCC::Ule,
            IntCC::Uge => IntCC::Ult,
        }
    }
}

/// Float comparisons. Ordered conditions are false when either operand is a NaN, unordered
/// ones are true.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FloatCC {
    /// Neither is NaN.
    Ord,
    /// Either is NaN.
    Uno,
    /// Ordered and equal.
    Oeq,
    /// Ordered and not equal.
    One,
    /// Ordered and less than.
    Olt,
    /// Ordered and less than or equal.
    Ole,
    /// Ordered and greater than.
    Ogt,
    /// Ordered and greater than or equal.
    Oge,
    /// Unordered or equal.
    Ueq,
    /// Unordered or not equal (the C `!=`).
    Une,
    /// Unordered or less than.
    Ult,
    /// Unordered or less than or equal.
    Ule,
    /// Unordered or greater than.
    Ugt,
    /// Unordered or greater than or equal.
    Uge,
}

impl FloatCC {
    /// All float conditions.
    pub const ALL: [FloatCC; 14] = [
        FloatCC::Ord,
        FloatCC::Uno,
        FloatCC::Oeq,
        FloatCC::One,
        FloatCC::Olt,
        FloatCC::Ole,
        FloatCC::Ogt,
        FloatCC::Oge,
        FloatCC::Ueq,
        FloatCC::Une,
        FloatCC::Ult,
        FloatCC::Ule,
        FloatCC::Ugt,
        FloatCC::Uge,
    ];

    /// The text form.
    pub fn name(self) -> &'static str {
        match self {
            FloatCC::Ord => "ord",
            FloatCC::Uno => "uno",
            FloatCC::Oeq => "oeq",
            FloatCC::One => "one",
            FloatCC::Olt => "olt",
            FloatCC::Ole => "ole",
            FloatCC::Ogt => "ogt",
            FloatCC::Oge => "oge",
            FloatCC::Ueq => "ueq",
            FloatCC::Une => "une",
            FloatCC::Ult => "ult",
            FloatCC::Ule => "ule",
            FloatCC::Ugt => "ugt",
            FloatCC::Uge => "uge",
        }
    }

    /// The negated condition: `!(a cc b) == a cc.inverse() b`, NaNs included (an ordered
    /// condition's negation is the unordered form of the opposite one).
    pub fn inverse(self) -> FloatCC {
        match self {
            FloatCC::Ord => FloatCC::Uno,
            FloatCC::Uno => FloatCC::Ord,
            FloatCC::Oeq => FloatCC::Une,
            FloatCC::One => FloatCC::Ueq,
            FloatCC::Olt => FloatCC::Uge,
            FloatCC::Ole => FloatCC::Ugt,
            FloatCC::Ogt => FloatCC::Ule,
            FloatCC::Oge => FloatCC::Ult,
            FloatCC::Ueq => FloatCC::One,
            FloatCC::Une => FloatCC::Oeq,
            FloatCC::Ult => FloatCC::Oge,
            FloatCC::Ule => FloatCC::Ogt,
            FloatCC::Ugt => FloatCC::Ole,
            FloatCC::Uge => FloatCC::Olt,
        }
    }

    /// Evaluates the condition on two floats.
    pub fn eval(self, a: f64, b: f64) -> bool {
        let uno = a.is_nan() || b.is_nan();
        match self {
            FloatCC::Ord => !uno,
            FloatCC::Uno => uno,
            FloatCC::Oeq => a == b,
            FloatCC::One => !uno && a != b,
            FloatCC::Olt => a < b,
            FloatCC::Ole => a <= b,
            FloatCC::Ogt => a > b,
            FloatCC::Oge => a >= b,
            FloatCC::Ueq => uno || a == b,
            FloatCC::Une => a != b,
            FloatCC::Ult => uno || a < b,
            FloatCC::Ule => uno || a <= b,
            FloatCC::Ugt => uno || a > b,
            FloatCC::Uge => uno || a >= b,
        }
    }
}

/// An IEEE rounding mode (OpenCL C 6.4.3.2).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Round {
    /// To nearest, ties to even: the default for conversions to float.
    Rte,
    /// Toward zero: the default for conversions to integer.
    Rtz,
    /// Toward positive infinity.
    Rtp,
    /// Toward negative infinity.
    Rtn,
}

impl Round {
    /// All rounding modes.
    pub const ALL: [Round; 4] = [Round::Rte, Round::Rtz, Round::Rtp, Round::Rtn];

    /// The text form (`rte`, `rtz`, `rtp`, `rtn`, as in the `convert_` suffixes).
    pub fn name(self) -> &'static str {
        match self {
            Round::Rte => "rte",
            Round::Rtz => "rtz",
            Round::Rtp => "rtp",
            Round::Rtn => "rtn",
        }
    }
}

/// Conversions between value types (OpenCL C 6.4.3: explicit conversions). The result type is
/// the instruction's; the lane counts of operand and result are equal.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ConvOp {
    /// Integer to narrower integer, keeping the low bits.
    Trunc,
    /// Integer to wider integer, zero-extended.
    Zext,
    /// Integer to wider integer, sign-extended (`i1` true becomes all ones).
    Sext,
    /// Integer to integer of any width, saturated to the destination's range. `src_signed`
    /// and `dst_signed` say how each side's bits are read.
    SatInt {
        /// The operand is signed.
        src_signed: bool,
        /// The result is signed.
        dst_signed: bool,
    },
    /// Float to float, rounded as given (exact when widening).
    Fconv(Round),
    /// Signed integer to float.
    SintToFloat(Round),
    /// Unsigned integer to float.
    UintToFloat(Round),
    /// Float to signed integer. Unsaturated, an out-of-range operand gives an unspecified
    /// value; saturated, it clamps and NaN gives 0 (6.4.3.3).
    FloatToSint {
        /// The rounding mode.
        round: Round,
        /// Whether out-of-range values saturate.
        sat: bool,
    },
    /// Float to unsigned integer.
    FloatToUint {
        /// The rounding mode.
        round: Round,
        /// Whether out-of-range values saturate.
        sat: bool,
    },
}

/// Memory ordering of atomics and fences (OpenCL C 6.15.12.3: memory_order).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Ordering {
    /// memory_order_relaxed.
    Relaxed,
    /// memory_order_acquire.
    Acquire,
    /// memory_order_release.
    Release,
    /// memory_order_acq_rel.
    AcqRel,
    /// memory_order_seq_cst.
    SeqCst,
}

impl Ordering {
    /// All orderings.
    pub const ALL: [Ordering; 5] = [
        Ordering::Relaxed,
        Ordering::Acquire,
        Ordering::Release,
        Ordering::AcqRel,
        Ordering::SeqCst,
    ];

    /// The text form.
    pub fn name(self) -> &'static str {
        match self {
            Ordering::Relaxed => "relaxed",
            Ordering::Acquire => "acquire",
            Ordering::Release => "release",
            Ordering::AcqRel => "acq_rel",
            Ordering::SeqCst => "seq_cst",
        }
    }
}

/// Memory scope of atomics, fences and barriers (OpenCL C 6.15.12.4: memory_scope).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Scope {
    /// memory_scope_work_item.
    WorkItem,
    /// memory_scope_sub_group.
    SubGroup,
    /// memory_scope_work_group.
    WorkGroup,
    /// memory_scope_device.
    Device,
    /// memory_scope_all_svm_devices (all_devices).
    AllDevices,
}

impl Scope {
    /// All scopes.
    pub const ALL: [Scope; 5] = [
        Scope::WorkItem,
        Scope::SubGroup,
        Scope::WorkGroup,
        Scope::Device,
        Scope::AllDevices,
    ];

    /// The text form.
    pub fn name(self) -> &'static str {
        match self {
            Scope::WorkItem => "work_item",
            Scope::SubGroup => "sub_group",
            Scope::WorkGroup => "work_group",
            Scope::Device => "device",
            Scope::AllDevices => "all_devices",
        }
    }
}

/// Which memories a fence or barrier orders (CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE,
/// CLK_IMAGE_MEM_FENCE), as a bit set.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct FenceFlags(pub u8);

impl FenceFlags {
    /// CLK_LOCAL_MEM_FENCE.
    pub const LOCAL: FenceFlags = FenceFlags(1);
    /// CLK_GLOBAL_MEM_FENCE.
    pub const GLOBAL: FenceFlags = FenceFlags(2);
    /// CLK_IMAGE_MEM_FENCE.
    pub const IMAGE: FenceFlags = FenceFlags(4);
    /// The flag names in text order.
    pub const NAMES: [(FenceFlags, &'static str); 3] = [
        (FenceFlags::LOCAL, "local"),
        (FenceFlags::GLOBAL, "global"),
        (FenceFlags::IMAGE, "image"),
    ];

    /// Whether every flag of `other` is set.
    pub fn contains(self, other: FenceFlags) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for FenceFlags {
    type Output = FenceFlags;
    fn bitor(self, rhs: FenceFlags) -> FenceFlags {
        FenceFlags(self.0 | rhs.0)
    }
}

/// Read-modify-write atomic operations; the instruction returns the old value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum RmwOp {
    /// Exchange.
    Xchg,
    /// Wrapping add (or float add on float operands).
    Add,
    /// Wrapping subtract.
    Sub,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise xor.
    Xor,
    /// Signed minimum.
    Smin,
    /// Signed maximum.
    Smax,
    /// Unsigned minimum.
    Umin,
    /// Unsigned maximum.
    Umax,
}

impl RmwOp {
    /// All read-modify-write operations.
    pub const ALL: [RmwOp; 10] = [
        RmwOp::Xchg,
        RmwOp::Add,
        RmwOp::Sub,
        RmwOp::And,
        RmwOp::Or,
        RmwOp::Xor,
        RmwOp::Smin,
        RmwOp::Smax,
        RmwOp::Umin,
        RmwOp::Umax,
    ];

    /// The text form.
    pub fn name(self) -> &'static str {
        match self {
            RmwOp::Xchg => "xchg",
            RmwOp::Add => "add",
            RmwOp::Sub => "sub",
            RmwOp::And => "and",
            RmwOp::Or => "or",
            RmwOp::Xor => "xor",
            RmwOp::Smin => "smin",
            RmwOp::Smax => "smax",
            RmwOp::Umin => "umin",
            RmwOp::Umax => "umax",
        }
    }
}

/// Work-item functions (OpenCL C 6.15.1) as instructions. Those taking a dimension read it
/// from the instruction's immediate (0, 1 or 2).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum WorkItemOp {
    /// get_work_dim.
    WorkDim,
    /// get_global_size(dim).
    GlobalSize,
    /// get_global_id(dim).
    GlobalId,
    /// get_local_size(dim).
    LocalSize,
    /// get_enqueued_local_size(dim).
    EnqueuedLocalSize,
    /// get_local_id(dim).
    LocalId,
    /// get_num_groups(dim).
    NumGroups,
    /// get_group_id(dim).
    GroupId,
    /// get_global_offset(dim).
    GlobalOffset,
    /// get_global_linear_id.
    GlobalLinearId,
    /// get_local_linear_id.
    LocalLinearId,
    /// get_sub_group_size (6.15.2: sub-group functions).
    SubGroupSize,
    /// get_max_sub_group_size.
    MaxSubGroupSize,
    /// get_num_sub_groups.
    NumSubGroups,
    /// get_enqueued_num_sub_groups.
    EnqueuedNumSubGroups,
    /// get_sub_group_id.
    SubGroupId,
    /// get_sub_group_local_id.
    SubGroupLocalId,
}

impl WorkItemOp {
    /// All work-item operations.
    pub const ALL: [WorkItemOp; 17] = [
        WorkItemOp::WorkDim,
        WorkItemOp::GlobalSize,
        WorkItemOp::GlobalId,
        WorkItemOp::LocalSize,
        WorkItemOp::EnqueuedLocalSize,
        WorkItemOp::LocalId,
        WorkItemOp::NumGroups,
        WorkItemOp::GroupId,
        WorkItemOp::GlobalOffset,
        WorkItemOp::GlobalLinearId,
        WorkItemOp::LocalLinearId,
        WorkItemOp::SubGroupSize,
        WorkItemOp::MaxSubGroupSize,
        WorkItemOp::NumSubGroups,
        WorkItemOp::EnqueuedNumSubGroups,
        WorkItemOp::SubGroupId,
        WorkItemOp::SubGroupLocalId,
    ];

    /// The mnemonic.
    pub fn name(self) -> &'static str {
        match self {
            WorkItemOp::WorkDim => "work_dim",
            WorkItemOp::GlobalSize => "global_size",
            WorkItemOp::GlobalId => "global_id",
            WorkItemOp::LocalSize => "local_size",
            WorkItemOp::EnqueuedLocalSize => "enqueued_local_size",
            WorkItemOp::LocalId => "local_id",
            WorkItemOp::NumGroups => "num_groups",
            WorkItemOp::GroupId => "group_id",
            WorkItemOp::GlobalOffset => "global_offset",
            WorkItemOp::GlobalLinearId => "global_linear_id",
            WorkItemOp::LocalLinearId => "local_linear_id",
            WorkItemOp::SubGroupSize => "sub_group_size",
            WorkItemOp::MaxSubGroupSize => "max_sub_group_size",
            WorkItemOp::NumSubGroups => "num_sub_groups",
            WorkItemOp::EnqueuedNumSubGroups => "enqueued_num_sub_groups",
            WorkItemOp::SubGroupId => "sub_group_id",
            WorkItemOp::SubGroupLocalId => "sub_group_local_id",
        }
    }

    /// Whether the operation takes a dimension.
    pub fn has_dim(self) -> bool {
        matches!(
            self,
            WorkItemOp::GlobalSize
                | WorkItemOp::GlobalId
                | WorkItemOp::LocalSize
                | WorkItemOp::EnqueuedLocalSize
                | WorkItemOp::LocalId
                | WorkItemOp::NumGroups
                | WorkItemOp::GroupId
                | WorkItemOp::GlobalOffset
        )
    }
}

/// How a load or store accesses memory.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemFlags {
    /// The address space; equal to the pointer operand's.
    pub space: AddrSpace,
    /// The alignment the address is known to have, in bytes: a power of two.
    pub align: u32,
    /// A volatile access: never removed, merged or reordered with other volatile accesses.
    pub volatile: bool,
    /// An access that stays inside memory of its space by construction, such as the CPU
    /// device's work-group transform's reads and writes of its context memory: a device need
    /// not confine it to the launch's region of that space, and it cannot fault. Only
    /// `private` and `local` accesses carry it (the spaces a device confines), and a program
    /// binary never does: a front end cannot know it (`serialize::deserialize` refuses one).
    pub trusted: bool,
}

impl MemFlags {
    /// An ordinary access of `space` memory at an address aligned to `align` bytes.
    pub fn new(space: AddrSpace, align: u32) -> MemFlags {
        MemFlags {
            space,
            align,
            volatile: false,
            trusted: false,
        }
    }

    /// These flags, volatile.
    pub fn with_volatile(self) -> MemFlags {
        MemFlags {
            volatile: true,
            ..self
        }
    }

    /// These flags, trusted.
    pub fn with_trusted(self) -> MemFlags {
        MemFlags {
            trusted: true,
            ..self
        }
    }
}

/// The memory semantics of an atomic instruction.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AtomicInfo {
    /// The address space; equal to the pointer operand's.
    pub space: AddrSpace,
    /// The ordering (for `cmpxchg`, the ordering on success).
    pub order: Ordering,
    /// The scope.
    pub scope: Scope,
}

/// A branch target: a block and the arguments for its parameters.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Dest {
    /// The target block.
    pub block: Block,
    /// One argument per parameter of `block`.
    pub args: Vec<Value>,
}

impl Dest {
    /// A target with arguments.
    pub fn new(block: Block, args: &[Value]) -> Dest {
        Dest {
            block,
            args: args.to_vec(),
        }
    }
}

/// The targets of a `switch`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct SwitchTable {
    /// Taken when no case matches.
    pub default: Dest,
    /// `(value, target)` pairs; the values are distinct and stored masked to the selector's
    /// width.
    pub cases: Vec<(u64, Dest)>,
}

/// An operation and its immediates. The comment of each variant lists its value operands.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    /// An integer constant, stored zero-extended from the result's lane width; splatted when
    /// the result is a vector. Operands: none.
    Iconst(u64),
    /// A float constant: the IEEE bits of the result's lane type, zero-extended; splatted
    /// when the result is a vector. Operands: none.
    Fconst(u64),
    /// A vector constant, one entry per lane, each stored like `Iconst`'s or `Fconst`'s.
    /// (A constant with equal lanes is an `Iconst` or `Fconst`.) Operands: none.
    Vconst(Box<[u64]>),
    /// The null pointer of the result's type. Operands: none.
    Null,
    /// An unspecified value of the result type. Operands: none.
    Undef,
    /// Operands: `[x]`.
    Unary(UnaryOp),
    /// Operands: `[a, b]`.
    Binary(BinaryOp),
    /// Fused multiply-add `a * b + c`, rounded once. Operands: `[a, b, c]`.
    Fma,
    /// Integer (or pointer) comparison; the result is `i1` or an `i1` vector. Operands:
    /// `[a, b]`.
    Icmp(IntCC),
    /// Float comparison; the result is `i1` or an `i1` vector. Operands: `[a, b]`.
    Fcmp(FloatCC),
    /// `c ? a : b`, lane-wise when `c` is a vector. Operands: `[c, a, b]`.
    Select,
    /// Operands: `[x]`.
    Convert(ConvOp),
    /// Reinterprets the bits; operand and result have equal `bits()`, neither is a pointer.
    /// Operands: `[x]`.
    Bitcast,
    /// Pointer to `i32`/`i64` integer. Operands: `[p]`.
    PtrToInt,
    /// `i32`/`i64` integer to pointer. Operands: `[x]`.
    IntToPtr,
    /// Pointer to a pointer of another address space (to or from `generic`). Operands: `[p]`.
    AddrCast,
    /// `p + offset` bytes; `offset` is a signed `i32` or `i64`. Operands: `[p, offset]`.
    PtrAdd,
    /// A vector with every lane `x`. Operands: `[x]`.
    Splat,
    /// Lane `n` of a vector. Operands: `[v]`.
    ExtractLane(u8),
    /// `v` with lane `n` replaced by `x`. Operands: `[v, x]`.
    InsertLane(u8),
    /// Lanes chosen from the concatenation of `a` and `b` (lane `i` of `b` is `a.lanes + i`).
    /// The result has one lane per mask entry. Operands: `[a, b]`.
    Shuffle(Box<[u8]>),
    /// Operands: `[p]`.
    Load(MemFlags),
    /// Stores `x` at `p`. Operands: `[x, p]`.
    Store(MemFlags),
    /// Atomically applies the operation; returns the old value. Operands: `[p, x]`.
    AtomicRmw(RmwOp, AtomicInfo),
    /// Atomic compare-exchange; returns the old value. The second ordering applies on failure.
    /// Operands: `[p, expected, desired]`.
    Cmpxchg(AtomicInfo, Ordering),
    /// Operands: `[p]`.
    AtomicLoad(AtomicInfo),
    /// Operands: `[x, p]`.
    AtomicStore(AtomicInfo),
    /// A memory fence (atomic_work_item_fence). Operands: none.
    Fence(FenceFlags, Ordering, Scope),
    /// A work-group barrier (work_group_barrier) with the memory it fences. Operands: none.
    Barrier(FenceFlags, Scope),
    /// A work-item query with its dimension (0 when the query takes none). Operands: none.
    WorkItem(WorkItemOp, u8),
    /// A collective operation of the work-group or of the sub-group (the scope, `work_group`
    /// or `sub_group`); a synchronization point like `Barrier` (without its memory fence).
    /// Operands: `[x]`, or `[x, id]` for a broadcast (the id is the linear local id in the
    /// work-group, the sub-group local id in a sub-group). Which work-items form a sub-group
    /// is the device's choice (OpenCL C 6.15.1: "an implementation-defined" grouping).
    Group(GroupOp, Scope),
    /// The address of a stack slot, a `ptr.private`. Operands: none.
    SlotAddr(StackSlot),
    /// The address of a module global, a pointer in the global's space. Operands: none.
    GlobalAddr(Global),
    /// Calls a function of the module (defined or declared). Operands: the arguments.
    Call(Func),
    /// Terminator. Operands: none.
    Jump(Dest),
    /// Terminator: to the first target if `c` (an `i1`) is true. Operands: `[c]`.
    Brif(Box<(Dest, Dest)>),
    /// Terminator: to the case whose value equals `x` (an integer scalar). Operands: `[x]`.
    Switch(Box<SwitchTable>),
    /// Terminator. Operands: the returned value, if the function returns one.
    Return,
    /// Terminator: never executed. Operands: none.
    Unreachable,
}

impl Op {
    /// Whether this operation ends a block.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            Op::Jump(_) | Op::Brif(_) | Op::Switch(_) | Op::Return | Op::Unreachable
        )
    }

    /// The branch targets of a terminator, in order.
    pub fn dests(&self) -> Vec<&Dest> {
        match self {
            Op::Jump(d) => vec![d],
            Op::Brif(d) => vec![&d.0, &d.1],
            Op::Switch(t) => std::iter::once(&t.default)
                .chain(t.cases.iter().map(|(_, d)| d))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The branch targets of a terminator, mutably.
    pub fn dests_mut(&mut self) -> Vec<&mut Dest> {
        match self {
            Op::Jump(d) => vec![d],
            Op::Brif(d) => {
                let (a, b) = &mut **d;
                vec![a, b]
            }
            Op::Switch(t) => {
                let t = &mut **t;
                std::iter::once(&mut t.default)
                    .chain(t.cases.iter_mut().map(|(_, d)| d))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// Whether the operation may read or write memory, synchronize, or have another effect
    /// that forbids removing, merging or moving it. Calls count as effects.
    pub fn has_side_effects(&self) -> bool {
        matches!(
            self,
            Op::Store(_)
                | Op::AtomicRmw(..)
                | Op::Cmpxchg(..)
                | Op::AtomicLoad(_)
                | Op::AtomicStore(_)
                | Op::Fence(..)
                | Op::Barrier(..)
                | Op::Group(..)
                | Op::Call(_)
        ) || self.is_terminator()
            || matches!(self, Op::Load(f) if f.volatile)
    }

    /// Whether the operation reads memory (plain loads).
    pub fn reads_memory(&self) -> bool {
        matches!(self, Op::Load(_))
    }

    /// Whether the result depends only on the operands and immediates, so that two equal
    /// instructions give equal results and an unused one can be removed.
    pub fn is_pure(&self) -> bool {
        !self.has_side_effects() && !self.reads_memory()
    }
}

/// An instruction: its operation and value operands.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct InstData {
    /// The operation.
    pub op: Op,
    /// The value operands (branch arguments live in the `Dest`s of `op`).
    pub args: Vec<Value>,
}

impl InstData {
    /// An instruction.
    pub fn new(op: Op, args: &[Value]) -> InstData {
        InstData {
            op,
            args: args.to_vec(),
        }
    }

    /// Every value the instruction reads: operands, then branch arguments.
    pub fn all_args(&self) -> Vec<Value> {
        let mut v = self.args.clone();
        for d in self.op.dests() {
            v.extend_from_slice(&d.args);
        }
        v
    }

    /// Applies `f` to every value the instruction reads.
    pub fn map_args(&mut self, mut f: impl FnMut(Value) -> Value) {
        for a in &mut self.args {
            *a = f(*a);
        }
        for d in self.op.dests_mut() {
            for a in &mut d.args {
                *a = f(*a);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hot_enum_sizes_stay_small() {
        assert!(
            std::mem::size_of::<Op>() <= 40,
            "Op is {} bytes",
            std::mem::size_of::<Op>()
        );
        assert!(std::mem::size_of::<InstData>() <= 64);
        assert!(std::mem::size_of::<MemFlags>() <= 8);
    }

    #[test]
    fn float_conditions_follow_ieee() {
        let nan = f64::NAN;
        assert!(!FloatCC::Oeq.eval(nan, nan));
        assert!(FloatCC::Une.eval(nan, 1.0));
        assert!(FloatCC::Uno.eval(1.0, nan));
        assert!(!FloatCC::One.eval(1.0, nan));
        assert!(FloatCC::Oeq.eval(0.0, -0.0));
        assert!(FloatCC::Ult.eval(nan, 0.0));
        assert!(!FloatCC::Olt.eval(nan, 0.0));
    }
}
