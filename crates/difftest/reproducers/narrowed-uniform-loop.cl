// The narrowed-region bug (crates/cpu/src/workgroup/narrow.rs): a uniform value computed in a
// loop from values without loads, kept across a barrier and read in a region whose only effect
// is a store under get_local_id(0) > 0, is wrong for lanes 1..7 at local size 8, vectorized.
// Written by hand after the generator's shape; `ferrocl-difftest --check FILE` shows it.
kernel void k(global uint *out, global const uint *in, global uint *acc, uint n) {
    local uint lm[128];
    local uint lb[128];
    uint lid = get_local_id(0);
    uint u = get_group_id(0) * 7u + n;
    for (uint k = 0; k < n; k++)
        u = u * 3u + k;
    barrier(CLK_LOCAL_MEM_FENCE);
    lm[lid] = lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    lb[lid] = 9;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) > 0)
        lb[lid] = lm[lid - 1] + u;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = lb[lid];
}
