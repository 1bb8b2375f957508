//! The executor: commands whose dependencies have ended wait here until a runner thread (or
//! a host thread blocked in a wait, which helps) takes and runs them.
//!
//! Runner threads start on first use and park when there is nothing to do. A host thread that
//! waits for an event runs ready commands itself (`help_once`), so a short command enqueued
//! and waited for completes without a thread switch.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};

use crate::event::Event;

struct Executor {
    ready: Mutex<VecDeque<Arc<Event>>>,
    wake: Condvar,
    /// Runner threads parked on `wake`.
    idle: AtomicUsize,
}

static EXECUTOR: OnceLock<Executor> = OnceLock::new();

fn executor() -> &'static Executor {
    EXECUTOR.get_or_init(|| {
        let runners = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, 4);
        for i in 0..runners {
            let spawned = std::thread::Builder::new()
                .name(format!("ferrocl-runner-{i}"))
                .spawn(runner);
            // Without runner threads, commands still run on the threads that wait for them.
            drop(spawned);
        }
        Executor {
            ready: Mutex::new(VecDeque::new()),
            wake: Condvar::new(),
            idle: AtomicUsize::new(0),
        }
    })
}

/// Hands a command whose dependencies have all ended to the executor.
pub(crate) fn ready(event: Arc<Event>) {
    let ex = executor();
    ex.ready
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push_back(event);
    if ex.idle.load(Ordering::Acquire) > 0 {
        ex.wake.notify_one();
    }
}

/// Runs one ready command on the calling thread, if there is one; returns whether it did.
pub(crate) fn help_once() -> bool {
    let next = executor()
        .ready
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .pop_front();
    match next {
        Some(event) => {
            event.run();
            true
        }
        None => false,
    }
}

fn runner() {
    // The executor is being initialized by the thread that spawned this one; wait for it.
    let ex = loop {
        if let Some(ex) = EXECUTOR.get() {
            break ex;
        }
        std::thread::yield_now();
    };
    loop {
        let next = {
            let mut ready = ex.ready.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(event) = ready.pop_front() {
                    break event;
                }
                ex.idle.fetch_add(1, Ordering::AcqRel);
                ready = ex.wake.wait(ready).unwrap_or_else(|e| e.into_inner());
                ex.idle.fetch_sub(1, Ordering::AcqRel);
            }
        };
        next.run();
    }
}
