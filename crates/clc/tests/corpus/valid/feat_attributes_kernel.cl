// Kernel attributes (6.9.2, 6.13.2): reqd_work_group_size,
// work_group_size_hint and vec_type_hint, alone and combined, written before
// and after the kernel keyword, and through a macro.

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void fixed_1d(__global float *a) { a[get_global_id(0)] *= 2.0f; }

__attribute__((reqd_work_group_size(8, 8, 1))) __kernel
void fixed_2d(__global float *a) { a[get_global_id(1) * get_global_size(0) + get_global_id(0)] = 0.0f; }

__kernel __attribute__((work_group_size_hint(128, 1, 1)))
void hinted(__global int *a) { a[get_global_id(0)] += 1; }

__kernel __attribute__((vec_type_hint(float4)))
void vec_hint(__global float4 *a) { a[get_global_id(0)] = sqrt(a[get_global_id(0)]); }

__kernel __attribute__((vec_type_hint(int)))
void vec_hint_scalar(__global int *a) { a[get_global_id(0)] ^= 1; }

__kernel __attribute__((vec_type_hint(uchar16))) __attribute__((work_group_size_hint(4, 4, 4)))
void two_attributes(__global uchar16 *a) { a[get_global_id(0)] = rotate(a[get_global_id(0)], (uchar16)(1)); }

__kernel __attribute__((reqd_work_group_size(16, 16, 1), vec_type_hint(short8)))
void combined_list(__global float *a) { a[0] = 1.0f; }

#define WG(x, y, z) __attribute__((reqd_work_group_size(x, y, z)))
__kernel WG(4, 2, 2) void via_macro(__global float *a) { a[get_local_id(2) * 8 + get_local_id(1) * 4 + get_local_id(0)] = 0.0f; }

kernel __attribute__((reqd_work_group_size(1, 1, 1))) void single(global int *a) { *a = 1; }
