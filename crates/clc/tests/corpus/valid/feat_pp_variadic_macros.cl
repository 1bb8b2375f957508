// options: -cl-std=CL3.0
// Variadic macros (C99 6.10.3; 6.11.f: "Variadic macros are not supported.
// This restriction only applies to OpenCL C 2.0 or below."): __VA_ARGS__
// with one and several arguments, named parameters before the ellipsis,
// stringizing the variable part, and forwarding to printf.

#define SUM(...) sum_n(__VA_ARGS__)
#define CALL(fn, ...) fn(__VA_ARGS__)
#define FIRST(a, ...) (a)
#define SHOW(...) #__VA_ARGS__
#define LOG(fmt, ...) printf(fmt "\n", __VA_ARGS__)
#define COUNT_IMPL(_1, _2, _3, _4, N, ...) N
#define COUNT(...) COUNT_IMPL(__VA_ARGS__, 4, 3, 2, 1, 0)

int sum_n(int a, int b, int c) { return a + b + c; }
int neg(int a) { return -a; }

__constant char shown[] = SHOW(a, b,   c);   /* "a, b, c" */

__kernel void variadic(__global int *out)
{
    int gid = get_global_id(0);
    out[gid] = SUM(1, 2, 3) + CALL(neg, gid) + FIRST(10, 20, 30) + COUNT(x, y, z) + shown[0];
    if (gid == 0)
        LOG("gid %d of %d", gid, (int)get_global_size(0));
}
