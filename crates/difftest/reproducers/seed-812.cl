// ferrocl-difftest seed 812: mismatch cpu-scalar+cpu-vector out
// launch: global size 2, local size 1; n = 5
// in = 4294967289,22,22,4294967289,28,21,55,517499509,4294967289,34,55,29,50,12,9,3538966504,29,4294967294,1668966120,4294967290,56,4294967292,38440391,3850540302,1456566403,7,4294967289,4294967295,16,37,58,7,5,34,4294967293,38,1723405416,1567560888,4294967295,34,19,1,4294967295,4294967294,30,4294967290,37,23,4294967292,3302682988,49,21,4294967290,4294967291,4294967295,45,762037996,4294967290,4294967288,2315036176,3469407722,4294967291,1068543475,1712512968
// local size 1, global size 2
// cpu-scalar:
// out[0]: expected 0x034e0272, got 0x0ef2697b
// out[1]: expected 0x034e0272, got 0x0ef2697b
// cpu-vector:
// out[0]: expected 0x034e0272, got 0x0ef2697b
// out[1]: expected 0x034e0272, got 0x0ef2697b
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

kernel void k(global uint *out, global const uint *in, global uint *acc, uint n) {
    local uint lm[128];
    local uint lb[128];
    local uint la[1];
    uint u0 = 1u;
    uint u1 = 1u;
    uint u2 = 1u;
    uint u3 = 1u;
    uint v4 = 1u;
    uint v5 = 1u;
    float f0 = 0.0f;
    float f1 = 1.0f;
    uint4 q0 = (uint4)(1u, 1u, 1u, 1u);
    uint4 q1 = (uint4)(1u, 1u, 1u, 1u);
    float4 w0 = (float4)(1.0f, 1.0f, 1.0f, 1.0f);
    struct S s;
    s.a = 1u;
    s.b = 1u;
    uint pa[8];
    for (uint j = 0; j < 8u; j++)
        pa[j] = 1u + j;
    for (uint i9 = 0; i9 < 2u; i9++) {
        u1 = i9;
        barrier(CLK_LOCAL_MEM_FENCE);
        lm[get_local_id(0)] = 1u;
        lb[get_local_id(0)] = (uint)get_local_id(0) ^ 0x5au;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (get_local_id(0) != 8)
            lb[get_local_id(0)] = 1u;
        barrier(CLK_LOCAL_MEM_FENCE);
        v5 = lb[((uint)get_local_id(0) + 1u) % (uint)get_local_size(0)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    lm[get_local_id(0)] = 1u;
    lb[get_local_id(0)] = (uint)get_local_id(0) ^ 0x5au;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) >= 1)
        lb[get_local_id(0)] = 1u;
    barrier(CLK_LOCAL_MEM_FENCE);
    v5 = lb[((uint)get_local_id(0) + 5u) % (uint)get_local_size(0)];
    uint h = 0x12345u;
    h = mix(h, u0);
    h = mix(h, u1);
    h = mix(h, u2);
    h = mix(h, u3);
    h = mix(h, v4);
    h = mix(h, v5);
    h = mix(h, fbits(f0));
    h = mix(h, fbits(f1));
    h = mix(h, q0.s0);
    h = mix(h, q0.s1);
    h = mix(h, q0.s2);
    h = mix(h, q0.s3);
    h = mix(h, q1.s0);
    h = mix(h, q1.s1);
    h = mix(h, q1.s2);
    h = mix(h, q1.s3);
    h = mix(h, fbits(w0.s0));
    h = mix(h, fbits(w0.s1));
    h = mix(h, fbits(w0.s2));
    h = mix(h, fbits(w0.s3));
    h = mix(h, s.a);
    h = mix(h, s.b);
    for (uint j = 0; j < 8u; j++)
        h = mix(h, pa[j]);
    out[get_global_id(0)] = h;
}
