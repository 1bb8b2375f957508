// expect-error: 10
// expect-error: 11
// rule: C99 6.5.16 the left operand of an assignment shall be a modifiable lvalue

// Assigning to a const local and to a const argument.

__kernel void k(__global int *out, const int n)
{
    const int limit = 10;
    limit = 20;
    n++;
    out[0] = limit + n;
}
