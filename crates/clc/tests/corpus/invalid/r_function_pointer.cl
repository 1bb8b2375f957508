// expect-error: 10
// rule: 6.11.a pointers to functions are not allowed

// A pointer to a function declared and called.

int twice(int x) { return 2 * x; }

__kernel void apply(__global int *data)
{
    int (*op)(int) = twice;
    data[get_global_id(0)] = op(data[get_global_id(0)]);
}
