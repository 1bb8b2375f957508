//! A generated kernel as a tree (statements and expressions), and its OpenCL C text.
//!
//! The generator builds this tree and the reducer edits it; only [`Program::source`] turns it
//! into OpenCL C. Every construct renders to code without undefined behaviour whatever its
//! operands: shifts are masked to the width, divisors are made odd (so never zero, and a signed
//! divisor never -1), indices are masked to their array, signed operations work on values
//! reinterpreted from `uint`. The well-definedness that depends on where a construct stands
//! (barriers and collectives only in uniform control flow, `__local` reads only between the
//! barriers of an exchange) is the generator's to keep and the reducer's to preserve: the
//! reducer only deletes statements, unwraps bodies and replaces expressions by their operands
//! or constants, none of which moves code into another context.

use std::fmt::Write;

/// Words of the `in` buffer; indices into it are masked with `INPUT_WORDS - 1`.
pub const INPUT_WORDS: usize = 64;
/// Words of the `acc` buffer the global atomics combine into.
pub const ACC_WORDS: usize = 8;
/// Elements of the `__local` exchange array: at least the largest local size run.
pub const LOCAL_WORDS: usize = 128;
/// Elements of the private array each work-item owns.
pub const PRIVATE_WORDS: usize = 8;

/// How a program's NDRange is shaped around the local size along x each run picks: the
/// dimensions, the local sizes and group counts along y and z, the global work offset, and
/// the work-items the last group along x and y lacks (non-uniform work-groups, OpenCL 2.0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// 1, 2 or 3.
    pub dims: u32,
    /// Local sizes along y and z (1 beyond `dims`), cut where a group would pass
    /// [`LOCAL_WORDS`] work-items.
    pub local_yz: [u64; 2],
    /// Work-groups along y and z.
    pub groups_yz: [u64; 2],
    /// The global work offset.
    pub offset: [u64; 3],
    /// Work-items missing from the last group along x and y, modulo that local size.
    pub short: [u64; 2],
}

/// Work-groups along x per launch: enough that group ids differ and global ids pass a
/// group's end.
pub const GROUPS_X: u64 = 2;

/// One launch: the NDRange of a program of a given shape at one local size along x.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    pub work_dim: u32,
    pub global: [u64; 3],
    pub local: [u64; 3],
    pub offset: [u64; 3],
}

impl Launch {
    /// Work-items in the launch: one `out` word each.
    pub fn items(&self) -> usize {
        self.global.iter().product::<u64>() as usize
    }

    /// The sizes of the first `work_dim` dimensions of `v`, comma-separated.
    pub fn list(&self, v: [u64; 3]) -> String {
        let used: Vec<String> = v[..self.work_dim as usize]
            .iter()
            .map(u64::to_string)
            .collect();
        used.join(",")
    }
}

impl Shape {
    /// One-dimensional, uniform, without offset: the shape the tester began with.
    pub const PLAIN: Shape = Shape {
        dims: 1,
        local_yz: [1, 1],
        groups_yz: [1, 1],
        offset: [0; 3],
        short: [0, 0],
    };

    /// The launch at local size `local_x` along x.
    pub fn launch(&self, local_x: u64) -> Launch {
        let room = |used: u64| (LOCAL_WORDS as u64 / used).max(1);
        let ly = self.local_yz[0].min(room(local_x));
        let lz = self.local_yz[1].min(room(local_x * ly));
        let local = [local_x, ly, lz];
        let groups = [GROUPS_X, self.groups_yz[0], self.groups_yz[1]];
        let mut global = [0; 3];
        for d in 0..3 {
            let short = if d < 2 { self.short[d] % local[d] } else { 0 };
            global[d] = local[d] * groups[d] - short;
        }
        Launch {
            work_dim: self.dims,
            global,
            local,
            offset: self.offset,
        }
    }

    /// The text a reproducer keeps the shape in: its ten numbers.
    pub fn text(&self) -> String {
        let [ly, lz] = self.local_yz;
        let [gy, gz] = self.groups_yz;
        let [o0, o1, o2] = self.offset;
        let [s0, s1] = self.short;
        format!("{},{ly},{lz},{gy},{gz},{o0},{o1},{o2},{s0},{s1}", self.dims)
    }

    /// The shape [`Shape::text`] wrote.
    pub fn parse(text: &str) -> Option<Shape> {
        let v: Vec<u64> = text
            .split(',')
            .map(|w| w.trim().parse().ok())
            .collect::<Option<_>>()?;
        let [dims, ly, lz, gy, gz, o0, o1, o2, s0, s1] = v[..] else {
            return None;
        };
        let shape = Shape {
            dims: dims as u32,
            local_yz: [ly, lz],
            groups_yz: [gy, gz],
            offset: [o0, o1, o2],
            short: [s0, s1],
        };
        ((1..=3).contains(&dims) && ly * lz * gy * gz > 0).then_some(shape)
    }
}

/// A work-item or work-group query, as `uint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Id {
    /// `get_local_id(0)`: varying.
    Local,
    /// `get_global_id(0)`: varying.
    Global,
    /// `get_local_size(0)`: uniform.
    LocalSize,
    /// `get_group_id(0)`: uniform.
    Group,
    /// The kernel argument `n`: uniform.
    N,
    /// `get_local_id(1)`: varying.
    LocalY,
    /// `get_local_id(2)`: varying.
    LocalZ,
    /// `get_global_id(1)`: varying.
    GlobalY,
    /// `get_local_linear_id()`: varying.
    LocalLinear,
    /// `get_global_linear_id()`: varying.
    GlobalLinear,
    /// `get_group_id(1)`: uniform.
    GroupY,
    /// `get_local_size(1)`: uniform.
    LocalSizeY,
    /// `get_enqueued_local_size(0)`: uniform.
    Enqueued,
    /// `get_num_groups(0)`: uniform.
    NumGroups,
    /// `get_global_size(1)`: uniform.
    GlobalSizeY,
    /// `get_global_offset(0)`: uniform.
    Offset,
    /// `get_sub_group_local_id()`: varying.
    SubLocal,
    /// `get_sub_group_id()`: varying, uniform in the sub-group.
    SubId,
    /// `get_sub_group_size()`: varying (the last sub-group may be smaller), uniform in the
    /// sub-group.
    SubSize,
    /// `get_num_sub_groups()`: uniform.
    NumSub,
}

/// The sub-group queries (the CPU device's sub-groups, and the interpreter's, are
/// `SUB_GROUP_SIZE` consecutive linear local ids).
pub const SUB_IDS: [Id; 4] = [Id::SubLocal, Id::SubId, Id::SubSize, Id::NumSub];

/// The queries of more than one dimension, offsets and non-uniform groups: varying ones.
pub const VARYING_IDS: [Id; 5] = [
    Id::LocalY,
    Id::LocalZ,
    Id::GlobalY,
    Id::LocalLinear,
    Id::GlobalLinear,
];

/// ... and uniform ones.
pub const UNIFORM_IDS: [Id; 6] = [
    Id::GroupY,
    Id::LocalSizeY,
    Id::Enqueued,
    Id::NumGroups,
    Id::GlobalSizeY,
    Id::Offset,
];

impl Id {
    pub fn uniform(self) -> bool {
        !matches!(
            self,
            Id::Local | Id::Global | Id::SubLocal | Id::SubId | Id::SubSize
        ) && !VARYING_IDS.contains(&self)
    }

