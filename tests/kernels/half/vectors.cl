// half vectors (cl_khr_fp16): vload/vstore of half4, half8, half3, swizzles, vector literals,
// half16 built from half8s, lane-wise arithmetic with scalars widened (6.3.2) and int operands
// converted, comparisons giving short vectors (-1 or 0, 6.3.6), select, any, all, compound
// assignment to swizzles, and the geometric dot and length of half vectors (computed in float
// and rounded to half once: OpenCL C 7.4 allows converting half operands to single precision).
// in = (1.5, -2, 0.25, 3, -0, 100, 0.1, -7); a = in.lo, b = in.hi. m: the comparison a < b,
// any and all of it, vec_step(half3), sizeof(half3) (6.1.5: a half4's), alignment of half8.
// requires: cl_khr_fp16
// run: --kernel k --global 1 --arg 'half[8]=1.5,-2,0.25,3,-0,100,0.1,-7' --arg 'half[37]' --arg 'short[10]'
// expect o: 1.5 98.0 0.35009765625 -4.0 -1.0 -201.0 -0.97509765625 -22.0 -7.0 100.0 3.0 -2.0 1.5 -2.0 0.0999755859375 -7.0 -14.0 0.199951171875 200.0 -0.0 6.0 0.5 -4.0 3.0 1.5 100.0 0.25 3.0 100.5 -3.0 -7.75 -4.0 0.375 25.0 0.5 -221.0 100.25
// expect m: 0 -1 0 0 1 0 4 8 16 2
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL FP_CONTRACT OFF
kernel void k(global const half *in, global half *o, global short *m) {
    half8 v = vload8(0, in);
    half4 a = v.lo, b = v.hi;
    vstore4(a + b, 0, o);
    vstore4(a * b - (half4)(1.0h), 1, o);
    vstore4(v.s7531, 2, o);
    vstore4((half4)(a.xy, b.zw), 3, o);
    half16 w = (half16)(v, v.s76543210);
    vstore8(w.hi * 2.0h, 2, o);
    short4 lt = a < b;
    vstore4(lt, 0, m);
    vstore4(select(a, b, lt), 6, o);
    half4 e = a;
    e.xz += b.yw;
    e.w = -e.w;
    e -= 1;
    vstore4(e, 7, o);
    half3 t = (half3)(a.x, b.y, 2.0h);
    vstore3(t / (half)4, 0, o + 32);
    o[35] = dot(a, b);
    o[36] = length(b);
    m[4] = any(lt);
    m[5] = all(lt);
    m[6] = vec_step(half3);
    m[7] = sizeof(half3);
    m[8] = __alignof__(half8);
    m[9] = sizeof(half);
}
