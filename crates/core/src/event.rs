//! Events: the status of one command (or a user event), its profiling timestamps, the
//! callbacks registered on it, and the commands that wait for it.
//!
//! A command's event counts the events it still waits for; when the count reaches zero the
//! command is handed to the [`crate::executor`]. Ending an event releases its waiters.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use crate::clock;
use crate::context::Context;
use crate::error::{ClError, ClResult};
use crate::object::IcdHeader;
use crate::queue::{CommandQueue, Work};

/// Execution statuses (`cl_int`): `CL_COMPLETE` 0, `CL_RUNNING` 1, `CL_SUBMITTED` 2,
/// `CL_QUEUED` 3; a negative value is an error code that terminated the command.
pub mod status {
    pub const COMPLETE: i32 = 0;
    pub const RUNNING: i32 = 1;
    pub const SUBMITTED: i32 = 2;
    pub const QUEUED: i32 = 3;
}

/// `cl_command_type` values.
pub mod command {
    pub const NDRANGE_KERNEL: u32 = 0x11F0;
    pub const TASK: u32 = 0x11F1;
    pub const NATIVE_KERNEL: u32 = 0x11F2;
    pub const READ_BUFFER: u32 = 0x11F3;
    pub const WRITE_BUFFER: u32 = 0x11F4;
    pub const COPY_BUFFER: u32 = 0x11F5;
    pub const MAP_BUFFER: u32 = 0x11FB;
    pub const UNMAP_MEM_OBJECT: u32 = 0x11FD;
    pub const MARKER: u32 = 0x11FE;
    pub const READ_BUFFER_RECT: u32 = 0x1201;
    pub const WRITE_BUFFER_RECT: u32 = 0x1202;
    pub const COPY_BUFFER_RECT: u32 = 0x1203;
    pub const USER: u32 = 0x1204;
    pub const BARRIER: u32 = 0x1205;
    pub const MIGRATE_MEM_OBJECTS: u32 = 0x1206;
    pub const FILL_BUFFER: u32 = 0x1207;
}

/// Which profiling timestamp (`CL_PROFILING_COMMAND_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timestamp {
    Queued = 0,
    Submit = 1,
    Start = 2,
    End = 3,
    Complete = 4,
}

/// An event callback; it receives the status it reports.
pub type EventCallback = Box<dyn FnOnce(i32) + Send>;

struct State {
    status: i32,
    /// Callbacks not yet called, with the status each was registered for.
    callbacks: Vec<(i32, EventCallback)>,
    /// Commands waiting for this event to end; `true` marks an explicit wait-list entry,
    /// whose failure terminates the waiter.
    waiters: Vec<(Arc<Event>, bool)>,
    /// The command to run once every dependency has ended; taken when it runs.
    work: Option<Work>,
    /// The thread calling this event's callbacks after it ended; host waits return only
    /// once it is done, so a program that waits for an event sees its callbacks' effects.
    calling_back: Option<std::thread::ThreadId>,
}

/// An event (`cl_event`).
#[repr(C)]
pub struct Event {
    icd: IcdHeader,
    pub context: Arc<Context>,
    /// The queue of the command; `None` for a user event.
    pub queue: Option<Arc<CommandQueue>>,
    pub command_type: u32,
    state: Mutex<State>,
    ended: Condvar,
    /// Dependencies not yet ended, plus one held while the command is being enqueued.
    pending: AtomicUsize,
    /// Set when an event of the explicit wait list ended in error.
    failed_dependency: AtomicBool,
    timestamps: [AtomicU64; 5],
}

impl Event {
    /// A user event (`clCreateUserEvent`): "The execution status of the user event object
    /// created is set to CL_SUBMITTED." (5.11)
    pub fn new_user(context: Arc<Context>) -> Arc<Event> {
        Arc::new(Event::build(
            context,
            None,
            command::USER,
            status::SUBMITTED,
            None,
        ))
    }

    /// The event of a command being enqueued; it runs once [`Event::submit`] is called and its
    /// dependencies have ended.
    pub(crate) fn new_command(queue: Arc<CommandQueue>, command_type: u32, work: Work) -> Event {
        let context = queue.context.clone();
        let event = Event::build(
            context,
            Some(queue),
            command_type,
            status::QUEUED,
            Some(work),
        );
        event.timestamps[Timestamp::Queued as usize].store(clock::now_ns(), Ordering::Relaxed);
        event
    }

