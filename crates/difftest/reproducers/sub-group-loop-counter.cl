// ferrocl-difftest seed 129 (campaign 0..200), reduced by hand: mismatch cpu-scalar+cpu-vector out
// launch: global size 24, local size 12; n = 5
// Open: the CPU device's work-group transform keeps the loop counter `i`, uniform in the
// kernel's control flow, in one context slot for the whole group; under the per-work-item
// states of a sub-group collective that the sub-groups reach apart (sub-group 1 skips the
// branch), sub-group 1 runs the loop to its end and leaves i = 2 in that slot, so sub-group 0
// resumes after its first collective with i = 2 and skips the second trip.
// Expected (the interpreter): out = 8 for the first sub-group of each group (local ids 0-7,
// sub_group_reduce_add(1) over 8 work-items), 1 for the second; the CPU device gives 0 for
// the first (the first trip's sub_group_reduce_add(0)).
kernel void k(global uint *out, global const uint *in, global uint *acc, uint n) {
    uint v = 1u;
    for (uint j = 0; j < n; j++)
        v = v + 0u;
    for (uint i = 0; i < 2u; i++) {
        if (get_sub_group_id() == 0u)
            v = sub_group_reduce_add(i);
    }
    out[get_global_id(0)] = v;
}
