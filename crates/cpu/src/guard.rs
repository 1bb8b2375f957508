//! Recovery from faults in generated code.
//!
//! A kernel can fault: a wild `__global` pointer reaches unmapped memory (`SIGSEGV`,
//! `SIGBUS`), a corrupt value sends it somewhere no access was meant to go. Such a fault must
//! end the launch in error, not the process.
//!
//! Every work-group call goes through a small trampoline, `GuardRef::call`, which saves the
//! callee-saved registers on the stack and records the stack pointer in the thread's
//! [`Guard`] before it calls the generated function. A signal handler, installed once for the
//! fault signals, checks whether the faulting thread is inside such a call; if so it rewrites
//! the interrupted context so that, when the handler returns, the thread resumes at the
//! trampoline's escape path with the recorded stack pointer: the generated function's frame
//! is dropped, the saved registers are restored, and the call returns the fault. Any other
//! fault goes to the handler that was installed before (Rust's stack overflow handler, a
//! host program's own), or to the default action.
//!
//! Inside a guarded call only generated code and the library functions it calls run; those
//! take no locks and allocate nothing, so leaving them at any instruction leaves no state of
//! the runtime half-changed. The handler runs on an alternate signal stack, which
//! [`enter`] sets up for threads that have none, so a kernel that overflows its stack is
//! caught too.
//!
//! Only x86-64 Linux has the trampoline; elsewhere `GuardRef::call` calls the kernel directly and a
//! fault ends the process as before.

/// The thread's guard (`GuardRef`), taken once for a batch of work-group calls: installing the
/// handler, giving the thread an alternate signal stack and finding the thread's guard state
/// are done then, not once per call (a work-group of 64 items of a copy kernel runs in about
/// 40 ns, and each thread-local access of a shared library goes through `__tls_get_addr`).
/// Its `call` runs one work-group function and returns the fault that stopped it, if one did.
pub(crate) use imp::enter;

/// Elsewhere the kernel is called directly.
#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
mod imp {
    use crate::{GroupCtx, GroupFn, KernelFault};

    pub(crate) struct GuardRef;

    pub(crate) fn enter() -> GuardRef {
        GuardRef
    }

