// Work-item functions (6.15.1), synchronization and fences (6.15.8,
// 6.15.9), async copies and prefetch (6.15.11): a 3-D index computation,
// barrier with each fence flag, mem_fence/read_mem_fence/write_mem_fence,
// async_work_group_copy in both directions, the strided form and
// wait_group_events.

__kernel void indices(__global uint *out)
{
    uint dims = get_work_dim();
    size_t gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
    size_t flat = (gz * get_global_size(1) + gy) * get_global_size(0) + gx;
    size_t group_flat = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) +
                        get_group_id(0);
    size_t local_flat = (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
                        get_local_id(0);
    out[flat] = dims + (uint)group_flat + (uint)local_flat + (uint)get_global_offset(0);
}

__kernel void staged(__global const float4 *src, __global float4 *dst, __local float4 *tile,
                     __global const float *column_major, __local float *column, const int rows)
{
    size_t n = get_local_size(0);
    size_t base = get_group_id(0) * n;
    event_t ev = async_work_group_copy(tile, src + base, n, 0);
    event_t ev2 = async_work_group_strided_copy(column, column_major + get_group_id(0), (size_t)rows,
                                                get_num_groups(0), 0);
    event_t both[2] = { ev, ev2 };
    wait_group_events(2, both);

    prefetch(src + base + n, n);
    size_t lid = get_local_id(0);
    tile[lid] = tile[lid] * 2.0f + column[lid % rows];
    barrier(CLK_LOCAL_MEM_FENCE);

    event_t back = async_work_group_copy(dst + base, tile, n, 0);
    wait_group_events(1, &back);
}

__kernel void fences(__global int *flags, __global int *data, __local int *l)
{
    size_t i = get_global_id(0);
    data[i] = (int)i;
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    flags[i] = 1;
    mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    l[get_local_id(0)] = data[i];
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    read_mem_fence(CLK_LOCAL_MEM_FENCE);
    data[i] += l[(get_local_id(0) + 1) % get_local_size(0)];
    barrier(CLK_GLOBAL_MEM_FENCE);
}
