// expect-error: 9
// rule: 6.11.k recursion is not supported
// note: PoCL accepts this file; 6.11.k: "Recursion is not supported."

// A directly recursive helper function.

int factorial(int n)
{
    return n <= 1 ? 1 : n * factorial(n - 1);
}

__kernel void k(__global int *out)
{
    out[get_global_id(0)] = factorial((int)get_global_id(0));
}
