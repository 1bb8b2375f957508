// Program-scope __constant tables of several shapes: a 2-D polynomial
// coefficient table, a struct table, a string, and a pointer into a table,
// used by a piecewise-polynomial approximation and a lookup kernel.

typedef struct {
    float lo, hi;
    int degree;
} Segment;

__constant Segment segments[4] = {
    { 0.0f, 0.25f, 2 },
    { 0.25f, 0.5f, 3 },
    { 0.5f, 0.75f, 3 },
    { 0.75f, 1.0f, 2 },
};

__constant float coeffs[4][4] = {
    { 0.0f, 1.0f, -0.5f, 0.0f },
    { 0.01f, 0.95f, -0.4f, 0.05f },
    { 0.03f, 0.9f, -0.35f, 0.02f },
    { 0.1f, 0.7f, -0.1f, 0.0f },
};

__constant char hex_digits[] = "0123456789abcdef";
__constant int primes[] = { 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37 };
__constant int4 offsets4 = (int4)(0, 1, -1, 2);

float eval_piecewise(float x)
{
    x = clamp(x, 0.0f, 0.999999f);
    int s = (int)(x * 4.0f);
    __constant float *c = coeffs[s];
    float t = (x - segments[s].lo) / (segments[s].hi - segments[s].lo);
    float r = c[segments[s].degree];
    for (int d = segments[s].degree - 1; d >= 0; d--)
        r = r * t + c[d];
    return r;
}

__kernel void piecewise(__global const float *in, __global float *out)
{
    size_t i = get_global_id(0);
    out[i] = eval_piecewise(in[i]);
}

__kernel void to_hex(__global const uint *in, __global char8 *out)
{
    size_t i = get_global_id(0);
    uint v = in[i];
    char digits[8];
    for (int k = 0; k < 8; k++)
        digits[k] = hex_digits[(v >> (28 - 4 * k)) & 0xF];
    out[i] = vload8(0, digits);
}

__kernel void nth_prime_sum(__global int *out)
{
    int i = get_global_id(0) % (int)(sizeof(primes) / sizeof(primes[0]));
    out[get_global_id(0)] = primes[i] + offsets4.s2;
}
