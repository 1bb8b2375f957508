// expect-error: 9
// rule: 6.15.7 vstore functions write through __global, __local or __private pointers

// vstore4 into __constant memory.

__kernel void k(__constant float *table, __global float *out)
{
    float4 v = vload4(0, table);
    vstore4(v, 0, table);
    out[0] = v.x;
}
