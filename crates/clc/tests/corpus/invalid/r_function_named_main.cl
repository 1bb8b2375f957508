// expect-error: 7
// rule: 6.11.u a function cannot be called main
// note: PoCL accepts this file; 6.11.u: "A function in an OpenCL program cannot be called main."

// A helper function named main.

int main(void)
{
    return 0;
}

__kernel void k(__global int *out)
{
    out[0] = main();
}
