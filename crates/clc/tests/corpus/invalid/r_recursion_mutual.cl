// expect-error: 12
// expect-error: 17
// rule: 6.11.k recursion is not supported
// note: PoCL accepts this file; 6.11.k: "Recursion is not supported."

// Mutually recursive helper functions.

int is_odd(int n);

int is_even(int n)
{
    return n == 0 ? 1 : is_odd(n - 1);
}

int is_odd(int n)
{
    return n == 0 ? 0 : is_even(n - 1);
}

__kernel void k(__global int *out)
{
    out[get_global_id(0)] = is_even((int)get_global_id(0));
}
