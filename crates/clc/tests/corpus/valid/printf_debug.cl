// printf (6.15.14) with every conversion kind: integers of each size,
// floats, vectors with the hl/h/l length modifiers, strings, characters,
// pointers and the literal percent sign.

__kernel void dump(__global const float *data, const int n)
{
    int gid = get_global_id(0);
    if (gid == 0) {
        printf("n = %d, first = %f, hex = %#x, octal = %o\n", n, data[0], n, n);
        printf("%s: %c%c %%\n", "tag", 'o', 'k');
        printf("%5.2e %g %a\n", 1.5f, data[n - 1], 0.25f);
        printf("pointer %p\n", data);
    }
    float4 v = (float4)(data[0], data[1], 2.0f, 3.0f);
    int2 iv = (int2)(gid, -gid);
    uchar4 cv = (uchar4)(1, 2, 3, 4);
    if (gid < 2) {
        printf("gid %u: v = %v4hlf\n", (uint)gid, v);
        printf("iv = %v2hld, cv = %v4hhu\n", iv, cv);
        printf("long %ld ulong %lu short %hd char %hhd\n", (long)gid - 5, (ulong)gid, (short)-3,
               (char)65);
    }
}

__kernel void report_sum(__global const int *values, __global int *result)
{
    int s = 0;
    for (int i = 0; i < 16; i++)
        s += values[i];
    *result = s;
    int r = printf("sum=%d\n", s);
    if (r != 0)
        *result = -1;
}
