//! The catalogue of builtin functions: every builtin of OpenCL C 6.15 (and the conversions of
//! 6.4) is one value of [`Builtin`], whose families mirror the spec's sections. A name is
//! resolved once (`"sin".parse::<Builtin>()`), where sema meets a call; the declaration table,
//! the checked tree, lowering and the builtin library's index all work on the value after
//! that, and a `match` on it is checked for being exhaustive where a name comparison is not.
//!
//! The parameterized names (`convert_<type>[_sat][_<rounding>]`, `as_<type>`, `vload<n>`,
//! `vstore_half<n>_rtz`, ...) carry their parameters; every value prints as its name
//! ([`std::fmt::Display`]), and printing then parsing gives the value back.

use std::fmt;
use std::str::FromStr;

use crate::sema::types::{Scalar, LANES};

/// A closed family of builtins named by fixed strings: the enum, its members' names and the
/// lookup from a name.
macro_rules! named {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($member:ident = $text:literal,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($member,)*
        }

        impl $name {
            /// Every member, in the spec's order.
            pub const ALL: &'static [$name] = &[$($name::$member,)*];

            /// The member's name in OpenCL C (or the part of it after the family's prefix).
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$member => $text,)*
                }
            }

            /// The member called `name`.
            pub fn from_name(name: &str) -> Option<Self> {
                match name {
                    $($text => Some($name::$member),)*
                    _ => None,
                }
            }
        }
    };
}

named! {
    /// 6.15.1 work-item functions and the sub-group queries of 6.15.20 (and of
    /// `cl_khr_subgroup_ballot`).
    pub enum WorkItem {
        GetWorkDim = "get_work_dim",
        GetGlobalSize = "get_global_size",
        GetGlobalId = "get_global_id",
        GetLocalSize = "get_local_size",
        GetEnqueuedLocalSize = "get_enqueued_local_size",
        GetLocalId = "get_local_id",
        GetNumGroups = "get_num_groups",
        GetGroupId = "get_group_id",
        GetGlobalOffset = "get_global_offset",
        GetGlobalLinearId = "get_global_linear_id",
        GetLocalLinearId = "get_local_linear_id",
        GetSubGroupSize = "get_sub_group_size",
        GetMaxSubGroupSize = "get_max_sub_group_size",
        GetNumSubGroups = "get_num_sub_groups",
        GetEnqueuedNumSubGroups = "get_enqueued_num_sub_groups",
        GetSubGroupId = "get_sub_group_id",
        GetSubGroupLocalId = "get_sub_group_local_id",
        GetSubGroupEqMask = "get_sub_group_eq_mask",
        GetSubGroupGeMask = "get_sub_group_ge_mask",
        GetSubGroupGtMask = "get_sub_group_gt_mask",
        GetSubGroupLeMask = "get_sub_group_le_mask",
        GetSubGroupLtMask = "get_sub_group_lt_mask",
    }
}

named! {
    /// 6.15.2 math functions (full precision).
    pub enum Math {
        Acos = "acos",
        Acosh = "acosh",
        Acospi = "acospi",
        Asin = "asin",
        Asinh = "asinh",
        Asinpi = "asinpi",
        Atan = "atan",
        Atan2 = "atan2",
        Atanh = "atanh",
        Atanpi = "atanpi",
        Atan2pi = "atan2pi",
        Cbrt = "cbrt",
        Ceil = "ceil",
        Copysign = "copysign",
        Cos = "cos",
        Cosh = "cosh",
        Cospi = "cospi",
        Erfc = "erfc",
        Erf = "erf",
        Exp = "exp",
        Exp2 = "exp2",
        Exp10 = "exp10",
        Expm1 = "expm1",
        Fabs = "fabs",
        Fdim = "fdim",
        Floor = "floor",
        Fma = "fma",
        Fmax = "fmax",
        Fmin = "fmin",
        Fmod = "fmod",
        Fract = "fract",
        Frexp = "frexp",
        Hypot = "hypot",
        Ilogb = "ilogb",
        Ldexp = "ldexp",
        Lgamma = "lgamma",
        LgammaR = "lgamma_r",
        Log = "log",
        Log2 = "log2",
        Log10 = "log10",
        Log1p = "log1p",
        Logb = "logb",
        Mad = "mad",
        Maxmag = "maxmag",
        Minmag = "minmag",
        Modf = "modf",
        Nan = "nan",
        Nextafter = "nextafter",
        Pow = "pow",
        Pown = "pown",
        Powr = "powr",
        Remainder = "remainder",
        Remquo = "remquo",
        Rint = "rint",
        Rootn = "rootn",
        Round = "round",
        Rsqrt = "rsqrt",
        Sin = "sin",
        Sincos = "sincos",
        Sinh = "sinh",
        Sinpi = "sinpi",
        Sqrt = "sqrt",
        Tan = "tan",
        Tanh = "tanh",
        Tanpi = "tanpi",
        Tgamma = "tgamma",
        Trunc = "trunc",
    }
}

