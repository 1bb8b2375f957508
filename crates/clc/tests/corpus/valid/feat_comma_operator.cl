// The comma operator (6.5.12, C99 6.5.17): in for-loop clauses, in
// expressions (value is the right operand), in conditions, and inside
// parentheses where a comma would otherwise separate arguments.

int twice(int x) { return 2 * x; }

__kernel void comma(__global int *out)
{
    int a = 0, b = 0, c;
    c = (a = 3, b = a + 1, a + b);          /* 7 */
    int sum = 0;
    for (int i = 0, j = 10; i < j; i++, j -= 2)
        sum += i * j;
    int k = twice((a++, b++, a + b));       /* one argument: 2 * (4 + 5) */
    int n = 5;
    while (n--, n > 0)
        sum += n;
    int m = (1, 2, 3);
    float4 v = (float4)((1.0f, 2.0f), 3.0f, 4.0f, 5.0f); /* first operand is 2.0f */
    out[get_global_id(0)] = c + sum + k + m + (int)v.x;
}
