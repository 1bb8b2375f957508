//! Every builtin function named in OpenCL C 3.0 section 6.15 has a declaration: the names
//! below are all function names that appear in the 6.15 text (taken from the spec), and each
//! must have at least one overload for a device with every feature (the block-taking
//! enqueue functions and the pipe and address-space functions are checked by sema itself:
//! `Builtin::sema_checks_itself`).

use ferrocl_clc::builtins::{Builtin, Config, Sig};

/// The overloads of the builtin called `name` (none when no builtin is).
fn lookup(name: &str, cfg: &Config) -> Vec<Sig> {
    Builtin::from_name(name)
        .map(|b| ferrocl_clc::builtins::lookup(b, cfg))
        .unwrap_or_default()
}

/// A builtin whose calls sema checks itself: the table declares no overloads for it.
fn is_special(name: &str) -> bool {
    Builtin::from_name(name).is_some_and(Builtin::sema_checks_itself)
}

const SPEC_6_15_NAMES: &[&str] = &[
    "add_sat",
    "all",
    "asin",
    "async_work_group_strided_copy",
    "atan",
    "atom_add",
    "atom_and",
    "atom_cmpxchg",
    "atom_dec",
    "atom_inc",
    "atom_max",
    "atom_min",
    "atom_or",
    "atom_xor",
    "atomic_and",
    "atomic_cmpxchg",
    "atomic_compare_exchange_strong",
    "atomic_compare_exchange_strong_explicit",
    "atomic_compare_exchange_weak",
    "atomic_compare_exchange_weak_explicit",
    "atomic_dec",
    "atomic_exchange_explicit",
    "atomic_flag_clear",
    "atomic_flag_clear_explicit",
    "atomic_flag_test_and_set",
    "atomic_flag_test_and_set_explicit",
    "atomic_inc",
    "atomic_init",
    "atomic_load",
    "atomic_load_explicit",
    "atomic_max",
    "atomic_min",
    "atomic_or",
    "atomic_store",
    "atomic_store_explicit",
    "atomic_work_item_fence",
    "bit_reverse",
    "clamp",
    "cos",
    "create_user_event",
    "dot",
    "dot_4x8packed_ss_int",
    "dot_4x8packed_su_int",
    "dot_4x8packed_us_int",
    "dot_4x8packed_uu_uint",
    "dot_acc_sat",
    "dot_acc_sat_4x8packed_ss_int",
    "dot_acc_sat_4x8packed_su_int",
    "dot_acc_sat_4x8packed_us_int",
    "dot_acc_sat_4x8packed_uu_uint",
    "enqueue_kernel",
    "enqueue_marker",
    "floor",
    "fmax",
    "fmin",
    "get_default_queue",
    "get_enqueued_local_size",
    "get_global_id",
    "get_global_offset",
    "get_global_size",
    "get_image_array_size",
    "get_image_channel_data_type",
    "get_image_channel_order",
    "get_image_height",
    "get_image_width",
    "get_kernel_max_sub_group_size_for_ndrange",
    "get_kernel_preferred_work_group_size_multiple",
    "get_kernel_sub_group_count_for_ndrange",
    "get_kernel_work_group_size",
    "get_local_id",
    "get_local_linear_id",
    "get_local_size",
    "get_max_sub_group_size",
    "get_num_groups",
    "get_num_sub_groups",
    "get_sub_group_eq_mask",
    "get_sub_group_ge_mask",
    "get_sub_group_gt_mask",
    "get_sub_group_le_mask",
    "get_sub_group_local_id",
    "get_sub_group_lt_mask",
    "get_work_dim",
    "half_rsqrt",
    "half_sqrt",
    "ilogb",
    "isfinite",
    "isgreater",
    "isinf",
    "isnan",
    "isnormal",
    "isordered",
    "isunordered",
    "ldexp",
    "length",
    "lgamma",
    "lgamma_r",
    "log10",
    "log1p",
    "log2",
    "logb",
    "mad",
    "max",
    "maxmag",
    "min",
    "minmag",
    "modf",
    "nan",
    "nextafter",
    "normalize",
    "prefetch",
    "printf",
    "read_imagef",
    "read_imageh",
    "read_imagei",
    "read_imageui",
    "read_mem_fence",
    "read_pipe",
    "release_event",
    "remquo",
    "rootn",
    "rotate",
    "set_user_event_status",
    "shuffle",
    "shuffle2",
    "signbit",
    "sin",
    "sqrt",
    "sub_group_any",
    "sub_group_ballot_bit_count",
    "sub_group_ballot_bit_extract",
    "sub_group_ballot_exclusive_scan",
    "sub_group_ballot_find_lsb",
    "sub_group_ballot_find_msb",
    "sub_group_ballot_inclusive_scan",
    "sub_group_clustered_reduce_add",
    "sub_group_clustered_reduce_and",
    "sub_group_clustered_reduce_logical_and",
    "sub_group_clustered_reduce_logical_or",
    "sub_group_clustered_reduce_logical_xor",
    "sub_group_clustered_reduce_max",
    "sub_group_clustered_reduce_min",
    "sub_group_clustered_reduce_mul",
    "sub_group_clustered_reduce_or",
    "sub_group_clustered_reduce_xor",
    "sub_group_elect",
    "sub_group_non_uniform_all",
    "sub_group_non_uniform_all_equal",
    "sub_group_non_uniform_any",
    "sub_group_non_uniform_reduce_add",
    "sub_group_non_uniform_reduce_and",
    "sub_group_non_uniform_reduce_logical_and",
    "sub_group_non_uniform_reduce_logical_or",
    "sub_group_non_uniform_reduce_logical_xor",
    "sub_group_non_uniform_reduce_max",
    "sub_group_non_uniform_reduce_min",
    "sub_group_non_uniform_reduce_mul",
    "sub_group_non_uniform_reduce_or",
    "sub_group_non_uniform_reduce_xor",
    "sub_group_non_uniform_scan_exclusive_add",
    "sub_group_non_uniform_scan_exclusive_and",
    "sub_group_non_uniform_scan_exclusive_logical_and",
    "sub_group_non_uniform_scan_exclusive_logical_or",
    "sub_group_non_uniform_scan_exclusive_logical_xor",
    "sub_group_non_uniform_scan_exclusive_max",
    "sub_group_non_uniform_scan_exclusive_min",
    "sub_group_non_uniform_scan_exclusive_mul",
    "sub_group_non_uniform_scan_exclusive_or",
    "sub_group_non_uniform_scan_exclusive_xor",
    "sub_group_non_uniform_scan_inclusive_add",
    "sub_group_non_uniform_scan_inclusive_and",
    "sub_group_non_uniform_scan_inclusive_logical_and",
    "sub_group_non_uniform_scan_inclusive_logical_or",
    "sub_group_non_uniform_scan_inclusive_logical_xor",
    "sub_group_non_uniform_scan_inclusive_max",
    "sub_group_non_uniform_scan_inclusive_min",
    "sub_group_non_uniform_scan_inclusive_mul",
    "sub_group_non_uniform_scan_inclusive_or",
    "sub_group_non_uniform_scan_inclusive_xor",
    "sub_group_shuffle",
    "sub_group_shuffle_down",
    "sub_group_shuffle_up",
    "sub_group_shuffle_xor",
    "tan",
    "to_local",
    "wait_group_events",
    "work_group_any",
    "work_group_barrier",
    "work_group_commit_read_pipe",
    "work_group_commit_write_pipe",
    "work_group_reduce_and",
    "work_group_reduce_mul",
    "work_group_reduce_or",
    "work_group_reduce_xor",
    "work_group_reserve_read_pipe",
    "work_group_reserve_write_pipe",
    "work_group_scan_exclusive_and",
    "work_group_scan_exclusive_mul",
    "work_group_scan_exclusive_or",
    "work_group_scan_exclusive_xor",
    "work_group_scan_inclusive_and",
    "work_group_scan_inclusive_mul",
    "work_group_scan_inclusive_or",
    "work_group_scan_inclusive_xor",
    "write_imagef",
    "write_imagei",
    "write_imageui",
    "write_mem_fence",
    "write_pipe",
];