named! {
    /// The functions of 6.15.2 that come as `half_` and `native_` forms, named without the
    /// prefix (see [`Precision`]).
    pub enum Native {
        Cos = "cos",
        Divide = "divide",
        Exp = "exp",
        Exp2 = "exp2",
        Exp10 = "exp10",
        Log = "log",
        Log2 = "log2",
        Log10 = "log10",
        Powr = "powr",
        Recip = "recip",
        Rsqrt = "rsqrt",
        Sin = "sin",
        Sqrt = "sqrt",
        Tan = "tan",
    }
}

/// Which reduced-precision form of a [`Native`] function a name asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Precision {
    /// `half_`: at least 10 bits of precision (6.15.2, Table 15).
    Half,
    /// `native_`: implementation-defined precision.
    Native,
}

named! {
    /// 6.15.3 integer functions, with the extended bit operations of 6.15.3.1 and the integer
    /// dot products (`dot` itself is [`Geometric::Dot`]; `min`, `max` and `clamp` are
    /// [`Common`]).
    pub enum Integer {
        Abs = "abs",
        AbsDiff = "abs_diff",
        AddSat = "add_sat",
        Hadd = "hadd",
        Rhadd = "rhadd",
        Clz = "clz",
        Ctz = "ctz",
        MadHi = "mad_hi",
        MadSat = "mad_sat",
        MulHi = "mul_hi",
        Rotate = "rotate",
        SubSat = "sub_sat",
        Popcount = "popcount",
        Mad24 = "mad24",
        Mul24 = "mul24",
        Upsample = "upsample",
        BitfieldInsert = "bitfield_insert",
        BitfieldExtractSigned = "bitfield_extract_signed",
        BitfieldExtractUnsigned = "bitfield_extract_unsigned",
        BitReverse = "bit_reverse",
        DotAccSat = "dot_acc_sat",
        Dot4x8packedUuUint = "dot_4x8packed_uu_uint",
        Dot4x8packedSsInt = "dot_4x8packed_ss_int",
        Dot4x8packedUsInt = "dot_4x8packed_us_int",
        Dot4x8packedSuInt = "dot_4x8packed_su_int",
        DotAccSat4x8packedUuUint = "dot_acc_sat_4x8packed_uu_uint",
        DotAccSat4x8packedSsInt = "dot_acc_sat_4x8packed_ss_int",
        DotAccSat4x8packedUsInt = "dot_acc_sat_4x8packed_us_int",
        DotAccSat4x8packedSuInt = "dot_acc_sat_4x8packed_su_int",
    }
}

named! {
    /// 6.15.4 common functions (`min`, `max` and `clamp` of integers too).
    pub enum Common {
        Clamp = "clamp",
        Degrees = "degrees",
        Max = "max",
        Min = "min",
        Mix = "mix",
        Radians = "radians",
        Step = "step",
        Smoothstep = "smoothstep",
        Sign = "sign",
    }
}

named! {
    /// 6.15.5 geometric functions (`dot` of 4x8-bit integer vectors too).
    pub enum Geometric {
        Cross = "cross",
        Dot = "dot",
        Distance = "distance",
        Length = "length",
        Normalize = "normalize",
        FastDistance = "fast_distance",
        FastLength = "fast_length",
        FastNormalize = "fast_normalize",
    }
}

named! {
    /// 6.15.6 relational functions.
    pub enum Relational {
        Isequal = "isequal",
        Isnotequal = "isnotequal",
        Isgreater = "isgreater",
        Isgreaterequal = "isgreaterequal",
        Isless = "isless",
        Islessequal = "islessequal",
        Islessgreater = "islessgreater",
        Isfinite = "isfinite",
        Isinf = "isinf",
        Isnan = "isnan",
        Isnormal = "isnormal",
        Isordered = "isordered",
        Isunordered = "isunordered",
        Signbit = "signbit",
        Any = "any",
        All = "all",
        Bitselect = "bitselect",
        Select = "select",
    }
}

named! {
    /// 6.15.8 synchronization and 6.15.9 memory fence functions.
    pub enum Sync {
        Barrier = "barrier",
        WorkGroupBarrier = "work_group_barrier",
        SubGroupBarrier = "sub_group_barrier",
        MemFence = "mem_fence",
        ReadMemFence = "read_mem_fence",
        WriteMemFence = "write_mem_fence",
        AtomicWorkItemFence = "atomic_work_item_fence",
    }
}

named! {
    /// 6.15.11 async copies between global and local memory, and prefetch.
    pub enum AsyncCopy {
        AsyncWorkGroupCopy = "async_work_group_copy",
        AsyncWorkGroupStridedCopy = "async_work_group_strided_copy",
        WaitGroupEvents = "wait_group_events",
        Prefetch = "prefetch",
    }
}

named! {
    /// 6.15.12.8 the legacy atomic functions, named without their `atomic_` or `atom_` prefix.
    pub enum LegacyAtomic {
        Add = "add",
        Sub = "sub",
        Xchg = "xchg",
        Inc = "inc",
        Dec = "dec",
        Cmpxchg = "cmpxchg",
        Min = "min",
        Max = "max",
        And = "and",
        Or = "or",
        Xor = "xor",
    }
}

