// The relational functions (OpenCL C 6.15.6) on chosen float pairs: zeros of both signs,
// infinities, NaN, a denormal (1e-40, not normal), the largest magnitudes, equal values.
// 6.15.6: they "shall return a 0 if the specified relation is false and a 1 if the specified
// relation is true for scalar argument types", "a -1 (i.e. all bits set) if the specified
// relation is true for vector argument types"; isequal, isgreater, isgreaterequal, isless,
// islessequal and islessgreater "always return 0 if either argument is not a number (NaN)",
// isnotequal returns 1 (-1 for vectors). Scalar run: s[14i + k] is relation k (in the order
// below) of a[i], b[i]; vector run: v[12k + i] is relation k of lane i of three float4s.
// run: --kernel scalar --global 12 --arg 'float[12]=0,-0,1,-1,inf,-inf,NaN,1e-40,3.4e38,-2.5,2,NaN' --arg 'float[12]=-0,0,1,2,inf,1,1,0,-inf,-2.5,NaN,NaN' --arg 'int[168]'
// expect s: 1 0 0 1 0 1 0 1 0 0 0 1 0 0 1 0 0 1 0 1 0 1 0 0 0 1 0 1 1 0 0 1 0 1 0 1 0 0 1 1 0 0 0 1 0 0 1 1 1 1 0 0 1 1 0 1 1 0 0 1 0 1 0 0 1 0 0 1 0 0 0 1 0 0 1 1 1 0 1 0 0 1 0 1 0 1 0 0 0 0 0 0 0 1 0 0 1 0 0 1 1 1 0 0 1 1 0 0 0 1 0 0 0 1 1 1 0 0 1 1 0 0 1 1 0 0 1 0 0 1 0 1 0 1 0 0 1 1 0 1 0 1 0 0 0 0 0 1 0 0 1 0 1 0 0 1 0 0 0 0 0 0 0 1 0 0 1 0
// run: --kernel vector --global 3 --arg 'float[12]=0,-0,1,-1,inf,-inf,NaN,1e-40,3.4e38,-2.5,2,NaN' --arg 'float[12]=-0,0,1,2,inf,1,1,0,-inf,-2.5,NaN,NaN' --arg 'int[168]'
// expect v: -1 -1 -1 0 -1 0 0 0 0 -1 0 0 0 0 0 -1 0 -1 -1 -1 -1 0 -1 -1 0 0 0 0 0 0 0 -1 -1 0 0 0 -1 -1 -1 0 -1 0 0 -1 -1 -1 0 0 0 0 0 -1 0 -1 0 0 0 0 0 0 -1 -1 -1 -1 -1 -1 0 0 0 -1 0 0 0 0 0 -1 0 -1 0 -1 -1 0 0 0 -1 -1 -1 -1 0 0 0 -1 -1 -1 -1 0 0 0 0 0 -1 -1 0 0 0 0 0 0 0 0 0 0 0 0 -1 0 0 0 0 -1 0 0 -1 -1 0 0 0 0 -1 -1 -1 0 -1 -1 -1 -1 -1 -1 0 -1 -1 -1 0 0 0 0 0 0 0 0 -1 0 0 0 -1 -1 0 -1 0 -1 0 -1 0 0 0 -1 0 0
kernel void scalar(global const float *pa, global const float *pb, global int *s) {
    size_t i = get_global_id(0);
    float a = pa[i], b = pb[i];
    s[14 * i + 0] = isequal(a, b);
    s[14 * i + 1] = isnotequal(a, b);
    s[14 * i + 2] = isgreater(a, b);
    s[14 * i + 3] = isgreaterequal(a, b);
    s[14 * i + 4] = isless(a, b);
    s[14 * i + 5] = islessequal(a, b);
    s[14 * i + 6] = islessgreater(a, b);
    s[14 * i + 7] = isfinite(a);
    s[14 * i + 8] = isinf(a);
    s[14 * i + 9] = isnan(a);
    s[14 * i + 10] = isnormal(a);
    s[14 * i + 11] = isordered(a, b);
    s[14 * i + 12] = isunordered(a, b);
    s[14 * i + 13] = signbit(a);
}
kernel void vector(global const float *pa, global const float *pb, global int *v) {
    size_t j = get_global_id(0);
    float4 a = vload4(j, pa), b = vload4(j, pb);
    vstore4(isequal(a, b), 0 + j, v);
    vstore4(isnotequal(a, b), 3 + j, v);
    vstore4(isgreater(a, b), 6 + j, v);
    vstore4(isgreaterequal(a, b), 9 + j, v);
    vstore4(isless(a, b), 12 + j, v);
    vstore4(islessequal(a, b), 15 + j, v);
    vstore4(islessgreater(a, b), 18 + j, v);
    vstore4(isfinite(a), 21 + j, v);
    vstore4(isinf(a), 24 + j, v);
    vstore4(isnan(a), 27 + j, v);
    vstore4(isnormal(a), 30 + j, v);
    vstore4(isordered(a, b), 33 + j, v);
    vstore4(isunordered(a, b), 36 + j, v);
    vstore4(signbit(a), 39 + j, v);
}
