//! Memory objects on a device with memory of its own (`residency.rs`): the bytes a kernel
//! writes there reach every later reader, the host's and the CPU device's, and only the bytes
//! asked for move.
//!
//! The device here runs kernels as the CPU device does, but on copies of the buffers in memory
//! of its own (host memory at other addresses, so a kernel that ran on the host's bytes
//! instead would leave its results where these tests do not look), and counts what it moves.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use ferrocl_core::device::NdRange;
use ferrocl_core::kernel::ArgValue;
use ferrocl_core::memory::{flags, Location};
use ferrocl_core::program::Program;
use ferrocl_core::{CommandQueue, Context, Device, HostPtr, Kernel, MemObject, Platform, Work};
use ferrocl_device::{
    CompileOptions, DeviceBackend, DeviceCopy, DeviceError, DeviceLimits, DeviceMemory,
    DeviceProgram, Storage,
};

/// What the device moved, in bytes, and how many fills and copies it did.
#[derive(Default)]
struct Moved {
    uploaded: AtomicUsize,
    downloaded: AtomicUsize,
    fills: AtomicUsize,
    copies: AtomicUsize,
}

/// The pinned allocations the device has made and not yet freed, by address.
static PINNED: Mutex<Vec<usize>> = Mutex::new(Vec::new());

static MOVED: Moved = Moved {
    uploaded: AtomicUsize::new(0),
    downloaded: AtomicUsize::new(0),
    fills: AtomicUsize::new(0),
    copies: AtomicUsize::new(0),
};

/// The tests share the counters: one test at a time.
static SERIAL: Mutex<()> = Mutex::new(());

/// Memory of the device's own: host allocations, at addresses no buffer's host bytes have.
struct Separate;

impl DeviceMemory for Separate {
    fn allocate(&self, size: usize) -> Result<DeviceCopy, DeviceError> {
        let storage = Storage::allocate(size)?;
        // Contents undefined, as a device's are: poisoned, so that a copy used before it is
        // made current shows.
        // SAFETY: the storage holds `size` bytes.
        unsafe { std::ptr::write_bytes(storage.as_ptr(), 0xa5, size) };
        let addr = storage.as_ptr() as u64;
        Ok(DeviceCopy::new(addr, size, Box::new(move || drop(storage))))
    }

    unsafe fn upload(&self, dst: u64, src: *const u8, len: usize) -> Result<(), DeviceError> {
        MOVED.uploaded.fetch_add(len, Ordering::SeqCst);
        // SAFETY: the caller's contract.
        unsafe { std::ptr::copy(src, dst as *mut u8, len) };
        Ok(())
    }

    unsafe fn download(&self, dst: *mut u8, src: u64, len: usize) -> Result<(), DeviceError> {
        MOVED.downloaded.fetch_add(len, Ordering::SeqCst);
        // SAFETY: the caller's contract.
        unsafe { std::ptr::copy(src as *const u8, dst, len) };
        Ok(())
    }

    fn copy(&self, dst: u64, src: u64, len: usize) -> Result<(), DeviceError> {
        MOVED.copies.fetch_add(1, Ordering::SeqCst);
        // SAFETY: both ranges lie in copies this memory allocated (the trait's contract).
        unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, len) };
        Ok(())
    }

    fn fill(&self, dst: u64, pattern: &[u8], len: usize) -> Result<bool, DeviceError> {
        if pattern.len() != 1 && pattern.len() != 4 {
            return Ok(false);
        }
        MOVED.fills.fetch_add(1, Ordering::SeqCst);
        for i in 0..len {
            // SAFETY: as in `copy`.
            unsafe { (dst as *mut u8).add(i).write(pattern[i % pattern.len()]) };
        }
        Ok(true)
    }

    /// Host memory the device records, as a GPU would page-lock it.
    fn allocate_pinned(&self, size: usize) -> Option<Storage> {
        let storage = Storage::allocate(size).ok()?;
        let addr = storage.as_ptr() as usize;
        PINNED.lock().unwrap().push(addr);
        let release = Box::new(move || {
            PINNED.lock().unwrap().retain(|&a| a != addr);
            drop(storage);
        });
        // SAFETY: `storage`'s bytes stay allocated until `release` drops it.
        unsafe { Storage::from_device(addr as *mut u8, size, release) }
    }
}

