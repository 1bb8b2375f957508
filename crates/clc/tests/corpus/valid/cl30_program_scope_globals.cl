// options: -cl-std=CL3.0
// requires: __opencl_c_program_scope_global_variables
// note: checked with PoCL 5.0, which supports the feature.
// Program-scope __global variables under OpenCL C 3.0 (6.11.w: "Program
// scope variables can be declared with __constant address space qualifiers
// or if __opencl_c_program_scope_global_variables feature is supported with
// __global address space qualifier").

__global float weights[4] = { 0.1f, 0.2f, 0.3f, 0.4f };
__global uint calls;
static __global int private_to_program = 7;

float weighted(float4 v)
{
    return dot(v, vload4(0, weights));
}

__kernel void score(__global const float4 *in, __global float *out)
{
    size_t i = get_global_id(0);
    out[i] = weighted(in[i]) + (float)private_to_program;
    if (i == 0)
        calls++;
}

__kernel void update_weights(__global const float *w)
{
    size_t i = get_global_id(0);
    if (i < 4)
        weights[i] = w[i];
}
