// ferrocl-difftest seed 37167: the CPU device's vectorizer panicked building it (a divergent
// region's join parameter that every edge gives one uniform value); any launch checks it.
// in = 3,6,9,12,15,18,21,24,27,30,33,36,39,42,45,48,51,54,57,60,63,66,69,72,75,78,81,84,87,90,93,96,99,102,105,108,111,114,117,120,123,126,129,132,135,138,141,144,147,150,153,156,159,162,165,168,171,174,177,180,183,186,189,192
#pragma OPENCL FP_CONTRACT OFF

struct S {
    uint a;
    uint b;
};

uint fbits(float x) {
    return isnan(x) ? 0x7fc00000u : as_uint(x);
}

uint mix(uint h, uint x) {
    return (h ^ x) * 0x9e3779b1u + 0x7f4a7c15u;
}

uint sfun(struct S x) {
    return x.a * 3u ^ (x.b >> 1);
}

uint h0(uint p0, uint p1) {
    uint p2 = p0 ^ 0x5bd1e995u;
    p2 = 31u;
    return ((p0 << (15u & 31u)) - (255u * p1));
}

uint h1(uint p0, uint p1) {
    uint p2 = p0 ^ 0x5bd1e995u;
    p2 = ((uint)((0u - p0) == (p0 / (p1 | 1u))) | popcount((p2 - p0)));
    p2 = (uint)((int)((~p1) - (0u - p2)) >> ((~p2) & 31u));
    for (uint j = 0; j < p1 % 5u; j++)
        p2 = (~(p1 << (p0 & 31u)));
    return p2;
}

kernel void k(global uint *out, global const uint *in, global uint *acc, uint n) {
    local uint lm[128];
    local uint lb[128];
    local uint la[1];
    uint u0 = in[47u & 63u];
    uint u1 = (in[13u & 63u] + (0u - h0(u0, u0)));
    uint v2 = (in[((uint)get_global_id(0) + 31u) & 63u] * (uint)((u0 / (u0 | 1u)) == (u1 ? 3u : u1)));
    uint v3 = in[((uint)get_global_id(0) + 48u) & 63u];
    float f0 = ((float)((u1 >> (u1 & 31u)) & 65535u) * 0.5f);
    float f1 = ((float)((8u * u1) & 65535u) * 0.1f);
    uint4 q0 = (uint4)((in[((uint)get_global_id(0) + 56u) & 63u] + v3), (in[((uint)get_global_id(0) + 10u) & 63u] ^ (uint)((int)(uint)get_local_size(0) >> (mul_hi(2u, 5u) & 31u))), (in[((uint)get_global_id(0) + 0u) & 63u] ^ (u0 - rotate(u1, u0))), in[((uint)get_global_id(0) + 30u) & 63u]);
    struct S s;
    s.a = (in[((uint)get_global_id(0) + 52u) & 63u] * (~(u1 >> (v3 & 31u))));
    s.b = (in[59u & 63u] * (popcount(u1) & hadd(u0, n)));
    uint pa[8];
    for (uint j = 0; j < 8u; j++)
        pa[j] = (in[((uint)get_global_id(0) + 0u) & 63u] * (popcount(7u) / ((uint)(v3 < u0) | 1u))) + j;
    atomic_xor(&acc[2], add_sat((uint)(f0 < f1), (u1 / (255u | 1u))));
    barrier(CLK_LOCAL_MEM_FENCE);
    lm[get_local_id(0)] = u1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) > 9) {
        v2 = (lm[((uint)get_local_id(0) + 1u) % (uint)get_local_size(0)] + (u0 + rotate((uint)get_local_id(0), (uint)get_local_size(0))));
        v2 = add_sat((uint)((uint)((int)v3 >> (u1 & 31u)) == pa[(uint)get_local_id(0) & 7u]), (u1 >> ((1u * u0) & 31u)));
        v3 = v3;
    }
    s.b = fbits(f0);
    for (uint i0 = 0; i0 < 3u; i0++) {
        q0 = select(q0, q0.yzwx, q0 > (uint4)((uint)get_local_id(0)));
        v3 = ((min(q0.s0, 15u) << ((uint)((int)u1 < (int)(uint)get_local_size(0)) & 31u)) ? s.b : (uint)(f0 < sqrt(fabs(2.0f))));
        for (uint i1 = 0; i1 < 2u; i1++) {
            v3 = popcount(((uint)(1024.0f < f0) & (uint)((int)v3 >> ((uint)get_local_size(0) & 31u))));
            for (uint i2 = 0; i2 < 2u; i2++) {
                atomic_add(&acc[0], i0);
                atomic_and(&acc[3], mul_hi((2u ? 7u : u1), pa[0u & 7u]));
                v3 = (16u >> (u1 & 31u));
                v3 = hadd(7u, ((uint)(f0 < 65536.0f) | v2));
            }
        }
        pa[mul_hi(7u, v2) & 7u] = u0;
    }
    uint h = 0x12345u;
    h = mix(h, u0);
    h = mix(h, u1);
    h = mix(h, v2);
    h = mix(h, v3);
    h = mix(h, fbits(f0));
    h = mix(h, fbits(f1));
    h = mix(h, q0.s0);
    h = mix(h, q0.s1);
    h = mix(h, q0.s2);
    h = mix(h, q0.s3);
    h = mix(h, s.a);
    h = mix(h, s.b);
    for (uint j = 0; j < 8u; j++)
        h = mix(h, pa[j]);
    out[get_global_id(0)] = h;
}
