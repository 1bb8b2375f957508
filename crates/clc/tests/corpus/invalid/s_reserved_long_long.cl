// expect-error: 9
// rule: 6.3.4 long long is a reserved data type
// note: PoCL accepts this file; 6.3.4: "The data type names described in the following table are reserved and cannot be used by applications as type names." (long long, long longn)

// A 64-bit counter declared long long.

__kernel void k(__global long *out)
{
    long long total = 0;
    out[0] = (long)total;
}
