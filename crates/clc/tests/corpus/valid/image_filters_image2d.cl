// requires: images
// Gaussian blur, Sobel and a bilinear resize written with image2d_t,
// sampler_t, read_imagef and write_imagef.

__constant sampler_t nearest_clamp =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__constant float weights[3][3] = {
    { 1.0f / 16, 2.0f / 16, 1.0f / 16 },
    { 2.0f / 16, 4.0f / 16, 2.0f / 16 },
    { 1.0f / 16, 2.0f / 16, 1.0f / 16 },
};

__kernel void blur3x3(__read_only image2d_t src, __write_only image2d_t dst)
{
    int2 pos = (int2)(get_global_id(0), get_global_id(1));
    if (pos.x >= get_image_width(dst) || pos.y >= get_image_height(dst))
        return;
    float4 sum = (float4)(0.0f);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            sum += weights[dy + 1][dx + 1] * read_imagef(src, nearest_clamp, pos + (int2)(dx, dy));
    write_imagef(dst, pos, sum);
}

__kernel void sobel_image(read_only image2d_t src, write_only image2d_t dst)
{
    const int2 pos = (int2)(get_global_id(0), get_global_id(1));
    float4 l[9];
    int i = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            l[i++] = read_imagef(src, nearest_clamp, pos + (int2)(dx, dy));
    float4 gx = -l[0] - 2.0f * l[3] - l[6] + l[2] + 2.0f * l[5] + l[8];
    float4 gy = -l[0] - 2.0f * l[1] - l[2] + l[6] + 2.0f * l[7] + l[8];
    float4 g = sqrt(gx * gx + gy * gy);
    g.w = 1.0f;
    write_imagef(dst, pos, clamp(g, 0.0f, 1.0f));
}

__kernel void resize_bilinear(__read_only image2d_t src, __write_only image2d_t dst,
                              sampler_t linear)
{
    int2 pos = (int2)(get_global_id(0), get_global_id(1));
    int2 dim = get_image_dim(dst);
    if (any(pos >= dim))
        return;
    float2 coord = (convert_float2(pos) + 0.5f) / convert_float2(dim);
    write_imagef(dst, pos, read_imagef(src, linear, coord));
}

__kernel void threshold_ui(__read_only image2d_t src, __write_only image2d_t dst, uint level)
{
    int2 pos = (int2)(get_global_id(0), get_global_id(1));
    uint4 p = read_imageui(src, nearest_clamp, pos);
    uint4 out = select((uint4)(0u), (uint4)(255u), p > (uint4)(level));
    write_imageui(dst, pos, out);
}
