// 6.15.18 pipe functions: the reservations, commits and queries on a pipe object's storage,
// whose layout is the kernel ABI's (crates/device/src/lib.rs, `pipe_layout`): a pipe argument
// is the address of that storage. Lowering (crates/clc/src/lower/builtins/pipe.rs) calls these
// for every packet type, and copies the packet itself between the slot these give and the
// caller's pointer.
//
// The pipe is a bounded FIFO in the manner of D. Vyukov's bounded MPMC queue: every slot has
// a sequence number that says which position may use it next. Slot `q % max` holds
//   q            when it is free for the writer of position q,
//   q + 1        when the packet of position q is committed and may be read,
//   q + max      when that packet has been read and committed (free for position q + max).
// A reservation of n packets at position pos is a compare-and-swap of the write (or read)
// position from pos to pos + n, made only when the n slots are ready for it; a commit sets
// their sequence numbers. Nothing ever waits: a reservation whose first slot is not ready
// fails (the pipe is full, or empty), so a write reserved before another but committed after
// it holds the later packets back from readers, which keeps "the entries reserved for
// writing ... added in-order as one contiguous set of packets" (6.15.18.3) without one
// work-item spinning on another's progress (the CPU device runs the work-items of a group one
// after another on one thread).
//
// Positions are 64-bit and never wrap in practice (2^64 packets). A reservation ID is its
// position plus one, so that 0 is the invalid ID; the reservation's length is kept beside the
// slot it starts at, where only its owner touches it until it commits.

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

typedef struct {
    ulong write_pos;
    ulong read_pos;
    uint max_packets;
    uint packet_size;
    ulong packets;
    ulong reserved[4];
} __ferrocl_pipe;

#define PIPE __global __ferrocl_pipe *

// The sequence numbers (one ulong per slot) follow the 64-byte header, then the reservation
// lengths (one uint per slot); the packets start at `packets`.
static volatile __global ulong *__ferrocl_pipe_seq(PIPE p) {
    return (volatile __global ulong *)((__global uchar *)p + 64);
}

static __global uint *__ferrocl_pipe_len(PIPE p) {
    return (__global uint *)((__global uchar *)p + 64 + 8 * (ulong)p->max_packets);
}

// Reserves n packets of `size` bytes aligned to `align` for writing (writing != 0) or reading;
// the reservation ID, or 0 when the pipe lacks n free (or n committed) packets, or when the
// kernel's packet type does not fit the pipe's packets.
ulong __cl_pipe_reserve_pipe_uint_uint_uint_uint(PIPE p, uint n, uint writing, uint size,
                                                 uint align) {
    ulong max = p->max_packets;
    if (n == 0 || n > max || size > p->packet_size || p->packet_size % align != 0)
        return 0;
    volatile __global ulong *counter = writing ? &p->write_pos : &p->read_pos;
    volatile __global ulong *seq = __ferrocl_pipe_seq(p);
    ulong ready = writing ? 0 : 1;
    for (;;) {
        ulong pos = *counter;
        bool all = true;
        for (uint k = 0; k < n && all; k++) {
            ulong q = pos + k;
            all = seq[q % max] == q + ready;
        }
        if (all) {
            if (atom_cmpxchg(counter, pos, pos + n) == pos) {
                __ferrocl_pipe_len(p)[pos % max] = n;
                return pos + 1;
            }
        } else if (*counter == pos) {
            // Positions only grow: a slot not ready while no one else reserved means the
            // pipe is full (writing) or its next packet is not committed (reading).
            return 0;
        }
    }
}

// Commits reservation `rid` (0: nothing): its packets become readable (writing) or free.
void __cl_pipe_commit_pipe_ulong_uint(PIPE p, ulong rid, uint writing) {
    if (rid == 0)
        return;
    ulong max = p->max_packets;
    ulong pos = rid - 1;
    uint n = min(__ferrocl_pipe_len(p)[pos % max], (uint)max);
    ulong next = writing ? 1 : max;
    volatile __global ulong *seq = __ferrocl_pipe_seq(p);
    for (uint k = 0; k < n; k++) {
        ulong q = pos + k;
        atom_xchg(&seq[q % max], q + next);
    }
}

// The byte offset in the pipe's storage of packet `index` of reservation `rid`, or 0 when the
// ID is the invalid one or the index is outside the reservation. Whatever the ID, the offset
// is one of the pipe's own slots.
ulong __cl_pipe_packet_pipe_ulong_uint(PIPE p, ulong rid, uint index) {
    if (rid == 0)
        return 0;
    ulong max = p->max_packets;
    ulong pos = rid - 1;
    if (index >= __ferrocl_pipe_len(p)[pos % max])
        return 0;
    return p->packets + ((pos + index) % max) * p->packet_size;
}

// get_pipe_num_packets: the packets written (reserved for writing) and not yet reserved for
// reading; "the value returned should be considered immediately stale" (6.15.18.4).
uint __cl_pipe_num_packets_pipe(PIPE p) {
    volatile __global ulong *pos = &p->write_pos;
    ulong r = pos[1];
    ulong w = pos[0];
    return w > r ? (uint)min(w - r, (ulong)p->max_packets) : 0;
}

uint __cl_pipe_max_packets_pipe(PIPE p) { return p->max_packets; }
