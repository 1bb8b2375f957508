// expect-error: 11
// expect-error: 12
// rule: 6.3.7 numeric indices must be within the vector's component count

// .s4 on an int4 and .s8 on an int8.

__kernel void k(__global int *out)
{
    int4 a = (int4)(1, 2, 3, 4);
    int8 b = (int8)(0);
    out[0] = a.s4;
    out[1] = b.s8;
}
