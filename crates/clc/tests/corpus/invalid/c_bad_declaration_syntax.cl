// expect-error: 9
// expect-error: 10
// rule: C99 6.7 a declaration must follow the declaration grammar

// A declaration with a missing declarator name and a keyword as a name.

__kernel void k(__global int *out)
{
    int = 3;
    int for = 4;
    out[0] = 0;
}
