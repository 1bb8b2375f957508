// expect-error: 11
// expect-error: 12
// rule: C99 6.5.2.2 the number of arguments must agree with the number of parameters

// A helper called with too few and too many arguments.

float lerp1(float a, float b, float t) { return a + (b - a) * t; }

__kernel void k(__global float *out)
{
    out[0] = lerp1(1.0f, 2.0f);
    out[1] = lerp1(1.0f, 2.0f, 0.5f, 0.0f);
}
