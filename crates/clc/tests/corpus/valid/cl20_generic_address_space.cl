// options: -cl-std=CL2.0
// requires: generic
// note: checked with PoCL 5.0 (generic address space supported) under -cl-std=CL3.0.
// The generic address space (6.7.5): unqualified pointers in functions
// point into global, local or private memory; to_global/to_local/
// to_private (6.15.10) recover the named space; explicit casts from named
// to generic pointers and back.

float sum(const float *p, int n)     /* generic pointer parameter */
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

void bump(int *p) { (*p)++; }

int where(int *p)
{
    if (to_global(p))
        return 1;
    if (to_local(p))
        return 2;
    if (to_private(p))
        return 3;
    return 0;
}

__kernel void generic_pointers(__global float *g, __global int *gi, __local float *l, __local int *li)
{
    int lid = get_local_id(0);
    l[lid] = g[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);

    float priv[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
    float total = sum(g, 4) + sum(l, 4) + sum(priv, 4);

    int counter = 0;
    bump(&counter);
    bump(gi);
    if (lid == 0)
        bump(li);

    int *gen = gi;                        /* implicit global -> generic */
    __global int *back = (__global int *)gen; /* explicit generic -> global */
    __global int *checked = to_global(gen);
    gi[1] = where(gi) * 100 + where(li) * 10 + where(&counter) + *back + (checked != 0);
    g[get_global_id(0)] = total + (float)counter;
}
