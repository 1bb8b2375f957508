// Arrays, bool and integer semantics: multi-dimensional private arrays,
// arrays of vectors and structs, array parameters adjusted to pointers,
// the bool type with conversions to and from integers, short-circuit
// evaluation, integer division and remainder signs, shifts, and unsigned
// wrap-around.

typedef struct { int key; float val; } Entry;

float trace3(float m[3][3])           /* adjusted to float (*m)[3] */
{
    return m[0][0] + m[1][1] + m[2][2];
}

int sum_n(const int v[], int n)       /* adjusted to const int * */
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

bool in_range(int x, int lo, int hi) { return x >= lo && x < hi; }

__kernel void arrays_bools(__global int *out, __global float *fout)
{
    int gid = get_global_id(0);
    float m[3][3] = { { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 } };
    int cube[2][2][2] = { { { 1, 2 }, { 3, 4 } }, { { 5, 6 }, { 7, 8 } } };
    float4 rows[2] = { (float4)(1.0f), (float4)(2.0f) };
    Entry table[3] = { { 1, 0.5f }, { 2, 1.5f }, { 3, 2.5f } };
    int flat[8];
    for (int i = 0; i < 8; i++)
        flat[i] = cube[i >> 2][(i >> 1) & 1][i & 1];

    bool b = gid;                    /* nonzero -> true */
    bool nb = !b;
    int bi = b + nb;                 /* bool promotes to int: 1 */
    bool ok = in_range(gid, 0, 64) && flat[7] == 8;
    int guard = (gid > 1000) && (out[100000] > 0);   /* right side not evaluated */
    int either = (gid >= 0) || (out[100000] > 0);

    int q = -7 / 2;                  /* -3: truncation toward zero */
    int r = -7 % 2;                  /* -1 */
    uint wrap = 0u - 1u;             /* UINT_MAX */
    int sh = 1 << 30;
    uint ush = 0x80000000u >> 31;
    long big = (long)INT_MAX * 2;
    uchar uc = 255;
    uc++;                            /* wraps to 0 */

    out[gid] = sum_n(flat, 8) + bi + ok + guard + either + q + r + (int)(wrap >> 31) + (sh >> 30) +
               (int)ush + (int)(big >> 31) + uc + table[2].key;
    fout[gid] = trace3(m) + rows[1].w + table[0].val;
}
