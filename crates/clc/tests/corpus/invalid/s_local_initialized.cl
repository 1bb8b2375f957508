// expect-error: 8
// rule: 6.7.7 variables allocated in the __local address space cannot be initialized

// A __local variable with an initializer.

__kernel void k(__global int *out)
{
    __local int count = 0;
    out[get_global_id(0)] = count;
}
