// passes: standard
// A vector add and a loop sum after the standard pipeline: every stack slot is promoted.
__kernel void vadd(__global const float4 *a, __global const float4 *b, __global float4 *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

__kernel void rowsum(__global const float *m, __global float *out, int n) {
    int row = get_global_id(0);
    float s = 0.0f;
    for (int j = 0; j < n; j++)
        s += m[row * n + j];
    out[row] = s;
}
