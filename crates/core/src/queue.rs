//! Command queues (`cl_command_queue`) and the commands they carry.
//!
//! Enqueueing a command builds its event, links it behind the events it must wait for (its
//! wait list, plus what the queue's order adds: the previous command of an in-order queue, the
//! last barrier of an out-of-order one), and submits it at once, so `clFlush` has nothing left
//! to issue. The executor runs each command when its dependencies have ended.

use std::sync::{Arc, Mutex, MutexGuard, Weak};

use crate::context::Context;
use crate::device::{queue_props, Device};
use crate::error::{ClError, ClResult};
use crate::event::{command, Event};
use crate::memory::{self, Location, MemObject, Rect};
use crate::object::IcdHeader;

/// What a command does when it runs.
pub enum Work {
    /// Markers, barriers and unmaps: nothing to do but keep their objects alive until they
    /// end.
    Nothing(Vec<Arc<MemObject>>),
    /// A map: the object's bytes in host memory made current for the host to read them (and
    /// write them, where `writes`).
    Map { mem: Arc<MemObject>, writes: bool },
    /// `clEnqueueMigrateMemObjects` to the queue's device, or to the host where `host`;
    /// `discard`: `CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED`.
    Migrate {
        mems: Vec<Arc<MemObject>>,
        device: Arc<Device>,
        host: bool,
        discard: bool,
    },
    /// Read, write and copy of buffers.
    Copy {
        src: Location,
        dst: Location,
        size: usize,
    },
    /// The `*Rect` transfers.
    CopyRect {
        src: Location,
        dst: Location,
        rect: Rect,
    },
    Fill {
        dst: Arc<MemObject>,
        offset: usize,
        size: usize,
        pattern: Vec<u8>,
    },
    /// A host function (the CPU device's native kernels, and the runtime's own host work).
    Host(Box<dyn FnOnce() -> ClResult<()> + Send>),
    /// A kernel launch, with its arguments bound; it returns the device's own measure of the
    /// kernel's run in nanoseconds, where the device gives one (`DeviceKernel::launch`).
    Kernel(Box<dyn FnOnce() -> ClResult<Option<u64>> + Send>),
}

impl Work {
    /// Does the work for a queue of `device` (`None`: a user event's); `Some(ns)` when the
    /// device measured the time it ran on its own clock.
    pub(crate) fn execute(self, device: Option<&Arc<Device>>) -> ClResult<Option<u64>> {
        match self {
            Work::Nothing(_) => Ok(None),
            Work::Map { mem, writes } => mem.for_host(writes).map(|()| None),
            Work::Migrate {
                mems,
                device,
                host,
                discard,
            } => {
                let to = (!host).then_some(&device);
                for mem in &mems {
                    mem.migrate(to, discard)?;
                }
                Ok(None)
            }
            Work::Copy { src, dst, size } => memory::copy(&src, &dst, size, device).map(|()| None),
            Work::CopyRect { src, dst, rect } => {
                memory::copy_rect(&src, &dst, &rect).map(|()| None)
            }
            Work::Fill {
                dst,
                offset,
                size,
                pattern,
            } => memory::fill(&dst, offset, size, &pattern).map(|()| None),
            Work::Host(f) => f().map(|()| None),
            Work::Kernel(f) => f(),
        }
    }
}

/// How a command takes part in the queue's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Command,
    /// Waits for every earlier command when its wait list is empty.
    Marker,
    /// As a marker, and every later command waits for it.
    Barrier,
}

#[derive(Default)]
struct Order {
    /// The last command (in-order queues).
    last: Weak<Event>,
    /// The last barrier (out-of-order queues).
    barrier: Weak<Event>,
    /// Commands since the last barrier (out-of-order queues).
    since_barrier: Vec<Weak<Event>>,
    prune_at: usize,
}

/// A command queue (`cl_command_queue`).
#[repr(C)]
pub struct CommandQueue {
    icd: IcdHeader,
    pub context: Arc<Context>,
    pub device: Arc<Device>,
    /// `CL_QUEUE_PROPERTIES`.
    pub properties: u64,
    /// `CL_QUEUE_PROPERTIES_ARRAY`: the list given to `clCreateCommandQueueWithProperties`,
    /// without its terminating zero.
    pub properties_array: Vec<u64>,
    order: Mutex<Order>,
}

impl CommandQueue {
    pub fn new(
        context: Arc<Context>,
        device: Arc<Device>,
        properties: u64,
        properties_array: Vec<u64>,
    ) -> Arc<CommandQueue> {
        Arc::new(CommandQueue {
            icd: IcdHeader::new(),
            context,
            device,
            properties,
            properties_array,
            order: Mutex::new(Order {
                prune_at: 64,
                ..Order::default()
            }),
        })
    }