fn full() -> Config {
    let t = ferrocl_clc::Target::full_profile_cpu();
    let mut features = t.features.clone();
    for f in [
        "__opencl_c_pipes",
        "__opencl_c_device_enqueue",
        "__opencl_c_integer_dot_product_input_4x8bit",
        "__opencl_c_integer_dot_product_input_4x8bit_packed",
        "cl_khr_extended_bit_ops",
        "cl_khr_work_group_uniform_arithmetic",
        "cl_khr_subgroup_non_uniform_vote",
        "cl_khr_subgroup_ballot",
        "cl_khr_subgroup_non_uniform_arithmetic",
        "cl_khr_subgroup_clustered_reduce",
        "cl_khr_subgroup_shuffle",
        "cl_khr_subgroup_shuffle_relative",
        "cl_khr_subgroup_rotate",
        "cl_khr_kernel_clock",
    ] {
        features.push(f.into());
    }
    Config {
        version: 300,
        fp64: true,
        fp16: true,
        images: true,
        generic: true,
        extensions: t.extensions.clone(),
        features,
    }
}

#[test]
fn every_builtin_named_in_6_15_is_declared() {
    let cfg = full();
    let missing: Vec<&str> = SPEC_6_15_NAMES
        .iter()
        .copied()
        .filter(|n| lookup(n, &cfg).is_empty() && !is_special(n))
        .collect();
    assert!(missing.is_empty(), "no declaration for {missing:?}");
}

