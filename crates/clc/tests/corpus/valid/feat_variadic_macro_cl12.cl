// options: -cl-std=CL1.2
// note: 6.11.f: "Variadic macros are not supported. This restriction only applies to OpenCL C 2.0 or below."
// note: accepted all the same: every clang-based compiler (PoCL, Intel, NVIDIA, AMD) builds
// note: variadic macros in every OpenCL C version, and real programs rely on it.

// A variadic macro under OpenCL C 1.2, with __VA_OPT__ and a GNU named variadic parameter.

#define FIRST(a, ...) (a)
#define ADD(a, ...) ((a) __VA_OPT__(+ ADD2(__VA_ARGS__)))
#define ADD2(a, b) ((a) + (b))
#define SECOND(x...) ADD2(x)

__kernel void k(__global int *out)
{
    out[0] = FIRST(1, 2, 3);
    out[1] = ADD(1) + ADD(1, 2, 3);
    out[2] = SECOND(4, 5);
}