/// The CPU device's compiler and kernels, on memory of its own.
struct WithMemory(ferrocl_cpu::CpuDevice, Separate);

impl DeviceBackend for WithMemory {
    fn allocate(&self, size: usize) -> Result<Storage, DeviceError> {
        self.0.allocate(size)
    }

    fn fast_fma(&self) -> bool {
        self.0.fast_fma()
    }

    fn limits(&self) -> DeviceLimits {
        self.0.limits()
    }

    fn memory(&self) -> Option<&dyn DeviceMemory> {
        Some(&self.1)
    }

    fn compile(
        &self,
        module: &ferrocl_ir::Module,
        options: &CompileOptions,
    ) -> Result<Arc<dyn DeviceProgram>, DeviceError> {
        self.0.compile(module, options)
    }
}

fn platform() -> &'static Platform {
    Platform::init(|machine| {
        vec![
            Device::cpu(machine, Box::new(ferrocl_cpu::CpuDevice)),
            Device::cpu(
                machine,
                Box::new(WithMemory(ferrocl_cpu::CpuDevice, Separate)),
            ),
        ]
    })
}

const SOURCE: &str = "
__kernel void add(__global int *x, int k) { x[get_global_id(0)] += k; }
__kernel void twice(__global int *x) { x[get_global_id(0)] *= 2; }
__kernel void sum(__global const int *a, __global const int *b, __global int *out) {
    size_t i = get_global_id(0);
    out[i] = a[i] + b[i];
}
__kernel void texels(read_only image2d_t im, __global int *out) {
    int i = get_global_id(0);
    out[i] = read_imagei(im, (int2)(i % 16, i / 16)).x;
}
__kernel void paint(write_only image2d_t im, int k) {
    int i = get_global_id(0);
    write_imagei(im, (int2)(i % 16, i / 16), (int4)(i * k, 0, 0, 1));
}
";

const N: usize = 1024;

struct Setup {
    _serial: std::sync::MutexGuard<'static, ()>,
    context: Arc<Context>,
    /// The CPU device's queue, and the other device's.
    cpu: Arc<CommandQueue>,
    gpu: Arc<CommandQueue>,
    program: Arc<Program>,
}

fn setup() -> Setup {
    let serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let devices = platform().devices().to_vec();
    let context = Context::new(devices.clone(), Vec::new(), false, None);
    let queue = |d: &Arc<Device>| CommandQueue::new(context.clone(), d.clone(), 0, Vec::new());
    let program = Program::from_source(context.clone(), SOURCE.to_string());
    program.build(&[], "").expect("the program builds");
    Setup {
        _serial: serial,
        cpu: queue(&devices[0]),
        gpu: queue(&devices[1]),
        context,
        program,
    }
}

fn moved() -> [usize; 4] {
    [
        MOVED.uploaded.load(Ordering::SeqCst),
        MOVED.downloaded.load(Ordering::SeqCst),
        MOVED.fills.load(Ordering::SeqCst),
        MOVED.copies.load(Ordering::SeqCst),
    ]
}

impl Setup {
    fn buffer(&self, data: Option<&[i32]>, extra: u64) -> Arc<MemObject> {
        let host = data.map(|d| {
            // SAFETY: COPY_HOST_PTR reads the slice during the call only.
            unsafe { HostPtr::new(d.as_ptr() as *mut u8) }
        });
        let copy = if data.is_some() {
            flags::COPY_HOST_PTR
        } else {
            0
        };
        MemObject::new_buffer(
            self.context.clone(),
            flags::READ_WRITE | copy | extra,
            N * 4,
            host,
            Vec::new(),
        )
        .expect("a buffer")
    }

