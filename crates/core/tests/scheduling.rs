//! Command scheduling through the runtime objects: queue order, barriers, user events, error
//! propagation, callbacks and profiling timestamps.

mod builtins_harness;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use ferrocl_core::device::queue_props;
use ferrocl_core::event::{self, status, Timestamp};
use ferrocl_core::memory::{flags, Location};
use ferrocl_core::{ClError, CommandQueue, Context, Event, HostPtr, MemObject, Work};

fn context() -> Arc<Context> {
    Context::new(
        builtins_harness::platform().devices().to_vec(),
        Vec::new(),
        false,
        None,
    )
}

fn queue(context: &Arc<Context>, props: u64) -> Arc<CommandQueue> {
    CommandQueue::new(
        context.clone(),
        context.devices[0].clone(),
        props,
        Vec::new(),
    )
}

/// A command that appends `n` to `log` when it runs.
fn record(log: &Arc<Mutex<Vec<u32>>>, n: u32) -> Work {
    let log = log.clone();
    Work::Host(Box::new(move || {
        log.lock().unwrap().push(n);
        Ok(())
    }))
}

#[test]
fn in_order_queue_runs_commands_in_order() {
    let ctx = context();
    let q = queue(&ctx, 0);
    let gate = Event::new_user(ctx.clone());
    let log = Arc::new(Mutex::new(Vec::new()));
    // The first command waits for the gate; the others must still run after it.
    q.enqueue(0, record(&log, 0), std::slice::from_ref(&gate))
        .unwrap();
    for i in 1..50 {
        q.enqueue(0, record(&log, i), &[]).unwrap();
    }
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert!(
        log.lock().unwrap().is_empty(),
        "commands ran before the gate opened"
    );
    gate.set_user_status(status::COMPLETE).unwrap();
    q.finish().unwrap();
    assert_eq!(*log.lock().unwrap(), (0..50).collect::<Vec<_>>());
}

#[test]
fn out_of_order_barrier_separates_commands() {
    let ctx = context();
    let q = queue(&ctx, queue_props::OUT_OF_ORDER_EXEC_MODE_ENABLE);
    let gate = Event::new_user(ctx.clone());
    let log = Arc::new(Mutex::new(Vec::new()));
    let before = q
        .enqueue(0, record(&log, 1), std::slice::from_ref(&gate))
        .unwrap();
    // Not gated, and not ordered after `before`: it may run at once.
    let free = q.enqueue(0, record(&log, 2), &[]).unwrap();
    assert_eq!(free.wait(), status::COMPLETE);
    let barrier = q.enqueue_barrier(&[]).unwrap();
    let after = q.enqueue(0, record(&log, 3), &[]).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert_eq!(*log.lock().unwrap(), vec![2]);
    assert!(!barrier.has_ended() && !after.has_ended());
    gate.set_user_status(status::COMPLETE).unwrap();
    q.finish().unwrap();
    assert_eq!(*log.lock().unwrap(), vec![2, 1, 3]);
    assert!(before.has_ended());
}

#[test]
fn failed_wait_list_event_terminates_dependents() {
    let ctx = context();
    let q = queue(&ctx, 0);
    let gate = Event::new_user(ctx.clone());
    let log = Arc::new(Mutex::new(Vec::new()));
    let gated = q
        .enqueue(0, record(&log, 1), std::slice::from_ref(&gate))
        .unwrap();
    let next = q.enqueue(0, record(&log, 2), &[]).unwrap();
    gate.set_user_status(-100).unwrap();
    assert_eq!(
        gated.wait(),
        ClError::ExecStatusErrorForEventsInWaitList.code()
    );
    // Queue order alone does not pass the failure on.
    assert_eq!(next.wait(), status::COMPLETE);
    assert_eq!(*log.lock().unwrap(), vec![2]);
    assert_eq!(
        event::wait_for_events(&[gated]),
        Err(ClError::ExecStatusErrorForEventsInWaitList)
    );
}

#[test]
fn a_command_whose_work_panics_ends_abnormally_and_the_queue_goes_on() {
    let ctx = context();
    let q = queue(&ctx, 0);
    let log = Arc::new(Mutex::new(Vec::new()));
    let failed = q
        .enqueue(0, Work::Host(Box::new(|| panic!("an internal error"))), &[])
        .unwrap();
    let next = q.enqueue(0, record(&log, 1), &[]).unwrap();
    assert_eq!(failed.wait(), ClError::OutOfResources.code());
    assert_eq!(next.wait(), status::COMPLETE);
    assert_eq!(*log.lock().unwrap(), vec![1]);
    q.finish().unwrap();
}

#[test]
fn user_event_status_is_set_once() {
    let ctx = context();
    let e = Event::new_user(ctx);
    assert_eq!(e.status(), status::SUBMITTED);
    assert_eq!(e.set_user_status(1), Err(ClError::InvalidValue));
    e.set_user_status(status::COMPLETE).unwrap();
    assert_eq!(
        e.set_user_status(status::COMPLETE),
        Err(ClError::InvalidOperation)
    );
    assert_eq!(
        e.profiling(Timestamp::Queued),
        Err(ClError::ProfilingInfoNotAvailable)
    );
}

