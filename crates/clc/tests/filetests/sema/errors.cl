// A program with errors prints its build log instead.
kernel void bad(global int *o)
{
    o[0] = undeclared;
    float4 v = (float4)(1.0f, 2.0f);
    int x = v.q;
}
