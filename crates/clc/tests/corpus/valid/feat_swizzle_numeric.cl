// Numeric component indices .s0 - .sF and .S0 - .SF (6.3.7), in either
// case, as rvalues and lvalues, on 2-, 3-, 4-, 8- and 16-component vectors.

__kernel void swizzle_numeric(__global int16 *out16, __global int8 *out8)
{
    int16 v = (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    int a = v.s0 + v.s9 + v.sa + v.sA + v.sF + v.sf;
    int4 four = v.s0123;
    int8 eight = v.sfedcba98;
    int16 rev = v.sFEDCBA9876543210;
    int2 up = v.S01;          /* the S prefix is allowed too */
    int3 x3 = v.s579;

    int8 w = (int8)(0);
    w.s0 = a;
    w.s7 = up.s1;
    w.s1234 = four;
    w.s56 = x3.s20;
    int3 t3 = (int3)(1, 2, 3);
    t3.s21 = t3.s12;
    int2 t2 = (int2)(4, 5);
    t2.s10 = t2;

    rev.s0 += 100;
    rev.sF8 = (int2)(-1, -2);
    out16[0] = rev + (int16)(eight, eight);
    out8[0] = w + (int8)(t3, t2, t2.s1, 0, 0);
}
