// Tree reductions along x in groups of two dimensions: the guard is on local id 0 while
// local id 1 varies, each row of the group reducing its own part of __local memory.
// local-sizes: fixed: one reduction per group, into a buffer sized for the groups written
// run: --kernel rows --global 10,6 --local 5,3 --arg 'int[60]=iota' --arg 'int[12]' --arg local:60
// expect out: 10 35 60 85 110 135 160 185 210 235 260 285
// run: --kernel rows --global 12,4 --local 6,2 --arg 'int[48]=iota' --arg 'int[8]' --arg local:48
// expect out: 15 51 87 123 159 195 231 267
// run: --kernel rows --global 26,3 --local 13,3 --arg 'int[78]=iota' --arg 'int[6]' --arg local:156
// expect out: 78 247 416 585 754 923
kernel void rows(global const int *in, global int *out, local int *t) {
    uint lx = get_local_id(0), ly = get_local_id(1), nx = get_local_size(0);
    local int *row = t + ly * nx;
    row[lx] = in[get_global_id(1) * get_global_size(0) + get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = nx; s > 1;) {
        uint h = (s + 1) / 2;
        if (lx < s - h)
            row[lx] += row[lx + h];
        barrier(CLK_LOCAL_MEM_FENCE);
        s = h;
    }
    if (lx == 0)
        out[get_global_id(1) * get_num_groups(0) + get_group_id(0)] = row[0];
}
