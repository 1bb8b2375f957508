//! Kernels (`cl_kernel`): a kernel function of a built program, its argument values, and its
//! launch over an NDRange.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use ferrocl_ir::{AccessQualifier, AddrSpace, ArgKind, KernelArg, KernelInfo, TypeQualifiers};

use crate::device::{Device, DeviceKernel, NdRange};
use crate::error::{ClError, ClResult};
use crate::memory::MemObject;
use crate::object::IcdHeader;
use crate::program::Program;
use crate::queue::{CommandQueue, Work};
use crate::Event;
use ferrocl_device::part_size;

/// The value given to one argument with `clSetKernelArg`.
#[derive(Clone, Debug)]
pub enum ArgValue<'a> {
    Bytes(Vec<u8>),
    /// A buffer, or NULL.
    Mem(Option<&'a Arc<MemObject>>),
    /// The size of a `__local` argument's region.
    Local(usize),
    /// An SVM pointer (`clSetKernelArgSVMPointer`): an address in host memory that every
    /// device shares, passed as it is.
    Svm(usize),
}

/// An argument value as the kernel keeps it. 5.9.2: "A kernel object does not update the
/// reference count for objects such as memory or sampler objects specified as argument
/// values by clSetKernelArg": a memory object is held by a weak reference, and an enqueued
/// launch holds it (strongly) until it completes.
#[derive(Clone, Debug)]
enum HeldValue {
    Bytes(Vec<u8>),
    Mem(Option<Weak<MemObject>>),
    Local(usize),
    Svm(usize),
}

/// A kernel (`cl_kernel`).
#[repr(C)]
pub struct Kernel {
    icd: IcdHeader,
    pub program: Arc<Program>,
    pub name: String,
    /// The kernel's ABI and metadata: how each argument is passed, its size, names and
    /// qualifiers; the attributes.
    pub info: KernelInfo,
    /// The compiled kernel for each of the program's devices (None where not built).
    code: Vec<Option<Arc<dyn DeviceKernel>>>,
    args: Mutex<Vec<Option<HeldValue>>>,
}

impl Kernel {
    /// `clCreateKernel`.
    pub fn new(program: &Arc<Program>, name: &str) -> ClResult<Arc<Kernel>> {
        let (module, code) = program.built_kernel(name)?;
        let f = module
            .func_by_name(name)
            .map(|f| &module.funcs[f])
            .ok_or(ClError::InvalidKernelName)?;
        let info = f.kernel.clone().ok_or(ClError::InvalidKernelName)?;
        program.live_kernels.fetch_add(1, Ordering::AcqRel);
        let n = info.args.len();
        Ok(Arc::new(Kernel {
            icd: IcdHeader::new(),
            program: program.clone(),
            name: name.to_string(),
            info,
            code,
            args: Mutex::new(vec![None; n]),
        }))
    }