named! {
    /// 6.15.12 the C11-style atomic functions, named without `atomic_` and `_explicit`.
    pub enum Atomic {
        Init = "init",
        Store = "store",
        Load = "load",
        Exchange = "exchange",
        CompareExchangeStrong = "compare_exchange_strong",
        CompareExchangeWeak = "compare_exchange_weak",
        FetchAdd = "fetch_add",
        FetchSub = "fetch_sub",
        FetchOr = "fetch_or",
        FetchXor = "fetch_xor",
        FetchAnd = "fetch_and",
        FetchMin = "fetch_min",
        FetchMax = "fetch_max",
        FlagTestAndSet = "flag_test_and_set",
        FlagClear = "flag_clear",
    }
}

named! {
    /// 6.15.15 image read, write and query functions.
    pub enum Image {
        ReadImagef = "read_imagef",
        ReadImagei = "read_imagei",
        ReadImageui = "read_imageui",
        ReadImageh = "read_imageh",
        WriteImagef = "write_imagef",
        WriteImagei = "write_imagei",
        WriteImageui = "write_imageui",
        WriteImageh = "write_imageh",
        GetImageWidth = "get_image_width",
        GetImageHeight = "get_image_height",
        GetImageDepth = "get_image_depth",
        GetImageChannelDataType = "get_image_channel_data_type",
        GetImageChannelOrder = "get_image_channel_order",
        GetImageDim = "get_image_dim",
        GetImageArraySize = "get_image_array_size",
    }
}

/// The kind of a work-group or sub-group collective (6.15.16, 6.15.20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Collective {
    /// `_all`: true if every work-item's predicate is.
    All,
    /// `_any`: true if some work-item's predicate is.
    Any,
    /// `_broadcast`: one work-item's value to all.
    Broadcast,
    /// `_reduce_<op>`.
    Reduce(GroupArith),
    /// `_scan_inclusive_<op>`.
    ScanInclusive(GroupArith),
    /// `_scan_exclusive_<op>`.
    ScanExclusive(GroupArith),
}

named! {
    /// The operation of a reduction or scan (6.15.16, and 6.15.17 of
    /// `cl_khr_work_group_uniform_arithmetic`).
    pub enum GroupArith {
        Add = "add",
        Min = "min",
        Max = "max",
        Mul = "mul",
        And = "and",
        Or = "or",
        Xor = "xor",
        LogicalAnd = "logical_and",
        LogicalOr = "logical_or",
        LogicalXor = "logical_xor",
    }
}

/// Which work-items a collective spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GroupScope {
    /// `work_group_`.
    WorkGroup,
    /// `sub_group_`.
    SubGroup,
}

named! {
    /// The sub-group extension functions (6.15.20.1 to 7: `cl_khr_subgroup_non_uniform_vote`,
    /// `_ballot`, `_non_uniform_arithmetic`, `_clustered_reduce`, `_shuffle`,
    /// `_shuffle_relative`, `cl_khr_subgroup_rotate`), named without `sub_group_`.
    pub enum SubGroupExt {
        Elect = "elect",
        NonUniformAll = "non_uniform_all",
        NonUniformAny = "non_uniform_any",
        NonUniformAllEqual = "non_uniform_all_equal",
        NonUniformBroadcast = "non_uniform_broadcast",
        BroadcastFirst = "broadcast_first",
        Ballot = "ballot",
        InverseBallot = "inverse_ballot",
        BallotBitExtract = "ballot_bit_extract",
        BallotBitCount = "ballot_bit_count",
        BallotInclusiveScan = "ballot_inclusive_scan",
        BallotExclusiveScan = "ballot_exclusive_scan",
        BallotFindLsb = "ballot_find_lsb",
        BallotFindMsb = "ballot_find_msb",
        NonUniformReduceAdd = "non_uniform_reduce_add",
        NonUniformReduceMin = "non_uniform_reduce_min",
        NonUniformReduceMax = "non_uniform_reduce_max",
        NonUniformReduceMul = "non_uniform_reduce_mul",
        NonUniformScanInclusiveAdd = "non_uniform_scan_inclusive_add",
        NonUniformScanInclusiveMin = "non_uniform_scan_inclusive_min",
        NonUniformScanInclusiveMax = "non_uniform_scan_inclusive_max",
        NonUniformScanInclusiveMul = "non_uniform_scan_inclusive_mul",
        NonUniformScanExclusiveAdd = "non_uniform_scan_exclusive_add",
        NonUniformScanExclusiveMin = "non_uniform_scan_exclusive_min",
        NonUniformScanExclusiveMax = "non_uniform_scan_exclusive_max",
        NonUniformScanExclusiveMul = "non_uniform_scan_exclusive_mul",
        NonUniformReduceAnd = "non_uniform_reduce_and",
        NonUniformReduceOr = "non_uniform_reduce_or",
        NonUniformReduceXor = "non_uniform_reduce_xor",
        NonUniformScanInclusiveAnd = "non_uniform_scan_inclusive_and",
        NonUniformScanInclusiveOr = "non_uniform_scan_inclusive_or",
        NonUniformScanInclusiveXor = "non_uniform_scan_inclusive_xor",
        NonUniformScanExclusiveAnd = "non_uniform_scan_exclusive_and",
        NonUniformScanExclusiveOr = "non_uniform_scan_exclusive_or",
        NonUniformScanExclusiveXor = "non_uniform_scan_exclusive_xor",
        NonUniformReduceLogicalAnd = "non_uniform_reduce_logical_and",
        NonUniformReduceLogicalOr = "non_uniform_reduce_logical_or",
        NonUniformReduceLogicalXor = "non_uniform_reduce_logical_xor",
        NonUniformScanInclusiveLogicalAnd = "non_uniform_scan_inclusive_logical_and",
        NonUniformScanInclusiveLogicalOr = "non_uniform_scan_inclusive_logical_or",
        NonUniformScanInclusiveLogicalXor = "non_uniform_scan_inclusive_logical_xor",
        NonUniformScanExclusiveLogicalAnd = "non_uniform_scan_exclusive_logical_and",
        NonUniformScanExclusiveLogicalOr = "non_uniform_scan_exclusive_logical_or",
        NonUniformScanExclusiveLogicalXor = "non_uniform_scan_exclusive_logical_xor",
        ClusteredReduceAdd = "clustered_reduce_add",
        ClusteredReduceMin = "clustered_reduce_min",
        ClusteredReduceMax = "clustered_reduce_max",
        ClusteredReduceMul = "clustered_reduce_mul",
        ClusteredReduceAnd = "clustered_reduce_and",
        ClusteredReduceOr = "clustered_reduce_or",
        ClusteredReduceXor = "clustered_reduce_xor",
        ClusteredReduceLogicalAnd = "clustered_reduce_logical_and",
        ClusteredReduceLogicalOr = "clustered_reduce_logical_or",
        ClusteredReduceLogicalXor = "clustered_reduce_logical_xor",
        Shuffle = "shuffle",
        ShuffleXor = "shuffle_xor",
        ShuffleUp = "shuffle_up",
        ShuffleDown = "shuffle_down",
        Rotate = "rotate",
        ClusteredRotate = "clustered_rotate",
    }
}