    fn text(self) -> &'static str {
        match self {
            Id::Local => "(uint)get_local_id(0)",
            Id::Global => "(uint)get_global_id(0)",
            Id::LocalSize => "(uint)get_local_size(0)",
            Id::Group => "(uint)get_group_id(0)",
            Id::N => "n",
            Id::LocalY => "(uint)get_local_id(1)",
            Id::LocalZ => "(uint)get_local_id(2)",
            Id::GlobalY => "(uint)get_global_id(1)",
            Id::LocalLinear => "(uint)get_local_linear_id()",
            Id::GlobalLinear => "(uint)get_global_linear_id()",
            Id::GroupY => "(uint)get_group_id(1)",
            Id::LocalSizeY => "(uint)get_local_size(1)",
            Id::Enqueued => "(uint)get_enqueued_local_size(0)",
            Id::NumGroups => "(uint)get_num_groups(0)",
            Id::GlobalSizeY => "(uint)get_global_size(1)",
            Id::Offset => "(uint)get_global_offset(0)",
            Id::SubLocal => "get_sub_group_local_id()",
            Id::SubId => "get_sub_group_id()",
            Id::SubSize => "get_sub_group_size()",
            Id::NumSub => "get_num_sub_groups()",
        }
    }
}

/// A binary operation on `uint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bin {
    Add,
    Sub,
    Mul,
    Xor,
    And,
    Or,
    Shl,
    Shr,
    Div,
    Rem,
    /// Arithmetic shift of the value read as `int`.
    SShr,
    /// Division of the value read as `int` by a positive odd divisor.
    SDiv,
    Lt,
    Eq,
    /// Comparison of both values read as `int`.
    SLt,
    Min,
    Max,
    Rotate,
    MulHi,
    AddSat,
    HAdd,
    /// `mul24` of operands masked to 24 and 8 bits (the product fits in 32).
    Mul24,
    /// `mad24` likewise, adding the first operand.
    Mad24,
    AbsDiff,
    SubSat,
    /// `upsample` of the low halves.
    Upsample,
    /// `abs_diff` of both values read as `int`.
    SAbsDiff,
    /// `max` of both values read as `int`.
    SMax,
    RHAdd,
}

pub const BINS: [Bin; 29] = [
    Bin::Add,
    Bin::Sub,
    Bin::Mul,
    Bin::Xor,
    Bin::And,
    Bin::Or,
    Bin::Shl,
    Bin::Shr,
    Bin::Div,
    Bin::Rem,
    Bin::SShr,
    Bin::SDiv,
    Bin::Lt,
    Bin::Eq,
    Bin::SLt,
    Bin::Min,
    Bin::Max,
    Bin::Rotate,
    Bin::MulHi,
    Bin::AddSat,
    Bin::HAdd,
    Bin::Mul24,
    Bin::Mad24,
    Bin::AbsDiff,
    Bin::SubSat,
    Bin::Upsample,
    Bin::SAbsDiff,
    Bin::SMax,
    Bin::RHAdd,
];

/// A unary operation on `uint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Un {
    Not,
    Neg,
    LNot,
    Popcount,
    Clz,
    Ctz,
    /// `abs` of the value read as `int`.
    SAbs,
}

pub const UNS: [Un; 7] = [
    Un::Not,
    Un::Neg,
    Un::LNot,
    Un::Popcount,
    Un::Clz,
    Un::Ctz,
    Un::SAbs,
];

/// A narrow integer type, whose values come from the low bits of a `uint` (`(uchar)x`,
/// `as_char((uchar)x)`: conversions to a signed narrow type of values outside it are
/// implementation-defined, reinterpretations are not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Narrow {
    UChar,
    Char,
    UShort,
    Short,
}

pub const NARROWS: [Narrow; 4] = [Narrow::UChar, Narrow::Char, Narrow::UShort, Narrow::Short];

impl Narrow {
    pub fn name(self) -> &'static str {
        match self {
            Narrow::UChar => "uchar",
            Narrow::Char => "char",
            Narrow::UShort => "ushort",
            Narrow::Short => "short",
        }
    }

    fn signed(self) -> bool {
        matches!(self, Narrow::Char | Narrow::Short)
    }

    /// A value of the type from the `uint` text `a`.
    fn of_uint(self, a: &str) -> String {
        match self {
            Narrow::UChar => format!("(uchar)({a})"),
            Narrow::Char => format!("as_char((uchar)({a}))"),
            Narrow::UShort => format!("(ushort)({a})"),
            Narrow::Short => format!("as_short((ushort)({a}))"),
        }
    }
}

/// An operation on values of a narrow type (the integer promotions make `+`, `-`, `*` and
/// shifts `int` operations, which cannot overflow on them, but for `ushort * ushort`, done in
/// `uint`); the result, narrow or `int`, converted to `uint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NOp {
    Add,
    Sub,
    Mul,
    AddSat,
    SubSat,
    HAdd,
    RHAdd,
    AbsDiff,
    Min,
    Max,
    MulHi,
    Rotate,
    /// `x << (b & 7)` of an unsigned type, `x >> (b & 7)` of a signed one.
    Shift,
    /// `x > y ? x - y : y`.
    Ternary,
    /// `clz(x)` (the second operand unused, as in the unary ones below).
    Clz,
    Popcount,
    Abs,
    /// `convert_T_sat` of the first operand read as `int`.
    Saturate,
}

pub const NOPS: [NOp; 18] = [
    NOp::Add,
    NOp::Sub,
    NOp::Mul,
    NOp::AddSat,
    NOp::SubSat,
    NOp::HAdd,
    NOp::RHAdd,
    NOp::AbsDiff,
    NOp::Min,
    NOp::Max,
    NOp::MulHi,
    NOp::Rotate,
    NOp::Shift,
    NOp::Ternary,
    NOp::Clz,
    NOp::Popcount,
    NOp::Abs,
    NOp::Saturate,
];

/// An update of a `uint4` variable through a vector of a narrow type loaded with `vload` from
/// the input's bytes, or stored with `vstore` into the private byte array `pb`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByteOp {
    /// `q = convert_uint4(add_sat(b, convert_uchar4_sat(q)))`, `b` a `uchar4` of the input.
    AddSat,
    /// `q = convert_uint4(abs_diff(b, convert_uchar4_sat(q >> 8)))`.
    AbsDiff,
    /// `q = convert_uint4(select(b, convert_uchar4_sat(q), b > (uchar4)(x)))`.
    Select,
    /// `q = convert_uint4(b > (uchar4)(x) ? b : (uchar4)(x) - b)`: the vector ternary.
    Ternary,
    /// `q = convert_uint4(rotate(b, convert_uchar4(q & 7)))`.
    Rotate,
    /// `vstore4(convert_uchar4_sat(q) + b, x & 3, pb)`.
    Store,
    /// `q.s01 = as_uint2(convert_int2(hadd(s, convert_short2_sat(as_int2(q.s23)))))`, `s` a
    /// `short2` of the input.
    Short,
}

pub const BYTE_OPS: [ByteOp; 7] = [
    ByteOp::AddSat,
    ByteOp::AbsDiff,
    ByteOp::Select,
    ByteOp::Ternary,
    ByteOp::Rotate,
    ByteOp::Store,
    ByteOp::Short,
];

/// Words of the `__constant` table `tab`; indices into it are masked.
pub const TABLE_WORDS: usize = 16;

/// A binary operation on `float`: `+`, `-`, `*` are correctly rounded (OpenCL 7.4), `/`
/// is where the build asks for it (`run::build`); the functions are those
/// of 0 ulp in the table of 7.4 (`fmin`, `fmax`, `copysign`, `fmod`, `fdim`, `nextafter`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FBin {
    Add,
    Sub,
    Mul,
    Div,
    /// `fmin(a, b) + 0.0f`: which of two zeros `fmin` returns is not specified; the sum makes
    /// it +0.
    Min,
    /// `fmax(a, b) + 0.0f`.
    Max,
    /// `copysign(a, b)`, `b` a NaN taken as positive (the sign of a NaN is not defined).
    CopySign,
    Fmod,
    Fdim,
    NextAfter,
}

pub const FBINS: [FBin; 10] = [
    FBin::Add,
    FBin::Sub,
    FBin::Mul,
    FBin::Div,
    FBin::Min,
    FBin::Max,
    FBin::CopySign,
    FBin::Fmod,
    FBin::Fdim,
    FBin::NextAfter,
];

/// A unary operation on `float` (each exact, or correctly rounded: `sqrt` where the build
/// asks for it, `run::build`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FUn {
    Neg,
    Abs,
    Floor,
    Sqrt,
    Ceil,
    Trunc,
    Rint,
    Round,
    /// `ldexp(a, -3)`.
    Ldexp,
    Logb,
}

