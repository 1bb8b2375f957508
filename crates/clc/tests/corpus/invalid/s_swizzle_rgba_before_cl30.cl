// options: -cl-std=CL1.2
// expect-error: 11
// rule: 6.3.7 .rgba component names are OpenCL C 3.0 only
// note: PoCL accepts this file (with a warning); 6.3.7: "In OpenCL C 3.0, the components of vector data types can also be addressed as <vector_data_type>.rgba."

// .rgba selectors under OpenCL C 1.2.

__kernel void k(__global float4 *out)
{
    float4 c = out[0];
    out[1] = c.bgra;
}
