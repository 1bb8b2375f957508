// expect-error: 10
// expect-error: 11
// rule: C99 6.5.2.3 the left operand of . shall have struct or union type

// Using . and -> on an int and an int pointer.

__kernel void k(__global int *out)
{
    int v = 3;
    out[0] = v.value;
    out[1] = out->value;
}
