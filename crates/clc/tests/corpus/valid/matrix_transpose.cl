// Matrix transpose: naive, and through a padded __local tile that avoids
// bank conflicts so that both the read and the write are coalesced.

#define TILE_DIM 32
#define BLOCK_ROWS 8

__kernel void transpose_naive(__global float *out, __global const float *in,
                              const int width, const int height)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < width && y < height)
        out[x * height + y] = in[y * width + x];
}

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void transpose_tiled(__global float *out, __global const float *in,
                     const int width, const int height)
{
    __local float tile[TILE_DIM][TILE_DIM + 1];
    int bx = get_group_id(0) * TILE_DIM;
    int by = get_group_id(1) * TILE_DIM;
    int tx = get_local_id(0), ty = get_local_id(1);

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        int x = bx + tx, y = by + ty + j;
        if (x < width && y < height)
            tile[ty + j][tx] = in[y * width + x];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        int x = by + tx, y = bx + ty + j;
        if (x < height && y < width)
            out[y * height + x] = tile[tx][ty + j];
    }
}

/* In-place transpose of square matrices, one work-item per upper element. */
__kernel void transpose_inplace(__global int *m, const int n)
{
    int i = get_global_id(1), j = get_global_id(0);
    if (i < n && j < n && j > i) {
        int a = m[i * n + j];
        m[i * n + j] = m[j * n + i];
        m[j * n + i] = a;
    }
}
