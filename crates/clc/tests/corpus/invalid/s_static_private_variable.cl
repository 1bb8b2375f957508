// expect-error: 8
// rule: 6.10 static variables inside a function must be in the global or constant address space

// A static local variable with no address space (so private) in OpenCL C 1.2.

int next(void)
{
    static int counter = 0;
    return counter++;
}

__kernel void k(__global int *out)
{
    out[get_global_id(0)] = next();
}
