// expect-error: 9
// rule: 6.11.d structures with flexible (or unsized) arrays are not supported
// note: PoCL accepts this file; 6.11.d: "Variable length arrays and structures with flexible (or unsized) arrays are not supported."

// A struct ending in a flexible array member.

typedef struct {
    int count;
    float values[];
} Packet;

__kernel void k(__global Packet *p, __global float *out)
{
    out[0] = p->values[0];
}
