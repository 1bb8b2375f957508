// ferrocl-difftest seed 7252429: mismatch cpu-scalar+cpu-vector out
// launch: global size 27, local size 16, offset 0; n = 5
// shape = 1,1,1,1,1,0,0,0,5,0
// in = 18,17,4294967289,198570710,42,14,1906010397,62,44,57,20,1485489908,4294967290,19,55,399937133,4294967294,4294967293,4294967295,2342892362,1536139129,59,4294967292,4294967292,4294967293,56,58,1836288771,4294967291,2492562167,9,40,46,4294967292,4294967290,5,4294967293,4294967290,3146316220,1,3112177330,43,27,49,3599873899,4294967295,33,4294967289,441968191,63,18,4294967290,4294967293,2711094384,42237480,3506155053,4294967290,3552571668,33,2207557521,11,957682609,61,45
// local size 16, global size 27, offset 0
// cpu-scalar:
// out[17]: expected 0x46c57523, got 0x8b27ad38
// out[18]: expected 0x8b27ad38, got 0x4fb12e9f
// out[19]: expected 0xf0fb9cad, got 0xd3fea56b
// out[20]: expected 0x25936c62, got 0x08a56adc
// out[21]: expected 0x4fb12e9f, got 0xaeb4ed72
// out[22]: expected 0x79cc2014, got 0x536cdc85
// out[23]: expected 0xc04c7ce9, got 0xc3c37b0d
// cpu-vector:
// out[17]: expected 0x46c57523, got 0x8b27ad38
// out[18]: expected 0x8b27ad38, got 0x4fb12e9f
// out[19]: expected 0xf0fb9cad, got 0xd3fea56b
// out[20]: expected 0x25936c62, got 0x08a56adc
// out[21]: expected 0x4fb12e9f, got 0xaeb4ed72
// out[22]: expected 0x79cc2014, got 0x536cdc85
// out[23]: expected 0xc04c7ce9, got 0xc3c37b0d
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
    uint v2 = 1u;
    uint v3 = 1u;
    uint v4 = 1u;
    uint v5 = 1u;
    float f0 = 1.0f;
    uint4 q0 = (uint4)(1u, 1u, 1u, 1u);
    float4 w0 = (float4)(1.0f, 0.0f, 1.0f, 1.0f);
    struct S s;
    s.a = 1u;
    s.b = 1u;
    uchar pb[16];
    for (uint j = 0; j < 16u; j++)
        pb[j] = (uchar)(j * 17u);
    uint pa[8];
    for (uint j = 0; j < 8u; j++)
        pa[j] = 1u + j;
    for (uint i0 = 0; i0 < 2u; i0++) {
        v2 = sub_group_scan_inclusive_add(1u);
        u0 = work_group_broadcast(1u, (size_t)(1u % (uint)get_local_size(0)));
        if ((get_sub_group_size() & 1u)) {
            v4 = sub_group_scan_exclusive_add(1u);
        }
    }
    uint h = 0x12345u;
    h = mix(h, u0);
    h = mix(h, u1);
    h = mix(h, v2);
    h = mix(h, v3);
    h = mix(h, v4);
    h = mix(h, v5);
    h = mix(h, fbits(f0));
    h = mix(h, q0.s0);
    h = mix(h, q0.s1);
    h = mix(h, q0.s2);
    h = mix(h, q0.s3);
    h = mix(h, fbits(w0.s0));
    h = mix(h, fbits(w0.s1));
    h = mix(h, fbits(w0.s2));
    h = mix(h, fbits(w0.s3));
    h = mix(h, s.a);
    h = mix(h, s.b);
    for (uint j = 0; j < 8u; j++)
        h = mix(h, pa[j]);
    for (uint j = 0; j < 4u; j++)
        h = mix(h, as_uint(vload4(j, pb)));
    out[get_global_id(0)] = h;
}