    pub fn out_of_order(&self) -> bool {
        self.properties & queue_props::OUT_OF_ORDER_EXEC_MODE_ENABLE != 0
    }

    pub fn profiling_enabled(&self) -> bool {
        self.properties & queue_props::PROFILING_ENABLE != 0
    }

    fn order(&self) -> MutexGuard<'_, Order> {
        self.order.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Checks a wait list against this queue. 5.11 (and every enqueue function):
    /// CL_INVALID_CONTEXT "if the context associated with command_queue and events in
    /// event_wait_list are not the same".
    pub fn check_wait_list(&self, wait_list: &[Arc<Event>]) -> ClResult<()> {
        if wait_list
            .iter()
            .any(|e| !Arc::ptr_eq(&e.context, &self.context))
        {
            return Err(ClError::InvalidContext);
        }
        Ok(())
    }

    /// Enqueues a command; returns its event.
    pub fn enqueue(
        self: &Arc<Self>,
        command_type: u32,
        work: Work,
        wait_list: &[Arc<Event>],
    ) -> ClResult<Arc<Event>> {
        self.enqueue_as(Role::Command, command_type, work, wait_list)
    }

    /// `clEnqueueMarkerWithWaitList`: with an empty wait list, it waits for every command
    /// enqueued before it.
    pub fn enqueue_marker(self: &Arc<Self>, wait_list: &[Arc<Event>]) -> ClResult<Arc<Event>> {
        self.enqueue_as(
            Role::Marker,
            command::MARKER,
            Work::Nothing(Vec::new()),
            wait_list,
        )
    }

    /// `clEnqueueBarrierWithWaitList`: as a marker, and later commands wait for it.
    pub fn enqueue_barrier(self: &Arc<Self>, wait_list: &[Arc<Event>]) -> ClResult<Arc<Event>> {
        self.enqueue_as(
            Role::Barrier,
            command::BARRIER,
            Work::Nothing(Vec::new()),
            wait_list,
        )
    }

    fn enqueue_as(
        self: &Arc<Self>,
        role: Role,
        command_type: u32,
        work: Work,
        wait_list: &[Arc<Event>],
    ) -> ClResult<Arc<Event>> {
        self.check_wait_list(wait_list)?;
        let event = Arc::new(Event::new_command(self.clone(), command_type, work));
        let implicit = {
            let mut order = self.order();
            let implicit = self.implicit_dependencies(&mut order, role, wait_list.is_empty());
            self.record(&mut order, role, &event);
            implicit
        };
        event.submit(wait_list, &implicit);
        Ok(event)
    }

    fn implicit_dependencies(
        &self,
        order: &mut Order,
        role: Role,
        empty_wait_list: bool,
    ) -> Vec<Arc<Event>> {
        if !self.out_of_order() {
            return order.last.upgrade().into_iter().collect();
        }
        let mut deps: Vec<Arc<Event>> = order.barrier.upgrade().into_iter().collect();
        if role != Role::Command && empty_wait_list {
            deps.extend(order.since_barrier.iter().filter_map(Weak::upgrade));
        }
        deps
    }

    fn record(&self, order: &mut Order, role: Role, event: &Arc<Event>) {
        if !self.out_of_order() {
            order.last = Arc::downgrade(event);
            return;
        }
        if role == Role::Barrier {
            order.barrier = Arc::downgrade(event);
        }
        order.since_barrier.push(Arc::downgrade(event));
        if order.since_barrier.len() >= order.prune_at {
            order
                .since_barrier
                .retain(|w| w.upgrade().is_some_and(|e| !e.has_ended()));
            order.prune_at = (order.since_barrier.len() * 2).max(64);
        }
    }

    /// `clFinish`: blocks until every command enqueued so far has ended.
    pub fn finish(&self) -> ClResult<()> {
        let pending: Vec<Arc<Event>> = {
            let order = self.order();
            let mut pending: Vec<Arc<Event>> = order.last.upgrade().into_iter().collect();
            pending.extend(order.barrier.upgrade());
            pending.extend(order.since_barrier.iter().filter_map(Weak::upgrade));
            pending
        };
        for event in pending {
            event.wait();
        }
        Ok(())
    }

    /// `clFlush`: "issues all previously queued OpenCL commands in command_queue to the device
    /// associated with command_queue". Commands are issued as they are enqueued, so there is
    /// nothing left to issue.
    pub fn flush(&self) -> ClResult<()> {
        Ok(())
    }
}

impl std::fmt::Debug for CommandQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandQueue")
            .field("properties", &self.properties)
            .finish()
    }
}
