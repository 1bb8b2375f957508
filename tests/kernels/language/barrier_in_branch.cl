// A barrier under a branch every work-item of the group takes the same way (a kernel
// argument), with private values (an int, a float) live across it.
// run: --kernel live --global 8 --local 4 --arg 'int[8]=iota' --arg 'int[8]' --arg local:16 --arg int:1
// expect out: 3 9 16 10 29 35 42 36
// local-sizes: fixed: the neighbour in the group, modulo the local size, in a __local buffer of 4 words
// run: --kernel live --global 8 --local 4 --arg 'int[8]=iota' --arg 'int[8]' --arg local:16 --arg int:0
// expect out: 0 -3 -6 -9 -12 -15 -18 -21
kernel void live(global const int *in, global int *out, local int *t, int flag) {
    int g = get_global_id(0), l = get_local_id(0);
    int x = in[g] * 3;
    float f = (float)g * 0.5f;
    t[l] = x;
    if (flag) {
        barrier(CLK_LOCAL_MEM_FENCE);
        out[g] = t[(l + 1) % get_local_size(0)] + x + (int)f;
    } else {
        out[g] = -x;
    }
}
