// Barriers inside a loop whose trip count is the same for the whole work-group: an
// inclusive prefix sum in __local memory (Hillis and Steele), two work-groups of 8.
// local-sizes: fixed: a prefix sum within each work-group
// run: --kernel scan --global 16 --local 8 --arg 'int[16]=iota' --arg 'int[16]' --arg local:32
// expect out: 0 1 3 6 10 15 21 28 8 17 27 38 50 63 77 92
kernel void scan(global const int *in, global int *out, local int *t) {
    int l = get_local_id(0), n = get_local_size(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < n; off *= 2) {
        int v = l >= off ? t[l - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        t[l] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = t[l];
}
