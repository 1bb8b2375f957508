/* OpenCL C 6.15.16, work-group collective functions, through the loader: a device that answers
 * CL_TRUE to CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT lists the feature macro, defines
 * it in OpenCL C 3.0 programs, and runs work_group_reduce/scan/broadcast/all/any in a 2-D
 * NDRange (with a smaller last work-group where the device supports non-uniform groups),
 * compared element by element with a host reference in linear local id order. A device
 * without the feature is only checked for consistency. */
#include "check.h"

static const char *source =
    "#ifndef __opencl_c_work_group_collective_functions\n"
    "#error the feature macro is not defined\n"
    "#endif\n"
    "kernel void collect(global const int *in, global int *out) {\n"
    "    size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "    int x = in[g];\n"
    "    global int *o = out + g * 6;\n"
    "    o[0] = work_group_reduce_add(x);\n"
    "    o[1] = work_group_scan_inclusive_min(x);\n"
    "    o[2] = work_group_scan_exclusive_add(x);\n"
    "    o[3] = work_group_broadcast(x, 1, get_local_size(1) - 1);\n"
    "    o[4] = work_group_all(x > -50);\n"
    "    o[5] = work_group_any(x == 7);\n"
    "}\n";

/* The work-group shapes: 4 x 3 (not a multiple of the CPU device's sub-group size of 8) and
 * 8 x 2 (a multiple), each over a global x extent that leaves a smaller last work-group. */
enum { GY = 3, MAX_GX = 24, MAX_ITEMS = 16 };

/* Runs the kernel over gx x ly*GY work-items in groups of lx x ly and compares every result
 * with the host reference. */
static void run_shape(cl_context context, cl_command_queue queue, cl_kernel kernel, size_t gx, size_t lx,
                      size_t ly) {
    size_t gy = GY * ly;
    size_t n = gx * gy;
    static int in[MAX_GX * GY * 2], out[MAX_GX * GY * 2 * 6], want[MAX_GX * GY * 2 * 6];
    REQUIRE(n <= MAX_GX * GY * 2 && lx * ly <= MAX_ITEMS);
    for (size_t i = 0; i < n; i++)
        in[i] = (int)((i * 37 + 11) % 101) - 50;
    in[5] = 7;
    cl_mem a = make_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(int), in);
    cl_mem b = make_buffer(context, CL_MEM_WRITE_ONLY, n * 6 * sizeof(int), NULL);
    CHECK(clSetKernelArg(kernel, 0, sizeof a, &a));
    CHECK(clSetKernelArg(kernel, 1, sizeof b, &b));
    size_t global[2] = {gx, gy}, local[2] = {lx, ly};
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, n * 6 * sizeof(int), out, 0, NULL, NULL));

    /* The reference: each work-group's items in linear local id order (x fastest). */
    for (size_t group_y = 0; group_y < gy; group_y += ly)
        for (size_t group_x = 0; group_x < gx; group_x += lx) {
            size_t w = gx - group_x < lx ? gx - group_x : lx;
            size_t ids[MAX_ITEMS], count = 0;
            for (size_t y = 0; y < ly; y++)
                for (size_t x = 0; x < w; x++)
                    ids[count++] = (group_y + y) * gx + group_x + x;
            int sum = 0, all = 1, any = 0;
            for (size_t k = 0; k < count; k++) {
                sum += in[ids[k]];
                all &= in[ids[k]] > -50;
                any |= in[ids[k]] == 7;
            }
            int bcast = in[ids[(ly - 1) * w + 1]];
            int low = 0x7fffffff, before = 0;
            for (size_t k = 0; k < count; k++) {
                int *r = want + ids[k] * 6;
                low = in[ids[k]] < low ? in[ids[k]] : low;
                r[0] = sum;
                r[1] = low;
                r[2] = before;
                r[3] = bcast;
                r[4] = all;
                r[5] = any;
                before += in[ids[k]];
            }
        }
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 6; k++) {
            int got = out[i * 6 + k], expected = want[i * 6 + k];
            /* all and any return "a non-zero value" for true. */
            int ok = k >= 4 ? (got != 0) == (expected != 0) : got == expected;
            if (!ok) {
                fprintf(stderr, "%zu x %zu groups: work-item %zu, result %d: %d, expected %d\n", lx, ly, i, k, got,
                        expected);
                check_failures++;
            }
        }
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

int main(void) {
    cl_device_id device = first_device();
    cl_bool supported = CL_FALSE;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, sizeof supported, &supported,
                          NULL));
    if (!supported || !device_uint(device, CL_DEVICE_COMPILER_AVAILABLE)) {
        printf("collectives.c: the device has no work-group collective functions or no compiler\n");
        return finish();
    }
    cl_context context = make_context(device);
    cl_command_queue queue = make_queue(context, device);
    cl_program program = build_program(context, device, source, "-cl-std=CL3.0");
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "collect", &err);
    CHECK_RET(err);

    /* 3.0, 5.10: without non-uniform work-group support the global size must be a multiple
     * of the local size; the x extent is then rounded up to one. */
    cl_bool non_uniform = CL_FALSE;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof non_uniform, &non_uniform,
                          NULL));
    run_shape(context, queue, kernel, non_uniform ? 10 : 12, 4, 3);
    run_shape(context, queue, kernel, non_uniform ? 20 : 24, 8, 2);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return finish();
}