pub const FUNS: [FUn; 10] = [
    FUn::Neg,
    FUn::Abs,
    FUn::Floor,
    FUn::Sqrt,
    FUn::Ceil,
    FUn::Trunc,
    FUn::Rint,
    FUn::Round,
    FUn::Ldexp,
    FUn::Logb,
];

/// A comparison or classification of floats, as `uint` (0 or 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FCmp {
    Le,
    Eq,
    /// `a != b`: true where either is a NaN.
    Ne,
    /// `isgreaterequal`.
    GreaterEqual,
    /// `isunordered`.
    Unordered,
    /// `signbit(a)`, `b` unused; 0 for a NaN, whose sign no operation defines ("this
    /// standard does not interpret the sign of a NaN", IEEE 754-2008 6.3), so that engines
    /// that make a NaN of either sign agree.
    SignBit,
}

pub const FCMPS: [FCmp; 6] = [
    FCmp::Le,
    FCmp::Eq,
    FCmp::Ne,
    FCmp::GreaterEqual,
    FCmp::Unordered,
    FCmp::SignBit,
];

/// A rounding mode of an explicit conversion (6.4.3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

pub const ROUNDS: [Round; 4] = [Round::Rte, Round::Rtz, Round::Rtp, Round::Rtn];

impl Round {
    fn suffix(self) -> &'static str {
        match self {
            Round::Rte => "rte",
            Round::Rtz => "rtz",
            Round::Rtp => "rtp",
            Round::Rtn => "rtn",
        }
    }
}

/// An expression. Those of the `F...` variants are `float`, the others `uint`.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Const(u32),
    /// A scalar `uint` variable of the kernel ([`Program::vars`]).
    Var(usize),
    Id(Id),
    /// `in[e & 63]`.
    Input(Box<Expr>),
    Bin(Bin, Box<Expr>, Box<Expr>),
    Un(Un, Box<Expr>),
    /// `c ? a : b`.
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A call of helper function `h` with two arguments.
    Call(usize, Box<Expr>, Box<Expr>),
    /// `lm[(lid + k) % lsize]`: only inside an exchange's body.
    Local(u32),
    /// `lid >= k ? lm[lid - k] : 0`: only inside an exchange's body. A chunk's lanes read
    /// consecutive words from one address, those below `k` masked off (a prefix sum's step),
    /// which the device reads from one clamped address.
    LocalBack(u32),
    /// Lane of a `uint4` variable.
    Lane(usize, u8),
    /// Field `a` (0) or `b` (1) of the struct variable `s`.
    Field(u8),
    /// `sfun(s)`: the struct passed by value to a helper.
    StructCall,
    /// `pa[e & 7]`.
    Private(Box<Expr>),
    /// The counter of loop `k` (only inside it).
    Counter(u32),
    /// A helper function's parameter (only inside helpers).
    Param(u8),
    /// The bits of a float (NaN made canonical).
    Bits(Box<Expr>),
    /// `a < b` on floats.
    FLess(Box<Expr>, Box<Expr>),
    FConst(f32),
    /// A scalar `float` variable.
    FVar(usize),
    /// `(float)e`, correctly rounded.
    FFrom(Box<Expr>),
    FBin(FBin, Box<Expr>, Box<Expr>),
    FUn(FUn, Box<Expr>),
    /// Lane of a `float4` variable.
    FLane(usize, u8),
    /// An operation on two values of a narrow type.
    Narrow(NOp, Narrow, Box<Expr>, Box<Expr>),
    /// `tab[e & 15]`: the `__constant` table.
    Table(Box<Expr>),
    /// A comparison of floats.
    FCmp(FCmp, Box<Expr>, Box<Expr>),
    /// `convert_int_sat_R(a)` (`signed`) or `convert_uint_sat_R(a)` of a float, as `uint`:
    /// saturated, so defined for every float (a NaN gives 0).
    FToInt(Round, bool, Box<Expr>),
    /// `convert_float_R(a)` of a `uint`, or of it read as `int` (`signed`).
    FRound(Round, bool, Box<Expr>),
    /// `fma(a, b, c)`: correctly rounded.
    FFma(Box<Expr>, Box<Expr>, Box<Expr>),
}

impl Expr {
    pub fn is_float(&self) -> bool {
        matches!(
            self,
            Expr::FConst(_)
                | Expr::FVar(_)
                | Expr::FFrom(_)
                | Expr::FBin(..)
                | Expr::FUn(..)
                | Expr::FLane(..)
                | Expr::FRound(..)
                | Expr::FFma(..)
        )
    }

    /// The operands, in order.
    pub fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Input(a)
            | Expr::Un(_, a)
            | Expr::Private(a)
            | Expr::Bits(a)
            | Expr::FFrom(a)
            | Expr::FUn(_, a)
            | Expr::Table(a)
            | Expr::FToInt(_, _, a)
            | Expr::FRound(_, _, a) => vec![a],
            Expr::Bin(_, a, b)
            | Expr::Call(_, a, b)
            | Expr::FLess(a, b)
            | Expr::FBin(_, a, b)
            | Expr::Narrow(_, _, a, b)
            | Expr::FCmp(_, a, b) => vec![a, b],
            Expr::Select(c, a, b) | Expr::FFma(c, a, b) => vec![c, a, b],
            _ => vec![],
        }
    }

    /// The operands, in order, to edit.
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Expr::Input(a)
            | Expr::Un(_, a)
            | Expr::Private(a)
            | Expr::Bits(a)
            | Expr::FFrom(a)
            | Expr::FUn(_, a)
            | Expr::Table(a)
            | Expr::FToInt(_, _, a)
            | Expr::FRound(_, _, a) => vec![a],
            Expr::Bin(_, a, b)
            | Expr::Call(_, a, b)
            | Expr::FLess(a, b)
            | Expr::FBin(_, a, b)
            | Expr::Narrow(_, _, a, b)
            | Expr::FCmp(_, a, b) => vec![a, b],
            Expr::Select(c, a, b) | Expr::FFma(c, a, b) => vec![c, a, b],
            _ => vec![],
        }
    }

    /// Nodes in the tree.
    pub fn size(&self) -> usize {
        1 + self.children().iter().map(|c| c.size()).sum::<usize>()
    }
}

/// Where an assignment stores.
#[derive(Clone, Debug, PartialEq)]
pub enum Place {
    Var(usize),
    FVar(usize),
    Lane(usize, u8),
    FLane(usize, u8),
    Field(u8),
    Private(Expr),
}

/// A whole-vector update of a `uint4` or `float4` variable, with scalar operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VecOp {
    /// `q = q * (uint4)(a) + q.wzyx`.
    MulAddSwizzle,
    /// `q ^= (uint4)(a, b, c, d)`.
    XorBuild,
    /// `q = rotate(q, (uint4)(a))`.
    Rotate,
    /// `q = select(q, q.yzwx, q > (uint4)(a))`.
    SelectGreater,
    /// `q = min(q, (uint4)(a)) + max(q.zwxy, (uint4)(b))`.
    MinMax,
    /// `w = w * (float4)(a) + w.wzyx`.
    FMulAddSwizzle,
    /// `w = w - (float4)(a, b, c, d)`.
    FSubBuild,
    /// `w = convert_float4(q & 0xffff) * (float4)(a) + w`.
    FConvert,
}

impl VecOp {
    pub fn float(self) -> bool {
        matches!(
            self,
            VecOp::FMulAddSwizzle | VecOp::FSubBuild | VecOp::FConvert
        )
    }

    /// The number of scalar operands.
    pub fn arity(self) -> usize {
        match self {
            VecOp::XorBuild | VecOp::FSubBuild => 4,
            VecOp::MinMax => 2,
            _ => 1,
        }
    }
}

/// A loop's trip count.
#[derive(Clone, Debug, PartialEq)]
pub enum Trips {
    Const(u32),
    /// The kernel argument `n`.
    N,
    /// `e % 9`: uniform or varying as `e` is.
    Mod(Expr),
}

