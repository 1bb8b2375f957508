// options: -cl-std=CL1.2
// expect-error: 7
// rule: 6.11.a kernel arguments cannot be pointers to pointers (OpenCL C 1.2 and below)

// A pointer-to-pointer kernel argument under OpenCL C 1.2.

__kernel void gather(__global float *__global *rows, __global float *out)
{
    size_t i = get_global_id(0);
    out[i] = rows[i][0];
}
