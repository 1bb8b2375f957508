// Open: the cause of sub-group-loop-counter.cl (a loop counter kept once per group while sub-groups run apart).
// ferrocl-difftest seed 228: mismatch cpu-scalar+cpu-vector out
// launch: global size 27, local size 16, offset 0; n = 5
// shape = 1,1,1,1,1,0,0,0,5,0
// in = 2247930343,3311788006,4294967293,4294967291,54,0,20,44,33,2196737578,1,62,6,4294967288,5,4294967290,2814751845,4294967294,4294967295,4294967294,3,15,4294967289,50,45,1334568495,23,1034148558,38,4294967290,3742979085,4294967289,2848856308,4294967289,38,4294967295,39,4294967291,44,3525468429,2,36,6,53,4294967292,4294967290,2685907366,4294967292,23,4294967289,59,4294967289,45,42,61,60,60,4294967292,4294967293,28,4294967291,51,17,4294967295
// local size 16, global size 27, offset 0
// cpu-scalar:
// out[16]: expected 0x1ede191d, got 0xc95e191d
// out[17]: expected 0x1ede191d, got 0xc95e191d
// out[18]: expected 0x1ede191d, got 0xc95e191d
// out[19]: expected 0x1ede191d, got 0xc95e191d
// out[20]: expected 0x1ede191d, got 0xc95e191d
// out[21]: expected 0x1ede191d, got 0xc95e191d
// out[22]: expected 0x1ede191d, got 0xc95e191d
// out[23]: expected 0x1ede191d, got 0xc95e191d
// cpu-vector:
// out[16]: expected 0x1ede191d, got 0xc95e191d
// out[17]: expected 0x1ede191d, got 0xc95e191d
// out[18]: expected 0x1ede191d, got 0xc95e191d
// out[19]: expected 0x1ede191d, got 0xc95e191d
// out[20]: expected 0x1ede191d, got 0xc95e191d
// out[21]: expected 0x1ede191d, got 0xc95e191d
// out[22]: expected 0x1ede191d, got 0xc95e191d
// out[23]: expected 0x1ede191d, got 0xc95e191d
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

uint h0(uint p0, uint p1) {
    uint p2 = p0 ^ 0x5bd1e995u;
    return p0;
}

uint h1(uint p0, uint p1) {
    uint p2 = p0 ^ 0x5bd1e995u;
    return p0;
}

kernel void k(global uint *out, global const uint *in, global uint *acc, uint n) {
    local uint lm[128];
    local uint lb[128];
    local uint la[1];
    uint u0 = 1u;
    uint u1 = 1u;
    uint u2 = 1u;
    uint v3 = 1u;
    uint v4 = 1u;
    uint v5 = 1u;
    uint v6 = 1u;
    float f0 = 0.0f;
    uint4 q0 = (uint4)(1u, 0u, 1u, 1u);
    uint4 q1 = (uint4)(1u, 1u, 1u, 1u);
    struct S s;
    s.a = 1u;
    s.b = 1u;
    uchar pb[16];
    for (uint j = 0; j < 16u; j++)
        pb[j] = (uchar)(j * 17u);
    uint pa[8];
    for (uint j = 0; j < 8u; j++)
        pa[j] = 1u + j;
    for (uint i2 = 0; i2 < 2u; i2++) {
        if (i2) {
            f0 = 1.0f;
        } else {
            if ((uint)((get_sub_group_size() & 1u) == 0u)) {
                v5 = sub_group_reduce_max(1u);
            }
        }
    }
    uint h = 0x12345u;
    h = mix(h, u0);
    h = mix(h, u1);
    h = mix(h, u2);
    h = mix(h, v3);
    h = mix(h, v4);
    h = mix(h, v5);
    h = mix(h, v6);
    h = mix(h, fbits(f0));
    h = mix(h, q0.s0);
    h = mix(h, q0.s1);
    h = mix(h, q0.s2);
    h = mix(h, q0.s3);
    h = mix(h, q1.s0);
    h = mix(h, q1.s1);
    h = mix(h, q1.s2);
    h = mix(h, q1.s3);
    h = mix(h, s.a);
    h = mix(h, s.b);
    for (uint j = 0; j < 8u; j++)
        h = mix(h, pa[j]);
    for (uint j = 0; j < 4u; j++)
        h = mix(h, as_uint(vload4(j, pb)));
    out[get_global_id(0)] = h;
}
