// ferrocl-difftest --lean seed 756: cpu-vector compile failed (a divergent if whose join heads a divergent loop: the vectorizer entered the loop without its state, invalid IR)
// in = 2367246299,1520618835,4294967294,3,38,54,4294967288,4294967290,62,44,2691717630,4294967295,16,26,33,17,1230126978,4294967292,37,6,2120207557,4173989080,4294967291,54,47,3133765029,18,4294967291,61,4294967291,4294967289,4294967291,4294967289,3227152632,4294967290,49,14,3171123992,26,1523511461,584700620,4294967290,179721787,63,18,2904820551,4294967291,2744218692,3337820963,4294967289,60,21,3122389872,39,4294967288,4294967294,417345101,4294967292,57,4294967290,647111832,4294967291,4294967292,4175274972
// internal error (panic): index out of bounds: the len is 1 but the index is 1
#pragma OPENCL FP_CONTRACT OFF

struct S {
    uint a;
    uint b;
};

uint fbits(float x) {
    return isnan(x) ? 0x7fc00000u : as_uint(x);
}

uint sbit(float x) {
    return isnan(x) ? 0u : (uint)signbit(x);
}

float sgn(float x) {
    return isnan(x) ? 1.0f : x;
}

uint mix(uint h, uint x) {
    return (h ^ x) * 0x9e3779b1u + 0x7f4a7c15u;
}

uint sfun(struct S x) {
    return x.a * 3u ^ (x.b >> 1);
}

uint xchg(local uint *m, uint x, uint k) {
    barrier(CLK_LOCAL_MEM_FENCE);
    m[get_local_linear_id()] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint size = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
    uint r = m[((uint)get_local_linear_id() + k) % size];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

constant uint tab[16] = {
    0u, 1u, 7u, 0x80000000u, 0xffffffffu, 3u, 0x7fffffffu, 255u,
    0x9e3779b9u, 16u, 0xffu, 0x10000u, 5u, 0xfffffffeu, 31u, 0x55555555u
};

kernel void k(global uint *out, global const uint *in, global uint *acc, uint n) {
    local uint lm[128];
    local uint lb[128];
    local uint la[1];
    uint u0 = n;
    uint u1 = 1u;
    uint v2 = 1u;
    uint v3 = 1u;
    uint v4 = 1u;
    float f0 = 1.0f;
    for (uint i6 = 0; i6 < 5u; i6++) {
        v2 = 1u;
        barrier(CLK_LOCAL_MEM_FENCE);
        lm[get_local_id(0)] = 1u;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (get_local_id(0) < 8) {
            v2 = (1u / (u0 | 1u));
        }
        for (uint i10 = 0; i10 < n; i10++) {
        }
    }
    uint h = 0x12345u;
    h = mix(h, u0);
    h = mix(h, u1);
    h = mix(h, v2);
    h = mix(h, v3);
    h = mix(h, v4);
    h = mix(h, fbits(f0));
    out[get_global_id(0)] = h;
}