/// Which work-items run an exchange's body.
#[derive(Clone, Debug, PartialEq)]
pub enum Guard {
    All,
    /// `lid > c`.
    Gt(u32),
    /// `lid >= c`.
    Ge(u32),
    /// `lid < c`.
    Lt(u32),
    /// `lid != c`.
    Ne(u32),
    /// Any varying condition.
    Cond(Expr),
}

/// An order-independent atomic operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Atomic {
    Add,
    Or,
    Xor,
    And,
    Min,
    Max,
}

pub const ATOMICS: [Atomic; 6] = [
    Atomic::Add,
    Atomic::Or,
    Atomic::Xor,
    Atomic::And,
    Atomic::Min,
    Atomic::Max,
];

impl Atomic {
    fn name(self) -> &'static str {
        match self {
            Atomic::Add => "atomic_add",
            Atomic::Or => "atomic_or",
            Atomic::Xor => "atomic_xor",
            Atomic::And => "atomic_and",
            Atomic::Min => "atomic_min",
            Atomic::Max => "atomic_max",
        }
    }
}

/// A work-group collective.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collective {
    ReduceAdd,
    ReduceMin,
    ReduceMax,
    ScanInclusiveAdd,
    ScanInclusiveMax,
    ScanExclusiveAdd,
    ScanExclusiveMin,
    /// `work_group_broadcast(e, index % lsize)`; the index is uniform.
    Broadcast,
}

pub const COLLECTIVES: [Collective; 8] = [
    Collective::ReduceAdd,
    Collective::ReduceMin,
    Collective::ReduceMax,
    Collective::ScanInclusiveAdd,
    Collective::ScanInclusiveMax,
    Collective::ScanExclusiveAdd,
    Collective::ScanExclusiveMin,
    Collective::Broadcast,
];

impl Collective {
    /// Whether every work-item of the group gets the same result.
    pub fn uniform(self) -> bool {
        matches!(
            self,
            Collective::ReduceAdd
                | Collective::ReduceMin
                | Collective::ReduceMax
                | Collective::Broadcast
        )
    }

    fn name(self) -> &'static str {
        match self {
            Collective::ReduceAdd => "work_group_reduce_add",
            Collective::ReduceMin => "work_group_reduce_min",
            Collective::ReduceMax => "work_group_reduce_max",
            Collective::ScanInclusiveAdd => "work_group_scan_inclusive_add",
            Collective::ScanInclusiveMax => "work_group_scan_inclusive_max",
            Collective::ScanExclusiveAdd => "work_group_scan_exclusive_add",
            Collective::ScanExclusiveMin => "work_group_scan_exclusive_min",
            Collective::Broadcast => "work_group_broadcast",
        }
    }
}

/// A sub-group function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubOp {
    ReduceAdd,
    ReduceMin,
    ReduceMax,
    ScanInclusiveAdd,
    ScanExclusiveAdd,
    ScanInclusiveMax,
    /// `sub_group_broadcast(e, index % get_sub_group_size())`; the index is uniform.
    Broadcast,
    /// `sub_group_any(e & 1)`.
    Any,
    /// `sub_group_all(e & 1)`.
    All,
    /// Through the sub-group's part of the `__local` array `ls` and `sub_group_barrier`:
    /// each work-item stores its value, then reads that of the work-item `k` places on in
    /// its sub-group.
    Exchange(u32),
}

pub const SUB_OPS: [SubOp; 10] = [
    SubOp::ReduceAdd,
    SubOp::ReduceMin,
    SubOp::ReduceMax,
    SubOp::ScanInclusiveAdd,
    SubOp::ScanExclusiveAdd,
    SubOp::ScanInclusiveMax,
    SubOp::Broadcast,
    SubOp::Any,
    SubOp::All,
    SubOp::Exchange(1),
];

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Assign(Place, Expr),
    Vector {
        op: VecOp,
        var: usize,
        args: Vec<Expr>,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        els: Vec<Stmt>,
    },
    /// `for (uint iK = 0; iK < trips; iK++)`.
    For {
        counter: u32,
        trips: Trips,
        body: Vec<Stmt>,
    },
    /// `{ uint iK = 0; body }`: a loop the reducer unrolled to one trip.
    Block {
        counter: u32,
        body: Vec<Stmt>,
    },
    /// `if (cond) break;` (only in a loop whose body is not uniform).
    Break(Expr),
    /// Every work-item stores `value` in its slot of the `__local` array, then, after a
    /// barrier, those the guard admits run `body`, which may read any slot.
    Exchange {
        value: Expr,
        guard: Guard,
        body: Vec<Stmt>,
    },
    /// A region whose only effect is a guarded store (the shape the work-group transform runs
    /// narrowed to the work-items the guard admits): every work-item stores `value` in its
    /// slot of the exchange array and its own in the second array; after a barrier, those
    /// the guard admits store `stored` (which may read the exchange array) in the second
    /// array; after another barrier, `dest` reads slot `lid + offset` of the second array.
    Narrow {
        value: Expr,
        guard: Guard,
        stored: Expr,
        dest: usize,
        offset: u32,
    },
    /// A `__local` counter set to `init`, combined by every work-item with `value`, read into
    /// the uniform variable `dest` after a barrier.
    LocalAtomic {
        op: Atomic,
        init: u32,
        value: Expr,
        dest: usize,
    },
    /// `atomic_op(&acc[op], value)`, the old value unused: each operation has its own word,
    /// so that the final values do not depend on the order of the work-items.
    GlobalAtomic {
        op: Atomic,
        value: Expr,
    },
    /// `dest = collective(value)`; `index` is the broadcast's.
    Collective {
        op: Collective,
        value: Expr,
        index: Expr,
        dest: usize,
    },
    Barrier,
    /// A row of a sparse matrix-vector product in compressed sparse rows (CSR), each
    /// work-item its own row and so its own trip count: with `r = row & 31`, the row's
    /// entries run from `in[r] & 15` to that plus `in[r + 1] & 7`; entry `k` adds
    /// `in[k]` times the gathered `in[in[k + 32] & 63]` to variable `dest` (a float
    /// variable where `float`). `id` names the locals.
    Gather {
        id: u32,
        row: Expr,
        dest: usize,
        float: bool,
    },
    /// A run of `in` of each work-item's own, as a matrix-vector product reads its row: with
    /// `s = row & 31`, entries `s .. s + (n & 31)` of `in`, read through a pointer to entry
    /// `s` (or by index `s + k` where `by_index`) with an `int` counter `k`, each folded into
    /// variable `dest` (a float variable where `float`). `id` names the locals.
    Run {
        id: u32,
        row: Expr,
        dest: usize,
        float: bool,
        by_index: bool,
    },
    /// `dest = op(value)` of a sub-group function; `index` is the broadcast's.
    SubGroup {
        op: SubOp,
        value: Expr,
        index: Expr,
        dest: usize,
    },
    /// `dest = xchg(lm, value, offset)`: an exchange through the `__local` array in a helper
    /// function, between its barriers.
    HelperExchange {
        value: Expr,
        offset: u32,
        dest: usize,
    },
    /// `if (cond) { out[...] = value; return; }`: only in kernels without barriers or
    /// collectives.
    Return {
        cond: Expr,
        value: Expr,
    },
    /// An update of `uint4` variable `var` through narrow vectors: [`ByteOp`], with `index`
    /// picking the input's vector and `operand` the scalar it is compared with.
    Bytes {
        op: ByteOp,
        var: usize,
        index: Expr,
        operand: Expr,
    },
}

/// A helper function `uint hK(uint p0, uint p1)`: `p2 = e` steps, a loop of
/// `p1 % 5` trips updating `p2`, and the value it returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Helper {
    pub steps: Vec<Expr>,
    pub looped: Option<Expr>,
    pub ret: Expr,
}

