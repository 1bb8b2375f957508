// OpenCL C 3.0 6.7.9: "The named address spaces __global, __local, and __private are subsets
// of the unnamed generic address space", and a pointer to any of them "can be implicitly
// converted to a pointer to the unnamed generic address space". One function with a generic
// parameter updates a global, a local and a private int; odd work-items also write through a
// pointer assigned a local address, even ones a global address. 6.15.10: to_global,
// to_local and to_private give the pointer "if [they] can cast ptr to the ... address space.
// Otherwise [they return] NULL"; get_fence returns "a valid memory fence value for ptr".
// Per work-item: the global int, the local int, the private int, the spaces each address
// tests in (global 1, local 2, private 4; in bits 0-2 for the global address, 3-5 for the
// local one, 6-8 for the private one: 1 + 16 + 256 = 273), and whether get_fence gave
// CLK_GLOBAL_MEM_FENCE for the global address (1) and CLK_LOCAL_MEM_FENCE for the local (2).
// requires: __opencl_c_generic_address_space
// run: --kernel spaces --global 8 --local 8 --options -cl-std=CL2.0 --arg 'int[8]=0,10,20,30,40,50,60,70' --arg 'int[40]'
// expect out: 6 102 13 273 3 11 108 13 273 3 26 104 13 273 3 31 110 13 273 3 46 106 13 273 3 51 112 13 273 3 66 108 13 273 3 71 114 13 273 3
// run: --kernel spaces --global 8 --local 8 --options -cl-std=CL3.0 --arg 'int[8]=0,10,20,30,40,50,60,70' --arg 'int[40]'
// expect out: 6 102 13 273 3 11 108 13 273 3 26 104 13 273 3 31 110 13 273 3 46 106 13 273 3 51 112 13 273 3 66 108 13 273 3 71 114 13 273 3
void bump(int *p, int by) {
    *p += by;
}

int spaces_of(const int *p) {
    return (to_global(p) != NULL) | (to_local(p) != NULL) << 1 | (to_private(p) != NULL) << 2;
}

kernel void spaces(global int *g, global int *out) {
    local int l[64];
    size_t gid = get_global_id(0), i = get_local_id(0);
    int priv = 10;
    l[i] = 100 + (int)gid;
    bump(&g[gid], 1);
    bump(&l[i], 2);
    bump(&priv, 3);
    // 6.7.9's example: one generic pointer assigned a local or a global address.
    int *either;
    if (gid & 1)
        either = &l[i];
    else
        either = &g[gid];
    bump(either, 5);
    global int *o = out + 5 * gid;
    o[0] = g[gid];
    o[1] = l[i];
    o[2] = priv;
    o[3] = spaces_of(&g[gid]) | spaces_of(&l[i]) << 3 | spaces_of(&priv) << 6;
    o[4] = (get_fence(&g[gid]) == CLK_GLOBAL_MEM_FENCE) | (get_fence(&l[i]) == CLK_LOCAL_MEM_FENCE) << 1;
}
