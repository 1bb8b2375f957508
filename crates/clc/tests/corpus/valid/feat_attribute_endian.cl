// The endian attribute (6.13.3: "The endian attribute can only be applied to
// pointer types that are in the global or constant address space"), with
// host and device byte orders on kernel and helper-function parameters.
// note: PoCL ignores the attribute (with a warning); the spec defines it.

float4 first(__global float4 *p __attribute__((endian(host))))
{
    return p[0];
}

__kernel void byte_order(__global float4 *src __attribute__((endian(host))),
                         __global float4 *dst __attribute__((endian(device))),
                         __constant int *table __attribute__((endian(device))))
{
    size_t i = get_global_id(0);
    dst[i] = src[i] + first(src) * (float)table[0];
}
