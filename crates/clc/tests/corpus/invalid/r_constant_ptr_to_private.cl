// expect-error: 11
// rule: 6.11.a a __constant pointer can only be assigned to a __constant pointer

// A __constant pointer argument passed where a __private pointer parameter
// is expected.

float first(float *p) { return p[0]; }

__kernel void k(__constant float *c, __global float *out)
{
    out[0] = first(c);
}
