// expect-error: 9
// expect-error: 10
// rule: C99 6.7.2 a type specifier must name a declared type

// float5 is not a vector type, and Matrix is not declared.

__kernel void k(__global float *out)
{
    float5 v;
    Matrix m;
    out[0] = 0.0f;
}
