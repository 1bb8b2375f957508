// expect-error: 11
// rule: 1.2 spec 6.9.p struct kernel arguments cannot carry OpenCL objects (buffers) as elements

// A struct kernel argument holding a __global pointer.

typedef struct {
    __global float *data;
    int n;
} View;

__kernel void k(View v, __global float *out)
{
    out[0] = (float)v.n;
}
