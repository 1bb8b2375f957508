// expect-error: 6
// rule: 6.9.2 reqd_work_group_size(X, Y, Z) gives the work-group size, so each dimension must be positive

// reqd_work_group_size with a zero dimension.

__kernel __attribute__((reqd_work_group_size(0, 1, 1)))
void k(__global int *out)
{
    out[0] = 1;
}