#[test]
fn availability_follows_the_device() {
    let mut cfg = full();
    cfg.version = 120;
    cfg.features.clear();
    cfg.generic = false;
    cfg.fp16 = false;
    // 1.2: no 2.0 atomics, no work-group collectives, no generic-space overloads.
    assert!(lookup("atomic_load", &cfg).is_empty());
    assert!(lookup("work_group_all", &cfg).is_empty());
    assert!(
        lookup("fract", &cfg).len() == 6 * 3 * 2,
        "float and double, global/local/private"
    );
    // Half overloads need fp16; double ones need fp64.
    assert!(!lookup("sin", &cfg)
        .iter()
        .any(|s| format!("{:?}", s.ret).contains("Half")));
    cfg.fp64 = false;
    assert_eq!(lookup("sin", &cfg).len(), 6);
    cfg.images = false;
    assert!(lookup("read_imagef", &cfg).is_empty());
}

#[test]
fn conversions_cover_every_type_pair_and_mode() {
    let cfg = full();
    let scalars = [
        "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double",
        "half",
    ];
    for d in scalars {
        for n in ["", "2", "3", "4", "8", "16"] {
            for sat in ["", "_sat"] {
                for r in ["", "_rte", "_rtz", "_rtp", "_rtn"] {
                    let name = format!("convert_{d}{n}{sat}{r}");
                    let sigs = lookup(&name, &cfg);
                    let float_dst = matches!(d, "float" | "double" | "half");
                    // 6.4.3: _sat is for integer destinations only.
                    assert_eq!(sigs.is_empty(), float_dst && !sat.is_empty(), "{name}");
                    if !sigs.is_empty() {
                        assert_eq!(
                            sigs.len(),
                            scalars.len(),
                            "{name}: one overload per source type"
                        );
                    }
                }
            }
        }
    }
}

