// Independent mistakes in one kernel: each is reported once, without follow-on errors.
__kernel void k(__global float *in, __global float *out, int n)
{
    int i = get_global_id(0)
    float4 v = vload4(i, in);
    if (i < n {
        out[i] = v.x + v.q;
    }
    float x = sqrtt(v.y);
    out[i] = x + undefined_thing;
    for (int j = 0; j < n; j++ {
        out[j] = j;
    }
    float y = (float)(;
    int z = 1 +* 2;
    return 5;
}

__kernel void ok(__global int *o) { o[0] = 1; }
