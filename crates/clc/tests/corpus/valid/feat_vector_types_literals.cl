// Every built-in vector type (6.3.2) and every vector literal form
// (6.3.6): a single scalar replicated, one scalar per component, and
// mixes of scalars and smaller vectors that add up to the component count.

__kernel void vector_types(__global int *out)
{
    char2 c2 = (char2)(1, 2);
    char3 c3 = (char3)(1);
    char4 c4 = (char4)(c2, c2);
    char8 c8 = (char8)(c4, 5, 6, 7, 8);
    char16 c16 = (char16)(c8, c8);
    uchar2 uc2 = (uchar2)(250, 251);
    uchar3 uc3 = (uchar3)(uc2, 1);
    uchar4 uc4 = (uchar4)(1, uc2, 4);
    uchar8 uc8 = (uchar8)(0);
    uchar16 uc16 = (uchar16)(uc8, uc4, uc4);
    short2 s2 = (short2)(-1, 1);
    short3 s3 = (short3)(1, s2);
    short4 s4 = (short4)(s3, 7);
    short8 s8 = (short8)(s4, s4.wzyx);
    short16 s16 = (short16)(s8.lo, s8.hi, s8.even, s8.odd);
    ushort2 us2 = (ushort2)(65535);
    ushort3 us3 = (ushort3)(us2.x, us2);
    ushort4 us4 = (ushort4)(us3, 9);
    ushort8 us8 = (ushort8)(us4, us4);
    ushort16 us16 = (ushort16)(us8, us8);
    int2 i2 = (int2)(1, 2);
    int3 i3 = (int3)(i2, 3);
    int4 i4 = (int4)(i3, 4);
    int8 i8 = (int8)(i4, i2, i2);
    int16 i16 = (int16)(i8, i4, 0, 0, 0, 0);
    uint2 u2 = (uint2)(1u, 2u);
    uint3 u3 = (uint3)(u2, 3u);
    uint4 u4 = (uint4)(u3, 4u);
    uint8 u8 = (uint8)(u4, u4);
    uint16 u16 = (uint16)(u8, u8);
    long2 l2 = (long2)(1L, -1L);
    long3 l3 = (long3)(l2, 3);
    long4 l4 = (long4)(l2, l2);
    long8 l8 = (long8)(l4, l4);
    long16 l16 = (long16)(l8, l8);
    ulong2 ul2 = (ulong2)(1UL);
    ulong3 ul3 = (ulong3)(ul2, 2UL);
    ulong4 ul4 = (ulong4)(ul3, 3UL);
    ulong8 ul8 = (ulong8)(ul4, ul4);
    ulong16 ul16 = (ulong16)(ul8, ul8);
    float2 f2 = (float2)(1.0f, 2.0f);
    float3 f3 = (float3)(f2, 3.0f);
    float4 f4 = (float4)(f2, f2);
    float8 f8 = (float8)(f4, 1.0f, 2.0f, f2);
    float16 f16 = (float16)(f8, f4, f3, 0.0f);

    /* a braced list of scalars: not spelled out by 6.3.6, but accepted by
       clang-based compilers and common in real kernels */
    int4 braced = { 1, 2, 3, 4 };
    /* vector types are also usable as array elements and struct fields */
    float4 arr[2] = { (float4)(1.0f), (float4)(2.0f) };

    int sum = c2.x + c3.x + c4.w + c8.s7 + c16.sf + uc3.z + uc4.y + uc16.s0 + s16.s3 + s3.x +
              us16.sF + i16.s5 + i3.z + u16.s1 + (int)l16.s2 + (int)l3.z + (int)ul16.s4 +
              (int)ul3.z + (int)f16.s2 + (int)f3.z + braced.w + (int)arr[1].x + us3.y;
    out[get_global_id(0)] = sum;
}