named! {
    /// 6.15.18 pipe functions, generic over the pipe's element type.
    pub enum Pipe {
        ReadPipe = "read_pipe",
        WritePipe = "write_pipe",
        ReserveReadPipe = "reserve_read_pipe",
        ReserveWritePipe = "reserve_write_pipe",
        CommitReadPipe = "commit_read_pipe",
        CommitWritePipe = "commit_write_pipe",
        WorkGroupReserveReadPipe = "work_group_reserve_read_pipe",
        WorkGroupReserveWritePipe = "work_group_reserve_write_pipe",
        WorkGroupCommitReadPipe = "work_group_commit_read_pipe",
        WorkGroupCommitWritePipe = "work_group_commit_write_pipe",
        SubGroupReserveReadPipe = "sub_group_reserve_read_pipe",
        SubGroupReserveWritePipe = "sub_group_reserve_write_pipe",
        SubGroupCommitReadPipe = "sub_group_commit_read_pipe",
        SubGroupCommitWritePipe = "sub_group_commit_write_pipe",
        GetPipeNumPackets = "get_pipe_num_packets",
        GetPipeMaxPackets = "get_pipe_max_packets",
        IsValidReserveId = "is_valid_reserve_id",
    }
}

named! {
    /// 6.15.19 enqueuing kernels: the functions that take a block and the helpers that do not.
    pub enum Enqueue {
        EnqueueKernel = "enqueue_kernel",
        GetKernelWorkGroupSize = "get_kernel_work_group_size",
        GetKernelPreferredWorkGroupSizeMultiple = "get_kernel_preferred_work_group_size_multiple",
        GetKernelSubGroupCountForNdrange = "get_kernel_sub_group_count_for_ndrange",
        GetKernelMaxSubGroupSizeForNdrange = "get_kernel_max_sub_group_size_for_ndrange",
        GetDefaultQueue = "get_default_queue",
        Ndrange1D = "ndrange_1D",
        Ndrange2D = "ndrange_2D",
        Ndrange3D = "ndrange_3D",
        RetainEvent = "retain_event",
        ReleaseEvent = "release_event",
        EnqueueMarker = "enqueue_marker",
        CaptureEventProfilingInfo = "capture_event_profiling_info",
        CreateUserEvent = "create_user_event",
        IsValidEvent = "is_valid_event",
        SetUserEventStatus = "set_user_event_status",
    }
}

impl Pipe {
    /// Reads the pipe (whose argument must then be `read_only`).
    pub fn reads(self) -> bool {
        use Pipe as P;
        matches!(
            self,
            P::ReadPipe
                | P::ReserveReadPipe
                | P::CommitReadPipe
                | P::WorkGroupReserveReadPipe
                | P::WorkGroupCommitReadPipe
                | P::SubGroupReserveReadPipe
                | P::SubGroupCommitReadPipe
        )
    }