/// A scalar `uint` variable: uniform ones (`uK`) are assigned only uniform values in uniform
/// control flow.
#[derive(Clone, Debug, PartialEq)]
pub struct Var {
    pub uniform: bool,
    pub init: Expr,
}

/// A whole generated program: one kernel `k(out, in, acc, n)` and its helpers.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub helpers: Vec<Helper>,
    pub vars: Vec<Var>,
    pub fvars: Vec<Expr>,
    /// Initial lanes of each `uint4` variable.
    pub qvars: Vec<[Expr; 4]>,
    /// Initial lanes of each `float4` variable.
    pub wvars: Vec<[Expr; 4]>,
    pub fields: [Expr; 2],
    pub private_init: Expr,
    pub body: Vec<Stmt>,
    /// The NDRange it runs over.
    pub shape: Shape,
    /// A lean program (`gen::set_lean`): no structure or private arrays are declared.
    pub lean: bool,
}

/// The kernel's signature, for runners and reproducers.
///
/// The exchange array `lm` is a `__local` pointer argument of [`LOCAL_WORDS`] words, and the
/// other `__local` arrays are the kernel's own: both kinds reach the device's code (a pointer
/// argument is an offset that the code makes an address; a variable, an address of its own).
pub const SIGNATURE: &str = "kernel void k(global uint *out, global const uint *in, \
     global uint *acc, uint n, local uint *lm)";

const PRELUDE: &str = "\
#pragma OPENCL FP_CONTRACT OFF

struct S {
    uint a;
    uint b;
};

uint fbits(float x) {
    return isnan(x) ? 0x7fc00000u : as_uint(x);
}

uint sbit(float x) {
    return isnan(x) ? 0u : (uint)signbit(x);
}

float sgn(float x) {
    return isnan(x) ? 1.0f : x;
}

uint mix(uint h, uint x) {
    return (h ^ x) * 0x9e3779b1u + 0x7f4a7c15u;
}

uint sfun(struct S x) {
    return x.a * 3u ^ (x.b >> 1);
}

uint xchg(local uint *m, uint x, uint k) {
    barrier(CLK_LOCAL_MEM_FENCE);
    m[get_local_linear_id()] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint size = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
    uint r = m[((uint)get_local_linear_id() + k) % size];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

constant uint tab[16] = {
    0u, 1u, 7u, 0x80000000u, 0xffffffffu, 3u, 0x7fffffffu, 255u,
    0x9e3779b9u, 16u, 0xffu, 0x10000u, 5u, 0xfffffffeu, 31u, 0x55555555u
};
";

impl Program {
    /// The OpenCL C source.
    pub fn source(&self) -> String {
        let mut s = String::from(PRELUDE);
        for (k, h) in self.helpers.iter().enumerate() {
            let _ = writeln!(s, "\nuint h{k}(uint p0, uint p1) {{");
            s.push_str("    uint p2 = p0 ^ 0x5bd1e995u;\n");
            for e in &h.steps {
                let _ = writeln!(s, "    p2 = {};", expr(e, self));
            }
            if let Some(e) = &h.looped {
                s.push_str("    for (uint j = 0; j < p1 % 5u; j++)\n");
                let _ = writeln!(s, "        p2 = {};", expr(e, self));
            }
            let _ = writeln!(s, "    return {};\n}}", expr(&h.ret, self));
        }
        let _ = writeln!(s, "\n{SIGNATURE} {{");
        let _ = writeln!(s, "    local uint lb[{LOCAL_WORDS}];");
        s.push_str("    local uint la[1];\n");
        if self.uses_sub_group_exchange() {
            let _ = writeln!(s, "    local uint ls[{LOCAL_WORDS}];");
        }
        for (k, v) in self.vars.iter().enumerate() {
            let _ = writeln!(
                s,
                "    uint {} = {};",
                var_name(self, k),
                expr(&v.init, self)
            );
        }
        for (k, e) in self.fvars.iter().enumerate() {
            let _ = writeln!(s, "    float f{k} = {};", expr(e, self));
        }
        for (k, l) in self.qvars.iter().enumerate() {
            let _ = writeln!(s, "    uint4 q{k} = (uint4)({});", lanes(l, self));
        }
        for (k, l) in self.wvars.iter().enumerate() {
            let _ = writeln!(s, "    float4 w{k} = (float4)({});", lanes(l, self));
        }
        if !self.lean {
            let _ = writeln!(
                s,
                "    struct S s;\n    s.a = {};\n    s.b = {};",
                expr(&self.fields[0], self),
                expr(&self.fields[1], self)
            );
            s.push_str("    uchar pb[16];\n");
            s.push_str("    for (uint j = 0; j < 16u; j++)\n        pb[j] = (uchar)(j * 17u);\n");
            let _ = writeln!(s, "    uint pa[{PRIVATE_WORDS}];");
            let _ = writeln!(
                s,
                "    for (uint j = 0; j < {PRIVATE_WORDS}u; j++)\n        pa[j] = {} + j;",
                expr(&self.private_init, self)
            );
        }
        block(&mut s, &self.body, self, 1);
        s.push_str("    uint h = 0x12345u;\n");
        for k in 0..self.vars.len() {
            let _ = writeln!(s, "    h = mix(h, {});", var_name(self, k));
        }
        for k in 0..self.fvars.len() {
            let _ = writeln!(s, "    h = mix(h, fbits(f{k}));");
        }
        for k in 0..self.qvars.len() {
            for l in 0..4 {
                let _ = writeln!(s, "    h = mix(h, q{k}.s{l});");
            }
        }
        for k in 0..self.wvars.len() {
            for l in 0..4 {
                let _ = writeln!(s, "    h = mix(h, fbits(w{k}.s{l}));");
            }
        }
        if !self.lean {
            s.push_str("    h = mix(h, s.a);\n    h = mix(h, s.b);\n");
            let _ = writeln!(
                s,
                "    for (uint j = 0; j < {PRIVATE_WORDS}u; j++)\n        h = mix(h, pa[j]);"
            );
            s.push_str(
                "    for (uint j = 0; j < 4u; j++)\n        h = mix(h, as_uint(vload4(j, pb)));\n",
            );
        }
        if !self.lean {
            // The hash's bytes through the work-item's own word of `out`, loaded and stored
            // as a `uchar4` and changed alike in each component (the vectorized code's
            // regrouping of the W `uchar4`s then cancels: `cpu/src/vectorize/regroup.rs`).
            let o = self.out_index();
            let _ = writeln!(
                s,
                "    out[{o}] = h;\n    uchar4 ob = vload4({o}, (global uchar *)out);\n    \
                 vstore4(select(ob ^ (uchar4)(0x3c), ob + (uchar4)((uchar)n), \
                 ob > (uchar4)((uchar)n)), {o}, (global uchar *)out);\n    \
                 h = mix(h, out[{o}]);"
            );
        }
        let _ = writeln!(s, "    out[{}] = h;\n}}", self.out_index());
        s
    }

    fn uses_sub_group_exchange(&self) -> bool {
        fn any(b: &[Stmt]) -> bool {
            b.iter().any(|s| match s {
                Stmt::SubGroup {
                    op: SubOp::Exchange(_),
                    ..
                } => true,
                Stmt::If { then, els, .. } => any(then) || any(els),
                Stmt::For { body, .. } | Stmt::Block { body, .. } | Stmt::Exchange { body, .. } => {
                    any(body)
                }
                _ => false,
            })
        }
        any(&self.body)
    }

    /// A work-item's word of `out`.
    fn out_index(&self) -> &'static str {
        if self.shape.dims == 1 && self.shape.offset == [0; 3] {
            "get_global_id(0)"
        } else {
            "get_global_linear_id()"
        }
    }

    /// A work-item's slot in the `__local` arrays: its local id along x in one dimension,
    /// its linear local id in more.
    fn slot(&self) -> &'static str {
        if self.shape.dims == 1 {
            "get_local_id(0)"
        } else {
            "get_local_linear_id()"
        }
    }

    /// The number of work-items in the group, as `uint`.
    fn group_size(&self) -> &'static str {
        match self.shape.dims {
            1 => "(uint)get_local_size(0)",
            2 => "(uint)(get_local_size(0) * get_local_size(1))",
            _ => "(uint)(get_local_size(0) * get_local_size(1) * get_local_size(2))",
        }
    }

    /// Statements in the tree, nested ones included.
    pub fn statements(&self) -> usize {
        fn count(b: &[Stmt]) -> usize {
            b.iter()
                .map(|s| {
                    1 + match s {
                        Stmt::If { then, els, .. } => count(then) + count(els),
                        Stmt::For { body, .. }
                        | Stmt::Block { body, .. }
                        | Stmt::Exchange { body, .. } => count(body),
                        _ => 0,
                    }
                })
                .sum()
        }
        count(&self.body)
    }
}

