// options: -cl-std=CL2.0
// Statements, truth values, pointers in the generic space, loop hints.
int sum(const int *p, int n)
{
    int s = 0;
    #pragma unroll 4
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

kernel void ctl(global int *data, int n)
{
    if (data && n)
        data[0] = sum(data, n);
    switch (n) {
    case 1: data[1] = 1; break;
    default: data[1] = -1;
    }
    while (n-- > 0)
        data[n] = !data[n];
}