    /// Writes the pipe (whose argument must then be `write_only`).
    pub fn writes(self) -> bool {
        use Pipe as P;
        matches!(
            self,
            P::WritePipe
                | P::ReserveWritePipe
                | P::CommitWritePipe
                | P::WorkGroupReserveWritePipe
                | P::WorkGroupCommitWritePipe
                | P::SubGroupReserveWritePipe
                | P::SubGroupCommitWritePipe
        )
    }
}

impl Enqueue {
    /// `enqueue_kernel` and the kernel queries, which take a block (sema checks them itself).
    pub fn takes_block(self) -> bool {
        use Enqueue as E;
        matches!(
            self,
            E::EnqueueKernel
                | E::GetKernelWorkGroupSize
                | E::GetKernelPreferredWorkGroupSizeMultiple
                | E::GetKernelSubGroupCountForNdrange
                | E::GetKernelMaxSubGroupSizeForNdrange
        )
    }
}

named! {
    /// 6.15.10 address space qualifier functions.
    pub enum AddressSpace {
        ToGlobal = "to_global",
        ToLocal = "to_local",
        ToPrivate = "to_private",
        GetFence = "get_fence",
    }
}

named! {
    /// 6.15.21 the kernel clock (`cl_khr_kernel_clock`).
    pub enum Clock {
        ClockReadDevice = "clock_read_device",
        ClockReadWorkGroup = "clock_read_work_group",
        ClockReadSubGroup = "clock_read_sub_group",
    }
}

named! {
    /// 6.15.13 miscellaneous vector functions.
    pub enum VectorMisc {
        Shuffle = "shuffle",
        Shuffle2 = "shuffle2",
    }
}

named! {
    /// A rounding-mode suffix (6.4.3.2 conversions, 6.15.7 `vstore_half`).
    pub enum Rounding {
        Rte = "rte",
        Rtz = "rtz",
        Rtp = "rtp",
        Rtn = "rtn",
    }
}

/// What the memory of a 6.15.7 vector load or store holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HalfData {
    /// Elements of the vector's own type (`vload<n>`, `vstore<n>`).
    No,
    /// Halfs, aligned to one half (`vload_half<n>`, `vstore_half<n>`).
    Unaligned,
    /// Halfs, aligned to the whole vector (`vloada_half<n>`, `vstorea_half<n>`).
    Aligned,
}

/// A 6.15.7 vector data load or store: `vload<n>`, `vstore<n>`, `vload_half[<n>]`,
/// `vloada_half<n>`, `vstore_half[<n>][_<rounding>]`, `vstorea_half<n>[_<rounding>]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VectorData {
    /// A store, else a load.
    pub store: bool,
    /// What the memory holds.
    pub half: HalfData,
    /// The lanes of the value loaded or stored (1 for `vload_half` and `vstore_half`).
    pub lanes: u8,
    /// A half store's rounding suffix.
    pub round: Option<Rounding>,
}

impl VectorData {
    fn from_name(name: &str) -> Option<Self> {
        let (store, rest) = match name.strip_prefix("vload") {
            Some(rest) => (false, rest),
            None => (true, name.strip_prefix("vstore")?),
        };
        let (half, rest) = if let Some(rest) = rest.strip_prefix("_half") {
            (HalfData::Unaligned, rest)
        } else if let Some(rest) = rest.strip_prefix("a_half") {
            (HalfData::Aligned, rest)
        } else {
            (HalfData::No, rest)
        };
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (n, suffix) = rest.split_at(digits);
        let lanes = match n.parse::<u8>() {
            Ok(n) if LANES.contains(&n) => n,
            Err(_) if n.is_empty() && half == HalfData::Unaligned => 1,
            _ => return None,
        };
        let round = match suffix.strip_prefix('_') {
            Some(r) if store && half != HalfData::No => Some(Rounding::from_name(r)?),
            _ if suffix.is_empty() => None,
            _ => return None,
        };
        Some(VectorData {
            store,
            half,
            lanes,
            round,
        })
    }
}

impl fmt::Display for VectorData {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(if self.store { "vstore" } else { "vload" })?;
        f.write_str(match self.half {
            HalfData::No => "",
            HalfData::Unaligned => "_half",
            HalfData::Aligned => "a_half",
        })?;
        if self.lanes > 1 {
            write!(f, "{}", self.lanes)?;
        }
        match self.round {
            Some(r) => write!(f, "_{}", r.name()),
            None => Ok(()),
        }
    }
}

/// 6.4.3 `convert_<type>[_sat][_<rounding>]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Convert {
    /// The destination's scalar type.
    pub to: Scalar,
    /// The destination's lanes (and the source's).
    pub lanes: u8,
    /// `_sat`: out-of-range values saturate (integer destinations only).
    pub sat: bool,
    /// The rounding suffix; without one, 6.4.3.1 and 6.4.3.2 say how the conversion rounds.
    pub round: Option<Rounding>,
}

