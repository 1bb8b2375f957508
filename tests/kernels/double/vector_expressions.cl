// Vector expressions on double (cl_khr_fp64): swizzles, vector literals, shuffles, the
// conditional operator with a long vector condition, the usual arithmetic conversions (int
// and float operands widen to double, 6.3.1), scalar operands widening to vectors (6.3.2),
// compound assignments. 6.5.2 (unary operators) leaves ++ and -- off floating-point types;
// clang-based compilers take them on a scalar double, which real code uses, and reject them
// on a vector, so only the scalar form is here. in = (1.25, -3.5, 0.1, 7, -0, 2e10, -1e-310, 42.5);
// a = in.lo, b = in.hi. m: sizeof(f + 0.1) and sizeof(a.x + i) (6.3.1: doubles), vec_step
// of double3 (6.5.4: 4), sizeof(double3) (6.1.5: 32), the alignment of double16 (its size).
// requires: cl_khr_fp64
// run: --kernel k --global 1 --arg 'double[8]=1.25,-3.5,0.1,7.0,-0.0,2.0e10,-1e-310,42.5' --arg 'double[72]' --arg 'long[5]'
// expect o: 1.25 0.1 -0.0 -1e-310 -3.5 7.0 20000000000.0 42.5 42.5 -1e-310 20000000000.0 -0.0 1.25 -3.5 -1e-310 42.5 1.25 1.5 -2.0 7.0 7.0 1.25 0.1 -3.5 42.5 -1e-310 20000000000.0 -0.0 1.25 -3.5 0.1 7.0 -0.0 -3.5 -1e-310 7.0 1.25 -20000000000.0 0.1 7.0 2.25 0.20000000149011612 -0.3500000052154064 0.0 2.25 -2.5 1.1 8.0 -0.0 40000000000.0 -2e-310 85.0 0.8 -0.2857142857142857 10.0 0.14285714285714285 3.0500000000000003 0.0 0.0 0.0 20000000000.25 -4.5 41.6 -8.0 7.0 0.1 -3.5 1.25 0.1 -3.5 1.25 0.0
// expect m: 8 8 4 32 128
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void k(global const double *in, global double *o, global long *m) {
    double8 v = vload8(0, in);
    double16 w = (double16)(v, v.s76543210);
    double4 a = v.lo, b = v.hi;
    vstore4(v.even, 0, o);
    vstore4(v.odd, 1, o);
    vstore4(w.hi.lo, 2, o);
    vstore4((double4)(a.xy, b.zw), 3, o);
    vstore4((double4)(a.x, (double2)(1.5, -2.0), 7), 4, o);
    vstore4(shuffle(a, (ulong4)(3, 0, 2, 1)), 5, o);
    vstore8(shuffle2(a, b, (ulong8)(7, 6, 5, 4, 0, 1, 2, 3)), 3, o);
    long4 c = a < b;
    vstore4(c ? a : b, 8, o);
    vstore4(a > 0.0 ? a : -b, 9, o);
    int i = 3;
    float f = 0.1f;
    o[40] = i / 2 + a.x;
    o[41] = f + 0.1;
    o[42] = a.y * f;
    vstore4(a + 1, 11, o);
    vstore4(b * 2.0f, 12, o);
    vstore4(1.0 / a, 13, o);
    double d = a.z;
    d++;
    d *= 3;
    d -= 0.25;
    o[56] = d;
    double4 e = a;
    e.xz += b.yw;
    e.w = -e.w;
    e -= 1;
    vstore4(e, 15, o);
    vstore4(v.s3210, 16, o);
    vstore3(a.zyx, 0, o + 68);
    m[0] = sizeof(f + 0.1);
    m[1] = sizeof(a.x + i);
    m[2] = vec_step(double3);
    m[3] = sizeof(double3);
    m[4] = __alignof__(double16);
}
