// Packed pixel conversion with vload/vstore of several widths, misaligned
// vload3/vstore3, and saturating conversions with explicit rounding modes
// (convert_<type>_sat_rte / _rtz / _rtp / _rtn).

__kernel void rgb_to_float(__global const uchar *rgb, __global float *out, const int pixels)
{
    int i = get_global_id(0);
    if (i >= pixels)
        return;
    uchar3 p = vload3(i, rgb);
    float3 f = convert_float3(p) * (1.0f / 255.0f);
    vstore3(f, i, out);
}

__kernel void float_to_rgba8(__global const float *in, __global uchar *out)
{
    int i = get_global_id(0);
    float4 f = vload4(i, in);
    uchar4 q = convert_uchar4_sat_rte(f * 255.0f);
    vstore4(q, i, out);
}

__kernel void quantize(__global const float8 *in,
                       __global char8 *q_rte,
                       __global short8 *q_rtz,
                       __global int8 *q_rtp,
                       __global ushort8 *q_rtn,
                       const float scale)
{
    size_t i = get_global_id(0);
    float8 x = in[i] * scale;
    q_rte[i] = convert_char8_sat_rte(x);
    q_rtz[i] = convert_short8_sat_rtz(x);
    q_rtp[i] = convert_int8_sat_rtp(x);
    q_rtn[i] = convert_ushort8_sat_rtn(x);
}

__kernel void unpack16(__global const int *in, __global long *out, const int offset)
{
    size_t i = get_global_id(0);
    int16 v = vload16(i, in + offset);
    long16 w = convert_long16(v) * 3;
    vstore16(w, i, out);
    int2 head = vload2(0, in);
    out[0] = convert_long_sat(head.x) + convert_long(head.y);
}

__kernel void clamp_to_u16(__global const int4 *in, __global ushort4 *out)
{
    size_t i = get_global_id(0);
    out[i] = convert_ushort4_sat(in[i]);
    uint4 u = as_uint4(in[i]);
    out[i] += convert_ushort4(u >> 16);
}

__kernel void round_modes(__global const float *in, __global int4 *out)
{
    size_t i = get_global_id(0);
    float f = in[i];
    out[i] = (int4)(convert_int_rte(f), convert_int_rtz(f), convert_int_rtp(f), convert_int_rtn(f));
}