impl Convert {
    fn from_name(name: &str) -> Option<Self> {
        let mut parts = name.strip_prefix("convert_")?.split('_');
        let (to, lanes) = parse_type_name(parts.next()?)?;
        let mut sat = false;
        let mut round = None;
        for p in parts {
            match p {
                "sat" if !sat && round.is_none() => sat = true,
                _ if round.is_none() => round = Some(Rounding::from_name(p)?),
                _ => return None,
            }
        }
        // 6.4.3: saturation applies only to integer destinations.
        if (sat && to.is_float()) || to == Scalar::Bool {
            return None;
        }
        Some(Convert {
            to,
            lanes,
            sat,
            round,
        })
    }
}

impl fmt::Display for Convert {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "convert_{}", self.to.name())?;
        if self.lanes > 1 {
            write!(f, "{}", self.lanes)?;
        }
        if self.sat {
            f.write_str("_sat")?;
        }
        match self.round {
            Some(r) => write!(f, "_{}", r.name()),
            None => Ok(()),
        }
    }
}

/// A type name of a conversion builtin: `float4` is (Float, 4), `int` (Int, 1).
pub fn parse_type_name(ty: &str) -> Option<(Scalar, u8)> {
    let digits = ty.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let base = &ty[..ty.len() - digits.len()];
    let s = super::scalar_named(base)?;
    let n: u8 = if digits.is_empty() {
        1
    } else {
        digits.parse().ok()?
    };
    if !(n == 1 || LANES.contains(&n)) {
        return None;
    }
    Some((s, n))
}

/// A builtin function of OpenCL C: one value per name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    WorkItem(WorkItem),
    Math(Math),
    /// `half_<f>` or `native_<f>`.
    Native(Precision, Native),
    Integer(Integer),
    Common(Common),
    Geometric(Geometric),
    Relational(Relational),
    VectorData(VectorData),
    VectorMisc(VectorMisc),
    Sync(Sync),
    AsyncCopy(AsyncCopy),
    /// `atomic_<op>`, or `atom_<op>` (the OpenCL 1.0 names) with `atom`.
    LegacyAtomic {
        op: LegacyAtomic,
        atom: bool,
    },
    /// `atomic_<op>`, or `atomic_<op>_explicit` with `explicit`.
    Atomic {
        op: Atomic,
        explicit: bool,
    },
    AddressSpace(AddressSpace),
    /// 6.15.14 `printf`.
    Printf,
    Image(Image),
    /// `work_group_<op>` or `sub_group_<op>` (6.15.16, 6.15.20).
    Group {
        scope: GroupScope,
        op: Collective,
    },
    /// `sub_group_<f>` of the sub-group extensions.
    SubGroupExt(SubGroupExt),
    Pipe(Pipe),
    Enqueue(Enqueue),
    Clock(Clock),
    Convert(Convert),
    /// 6.4.4 `as_<type>`: reinterprets the bits as `to` with `lanes` lanes.
    As {
        to: Scalar,
        lanes: u8,
    },
}

impl Builtin {
    /// The builtin called `name`, if one is.
    pub fn from_name(name: &str) -> Option<Builtin> {
        use Builtin as B;
        let fixed = WorkItem::from_name(name)
            .map(B::WorkItem)
            .or_else(|| Math::from_name(name).map(B::Math))
            .or_else(|| Integer::from_name(name).map(B::Integer))
            .or_else(|| Common::from_name(name).map(B::Common))
            .or_else(|| Geometric::from_name(name).map(B::Geometric))
            .or_else(|| Relational::from_name(name).map(B::Relational))
            .or_else(|| VectorMisc::from_name(name).map(B::VectorMisc))
            .or_else(|| Sync::from_name(name).map(B::Sync))
            .or_else(|| AsyncCopy::from_name(name).map(B::AsyncCopy))
            .or_else(|| AddressSpace::from_name(name).map(B::AddressSpace))
            .or_else(|| Image::from_name(name).map(B::Image))
            .or_else(|| Pipe::from_name(name).map(B::Pipe))
            .or_else(|| Enqueue::from_name(name).map(B::Enqueue))
            .or_else(|| Clock::from_name(name).map(B::Clock));
        if fixed.is_some() {
            return fixed;
        }
        if name == "printf" {
            return Some(B::Printf);
        }
        if let Some(f) = name.strip_prefix("half_") {
            return Native::from_name(f).map(|f| B::Native(Precision::Half, f));
        }
        if let Some(f) = name.strip_prefix("native_") {
            return Native::from_name(f).map(|f| B::Native(Precision::Native, f));
        }
        if let Some(op) = name.strip_prefix("atom_") {
            return LegacyAtomic::from_name(op).map(|op| B::LegacyAtomic { op, atom: true });
        }
        if let Some(op) = name.strip_prefix("atomic_") {
            if let Some(op) = LegacyAtomic::from_name(op) {
                return Some(B::LegacyAtomic { op, atom: false });
            }
            let (op, explicit) = match op.strip_suffix("_explicit") {
                Some(op) => (Atomic::from_name(op)?, true),
                None => (Atomic::from_name(op)?, false),
            };
            return (!(explicit && op == Atomic::Init)).then_some(B::Atomic { op, explicit });
        }
        if let Some(op) = name.strip_prefix("work_group_") {
            return Collective::from_name(op).map(|op| B::Group {
                scope: GroupScope::WorkGroup,
                op,
            });
        }
        if let Some(f) = name.strip_prefix("sub_group_") {
            return Collective::from_name(f)
                .map(|op| B::Group {
                    scope: GroupScope::SubGroup,
                    op,
                })
                .or_else(|| SubGroupExt::from_name(f).map(B::SubGroupExt));
        }
        if name.starts_with("vload") || name.starts_with("vstore") {
            return VectorData::from_name(name).map(B::VectorData);
        }
        if let Some(ty) = name.strip_prefix("as_") {
            let (to, lanes) = parse_type_name(ty)?;
            return Some(B::As { to, lanes });
        }
        Convert::from_name(name).map(B::Convert)
    }

