// expect-error: 7
// rule: 1.2 spec 6.9.o / 6.7 struct members cannot be qualified with an address space

// A struct member qualified with __local.

struct Shared {
    __local int counter;
    int id;
};

__kernel void k(__global int *out)
{
    out[0] = 1;
}
