// Relational builtins (6.15.6) and miscellaneous vector functions
// (6.15.13): isequal..islessgreater, isfinite/isinf/isnan/isnormal,
// isordered/isunordered, signbit (scalar int, vector intn results),
// any/all, bitselect, select; shuffle and shuffle2 across widths; as_type
// reinterpretation (6.4.4.2).

__kernel void relational_misc(__global float4 *fo, __global int4 *io, __global int *so,
                              __global uint8 *uo)
{
    size_t i = get_global_id(0);
    float4 x = (float4)(1.0f, -0.0f, INFINITY, NAN) * (float)(i + 1);
    float4 y = (float4)(1.0f);
    int4 r = isequal(x, y) + isnotequal(x, y) + isgreater(x, y) + isgreaterequal(x, y) +
             isless(x, y) + islessequal(x, y) + islessgreater(x, y) + isfinite(x) + isinf(x) +
             isnan(x) + isnormal(x) + isordered(x, y) + isunordered(x, y) + signbit(x);
    int s = isequal(x.x, y.x) + isnan(x.w) + signbit(x.y) + isfinite(1.0f);
    int a = any(r) + all(r) + any((int2)(0, -1)) + all((char16)(-1)) + any((long4)(0));

    float4 bs = bitselect(x, y, as_float4((uint4)(0x80000000u)));
    float4 sel = select(x, y, isnan(x));
    int4 isel = select((int4)(1), (int4)(2), (uint4)(0u, ~0u, 0u, ~0u));
    uint4 ubs = bitselect((uint4)(0xF0F0F0F0u), (uint4)(0x0F0F0F0Fu), (uint4)(0xFFFF0000u));

    uint8 mask8 = (uint8)(7, 6, 5, 4, 3, 2, 1, 0);
    float8 v8 = (float8)(0, 1, 2, 3, 4, 5, 6, 7);
    float8 rev = shuffle(v8, mask8);
    float4 pick = shuffle(v8, (uint4)(0, 2, 4, 6));
    float16 wide = shuffle(x, (uint16)(0, 1, 2, 3, 3, 2, 1, 0, 0, 0, 1, 1, 2, 2, 3, 3));
    int4 mixed = shuffle2((int4)(1, 2, 3, 4), (int4)(5, 6, 7, 8), (uint4)(0, 4, 1, 5));
    uchar2 c2 = shuffle((uchar4)(9, 8, 7, 6), (uchar2)(3, 0));

    uint bits = as_uint(x.x);
    int4 ibits = as_int4(x);
    float4 back = as_float4(ibits);
    char4 bytes = as_char4(1.0f);
    uchar16 wide_bytes = as_uchar16(x);
    float3 f3 = as_float3((int3)(0));        /* 3-component vectors are 4 wide */
    float4 f4 = as_float4((int3)(0).xyzz);
    ulong lw = as_ulong((float2)(1.0f, 2.0f));

    fo[i] = bs + sel + rev.lo + pick + wide.hi.lo + back + (float4)(f3, 0.0f) + f4;
    io[i] = r + isel + mixed + as_int4(ubs) + convert_int4(bytes);
    so[i] = s + a + (int)bits + c2.x + wide_bytes.s5 + (int)lw;
    uo[i] = mask8;
}
