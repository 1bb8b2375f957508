// Functions and qualifiers: prototypes before definitions, static and
// inline functions, kernels calling other kernels as functions (6.9.1),
// const, volatile and restrict in each position, void parameter lists,
// vector and struct parameters and results by value, and kernel arguments
// of every permitted kind (scalars, vectors, structs, local pointers,
// constant pointers, const pointers to const data).

typedef struct { float4 origin; int count; } Header;

static float scaled(float x, const float k);
inline int4 widen(char4 c);
float4 blend(float4 a, float4 b, float t);
Header make_header(int n);
void nothing(void);

static float scaled(float x, const float k) { return x * k; }
inline int4 widen(char4 c) { return convert_int4(c); }
float4 blend(float4 a, float4 b, float t) { return a + (b - a) * t; }
Header make_header(int n)
{
    Header h = { (float4)(0.0f), n };
    return h;
}
void nothing(void) {}

__kernel void inner(__global float *out, const float v)
{
    out[get_global_id(0)] = v;
}

__kernel void outer(__global float *restrict out,
                    __global const float *restrict in,
                    __constant float4 *palette,
                    __local float *scratch,
                    volatile __global int *flag,
                    const Header header,
                    const float4 tint,
                    const char4 small,
                    uchar byte_arg,
                    ulong wide_arg,
                    __global const float *const fixed_ptr)
{
    nothing();
    size_t i = get_global_id(0);
    scratch[get_local_id(0)] = in[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    const volatile int snapshot = *flag;
    float4 c = blend(palette[0], tint, 0.5f) + header.origin;
    int4 w = widen(small);
    Header h = make_header(header.count);
    out[i] = scaled(scratch[get_local_id(0)], c.x) + (float)(w.y + snapshot + byte_arg + h.count) +
             (float)wide_arg + fixed_ptr[0];
    if (i == 0)
        inner(out, 1.0f);   /* a kernel called as an ordinary function */
}
