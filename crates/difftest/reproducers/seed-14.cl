// ferrocl-difftest seed 14: mismatch cpu-scalar+cpu-vector out
// launch: global size 6, local size 3; n = 5
// in = 38,4294967293,62,1978930569,29,4294967295,24,5,4294967288,21,51,4294967289,2701777621,2163121048,46,47,4294967288,4294967294,16,28,122553285,31,1465428473,39,27,4294967295,49,46,41,4294967289,474231328,2214550304,13,3992559175,2,41,3107349549,4294967293,4294967295,2031857202,5,1156973860,46,4294967289,4294967294,12,139753601,4291332496,58,46,56,40,54,39,12,3232995256,42,167668866,58,4294967292,57,21,56,4294967292
// local size 3, global size 6
// cpu-scalar:
// out[2]: expected 0x75deaa88, got 0xecf54697
// out[4]: expected 0x556db5b9, got 0x34a9b678
// out[5]: expected 0x75deaa88, got 0xc3ad9204
// cpu-vector:
// out[2]: expected 0x75deaa88, got 0xecf54697
// out[4]: expected 0x556db5b9, got 0x34a9b678
// out[5]: expected 0x75deaa88, got 0xc3ad9204
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
    uint v4 = (uint)get_global_id(0);
    uint v5 = 1u;
    float f0 = 1.0f;
    float f1 = 1.0f;
    uint4 q0 = (uint4)(1u, 1u, 1u, 1u);
    struct S s;
    s.a = 1u;
    s.b = 0u;
    uint pa[8];
    for (uint j = 0; j < 8u; j++)
        pa[j] = 1u + j;
    {
        uint i0 = 0;
        for (uint i1 = 0; i1 < 4u; i1++) {
            barrier(CLK_LOCAL_MEM_FENCE);
            lm[get_local_id(0)] = 1u;
            barrier(CLK_LOCAL_MEM_FENCE);
            {
            }
            v4 = 1u;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        lm[get_local_id(0)] = 1u;
        lb[get_local_id(0)] = (uint)get_local_id(0) ^ 0x5au;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (get_local_id(0) > 0)
            lb[get_local_id(0)] = 1u;
        barrier(CLK_LOCAL_MEM_FENCE);
        v3 = lb[((uint)get_local_id(0) + 5u) % (uint)get_local_size(0)];
    }
    uint h = 0x12345u;
    h = mix(h, u0);
    h = mix(h, u1);
    h = mix(h, v2);
    h = mix(h, v3);
    h = mix(h, v4);
    h = mix(h, v5);
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
