// Particle integration with structs: a typedef'd particle with nested
// vector members, an emitter struct passed by value, semi-implicit Euler
// steps with ground collision, and struct arrays in __local memory.

typedef struct {
    float4 position;   /* w unused */
    float4 velocity;   /* w = remaining life time */
    float mass;
    int alive;
    uint colour;
    int pad;
} Particle;

typedef struct {
    float3 gravity;
    float drag;
    float restitution;
    float ground_y;
} SimParams;

struct Emitter {
    float4 origin;
    float speed;
    uint seed;
};

static float hash01(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return (float)(x & 0xFFFFFF) / 16777216.0f;
}

__kernel void emit(__global Particle *ps, const struct Emitter em, const int first, const int count)
{
    int i = get_global_id(0);
    if (i >= count)
        return;
    Particle p;
    uint h = em.seed + (uint)(first + i) * 747796405u;
    float theta = 2.0f * M_PI_F * hash01(h);
    float up = hash01(h ^ 0xA511E9B3u);
    p.position = em.origin;
    p.velocity = (float4)(cos(theta) * em.speed, up * em.speed, sin(theta) * em.speed, 5.0f);
    p.mass = 1.0f;
    p.alive = 1;
    p.colour = 0xFFFFFFFFu;
    p.pad = 0;
    ps[first + i] = p;
}

__kernel void integrate(__global Particle *ps, const SimParams sim, const float dt, const int n)
{
    int i = get_global_id(0);
    if (i >= n || !ps[i].alive)
        return;
    __global Particle *p = &ps[i];
    float3 v = p->velocity.xyz;
    float3 accel = sim.gravity - sim.drag / p->mass * v;
    v += accel * dt;
    float3 x = p->position.xyz + v * dt;
    if (x.y < sim.ground_y) {
        x.y = sim.ground_y;
        v.y = -v.y * sim.restitution;
    }
    p->position.xyz = x;
    p->velocity.xyz = v;
    p->velocity.w -= dt;
    if (p->velocity.w <= 0.0f)
        p->alive = 0;
}

__kernel void centre_of_mass(__global const Particle *ps, __global float4 *out, const int n)
{
    __local Particle cache[64];
    __local float4 sums[64];
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    if (gid < n)
        cache[lid] = ps[gid];
    else
        cache[lid].mass = 0.0f;
    sums[lid] = (float4)(cache[lid].position.xyz * cache[lid].mass, cache[lid].mass);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        float4 s = 0.0f;
        for (int k = 0; k < (int)get_local_size(0); k++)
            s += sums[k];
        out[get_group_id(0)] = s;
    }
}
