// Open: the cause of sub-group-loop-counter.cl (a loop counter kept once per group while sub-groups run apart).
// ferrocl-difftest seed 129: mismatch cpu-scalar+cpu-vector out
// launch: global size 24, local size 12, offset 0; n = 5
// in = 8,9,23,1,529396508,37,4294967294,142966460,4294967288,3800640498,4294967288,4294967291,4294967293,43,4294967292,4294967291,1789846035,33,4294967294,60,4294967295,7,56,2297222179,1,38,40,8,24,4294967292,4294967290,34,4294967294,17,53880219,3559645070,4294967289,23,1674713217,2959755145,36,2777749682,47,10,3338771449,3,1763947510,4294967292,54,1984799745,4294967288,4294967290,16,1011047577,1121172440,58,57,1029370684,9,63,4294967295,55,32,4294967292
// local size 12, global size 24, offset 0
// cpu-scalar:
// out[0]: expected 0xba4c72e7, got 0x975eee56
// out[1]: expected 0xba4c72e7, got 0x975eee56
// out[2]: expected 0xba4c72e7, got 0x975eee56
// out[3]: expected 0xba4c72e7, got 0x975eee56
// out[4]: expected 0xba4c72e7, got 0x975eee56
// out[5]: expected 0xba4c72e7, got 0x975eee56
// out[6]: expected 0xba4c72e7, got 0x975eee56
// out[7]: expected 0xba4c72e7, got 0x975eee56
// ... 8 more differences in out
// cpu-vector:
// out[0]: expected 0xba4c72e7, got 0x975eee56
// out[1]: expected 0xba4c72e7, got 0x975eee56
// out[2]: expected 0xba4c72e7, got 0x975eee56
// out[3]: expected 0xba4c72e7, got 0x975eee56
// out[4]: expected 0xba4c72e7, got 0x975eee56
// out[5]: expected 0xba4c72e7, got 0x975eee56
// out[6]: expected 0xba4c72e7, got 0x975eee56
// out[7]: expected 0xba4c72e7, got 0x975eee56
// ... 8 more differences in out
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

kernel void k(global uint *out, global const uint *in, global uint *acc, uint n) {
    local uint lm[128];
    local uint lb[128];
    local uint la[1];
    uint u0 = 1u;
    uint u1 = 1u;
    uint u2 = 1u;
    uint v3 = 1u;
    uint v4 = 1u;
    float f0 = 1.0f;
    float f1 = 1.0f;
    uint4 q0 = (uint4)(1u, 1u, 1u, 1u);
    struct S s;
    s.a = 1u;
    s.b = 1u;
    uchar pb[16];
    for (uint j = 0; j < 16u; j++)
        pb[j] = (uchar)(j * 17u);
    uint pa[8];
    for (uint j = 0; j < 8u; j++)
        pa[j] = 1u + j;
    for (uint i6 = 0; i6 < 2u; i6++) {
        if ((uint)(get_sub_group_id() == 0u)) {
            v3 = (uint)sub_group_all((int)(i6 & 1u));
        }
    }
    uint h = 0x12345u;
    h = mix(h, u0);
    h = mix(h, u1);
    h = mix(h, u2);
    h = mix(h, v3);
    h = mix(h, v4);
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
    for (uint j = 0; j < 4u; j++)
        h = mix(h, as_uint(vload4(j, pb)));
    out[get_global_id(0)] = h;
}
