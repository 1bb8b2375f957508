// Blocked LU decomposition without pivoting, in place, of an n x n row-major matrix of
// floats (n a multiple of BLOCK_SIZE). Step k (k = 0, B, 2B, ...) runs three kernels:
//   lu_diagonal   one group of B work-items factors the diagonal block at (k, k);
//   lu_perimeter  one group of B work-items per block right of it and below it: solves the
//                 row block for U and the column block for L;
//   lu_internal   one group of B x B work-items per block of the trailing matrix:
//                 subtracts L(i, k) U(k, j).
// Every loop over BLOCK_SIZE is unrolled, as GPU codes do: built with -DBLOCK_SIZE=16 the
// kernels are long straight-line code, a test of the compiler's time on large kernels.

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 16
#endif
#define B BLOCK_SIZE

kernel void lu_diagonal(global float *a, int n, int k) {
    local float t[B][B];
    int c = get_local_id(0);
    global float *d = a + k * n + k;
#pragma unroll
    for (int r = 0; r < B; r++)
        t[r][c] = d[r * n + c];
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int p = 0; p < B - 1; p++) {
        // Work-item c > p scales its row's entry under the pivot ...
        if (c > p)
            t[c][p] /= t[p][p];
        barrier(CLK_LOCAL_MEM_FENCE);
        // ... then updates the rest of its row.
        if (c > p) {
#pragma unroll
            for (int j = p + 1; j < B; j++)
                t[c][j] -= t[c][p] * t[p][j];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#pragma unroll
    for (int r = 0; r < B; r++)
        d[r * n + c] = t[r][c];
}

kernel void lu_perimeter(global float *a, int n, int k) {
    local float diag[B][B];
    local float row[B][B];
    local float col[B][B];
    int x = get_local_id(0);
    int j = k + (get_group_id(0) + 1) * B;
#pragma unroll
    for (int r = 0; r < B; r++) {
        diag[r][x] = a[(k + r) * n + k + x];
        row[r][x] = a[(k + r) * n + j + x];
        col[r][x] = a[(j + r) * n + k + x];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Column x of the row block: forward substitution with the unit lower triangle.
#pragma unroll
    for (int i = 1; i < B; i++) {
        float s = row[i][x];
#pragma unroll
        for (int m = 0; m < i; m++)
            s -= diag[i][m] * row[m][x];
        row[i][x] = s;
    }
    // Row x of the column block: substitution with the upper triangle.
#pragma unroll
    for (int c = 0; c < B; c++) {
        float s = col[x][c];
#pragma unroll
        for (int m = 0; m < c; m++)
            s -= col[x][m] * diag[m][c];
        col[x][c] = s / diag[c][c];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int r = 0; r < B; r++) {
        a[(k + r) * n + j + x] = row[r][x];
        a[(j + r) * n + k + x] = col[r][x];
    }
}

kernel void lu_internal(global float *a, int n, int k) {
    local float l[B][B];
    local float u[B][B];
    int x = get_local_id(0);
    int y = get_local_id(1);
    int i = k + (get_group_id(1) + 1) * B + y;
    int j = k + (get_group_id(0) + 1) * B + x;
    l[y][x] = a[i * n + k + x];
    u[y][x] = a[(k + y) * n + j];
    barrier(CLK_LOCAL_MEM_FENCE);
    float s = 0.0f;
#pragma unroll
    for (int m = 0; m < B; m++)
        s += l[y][m] * u[m][x];
    a[i * n + j] -= s;
}
