//! Reads names on stdin and prints those that are not builtin functions for a target with
//! every feature and extension this front end knows (OpenCL C 3.0).
use ferrocl_clc::builtins::{lookup, Builtin, Config};
use std::io::BufRead;

fn main() {
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
    let cfg = Config {
        version: 300,
        fp64: true,
        fp16: true,
        images: true,
        generic: true,
        extensions: t.extensions.clone(),
        features,
    };
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let name = line.trim();
        let declared = Builtin::from_name(name)
            .is_some_and(|b| b.sema_checks_itself() || !lookup(b, &cfg).is_empty());
        if !name.is_empty() && !declared {
            println!("{name}");
        }
    }
}