    fn run(&self, queue: &Arc<CommandQueue>, name: &str, args: &[ArgValue], n: usize) {
        let kernel = Kernel::new(&self.program, name).expect("the kernel");
        for (i, a) in args.iter().enumerate() {
            kernel.set_arg(i, a.clone()).expect("an argument");
        }
        let nd = NdRange {
            work_dim: 1,
            global_offset: [0; 3],
            global_size: [n as u64, 1, 1],
            local_size: [64, 1, 1],
        };
        kernel.enqueue(queue, nd, &[], 0).expect("the launch");
        queue.finish().expect("the launch runs");
    }

    /// `clEnqueueReadBuffer` of `count` ints at int `at`.
    fn read(&self, mem: &Arc<MemObject>, at: usize, count: usize) -> Vec<i32> {
        let mut out = vec![0i32; count];
        // SAFETY: `out` outlives the command, which is finished below.
        let host = unsafe { HostPtr::new(out.as_mut_ptr().cast()) };
        let work = Work::Copy {
            src: Location::Mem(mem.clone(), at * 4),
            dst: Location::Host(host),
            size: count * 4,
        };
        self.cpu.enqueue(0, work, &[]).expect("the read");
        self.cpu.finish().expect("the read runs");
        out
    }

    /// The ints at the object's host address, as they are now (current or not).
    fn host_bytes(&self, mem: &MemObject) -> Vec<i32> {
        // SAFETY: the buffer holds N ints; no command runs.
        unsafe { std::slice::from_raw_parts(mem.base().cast::<i32>(), N) }.to_vec()
    }

    fn submit(&self, queue: &Arc<CommandQueue>, work: Work) {
        queue.enqueue(0, work, &[]).expect("the command");
        queue.finish().expect("the command runs");
    }
}

/// An `int` argument's value.
fn k(v: i32) -> ArgValue<'static> {
    ArgValue::Bytes(v.to_ne_bytes().to_vec())
}

fn ramp() -> Vec<i32> {
    (0..N as i32).collect()
}

#[test]
fn a_kernel_on_the_device_writes_its_own_copy_and_reads_fetch_only_what_they_ask() {
    let s = setup();
    let x = s.buffer(Some(&ramp()), 0);
    let before = moved();
    s.run(&s.gpu, "add", &[ArgValue::Mem(Some(&x)), k(5)], N);
    let after_launch = moved();
    assert_eq!(
        after_launch[0] - before[0],
        N * 4,
        "the launch uploads the buffer once"
    );
    // The kernel ran on the device's copy: the host's bytes are as they were.
    assert_eq!(s.host_bytes(&x), ramp());
    // A read of 16 ints downloads those 16 and nothing else.
    assert_eq!(s.read(&x, 100, 16), (105..121).collect::<Vec<_>>());
    assert_eq!(moved()[1] - after_launch[1], 64);
    // A second launch finds the copy current: nothing is uploaded.
    s.run(&s.gpu, "add", &[ArgValue::Mem(Some(&x)), k(1)], N);
    assert_eq!(moved()[0], after_launch[0]);
    assert_eq!(s.read(&x, 0, N), (6..N as i32 + 6).collect::<Vec<_>>());
}

#[test]
fn kernels_alternating_between_the_devices_see_each_others_results() {
    let s = setup();
    let x = s.buffer(Some(&ramp()), 0);
    s.run(&s.gpu, "add", &[ArgValue::Mem(Some(&x)), k(1)], N);
    s.run(&s.cpu, "twice", &[ArgValue::Mem(Some(&x))], N);
    s.run(&s.gpu, "add", &[ArgValue::Mem(Some(&x)), k(3)], N);
    s.run(&s.cpu, "twice", &[ArgValue::Mem(Some(&x))], N);
    let want: Vec<i32> = ramp().iter().map(|v| ((v + 1) * 2 + 3) * 2).collect();
    assert_eq!(s.read(&x, 0, N), want);
    // The last writer was the CPU device: the host's bytes are current.
    assert_eq!(s.host_bytes(&x), want);
}

