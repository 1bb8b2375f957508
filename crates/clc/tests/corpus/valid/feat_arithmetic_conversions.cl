// Usual arithmetic conversions (6.4, C99 6.3.1.8) between scalar types:
// integer promotion of char/short, signed/unsigned mixing, integer to
// floating, explicit casts, and conversions on assignment and return.

long widen(int x) { return x; }          /* implicit int -> long on return */
float to_float(long x) { return x; }     /* implicit long -> float */

__kernel void conversions(__global int *iout, __global float *fout, __global ulong *uout)
{
    char c = -3;
    uchar uc = 200;
    short s = -30000;
    ushort us = 60000;
    int i = c + uc;                /* both promoted to int: 197 */
    int j = s + us;                /* 30000 */
    uint u = 1u;
    long l = -1L;
    bool neg = l < u;              /* u converts to long: true */
    uint wrap = (uint)i - 400u;    /* unsigned wrap-around */
    ulong big = u + (ulong)l;      /* 0 */
    float f = i;                   /* int -> float on assignment */
    float g = f / 2;               /* int constant converted to float */
    int trunc = (int)-2.7f;        /* toward zero: -2 */
    uchar back = (uchar)300;       /* modulo 2^8 */
    char sc = (char)uc;
    short sh = c * 1000;
    float mixed = c * 0.5f + uc;
    unsigned long ul = 5;
    long diff = (long)ul - 10;
    size_t sz = get_global_id(0);
    int idx = sz;                  /* size_t -> int */
    ptrdiff_t pd = (ptrdiff_t)idx - 1;

    iout[0] = i + j + (int)neg + trunc + back + sc + sh + idx + (int)pd;
    fout[0] = f + g + mixed + to_float(widen(i));
    uout[0] = wrap + big + (ulong)diff;
}