    impl GuardRef {
        /// # Safety
        /// As for calling `entry` directly.
        pub(crate) unsafe fn call(
            &self,
            entry: GroupFn,
            args: *const u8,
            group: *const GroupCtx,
            frames: *mut u8,
        ) -> Result<(), KernelFault> {
            // SAFETY: forwarded from this function's contract.
            unsafe { entry(args, group, frames) };
            Ok(())
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod imp {
    use std::cell::{Cell, UnsafeCell};
    use std::sync::Once;

    use crate::{GroupCtx, GroupFn, KernelFault};

    /// What the signal handler needs to know of a thread's guarded call.
    struct Guard {
        /// Inside a guarded call.
        active: Cell<bool>,
        /// The stack pointer the trampoline recorded before calling the kernel (0 before).
        saved_sp: UnsafeCell<u64>,
        /// The fault that ended the call.
        signal: Cell<i32>,
        address: Cell<u64>,
    }

    thread_local! {
        // Constant-initialized and without a destructor: reading it from a signal handler is
        // a plain thread-local access, with no lazy initialization.
        static GUARD: Guard = const {
            Guard {
                active: Cell::new(false),
                saved_sp: UnsafeCell::new(0),
                signal: Cell::new(0),
                address: Cell::new(0),
            }
        };
        static ALT_STACK: std::cell::RefCell<Option<AltStack>> =
            const { std::cell::RefCell::new(None) };
        static ALT_STACK_CHECKED: Cell<bool> = const { Cell::new(false) };
    }

    // The trampoline. `ferrocl_cpu_guarded_call(entry, args, group, frames, saved_sp)` pushes
    // the callee-saved registers, stores the stack pointer at `saved_sp`, calls
    // `entry(args, group, frames)` and returns 0. The signal handler resumes a faulting call
    // at `ferrocl_cpu_guard_escape` with the stored stack pointer; it pops the same registers
    // and returns 1.
    std::arch::global_asm!(
        ".text",
        ".p2align 4",
        ".globl ferrocl_cpu_guarded_call",
        ".type ferrocl_cpu_guarded_call,@function",
        "ferrocl_cpu_guarded_call:",
        "push rbp",
        "push rbx",
        "push r12",
        "push r13",
        "push r14",
        "push r15",
        // Six pushes after the return address: 8 more bytes align the stack to 16 for the call.
        "sub rsp, 8",
        "mov [r8], rsp",
        "mov rax, rdi",
        "mov rdi, rsi",
        "mov rsi, rdx",
        "mov rdx, rcx",
        "call rax",
        "xor eax, eax",
        "2:",
        "add rsp, 8",
        "pop r15",
        "pop r14",
        "pop r13",
        "pop r12",
        "pop rbx",
        "pop rbp",
        "ret",
        ".size ferrocl_cpu_guarded_call, .-ferrocl_cpu_guarded_call",
        ".p2align 4",
        ".globl ferrocl_cpu_guard_escape",
        ".type ferrocl_cpu_guard_escape,@function",
        "ferrocl_cpu_guard_escape:",
        "mov eax, 1",
        "jmp 2b",
        ".size ferrocl_cpu_guard_escape, .-ferrocl_cpu_guard_escape",
    );

    extern "C" {
        fn ferrocl_cpu_guarded_call(
            entry: GroupFn,
            args: *const u8,
            group: *const GroupCtx,
            frames: *mut u8,
            saved_sp: *mut u64,
        ) -> u32;
        fn ferrocl_cpu_guard_escape();
    }

    /// The signals a kernel can raise: bad accesses, and (should generated code ever trap)
    /// illegal instructions and arithmetic exceptions.
    const SIGNALS: [libc::c_int; 4] = [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE];

    /// The handlers installed before ours, one per signal of [`SIGNALS`]; written once, before
    /// our handler is installed for that signal, and only read afterwards.
    struct Previous(UnsafeCell<[libc::sigaction; 4]>);
    // SAFETY: written only inside `INSTALL.call_once`, before any reader can exist.
    unsafe impl Sync for Previous {}
    static PREVIOUS: Previous = Previous(UnsafeCell::new(unsafe { std::mem::zeroed() }));
    static INSTALL: Once = Once::new();

    fn install() {
        INSTALL.call_once(|| {
            for (i, &sig) in SIGNALS.iter().enumerate() {
                // SAFETY: plain sigaction calls with valid structures; PREVIOUS is written
                // before the handler that reads it is installed.
                unsafe {
                    let previous = &mut (*PREVIOUS.0.get())[i];
                    if libc::sigaction(sig, std::ptr::null(), previous) != 0 {
                        continue;
                    }
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = on_fault as *const () as usize;
                    action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                    libc::sigemptyset(&mut action.sa_mask);
                    libc::sigaction(sig, &action, std::ptr::null_mut());
                }
            }
        });
    }

    /// An alternate signal stack this module set up for a thread; removed when the thread
    /// ends.
    struct AltStack {
        _memory: Vec<u8>,
    }

    impl Drop for AltStack {
        fn drop(&mut self) {
            // SAFETY: disabling the thread's alternate stack before its memory is freed.
            unsafe {
                let mut ss: libc::stack_t = std::mem::zeroed();
                ss.ss_flags = libc::SS_DISABLE;
                libc::sigaltstack(&ss, std::ptr::null_mut());
            }
        }
    }

    /// Gives the thread an alternate signal stack if it has none.
    fn ensure_alt_stack() {
        if ALT_STACK_CHECKED.with(Cell::get) {
            return;
        }
        ALT_STACK_CHECKED.with(|c| c.set(true));
        // SAFETY: querying and setting the thread's alternate stack with valid structures;
        // the memory lives in a thread-local that disables the stack before freeing it.
        unsafe {
            let mut old: libc::stack_t = std::mem::zeroed();
            if libc::sigaltstack(std::ptr::null(), &mut old) != 0
                || old.ss_flags & libc::SS_DISABLE == 0
            {
                return;
            }
            let size = (libc::SIGSTKSZ * 4).max(64 << 10);
            let mut memory = vec![0u8; size];
            let ss = libc::stack_t {
                ss_sp: memory.as_mut_ptr().cast(),
                ss_flags: 0,
                ss_size: size,
            };
            if libc::sigaltstack(&ss, std::ptr::null_mut()) == 0 {
                ALT_STACK.with(|a| *a.borrow_mut() = Some(AltStack { _memory: memory }));
            }
        }
    }

    /// The calling thread's [`Guard`], with the handler installed and an alternate signal
    /// stack in place.
    pub(crate) fn enter() -> GuardRef {
        install();
        ensure_alt_stack();
        GuardRef(GUARD.with(|g| g as *const Guard))
    }

    /// A thread's [`Guard`]: the thread-local has no destructor, so it lives as long as the
    /// thread, and the raw pointer keeps it from being `Send`.
    pub(crate) struct GuardRef(*const Guard);

    impl GuardRef {
        /// # Safety
        /// As for calling `entry` directly.
        pub(crate) unsafe fn call(
            &self,
            entry: GroupFn,
            args: *const u8,
            group: *const GroupCtx,
            frames: *mut u8,
        ) -> Result<(), KernelFault> {
            // SAFETY: the calling thread's guard (GuardRef's invariant); the handler reads it
            // only while `active`, on this thread.
            let g = unsafe { &*self.0 };
            let saved_sp = g.saved_sp.get();
            // SAFETY: as above.
            unsafe { *saved_sp = 0 };
            g.active.set(true);
            // SAFETY: the trampoline calls `entry` with the same arguments in the C calling
            // convention (this function's contract) and preserves the callee-saved registers,
            // on both of its return paths.
            let faulted = unsafe { ferrocl_cpu_guarded_call(entry, args, group, frames, saved_sp) };
            g.active.set(false);
            if faulted == 0 {
                Ok(())
            } else {
                Err(KernelFault {
                    signal: g.signal.get(),
                    address: g.address.get(),
                })
            }
        }
    }

    extern "C" fn on_fault(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid siginfo and ucontext to an SA_SIGINFO handler.
        let recovered = unsafe {
            // A signal another thread or process sent (si_code <= 0) is no fault of ours.
            (*info).si_code > 0
                && GUARD.with(|g| {
                    let sp = *g.saved_sp.get();
                    if !g.active.get() || sp == 0 {
                        return false;
                    }
                    g.active.set(false);
                    g.signal.set(sig);
                    g.address.set((*info).si_addr() as u64);
                    let uc = ctx.cast::<libc::ucontext_t>();
                    let gregs = &mut (*uc).uc_mcontext.gregs;
                    gregs[libc::REG_RSP as usize] = sp as i64;
                    gregs[libc::REG_RIP as usize] = ferrocl_cpu_guard_escape as *const () as i64;
                    true
                })
        };
        if !recovered {
            // SAFETY: forwarding the signal as the kernel delivered it.
            unsafe { chain(sig, info, ctx) };
        }
    }

    /// Hands a fault that is not a kernel's to the handler installed before ours, or to the
    /// default action.
    unsafe fn chain(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        let Some(i) = SIGNALS.iter().position(|&s| s == sig) else {
            return;
        };
        // SAFETY: PREVIOUS is no longer written once the handler is installed; the previous
        // handler is called as its flags say it expects.
        unsafe {
            let previous = &(*PREVIOUS.0.get())[i];
            let handler = previous.sa_sigaction;
            if handler == libc::SIG_DFL || handler == libc::SIG_IGN {
                // Restore the default action: a fault happens again when the instruction is
                // retried, a sent signal is raised again, and the default action applies.
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(sig, &action, std::ptr::null_mut());
                if (*info).si_code <= 0 {
                    libc::raise(sig);
                }
            } else if previous.sa_flags & libc::SA_SIGINFO != 0 {
                let f = std::mem::transmute::<
                    usize,
                    extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void),
                >(handler);
                f(sig, info, ctx);
            } else {
                let f = std::mem::transmute::<usize, extern "C" fn(libc::c_int)>(handler);
                f(sig);
            }
        }
    }
}
