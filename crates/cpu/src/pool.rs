//! The worker pool: one thread per core, parked when idle. A launch publishes a job of `n`
//! work-groups; workers and the launching thread claim group indices from an atomic counter
//! until none is left (DESIGN.md, decision 5).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, OnceLock};

/// A job: a function of the group index, with its lifetime erased while it is published
/// (the launching thread does not return before every worker has left it).
#[derive(Clone, Copy)]
struct JobRef {
    f: *const (dyn Fn(usize) + Sync),
    total: usize,
}

// SAFETY: the function is `Sync`, and the launching thread keeps it alive while it is shared.
unsafe impl Send for JobRef {}

struct State {
    job: Option<JobRef>,
    /// Increases with each job, so a worker takes part in each job once.
    generation: u64,
    /// Workers inside the current job.
    inside: usize,
}

struct Pool {
    state: Mutex<State>,
    wake: Condvar,
    left: Condvar,
    next: AtomicUsize,
    /// One launch at a time uses the workers.
    launch: Mutex<()>,
    workers: usize,
}

static POOL: OnceLock<Pool> = OnceLock::new();

fn pool() -> &'static Pool {
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let workers = cores.saturating_sub(1);
        for i in 0..workers {
            let _ = std::thread::Builder::new()
                .name(format!("ferrocl-cpu-{i}"))
                .spawn(worker);
        }
        Pool {
            state: Mutex::new(State {
                job: None,
                generation: 0,
                inside: 0,
            }),
            wake: Condvar::new(),
            left: Condvar::new(),
            next: AtomicUsize::new(0),
            launch: Mutex::new(()),
            workers,
        }
    })
}

fn claim_all(p: &Pool, job: JobRef) {
    loop {
        let i = p.next.fetch_add(1, Ordering::AcqRel);
        if i >= job.total {
            break;
        }
        // SAFETY: JobRef's contract: the function outlives the job.
        unsafe { (*job.f)(i) };
    }
}

fn worker() {
    let p = loop {
        if let Some(p) = POOL.get() {
            break p;
        }
        std::thread::yield_now();
    };
    let mut seen = 0u64;
    loop {
        let job = {
            let mut s = p.state.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if s.generation != seen {
                    if let Some(job) = s.job {
                        seen = s.generation;
                        s.inside += 1;
                        break job;
                    }
                }
                s = p.wake.wait(s).unwrap_or_else(|e| e.into_inner());
            }
        };
        claim_all(p, job);
        let mut s = p.state.lock().unwrap_or_else(|e| e.into_inner());
        s.inside -= 1;
        if s.inside == 0 {
            p.left.notify_all();
        }
    }
}

/// Runs `f(i)` for every `i` in `0..n` on the pool and the calling thread; returns when all
/// have run.
pub fn run(n: usize, f: &(dyn Fn(usize) + Sync)) {
    let p = pool();
    if n == 1 || p.workers == 0 {
        (0..n).for_each(f);
        return;
    }
    let _one_launch = p.launch.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: the job is withdrawn, and every worker has left it, before this function
    // returns, so erasing the borrow's lifetime never lets the function dangle.
    let job = JobRef {
        f: unsafe {
            std::mem::transmute::<
                *const (dyn Fn(usize) + Sync + '_),
                *const (dyn Fn(usize) + Sync + 'static),
            >(f)
        },
        total: n,
    };
    p.next.store(0, Ordering::Release);
    {
        let mut s = p.state.lock().unwrap_or_else(|e| e.into_inner());
        s.job = Some(job);
        s.generation += 1;
    }
    p.wake.notify_all();
    claim_all(p, job);
    let mut s = p.state.lock().unwrap_or_else(|e| e.into_inner());
    s.job = None;
    while s.inside > 0 {
        s = p.left.wait(s).unwrap_or_else(|e| e.into_inner());
    }
}
