//! Where a memory object's bytes are current: the host's storage, and copies in the memory of
//! devices that have their own (a GPU's, [`DeviceMemory`]).
//!
//! A buffer and its sub-buffers share one [`Backing`]: the host's bytes, which the CPU device's
//! kernels and the runtime's own commands address directly, and a copy for each device with
//! memory of its own that has used them. Each copy, the host's included, is *current* or not;
//! at least one always is. A command brings its own end up to date when it runs (never when it
//! is enqueued: commands before it may still change the bytes), from a current copy, and a
//! command that writes leaves only what it wrote current:
//! - a kernel on a device with memory of its own ([`Backing::for_device`]): the device's copy,
//!   uploaded from the host (or first brought to the host from another device) when stale;
//! - a kernel on the CPU device, a map, a native kernel, an image command
//!   ([`Backing::for_host`]): the host's bytes, downloaded when stale;
//! - reads, writes, copies and fills of buffers go to whichever copy is current, without
//!   moving the rest of the buffer (`read`, `write`, `copy`, `fill`).
//!
//! This is the "migrate on demand" the memory model allows: API 5.4, "Memory objects ... are
//! migrated to the device ... on demand", and `clEnqueueMigrateMemObjects` moves them ahead of
//! time ([`Backing::migrate`]). Commands that touch the same bytes are ordered by their events
//! (the application's duty, 5.13); the lock here only keeps the bookkeeping whole.

use std::sync::{Arc, Mutex, MutexGuard};

use ferrocl_device::{DeviceCopy, DeviceMemory, Storage};

use crate::device::Device;
use crate::error::{ClError, ClResult};

/// The bytes of one memory object and of those that share them.
pub(crate) struct Backing {
    host: Storage,
    /// The host's bytes are every device's too (shared virtual memory, which each device
    /// addresses where the host does): no copies are made.
    shared: bool,
    state: Mutex<State>,
}

struct State {
    /// Whether the host's bytes are current.
    host: bool,
    /// Whether anything ever wrote the bytes: a new buffer's bytes are zero, and a device's
    /// first copy of them is cleared on the device instead of uploaded.
    written: bool,
    copies: Vec<Resident>,
}

impl State {
    /// The index of a current device copy; only called where the host's bytes are stale, so
    /// that one is (at least one copy is always current).
    fn current(&self) -> usize {
        self.copies
            .iter()
            .position(|c| c.current)
            .expect("some copy is current")
    }

    /// After a write to copy `i`: it alone is current.
    fn only(&mut self, i: usize) {
        self.host = false;
        for (j, c) in self.copies.iter_mut().enumerate() {
            c.current = j == i;
        }
    }

    /// After a write to the host's bytes: they alone are current.
    fn host_only(&mut self) {
        self.host = true;
        self.copies.iter_mut().for_each(|c| c.current = false);
    }
}

/// A device's copy.
struct Resident {
    device: Arc<Device>,
    copy: DeviceCopy,
    current: bool,
}

impl Resident {
    fn memory(&self) -> &dyn DeviceMemory {
        memory_of(&self.device).expect("copies are kept only on devices with memory")
    }
}

fn memory_of(device: &Device) -> Option<&dyn DeviceMemory> {
    device.backend().memory()
}

impl Backing {
    /// Bytes whose host storage is `host`; `written` where they hold data already (copied from
    /// the application's, or its own memory with `CL_MEM_USE_HOST_PTR`).
    pub(crate) fn new(host: Storage, written: bool) -> Backing {
        Backing {
            host,
            shared: false,
            state: Mutex::new(State {
                host: true,
                written,
                copies: Vec::new(),
            }),
        }
    }

    /// Bytes in shared virtual memory, which every device of the context addresses at the
    /// host's address.
    pub(crate) fn shared(host: Storage) -> Backing {
        Backing {
            shared: true,
            ..Backing::new(host, true)
        }
    }

    /// The host storage's first byte (its bytes are current only as [`Backing::for_host`]
    /// makes them).
    pub(crate) fn host_ptr(&self) -> *mut u8 {
        self.host.as_ptr()
    }

