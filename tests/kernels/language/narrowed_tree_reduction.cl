// Tree reductions in __local memory whose levels are guarded by `lid < s - h`, a bound the
// same for the whole group that halves between the regions of the loop (6.15.8: barriers in
// a loop every work-item of the group runs), for group sizes that are not multiples of 4.
// crates/cli/tests/cli.rs runs it on ferrocl with a smaller last group too (non-uniform
// work-groups are optional in 3.0, and PoCL 3.1 has none).
// local-sizes: fixed: one sum per group, into a buffer sized for the groups written
// run: --kernel tree --global 36 --local 6 --arg 'int[36]=iota' --arg 'int[6]' --arg local:24
// expect out: 15 51 87 123 159 195
// run: --kernel tree --global 117 --local 13 --arg 'int[117]=iota' --arg 'int[9]' --arg local:52
// expect out: 78 247 416 585 754 923 1092 1261 1430
// run: --kernel tree --global 192 --local 64 --arg 'int[192]=iota' --arg 'int[3]' --arg local:256
// expect out: 2016 6112 10208
// run: --kernel tree --global 300 --local 100 --arg 'int[300]=iota' --arg 'int[3]' --arg local:400
// expect out: 4950 14950 24950
kernel void tree(global const int *in, global int *out, local int *t) {
    uint l = get_local_id(0), n = get_local_size(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = n; s > 1;) {
        uint h = (s + 1) / 2;
        if (l < s - h)
            t[l] += t[l + h];
        barrier(CLK_LOCAL_MEM_FENCE);
        s = h;
    }
    if (l == 0)
        out[get_group_id(0)] = t[0];
}
