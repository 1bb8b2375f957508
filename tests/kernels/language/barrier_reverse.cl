// A __local tile written, a barrier, then read in the reverse order: every work-item sees
// what the others of its work-group wrote before the barrier (6.15.8).
// local-sizes: fixed: each work-item reads the __local tile in the group's reverse order
// run: --kernel reverse --global 16 --local 8 --arg 'int[16]=iota' --arg 'int[16]' --arg local:32
// expect out: 14 12 10 8 6 4 2 0 30 28 26 24 22 20 18 16
kernel void reverse(global const int *in, global int *out, local int *tile) {
    int l = get_local_id(0), n = get_local_size(0);
    tile[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[n - 1 - l] * 2;
}
