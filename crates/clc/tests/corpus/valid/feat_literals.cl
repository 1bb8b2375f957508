// Literals (C99 6.4.4, 6.4.5 and OpenCL 6.3.1): decimal, octal, hex and
// (unsigned/long) suffixes in every case order, float literals with f/F,
// exponents, hex floats with binary exponents, character constants with
// escapes, and string literals with escapes and concatenation.

__constant char greeting[] = "tab\there\n" "quote\" backslash\\ hex\x41 oct\101";

__kernel void literals(__global ulong *iout, __global float *fout, __global char *cout)
{
    int dec = 1234;
    int oct = 0777;
    int hex = 0xDeadBee;
    uint u1 = 42u;
    uint u2 = 42U;
    long l1 = 42l;
    long l2 = 42L;
    ulong ul1 = 42ul;
    ulong ul2 = 42UL;
    ulong ul3 = 42lu;
    ulong ul4 = 42LU;
    ulong ul5 = 42uL;
    ulong ul6 = 42Lu;
    ulong big = 0xFFFFFFFFFFFFFFFFul;
    long min = -9223372036854775807L - 1;
    uint hexu = 0x80000000;         /* unsigned int: does not fit in int */
    int zero = 0;

    float f1 = 1.0f;
    float f2 = 1.F;
    float f3 = .5f;
    float f4 = 1e3f;
    float f5 = 1.5E-3F;
    float f6 = 2.f;
    float hf1 = 0x1p-2f;            /* 0.25 */
    float hf2 = 0x1.8p1f;           /* 3.0 */
    float hf3 = 0X.Cp+0F;           /* 0.75 */
    float hf4 = 0xAp-3f;            /* no fraction part: 1.25 */
    float nodot = 3e2f;
    float flt_max = 0x1.fffffep127f;

    char c1 = 'a';
    char c2 = '\n';
    char c3 = '\'';
    char c4 = '\\';
    char c5 = '\x7f';
    char c6 = '\0';
    char c7 = '\101';
    char c8 = '"';
    char c9 = '\?';

    iout[0] = dec + oct + hex + u1 + u2 + l1 + l2 + zero;
    iout[1] = ul1 + ul2 + ul3 + ul4 + ul5 + ul6 + big + (ulong)min + hexu;
    fout[0] = f1 + f2 + f3 + f4 + f5 + f6 + hf1 + hf2 + hf3 + hf4 + nodot + flt_max * 0.0f;
    cout[0] = c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8 + c9 + greeting[3];
}
