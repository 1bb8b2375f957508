// Shared pieces of the builtin library: bit access and classification helpers used by the
// function families. Everything here is `static`-like: the names begin with `__cl_` and no
// program can call them (program identifiers beginning with two underscores are reserved).

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// 6.15.6 classification, one type at a time: 1 for true, 0 for false. The vector forms'
// -1 comes from the wrapper that calls these lane by lane.
int __cl_isnan_float(float x) { return x != x; }
int __cl_isnan_double(double x) { return x != x; }
int __cl_isinf_float(float x) { return (as_uint(x) & 0x7fffffffu) == 0x7f800000u; }
int __cl_isinf_double(double x) { return (as_ulong(x) & 0x7fffffffffffffffUL) == 0x7ff0000000000000UL; }
int __cl_isfinite_float(float x) { return (as_uint(x) & 0x7f800000u) != 0x7f800000u; }
int __cl_isfinite_double(double x) { return (as_ulong(x) & 0x7ff0000000000000UL) != 0x7ff0000000000000UL; }
int __cl_isnormal_float(float x) {
    uint e = as_uint(x) & 0x7f800000u;
    return e != 0u && e != 0x7f800000u;
}
int __cl_isnormal_double(double x) {
    ulong e = as_ulong(x) & 0x7ff0000000000000UL;
    return e != 0UL && e != 0x7ff0000000000000UL;
}
int __cl_signbit_float(float x) { return as_int(x) < 0; }
int __cl_signbit_double(double x) { return as_long(x) < 0L; }

int __cl_isequal_float_float(float x, float y) { return x == y; }
int __cl_isequal_double_double(double x, double y) { return x == y; }
int __cl_isnotequal_float_float(float x, float y) { return x != y; }
int __cl_isnotequal_double_double(double x, double y) { return x != y; }
int __cl_isgreater_float_float(float x, float y) { return x > y; }
int __cl_isgreater_double_double(double x, double y) { return x > y; }
int __cl_isgreaterequal_float_float(float x, float y) { return x >= y; }
int __cl_isgreaterequal_double_double(double x, double y) { return x >= y; }
int __cl_isless_float_float(float x, float y) { return x < y; }
int __cl_isless_double_double(double x, double y) { return x < y; }
int __cl_islessequal_float_float(float x, float y) { return x <= y; }
int __cl_islessequal_double_double(double x, double y) { return x <= y; }
// Ordered and unequal: false when either is a NaN.
int __cl_islessgreater_float_float(float x, float y) { return x < y || x > y; }
int __cl_islessgreater_double_double(double x, double y) { return x < y || x > y; }
int __cl_isordered_float_float(float x, float y) { return x == x && y == y; }
int __cl_isordered_double_double(double x, double y) { return x == x && y == y; }
int __cl_isunordered_float_float(float x, float y) { return x != x || y != y; }
int __cl_isunordered_double_double(double x, double y) { return x != x || y != y; }
