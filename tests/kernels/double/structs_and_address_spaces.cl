// Doubles in every address space and inside structs (cl_khr_fp64): a struct with double
// members (6.1.2: a double is 8-byte aligned; 6.1.5: a double3 takes the size and alignment
// of a double4) passed by value and read from a buffer laid out by the host, a program-scope
// constant table, a local array shared across a barrier, and a private array indexed at run
// time. The layout: c at 0, d at 8, i at 16, v at 32 (32 bytes), w at 64 (16 bytes); 96
// bytes, aligned to 32. items, as the 64-bit words of 8 items: item k has c = k, d = k / 4,
// i = -k, v = (k, 1e-310, 3k), w = (k - 0.5, 2) (the doubles written as their bits).
// Work-item i of the one work-group of 8 writes p.d + p.c + p.i, p.v.x + p.v.y + p.v.z,
// p.w.y, its neighbour's items[i + 1].d + items[i + 1].v.z, table[i % 4] * (i + 1),
// items[i].w.x, sizeof(item), __alignof__(item).
// local-sizes: fixed: each work-item reads its neighbour's value in the group, modulo the local size
// requires: cl_khr_fp64
// run: --kernel k --global 8 --local 8 --arg '{char:-3,double:0.125,int:40,double3:1.5,2.25,-4,double2:0,-7.75}' --arg 'ulong[96]=0,0,0,0,0,0x12688b70e62b,0,0,0xbfe0000000000000,0x4000000000000000,0,0,1,0x3fd0000000000000,0xffffffff,0,0x3ff0000000000000,0x12688b70e62b,0x4008000000000000,0,0x3fe0000000000000,0x4000000000000000,0,0,2,0x3fe0000000000000,0xfffffffe,0,0x4000000000000000,0x12688b70e62b,0x4018000000000000,0,0x3ff8000000000000,0x4000000000000000,0,0,3,0x3fe8000000000000,0xfffffffd,0,0x4008000000000000,0x12688b70e62b,0x4022000000000000,0,0x4004000000000000,0x4000000000000000,0,0,4,0x3ff0000000000000,0xfffffffc,0,0x4010000000000000,0x12688b70e62b,0x4028000000000000,0,0x400c000000000000,0x4000000000000000,0,0,5,0x3ff4000000000000,0xfffffffb,0,0x4014000000000000,0x12688b70e62b,0x402e000000000000,0,0x4012000000000000,0x4000000000000000,0,0,6,0x3ff8000000000000,0xfffffffa,0,0x4018000000000000,0x12688b70e62b,0x4032000000000000,0,0x4016000000000000,0x4000000000000000,0,0,7,0x3ffc000000000000,0xfffffff9,0,0x401c000000000000,0x12688b70e62b,0x4035000000000000,0,0x401a000000000000,0x4000000000000000,0,0' --arg 'double[64]' --arg local:64
// expect o: 37.125 -0.25 -7.75 3.25 0.5 -0.5 96 32 37.125 -0.25 -7.75 6.5 -0.6666666666666666 0.5 96 32 37.125 -0.25 -7.75 9.75 3e300 1.5 96 32 37.125 -0.25 -7.75 13 2e-323 2.5 96 32 37.125 -0.25 -7.75 16.25 2.5 3.5 96 32 37.125 -0.25 -7.75 19.5 -2 4.5 96 32 37.125 -0.25 -7.75 22.75 7e300 5.5 96 32 37.125 -0.25 -7.75 0 4e-323 6.5 96 32
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef struct { char c; double d; int i; double3 v; double2 w; } item;
constant double table[4] = { 0.5, -1.0 / 3.0, 1e300, 4.9406564584124654e-324 };
kernel void k(item p, global const item *items, global double *o, local double *scratch) {
    size_t i = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    double priv[4];
    for (int j = 0; j < 4; j++) priv[j] = table[j] * (double)(i + 1);
    scratch[l] = items[i].d + items[i].v.z;
    barrier(CLK_LOCAL_MEM_FENCE);
    double neighbour = scratch[(l + 1) % n];
    o[8 * i + 0] = p.d + (double)p.c + (double)p.i;
    o[8 * i + 1] = p.v.x + p.v.y + p.v.z;
    o[8 * i + 2] = p.w.y;
    o[8 * i + 3] = neighbour;
    o[8 * i + 4] = priv[i % 4];
    o[8 * i + 5] = items[i].w.x;
    o[8 * i + 6] = (double)sizeof(item);
    o[8 * i + 7] = (double)__alignof__(item);
}
