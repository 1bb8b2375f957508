// Mandelbrot set: escape-time iteration per pixel, smooth colouring written
// as RGBA8, and a float2-based variant.

__kernel void mandelbrot(__global uchar4 *out,
                         const int width, const int height,
                         const float x0, const float y0,
                         const float scale, const int max_iter)
{
    int px = get_global_id(0);
    int py = get_global_id(1);
    if (px >= width || py >= height)
        return;
    float cr = x0 + px * scale;
    float ci = y0 + py * scale;
    float zr = 0.0f, zi = 0.0f;
    int iter = 0;
    while (zr * zr + zi * zi <= 4.0f && iter < max_iter) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++iter;
    }
    uchar4 colour;
    if (iter == max_iter) {
        colour = (uchar4)(0, 0, 0, 255);
    } else {
        /* smooth iteration count: n + 1 - log2(log|z|) */
        float mu = iter + 1 - native_log2(log(sqrt(zr * zr + zi * zi)));
        float t = clamp(mu / max_iter, 0.0f, 1.0f);
        float3 c = (float3)(9.0f * (1 - t) * t * t * t,
                            15.0f * (1 - t) * (1 - t) * t * t,
                            8.5f * (1 - t) * (1 - t) * (1 - t) * t);
        colour = (uchar4)(convert_uchar3_sat(c * 255.0f), 255);
    }
    out[py * width + px] = colour;
}

__kernel void mandelbrot_count(__global int *counts, const float2 origin,
                               const float step, const int max_iter)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float2 c = origin + convert_float2(p) * step;
    float2 z = (float2)(0.0f);
    int i;
    for (i = 0; i < max_iter && dot(z, z) < 4.0f; i++)
        z = (float2)(z.x * z.x - z.y * z.y, 2.0f * z.x * z.y) + c;
    counts[p.y * get_global_size(0) + p.x] = i;
}
