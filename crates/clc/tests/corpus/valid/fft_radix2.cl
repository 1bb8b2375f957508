// Radix-2 and radix-4 Stockham FFT steps on interleaved complex data held in
// float2 (x = real, y = imaginary). Twiddles are computed with sincos.

#define PI_F 3.14159265358979323846f

inline float2 cmul(float2 a, float2 b)
{
    return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

inline float2 twiddle(int k, int n, float sign)
{
    float c;
    float s = sincos(sign * 2.0f * PI_F * (float)k / (float)n, &c);
    return (float2)(c, s);
}

/* mul by -i (forward) */
inline float2 mul_minus_i(float2 a) { return (float2)(a.y, -a.x); }

/* One radix-2 pass; p is the current sub-transform length (1, 2, 4, ...). */
__kernel void fft_radix2(__global const float2 *in,
                         __global float2 *out,
                         const int p,
                         const float sign)
{
    int i = get_global_id(0);       /* 0 .. n/2 - 1 */
    int t = get_global_size(0);     /* n/2 */
    int k = i & (p - 1);            /* index in the sub-transform */
    float2 u0 = in[i];
    float2 u1 = in[i + t];
    u1 = cmul(u1, twiddle(k, 2 * p, sign));
    int j = (i << 1) - k;           /* expand(i, p, 2) */
    out[j] = u0 + u1;
    out[j + p] = u0 - u1;
}

/* One radix-4 pass of a forward transform. */
__kernel void fft_radix4(__global const float2 *in,
                         __global float2 *out,
                         const int p)
{
    int i = get_global_id(0);       /* 0 .. n/4 - 1 */
    int t = get_global_size(0);     /* n/4 */
    int k = i % p;
    float2 u0 = in[i];
    float2 u1 = in[i + t];
    float2 u2 = in[i + 2 * t];
    float2 u3 = in[i + 3 * t];
    if (p > 1) {
        u1 = cmul(u1, twiddle(k, 4 * p, -1.0f));
        u2 = cmul(u2, twiddle(2 * k, 4 * p, -1.0f));
        u3 = cmul(u3, twiddle(3 * k, 4 * p, -1.0f));
    }
    float2 a0 = u0 + u2, a1 = u0 - u2;
    float2 a2 = u1 + u3, a3 = mul_minus_i(u1 - u3);
    int j = (i - k) * 4 + k;
    out[j] = a0 + a2;
    out[j + p] = a1 + a3;
    out[j + 2 * p] = a0 - a2;
    out[j + 3 * p] = a1 - a3;
}

/* Scales an inverse transform by 1/n and computes magnitudes. */
__kernel void fft_normalize(__global float2 *data, __global float *mag, const int n)
{
    int i = get_global_id(0);
    float2 v = data[i] * (1.0f / (float)n);
    data[i] = v;
    mag[i] = length(v);
}
