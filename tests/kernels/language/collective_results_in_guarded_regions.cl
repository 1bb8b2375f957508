// Results of work-group collectives (the same for every work-item, OpenCL C 6.15.14), kept
// across barriers and read in regions under a guard on the local id, at local sizes with and
// without a partial chunk.
// local-sizes: fixed: work-group collectives, and guards on the local id
// requires: __opencl_c_work_group_collective_functions
// run: --kernel collective --global 2 --local 1 --options -cl-std=CL3.0 --arg 'int[4]=-1' --arg int:0
// expect out: -1 2 -1 2
// run: --kernel collective --global 6 --local 3 --options -cl-std=CL3.0 --arg 'int[12]=-1' --arg int:0
// expect out: -1 7 6 7 6 7 -1 7 6 7 6 7
// run: --kernel collective --global 16 --local 8 --options -cl-std=CL3.0 --arg 'int[32]=-1' --arg int:0
// expect out: -1 37 36 37 36 37 36 37 36 37 36 37 36 37 36 37 -1 37 36 37 36 37 36 37 36 37 36 37 36 37 36 37
// run: --kernel collective --global 24 --local 12 --options -cl-std=CL3.0 --arg 'int[48]=-1' --arg int:0
// expect out: -1 79 78 79 78 79 78 79 78 79 78 79 78 79 78 79 78 79 78 79 78 79 78 79 -1 79 78 79 78 79 78 79 78 79 78 79 78 79 78 79 78 79 78 79 78 79 78 79
// run: --kernel collective --global 32 --local 16 --options -cl-std=CL3.0 --arg 'int[64]=-1' --arg int:0
// expect out: -1 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 -1 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137
// run: --kernel collective --global 34 --local 17 --options -cl-std=CL3.0 --arg 'int[68]=-1' --arg int:0
// expect out: -1 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 -1 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154 153 154
// run: --kernel collective --global 64 --local 32 --options -cl-std=CL3.0 --arg 'int[128]=-1' --arg int:0
// expect out: -1 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 -1 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529 528 529
// run: --kernel collective --global 32 --local 16 --options -cl-std=CL3.0 --arg 'int[64]=-1' --arg int:1
// expect out: -1 -1 -1 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 -1 -1 -1 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137
// run: --kernel collective --global 32 --local 16 --options -cl-std=CL3.0 --arg 'int[64]=-1' --arg int:5
// expect out: -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137
// run: --kernel collective --global 32 --local 16 --options -cl-std=CL3.0 --arg 'int[64]=-1' --arg int:8
// expect out: -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 137 136 137 136 137 136 137 136 137 136 137 136 137 136 137
// run: --kernel collective --global 32 --local 16 --options -cl-std=CL3.0 --arg 'int[64]=-1' --arg int:11
// expect out: -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 137 136 137 136 137 136 137 136 137 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 137 136 137 136 137 136 137 136 137
kernel void collective(global int *out, int c) {
    int lid = get_local_id(0);
    int total = work_group_reduce_add(lid + 1);
    int first = work_group_broadcast(lid * 3 + 1, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid > c)
        out[2 * get_global_id(0)] = total;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid >= c)
        out[2 * get_global_id(0) + 1] = first + total;
}
