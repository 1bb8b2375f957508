//! The worker pool: one thread per core, parked when idle. A launch publishes a job of `n`
//! work-groups; workers and the launching thread claim batches of group indices from an
//! atomic counter until none is left (DESIGN.md, decision 5).
//!
//! A batch is as long as two limits allow. Guided self-scheduling (Polychronopoulos and Kuck,
//! "Guided Self-Scheduling: A Practical Scheduling Scheme for Parallel Supercomputers", IEEE
//! Trans. Computers 36(12), 1987) bounds it by a share of what is left, so the last batches are
//! single work-groups and no thread finishes long after the others. Each thread also bounds
//! it by time: it doubles its batch while batches run under half of [`BATCH_TIME`] and halves
//! it when they run over twice that, so small work-groups share one claim and one setup, while
//! a thread that the system preempts holds back little work from the others (a fixed share
//! would leave a preempted thread holding up to a quarter of the range on a loaded machine).

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How long a batch should run: long enough that claiming it and setting it up cost under 1%,
/// short enough that a preempted thread holds back little work.
const BATCH_TIME: Duration = Duration::from_micros(20);

/// A job: a function of a batch of group indices, with its lifetime erased while it is
/// published (the launching thread does not return before every worker has left it).
#[derive(Clone, Copy)]
struct JobRef {
    f: *const (dyn Fn(Range<usize>) + Sync),
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

/// The most a batch may take when `left` groups are unclaimed and `threads` threads share
/// them: a `1 / (2 * threads)` share, at least one group. Half of an even share (guided
/// self-scheduling takes the whole) leaves room for a thread that joins late.
fn share(left: usize, threads: usize) -> usize {
    left.div_ceil(2 * threads).max(1)
}

/// Claims the next batch of `0..total`, of at most `size` groups, or `None` when every group
/// is claimed.
fn claim(next: &AtomicUsize, total: usize, threads: usize, size: usize) -> Option<Range<usize>> {
    let mut start = next.load(Ordering::Relaxed);
    loop {
        if start >= total {
            return None;
        }
        let end = start + share(total - start, threads).min(size);
        match next.compare_exchange_weak(start, end, Ordering::AcqRel, Ordering::Relaxed) {
            Ok(_) => return Some(start..end),
            Err(now) => start = now,
        }
    }
}

fn claim_all(p: &Pool, job: JobRef) {
    let mut size = 1;
    while let Some(batch) = claim(&p.next, job.total, p.workers + 1, size) {
        let claimed = batch.len();
        let start = Instant::now();
        // SAFETY: JobRef's contract: the function outlives the job.
        unsafe { (*job.f)(batch) };
        let took = start.elapsed();
        if took < BATCH_TIME / 2 && claimed == size {
            size *= 2;
        } else if took > BATCH_TIME * 2 {
            size = (size / 2).max(1);
        }
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

/// The threads that run a launch's work-groups: the workers and the launching thread.
pub fn threads() -> usize {
    pool().workers + 1
}

/// Runs `f` over batches of consecutive indices that together cover `0..n`, each index once,
/// on the pool and the calling thread; returns when all have run.
pub fn run(n: usize, f: &(dyn Fn(Range<usize>) + Sync)) {
    let p = pool();
    if n <= 1 || p.workers == 0 {
        f(0..n);
        return;
    }
    let _one_launch = p.launch.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: the job is withdrawn, and every worker has left it, before this function
    // returns, so erasing the borrow's lifetime never lets the function dangle.
    let job = JobRef {
        f: unsafe {
            std::mem::transmute::<
                *const (dyn Fn(Range<usize>) + Sync + '_),
                *const (dyn Fn(Range<usize>) + Sync + 'static),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_are_bounded_by_a_share_of_what_is_left() {
        let next = AtomicUsize::new(0);
        let mut sizes = Vec::new();
        let mut covered = 0;
        while let Some(b) = claim(&next, 1000, 2, usize::MAX) {
            assert_eq!(b.start, covered);
            covered = b.end;
            sizes.push(b.len());
        }
        assert_eq!(covered, 1000);
        assert_eq!(sizes[0], 250);
        assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
        assert_eq!(*sizes.last().unwrap(), 1);
        // Few claims for many groups: logarithmic in the group count.
        assert!(sizes.len() < 40, "{}", sizes.len());
        // And by the thread's own size.
        let next = AtomicUsize::new(0);
        assert_eq!(claim(&next, 1000, 2, 8), Some(0..8));
        assert_eq!(claim(&next, 10, 2, 8), Some(8..9));
        assert_eq!(claim(&next, 10, 2, 8), Some(9..10));
        assert_eq!(claim(&next, 10, 2, 8), None);
    }

    #[test]
    fn every_index_runs_once() {
        for n in [0, 1, 2, 3, 7, 64, 1000, 100_003] {
            let counts: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
            run(n, &|r: Range<usize>| {
                for i in r {
                    counts[i].fetch_add(1, Ordering::Relaxed);
                }
            });
            assert!(counts.iter().all(|c| c.load(Ordering::Relaxed) == 1), "{n}");
        }
    }
}