#[test]
fn maps_see_the_devices_writes_and_kernels_see_the_maps() {
    let s = setup();
    let x = s.buffer(Some(&ramp()), 0);
    s.run(&s.gpu, "add", &[ArgValue::Mem(Some(&x)), k(7)], N);
    let ptr = x.map(0, N * 4, true).expect("the map");
    s.submit(
        &s.cpu,
        Work::Map {
            mem: x.clone(),
            writes: true,
        },
    );
    // SAFETY: the mapping covers the buffer; no command uses it until the unmap.
    let mapped = unsafe { std::slice::from_raw_parts_mut(ptr as *mut i32, N) };
    assert_eq!(mapped[10], 17, "the map shows the kernel's result");
    mapped[10] = -1;
    x.unmap(ptr).expect("the unmap");
    s.run(&s.gpu, "add", &[ArgValue::Mem(Some(&x)), k(1)], N);
    let got = s.read(&x, 8, 4);
    assert_eq!(got, vec![16, 17, 0, 19]);
}

#[test]
fn alloc_host_ptr_buffers_are_the_devices_pinned_memory() {
    let s = setup();
    let pinned = |mem: &MemObject| PINNED.lock().unwrap().contains(&(mem.base() as usize));
    let x = s.buffer(Some(&ramp()), flags::ALLOC_HOST_PTR);
    let plain = s.buffer(Some(&ramp()), 0);
    assert!(
        pinned(&x),
        "CL_MEM_ALLOC_HOST_PTR takes the device's pinned memory"
    );
    assert!(!pinned(&plain), "other buffers do not");
    s.run(&s.gpu, "add", &[ArgValue::Mem(Some(&x)), k(7)], N);
    s.run(&s.cpu, "add", &[ArgValue::Mem(Some(&x)), k(1)], N);
    s.run(&s.gpu, "add", &[ArgValue::Mem(Some(&x)), k(2)], N);
    assert_eq!(s.read(&x, 0, 3), vec![10, 11, 12]);
    let base = x.base() as usize;
    drop(x);
    assert!(
        !PINNED.lock().unwrap().contains(&base),
        "released with the buffer"
    );
}

#[test]
fn a_whole_write_from_the_devices_queue_goes_to_its_copy_alone() {
    let s = setup();
    let x = s.buffer(None, 0);
    let data = ramp();
    let write = |queue: &Arc<CommandQueue>, at: usize, ints: &[i32]| {
        // SAFETY: `ints` outlives the command, which `submit` finishes.
        let host = unsafe { HostPtr::new(ints.as_ptr() as *mut u8) };
        let work = Work::Copy {
            src: Location::Host(host),
            dst: Location::Mem(x.clone(), at * 4),
            size: ints.len() * 4,
        };
        s.submit(queue, work);
    };
    // A new buffer's contents are undefined (only host_ptr defines them, API 5.2.1): what
    // they were is what they must stay.
    let untouched = s.host_bytes(&x);
    let before = moved();
    write(&s.gpu, 0, &data);
    let after = moved();
    assert_eq!(after[0] - before[0], N * 4, "uploaded once, whole");
    assert!(
        s.host_bytes(&x) == untouched,
        "the host's bytes were not written"
    );
    s.run(&s.gpu, "add", &[ArgValue::Mem(Some(&x)), k(1)], N);
    assert_eq!(moved()[0], after[0], "the kernel found its copy current");
    // A part written from the device's queue, and the whole from the CPU device's: each
    // lands where the bytes are current, and the reads see them.
    write(&s.gpu, 4, &[-4, -5]);
    assert_eq!(s.read(&x, 3, 4), vec![4, -4, -5, 7]);
    write(&s.cpu, 0, &data);
    assert_eq!(s.read(&x, 3, 4), vec![3, 4, 5, 6]);
    s.run(&s.cpu, "add", &[ArgValue::Mem(Some(&x)), k(2)], N);
    assert_eq!(
        s.host_bytes(&x)[9],
        11,
        "the CPU device's kernel sees the write"
    );
}