/// Signatures checked against the spec's tables, one representative per kind of template.
#[test]
fn selected_signatures_match_the_spec() {
    use ferrocl_clc::builtins::{PElem, Pt};
    use ferrocl_clc::sema::types::{AddrSpace, Scalar::*};
    let cfg = full();
    let has = |name: &str, ret: Pt, params: &[Pt]| {
        let sigs = lookup(name, &cfg);
        assert!(
            sigs.contains(&Sig {
                ret,
                params: params.to_vec(),
                variadic: false
            }),
            "{name}: no ({params:?}) -> {ret:?} among {} overloads",
            sigs.len()
        );
    };
    let v = Pt::Val;
    let ptr = |s, n, space| Pt::Ptr {
        elem: PElem::Val(s, n),
        space,
        is_const: false,
        is_volatile: false,
    };
    // 6.15.2: intn ilogb(floatn); floatn ldexp(floatn, int); float nan(uint); double nan(ulong).
    has("ilogb", v(Int, 4), &[v(Float, 4)]);
    has("ldexp", v(Float, 8), &[v(Float, 8), v(Int, 1)]);
    has("nan", v(Float, 1), &[v(UInt, 1)]);
    has("nan", v(Double, 2), &[v(ULong, 2)]);
    has(
        "frexp",
        v(Float, 2),
        &[v(Float, 2), ptr(Int, 2, AddrSpace::Global)],
    );
    has(
        "remquo",
        v(Double, 1),
        &[v(Double, 1), v(Double, 1), ptr(Int, 1, AddrSpace::Private)],
    );
    has("fmin", v(Float, 16), &[v(Float, 16), v(Float, 1)]);
    // 6.15.3: ugentype abs(gentype); short upsample(char, uchar); mad24 on int/uint.
    has("abs", v(UChar, 8), &[v(Char, 8)]);
    has("upsample", v(Short, 4), &[v(Char, 4), v(UChar, 4)]);
    has("mad24", v(UInt, 1), &[v(UInt, 1), v(UInt, 1), v(UInt, 1)]);
    has("clamp", v(Long, 3), &[v(Long, 3), v(Long, 1), v(Long, 1)]);
    // 6.15.4-6: common, geometric, relational.
    has("step", v(Float, 4), &[v(Float, 1), v(Float, 4)]);
    has("cross", v(Double, 3), &[v(Double, 3), v(Double, 3)]);
    has("length", v(Half, 1), &[v(Half, 4)]);
    has("isequal", v(Int, 1), &[v(Double, 1), v(Double, 1)]);
    has("isequal", v(Long, 2), &[v(Double, 2), v(Double, 2)]);
    has("isnan", v(Short, 8), &[v(Half, 8)]);
    has(
        "select",
        v(Float, 4),
        &[v(Float, 4), v(Float, 4), v(UInt, 4)],
    );
    has("any", v(Int, 1), &[v(Char, 16)]);
    // 6.15.7: vload_half reads half from every space, constant included.
    has(
        "vload_half4",
        v(Float, 4),
        &[
            Pt::SizeT,
            Pt::Ptr {
                elem: PElem::Val(Half, 1),
                space: AddrSpace::Constant,
                is_const: true,
                is_volatile: false,
            },
        ],
    );
    // 6.15.12.8: legacy atomics on volatile global and local ints.
    has(
        "atomic_cmpxchg",
        v(UInt, 1),
        &[
            Pt::Ptr {
                elem: PElem::Val(UInt, 1),
                space: AddrSpace::Local,
                is_const: false,
                is_volatile: true,
            },
            v(UInt, 1),
            v(UInt, 1),
        ],
    );
    // 6.15.13: gentypen shuffle2(gentypem, gentypem, ugentypen).
    has(
        "shuffle2",
        v(Char, 2),
        &[v(Char, 16), v(Char, 16), v(UChar, 2)],
    );
    // 6.15.1: size_t get_global_id(uint dimindx).
    has("get_global_id", Pt::SizeT, &[v(UInt, 1)]);
}
