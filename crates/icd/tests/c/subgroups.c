/* Sub-groups through the loader (OpenCL C 6.15.19, API 5.9.4 clGetKernelSubGroupInfo). A
 * device with CL_DEVICE_MAX_NUM_SUB_GROUPS 0 must not list __opencl_c_subgroups and must
 * answer CL_INVALID_OPERATION to the kernel queries. Otherwise a 2-D NDRange (with a smaller
 * last work-group where the device supports non-uniform groups) checks, for whatever
 * grouping the device chose, that every sub-group's local ids are 0..size-1, sizes and counts
 * agree with the queries, and that the reduce, scans, broadcast, all and any of each
 * sub-group match a host computation in sub-group local id order. */
#include "check.h"

static const char *source =
    "#ifndef __opencl_c_subgroups\n"
    "#error the feature macro is not defined\n"
    "#endif\n"
    "kernel void sub(global const int *in, global int *out, local int *scratch) {\n"
    "    size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "    int x = in[g];\n"
    "    global int *o = out + g * 12;\n"
    "    o[0] = get_sub_group_size();\n"
    "    o[1] = get_max_sub_group_size();\n"
    "    o[2] = get_num_sub_groups();\n"
    "    o[3] = get_enqueued_num_sub_groups();\n"
    "    o[4] = get_sub_group_id();\n"
    "    o[5] = get_sub_group_local_id();\n"
    "    o[6] = sub_group_reduce_add(x);\n"
    "    o[7] = sub_group_scan_inclusive_max(x);\n"
    "    o[8] = sub_group_scan_exclusive_add(x);\n"
    "    o[9] = sub_group_broadcast(x, 0);\n"
    "    o[10] = sub_group_all(x > -50);\n"
    "    /* A value passed through local memory across a sub-group barrier. */\n"
    "    size_t l = get_local_linear_id();\n"
    "    scratch[l] = x;\n"
    "    sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    o[11] = (sub_group_any(x == 7) != 0) + 2 * (scratch[l] == x);\n"
    "}\n";

enum { GX = 10, GY = 3, LX = 4, LY = 3, R = 12 };

static void check_queries(cl_kernel kernel, cl_device_id device, size_t max_size, size_t count) {
    size_t local[2] = {LX, LY}, v = 0;
    CHECK(clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, local,
                                  sizeof v, &v, NULL));
    EXPECT(v == max_size);
    CHECK(clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof local, local,
                                  sizeof v, &v, NULL));
    EXPECT(v == count);
    CHECK(clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof v, &v, NULL));
    EXPECT(v >= 1);
    CHECK(clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, NULL, sizeof v, &v, NULL));
    EXPECT(v == 0);
    /* A local size for one sub-group: one dimension, the others 1, and it gives one sub-group. */
    size_t one = 1, sizes[3] = {0, 0, 0};
    CHECK(clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof one, &one,
                                  sizeof sizes, sizes, NULL));
    EXPECT(sizes[0] >= 1 && sizes[1] == 1 && sizes[2] == 1);
    CHECK(clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof sizes, sizes,
                                  sizeof v, &v, NULL));
    EXPECT(v == 1);
    /* 5.9.4: CL_INVALID_VALUE for a NULL input_value, an input_value_size that is not 1 to 3
     * size_t values, or an unknown param_name. */
    EXPECT_ERR(CL_INVALID_VALUE, clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                                         sizeof local, NULL, sizeof v, &v, NULL));
    size_t four[4] = {1, 1, 1, 1};
    EXPECT_ERR(CL_INVALID_VALUE, clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                                         sizeof four, four, sizeof v, &v, NULL));
    EXPECT_ERR(CL_INVALID_VALUE,
               clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, 0, NULL, sizeof v, &v, NULL));
}

static const char *grouping_source =
    "kernel void grouping(global const int *in, global int *out) {\n"
    "    size_t g = get_global_id(0);\n"
    "    global int *o = out + g * 6;\n"
    "    o[0] = get_sub_group_id();\n"
    "    o[1] = get_sub_group_local_id();\n"
    "    o[2] = get_sub_group_size();\n"
    "    o[3] = sub_group_reduce_add(in[g]);\n"
    "    o[4] = sub_group_scan_inclusive_add(in[g]);\n"
    "    o[5] = sub_group_broadcast(in[g], 1);\n"
    "}\n";

/* ferrocl's grouping, for work-group sizes that are and are not multiples of its sub-group
 * size S (CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE): sub-group k is the work-items of linear
 * local id [kS, kS + S), the last one smaller. Other implementations group as they like
 * (6.15.1: "an implementation-defined grouping"), so only ferrocl is held to this. */
