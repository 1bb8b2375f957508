// sub_group_barrier (OpenCL C 6.15.8): "if any work-item in a sub-group encounters a
// sub_group_barrier, the barrier must be encountered by all work-items in the sub-group before
// any are allowed to continue execution beyond the barrier", and with CLK_LOCAL_MEM_FENCE or
// CLK_GLOBAL_MEM_FENCE it orders the sub-group's accesses to that memory. Each work-item
// writes a value, and after the barrier reads the one its sub-group's work-item of reversed
// sub-group local id wrote. The sub-groups are taken as the device reports them (a sub-group
// of the CPU device is 8 consecutive linear local ids; the expectations assume that size,
// with a smaller last sub-group where the local size is not a multiple of 8, 6.15.1).
// first_only, after the CTS's barrier test: only sub-group 0 reaches the barrier ("If
// sub_group_barrier is inside a conditional statement, then all work-items within the
// sub-group must enter the conditional"), the others take the other side. mixed: the even
// sub-groups exchange twice through barriers in a loop under a branch, then the whole group
// exchanges through a work-group barrier. reduce_in_branch: a sub-group collective under the
// same kind of branch (6.15.20: the sub-group functions "must be encountered by all
// work-items in the sub-group").
// local-sizes: fixed: sub-groups and __local exchanges within each work-group
// requires: __opencl_c_subgroups
// requires: sub-group-size=8
// run: --kernel local_reverse --global 16 --local 8 --options -cl-std=CL3.0 --arg 'int[16]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5' --arg 'int[16]'
// expect out: 24 -50 78 4 -70 58 -16 -90 10 -64 64 -10 -84 44 -30 98
// run: --kernel local_reverse --global 32 --local 16 --options -cl-std=CL3.0 --arg 'int[32]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2,35,-29,8,45,-19,18,-46,-9' --arg 'int[32]'
// expect out: 24 -50 78 4 -70 58 -16 -90 10 -64 64 -10 -84 44 -30 98 -4 -78 50 -24 -98 30 -44 84 -18 -92 36 -38 90 16 -58 70
// run: --kernel local_reverse --global 48 --local 24 --options -cl-std=CL3.0 --arg 'int[48]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2,35,-29,8,45,-19,18,-46,-9,28,-36,1,38,-26,11,48,-16,21,-43,-6,31,-33,4,41,-23' --arg 'int[48]'
// expect out: 24 -50 78 4 -70 58 -16 -90 10 -64 64 -10 -84 44 -30 98 -4 -78 50 -24 -98 30 -44 84 -18 -92 36 -38 90 16 -58 70 -32 96 22 -52 76 2 -72 56 -46 82 8 -66 62 -12 -86 42
// run: --kernel local_reverse --global 64 --local 64 --options -cl-std=CL3.0 --arg 'int[64]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2,35,-29,8,45,-19,18,-46,-9,28,-36,1,38,-26,11,48,-16,21,-43,-6,31,-33,4,41,-23,14,-50,-13,24,-40,-3,34,-30,7,44,-20,17,-47,-10,27,-37' --arg 'int[64]'
// expect out: 24 -50 78 4 -70 58 -16 -90 10 -64 64 -10 -84 44 -30 98 -4 -78 50 -24 -98 30 -44 84 -18 -92 36 -38 90 16 -58 70 -32 96 22 -52 76 2 -72 56 -46 82 8 -66 62 -12 -86 42 -60 68 -6 -80 48 -26 -100 28 -74 54 -20 -94 34 -40 88 14
// run: --kernel local_reverse --global 24 --local 12 --options -cl-std=CL3.0 --arg 'int[24]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2' --arg 'int[24]'
// expect out: 24 -50 78 4 -70 58 -16 -90 -84 44 -30 98 -98 30 -44 84 10 -64 64 -10 -4 -78 50 -24
// run: --kernel global_reverse --global 16 --local 8 --options -cl-std=CL3.0 --arg 'int[16]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5' --arg 'int[16]' --arg 'int[16]'
// expect out: 24 -50 78 4 -70 58 -16 -90 10 -64 64 -10 -84 44 -30 98
// run: --kernel global_reverse --global 32 --local 16 --options -cl-std=CL3.0 --arg 'int[32]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2,35,-29,8,45,-19,18,-46,-9' --arg 'int[32]' --arg 'int[32]'
// expect out: 24 -50 78 4 -70 58 -16 -90 10 -64 64 -10 -84 44 -30 98 -4 -78 50 -24 -98 30 -44 84 -18 -92 36 -38 90 16 -58 70
// run: --kernel global_reverse --global 48 --local 24 --options -cl-std=CL3.0 --arg 'int[48]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2,35,-29,8,45,-19,18,-46,-9,28,-36,1,38,-26,11,48,-16,21,-43,-6,31,-33,4,41,-23' --arg 'int[48]' --arg 'int[48]'
// expect out: 24 -50 78 4 -70 58 -16 -90 10 -64 64 -10 -84 44 -30 98 -4 -78 50 -24 -98 30 -44 84 -18 -92 36 -38 90 16 -58 70 -32 96 22 -52 76 2 -72 56 -46 82 8 -66 62 -12 -86 42
// run: --kernel global_reverse --global 64 --local 64 --options -cl-std=CL3.0 --arg 'int[64]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2,35,-29,8,45,-19,18,-46,-9,28,-36,1,38,-26,11,48,-16,21,-43,-6,31,-33,4,41,-23,14,-50,-13,24,-40,-3,34,-30,7,44,-20,17,-47,-10,27,-37' --arg 'int[64]' --arg 'int[64]'
// expect out: 24 -50 78 4 -70 58 -16 -90 10 -64 64 -10 -84 44 -30 98 -4 -78 50 -24 -98 30 -44 84 -18 -92 36 -38 90 16 -58 70 -32 96 22 -52 76 2 -72 56 -46 82 8 -66 62 -12 -86 42 -60 68 -6 -80 48 -26 -100 28 -74 54 -20 -94 34 -40 88 14
// run: --kernel global_reverse --global 24 --local 12 --options -cl-std=CL3.0 --arg 'int[24]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2' --arg 'int[24]' --arg 'int[24]'
// expect out: 24 -50 78 4 -70 58 -16 -90 -84 44 -30 98 -98 30 -44 84 10 -64 64 -10 -4 -78 50 -24
// run: --kernel first_only --global 16 --local 8 --options -cl-std=CL3.0 --arg 'int[16]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5' --arg 'int[16]'
// expect out: 12 -25 39 2 -35 29 -8 -45 5 -32 32 -5 -42 22 -15 49
// run: --kernel first_only --global 32 --local 16 --options -cl-std=CL3.0 --arg 'int[32]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2,35,-29,8,45,-19,18,-46,-9' --arg 'int[32]'
// expect out: 12 -25 39 2 -35 29 -8 -45 -49 15 -22 42 5 -32 32 -5 -2 -39 25 -12 -49 15 -22 42 -35 29 -8 -45 19 -18 46 9
// run: --kernel first_only --global 48 --local 24 --options -cl-std=CL3.0 --arg 'int[48]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2,35,-29,8,45,-19,18,-46,-9,28,-36,1,38,-26,11,48,-16,21,-43,-6,31,-33,4,41,-23' --arg 'int[48]'
// expect out: 12 -25 39 2 -35 29 -8 -45 -49 15 -22 42 5 -32 32 -5 -42 22 -15 49 12 -25 39 2 -9 -46 18 -19 45 8 -29 35 -28 36 -1 -38 26 -11 -48 16 -21 43 6 -31 33 -4 -41 23
// run: --kernel first_only --global 64 --local 64 --options -cl-std=CL3.0 --arg 'int[64]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2,35,-29,8,45,-19,18,-46,-9,28,-36,1,38,-26,11,48,-16,21,-43,-6,31,-33,4,41,-23,14,-50,-13,24,-40,-3,34,-30,7,44,-20,17,-47,-10,27,-37' --arg 'int[64]'
// expect out: 12 -25 39 2 -35 29 -8 -45 -49 15 -22 42 5 -32 32 -5 -42 22 -15 49 12 -25 39 2 -35 29 -8 -45 19 -18 46 9 -28 36 -1 -38 26 -11 -48 16 -21 43 6 -31 33 -4 -41 23 -14 50 13 -24 40 3 -34 30 -7 -44 20 -17 47 10 -27 37
// run: --kernel first_only --global 24 --local 12 --options -cl-std=CL3.0 --arg 'int[24]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2' --arg 'int[24]'
// expect out: 12 -25 39 2 -35 29 -8 -45 -49 15 -22 42 -49 15 -22 42 5 -32 32 -5 12 -25 39 2
// run: --kernel mixed --global 16 --local 8 --options -cl-std=CL3.0 --arg 'int[16]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5' --arg 'int[16]'
// expect out: 14 -23 41 4 -33 31 -6 -43 7 -30 34 -3 -40 24 -13 51
// run: --kernel mixed --global 32 --local 16 --options -cl-std=CL3.0 --arg 'int[32]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2,35,-29,8,45,-19,18,-46,-9' --arg 'int[32]'
// expect out: 5 -32 32 -5 -42 22 -15 49 14 -23 41 4 -33 31 -6 -43 -9 -46 18 -19 45 8 -29 35 0 -37 27 -10 -47 17 -20 44
// run: --kernel mixed --global 48 --local 24 --options -cl-std=CL3.0 --arg 'int[48]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2,35,-29,8,45,-19,18,-46,-9,28,-36,1,38,-26,11,48,-16,21,-43,-6,31,-33,4,41,-23' --arg 'int[48]'
// expect out: 0 -37 27 -10 -47 17 -20 44 5 -32 32 -5 -42 22 -15 49 14 -23 41 4 -33 31 -6 -43 -21 43 6 -31 33 -4 -41 23 -16 48 11 -26 38 1 -36 28 -7 -44 20 -17 47 10 -27 37
// run: --kernel mixed --global 64 --local 64 --options -cl-std=CL3.0 --arg 'int[64]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2,35,-29,8,45,-19,18,-46,-9,28,-36,1,38,-26,11,48,-16,21,-43,-6,31,-33,4,41,-23,14,-50,-13,24,-40,-3,34,-30,7,44,-20,17,-47,-10,27,-37' --arg 'int[64]'
// expect out: -37 27 -10 -47 17 -20 44 7 -28 36 -1 -38 26 -11 -48 16 -23 41 4 -33 31 -6 -43 21 -14 50 13 -24 40 3 -34 30 -9 -46 18 -19 45 8 -29 35 0 -37 27 -10 -47 17 -20 44 5 -32 32 -5 -42 22 -15 49 14 -23 41 4 -33 31 -6 -43
// run: --kernel mixed --global 24 --local 12 --options -cl-std=CL3.0 --arg 'int[24]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2' --arg 'int[24]'
// expect out: -42 22 -15 49 14 -23 41 4 -33 31 -6 -43 -2 -39 25 -12 -47 17 -20 44 7 -30 34 -3
// run: --kernel reduce_in_branch --global 16 --local 8 --options -cl-std=CL3.0 --arg 'int[16]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5' --arg 'int[16]'
// expect out: -31 -31 -31 -31 -31 -31 -31 -31 14 14 14 14 14 14 14 14
// run: --kernel reduce_in_branch --global 32 --local 16 --options -cl-std=CL3.0 --arg 'int[32]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2,35,-29,8,45,-19,18,-46,-9' --arg 'int[32]'
// expect out: -31 -31 -31 -31 -31 -31 -31 -31 -49 15 -22 42 5 -32 32 -5 -42 -42 -42 -42 -42 -42 -42 -42 -35 29 -8 -45 19 -18 46 9
// run: --kernel reduce_in_branch --global 48 --local 24 --options -cl-std=CL3.0 --arg 'int[48]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2,35,-29,8,45,-19,18,-46,-9,28,-36,1,38,-26,11,48,-16,21,-43,-6,31,-33,4,41,-23' --arg 'int[48]'
// expect out: -31 -31 -31 -31 -31 -31 -31 -31 -49 15 -22 42 5 -32 32 -5 -42 -42 -42 -42 -42 -42 -42 -42 3 3 3 3 3 3 3 3 -28 36 -1 -38 26 -11 -48 16 -8 -8 -8 -8 -8 -8 -8 -8
// run: --kernel reduce_in_branch --global 64 --local 64 --options -cl-std=CL3.0 --arg 'int[64]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2,35,-29,8,45,-19,18,-46,-9,28,-36,1,38,-26,11,48,-16,21,-43,-6,31,-33,4,41,-23,14,-50,-13,24,-40,-3,34,-30,7,44,-20,17,-47,-10,27,-37' --arg 'int[64]'
// expect out: -31 -31 -31 -31 -31 -31 -31 -31 -49 15 -22 42 5 -32 32 -5 -42 -42 -42 -42 -42 -42 -42 -42 -35 29 -8 -45 19 -18 46 9 48 48 48 48 48 48 48 48 -21 43 6 -31 33 -4 -41 23 -64 -64 -64 -64 -64 -64 -64 -64 -7 -44 20 -17 47 10 -27 37
// run: --kernel reduce_in_branch --global 24 --local 12 --options -cl-std=CL3.0 --arg 'int[24]=-45,-8,29,-35,2,39,-25,12,49,-15,22,-42,-5,32,-32,5,42,-22,15,-49,-12,25,-39,-2' --arg 'int[24]'
// expect out: -31 -31 -31 -31 -31 -31 -31 -31 -49 15 -22 42 -14 -14 -14 -14 -14 -14 -14 -14 12 -25 39 2

