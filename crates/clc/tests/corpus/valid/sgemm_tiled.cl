// Tiled single-precision matrix multiply C = alpha*A*B + beta*C, row-major,
// with square __local tiles and two barriers per tile step.

#ifndef TS
#define TS 16
#endif

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void sgemm(const int M, const int N, const int K,
           const float alpha,
           __global const float *A,
           __global const float *B,
           const float beta,
           __global float *C)
{
    __local float Asub[TS][TS];
    __local float Bsub[TS][TS];

    const int row = get_local_id(1);
    const int col = get_local_id(0);
    const int globalRow = TS * get_group_id(1) + row;
    const int globalCol = TS * get_group_id(0) + col;

    float acc = 0.0f;
    const int numTiles = (K + TS - 1) / TS;
    for (int t = 0; t < numTiles; t++) {
        const int tiledRow = TS * t + row;
        const int tiledCol = TS * t + col;
        Asub[row][col] = (globalRow < M && tiledCol < K) ? A[globalRow * K + tiledCol] : 0.0f;
        Bsub[row][col] = (tiledRow < K && globalCol < N) ? B[tiledRow * N + globalCol] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);

        #pragma unroll 4
        for (int k = 0; k < TS; k++) {
            acc = mad(Asub[row][k], Bsub[k][col], acc);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (globalRow < M && globalCol < N) {
        float c = C[globalRow * N + globalCol];
        C[globalRow * N + globalCol] = alpha * acc + beta * c;
    }
}

/* Naive reference version, used to validate the tiled one. */
__kernel void sgemm_naive(const int M, const int N, const int K,
                          __global const float *A,
                          __global const float *B,
                          __global float *C)
{
    int i = get_global_id(1);
    int j = get_global_id(0);
    if (i >= M || j >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k)
        sum += A[i * K + k] * B[k * N + j];
    C[i * N + j] = sum;
}
