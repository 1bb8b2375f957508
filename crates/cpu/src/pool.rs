//! The worker pool: one thread per core, parked when idle. A launch publishes a job of `n`
//! work-groups and gives each thread (the workers and the launching thread) a consecutive
//! share of them; each thread claims batches from the front of its own range, and a thread
//! whose range is done takes the back half of the largest range left to another, which
//! becomes its own (work stealing over ranges of groups), until none is left.
//!
//! Consecutive shares keep neighbouring work-groups on one core: a stencil's groups re-read
//! the rows their neighbours read, from that core's cache, and a streaming kernel's loads stay
//! one long run for the prefetcher. A thread claims from its own range under a lock that
//! others take only to steal; one shared count of the groups not yet claimed, lowered once a
//! batch, tells a thread whose range is done whether anything is left to steal. (An earlier
//! pool handed out batches from one atomic counter, in guided self-scheduling's shrinking
//! shares: on 16 cores transpose and stencil-tiled took 20% longer, and on 2 cores nw,
//! reduce, scan and stencil-tiled 6-10% longer, than with these ranges.)
//!
//! Each thread bounds its batches by time: it doubles its batch while batches run under half
//! of [`BATCH_TIME`] and halves it when they run over twice that, so small work-groups share
//! one claim and one setup, while a thread that the system preempts holds back only the
//! batch it is running: the rest of its range is there to be stolen.
//!
//! A job is opened and closed through atomics, not a lock: the launching thread writes the
//! job, opens it and publishes its generation; a worker counts itself `inside`, then runs the
//! job only if it is still open, and leaves; the launching thread, its own claims done, closes
//! the job and waits for `inside` to reach 0. A worker that has left a job looks for the next
//! one for [`SPIN`] before it parks, and a launch of fewer groups than threads wakes only as
//! many workers as it has groups for. (With a lock around the job, and every parked worker
//! woken for every launch, a launch of 2 to 16 empty groups took 20-47 us on average on 16
//! cores: the workers queued on the lock to enter, and again to leave.)

use std::cell::UnsafeCell;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// How long a batch should run: long enough that claiming it and setting it up cost under 1%,
/// short enough that a preempted thread holds back little work.
const BATCH_TIME: Duration = Duration::from_micros(20);

/// How long a worker that has left a job looks for the next one before it parks, and how long
/// the launching thread looks for the workers to leave before it parks: launches back to back
/// (a queue of kernels of a fraction of a millisecond each) find the workers awake. Short,
/// because a looking worker holds its core: on a 2-core machine where the application keeps
/// a thread of its own busy, looking for 100 us after each launch took 6% of that thread's
/// time, 25 us 2% (the 16-core Xeon's launches as fast with either), and giving the core up
/// while looking (`yield_now`) made back-to-back launches slower than parking.
const SPIN: Duration = Duration::from_micros(25);

/// A job: a function of a batch of group indices, with its lifetime erased while it is
/// published (the launching thread does not return before every worker has left it).
#[derive(Clone, Copy)]
struct JobRef {
    f: *const (dyn Fn(Range<usize>) + Sync),
}

// SAFETY: the function is `Sync`, and the launching thread keeps it alive while it is shared.
unsafe impl Send for JobRef {}

struct Pool {
    /// The current job, written by the launching thread while no job is open.
    job: UnsafeCell<Option<JobRef>>,
    /// The generation of the latest job: each launch adds one, so a worker takes part in each
    /// job once.
    published: AtomicU64,
    /// The generation of the job open to workers now; 0 when none is.
    open: AtomicU64,
    /// Workers inside a job, or about to look whether the job they saw is still open.
    inside: AtomicUsize,
    /// Whether a batch panicked on a worker in the current job (the launching thread panics
    /// in turn once every worker has left).
    panicked: AtomicBool,
    /// Held to park: workers wait on `wake` for a job, the launching thread on `left` for the
    /// workers to leave.
    parking: Mutex<()>,
    /// Workers parked on `wake` (changed under `parking`): the others are looking for the
    /// next job, and a launch wakes only as many as it has groups for beyond those.
    parked: AtomicUsize,
    wake: Condvar,
    left: Condvar,
    /// Each thread's range of the current job: the launching thread's first, then each
    /// worker's.
    slots: Vec<Slot>,
    /// The current job's groups that no batch has claimed yet.
    unclaimed: AtomicUsize,
    /// One launch at a time uses the workers.
    launch: Mutex<()>,
    workers: usize,
}

