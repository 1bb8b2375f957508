// Vector literals built from scalars and vectors, swizzles on both sides (OpenCL C 6.3.6,
// 6.3.7).
// run: --kernel literals --global 4 --arg 'int[16]'
// expect out: 1 1 8 1 21 2 8 11 41 3 8 21 61 4 8 31
kernel void literals(global int *out) {
    int i = get_global_id(0);
    int4 v = (int4)(i, (int2)(10 * i, 20 * i), 7);
    int4 w = v.wzyx + (int4)(1);
    vstore4(w.s1302, i, out);
}
