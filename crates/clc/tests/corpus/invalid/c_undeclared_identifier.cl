// expect-error: 9
// rule: C99 6.5.1 an identifier must be declared before use

// Using a variable that was never declared (a typo of an argument name).

__kernel void saxpy(const float alpha, __global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = alpha * x[i] + y[idx];
}
