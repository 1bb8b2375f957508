// Struct layout with padding, a struct returned and passed by value, __constant data,
// a kernel-scope __local array, barrier.
typedef struct { char c; float f; short s; } S;
__constant int lut[3] = {7, 8, 9};
S mk(float f) { S s = {1, f, 2}; return s; }
float use(S s) { return s.f + s.c + s.s; }
__kernel void k(__global float *out) __attribute__((reqd_work_group_size(64, 1, 1))) {
    __local float tile[64];
    size_t l = get_local_id(0);
    tile[l] = use(mk((float)lut[l % 3]));
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[63 - l];
}
