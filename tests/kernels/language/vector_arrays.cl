// Arrays of OpenCL vectors indexed by the work-item id, with divergent branches and partial
// chunks: each work-item loads and stores whole float4, int2 and uchar4 values (6.3.5); when
// vectorized, several work-items' vectors are accessed as whole vectors and their lanes
// regrouped, under masks where the branches diverge, and must give the same results.
// run: --kernel vec4 --global 11 --arg 'float[44]=iota' --arg 'float[44]'
// expect 1: 3 2 1 0 4 6 8 10 11 10 9 8 12 14 16 18 19 18 17 16 20 22 24 26 27 26 25 24 28 30 32 34 35 34 33 32 36 38 40 42 43 42 41 40
// run: --kernel vec2 --global 9 --arg 'int[18]=iota' --arg 'int[18]'
// expect 1: 1 -1 5 -1 9 -1 13 -1 17 -1 21 -1 25 -1 29 -1 33 -1
// run: --kernel bytes --global 16 --local 8 --arg 'uchar[64]=iota' --arg 'uchar[64]'
// local-sizes: fixed: a branch on the local id
// expect 1: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0 0 0 0 0 0 0 0 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 0 0 0 0 0 0 0 0
kernel void vec4(global const float4 *x, global float4 *y) {
    size_t i = get_global_id(0);
    float4 v = x[i];
    if (i % 2 == 0)
        y[i] = v.wzyx;
    else
        y[i] = v * 2.0f - (float4)(v.x);
}

kernel void vec2(global const int2 *x, global int2 *y) {
    int i = get_global_id(0);
    int2 v = x[i];
    y[i] = (int2)(v.x + v.y, v.x - v.y);
}

kernel void bytes(global const uchar4 *x, global uchar4 *y) {
    size_t i = get_global_id(0);
    if (get_local_id(0) < 6)
        y[i] = x[i] + (uchar4)(1);
    else
        y[i] = (uchar4)(0);
}