    pub(crate) fn len(&self) -> usize {
        self.host.len()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes the host's bytes current for a command that reads them, and that writes them
    /// where `writes` (the devices' copies are then stale).
    pub(crate) fn for_host(&self, writes: bool) -> ClResult<()> {
        let mut state = self.lock();
        self.bring_home(&mut state)?;
        if writes {
            state.written = true;
            state.host_only();
        }
        Ok(())
    }

    /// Downloads the bytes from a device's current copy when the host's are stale.
    fn bring_home(&self, state: &mut State) -> ClResult<()> {
        if state.host {
            return Ok(());
        }
        let c = &state.copies[state.current()];
        // SAFETY: the host storage and the copy both hold `len` bytes.
        unsafe {
            c.memory()
                .download(self.host.as_ptr(), c.copy.addr(), self.len())
        }?;
        state.host = true;
        Ok(())
    }

    /// The index of `device`'s copy, allocated (its contents stale) if it has none.
    fn copy_on(&self, state: &mut State, device: &Arc<Device>) -> ClResult<usize> {
        if let Some(i) = state
            .copies
            .iter()
            .position(|c| Arc::ptr_eq(&c.device, device))
        {
            return Ok(i);
        }
        let memory = memory_of(device).ok_or(ClError::InvalidDevice)?;
        let copy = memory.allocate(self.len())?;
        state.copies.push(Resident {
            device: device.clone(),
            copy,
            current: false,
        });
        Ok(state.copies.len() - 1)
    }

    /// Makes copy `i` current: cleared where the bytes were never written, else uploaded from
    /// the host (brought there first from another device if the host's are stale).
    fn refresh(&self, state: &mut State, i: usize) -> ClResult<()> {
        if state.copies[i].current {
            return Ok(());
        }
        let (device, addr) = (state.copies[i].device.clone(), state.copies[i].copy.addr());
        let memory = memory_of(&device).ok_or(ClError::InvalidDevice)?;
        if !state.written {
            if !memory.fill(addr, &[0], self.len())? {
                return Err(ClError::OutOfResources);
            }
        } else {
            self.bring_home(state)?;
            // SAFETY: the host storage and the copy both hold `len` bytes.
            unsafe { memory.upload(addr, self.host.as_ptr(), self.len()) }?;
        }
        state.copies[i].current = true;
        Ok(())
    }

    /// The device address of `device`'s copy, made current, for a kernel that reads it and,
    /// where `writes`, writes it (the host's bytes and the other copies are then stale).
    pub(crate) fn for_device(&self, device: &Arc<Device>, writes: bool) -> ClResult<u64> {
        if self.shared {
            return Ok(self.host.as_ptr() as u64);
        }
        let mut state = self.lock();
        let i = self.copy_on(&mut state, device)?;
        self.refresh(&mut state, i)?;
        if writes {
            state.written = true;
            state.only(i);
        }
        Ok(state.copies[i].copy.addr())
    }

    /// `clEnqueueMigrateMemObjects`: makes the bytes current on `device` (the host where
    /// `None`) without making the others stale; with `CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED`
    /// (`discard`) only places them there, their contents undefined.
    pub(crate) fn migrate(&self, device: Option<&Arc<Device>>, discard: bool) -> ClResult<()> {
        let mut state = self.lock();
        let device = device.filter(|d| memory_of(d).is_some() && !self.shared);
        match (device, discard) {
            (None, false) => self.bring_home(&mut state),
            (None, true) => {
                state.host_only();
                Ok(())
            }
            (Some(d), false) => {
                let i = self.copy_on(&mut state, d)?;
                self.refresh(&mut state, i)
            }
            (Some(d), true) => {
                let i = self.copy_on(&mut state, d)?;
                state.only(i);
                Ok(())
            }
        }
    }

    /// Copies `len` bytes at `offset` to the host at `dst`, from a current copy.
    pub(crate) fn read(&self, offset: usize, dst: *mut u8, len: usize) -> ClResult<()> {
        let state = self.lock();
        if state.host {
            // SAFETY: the caller checked `offset + len` against the object and guarantees
            // `dst` (HostPtr's contract); the ranges may overlap only through a mapped
            // pointer, hence memmove.
            unsafe { std::ptr::copy(self.host.as_ptr().add(offset), dst, len) };
            return Ok(());
        }
        let c = &state.copies[state.current()];
        // SAFETY: as above; the copy holds the object's bytes.
        unsafe { c.memory().download(dst, c.copy.addr() + offset as u64, len) }?;
        Ok(())
    }

    /// Copies `len` bytes from the host at `src` to `offset`, into every current copy; a write
    /// of all the bytes from a queue of a device with memory of its own (`device`) goes to
    /// that device's copy alone, where the kernels that follow it will want them, without a
    /// pass through the host's storage (a 256 MiB write from page-locked memory to a GPU:
    /// 7.5 GB/s through the host's bytes, the link's speed straight to the device).
    pub(crate) fn write(
        &self,
        offset: usize,
        src: *const u8,
        len: usize,
        device: Option<&Arc<Device>>,
    ) -> ClResult<()> {
        let mut state = self.lock();
        state.written = true;
        let device = device.filter(|d| memory_of(d).is_some() && !self.shared);
        if let Some(device) = device.filter(|_| offset == 0 && len == self.len()) {
            let i = self.copy_on(&mut state, device)?;
            let c = &state.copies[i];
            // SAFETY: as in `read`; the copy holds the object's `len` bytes.
            unsafe { c.memory().upload(c.copy.addr(), src, len) }?;
            state.only(i);
            return Ok(());
        }
        if state.host {
            // SAFETY: as in `read`.
            unsafe { std::ptr::copy(src, self.host.as_ptr().add(offset), len) };
        }
        for c in state.copies.iter().filter(|c| c.current) {
            // SAFETY: as in `read`.
            unsafe { c.memory().upload(c.copy.addr() + offset as u64, src, len) }?;
        }
        Ok(())
    }

    /// Fills `len` bytes at `offset` with copies of `pattern`: on the device whose copy alone
    /// is current where it can, else on the host.
    pub(crate) fn fill(&self, offset: usize, len: usize, pattern: &[u8]) -> ClResult<()> {
        let mut state = self.lock();
        state.written = true;
        if !state.host {
            let i = state.current();
            let c = &state.copies[i];
            if c.memory()
                .fill(c.copy.addr() + offset as u64, pattern, len)?
            {
                state.only(i);
                return Ok(());
            }
            self.bring_home(&mut state)?;
        }
        state.host_only();
        let base = self.host.as_ptr().wrapping_add(offset);
        let mut done = 0;
        while done < len {
            let n = pattern.len().min(len - done);
            // SAFETY: the caller checked `offset + len` against the object; the pattern is
            // the caller's own bytes.
            unsafe { std::ptr::copy_nonoverlapping(pattern.as_ptr(), base.add(done), n) };
            done += n;
        }
        Ok(())
    }

    /// Copies `len` bytes at `src_offset` of `src` to `dst_offset` of `dst` (the same
    /// backing, possibly: memmove semantics): on a device where both have current copies and
    /// the host's destination bytes are stale, else through the host.
    pub(crate) fn copy(
        src: &Backing,
        src_offset: usize,
        dst: &Backing,
        dst_offset: usize,
        len: usize,
    ) -> ClResult<()> {
        if std::ptr::eq(src, dst) {
            let mut state = src.lock();
            state.written = true;
            if !state.host {
                let i = state.current();
                let c = &state.copies[i];
                let at = c.copy.addr();
                c.memory()
                    .copy(at + dst_offset as u64, at + src_offset as u64, len)?;
                // Other current copies (a migration leaves several) are stale now.
                state.only(i);
                return Ok(());
            }
            state.host_only();
            let base = src.host.as_ptr();
            // SAFETY: both ranges were checked against the object; memmove semantics.
            unsafe { std::ptr::copy(base.add(src_offset), base.add(dst_offset), len) };
            return Ok(());
        }
        // Two backings: locked in address order, so that two copies between the same pair
        // in opposite directions cannot wait for each other.
        let (mut s, mut d) = if (src as *const Backing) < (dst as *const Backing) {
            let s = src.lock();
            (s, dst.lock())
        } else {
            let d = dst.lock();
            (src.lock(), d)
        };
        d.written = true;
        if !d.host {
            // The destination is current on a device only: copy there, from the source's
            // copy on that device, made current.
            let i = d.current();
            let device = d.copies[i].device.clone();
            let j = src.copy_on(&mut s, &device)?;
            src.refresh(&mut s, j)?;
            let (to, from) = (d.copies[i].copy.addr(), s.copies[j].copy.addr());
            d.copies[i]
                .memory()
                .copy(to + dst_offset as u64, from + src_offset as u64, len)?;
            d.only(i);
            return Ok(());
        }
        src.bring_home(&mut s)?;
        d.host_only();
        // SAFETY: both ranges were checked against their objects; different storage.
        unsafe {
            std::ptr::copy_nonoverlapping(
                src.host.as_ptr().add(src_offset),
                dst.host.as_ptr().add(dst_offset),
                len,
            )
        };
        Ok(())
    }
}
