/* OpenCL C 3.0 6.7.9 and 6.15.10: the generic address space, on a device that answers CL_TRUE
 * to CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT. Pointers into the global, local and private
 * spaces are passed through functions with unqualified (generic) parameters, which write
 * through them and ask to_global, to_local and to_private where they point; the results are
 * checked for every work-item, built as OpenCL C 2.0 (where the device lists it) and 3.0. */
#include "check.h"

static const char *source =
    "#if __OPENCL_C_VERSION__ >= 300 && !defined(__opencl_c_generic_address_space)\n"
    "#error the feature macro is not defined\n"
    "#endif\n"
    "int where(const int *p) {\n"
    "    return (to_global(p) != NULL) | (to_local(p) != NULL) << 1 | (to_private(p) != NULL) << 2;\n"
    "}\n"
    "void add(int *p, int x) { *p += x; }\n"
    "int sum(const int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }\n"
    "kernel void k(global int *g, global int *out) {\n"
    "    local int l[256];\n"
    "    int priv[4] = {1, 2, 3, 4};\n"
    "    size_t gid = get_global_id(0), lid = get_local_id(0);\n"
    "    l[lid] = (int)gid;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    add(&g[gid], 1);\n"
    "    add(&l[lid], 2);\n"
    "    add(&priv[gid % 4], 3);\n"
    "    int *p = (gid % 3 == 0) ? (int *)&l[lid] : (int *)&priv[0];\n"
    "    add(p, 4);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    global int *o = out + 6 * gid;\n"
    "    o[0] = g[gid];\n"
    "    o[1] = l[lid];\n"
    "    o[2] = sum(priv, 4);\n"
    "    o[3] = where(&g[gid]) | where(&l[lid]) << 3 | where(&priv[1]) << 6 | where(p) << 9;\n"
    "    o[4] = to_local(&g[gid]) == NULL && to_private(&l[lid]) == NULL && to_global(&priv[2]) == NULL;\n"
    "    o[5] = get_fence(&l[lid]) == CLK_LOCAL_MEM_FENCE && get_fence(&g[gid]) == CLK_GLOBAL_MEM_FENCE;\n"
    "}\n";

enum { N = 100 };

static int supports_c_version(cl_device_id device, cl_uint major, cl_uint minor) {
    size_t size = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, NULL, &size));
    cl_name_version versions[64];
    REQUIRE(size <= sizeof versions);
    CHECK(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, size, versions, NULL));
    for (size_t i = 0; i < size / sizeof versions[0]; i++)
        if (CL_VERSION_MAJOR(versions[i].version) == major && CL_VERSION_MINOR(versions[i].version) == minor)
            return 1;
    return 0;
}

static void run(cl_context context, cl_command_queue queue, cl_device_id device, const char *options,
                size_t local) {
    cl_program program = build_program(context, device, source, options);
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    CHECK_RET(err);
    int g[N], out[6 * N];
    for (int i = 0; i < N; i++)
        g[i] = 1000 * i;
    cl_mem gb = make_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof g, g);
    cl_mem ob = make_buffer(context, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    CHECK(clSetKernelArg(kernel, 0, sizeof gb, &gb));
    CHECK(clSetKernelArg(kernel, 1, sizeof ob, &ob));
    size_t global = N;
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int failures = 0;
    for (int i = 0; i < N && failures < 10; i++) {
        int via_local = i % 3 == 0;
        int priv_sum = 1 + 2 + 3 + 4 + 3 + (via_local ? 0 : 4);
        /* global 1, local 2, private 4, for g, l, priv and p in bits 0, 3, 6 and 9. */
        int spaces = 1 | 2 << 3 | 4 << 6 | (via_local ? 2 : 4) << 9;
        int want[6] = {1000 * i + 1, i + 2 + (via_local ? 4 : 0), priv_sum, spaces, 1, 1};
        for (int k = 0; k < 6; k++) {
            if (out[6 * i + k] != want[k]) {
                fprintf(stderr, "%s, local size %zu: work-item %d value %d: %d, expected %d\n", options, local, i,
                        k, out[6 * i + k], want[k]);
                failures++;
            }
        }
    }
    check_failures += failures;
    clReleaseMemObject(gb);
    clReleaseMemObject(ob);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

int main(void) {
    cl_device_id device = first_device();
    if (!device_uint(device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT)) {
        printf("generic.c: the device does not support the generic address space\n");
        return finish();
    }
    cl_context context = make_context(device);
    cl_command_queue queue = make_queue(context, device);
    /* Groups of 20 (the global size a multiple of it) and of 1. */
    run(context, queue, device, "-cl-std=CL3.0", 20);
    run(context, queue, device, "-cl-std=CL3.0", 1);
    if (supports_c_version(device, 2, 0))
        run(context, queue, device, "-cl-std=CL2.0", 20);
    /* 6.7.9: "A pointer that points to the constant address space cannot be cast or implicitly
     * converted to the generic address space." */
    const char *bad = "int first(const int *p) { return *p; }\n"
                      "constant int c[1] = {1};\n"
                      "kernel void k(global int *o) { o[0] = first(c); }\n";
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &bad, NULL, &err);
    CHECK_RET(err);
    EXPECT_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(program, 1, &device, "-cl-std=CL3.0", NULL, NULL));
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return finish();
}
