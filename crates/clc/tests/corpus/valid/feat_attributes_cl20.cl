// options: -cl-std=CL2.0
// OpenCL C 2.0 attributes: nosvm on pointer arguments (6.13.3, deprecated
// but accepted) and opencl_unroll_hint on loops (6.13.5), with and
// without an unroll factor, on for, while and do loops.

__kernel void unrolled(__global float *__attribute__((nosvm)) data,
                       __global int *__attribute__((nosvm)) counts,
                       const int n)
{
    float acc = 0.0f;
    __attribute__((opencl_unroll_hint(4)))
    for (int i = 0; i < n; i++)
        acc += data[i];

    int k = 0;
    __attribute__((opencl_unroll_hint))
    for (int i = 0; i < 8; i++)
        k += i;

    int w = n;
    __attribute__((opencl_unroll_hint(2)))
    while (w > 0) {
        w -= 2;
        k++;
    }

    int d = 0;
    __attribute__((opencl_unroll_hint(1)))
    do {
        d++;
    } while (d < 3);

    data[get_global_id(0)] = acc;
    counts[get_global_id(0)] = k + d;
}
