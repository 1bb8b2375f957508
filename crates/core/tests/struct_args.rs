//! Structs passed by value to a kernel: every work-item gets the argument as set, even when
//! work-items before it in its group wrote to their own parameter (C99 6.9.1p9: a parameter is
//! an object of the function).

use ferrocl_core::device::NdRange;
use ferrocl_core::kernel::ArgValue;
use ferrocl_core::memory::flags;
use ferrocl_core::program::Program;
use ferrocl_core::{CommandQueue, Context, HostPtr, Kernel, MemObject, Platform};

const SOURCE: &str = r#"
typedef struct { int base; float scale; int pad[2]; } params;
kernel void use_params(params p, global int *out) {
    int i = get_global_id(0);
    out[i] = p.base + (int)(p.scale * i);
    p.base += 1000;
    p.scale = -1.0f;
}
"#;

#[test]
fn each_work_item_gets_the_struct_argument_as_set() {
    let devices = Platform::get().devices().to_vec();
    let context = Context::new(devices.clone(), Vec::new(), false, None);
    let queue = CommandQueue::new(context.clone(), devices[0].clone(), 0, Vec::new());
    let program = Program::from_source(context.clone(), SOURCE.to_string());
    program.build(&[], "").expect("build");
    let kernel = Kernel::new(&program, "use_params").expect("kernel");
    let mut arg = Vec::new();
    arg.extend_from_slice(&7i32.to_ne_bytes());
    arg.extend_from_slice(&2.0f32.to_ne_bytes());
    arg.extend_from_slice(&[0u8; 8]);
    kernel.set_arg(0, ArgValue::Bytes(arg)).unwrap();
    let n = 64usize;
    let mut out = vec![0i32; n];
    // SAFETY: out outlives the command, which is finished below.
    let host = unsafe { HostPtr::new(out.as_mut_ptr().cast()) };
    let m = MemObject::new_buffer(
        context,
        flags::READ_WRITE | flags::USE_HOST_PTR,
        4 * n,
        Some(host),
        Vec::new(),
    )
    .unwrap();
    kernel.set_arg(1, ArgValue::Mem(Some(&m))).unwrap();
    let nd = NdRange {
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [n as u64, 1, 1],
        local_size: [16, 1, 1],
    };
    kernel.enqueue(&queue, nd, &[], 0).expect("enqueue");
    queue.finish().unwrap();
    let want: Vec<i32> = (0..n as i32).map(|i| 7 + 2 * i).collect();
    assert_eq!(out, want);
}
