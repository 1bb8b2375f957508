// expect-error: 7
// expect-error: 11
// rule: C11 6.7.10 the constant expression of a static assertion shall compare unequal to 0

// A failed static assertion at file scope, and one in a block.

_Static_assert(sizeof(int) == 8, "int is 64 bits");

__kernel void k(__global int *out)
{
    _Static_assert(sizeof(float4) == 8, "float4 is 8 bytes");
    out[0] = 1;
}