#[test]
fn callbacks_see_each_status_once() {
    let ctx = context();
    let q = queue(&ctx, 0);
    let gate = Event::new_user(ctx.clone());
    let e = q
        .enqueue(0, Work::Nothing(Vec::new()), std::slice::from_ref(&gate))
        .unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    for s in [status::COMPLETE, status::RUNNING, status::SUBMITTED] {
        let seen = seen.clone();
        e.set_callback(
            s,
            Box::new(move |reported| seen.lock().unwrap().push((s, reported))),
        );
    }
    gate.set_user_status(status::COMPLETE).unwrap();
    e.wait();
    // Callbacks run on the thread that ends the event, right after it ended.
    let mut seen = seen.lock().unwrap().clone();
    seen.sort();
    assert_eq!(seen, vec![(0, 0), (1, 1), (2, 2)]);
    // Registered after the end: called at once.
    let late = Arc::new(AtomicUsize::new(0));
    let l = late.clone();
    e.set_callback(
        status::RUNNING,
        Box::new(move |_| {
            l.fetch_add(1, Ordering::SeqCst);
        }),
    );
    assert_eq!(late.load(Ordering::SeqCst), 1);
}

#[test]
fn profiling_timestamps_are_ordered() {
    let ctx = context();
    let q = queue(&ctx, queue_props::PROFILING_ENABLE);
    let e = q.enqueue(0, Work::Nothing(Vec::new()), &[]).unwrap();
    e.wait();
    let t: Vec<u64> = [
        Timestamp::Queued,
        Timestamp::Submit,
        Timestamp::Start,
        Timestamp::End,
        Timestamp::Complete,
    ]
    .iter()
    .map(|&w| e.profiling(w).unwrap())
    .collect();
    assert!(t.windows(2).all(|w| w[0] <= w[1]), "{t:?}");
    let unprofiled = queue(&ctx, 0)
        .enqueue(0, Work::Nothing(Vec::new()), &[])
        .unwrap();
    unprofiled.wait();
    assert_eq!(
        unprofiled.profiling(Timestamp::Start),
        Err(ClError::ProfilingInfoNotAvailable)
    );
}

#[test]
fn buffer_copies_between_host_and_device() {
    let ctx = context();
    let q = queue(&ctx, 0);
    let mut src: Vec<u32> = (0..1024).collect();
    // SAFETY: src outlives the buffer, which is released at the end of the test.
    let host = unsafe { HostPtr::new(src.as_mut_ptr().cast()) };
    let buf = MemObject::new_buffer(
        ctx.clone(),
        flags::READ_WRITE | flags::COPY_HOST_PTR,
        4096,
        Some(host),
        Vec::new(),
    )
    .unwrap();
    let mut out = vec![0u32; 1024];
    // SAFETY: out lives until the command has ended (waited below).
    let dst = unsafe { HostPtr::new(out.as_mut_ptr().cast()) };
    let e = q
        .enqueue(
            0,
            Work::Copy {
                src: Location::Mem(buf.clone(), 0),
                dst: Location::Host(dst),
                size: 4096,
            },
            &[],
        )
        .unwrap();
    assert_eq!(e.wait(), status::COMPLETE);
    assert_eq!(out, src);
    let sub = MemObject::new_sub_buffer(&buf, flags::READ_WRITE, 128, 256);
    q.enqueue(
        0,
        Work::Fill {
            dst: sub.clone(),
            offset: 0,
            size: 256,
            pattern: vec![0xab],
        },
        &[],
    )
    .unwrap();
    let e = q
        .enqueue(
            0,
            Work::Copy {
                src: Location::Mem(buf, 0),
                dst: Location::Host(dst),
                size: 4096,
            },
            &[],
        )
        .unwrap();
    e.wait();
    let bytes: Vec<u8> = out.iter().flat_map(|w| w.to_ne_bytes()).collect();
    assert!(bytes[128..384].iter().all(|&b| b == 0xab));
    assert_eq!(
        &bytes[..128],
        &src.iter()
            .flat_map(|w| w.to_ne_bytes())
            .collect::<Vec<u8>>()[..128]
    );
}

#[test]
fn many_threads_enqueue_and_wait() {
    let ctx = context();
    let counter = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let ctx = ctx.clone();
            let counter = counter.clone();
            std::thread::spawn(move || {
                let q = queue(&ctx, 0);
                for _ in 0..200 {
                    let c = counter.clone();
                    q.enqueue(
                        0,
                        Work::Host(Box::new(move || {
                            c.fetch_add(1, Ordering::SeqCst);
                            Ok(())
                        })),
                        &[],
                    )
                    .unwrap();
                }
                q.finish().unwrap();
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(counter.load(Ordering::SeqCst), 1600);
}
