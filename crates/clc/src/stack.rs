//! The stack the compiler runs on. Every recursion of the compiler is bounded: the parser caps
//! nesting (`parse::MAX_DEPTH` levels of brackets, statements and declarators), the operators
//! one statement chains (`parse::MAX_OPS`) and the arms of an `else if` chain
//! (`parse::MAX_ELSE_IFS`); the trees that are as deep as they are long (operator chains such
//! as `a + b + c + ...`, `a && b && ...`, `a, b, ...`, constant expressions built of them, and
//! `else if` chains) are walked with loops in parse, sema, lowering and constant evaluation,
//! so only real nesting takes stack.
//!
//! [`COMPILER_STACK`] is what the deepest programs those caps accept need, measured; the front
//! end and lowering run on the caller's thread, since that fits in any thread's stack
//! ([`CALLER_STACK`]), and would run on a thread of their own of that size otherwise.

use std::cell::Cell;

/// The stack the compiler needs for the deepest program the caps accept, with room to spare.
///
/// Measured with `FRONT=1 cargo run -p ferrocl-clc --example stack_need`: it builds each
/// program of `tests/common/deep.rs` at the deepest nesting the caps accept (255 levels of
/// brackets or statements, chains of 4095 operators or 4096 `else if`s) through the front end
/// and lowering, in
/// child processes on threads of bisected stack sizes, and reports the smallest that succeeds
/// (64 KiB steps). In a debug build on x86-64 (whose frames are the larger) the largest need
/// is 576 KiB (4095 chained `&&`, 4096 `else if`s, 252 nested `if`s or `while`s); every other
/// case needs 448 KiB or less. The whole build, with the passes (which run on the caller's
/// thread), needs at most 1472 KiB there (the `&&` and `else if` chains, whose 4096 blocks
/// the passes walk).
/// Before operator chains were walked with loops, a chain of 4095 `+` needed between 16 and
/// 32 MiB.
pub const COMPILER_STACK: usize = 1 << 20;

/// The stack a caller's thread is assumed to have: Rust's default for spawned threads (2 MiB;
/// a process's main thread usually has 8 MiB).
pub const CALLER_STACK: usize = 2 << 20;

thread_local! {
    /// Set while the compiler runs on a stack known to hold [`COMPILER_STACK`].
    static ON_COMPILER_STACK: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` (a part of the compiler) on a stack that holds [`COMPILER_STACK`]: the caller's
/// when the need fits in [`CALLER_STACK`] or the caller is already on such a stack, else a
/// thread of its own of that size (or the caller's, when no thread can be started).
pub fn on_compiler_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    if COMPILER_STACK <= CALLER_STACK || ON_COMPILER_STACK.with(Cell::get) {
        return f();
    }
    let mut f = Some(f);
    let ran = std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("ferrocl-clc".into())
            .stack_size(COMPILER_STACK)
            .spawn_scoped(s, || on_this_thread(f.take().expect("run once")));
        let h = worker.ok()?;
        Some(h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
    });
    // No thread could be started: the caller's stack is all there is.
    ran.unwrap_or_else(|| f.take().expect("not run")())
}

/// Runs `f` on the calling thread, whose stack the caller vouches holds [`COMPILER_STACK`]
/// (the measurement gives its threads the sizes it tries): compiler calls inside `f` start no
/// thread of their own.
pub fn on_this_thread<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            ON_COMPILER_STACK.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(ON_COMPILER_STACK.with(|c| c.replace(true)));
    f()
}
