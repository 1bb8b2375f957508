// expect-error: 9
// rule: 6.4.6 a scalar operand cannot be converted to a vector of lower rank element type

// char4 + int variable: the int cannot be implicitly narrowed to char.

__kernel void k(__global char4 *out, const int s)
{
    char4 d = out[0];
    out[1] = d + s;
}
