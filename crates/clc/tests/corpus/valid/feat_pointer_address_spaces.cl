// Pointers in each named address space (6.7): arithmetic, comparison and
// difference, indexing, pointers to pointers in private variables, const
// and restrict, casts between pointee types within one address space, and
// __constant / __local / __private pointer parameters of helper functions.

float sum_global(__global const float *p, int n)
{
    float s = 0.0f;
    for (__global const float *end = p + n; p < end; ++p)
        s += *p;
    return s;
}

float sum_local(__local float *p, int n)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += *(p + i);
    return s;
}

float sum_constant(__constant float *p, int n)
{
    float s = 0.0f;
    __constant float *q = p + n - 1;
    while (q >= p)
        s += *q--;
    return s;
}

float sum_private(__private float *p, int n)
{
    float s = 0.0f;
    for (int i = n - 1; i >= 0; i--)
        s += p[i];
    return s;
}

void swap_private(int **a, int **b)   /* pointer to pointer, all private */
{
    int *t = *a;
    *a = *b;
    *b = t;
}

__kernel void address_spaces(__global float *g, __constant float *c, __local float *l,
                             __global int *out, const int n)
{
    int lid = get_local_id(0);
    l[lid] = g[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);

    float priv[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    float total = sum_global(g, n) + sum_local(l, (int)get_local_size(0)) +
                  sum_constant(c, n) + sum_private(priv, 8);

    __global float *mid = g + n / 2;
    ptrdiff_t d = mid - g;
    __global float *back = mid - d;
    int same = back == g;
    __global uchar *bytes = (__global uchar *)g;
    bytes += sizeof(float);
    __global float *second = (__global float *)bytes;

    int x = 1, y = 2;
    int *px = &x, *py = &y;
    swap_private(&px, &py);
    int **pp = &px;

    __global int *restrict o = out;
    o[0] = (int)total + same + (int)*second + **pp + (int)d;
    o[1] = (int)(&priv[7] - &priv[0]);
    o[2] = *(1 + o);
    o[3] = 2[o];
}
