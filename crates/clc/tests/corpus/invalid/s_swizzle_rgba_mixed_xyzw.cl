// options: -cl-std=CL3.0
// expect-error: 10
// rule: 6.3.7 .rgba and .xyzw names cannot be mixed in one selector

// Mixing .rgba with .xyzw letters under OpenCL C 3.0.

__kernel void k(__global float4 *out)
{
    float4 c = out[0];
    out[1] = c.xgba;
}