fn var_name(p: &Program, k: usize) -> String {
    if p.vars[k].uniform {
        format!("u{k}")
    } else {
        format!("v{k}")
    }
}

fn lanes(l: &[Expr; 4], p: &Program) -> String {
    l.iter().map(|e| expr(e, p)).collect::<Vec<_>>().join(", ")
}

fn place(pl: &Place, p: &Program) -> String {
    match pl {
        Place::Var(k) => var_name(p, *k),
        Place::FVar(k) => format!("f{k}"),
        Place::Lane(k, l) => format!("q{k}.s{l}"),
        Place::FLane(k, l) => format!("w{k}.s{l}"),
        Place::Field(0) => "s.a".into(),
        Place::Field(_) => "s.b".into(),
        Place::Private(e) => format!("pa[{} & 7u]", expr(e, p)),
    }
}

fn float_const(x: f32) -> String {
    let t = format!("{x:?}");
    if t.contains('.') || t.contains('e') {
        format!("{t}f")
    } else {
        format!("{t}.0f")
    }
}

/// The OpenCL C text of an expression, fully parenthesized.
pub fn expr(e: &Expr, p: &Program) -> String {
    let x = |e: &Expr| expr(e, p);
    match e {
        Expr::Const(c) => format!("{c}u"),
        Expr::Var(k) => var_name(p, *k),
        Expr::Id(id) => id.text().into(),
        Expr::Input(a) => format!("in[{} & {}u]", x(a), INPUT_WORDS - 1),
        Expr::Bin(op, a, b) => {
            let (a, b) = (x(a), x(b));
            match op {
                Bin::Add => format!("({a} + {b})"),
                Bin::Sub => format!("({a} - {b})"),
                Bin::Mul => format!("({a} * {b})"),
                Bin::Xor => format!("({a} ^ {b})"),
                Bin::And => format!("({a} & {b})"),
                Bin::Or => format!("({a} | {b})"),
                Bin::Shl => format!("({a} << ({b} & 31u))"),
                Bin::Shr => format!("({a} >> ({b} & 31u))"),
                Bin::Div => format!("({a} / ({b} | 1u))"),
                Bin::Rem => format!("({a} % ({b} | 1u))"),
                Bin::SShr => format!("(uint)((int){a} >> ({b} & 31u))"),
                Bin::SDiv => format!("(uint)((int){a} / (int)(({b} & 255u) | 1u))"),
                Bin::Lt => format!("(uint)({a} < {b})"),
                Bin::Eq => format!("(uint)({a} == {b})"),
                Bin::SLt => format!("(uint)((int){a} < (int){b})"),
                Bin::Min => format!("min({a}, {b})"),
                Bin::Max => format!("max({a}, {b})"),
                Bin::Rotate => format!("rotate({a}, {b})"),
                Bin::MulHi => format!("mul_hi({a}, {b})"),
                Bin::AddSat => format!("add_sat({a}, {b})"),
                Bin::HAdd => format!("hadd({a}, {b})"),
                Bin::Mul24 => format!("mul24({a} & 0xffffffu, {b} & 0xffu)"),
                Bin::Mad24 => format!("mad24({a} & 0xffffffu, {b} & 0xffu, {a})"),
                Bin::AbsDiff => format!("abs_diff({a}, {b})"),
                Bin::SubSat => format!("sub_sat({a}, {b})"),
                Bin::Upsample => format!("upsample((ushort){a}, (ushort){b})"),
                Bin::SAbsDiff => format!("abs_diff(as_int({a}), as_int({b}))"),
                Bin::SMax => format!("(uint)max(as_int({a}), as_int({b}))"),
                Bin::RHAdd => format!("rhadd({a}, {b})"),
            }
        }
        Expr::Un(op, a) => {
            let a = x(a);
            match op {
                Un::Not => format!("(~{a})"),
                Un::Neg => format!("(0u - {a})"),
                Un::LNot => format!("(uint)(!{a})"),
                Un::Popcount => format!("popcount({a})"),
                Un::Clz => format!("clz({a})"),
                Un::Ctz => format!("ctz({a})"),
                Un::SAbs => format!("abs(as_int({a}))"),
            }
        }
        Expr::Select(c, a, b) => format!("({} ? {} : {})", x(c), x(a), x(b)),
        Expr::Call(h, a, b) => format!("h{h}({}, {})", x(a), x(b)),
        Expr::Local(k) => {
            format!("lm[((uint){} + {k}u) % {}]", p.slot(), p.group_size())
        }
        Expr::LocalBack(k) => {
            let slot = p.slot();
            format!("((uint){slot} >= {k}u ? lm[(uint){slot} - {k}u] : 0u)")
        }
        Expr::Lane(k, l) => format!("q{k}.s{l}"),
        Expr::Field(0) => "s.a".into(),
        Expr::Field(_) => "s.b".into(),
        Expr::StructCall => "sfun(s)".into(),
        Expr::Private(a) => format!("pa[{} & 7u]", x(a)),
        Expr::Counter(k) => format!("i{k}"),
        Expr::Param(k) => format!("p{k}"),
        Expr::Bits(a) => format!("fbits({})", x(a)),
        Expr::FLess(a, b) => format!("(uint)({} < {})", x(a), x(b)),
        Expr::FConst(c) => float_const(*c),
        Expr::FVar(k) => format!("f{k}"),
        Expr::FFrom(a) => format!("(float){}", x(a)),
        Expr::FBin(op, a, b) => {
            let (a, b) = (x(a), x(b));
            match op {
                FBin::Add => format!("({a} + {b})"),
                FBin::Sub => format!("({a} - {b})"),
                FBin::Mul => format!("({a} * {b})"),
                FBin::Div => format!("({a} / {b})"),
                FBin::Min => format!("(fmin({a}, {b}) + 0.0f)"),
                FBin::Max => format!("(fmax({a}, {b}) + 0.0f)"),
                FBin::CopySign => format!("copysign({a}, sgn({b}))"),
                FBin::Fmod => format!("fmod({a}, {b})"),
                FBin::Fdim => format!("fdim({a}, {b})"),
                FBin::NextAfter => format!("nextafter({a}, {b})"),
            }
        }
        Expr::FCmp(op, a, b) => {
            let (a, b) = (x(a), x(b));
            match op {
                FCmp::Le => format!("(uint)({a} <= {b})"),
                FCmp::Eq => format!("(uint)({a} == {b})"),
                FCmp::Ne => format!("(uint)({a} != {b})"),
                FCmp::GreaterEqual => format!("(uint)isgreaterequal({a}, {b})"),
                FCmp::Unordered => format!("(uint)isunordered({a}, {b})"),
                FCmp::SignBit => format!("sbit({a})"),
            }
        }
        Expr::FToInt(r, true, a) => format!("as_uint(convert_int_sat_{}({}))", r.suffix(), x(a)),
        Expr::FToInt(r, false, a) => format!("convert_uint_sat_{}({})", r.suffix(), x(a)),
        Expr::FRound(r, true, a) => format!("convert_float_{}(as_int({}))", r.suffix(), x(a)),
        Expr::FRound(r, false, a) => format!("convert_float_{}({})", r.suffix(), x(a)),
        Expr::FFma(a, b, c) => format!("fma({}, {}, {})", x(a), x(b), x(c)),
        Expr::FUn(op, a) => {
            let a = x(a);
            match op {
                FUn::Neg => format!("(-({a}))"),
                FUn::Abs => format!("fabs({a})"),
                FUn::Floor => format!("floor({a})"),
                FUn::Sqrt => format!("sqrt(fabs({a}))"),
                FUn::Ceil => format!("ceil({a})"),
                FUn::Trunc => format!("trunc({a})"),
                FUn::Rint => format!("rint({a})"),
                FUn::Round => format!("round({a})"),
                FUn::Ldexp => format!("ldexp({a}, -3)"),
                FUn::Logb => format!("logb({a})"),
            }
        }
        Expr::FLane(k, l) => format!("w{k}.s{l}"),
        Expr::Narrow(op, t, a, b) => narrow(*op, *t, &x(a), &x(b)),
        Expr::Table(a) => format!("tab[{} & {}u]", x(a), TABLE_WORDS - 1),
    }
}

