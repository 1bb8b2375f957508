// .lo/.hi/.even/.odd (6.3.7) on 2-, 3-, 4-, 8- and 16-component vectors,
// as rvalues and lvalues, and chained with other selectors. For a
// 3-component vector, .hi takes the undefined fourth component as its
// second element (the vector is treated as 4 wide, 6.3.7).

__kernel void lo_hi_even_odd(__global float *out)
{
    float16 v16 = (float16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    float8 lo8 = v16.lo;
    float8 hi8 = v16.hi;
    float8 ev8 = v16.even;
    float8 od8 = v16.odd;
    float4 lolo = v16.lo.lo;
    float2 deep = v16.hi.odd.lo;
    float s = v16.even.s3;

    float8 v8 = lo8;
    v8.lo = hi8.hi;
    v8.hi = ev8.lo;
    v8.odd = od8.even;
    float4 v4 = (float4)(1, 2, 3, 4);
    float2 l2 = v4.lo, h2 = v4.hi, e2 = v4.even, o2 = v4.odd;
    v4.even = o2;
    v4.odd = e2;
    float2 v2 = (float2)(1, 2);
    float a = v2.lo + v2.hi + v2.even + v2.odd;
    v2.lo = 5.0f;
    float3 v3 = (float3)(1, 2, 3);
    float2 lo3 = v3.lo;
    float x3 = v3.hi.x;       /* component 2 */
    v3.lo = (float2)(7, 8);

    int4 iv = (int4)(1, 2, 3, 4);
    iv.hi += iv.lo;

    out[0] = lo8.s1 + hi8.s2 + ev8.s3 + od8.s4 + lolo.w + deep.y + s + v8.s7 + l2.y + h2.x +
             v4.z + a + v2.x + lo3.y + x3 + v3.x + (float)iv.w;
}