    fn build(
        context: Arc<Context>,
        queue: Option<Arc<CommandQueue>>,
        command_type: u32,
        initial: i32,
        work: Option<Work>,
    ) -> Event {
        Event {
            icd: IcdHeader::new(),
            context,
            queue,
            command_type,
            state: Mutex::new(State {
                status: initial,
                callbacks: Vec::new(),
                waiters: Vec::new(),
                work,
                calling_back: None,
            }),
            ended: Condvar::new(),
            pending: AtomicUsize::new(1),
            failed_dependency: AtomicBool::new(false),
            timestamps: Default::default(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held leaves plain data behind; keep using it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The execution status (`CL_EVENT_COMMAND_EXECUTION_STATUS`).
    pub fn status(&self) -> i32 {
        self.lock().status
    }

    /// Whether the event has ended, successfully or not.
    pub fn has_ended(&self) -> bool {
        self.status() <= status::COMPLETE
    }

    pub fn is_user_event(&self) -> bool {
        self.queue.is_none()
    }

    /// A profiling timestamp, in nanoseconds of the device's clock.
    ///
    /// 5.14: CL_PROFILING_INFO_NOT_AVAILABLE "if the CL_QUEUE_PROFILING_ENABLE flag is not set
    /// for the command-queue, if the execution status of the command identified by event is not
    /// CL_COMPLETE or if event is a user event object".
    pub fn profiling(&self, which: Timestamp) -> ClResult<u64> {
        let Some(queue) = &self.queue else {
            return Err(ClError::ProfilingInfoNotAvailable);
        };
        if !queue.profiling_enabled() || self.status() != status::COMPLETE {
            return Err(ClError::ProfilingInfoNotAvailable);
        }
        Ok(self.timestamps[which as usize].load(Ordering::Acquire))
    }

    /// `clSetUserEventStatus`: `execution_status` is `CL_COMPLETE` or a negative error.
    pub fn set_user_status(self: &Arc<Self>, execution_status: i32) -> ClResult<()> {
        if !self.is_user_event() {
            return Err(ClError::InvalidEvent);
        }
        // 5.11: CL_INVALID_VALUE if the execution_status is not CL_COMPLETE or a negative
        // integer value.
        if execution_status > status::COMPLETE {
            return Err(ClError::InvalidValue);
        }
        {
            let mut state = self.lock();
            // 5.11: CL_INVALID_OPERATION if the execution_status for event has already been
            // changed by a previous call to clSetUserEventStatus.
            if state.status != status::SUBMITTED {
                return Err(ClError::InvalidOperation);
            }
            // Claim the transition under the lock so two racing calls cannot both succeed.
            state.status = status::RUNNING;
        }
        self.end(execution_status);
        Ok(())
    }

    /// Registers `callback` for `command_status` (`CL_SUBMITTED`, `CL_RUNNING` or
    /// `CL_COMPLETE`). A callback whose status was already reached is called at once.
    pub fn set_callback(&self, command_status: i32, callback: EventCallback) {
        let mut state = self.lock();
        if state.status <= command_status && !self.user_event_claimed(&state) {
            let reported = if state.status < 0 {
                state.status
            } else {
                command_status
            };
            drop(state);
            callback(reported);
            return;
        }
        state.callbacks.push((command_status, callback));
    }

    /// A user event whose status is being set passes through `RUNNING` internally; callbacks
    /// registered in that instant wait for the end.
    fn user_event_claimed(&self, state: &State) -> bool {
        self.is_user_event() && state.status == status::RUNNING
    }

    /// Makes `self` wait for `explicit` (the wait list) and `implicit` (queue order), marks it
    /// submitted, and hands it to the executor once nothing is left to wait for.
    pub(crate) fn submit(self: &Arc<Self>, explicit: &[Arc<Event>], implicit: &[Arc<Event>]) {
        for dep in explicit {
            dep.add_waiter(self, true);
        }
        for dep in implicit {
            dep.add_waiter(self, false);
        }
        self.timestamps[Timestamp::Submit as usize].store(clock::now_ns(), Ordering::Relaxed);
        self.advance(status::SUBMITTED);
        self.release_one();
    }

    fn add_waiter(&self, waiter: &Arc<Event>, explicit: bool) {
        let mut state = self.lock();
        if state.status <= status::COMPLETE && !self.user_event_claimed(&state) {
            if explicit && state.status < 0 {
                waiter.failed_dependency.store(true, Ordering::Release);
            }
            return;
        }
        waiter.pending.fetch_add(1, Ordering::AcqRel);
        state.waiters.push((waiter.clone(), explicit));
    }

    /// Drops one pending count; the last one makes the command ready to run.
    fn release_one(self: &Arc<Self>) {
        if self.pending.fetch_sub(1, Ordering::AcqRel) == 1 {
            if self.failed_dependency.load(Ordering::Acquire) {
                // 5.11: commands waiting on an event that ended in error are terminated
                // with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
                self.lock().work = None;
                self.end(ClError::ExecStatusErrorForEventsInWaitList.code());
            } else {
                crate::executor::ready(self.clone());
            }
        }
    }

    /// Runs the command on the calling thread: `RUNNING`, the work, then the end.
    pub(crate) fn run(self: &Arc<Self>) {
        let work = self.lock().work.take();
        self.timestamps[Timestamp::Start as usize].store(clock::now_ns(), Ordering::Relaxed);
        self.advance(status::RUNNING);
        // A panic in the runtime's own work (an internal error, never the application's)
        // ends the command abnormally instead of ending the thread that runs it, which would
        // leave the event, and every wait for it, unfinished. API 3.0, 3.2.1: "Unsuccessful
        // completion results in abnormal termination of the command which is indicated by
        // setting the event status to a negative value."
        let device = self.queue.as_ref().map(|q| &q.device);
        let result = match work {
            Some(work) => {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work.execute(device)))
                    .unwrap_or_else(|panic| {
                        let message = crate::error::panic_message(&*panic);
                        eprintln!("ferrocl: internal error running a command: {message}");
                        Err(ClError::OutOfResources)
                    })
            }
            None => Ok(None),
        };
        let now = clock::now_ns();
        if let Ok(Some(ns)) = result {
            // The device timed the command on its own clock: it started that long before
            // it was seen to end (and not before the host started it). API 3.0, 5.15: START
            // is "when the command identified by event starts execution on the device".
            let start = &self.timestamps[Timestamp::Start as usize];
            let host_start = start.load(Ordering::Relaxed);
            start.store(now.saturating_sub(ns).max(host_start), Ordering::Relaxed);
        }
        self.end_at(
            match result {
                Ok(_) => status::COMPLETE,
                Err(e) => e.code(),
            },
            now,
        );
    }

    /// Moves to a non-final status and calls the callbacks registered for it.
    fn advance(&self, new_status: i32) {
        let due = {
            let mut state = self.lock();
            if state.status <= new_status {
                return;
            }
            state.status = new_status;
            take_due(&mut state.callbacks, new_status)
        };
        for (_, callback) in due {
            callback(new_status);
        }
    }

    /// Ends the event with `final_status` (`CL_COMPLETE` or an error): wakes the threads
    /// waiting for it, releases the commands waiting for it, and calls the callbacks.
    fn end(self: &Arc<Self>, final_status: i32) {
        self.end_at(final_status, clock::now_ns());
    }

    /// [`Self::end`] at the time `now` of the host's clock.
    fn end_at(self: &Arc<Self>, final_status: i32, now: u64) {
        self.timestamps[Timestamp::End as usize].store(now, Ordering::Relaxed);
        self.timestamps[Timestamp::Complete as usize].store(now, Ordering::Release);
        let (callbacks, waiters) = {
            let mut state = self.lock();
            state.status = final_status;
            let callbacks = std::mem::take(&mut state.callbacks);
            let waiters = std::mem::take(&mut state.waiters);
            if !callbacks.is_empty() {
                state.calling_back = Some(std::thread::current().id());
            }
            (callbacks, waiters)
        };
        self.ended.notify_all();
        for (waiter, explicit) in waiters {
            if explicit && final_status < 0 {
                waiter.failed_dependency.store(true, Ordering::Release);
            }
            waiter.release_one();
        }
        // Callbacks in the order of their statuses: submitted, running, then complete.
        if callbacks.is_empty() {
            return;
        }
        let mut callbacks = callbacks;
        callbacks.sort_by_key(|(s, _)| std::cmp::Reverse(*s));
        for (registered, callback) in callbacks {
            callback(if final_status < 0 {
                final_status
            } else {
                registered
            });
        }
        // The host waits held back by `calling_back` may return now.
        self.lock().calling_back = None;
        self.ended.notify_all();
    }

    /// Whether a host wait on this event is over: it ended and its callbacks have been
    /// called (a callback that waits for its own event is not kept waiting).
    fn settled(&self, state: &State) -> bool {
        state.status <= status::COMPLETE
            && !self.user_event_claimed(state)
            && state
                .calling_back
                .is_none_or(|thread| thread == std::thread::current().id())
    }

    /// Blocks until the event ends and returns its final status. While waiting, the calling
    /// thread runs commands that are ready, so a short command finishes without a thread
    /// switch.
    pub fn wait(&self) -> i32 {
        loop {
            {
                let state = self.lock();
                if self.settled(&state) {
                    return state.status;
                }
            }
            if crate::executor::help_once() {
                continue;
            }
            let state = self.lock();
            if self.settled(&state) {
                return state.status;
            }
            // Wake up now and then to help with commands that became ready meanwhile.
            let timeout = std::time::Duration::from_millis(1);
            drop(
                self.ended
                    .wait_timeout(state, timeout)
                    .unwrap_or_else(|e| e.into_inner()),
            );
        }
    }
}

fn take_due(callbacks: &mut Vec<(i32, EventCallback)>, reached: i32) -> Vec<(i32, EventCallback)> {
    let mut due = Vec::new();
    let mut i = 0;
    while i < callbacks.len() {
        if callbacks[i].0 >= reached {
            due.push(callbacks.remove(i));
        } else {
            i += 1;
        }
    }
    due
}

impl std::fmt::Debug for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Event")
            .field("command_type", &self.command_type)
            .field("status", &self.status())
            .finish()
    }
}

/// Waits for every event (`clWaitForEvents`); CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
/// "if the execution status of any of the events in event_list is a negative integer value".
pub fn wait_for_events(events: &[Arc<Event>]) -> ClResult<()> {
    let mut failed = false;
    for event in events {
        failed |= event.wait() < 0;
    }
    if failed {
        Err(ClError::ExecStatusErrorForEventsInWaitList)
    } else {
        Ok(())
    }
}
