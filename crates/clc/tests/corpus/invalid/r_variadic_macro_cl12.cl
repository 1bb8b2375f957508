// options: -cl-std=CL1.2
// expect-error: 8
// rule: 6.11.f variadic macros are not supported in OpenCL C 2.0 or below
// note: PoCL accepts this file; 6.11.f: "Variadic macros are not supported. This restriction only applies to OpenCL C 2.0 or below."

// A variadic macro under OpenCL C 1.2.

#define FIRST(a, ...) (a)

__kernel void k(__global int *out)
{
    out[0] = FIRST(1, 2, 3);
}
