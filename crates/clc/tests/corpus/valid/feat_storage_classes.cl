// Storage-class specifiers in OpenCL C 1.2 (6.10; 1.2 spec 6.8): extern
// declarations of functions, kernels and __constant variables defined later
// in the program, a block-scope extern, static helper functions and static
// program-scope __constant variables, and typedef as a storage class.
// (Static variables inside functions need OpenCL C 2.0: see
// cl20_program_scope_globals.cl.)

extern __constant float4 palette[4];
extern float shade(float x);
extern __kernel void clear(__global float *out);
static int clamp_index(int i, int n);

static __constant int offsets[3] = { -1, 0, 1 };
static __constant float gamma = 2.2f;
typedef __constant float4 *palette_ptr;

float shade(float x)
{
    return pow(x, 1.0f / gamma);
}

static int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

__kernel void clear(__global float *out)
{
    out[get_global_id(0)] = 0.0f;
}

__kernel void colourise(__global const float *in, __global float4 *out, const int n)
{
    extern __constant float4 palette[4];     /* block-scope extern */
    int i = get_global_id(0);
    palette_ptr p = palette;
    float v = 0.0f;
    for (int k = 0; k < 3; k++)
        v += in[clamp_index(i + offsets[k], n)];
    int idx = clamp((int)(shade(v / 3.0f) * 4.0f), 0, 3);
    out[i] = p[idx];
}

__constant float4 palette[4] = {
    (float4)(0.0f, 0.0f, 0.5f, 1.0f),
    (float4)(0.0f, 0.5f, 1.0f, 1.0f),
    (float4)(1.0f, 0.5f, 0.0f, 1.0f),
    (float4)(1.0f, 1.0f, 1.0f, 1.0f),
};
