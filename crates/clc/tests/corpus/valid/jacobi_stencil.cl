// 2-D 5-point Jacobi iteration for the Laplace equation, a buffer version
// with clamped borders and a __local-tiled version with a one-cell halo.

#define TILE 16

__kernel void jacobi_step(__global const float *in,
                          __global float *out,
                          const int width,
                          const int height)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        out[y * width + x] = in[y * width + x]; /* Dirichlet boundary */
        return;
    }
    float n = in[(y - 1) * width + x];
    float s = in[(y + 1) * width + x];
    float w = in[y * width + x - 1];
    float e = in[y * width + x + 1];
    out[y * width + x] = 0.25f * (n + s + w + e);
}

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void jacobi_tiled(__global const float *in,
                  __global float *out,
                  __global float *residual,
                  const int width,
                  const int height)
{
    __local float tile[TILE + 2][TILE + 2];
    int lx = get_local_id(0), ly = get_local_id(1);
    int gx = get_global_id(0), gy = get_global_id(1);

    int cx = clamp(gx, 0, width - 1);
    int cy = clamp(gy, 0, height - 1);
    tile[ly + 1][lx + 1] = in[cy * width + cx];

    /* halo cells: edges of the tile load one extra neighbour */
    if (lx == 0)
        tile[ly + 1][0] = in[cy * width + max(cx - 1, 0)];
    if (lx == TILE - 1)
        tile[ly + 1][TILE + 1] = in[cy * width + min(cx + 1, width - 1)];
    if (ly == 0)
        tile[0][lx + 1] = in[max(cy - 1, 0) * width + cx];
    if (ly == TILE - 1)
        tile[TILE + 1][lx + 1] = in[min(cy + 1, height - 1) * width + cx];
    barrier(CLK_LOCAL_MEM_FENCE);

    if (gx >= width || gy >= height)
        return;
    float old = tile[ly + 1][lx + 1];
    float v = old;
    if (gx > 0 && gy > 0 && gx < width - 1 && gy < height - 1) {
        v = 0.25f * (tile[ly][lx + 1] + tile[ly + 2][lx + 1] +
                     tile[ly + 1][lx] + tile[ly + 1][lx + 2]);
    }
    out[gy * width + gx] = v;
    residual[gy * width + gx] = fabs(v - old);
}
