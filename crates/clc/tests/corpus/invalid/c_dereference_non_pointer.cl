// expect-error: 9
// rule: C99 6.5.3.2 the operand of unary * shall have pointer type

// Dereferencing an int.

__kernel void k(__global int *out)
{
    int v = out[0];
    out[1] = *v;
}
