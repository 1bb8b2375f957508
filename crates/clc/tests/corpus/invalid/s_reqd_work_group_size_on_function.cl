// expect-error: 6
// rule: 6.9.2 reqd_work_group_size is an attribute of __kernel functions only

// reqd_work_group_size on a non-kernel function.

__attribute__((reqd_work_group_size(8, 1, 1))) float helper(float x) { return x; }

__kernel void k(__global float *out)
{
    out[0] = helper(1.0f);
}
