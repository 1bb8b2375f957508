// Level-synchronous breadth-first search on a CSR graph: one launch per
// level expands the current frontier, claims unvisited neighbours with
// atomic_cmpxchg and appends them to the next frontier with atomic_inc.

__kernel void bfs_level(__global const int *row_offsets,
                        __global const int *columns,
                        __global const int *frontier,
                        const int frontier_size,
                        __global int *next_frontier,
                        __global int *next_size,
                        __global int *depth,
                        const int level)
{
    int i = get_global_id(0);
    if (i >= frontier_size)
        return;
    int v = frontier[i];
    for (int e = row_offsets[v]; e < row_offsets[v + 1]; e++) {
        int u = columns[e];
        if (atomic_cmpxchg(&depth[u], -1, level + 1) == -1) {
            int slot = atomic_inc(next_size);
            next_frontier[slot] = u;
        }
    }
}

__kernel void bfs_init(__global int *depth, const int n, const int source)
{
    int v = get_global_id(0);
    if (v < n)
        depth[v] = v == source ? 0 : -1;
}
