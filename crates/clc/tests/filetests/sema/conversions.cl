// Usual arithmetic conversions (6.4.6, C99 6.3.1.8): every conversion is a Cast node.
kernel void conv(global float *out, char c, uint u, long l)
{
    int i = c + 1;
    ulong w = u + l;
    float f = i * 0.5f;
    out[0] = f + u;
    double d = f;
    out[1] = (float)d;
    i += 2.5f;
}
