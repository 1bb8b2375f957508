// Type and variable attributes (6.13.1, 6.13.3): aligned on structs,
// members, typedefs and variables in each address space, packed structs and
// members; attributes before and after the tag, with and without an
// argument.

typedef struct __attribute__((packed)) {
    char c;
    int i;        /* no padding: offset 1 */
    short s;
} Packed;

struct Aligned {
    char c;
    float f;
} __attribute__((aligned(16)));

struct __attribute__((aligned)) MaxAligned {
    int x;
};

typedef struct {
    float a __attribute__((aligned(8)));
    float b;
    int tail[3] __attribute__((packed));
} Members;

typedef int aligned_int __attribute__((aligned(8)));

__constant int lut[4] __attribute__((aligned(16))) = { 1, 2, 3, 4 };

__kernel void type_attrs(__global Packed *p, __global struct Aligned *a, __global int *sizes)
{
    __local float4 staging[16] __attribute__((aligned(64)));
    int x __attribute__((aligned(16))) = 3;
    aligned_int y = 4;
    Members m = { 1.0f, 2.0f, { 3, 4, 5 } };
    staging[get_local_id(0) & 15] = (float4)((float)p->i);
    barrier(CLK_LOCAL_MEM_FENCE);
    sizes[0] = sizeof(Packed);            /* 7 */
    sizes[1] = sizeof(struct Aligned);    /* 16 */
    sizes[2] = __alignof__(struct MaxAligned);
    sizes[3] = x + y + lut[2] + (int)m.b + (int)staging[0].x + (int)a->f;
}
