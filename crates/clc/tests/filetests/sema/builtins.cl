// Builtin calls name the chosen overload (6.15).
kernel void b(global float4 *o, global const float *p, global int *counter)
{
    size_t i = get_global_id(0);
    float4 v = vload4(i, p);
    o[i] = fmax(sin(v), 0.0f) + dot(v, v);
    int4 k = convert_int4_sat_rte(v);
    atomic_add(counter, k.x);
    barrier(CLK_GLOBAL_MEM_FENCE);
}
