// expect-error: 6
// rule: 6.7 a type shall be qualified by at most one address space

// A pointer whose pointee carries two address-space qualifiers.

__kernel void k(__global __local int *p)
{
    p[0] = 0;
}
