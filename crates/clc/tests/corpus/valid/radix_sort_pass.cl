// One 4-bit pass of an LSD radix sort of 32-bit keys: per-group digit
// counts, then a stable scatter using a local prefix over the digits.

#define RADIX_BITS 4
#define RADIX (1 << RADIX_BITS)
#define GROUP 64

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void radix_count(__global const uint *keys,
                 __global uint *counts,   /* [RADIX][num_groups] */
                 const uint n,
                 const uint shift)
{
    __local uint hist[RADIX];
    uint lid = get_local_id(0);
    uint group = get_group_id(0);
    uint groups = get_num_groups(0);
    if (lid < RADIX)
        hist[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    uint i = get_global_id(0);
    if (i < n) {
        uint digit = (keys[i] >> shift) & (RADIX - 1);
        atomic_inc(&hist[digit]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < RADIX)
        counts[lid * groups + group] = hist[lid];
}

/* offsets[] is the exclusive scan of counts[] (digit-major order). */
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void radix_scatter(__global const uint *keys_in,
                   __global uint *keys_out,
                   __global const uint *offsets,
                   const uint n,
                   const uint shift)
{
    __local uint digits[GROUP];
    uint lid = get_local_id(0);
    uint i = get_global_id(0);
    uint digit = RADIX; /* sentinel for out-of-range items */
    uint key = 0;
    if (i < n) {
        key = keys_in[i];
        digit = (key >> shift) & (RADIX - 1);
    }
    digits[lid] = digit;
    barrier(CLK_LOCAL_MEM_FENCE);

    if (i < n) {
        /* stable rank: how many earlier items in this group share the digit */
        uint rank = 0;
        for (uint j = 0; j < lid; ++j)
            rank += digits[j] == digit ? 1u : 0u;
        uint dst = offsets[digit * get_num_groups(0) + get_group_id(0)] + rank;
        keys_out[dst] = key;
    }
}