#define REVERSED (get_local_id(0) - get_sub_group_local_id() + get_sub_group_size() - 1 - get_sub_group_local_id())

kernel void local_reverse(global const int *in, global int *out) {
    local int tile[64];
    tile[get_local_id(0)] = 2 * in[get_global_id(0)];
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[REVERSED];
}

kernel void global_reverse(global const int *in, global int *out, global int *tmp) {
    size_t base = get_global_id(0) - get_local_id(0);
    tmp[get_global_id(0)] = 2 * in[get_global_id(0)];
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_sub_group);
    out[get_global_id(0)] = tmp[base + REVERSED];
}

kernel void first_only(global const int *in, global int *out) {
    local int tile[64];
    if (get_sub_group_id() == 0) {
        tile[get_local_id(0)] = in[get_global_id(0)];
        sub_group_barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = tile[REVERSED];
    } else {
        out[get_global_id(0)] = -in[get_global_id(0)];
    }
}

kernel void mixed(global const int *in, global int *out) {
    local int tile[64];
    size_t l = get_local_id(0);
    int v = in[get_global_id(0)];
    if ((get_sub_group_id() & 1) == 0) {
        for (int k = 0; k < 2; k++) {
            tile[l] = v;
            sub_group_barrier(CLK_LOCAL_MEM_FENCE);
            v = tile[REVERSED] + 1;
            sub_group_barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    tile[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[get_local_size(0) - 1 - l];
}

kernel void reduce_in_branch(global const int *in, global int *out) {
    int x = in[get_global_id(0)];
    int r = -x;
    if ((get_sub_group_id() & 1) == 0)
        r = sub_group_reduce_add(x);
    out[get_global_id(0)] = r;
}
