// Counter-based and stateful random number generators: Philox4x32-10
// (Salmon et al., "Parallel Random Numbers: As Easy as 1, 2, 3", SC 2011),
// xorshift128 (Marsaglia, 2003) and multiply-with-carry.

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

typedef struct { uint4 ctr; uint2 key; } philox_state;

static uint4 philox_round(uint4 ctr, uint2 key)
{
    uint hi0 = mul_hi(PHILOX_M0, ctr.x);
    uint lo0 = PHILOX_M0 * ctr.x;
    uint hi1 = mul_hi(PHILOX_M1, ctr.z);
    uint lo1 = PHILOX_M1 * ctr.z;
    return (uint4)(hi1 ^ ctr.y ^ key.x, lo1, hi0 ^ ctr.w ^ key.y, lo0);
}

uint4 philox4x32_10(uint4 ctr, uint2 key)
{
    for (int r = 0; r < 10; r++) {
        ctr = philox_round(ctr, key);
        key += (uint2)(PHILOX_W0, PHILOX_W1);
    }
    return ctr;
}

/* uniform float in [0, 1) from the top 24 bits */
inline float u01(uint x) { return (x >> 8) * (1.0f / 16777216.0f); }

__kernel void philox_uniform(__global float4 *out, const uint seed_lo, const uint seed_hi,
                             const uint offset)
{
    uint i = get_global_id(0);
    philox_state s = { (uint4)(i + offset, 0u, 0u, 0u), (uint2)(seed_lo, seed_hi) };
    uint4 r = philox4x32_10(s.ctr, s.key);
    out[i] = (float4)(u01(r.x), u01(r.y), u01(r.z), u01(r.w));
}

/* Box-Muller on top of Philox: two normals per pair of uniforms */
__kernel void philox_normal(__global float2 *out, const uint seed)
{
    uint i = get_global_id(0);
    uint4 r = philox4x32_10((uint4)(i, 1u, 0u, 0u), (uint2)(seed, ~seed));
    float u1 = fmax(u01(r.x), 1e-7f);
    float u2 = u01(r.y);
    float rad = sqrt(-2.0f * log(u1));
    float c, s = sincos(2.0f * M_PI_F * u2, &c);
    out[i] = (float2)(rad * c, rad * s);
}

__kernel void xorshift128(__global uint4 *state, __global uint *out, const int count)
{
    size_t gid = get_global_id(0);
    uint4 s = state[gid];
    for (int k = 0; k < count; k++) {
        uint t = s.x ^ (s.x << 11);
        s.xyz = s.yzw;
        s.w = s.w ^ (s.w >> 19) ^ (t ^ (t >> 8));
        out[gid * count + k] = s.w;
    }
    state[gid] = s;
}

__kernel void mwc64x(__global ulong *state, __global uint *out, const int count)
{
    const uint A = 4294883355u;
    size_t gid = get_global_id(0);
    ulong s = state[gid];
    for (int k = 0; k < count; ++k) {
        uint x = (uint)s, c = (uint)(s >> 32);
        out[gid * count + k] = x ^ c;
        s = (ulong)x * A + c;
    }
    state[gid] = s;
}
