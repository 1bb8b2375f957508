// k-means assignment step (Lloyd's algorithm): each point is labelled with
// its nearest centroid; centroids are cached in __local memory. A second
// kernel accumulates per-cluster sums with integer atomics on fixed point.

#define MAX_K 64

__kernel void kmeans_assign(__global const float *points,   /* n x dim */
                            __global const float *centroids, /* k x dim */
                            __global int *labels,
                            __global int *changed,
                            const int n, const int k, const int dim)
{
    __local float cache[MAX_K * 8];
    int lid = get_local_id(0);
    for (int i = lid; i < k * dim && i < MAX_K * 8; i += get_local_size(0))
        cache[i] = centroids[i];
    barrier(CLK_LOCAL_MEM_FENCE);

    int p = get_global_id(0);
    if (p >= n)
        return;
    float best = MAXFLOAT;
    int best_c = 0;
    for (int c = 0; c < k; c++) {
        float d = 0.0f;
        for (int j = 0; j < dim; j++) {
            float diff = points[p * dim + j] - cache[c * dim + j];
            d += diff * diff;
        }
        if (d < best) {
            best = d;
            best_c = c;
        }
    }
    if (labels[p] != best_c) {
        labels[p] = best_c;
        atomic_inc(changed);
    }
}

/* Points with 4 features: float4 distance, vectorised. */
__kernel void kmeans_assign4(__global const float4 *points,
                             __constant float4 *centroids,
                             __global uint *labels, const uint k)
{
    size_t p = get_global_id(0);
    float4 x = points[p];
    uint best_c = 0;
    float best = distance(x, centroids[0]);
    for (uint c = 1; c < k; ++c) {
        float d = fast_distance(x, centroids[c]);
        best_c = d < best ? c : best_c;
        best = fmin(d, best);
    }
    labels[p] = best_c;
}

__kernel void kmeans_accumulate(__global const float4 *points, __global const uint *labels,
                                __global int *sums /* k x 4, fixed point 16.16 */,
                                __global int *counts)
{
    size_t p = get_global_id(0);
    uint c = labels[p];
    int4 fx = convert_int4_rte(points[p] * 65536.0f);
    atomic_add(&sums[4 * c + 0], fx.x);
    atomic_add(&sums[4 * c + 1], fx.y);
    atomic_add(&sums[4 * c + 2], fx.z);
    atomic_add(&sums[4 * c + 3], fx.w);
    atomic_inc(&counts[c]);
}
