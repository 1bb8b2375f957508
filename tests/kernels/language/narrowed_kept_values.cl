// Values kept across the barriers of a loop whose region after the barrier has no effect
// but the loop's own bookkeeping, so that its loop over the work-items is narrowed to none
// (OpenCL C 6.15.8: each work-item goes on with its own values). `per_item`: a value
// that differs between the work-items before the loop (the global id) and is the same for
// all after a trip: the region cannot store it once for the group. `swapped`: a loop
// header's parameters take their arguments at once, one getting the other's old value
// (`u = i`, then `i + 1`).
// local-sizes: fixed: a private array indexed by the local id
// run: --kernel per_item --global 2 --local 1 --arg 'uint[2]'
// expect out: 11 11
// run: --kernel per_item --global 6 --local 3 --arg 'uint[6]'
// expect out: 11 12 13 11 12 13
// run: --kernel per_item --global 8 --local 4 --arg 'uint[8]'
// expect out: 11 12 13 14 11 12 13 14
// run: --kernel per_item --global 16 --local 8 --arg 'uint[16]'
// expect out: 11 12 13 14 15 16 17 18 11 12 13 14 15 16 17 18
// run: --kernel per_item --global 24 --local 12 --arg 'uint[24]'
// expect out: 11 12 13 14 15 16 17 18 11 12 13 14 11 12 13 14 15 16 17 18 11 12 13 14
// run: --kernel swapped --global 2 --local 1 --arg 'uint[2]'
// expect out: 11 11
// run: --kernel swapped --global 6 --local 3 --arg 'uint[6]'
// expect out: 11 12 13 11 12 13
// run: --kernel swapped --global 8 --local 4 --arg 'uint[8]'
// expect out: 11 12 13 14 11 12 13 14
// run: --kernel swapped --global 16 --local 8 --arg 'uint[16]'
// expect out: 11 12 13 14 15 16 17 18 11 12 13 14 15 16 17 18
// run: --kernel swapped --global 24 --local 12 --arg 'uint[24]'
// expect out: 11 12 13 14 15 16 17 18 11 12 13 14 11 12 13 14 15 16 17 18 11 12 13 14
kernel void per_item(global uint *out) {
    uint v = (uint)get_global_id(0);
    uint pa[8];
    for (uint j = 0; j < 8u; j++)
        pa[j] = 1u + j;
    for (uint i = 0; i < 4u; i++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        v = 1u;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = v * 10u + pa[get_local_id(0) & 7u];
}

kernel void swapped(global uint *out) {
    uint u = 7u;
    uint pa[8];
    for (uint j = 0; j < 8u; j++)
        pa[j] = 1u + j;
    for (uint i = 0; i < 2u; i++) {
        u = i;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = u * 10u + pa[get_local_id(0) & 7u];
}
