// Integer functions (6.15.3) on uint: clz, popcount, rotate, add_sat.
// run: --kernel ints --global 4 --arg 'uint[4]=iota' --arg 'uint[16]'
// expect out: 32 0 0 4294967280 31 1 256 4294967281 30 1 512 4294967282 30 2 768 4294967283
kernel void ints(global const uint *in, global uint *out) {
    uint i = get_global_id(0);
    uint x = in[i];
    out[i * 4 + 0] = clz(x);
    out[i * 4 + 1] = popcount(x);
    out[i * 4 + 2] = rotate(x, 8u);
    out[i * 4 + 3] = add_sat(x, 0xfffffff0u);
}