#[test]
fn inputs_a_kernel_only_reads_stay_current_on_the_host() {
    let s = setup();
    let (a, b) = (
        s.buffer(Some(&ramp()), 0),
        s.buffer(Some(&ramp()), flags::READ_ONLY),
    );
    let out = s.buffer(None, 0);
    let mems = [&a, &b, &out].map(|m| ArgValue::Mem(Some(m)));
    s.run(&s.gpu, "sum", &mems, N);
    let before = moved();
    // `a` is read through a const pointer, `b` is CL_MEM_READ_ONLY: the host's bytes of both
    // stay current, so reading them moves nothing.
    assert_eq!(s.read(&a, 0, N), ramp());
    assert_eq!(s.read(&b, 0, N), ramp());
    assert_eq!(moved()[1], before[1]);
    assert_eq!(
        s.read(&out, 0, N),
        ramp().iter().map(|v| 2 * v).collect::<Vec<_>>()
    );
}

#[test]
fn a_new_buffer_is_zero_on_the_device_without_an_upload() {
    let s = setup();
    let x = s.buffer(None, 0);
    let before = moved();
    s.run(&s.gpu, "add", &[ArgValue::Mem(Some(&x)), k(2)], N);
    let after = moved();
    assert_eq!(after[0], before[0], "nothing uploaded");
    assert_eq!(
        after[2],
        before[2] + 1,
        "the copy was cleared on the device"
    );
    assert_eq!(s.read(&x, 0, N), vec![2; N]);
}

#[test]
fn fills_and_copies_run_where_the_bytes_are_current() {
    let s = setup();
    let (x, y) = (s.buffer(Some(&ramp()), 0), s.buffer(Some(&ramp()), 0));
    s.run(&s.gpu, "add", &[ArgValue::Mem(Some(&x)), k(1)], N);
    s.run(&s.gpu, "add", &[ArgValue::Mem(Some(&y)), k(2)], N);
    let before = moved();
    s.submit(
        &s.gpu,
        Work::Fill {
            dst: x.clone(),
            offset: 16,
            size: 32,
            pattern: (-3i32).to_ne_bytes().to_vec(),
        },
    );
    s.submit(
        &s.gpu,
        Work::Copy {
            src: Location::Mem(x.clone(), 0),
            dst: Location::Mem(y.clone(), 400),
            size: 64,
        },
    );
    let after = moved();
    assert_eq!(
        [after[2] - before[2], after[3] - before[3]],
        [1, 1],
        "one fill, one copy"
    );
    assert_eq!(
        after[..2],
        before[..2],
        "neither moved bytes to or from the host"
    );
    assert_eq!(
        s.read(&x, 0, 16),
        [1, 2, 3, 4, -3, -3, -3, -3, -3, -3, -3, -3, 13, 14, 15, 16]
    );
    let mut want: Vec<i32> = ramp().iter().map(|v| v + 2).collect();
    want[100..116].copy_from_slice(&s.read(&x, 0, 16));
    assert_eq!(s.read(&y, 0, N), want);
    // A pattern the device cannot fill with goes through the host's bytes.
    s.submit(
        &s.gpu,
        Work::Fill {
            dst: y.clone(),
            offset: 0,
            size: 8,
            pattern: vec![9, 0],
        },
    );
    let got = s.read(&y, 0, 3);
    assert_eq!(got, vec![9 | 9 << 16, 9 | 9 << 16, want[2]]);
}

#[test]
fn sub_buffers_share_their_parents_copy() {
    let s = setup();
    let x = s.buffer(Some(&ramp()), 0);
    let half = MemObject::new_sub_buffer(&x, flags::READ_WRITE, N * 2, N * 2);
    s.run(&s.gpu, "add", &[ArgValue::Mem(Some(&half)), k(100)], N / 2);
    s.run(&s.cpu, "add", &[ArgValue::Mem(Some(&x)), k(1)], N);
    let want: Vec<i32> = ramp()
        .iter()
        .map(|&v| if v >= N as i32 / 2 { v + 101 } else { v + 1 })
        .collect();
    assert_eq!(s.read(&x, 0, N), want);
    assert_eq!(s.read(&half, 0, 2), want[N / 2..N / 2 + 2].to_vec());
}

