// expect-error: 7
// rule: C99 6.9 a function shall have at most one definition

// A helper function defined twice.

float square(float x) { return x * x; }
float square(float x) { return x * x; }

__kernel void k(__global float *out)
{
    out[0] = square(2.0f);
}
