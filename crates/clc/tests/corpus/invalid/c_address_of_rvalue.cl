// expect-error: 9
// rule: C99 6.5.3.2 the operand of unary & shall be an lvalue

// Taking the address of an arithmetic expression.

__kernel void k(__global int *out)
{
    int a = 1, b = 2;
    int *p = &(a + b);
    out[0] = *p;
}
