// expect-error: 9
// expect-error: 10
// rule: 6.3.6 a vector literal must supply exactly the vector's component count

// An int2 literal with three scalars, and an int4 built from two int4s.

__kernel void k(__global int4 *out)
{
    int2 a = (int2)(1, 2, 3);
    int4 b = (int4)(out[0], out[1]);
    out[2] = (int4)(a, a) + b;
}
