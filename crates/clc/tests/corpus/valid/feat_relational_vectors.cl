// Relational, equality and logical operators on vectors (6.5.4, 6.5.5, 6.5.7, 6.5.8):
// the result is a signed integer vector of the operand width with -1 for
// true and 0 for false; any/all/select consume such masks.

__kernel void relational(__global int4 *out4, __global long2 *out2, __global short8 *out8,
                         __global int *flags)
{
    float4 a = (float4)(1.0f, 2.0f, NAN, 4.0f);
    float4 b = (float4)(1.0f, 3.0f, 0.0f, -4.0f);
    int4 lt = a < b;
    int4 le = a <= b;
    int4 eq = a == b;
    int4 ne = a != b;
    int4 both = lt && le;
    int4 either = eq || ne;
    int4 not_ = !lt;

    long2 dl = (long2)(1, 2) > (long2)(0, 5);
    short8 ss = (short8)(1) >= (short8)(0, 1, 2, 3, 4, 5, 6, 7);
    uchar4 uc = (uchar4)(1, 2, 3, 4);
    char4 cmp = uc > (uchar4)(2);   /* signed char4 result */

    int4 nan = isnan(a);
    int4 ord = isordered(a, b);
    float4 picked = select(a, b, lt);
    int4 bits = select((int4)(0), (int4)(1), lt);

    out4[0] = lt + le + eq + ne + both + either + not_ + nan + ord + bits + convert_int4(cmp) +
              convert_int4(picked);
    out2[0] = dl;
    out8[0] = ss;
    flags[0] = any(lt) + all(ne) * 2 + any(cmp) * 4;
}
