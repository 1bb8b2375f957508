// expect-error: 6
// rule: 6.11.l the return type of a kernel function must be void

// A kernel that returns a value.

__kernel int count(__global const int *in)
{
    return in[get_global_id(0)];
}