/// The text of a narrow operation, as `uint`.
fn narrow(op: NOp, t: Narrow, a: &str, b: &str) -> String {
    let (x, y) = (t.of_uint(a), t.of_uint(b));
    let name = t.name();
    let call = |f: &str| format!("(uint)({f}({x}, {y}))");
    match op {
        NOp::Add => format!("(uint)({x} + {y})"),
        NOp::Sub => format!("(uint)({x} - {y})"),
        NOp::Mul if t == Narrow::UShort => format!("((uint){x} * (uint){y})"),
        NOp::Mul => format!("(uint)({x} * {y})"),
        NOp::AddSat => call("add_sat"),
        NOp::SubSat => call("sub_sat"),
        NOp::HAdd => call("hadd"),
        NOp::RHAdd => call("rhadd"),
        NOp::AbsDiff => call("abs_diff"),
        NOp::Min => call("min"),
        NOp::Max => call("max"),
        NOp::MulHi => call("mul_hi"),
        NOp::Rotate => call("rotate"),
        NOp::Shift if t.signed() => format!("(uint)({x} >> ({b} & 7u))"),
        NOp::Shift => format!("(uint)({x} << ({b} & 7u))"),
        NOp::Ternary => format!("(uint)({x} > {y} ? {x} - {y} : {y})"),
        NOp::Clz => format!("(uint)clz({x})"),
        NOp::Popcount => format!("(uint)popcount({x})"),
        NOp::Abs => format!("(uint)abs({x})"),
        NOp::Saturate => format!("(uint)convert_{name}_sat(as_int({a}))"),
    }
}

/// The condition of a guard; none for [`Guard::All`].
fn guard_text(guard: &Guard, p: &Program) -> Option<String> {
    match guard {
        Guard::All => None,
        Guard::Gt(c) => Some(format!("get_local_id(0) > {c}")),
        Guard::Ge(c) => Some(format!("get_local_id(0) >= {c}")),
        Guard::Lt(c) => Some(format!("get_local_id(0) < {c}")),
        Guard::Ne(c) => Some(format!("get_local_id(0) != {c}")),
        Guard::Cond(e) => Some(expr(e, p)),
    }
}

fn indent(s: &mut String, depth: usize) {
    for _ in 0..depth {
        s.push_str("    ");
    }
}

const BARRIER: &str = "barrier(CLK_LOCAL_MEM_FENCE);";

fn block(s: &mut String, body: &[Stmt], p: &Program, depth: usize) {
    for st in body {
        stmt(s, st, p, depth);
    }
}

/// A loop over a run of `in` that starts at a place of each work-item's own ([`Stmt::Run`]).
fn run_stmt(
    s: &mut String,
    id: u32,
    row: &Expr,
    (dest, float): (usize, bool),
    by_index: bool,
    p: &Program,
    d: usize,
) {
    let line = |s: &mut String, depth: usize, text: &str| {
        indent(s, depth);
        s.push_str(text);
        s.push('\n');
    };
    let (start, r, k) = (format!("s{id}"), format!("r{id}"), format!("k{id}"));
    line(s, d, "{");
    line(
        s,
        d + 1,
        &format!("int {start} = (int)({} & 31u);", expr(row, p)),
    );
    line(s, d + 1, &format!("global const uint *{r} = in + {start};"));
    line(
        s,
        d + 1,
        &format!("for (int {k} = 0; {k} < (int)(n & 31u); {k}++)"),
    );
    let element = match by_index {
        true => format!("in[{start} + {k}]"),
        false => format!("{r}[{k}]"),
    };
    let step = if float {
        format!("f{dest} = f{dest} * 0.5f + (float)({element} & 0xffffu);")
    } else {
        let v = var_name(p, dest);
        format!("{v} = {v} * 3u + {element};")
    };
    line(s, d + 2, &step);
    line(s, d, "}");
}

/// A loop over a row of a CSR-like table in `in`: its bounds and its columns gathered, one
/// sum into variable `dest`.
fn gather_stmt(
    s: &mut String,
    id: u32,
    row: &Expr,
    dest: usize,
    float: bool,
    p: &Program,
    d: usize,
) {
    let x = |e: &Expr| expr(e, p);
    let line = |s: &mut String, text: &str| {
        indent(s, d);
        s.push_str(text);
        s.push('\n');
    };
    let (r, b, e, k) = (
        format!("r{id}"),
        format!("b{id}"),
        format!("e{id}"),
        format!("k{id}"),
    );
    line(s, "{");
    let inner = |s: &mut String, text: &str| {
        indent(s, d + 1);
        s.push_str(text);
        s.push('\n');
    };
    inner(s, &format!("uint {r} = {} & 31u;", x(row)));
    inner(s, &format!("uint {b} = in[{r}] & 15u;"));
    inner(s, &format!("uint {e} = {b} + (in[{r} + 1u] & 7u);"));
    inner(s, &format!("for (uint {k} = {b}; {k} < {e}; {k}++)"));
    let gathered = format!("in[in[{k} + 32u] & 63u]");
    let step = if float {
        format!("f{dest} = f{dest} + (float)({gathered} & 0xffffu) * (float)(in[{k}] & 0xffu);")
    } else {
        let v = var_name(p, dest);
        format!("{v} = {v} + {gathered} * in[{k}];")
    };
    inner(s, &format!("    {step}"));
    line(s, "}");
}

/// The text of a statement on the OpenCL vectors `q{var}` (uint4) and `w{var}` (float4).
fn vector_stmt(op: VecOp, var: usize, args: &[Expr], p: &Program) -> String {
    let a: Vec<String> = args.iter().map(|e| expr(e, p)).collect();
    let q = format!("q{var}");
    let w = format!("w{var}");
    match op {
        VecOp::MulAddSwizzle => format!("{q} = {q} * (uint4)({}) + {q}.wzyx;", a[0]),
        VecOp::XorBuild => format!("{q} ^= (uint4)({});", a.join(", ")),
        VecOp::Rotate => format!("{q} = rotate({q}, (uint4)({}));", a[0]),
        VecOp::SelectGreater => {
            format!("{q} = select({q}, {q}.yzwx, {q} > (uint4)({}));", a[0])
        }
        VecOp::MinMax => format!(
            "{q} = min({q}, (uint4)({})) + max({q}.zwxy, (uint4)({}));",
            a[0], a[1]
        ),
        VecOp::FMulAddSwizzle => {
            format!("{w} = {w} * (float4)({}) + {w}.wzyx;", a[0])
        }
        VecOp::FSubBuild => format!("{w} = {w} - (float4)({});", a.join(", ")),
        VecOp::FConvert => format!(
            "{w} = convert_float4(q0 & (uint4)(0xffffu)) * (float4)({}) + {w};",
            a[0]
        ),
    }
}

