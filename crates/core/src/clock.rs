//! The clock of the host and of the CPU device: `CLOCK_MONOTONIC` in nanoseconds. Profiling
//! timestamps, `clGetHostTimer` and `clGetDeviceAndHostTimer` all read it, so they compare.

/// Nanoseconds of the monotonic clock.
pub fn now_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_MONOTONIC always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    (ts.tv_sec as u64) * 1_000_000_000 + ts.tv_nsec as u64
}

/// The resolution of [`now_ns`] in nanoseconds (at least 1).
pub fn resolution_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: as in `now_ns`.
    let rc = unsafe { libc::clock_getres(libc::CLOCK_MONOTONIC, &mut ts) };
    if rc != 0 {
        return 1;
    }
    ((ts.tv_sec as u64) * 1_000_000_000 + ts.tv_nsec as u64).max(1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn monotonic() {
        let a = super::now_ns();
        let b = super::now_ns();
        assert!(b >= a);
        assert!(super::resolution_ns() >= 1);
    }
}