// SAFETY: `job` is written only by the launching thread that holds `launch`, while no job is
// open, and read only by a worker counted inside the open job (see `worker` and `run`); every
// other field is `Sync`.
unsafe impl Sync for Pool {}

static POOL: OnceLock<Pool> = OnceLock::new();

fn pool() -> &'static Pool {
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let workers = cores.saturating_sub(1);
        for i in 0..workers {
            let _ = std::thread::Builder::new()
                .name(format!("ferrocl-cpu-{i}"))
                .spawn(move || worker(i + 1));
        }
        Pool {
            job: UnsafeCell::new(None),
            published: AtomicU64::new(0),
            open: AtomicU64::new(0),
            inside: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
            parking: Mutex::new(()),
            parked: AtomicUsize::new(0),
            wake: Condvar::new(),
            left: Condvar::new(),
            slots: (0..=workers).map(|_| Slot(Mutex::new(0..0))).collect(),
            unclaimed: AtomicUsize::new(0),
            launch: Mutex::new(()),
            workers,
        }
    })
}

impl Pool {
    fn park(&self) -> MutexGuard<'_, ()> {
        self.parking.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Waits until `done`: spinning for [`SPIN`], then parked on `condvar` (whose notifier takes
/// `parking` after making `done` true), counted in `count` while parked.
fn wait_until(p: &Pool, condvar: &Condvar, count: Option<&AtomicUsize>, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        if start.elapsed() >= SPIN {
            let mut parked = p.park();
            while !done() {
                if let Some(count) = count {
                    count.fetch_add(1, Ordering::Relaxed);
                }
                parked = condvar.wait(parked).unwrap_or_else(|e| e.into_inner());
                if let Some(count) = count {
                    count.fetch_sub(1, Ordering::Relaxed);
                }
            }
            return;
        }
        for _ in 0..64 {
            std::hint::spin_loop();
        }
    }
}

/// The group indices a thread has yet to run: its share of the job, less what it has run and
/// what other threads have taken from its end.
struct Slot(Mutex<Range<usize>>);

impl Slot {
    fn lock(&self) -> std::sync::MutexGuard<'_, Range<usize>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `total` groups in `threads` consecutive shares, as even as can be: share `t`.
fn share(total: usize, threads: usize, t: usize) -> Range<usize> {
    let at = |t: usize| (total as u128 * t as u128 / threads as u128) as usize;
    at(t)..at(t + 1)
}

/// Claims the next batch of at most `size` groups for thread `me`: from the front of its own
/// range while that lasts, then by taking the back half of the largest range left to another
/// thread, which becomes its own. `None` when every group is claimed (`unclaimed`, the count
/// of groups no batch has taken, is 0: one load ends a thread's part of the job, not a look
/// at every range).
fn claim(slots: &[Slot], unclaimed: &AtomicUsize, me: usize, size: usize) -> Option<Range<usize>> {
    loop {
        {
            let mut own = slots[me].lock();
            if !own.is_empty() {
                let end = own.end.min(own.start + size);
                let batch = own.start..end;
                own.start = end;
                unclaimed.fetch_sub(batch.len(), Ordering::AcqRel);
                return Some(batch);
            }
        }
        if unclaimed.load(Ordering::Acquire) == 0 {
            return None;
        }
        // Steal: the largest range (looked at one lock at a time, so it may shrink before it is
        // taken from).
        let victim = (0..slots.len())
            .filter(|&t| t != me)
            .max_by_key(|&t| slots[t].lock().len())?;
        let taken = {
            let mut other = slots[victim].lock();
            let mid = other.start + other.len() / 2;
            let taken = mid..other.end;
            other.end = mid;
            taken
        };
        if !taken.is_empty() {
            *slots[me].lock() = taken;
        }
        // Else the largest range emptied since it was looked at, or groups not yet claimed
        // are on their way to a thief's range: look again.
        std::hint::spin_loop();
    }
}

fn claim_all(p: &Pool, me: usize, job: JobRef) {
    let mut size = 1;
    while let Some(batch) = claim(&p.slots, &p.unclaimed, me, size) {
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

fn worker(me: usize) {
    let p = loop {
        if let Some(p) = POOL.get() {
            break p;
        }
        std::thread::yield_now();
    };
    let mut seen = 0u64;
    loop {
        wait_until(p, &p.wake, Some(&p.parked), || {
            p.published.load(Ordering::Acquire) != seen
        });
        seen = p.published.load(Ordering::Acquire);
        // Counted inside before looking whether the job is open (both sequentially
        // consistent, as the launching thread's close and look at `inside` are): either the
        // launching thread sees this worker inside and waits for it, or this worker sees the
        // job closed.
        p.inside.fetch_add(1, Ordering::SeqCst);
        if p.open.load(Ordering::SeqCst) == seen {
            // SAFETY: the job is open, so its launching thread wrote `job` before opening it
            // and neither returns nor writes it again before this worker has left.
            let job = unsafe { *p.job.get() }.expect("an open job is stored");
            // A panic (an internal error) ends this worker's part of the job, not the worker:
            // a thread that died inside would be waited for forever.
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                claim_all(p, me, job);
            }));
            if ran.is_err() {
                p.panicked.store(true, Ordering::Relaxed);
            }
        }
        if p.inside.fetch_sub(1, Ordering::SeqCst) == 1 {
            drop(p.park());
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
    };
    // Shares for as many threads as there are groups, at most all of them.
    let sharing = p.slots.len().min(n);
    for (t, slot) in p.slots.iter().enumerate() {
        *slot.lock() = if t < sharing {
            share(n, sharing, t)
        } else {
            0..0
        };
    }
    p.unclaimed.store(n, Ordering::Release);
    // A worker's panic in a launch whose own thread panicked too is left behind by its unwind.
    p.panicked.store(false, Ordering::Relaxed);
    // SAFETY: no job is open (the last launch closed its job and waited for the workers
    // inside to leave), a worker reads `job` only once it sees the job of the generation it
    // saw published open, and this generation is not published yet; `launch` keeps other
    // launching threads out.
    unsafe { *p.job.get() = Some(job) };
    let generation = p.published.load(Ordering::Relaxed) + 1;
    p.open.store(generation, Ordering::SeqCst);
    p.published.store(generation, Ordering::Release);
    {
        // Taking the lock orders the publication before any parking worker's look at it; a
        // worker not parked now sees the job without being woken.
        let _parking = p.park();
        let parked = p.parked.load(Ordering::Relaxed);
        let awake = p.workers - parked;
        let wanted = (sharing - 1).saturating_sub(awake);
        if wanted >= parked {
            if parked > 0 {
                p.wake.notify_all();
            }
        } else {
            for _ in 0..wanted {
                p.wake.notify_one();
            }
        }
    }
    /// Closes the job and waits for the workers inside to leave, also when the launching
    /// thread's own batches panic: the job's function must outlive them.
    struct Close<'a>(&'a Pool);
    impl Drop for Close<'_> {
        fn drop(&mut self) {
            let p = self.0;
            p.open.store(0, Ordering::SeqCst);
            wait_until(p, &p.left, None, || p.inside.load(Ordering::SeqCst) == 0);
        }
    }
    let close = Close(p);
    claim_all(p, 0, job);
    drop(close);
    if p.panicked.swap(false, Ordering::Relaxed) {
        panic!("a work-group panicked on a worker thread");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slots(ranges: &[Range<usize>]) -> (Vec<Slot>, AtomicUsize) {
        let total = ranges.iter().map(|r| r.len()).sum();
        let slots = ranges.iter().map(|r| Slot(Mutex::new(r.clone()))).collect();
        (slots, AtomicUsize::new(total))
    }

    #[test]
    fn shares_are_consecutive_and_even() {
        let shares: Vec<_> = (0..3).map(|t| share(10, 3, t)).collect();
        assert_eq!(shares, vec![0..3, 3..6, 6..10]);
        assert_eq!(share(usize::MAX, 2, 1).end, usize::MAX);
    }

    #[test]
    fn a_thread_runs_its_own_range_then_steals_the_back_half_of_the_largest() {
        let (s, left) = slots(&[0..10, 10..14, 14..30]);
        assert_eq!(claim(&s, &left, 0, 4), Some(0..4));
        assert_eq!(claim(&s, &left, 0, 8), Some(4..10));
        // Its own range is done: half of thread 2's, from the back, becomes its own.
        assert_eq!(claim(&s, &left, 0, 2), Some(22..24));
        assert_eq!(left.load(Ordering::Relaxed), 18);
        assert_eq!(*s[2].lock(), 14..22);
        assert_eq!(*s[0].lock(), 24..30);
        // Everything claimed once, then nothing.
        let mut claimed = vec![0..4, 4..10, 22..24];
        for me in [1, 2, 1, 0, 2, 0, 1, 2, 0, 1, 2] {
            claimed.extend(claim(&s, &left, me, 3));
        }
        while let Some(b) = claim(&s, &left, 0, 3) {
            claimed.push(b);
        }
        let mut indices: Vec<usize> = claimed.into_iter().flatten().collect();
        indices.sort_unstable();
        assert_eq!(indices, (0..30).collect::<Vec<_>>());
        assert_eq!(claim(&s, &left, 1, 3), None);
        assert_eq!(left.load(Ordering::Relaxed), 0);
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

    #[test]
    fn a_panicking_batch_panics_the_launch_and_leaves_the_pool_working() {
        // `None`: every batch panics, on the launching thread and on the workers alike, and
        // the next launch must not inherit a worker's panic.
        for bad in [Some(0), Some(17), Some(63), None] {
            let ran = std::panic::catch_unwind(|| {
                run(64, &|r: Range<usize>| {
                    if bad.is_none_or(|b| r.contains(&b)) {
                        std::thread::sleep(Duration::from_micros(50));
                        panic!("batch {r:?}");
                    }
                });
            });
            assert!(ran.is_err(), "{bad:?}");
            let counts: Vec<AtomicUsize> = (0..64).map(|_| AtomicUsize::new(0)).collect();
            run(64, &|r: Range<usize>| {
                for i in r {
                    counts[i].fetch_add(1, Ordering::Relaxed);
                }
            });
            assert!(
                counts.iter().all(|c| c.load(Ordering::Relaxed) == 1),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn launches_from_several_threads_back_to_back_each_run_every_index_once() {
        std::thread::scope(|scope| {
            for t in 0..4usize {
                scope.spawn(move || {
                    for i in 0..400usize {
                        let n = 2 + (i * 7 + t * 3) % 40;
                        let counts: Vec<AtomicUsize> =
                            (0..n).map(|_| AtomicUsize::new(0)).collect();
                        run(n, &|r: Range<usize>| {
                            for i in r {
                                counts[i].fetch_add(1, Ordering::Relaxed);
                            }
                        });
                        assert!(counts.iter().all(|c| c.load(Ordering::Relaxed) == 1), "{n}");
                        if i % 50 == 0 {
                            // Long enough for the workers to park between launches.
                            std::thread::sleep(Duration::from_micros(300));
                        }
                    }
                });
            }
        });
    }
}
