// Kernel argument metadata (name, type as written, address and type qualifiers) and the
// kernel attributes; a struct passed by value arrives as a private pointer.
typedef struct { int a; float b; } Pair;
__kernel __attribute__((work_group_size_hint(8, 4, 1))) __attribute__((vec_type_hint(float4)))
void meta(__global const float *restrict in, __global volatile int *flags,
          __local uint4 *scratch, __constant short *table, const int n, Pair p) {
    flags[0] = n + p.a + (int)p.b + table[0];
    scratch[0] = (uint4)(0);
}