fn stmt(s: &mut String, st: &Stmt, p: &Program, d: usize) {
    let x = |e: &Expr| expr(e, p);
    let line = |s: &mut String, text: &str| {
        indent(s, d);
        s.push_str(text);
        s.push('\n');
    };
    match st {
        Stmt::Assign(pl, e) => line(s, &format!("{} = {};", place(pl, p), x(e))),
        Stmt::Vector { op, var, args } => line(s, &vector_stmt(*op, *var, args, p)),
        Stmt::If { cond, then, els } => {
            line(s, &format!("if ({}) {{", x(cond)));
            block(s, then, p, d + 1);
            if els.is_empty() {
                line(s, "}");
            } else {
                line(s, "} else {");
                block(s, els, p, d + 1);
                line(s, "}");
            }
        }
        Stmt::For {
            counter,
            trips,
            body,
        } => {
            let t = match trips {
                Trips::Const(c) => format!("{c}u"),
                Trips::N => "n".into(),
                Trips::Mod(e) => format!("{} % 9u", x(e)),
            };
            line(
                s,
                &format!("for (uint i{counter} = 0; i{counter} < {t}; i{counter}++) {{"),
            );
            block(s, body, p, d + 1);
            line(s, "}");
        }
        Stmt::Block { counter, body } => {
            line(s, "{");
            indent(s, d + 1);
            let _ = writeln!(s, "uint i{counter} = 0;");
            block(s, body, p, d + 1);
            line(s, "}");
        }
        Stmt::Break(c) => line(s, &format!("if ({}) break;", x(c))),
        Stmt::Exchange { value, guard, body } => {
            line(s, BARRIER);
            line(s, &format!("lm[{}] = {};", p.slot(), x(value)));
            line(s, BARRIER);
            match guard_text(guard, p) {
                Some(c) => line(s, &format!("if ({c}) {{")),
                None => line(s, "{"),
            }
            block(s, body, p, d + 1);
            line(s, "}");
        }
        Stmt::Narrow {
            value,
            guard,
            stored,
            dest,
            offset,
        } => {
            line(s, BARRIER);
            let slot = p.slot();
            line(s, &format!("lm[{slot}] = {};", x(value)));
            line(s, &format!("lb[{slot}] = (uint){slot} ^ 0x5au;"));
            line(s, BARRIER);
            let store = format!("lb[{slot}] = {};", x(stored));
            match guard_text(guard, p) {
                Some(c) => line(s, &format!("if ({c})\n{}    {store}", "    ".repeat(d))),
                None => line(s, &store),
            }
            line(s, BARRIER);
            line(
                s,
                &format!(
                    "{} = lb[((uint){} + {offset}u) % {}];",
                    var_name(p, *dest),
                    p.slot(),
                    p.group_size()
                ),
            );
        }
        Stmt::LocalAtomic {
            op,
            init,
            value,
            dest,
        } => {
            line(s, BARRIER);
            line(s, &format!("if ({} == 0) la[0] = {init}u;", p.slot()));
            line(s, BARRIER);
            line(s, &format!("{}(&la[0], {});", op.name(), x(value)));
            line(s, BARRIER);
            line(s, &format!("{} = la[0];", var_name(p, *dest)));
        }
        Stmt::GlobalAtomic { op, value } => line(
            s,
            &format!("{}(&acc[{}], {});", op.name(), *op as usize, x(value)),
        ),
        Stmt::Collective {
            op,
            value,
            index,
            dest,
        } => {
            let call = if *op == Collective::Broadcast {
                // One local id per dimension of the launch (6.15.16), each taken from bits
                // of the uniform index and within that dimension's size.
                let i = x(index);
                let ids: Vec<String> = (0..p.shape.dims)
                    .map(|d| match d {
                        0 => format!("(size_t)({i} % (uint)get_local_size(0))"),
                        _ => format!(
                            "(size_t)(({i} >> {}u) % (uint)get_local_size({d}))",
                            2 * d + 1
                        ),
                    })
                    .collect();
                format!("{}({}, {})", op.name(), x(value), ids.join(", "))
            } else {
                format!("{}({})", op.name(), x(value))
            };
            line(s, &format!("{} = {call};", var_name(p, *dest)));
        }
        Stmt::Barrier => line(s, BARRIER),
        Stmt::Gather {
            id,
            row,
            dest,
            float,
        } => gather_stmt(s, *id, row, *dest, *float, p, d),
        Stmt::Run {
            id,
            row,
            dest,
            float,
            by_index,
        } => run_stmt(s, *id, row, (*dest, *float), *by_index, p, d),
        Stmt::SubGroup {
            op,
            value,
            index,
            dest,
        } => {
            let v = var_name(p, *dest);
            let e = x(value);
            let call = |f: &str| format!("{v} = {f}({e});");
            let text = match op {
                SubOp::ReduceAdd => call("sub_group_reduce_add"),
                SubOp::ReduceMin => call("sub_group_reduce_min"),
                SubOp::ReduceMax => call("sub_group_reduce_max"),
                SubOp::ScanInclusiveAdd => call("sub_group_scan_inclusive_add"),
                SubOp::ScanExclusiveAdd => call("sub_group_scan_exclusive_add"),
                SubOp::ScanInclusiveMax => call("sub_group_scan_inclusive_max"),
                SubOp::Broadcast => format!(
                    "{v} = sub_group_broadcast({e}, {} % get_sub_group_size());",
                    x(index)
                ),
                SubOp::Any => format!("{v} = (uint)sub_group_any((int)({e} & 1u));"),
                SubOp::All => format!("{v} = (uint)sub_group_all((int)({e} & 1u));"),
                SubOp::Exchange(k) => {
                    let base = "get_sub_group_id() * get_max_sub_group_size()";
                    line(s, &format!("ls[{base} + get_sub_group_local_id()] = {e};"));
                    line(s, "sub_group_barrier(CLK_LOCAL_MEM_FENCE);");
                    line(
                        s,
                        &format!(
                            "{v} = ls[{base} + (get_sub_group_local_id() + {k}u) % \
                             get_sub_group_size()];"
                        ),
                    );
                    "sub_group_barrier(CLK_LOCAL_MEM_FENCE);".to_string()
                }
            };
            line(s, &text);
        }
        Stmt::HelperExchange {
            value,
            offset,
            dest,
        } => line(
            s,
            &format!(
                "{} = xchg(lm, {}, {offset}u);",
                var_name(p, *dest),
                x(value)
            ),
        ),
        Stmt::Return { cond, value } => {
            line(s, &format!("if ({}) {{", x(cond)));
            indent(s, d + 1);
            let _ = writeln!(s, "out[{}] = {};", p.out_index(), x(value));
            indent(s, d + 1);
            s.push_str("return;\n");
            line(s, "}");
        }
        Stmt::Bytes {
            op,
            var,
            index,
            operand,
        } => {
            let q = format!("q{var}");
            let i = x(index);
            let o = x(operand);
            let b = format!(
                "vload4({i} & {}u, (global const uchar *)in)",
                INPUT_WORDS - 1
            );
            let splat = format!("(uchar4)((uchar)({o}))");
            let text = match op {
                ByteOp::AddSat => {
                    format!("{q} = convert_uint4(add_sat({b}, convert_uchar4_sat({q})));")
                }
                ByteOp::AbsDiff => format!(
                    "{q} = convert_uint4(abs_diff({b}, convert_uchar4_sat({q} >> (uint4)(8u))));"
                ),
                ByteOp::Select => format!(
                    "{q} = convert_uint4(select({b}, convert_uchar4_sat({q}), {b} > {splat}));"
                ),
                ByteOp::Ternary => {
                    format!("{q} = convert_uint4({b} > {splat} ? {b} : {splat} - {b});")
                }
                ByteOp::Rotate => {
                    format!("{q} = convert_uint4(rotate({b}, convert_uchar4({q} & (uint4)(7u))));")
                }
                ByteOp::Store => {
                    format!("vstore4(convert_uchar4_sat({q}) + {b}, {o} & 3u, pb);")
                }
                ByteOp::Short => format!(
                    "{q}.s01 = as_uint2(convert_int2(hadd(vload2({i} & {}u, \
                     (global const short *)in), convert_short2_sat(as_int2({q}.s23)))));",
                    INPUT_WORDS - 1
                ),
            };
            line(s, &text);
        }
    }
}
