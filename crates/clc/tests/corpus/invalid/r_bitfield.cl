// expect-error: 9
// expect-error: 10
// expect-error: 11
// rule: 6.11.c bit-field struct members are not supported

// A struct with bit-field members packing a colour.

typedef struct {
    uint r : 5;
    uint g : 6;
    uint b : 5;
} Rgb565;

__kernel void unpack(__global const Rgb565 *in, __global float4 *out)
{
    size_t i = get_global_id(0);
    out[i] = (float4)(in[i].r, in[i].g, in[i].b, 1.0f);
}