    /// The name of the builtin whose full precision this one has: `cos` for `native_cos`, the
    /// builtin itself otherwise (6.15.2: "native_" and "half_" functions have
    /// implementation-defined or reduced precision, which the full-precision function meets).
    pub fn full_precision_name(self) -> String {
        match self {
            Builtin::Native(_, f) => f.name().to_string(),
            b => b.to_string(),
        }
    }

    /// Generic over any pointer, pipe or block type: sema checks a call of it itself (the
    /// address space qualifier functions, the pipe functions, and `enqueue_kernel` with the
    /// kernel queries), and [`super::lookup`] declares no overloads.
    pub fn sema_checks_itself(self) -> bool {
        match self {
            Builtin::AddressSpace(_) | Builtin::Pipe(_) => true,
            Builtin::Enqueue(e) => e.takes_block(),
            _ => false,
        }
    }

    /// A relational test of 6.15.6 whose vector forms return -1 for true ("-1 (i.e. all bits
    /// set) if the specified relation is true") and whose scalar forms return 1.
    pub fn is_relational_test(self) -> bool {
        match self {
            Builtin::Relational(r) => !matches!(
                r,
                Relational::Any | Relational::All | Relational::Bitselect | Relational::Select
            ),
            _ => false,
        }
    }
}

impl Collective {
    /// The collective named `name` (the part after `work_group_` or `sub_group_`).
    fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "all" => Collective::All,
            "any" => Collective::Any,
            "broadcast" => Collective::Broadcast,
            _ => {
                if let Some(op) = name.strip_prefix("reduce_") {
                    Collective::Reduce(GroupArith::from_name(op)?)
                } else if let Some(op) = name.strip_prefix("scan_inclusive_") {
                    Collective::ScanInclusive(GroupArith::from_name(op)?)
                } else {
                    let op = name.strip_prefix("scan_exclusive_")?;
                    Collective::ScanExclusive(GroupArith::from_name(op)?)
                }
            }
        })
    }
}

impl fmt::Display for Collective {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Collective::All => f.write_str("all"),
            Collective::Any => f.write_str("any"),
            Collective::Broadcast => f.write_str("broadcast"),
            Collective::Reduce(op) => write!(f, "reduce_{}", op.name()),
            Collective::ScanInclusive(op) => write!(f, "scan_inclusive_{}", op.name()),
            Collective::ScanExclusive(op) => write!(f, "scan_exclusive_{}", op.name()),
        }
    }
}

/// The name is not a builtin's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotABuiltin;

impl FromStr for Builtin {
    type Err = NotABuiltin;

    fn from_str(name: &str) -> Result<Self, NotABuiltin> {
        Builtin::from_name(name).ok_or(NotABuiltin)
    }
}

