// expect-error: 10
// rule: 6.11.d variable length arrays are not supported (a const int is not an integer constant expression)
// note: PoCL accepts this file; 6.11.d: "Variable length arrays ... are not supported." C99 6.6: a const-qualified variable is not an integer constant expression, so a[n] is a variable length array.

// An array whose size is a const int variable.

__kernel void k(__global int *out)
{
    const int n = 4;
    int a[n];
    a[0] = 1;
    out[0] = a[0];
}
