// half used only as a storage format (6.3.1.2, no cl_khr_fp16 needed):
// pointers to half, vload_half/vstore_half with rounding modes, and
// vloada_half/vstorea_half of vectors.

__kernel void float_to_half(__global const float *in, __global half *out)
{
    size_t i = get_global_id(0);
    vstore_half(in[i], i, out);
}

__kernel void half_to_float(__global const half *in, __global float *out)
{
    size_t i = get_global_id(0);
    out[i] = vload_half(i, in);
}

__kernel void half4_scale(__global half *data, const float scale)
{
    size_t i = get_global_id(0);
    float4 v = vload_half4(i, data);
    vstore_half4_rte(v * scale, i, data);
}

__kernel void half_rounding(__global const float *in, __global half *out)
{
    size_t i = get_global_id(0);
    float x = in[i];
    vstore_half_rtz(x, 4 * i + 0, out);
    vstore_half_rtp(x, 4 * i + 1, out);
    vstore_half_rtn(x, 4 * i + 2, out);
    vstore_half_rte(x, 4 * i + 3, out);
}

__kernel void half_aligned(__global half *data)
{
    size_t i = get_global_id(0);
    float8 v = vloada_half8(i, data);
    vstorea_half8(v + 1.0f, i, data);
    __global half *p = data + 8 * i;
    (void)p;
}
