// Enumerations and typedefs (C99 6.7.2.2, 6.7.7): explicit and implicit
// enumerator values, enums in switch and arithmetic, typedefs of scalars,
// vectors, arrays, pointers with address spaces, structs and function
// types used in prototypes.

enum colour { RED, GREEN = 5, BLUE, ALPHA = BLUE * 2 };
typedef enum { MODE_ADD = 1, MODE_MUL = 2, MODE_MAX = 4 } mode_t;

typedef float real;
typedef float4 real4;
typedef float4 point;
typedef int row[4];
typedef __global float *gfloat_ptr;
typedef __constant int *cint_ptr;
typedef struct pair { int first, second; } pair;
typedef unsigned long u64;
typedef int binop(int, int);          /* function type for declarations */

binop add_fn;
int add_fn(int a, int b) { return a + b; }

real apply(mode_t m, real a, real b)
{
    switch (m) {
    case MODE_ADD: return a + b;
    case MODE_MUL: return a * b;
    case MODE_MAX: return fmax(a, b);
    }
    return 0;
}

__kernel void enums(gfloat_ptr out, cint_ptr table, __global u64 *wide)
{
    enum colour c = BLUE;
    int idx = c + ALPHA;          /* 6 + 12 */
    mode_t m = (mode_t)(1 << (get_global_id(0) % 3));
    row r = { table[0], table[1], table[2], table[3] };
    pair p = { r[0], r[3] };
    point pt = (point)(1.0f, 2.0f, 3.0f, 4.0f);
    real4 rv = { 1, 2, 3, 4 };
    out[get_global_id(0)] = apply(m, pt.y, (real)idx) + (real)add_fn(p.first, p.second) + rv.w;
    wide[get_global_id(0)] = (u64)GREEN << 40;
}
