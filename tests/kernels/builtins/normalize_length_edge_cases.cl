// The geometric functions at their edges (OpenCL C 6.15.5), for seven float4 vectors:
// (0, -0, 0, 0), (NaN, 1, 2, 3), (inf, 1, 0, -5), (-inf, inf, 3, 0), four times 1e30, four
// times 1e-30, and three denormals 3 * 2^-149 with a 0.
// 7.5.1: "normalize(v) returns v if all elements of v are zero"; "returns a vector full of
// NaNs if any element is a NaN"; with an infinite element it proceeds as if each element were
// isinf(v[i]) ? copysign(1.0, v[i]) : 0.0 * v[i]. Otherwise 7.4's bound: normalize within
// 2 + n = 6 ulp; 1e30 and 1e-30 vectors neither overflow nor underflow (0.5 each), nor do the
// denormals (1/sqrt(3)). length within 2.75 + 0.5n = 4.75 ulp and distance (here to -v, the
// length of 2v) within 2.5 + 2n = 10.5 ulp, of the exact values of the float inputs; a
// length with an infinite element is infinite.
// run: --kernel k --global 7 --arg 'float[42]' --arg 'float[28]=0,-0,0,0,NaN,1,2,3,inf,1,0,-5,-inf,inf,3,0,1e30,1e30,1e30,1e30,1e-30,1e-30,1e-30,1e-30,4.203895392974451e-45,4.203895392974451e-45,0,4.203895392974451e-45' --arg 'float[28]=-0,0,-0,-0,NaN,-1,-2,-3,-inf,-1,-0,5,inf,-inf,-3,-0,-1e30,-1e30,-1e30,-1e30,-1e-30,-1e-30,-1e-30,-1e-30,-4.203895392974451e-45,-4.203895392974451e-45,-0,-4.203895392974451e-45'
// expect o[0..12]: 0 -0 0 0 NaN NaN NaN NaN 1 0 0 -0
// expect o[12..28] ulp=6: -0.7071067811865475 0.7071067811865475 0 0 0.5 0.5 0.5 0.5 0.5 0.5 0.5 0.5 0.5773502691896258 0.5773502691896258 0 0.5773502691896258
// deviates: intel o[0,1,2,3,8,12,13]: Intel's CPU runtime returns NaNs, against 7.5.1 "normalize(v) returns v if all elements of v are zero" and "normalize(v) for which any element in v is infinite shall proceed as if the elements in v were replaced as follows: v[i] = isinf(v[i]) ? copysign(1.0, v[i]) : 0.0 * v[i]"
// expect o[30..31]: inf
// expect o[32..35] ulp=4.75: 2.0000000300949324e30 2.0000000063421537e-30 7.281360410336481e-45
// expect o[39..42] ulp=10.5: 4.000000060189865e30 4.0000000126843074e-30 1.4562720820672962e-44
kernel void k(global float *o, global const float *a, global const float *b) {
    size_t i = get_global_id(0);
    vstore4(normalize(vload4(i, a)), i, o);
    o[4 * get_global_size(0) + i] = length(vload4(i, a));
    o[5 * get_global_size(0) + i] = distance(vload4(i, a), vload4(i, b));
}