    /// `clCloneKernel`: the same kernel with a copy of its argument values.
    pub fn clone_kernel(&self) -> Arc<Kernel> {
        self.program.live_kernels.fetch_add(1, Ordering::AcqRel);
        Arc::new(Kernel {
            icd: IcdHeader::new(),
            program: self.program.clone(),
            name: self.name.clone(),
            info: self.info.clone(),
            code: self.code.clone(),
            args: Mutex::new(self.lock().clone()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Option<HeldValue>>> {
        self.args.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn num_args(&self) -> usize {
        self.info.args.len()
    }

    /// The ABI and metadata of argument `index`.
    pub fn arg(&self, index: usize) -> ClResult<&KernelArg> {
        // 5.9.2, 5.9.4: CL_INVALID_ARG_INDEX "if arg_index is not a valid argument index".
        self.info.args.get(index).ok_or(ClError::InvalidArgIndex)
    }

    /// Stores an argument value (checked by the caller against [`Kernel::arg`]).
    pub fn set_arg(&self, index: usize, value: ArgValue) -> ClResult<()> {
        let mut args = self.lock();
        let slot = args.get_mut(index).ok_or(ClError::InvalidArgIndex)?;
        *slot = Some(match value {
            ArgValue::Bytes(b) => HeldValue::Bytes(b),
            ArgValue::Mem(m) => HeldValue::Mem(m.map(Arc::downgrade)),
            ArgValue::Local(n) => HeldValue::Local(n),
            ArgValue::Svm(p) => HeldValue::Svm(p),
        });
        Ok(())
    }

    fn code_for(&self, device: &Arc<Device>) -> Option<&Arc<dyn DeviceKernel>> {
        let i = self
            .program
            .devices
            .iter()
            .position(|d| Arc::ptr_eq(d, device))?;
        self.code[i].as_ref()
    }

    /// `CL_KERNEL_LOCAL_MEM_SIZE`: the kernel's own `__local` variables plus the `__local`
    /// arguments set so far.
    pub fn local_mem_size(&self, device: &Arc<Device>) -> usize {
        let fixed = self.code_for(device).map_or(0, |c| c.static_local_size());
        let args: usize = self
            .lock()
            .iter()
            .map(|a| {
                if let Some(HeldValue::Local(n)) = a {
                    *n
                } else {
                    0
                }
            })
            .sum();
        fixed + args
    }

    /// `CL_KERNEL_PRIVATE_MEM_SIZE`.
    pub fn private_mem_size(&self, device: &Arc<Device>) -> usize {
        self.code_for(device).map_or(0, |c| c.private_size())
    }

    /// The most work-items `device` would like in a group of this kernel when it picks the
    /// local size (see `default_local_size`).
    pub fn preferred_group_size(&self, device: &Arc<Device>) -> u64 {
        self.code_for(device)
            .map_or(256, |c| c.preferred_group_size() as u64)
    }

    /// Whether the kernel, as built for `device`, cannot tell its work-groups apart (see
    /// `DeviceKernel::group_blind`).
    pub fn group_blind(&self, device: &Arc<Device>) -> bool {
        self.code_for(device).is_some_and(|c| c.group_blind())
    }

    /// Enqueues the kernel over `nd` (already checked against the device's limits).
    pub fn enqueue(
        self: &Arc<Self>,
        queue: &Arc<CommandQueue>,
        nd: NdRange,
        wait_list: &[Arc<Event>],
        command_type: u32,
    ) -> ClResult<Arc<Event>> {
        // CL_INVALID_PROGRAM_EXECUTABLE "if there is no successfully built program executable
        // available for device associated with command_queue".
        let code = self
            .code_for(&queue.device)
            .ok_or(ClError::InvalidProgramExecutable)?
            .clone();
        let args = self.lock().clone();
        // CL_INVALID_KERNEL_ARGS "if the kernel argument values have not been specified".
        if args.iter().any(Option::is_none) {
            return Err(ClError::InvalidKernelArgs);
        }
        let mut block = vec![0u8; code.args_size()];
        // The memory objects the launch uses: each one's slot, where its address goes (the
        // image's descriptor's, for an image), and whether the kernel may write it.
        let mut keep: Vec<(usize, Arc<MemObject>, bool)> = Vec::new();
        // The bytes of the by-value struct arguments; each work-group gets a copy in its
        // private memory, and the slot holds the argument's offset in it.
        let mut private = Vec::new();
        let mut local = code.static_local_size();
        let align = queue.device.backend().limits().arg_align;
        for ((slot, value), arg) in code
            .arg_slots()
            .iter()
            .zip(args.into_iter().flatten())
            .zip(&self.info.args)
        {
            let bytes = match (slot.kind, value) {
                (ArgKind::Value, HeldValue::Bytes(b)) => b,
                (ArgKind::Buffer, HeldValue::Mem(m)) => {
                    // A buffer the application released after setting it is gone: using it
                    // is undefined, and of the errors 5.10 lists, CL_INVALID_KERNEL_ARGS "if
                    // the kernel argument values have not been specified" fits.
                    let m = match m {
                        Some(weak) => Some(weak.upgrade().ok_or(ClError::InvalidKernelArgs)?),
                        None => None,
                    };
                    if let Some(m) = m {
                        // 5.10: CL_INVALID_CONTEXT "if context associated with command_queue
                        // and kernel are not the same" (and of the memory objects).
                        if !Arc::ptr_eq(&m.context, &queue.context) {
                            return Err(ClError::InvalidContext);
                        }
                        let writes = buffer_writes(arg, &m);
                        keep.push((slot.offset, m, writes));
                    }
                    // The address is the one the buffer has when the launch runs.
                    0u64.to_ne_bytes().to_vec()
                }
                (ArgKind::Buffer, HeldValue::Svm(p)) => (p as u64).to_ne_bytes().to_vec(),
                (ArgKind::Image, HeldValue::Mem(Some(weak))) => {
                    // As for buffers: a released image is gone.
                    let m = weak.upgrade().ok_or(ClError::InvalidKernelArgs)?;
                    if !Arc::ptr_eq(&m.context, &queue.context) {
                        return Err(ClError::InvalidContext);
                    }
                    m.as_image().ok_or(ClError::InvalidKernelArgs)?;
                    let writes = arg.access != AccessQualifier::ReadOnly;
                    keep.push((slot.offset, m, writes));
                    // The descriptor's address where the launch runs.
                    0u64.to_ne_bytes().to_vec()
                }
                (ArgKind::Pipe, HeldValue::Mem(Some(weak))) => {
                    // As for buffers: a released pipe is gone.
                    let m = weak.upgrade().ok_or(ClError::InvalidKernelArgs)?;
                    if !Arc::ptr_eq(&m.context, &queue.context) {
                        return Err(ClError::InvalidContext);
                    }
                    m.as_pipe().ok_or(ClError::InvalidKernelArgs)?;
                    keep.push((slot.offset, m, true));
                    // The storage's address where the launch runs.
                    0u64.to_ne_bytes().to_vec()
                }
                // The sampler's bit-field, set by `clSetKernelArg`.
                (ArgKind::Sampler, HeldValue::Bytes(b)) => b,
                (ArgKind::Aggregate, HeldValue::Bytes(b)) => {
                    // Aligned for any member type (the device places the block on a boundary
                    // of that alignment).
                    let offset = private.len().div_ceil(align) * align;
                    private.resize(offset, 0);
                    private.extend_from_slice(&b);
                    (offset as u64).to_ne_bytes().to_vec()
                }
                (ArgKind::Local, HeldValue::Local(size)) => {
                    local = local.div_ceil(align) * align;
                    let offset = local as u64;
                    local += size;
                    offset.to_ne_bytes().to_vec()
                }
                _ => return Err(ClError::InvalidKernelArgs),
            };
            let n = bytes.len().min(slot.size);
            block[slot.offset..slot.offset + n].copy_from_slice(&bytes[..n]);
        }
        let profile = queue.profiling_enabled();
        let device = queue.device.clone();
        let work = Work::Kernel(Box::new(move || {
            // Each object's bytes, made current where the kernel runs (a device with memory
            // of its own uses its copy; the CPU device, the host's bytes).
            let resident = device.backend().memory().is_some();
            for (at, m, writes) in &keep {
                let data = match resident {
                    true => m.for_device(&device, *writes)?,
                    false => {
                        m.for_host(*writes)?;
                        m.base() as u64
                    }
                };
                let addr = match m.as_image() {
                    Some(image) if resident => image.device_descriptor_addr(&device, data)?,
                    Some(image) => image.descriptor_addr(),
                    None => data,
                };
                block[*at..*at + 8].copy_from_slice(&addr.to_ne_bytes());
            }
            // SAFETY: every buffer the block points at is kept alive by `keep` until the
            // launch ends (and so the command holds its memory objects until it completes);
            // local memory covers the static variables and the local arguments.
            let result = unsafe { code.launch(&block, local, &private, &nd, profile) };
            drop(keep);
            Ok(result?)
        }));
        queue.enqueue(command_type, work, wait_list)
    }
}

/// Whether a kernel may write buffer `m` through argument `arg`: not through a `const` or
/// `__constant` pointer, nor a buffer the kernel may only read (5.2.1, `CL_MEM_READ_ONLY`:
/// "Writing to a buffer or image object created with CL_MEM_READ_ONLY inside a kernel is
/// undefined").
fn buffer_writes(arg: &KernelArg, m: &MemObject) -> bool {
    let read_only = arg.quals.contains(TypeQualifiers::CONST)
        || arg.space == AddrSpace::Constant
        || m.flags & crate::memory::flags::READ_ONLY != 0;
    !read_only
}

impl Drop for Kernel {
    fn drop(&mut self) {
        self.program.live_kernels.fetch_sub(1, Ordering::AcqRel);
    }
}

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel").field("name", &self.name).finish()
    }
}

/// A local size for a launch that gave none, for a kernel whose device prefers groups of at
/// most `preferred` work-items.
///
/// Each group costs a call and its setup, so groups are as large as `preferred` allows while
/// every core gets a group, and grow past 256 work-items only while every core still gets 8
/// (work-items that differ in cost are then shared out in small enough parts). Dimension 0
/// gets the largest divisor of its global size within that bound. Where that is under 64
/// work-items (a row of 4112 has no divisor between 16 and 257), the next dimensions take the
/// largest divisors that bring the group towards the bound while every core still gets a
/// group: a group of a few work-items pays its cost for little work. The other dimensions
/// get 1.
///
/// A kernel that cannot tell its groups apart (`blind`) cannot tell a partial last group
/// either: where dimension 0's largest divisor is under half the bound (a row of 2 x 8191
/// has only 2), its groups share the row out evenly, the last one partial, instead of
/// taking a few work-items each (16382 x 1022 floats of a 5-point stencil on 16 cores: 18-22
/// ms in groups of 2 x 1022, 0.7 ms in rows of 4,096).
pub fn default_local_size(
    global: &[u64; 3],
    work_dim: u32,
    cores: u32,
    max_group: u64,
    (preferred, blind): (u64, bool),
) -> [u64; 3] {
    const SMALL: u64 = 256;
    let cores = u64::from(cores.max(1));
    let dims = (work_dim as usize).clamp(1, 3);
    let total: u64 = global[..dims].iter().product();
    let bound = preferred
        .min(max_group)
        .min(total.div_ceil(cores))
        .min(SMALL.max(total.div_ceil(8 * cores)))
        .max(1);
    let mut local = [1u64; 3];
    local[0] = part_size(global[0], bound, blind);
    for d in 1..dims {
        let size: u64 = local.iter().product();
        if size >= 64 {
            break;
        }
        // Groups along the dimensions before d; d may take as many as leave every core one.
        let groups: u64 = (0..d).map(|e| global[e].div_ceil(local[e])).product();
        let cap = (bound / size).min((global[d] * groups).div_ceil(cores));
        local[d] = part_size(global[d], cap, false);
    }
    local
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_local_sizes_divide_the_global_size() {
        let small =
            |g: [u64; 3], dims, cores, max| default_local_size(&g, dims, cores, max, (256, false));
        assert_eq!(small([1024, 1, 1], 1, 2, 4096), [256, 1, 1]);
        assert_eq!(small([1000, 1, 1], 1, 2, 4096), [250, 1, 1]);
        assert_eq!(small([7, 1, 1], 1, 2, 4096), [1, 1, 1]);
        // Every core a group: 64 rows of 64, or 2 rows of 256 on 16 cores.
        assert_eq!(small([64, 64, 1], 2, 16, 4096), [64, 1, 1]);
        assert_eq!(small([256, 2, 1], 2, 16, 4096), [32, 1, 1]);
        // Rows too short for a group of their own take more rows.
        assert_eq!(small([4112, 4096, 1], 2, 2, 4096), [16, 16, 1]);
        assert_eq!(small([1366, 768, 1], 2, 16, 4096), [2, 128, 1]);
        assert_eq!(small([2, 2, 64], 3, 2, 4096), [2, 1, 64]);
        assert_eq!(small([4096, 4096, 1], 2, 16, 4096), [256, 1, 1]);
        assert_eq!(small([4112, 4096, 1], 2, 2, 64), [16, 4, 1]);
        // Larger groups where the device prefers them and every core still gets 8.
        let large =
            |g: [u64; 3], dims, cores| default_local_size(&g, dims, cores, 4096, (4096, false));
        assert_eq!(large([4096, 4096, 1], 2, 16), [4096, 1, 1]);
        assert_eq!(large([4112, 4096, 1], 2, 2), [2056, 1, 1]);
        assert_eq!(large([1 << 16, 1, 1], 1, 16), [512, 1, 1]);
        assert_eq!(large([1 << 16, 1, 1], 1, 2), [4096, 1, 1]);
        assert_eq!(large([1000, 1, 1], 1, 2), [250, 1, 1]);
        assert_eq!(large([64, 64, 1], 2, 16), [64, 1, 1]);
        // A kernel blind to its groups: a row of 2 x 8191 in four groups, the last partial,
        // rather than groups of 2 x 1022; rows with a large enough divisor keep it.
        let blind =
            |g: [u64; 3], dims, cores| default_local_size(&g, dims, cores, 4096, (4096, true));
        assert_eq!(blind([16382, 1022, 1], 2, 16), [4096, 1, 1]);
        assert_eq!(blind([10007, 1, 1], 1, 2), [626, 1, 1]);
        assert_eq!(blind([4112, 4096, 1], 2, 2), [2056, 1, 1]);
        assert_eq!(blind([1000, 1, 1], 1, 2), [250, 1, 1]);
    }
}
