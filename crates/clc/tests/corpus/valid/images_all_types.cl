// requires: images
// Image types and functions (6.15.15): image1d_t, image1d_buffer_t,
// image1d_array_t, image2d_t, image2d_array_t, image3d_t with
// read_imagef/i/ui, write_imagef/i/ui, program-scope and argument samplers,
// integer and float coordinates, and the query functions.

#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable

__constant sampler_t s_nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
__constant sampler_t s_repeat = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
__constant sampler_t s_mirror = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST;
__constant sampler_t s_border = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

__kernel void one_d(read_only image1d_t in, write_only image1d_t out,
                    read_only image1d_buffer_t buf, read_only image1d_array_t arr)
{
    int x = get_global_id(0);
    float4 v = read_imagef(in, s_nearest, x) + read_imagef(in, s_repeat, (float)x / get_image_width(in));
    v += read_imagef(buf, x);                         /* buffers: sampler-less only */
    v += read_imagef(arr, s_nearest, (int2)(x, 0));
    v += (float)(get_image_width(buf) + get_image_array_size(arr));
    write_imagef(out, x, v);
}

__kernel void two_d(read_only image2d_t in, write_only image2d_t out_f,
                    write_only image2d_t out_i, read_only image2d_array_t layers,
                    sampler_t user_sampler)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float2 uv = (convert_float2(p) + 0.5f) / convert_float2(get_image_dim(in));
    float4 a = read_imagef(in, s_mirror, uv) + read_imagef(in, user_sampler, p) + read_imagef(in, p);
    float4 b = read_imagef(layers, s_border, (int4)(p, 1, 0));
    int4 c = read_imagei(layers, s_border, (float4)(convert_float2(p), 0.0f, 0.0f));
    write_imagef(out_f, p, a + b);
    write_imagei(out_i, p, c);
    int order = get_image_channel_order(in);
    int type = get_image_channel_data_type(in);
    if (order == CLK_RGBA && type == CLK_FLOAT && get_image_array_size(layers) > 2)
        write_imagef(out_f, (int2)(0), (float4)(1.0f));
}

__kernel void three_d(read_only image3d_t vol, write_only image3d_t out, __global uint4 *hist)
{
    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    uint4 v = read_imageui(vol, s_nearest, p);
    float4 f = read_imagef(vol, s_nearest, convert_float4(p));
    int4 dim = get_image_dim(vol);
    write_imageui(out, p, v + (uint4)(get_image_depth(vol)));
    hist[0] = v + convert_uint4(f) + as_uint4(dim);
}
