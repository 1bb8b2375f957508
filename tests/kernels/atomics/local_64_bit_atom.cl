// OpenCL C 6.15.12.9, tables 28 and 29: the 64-bit atom_ functions on __local memory, the 64
// work-items of one work-group at once. o: atom_inc 64; atom_dec 1000 - 64; atom_add
// 2^32 + 0 + 1 + ... + 63; atom_max 63 << 40; atom_or of every bit -1; atom_and 1; atom_xor
// 0 ^ 1 ^ ... ^ 63 = 0; atom_sub -3 * 64; one atom_cmpxchg of u[0] from 0 won (its new value
// is some work-item's id + 1, in 1..64); atom_inc of a ulong 64; atom_xchg's old value 64 and
// the new one 5.
// local-sizes: fixed: the counts are those of the one group of 64
// requires: cl_khr_int64_base_atomics
// requires: cl_khr_int64_extended_atomics
// run: --kernel k --global 64 --local 64 --arg 'long[12]'
// expect o: 64 936 4294969312 69269232549888 -1 1 0 -192 1 64 64 5
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void k(global long *o) {
    local long s[8];
    local ulong u[2];
    size_t i = get_local_id(0);
    if (i == 0) {
        s[0] = 0; s[1] = 1000; s[2] = 0x100000000L; s[3] = 0; s[4] = 0;
        s[5] = -1; s[6] = 0; s[7] = 0;
        u[0] = 0; u[1] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_inc(&s[0]);
    atom_dec(&s[1]);
    atom_add(&s[2], (long)i);
    atom_max(&s[3], (long)i << 40);
    atom_or(&s[4], 1L << i);
    atom_and(&s[5], ~(1L << i) | 1L);
    atom_xor(&s[6], (long)i);
    atom_sub(&s[7], 3L);
    atom_inc(&u[1]);
    // One work-item wins each exchange from 0 to its own id + 1.
    atom_cmpxchg(&u[0], 0UL, (ulong)i + 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i == 0) {
        for (int j = 0; j < 8; j++) o[j] = s[j];
        o[8] = u[0] >= 1 && u[0] <= get_local_size(0);
        o[9] = (long)u[1];
        o[10] = atom_xchg(&s[0], 5L);
        o[11] = s[0];
    }
}
