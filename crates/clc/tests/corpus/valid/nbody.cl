// All-pairs N-body step with float4 positions (w = mass), tiled through
// __local memory, followed by a leapfrog integration.

__kernel void nbody_step(__global const float4 *pos_in,
                         __global const float4 *vel_in,
                         __global float4 *pos_out,
                         __global float4 *vel_out,
                         __local float4 *tile,
                         const int n,
                         const float dt,
                         const float softening)
{
    const int gid = get_global_id(0);
    const int lid = get_local_id(0);
    const int lsize = get_local_size(0);
    float4 my = gid < n ? pos_in[gid] : (float4)(0.0f);
    float3 acc = (float3)(0.0f, 0.0f, 0.0f);

    for (int base = 0; base < n; base += lsize) {
        int j = base + lid;
        tile[lid] = j < n ? pos_in[j] : (float4)(0.0f); /* mass 0: no force */
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < lsize; ++k) {
            float4 other = tile[k];
            float3 d = other.xyz - my.xyz;
            float dist2 = dot(d, d) + softening * softening;
            float inv = rsqrt(dist2);
            float inv3 = inv * inv * inv;
            acc += d * (other.w * inv3);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (gid < n) {
        float4 v = vel_in[gid];
        v.xyz += acc * dt;
        float4 p = my;
        p.xyz += v.xyz * dt;
        pos_out[gid] = p;
        vel_out[gid] = v;
    }
}

/* Total kinetic energy contribution of each body. */
__kernel void kinetic_energy(__global const float4 *pos, __global const float4 *vel,
                             __global float *energy)
{
    int i = get_global_id(0);
    float3 v = vel[i].xyz;
    energy[i] = 0.5f * pos[i].w * dot(v, v);
}
