// Atomic functions on __local memory (OpenCL C 6.15.12.1): every work-item of a group of 20
// (a chunk of 8 lanes, another, and a tail) updates the same few words with each operation,
// a compare-and-swap loop among them; the final values are exact whatever the order.
// local-sizes: fixed: one row of results per group, in a buffer sized for the two groups written
// run: --kernel local_atomics --global 40 --local 20 --arg 'int[16]' --arg local:32
// expect out: 20 -190 0 0 12 -65536 1048575 210 20 -190 0 0 12 -65536 1048575 210
kernel void local_atomics(global int *out, local int *l) {
    int lid = get_local_id(0), g = get_group_id(0);
    if (lid == 0) {
        for (int k = 0; k < 8; k++)
            l[k] = 0;
        l[3] = 1000;
        l[4] = -1000;
        l[5] = -1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&l[0]);
    atomic_sub(&l[1], lid);
    atomic_xor(&l[2], lid);
    atomic_min(&l[3], lid * 7 % 13);
    atomic_max(&l[4], lid * 7 % 13);
    atomic_and(&l[5], ~(1 << (lid % 16)));
    atomic_or(&l[6], 1 << lid);
    int old = l[7];
    for (;;) {
        int seen = atomic_cmpxchg(&l[7], old, old + lid + 1);
        if (seen == old)
            break;
        old = seen;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        for (int k = 0; k < 8; k++)
            out[g * 8 + k] = l[k];
}
