// Smith-Waterman local alignment with linear gap penalty, computed along
// anti-diagonals (one launch per diagonal), plus a tile kernel that fills a
// 16x16 block of the DP matrix in __local memory with a wavefront loop.

#define MATCH 2
#define MISMATCH -1
#define GAP -1
#define T 16

inline int score(char a, char b) { return a == b ? MATCH : MISMATCH; }

__kernel void sw_diagonal(__global const char *s1, __global const char *s2,
                          __global int *h, const int n1, const int n2,
                          const int diag, __global int *best)
{
    int i = get_global_id(0) + 1;      /* row, 1-based */
    int j = diag - i;                  /* column */
    if (i > n1 || j < 1 || j > n2)
        return;
    int w = n2 + 1;
    int v = max(0, h[(i - 1) * w + (j - 1)] + score(s1[i - 1], s2[j - 1]));
    v = max(v, h[(i - 1) * w + j] + GAP);
    v = max(v, h[i * w + (j - 1)] + GAP);
    h[i * w + j] = v;
    atomic_max(best, v);
}

__kernel __attribute__((reqd_work_group_size(T, 1, 1)))
void sw_tile(__global const char *s1, __global const char *s2,
             __global const int *top, __global const int *left, const int corner,
             __global int *bottom, __global int *right)
{
    __local int tile[T + 1][T + 1];
    int t = get_local_id(0);
    tile[0][t + 1] = top[t];
    tile[t + 1][0] = left[t];
    if (t == 0)
        tile[0][0] = corner;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int d = 0; d < 2 * T - 1; d++) {
        int i = t + 1;
        int j = d - t + 1;
        if (j >= 1 && j <= T) {
            int v = tile[i - 1][j - 1] + score(s1[i - 1], s2[j - 1]);
            v = max(v, tile[i - 1][j] + GAP);
            v = max(v, tile[i][j - 1] + GAP);
            tile[i][j] = max(v, 0);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    bottom[t] = tile[T][t + 1];
    right[t] = tile[t + 1][T];
}