impl fmt::Display for Builtin {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            Builtin::WorkItem(x) => f.write_str(x.name()),
            Builtin::Math(x) => f.write_str(x.name()),
            Builtin::Native(Precision::Half, x) => write!(f, "half_{}", x.name()),
            Builtin::Native(Precision::Native, x) => write!(f, "native_{}", x.name()),
            Builtin::Integer(x) => f.write_str(x.name()),
            Builtin::Common(x) => f.write_str(x.name()),
            Builtin::Geometric(x) => f.write_str(x.name()),
            Builtin::Relational(x) => f.write_str(x.name()),
            Builtin::VectorData(x) => x.fmt(f),
            Builtin::VectorMisc(x) => f.write_str(x.name()),
            Builtin::Sync(x) => f.write_str(x.name()),
            Builtin::AsyncCopy(x) => f.write_str(x.name()),
            Builtin::LegacyAtomic { op, atom } => {
                let prefix = if atom { "atom" } else { "atomic" };
                write!(f, "{prefix}_{}", op.name())
            }
            Builtin::Atomic { op, explicit } => {
                let suffix = if explicit { "_explicit" } else { "" };
                write!(f, "atomic_{}{suffix}", op.name())
            }
            Builtin::AddressSpace(x) => f.write_str(x.name()),
            Builtin::Printf => f.write_str("printf"),
            Builtin::Image(x) => f.write_str(x.name()),
            Builtin::Group { scope, op } => {
                let prefix = match scope {
                    GroupScope::WorkGroup => "work_group",
                    GroupScope::SubGroup => "sub_group",
                };
                write!(f, "{prefix}_{op}")
            }
            Builtin::SubGroupExt(x) => write!(f, "sub_group_{}", x.name()),
            Builtin::Pipe(x) => f.write_str(x.name()),
            Builtin::Enqueue(x) => f.write_str(x.name()),
            Builtin::Clock(x) => f.write_str(x.name()),
            Builtin::Convert(x) => x.fmt(f),
            Builtin::As { to, lanes } => {
                write!(f, "as_{}", to.name())?;
                if lanes > 1 {
                    write!(f, "{lanes}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every member of a family named by fixed strings, as a builtin.
    fn fixed() -> Vec<Builtin> {
        let mut all = Vec::new();
        all.extend(WorkItem::ALL.iter().map(|&x| Builtin::WorkItem(x)));
        all.extend(Math::ALL.iter().map(|&x| Builtin::Math(x)));
        for p in [Precision::Half, Precision::Native] {
            all.extend(Native::ALL.iter().map(|&x| Builtin::Native(p, x)));
        }
        all.extend(Integer::ALL.iter().map(|&x| Builtin::Integer(x)));
        all.extend(Common::ALL.iter().map(|&x| Builtin::Common(x)));
        all.extend(Geometric::ALL.iter().map(|&x| Builtin::Geometric(x)));
        all.extend(Relational::ALL.iter().map(|&x| Builtin::Relational(x)));
        all.extend(VectorMisc::ALL.iter().map(|&x| Builtin::VectorMisc(x)));
        all.extend(Sync::ALL.iter().map(|&x| Builtin::Sync(x)));
        all.extend(AsyncCopy::ALL.iter().map(|&x| Builtin::AsyncCopy(x)));
        for atom in [false, true] {
            all.extend(
                LegacyAtomic::ALL
                    .iter()
                    .map(|&op| Builtin::LegacyAtomic { op, atom }),
            );
        }
        for explicit in [false, true] {
            all.extend(
                Atomic::ALL
                    .iter()
                    .filter(|&&op| !(explicit && op == Atomic::Init))
                    .map(|&op| Builtin::Atomic { op, explicit }),
            );
        }
        all.extend(AddressSpace::ALL.iter().map(|&x| Builtin::AddressSpace(x)));
        all.push(Builtin::Printf);
        all.extend(Image::ALL.iter().map(|&x| Builtin::Image(x)));
        for scope in [GroupScope::WorkGroup, GroupScope::SubGroup] {
            let mut ops = vec![Collective::All, Collective::Any, Collective::Broadcast];
            for &a in GroupArith::ALL {
                ops.extend([
                    Collective::Reduce(a),
                    Collective::ScanInclusive(a),
                    Collective::ScanExclusive(a),
                ]);
            }
            all.extend(ops.into_iter().map(|op| Builtin::Group { scope, op }));
        }
        all.extend(SubGroupExt::ALL.iter().map(|&x| Builtin::SubGroupExt(x)));
        all.extend(Pipe::ALL.iter().map(|&x| Builtin::Pipe(x)));
        all.extend(Enqueue::ALL.iter().map(|&x| Builtin::Enqueue(x)));
        all.extend(Clock::ALL.iter().map(|&x| Builtin::Clock(x)));
        all
    }

    /// Each builtin's name is its own and no other's: printing then parsing gives it back.
    #[test]
    fn names_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for b in fixed() {
            let name = b.to_string();
            assert_eq!(Builtin::from_name(&name), Some(b), "{name}");
            assert!(seen.insert(name.clone()), "{name} twice");
        }
        for name in [
            "convert_int4_sat_rte",
            "convert_float",
            "convert_uchar16_sat",
            "convert_double2_rtn",
            "as_float3",
            "as_ulong",
            "vload4",
            "vstore16",
            "vload_half",
            "vload_half8",
            "vloada_half3",
            "vstore_half",
            "vstore_half_rtz",
            "vstore_half2_rtp",
            "vstorea_half4_rte",
        ] {
            let b = Builtin::from_name(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(b.to_string(), name);
        }
    }

    /// The declaration table names only builtins of the catalogue.
    #[test]
    fn every_table_name_is_a_builtin() {
        for row in super::super::table::TABLE {
            for name in row.0.split_whitespace() {
                let b = Builtin::from_name(name).unwrap_or_else(|| panic!("{name}"));
                assert_eq!(b.to_string(), name);
            }
        }
    }

    #[test]
    fn malformed_names_are_no_builtins() {
        for name in [
            "vload5",
            "vload",
            "vloada_half",
            "vload_half4_rte",
            "vstore4_rte",
            "vstore_half4_rtq",
            "convert_float_sat",
            "convert_int_rte_sat",
            "convert_bool",
            "as_int5",
            "atomic_init_explicit",
            "atomic_add_explicit",
            "native_acos",
            "work_group_reduce_nand",
            "sub_group_frobnicate",
            "sinf",
        ] {
            assert_eq!(Builtin::from_name(name), None, "{name}");
        }
    }

    /// A call site holds its builtin by value: it stays small.
    #[test]
    fn builtin_is_small() {
        assert!(std::mem::size_of::<Builtin>() <= 8);
    }
}
