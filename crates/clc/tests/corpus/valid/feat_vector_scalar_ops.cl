// Operators on vectors (6.4, 6.5): component-wise arithmetic, scalar
// operands widened to the vector type, bitwise and shift operators, unary
// operators, compound assignment, increment and the ternary operator with a
// vector condition.

__kernel void vector_ops(__global float4 *fo, __global int4 *io, __global uint8 *uo)
{
    float4 a = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    float4 b = (float4)(0.5f);
    float4 c = a * b + 1.0f;        /* scalar widened */
    c = 2.0f * c - a / b;
    c += 3.0f;
    c *= a;
    c = -c;
    c = +c;

    int4 i = (int4)(1, -2, 3, -4);
    int4 j = i % 3;
    j = j << 1;
    j = j >> (int4)(1, 0, 1, 0);
    j |= 0x10;
    j &= ~(int4)(1);
    j ^= i;
    j++;
    --j;
    int4 k = i * 2 + j / 3;

    uint8 u = (uint8)(1, 2, 3, 4, 5, 6, 7, 8);
    u = u << 31;                    /* shift count taken modulo 32 per 6.5.10 */
    u = u >> 3u;
    u = u + 1;
    int8 mask = u > 4;              /* relational on uint8 gives int8: -1 or 0 */

    int4 cond = i > 0;
    int4 sel = cond ? i : -i;       /* component-wise select */
    float4 fsel = isgreater(a, b) ? a : b;

    fo[0] = c + fsel;
    io[0] = k + sel + !i;
    uo[0] = u & as_uint8(mask);
}