static void test_fixed_grouping(cl_context context, cl_command_queue queue, cl_device_id device) {
    if (lenient())
        return;
    cl_program program = build_program(context, device, grouping_source, "-cl-std=CL3.0");
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "grouping", &err);
    CHECK_RET(err);
    const size_t locals[] = {16, 20, 12, 5, 64, 66};
    for (size_t t = 0; t < sizeof locals / sizeof *locals; t++) {
        size_t local = locals[t], global = 2 * local, s = 0;
        CHECK(clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local,
                                      sizeof s, &s, NULL));
        REQUIRE(s >= 2 && s <= 64);
        size_t count = 0;
        CHECK(clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof local, &local,
                                      sizeof count, &count, NULL));
        EXPECT(count == (local + s - 1) / s);
        int in[132], out[132 * 6];
        for (size_t i = 0; i < global; i++)
            in[i] = (int)(i * 7 % 23) - 11;
        cl_mem a = make_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, global * sizeof(int), in);
        cl_mem b = make_buffer(context, CL_MEM_WRITE_ONLY, global * 6 * sizeof(int), NULL);
        CHECK(clSetKernelArg(kernel, 0, sizeof a, &a));
        CHECK(clSetKernelArg(kernel, 1, sizeof b, &b));
        CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, global * 6 * sizeof(int), out, 0, NULL, NULL));
        int bad = 0;
        for (size_t i = 0; i < global; i++) {
            size_t l = i % local, k = l / s, start = i - l % s;
            size_t size = local - k * s < s ? local - k * s : s;
            int sum = 0, scan = 0;
            for (size_t j = start; j < start + size; j++) {
                sum += in[j];
                if (j <= i)
                    scan += in[j];
            }
            int *r = out + i * 6;
            int want[6] = {(int)k, (int)(l % s), (int)size, sum, scan, size > 1 ? in[start + 1] : r[5]};
            for (int q = 0; q < 6; q++)
                bad += r[q] != want[q];
        }
        if (bad)
            fprintf(stderr, "local size %zu, sub-group size %zu: %d wrong values\n", local, s, bad);
        EXPECT(bad == 0);
        CHECK(clReleaseMemObject(a));
        CHECK(clReleaseMemObject(b));
    }
    CHECK(clReleaseKernel(kernel));
    CHECK(clReleaseProgram(program));
}

int main(void) {
    cl_device_id device = first_device();
    cl_uint max_groups = device_uint(device, CL_DEVICE_MAX_NUM_SUB_GROUPS);
    size_t count = 0;
    cl_name_version *features = NULL;
    size_t bytes = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &bytes));
    features = malloc(bytes);
    CHECK(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, bytes, features, NULL));
    count = bytes / sizeof *features;
    int listed = 0;
    for (size_t i = 0; i < count; i++)
        listed |= strcmp(features[i].name, "__opencl_c_subgroups") == 0;
    free(features);
    /* API Table 5: "The minimum value is 1 if the device supports sub-groups, and must be 0 for
     * devices that do not support sub-groups"; without independent forward progress the
     * cl_khr_subgroups extension is not offered (that query "must return CL_TRUE for devices
     * that support the cl_khr_subgroups extension"). */
    EXPECT(listed == (max_groups > 0));
    cl_bool progress = CL_FALSE;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof progress, &progress,
                          NULL));
    if (!progress) {
        char ext[8192] = "";
        CHECK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
        EXPECT(strstr(ext, "cl_khr_subgroups") == NULL);
    }
    if (max_groups == 0 || !device_uint(device, CL_DEVICE_COMPILER_AVAILABLE)) {
        printf("subgroups.c: the device has no sub-groups or no compiler\n");
        return finish();
    }
    cl_context context = make_context(device);
    cl_command_queue queue = make_queue(context, device);
    cl_program program = build_program(context, device, source, "-cl-std=CL3.0");
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "sub", &err);
    CHECK_RET(err);

    cl_bool non_uniform = CL_FALSE;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof non_uniform, &non_uniform,
                          NULL));
    size_t gx = non_uniform ? GX : 12;
    size_t n = gx * GY;
    int in[12 * GY], out[12 * GY * R];
    for (size_t i = 0; i < n; i++)
        in[i] = (int)((i * 37 + 11) % 101) - 50;
    in[5] = 7;
    cl_mem a = make_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem b = make_buffer(context, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    CHECK(clSetKernelArg(kernel, 0, sizeof a, &a));
    CHECK(clSetKernelArg(kernel, 1, sizeof b, &b));
    CHECK(clSetKernelArg(kernel, 2, LX * LY * sizeof(int), NULL));
    size_t global[2] = {gx, GY}, local[2] = {LX, LY};
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, n * R * sizeof(int), out, 0, NULL, NULL));

    /* The sub-groups of each work-group, whatever the device made them. */
    size_t full_max = 0, full_count = 0;
    for (size_t group_x = 0; group_x < gx; group_x += LX) {
        size_t w = gx - group_x < LX ? gx - group_x : LX;
        size_t ids[LX * LY], items = 0;
        for (size_t y = 0; y < LY; y++)
            for (size_t x = 0; x < w; x++)
                ids[items++] = y * gx + group_x + x;
        int groups = out[ids[0] * R + 2];
        for (int sg = 0; sg < groups; sg++) {
            /* The members of sub-group sg, in sub-group local id order. */
            size_t members[LX * LY], size = 0;
            for (size_t local_id = 0; local_id < items; local_id++)
                for (size_t k = 0; k < items; k++) {
                    int *r = out + ids[k] * R;
                    if (r[4] == sg && r[5] == (int)local_id)
                        members[size++] = ids[k];
                }
            EXPECT(size >= 1);
            int sum = 0, all = 1, any = 0, high = -0x7fffffff - 1, before = 0;
            for (size_t k = 0; k < size; k++) {
                sum += in[members[k]];
                all &= in[members[k]] > -50;
                any |= in[members[k]] == 7;
            }
            for (size_t k = 0; k < size; k++) {
                int *r = out + members[k] * R;
                int x = in[members[k]];
                high = x > high ? x : high;
                EXPECT(r[0] == (int)size);
                EXPECT(r[0] <= r[1]);
                EXPECT(r[2] == groups);
                EXPECT(r[6] == sum);
                EXPECT(r[7] == high);
                EXPECT(r[8] == before);
                EXPECT(r[9] == in[members[0]]);
                EXPECT((r[10] != 0) == all);
                EXPECT(r[11] == any + 2);
                before += x;
            }
        }
        if (w == LX) {
            full_count = (size_t)groups;
            full_max = (size_t)out[ids[0] * R + 1];
            EXPECT(out[ids[0] * R + 3] == groups);
        }
    }
    check_queries(kernel, device, full_max, full_count);
    test_fixed_grouping(context, queue, device);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return finish();
}