#[test]
fn migrations_move_the_bytes_ahead_of_use() {
    let s = setup();
    let x = s.buffer(Some(&ramp()), 0);
    let device = s.gpu.device.clone();
    let migrate = |host: bool, discard: bool| Work::Migrate {
        mems: vec![x.clone()],
        device: device.clone(),
        host,
        discard,
    };
    let before = moved();
    s.submit(&s.gpu, migrate(false, false));
    assert_eq!(
        moved()[0] - before[0],
        N * 4,
        "migrating to the device uploads"
    );
    // Both copies are current now: a launch uploads nothing more, a read of the host's bytes
    // before it downloads nothing.
    assert_eq!(s.read(&x, 0, 4), vec![0, 1, 2, 3]);
    assert_eq!(moved()[1], before[1]);
    s.run(&s.gpu, "twice", &[ArgValue::Mem(Some(&x))], N);
    assert_eq!(moved()[0] - before[0], N * 4);
    let mid = moved();
    s.submit(&s.gpu, migrate(true, false));
    assert_eq!(
        moved()[1] - mid[1],
        N * 4,
        "migrating to the host downloads"
    );
    assert_eq!(
        s.host_bytes(&x),
        ramp().iter().map(|v| v * 2).collect::<Vec<_>>()
    );
}

#[test]
fn a_buffer_on_shared_virtual_memory_is_used_in_place() {
    let s = setup();
    let flags_rw = ferrocl_core::svm::flags::READ_WRITE;
    let svm = ferrocl_core::svm::alloc(&s.context, flags_rw, N * 4, 0).expect("SVM");
    // SAFETY: the allocation holds N ints; no command uses it yet.
    let ints = unsafe { std::slice::from_raw_parts_mut(svm as *mut i32, N) };
    ints.copy_from_slice(&ramp());
    // SAFETY: the allocation outlives the buffer (freed below, after it).
    let host = unsafe { HostPtr::new(svm as *mut u8) };
    let x = MemObject::new_buffer(
        s.context.clone(),
        flags::READ_WRITE | flags::USE_HOST_PTR,
        N * 4,
        Some(host),
        Vec::new(),
    )
    .expect("a buffer");
    let before = moved();
    let k = k(4);
    s.run(&s.gpu, "add", &[ArgValue::Mem(Some(&x)), k], N);
    // The kernel wrote the SVM memory itself: nothing moved, and the pointer sees it.
    assert_eq!(moved(), before);
    assert_eq!(ints[3], 7);
    drop(x);
    assert!(ferrocl_core::svm::free(&s.context, svm));
}

#[test]
fn images_on_the_device_read_its_copy_through_a_descriptor_there() {
    use ferrocl_core::image::{channel_type, order, ImageFormat, ImageShape};
    let s = setup();
    let texels: Vec<i32> = (0..64).map(|i| 3 * i).collect();
    // SAFETY: COPY_HOST_PTR reads the texels during the call only.
    let host = unsafe { HostPtr::new(texels.as_ptr() as *mut u8) };
    let shape = ImageShape {
        image_type: 0x10F1, // CL_MEM_OBJECT_IMAGE2D
        width: 16,
        height: 4,
        ..ImageShape::default()
    };
    let format = ImageFormat {
        order: order::R,
        data_type: channel_type::SIGNED_INT32,
    };
    let im = MemObject::new_image(
        s.context.clone(),
        flags::READ_WRITE | flags::COPY_HOST_PTR,
        format,
        shape,
        Some(host),
        None,
        Vec::new(),
    )
    .expect("an image");
    let out = s.buffer(None, 0);
    let read = |queue: &Arc<CommandQueue>| {
        s.run(
            queue,
            "texels",
            &[ArgValue::Mem(Some(&im)), ArgValue::Mem(Some(&out))],
            64,
        );
        s.read(&out, 0, 64)
    };
    assert_eq!(read(&s.gpu), texels);
    // Painted on the device, read on the CPU device and on the device again.
    let k = k(5);
    s.run(&s.gpu, "paint", &[ArgValue::Mem(Some(&im)), k], 64);
    let painted: Vec<i32> = (0..64).map(|i| 5 * i).collect();
    assert_eq!(read(&s.cpu), painted);
    assert_eq!(read(&s.gpu), painted);
}
