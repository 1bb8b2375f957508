// options: -cl-std=CL1.2
// note: C11 constructs that every clang-based OpenCL compiler accepts in every OpenCL C
// note: version: _Static_assert (C11 6.7.10) at file and block scope, anonymous structure
// note: and union members (C11 6.7.2.1p13), _Alignof, and arrays completed by their
// note: initializer (C99 6.7.8p22) in the constant and private address spaces.

_Static_assert(sizeof(int) == 4, "int is 32 bits");
_Static_assert(_Alignof(float4) == 16, "float4 is 16-byte aligned");

typedef union {
    struct { float x, y; };
    struct { float real, imag; };
} cfloat_t;

struct S { int a; struct { int b, c; }; union { int d; float e; }; };

__constant char greeting[] = "Hello, world";

__kernel void k(__global int *out, __global float *f)
{
    _Static_assert(sizeof(cfloat_t) == 8, "two floats");
    _Static_assert(sizeof(struct S) == 16, "four ints");
    _Static_assert(sizeof(greeting) == 13, "twelve characters and the terminator");
    cfloat_t c;
    c.real = f[0];
    c.imag = f[1];
    struct S s = { .a = 1, .c = 3, .e = 0.5f };
    char text[] = "abc";
    out[0] = (int)(c.x + c.y) + s.a + s.c + (int)sizeof(text) + greeting[0];
}
