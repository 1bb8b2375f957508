/* 5.10: which programs may be launched with non-uniform work-groups (a global size that the local
 * size does not divide). "The device associated with command_queue must support non-uniform
 * work-groups" and "The program object associated with kernel must support non-uniform
 * work-groups": built from source "using the -cl-std=CL2.0 or -cl-std=CL3.0 build option and
 * without the -cl-uniform-work-group-size build option"; from a binary, "built without the
 * -cl-uniform-work-group-size build options"; from clLinkProgram, "all input programs must support
 * non-uniform work-groups". Otherwise clEnqueueNDRangeKernel returns CL_INVALID_WORK_GROUP_SIZE
 * "if the work-group size must be uniform and ... the global_work_size is not evenly divisible by
 * the local_work_size". Each way is checked, and that a uniform launch runs in every case. */
#include "check.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;
static cl_mem out;
static cl_bool device_non_uniform;

static const char *SOURCE = "kernel void ids(global int *out) { out[get_global_id(0)] = (int)get_local_size(0); }\n";
static const char *HELPER = "int helper(int x) { return x + 1; }\n";

enum { GLOBAL = 10, LOCAL = 4 };

/* Launches `program`'s kernel with the global size GLOBAL (uneven: LOCAL does not divide it)
 * and then 12 (even); expects the uneven launch to be accepted when `non_uniform` and the device
 * supports it, and to fail with CL_INVALID_WORK_GROUP_SIZE otherwise. */
static void launch(cl_program program, int non_uniform, const char *what) {
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "ids", &err);
    CHECK_RET(err);
    CHECK(clSetKernelArg(kernel, 0, sizeof out, &out));
    size_t uneven = GLOBAL, even = 12, local = LOCAL;
    err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &uneven, &local, 0, NULL, NULL);
    if (non_uniform && device_non_uniform) {
        if (err != CL_SUCCESS)
            fprintf(stderr, "%s: the non-uniform launch failed\n", what);
        EXPECT_RET(CL_SUCCESS, err);
        cl_int got[GLOBAL];
        CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        /* "The other region will have work-groups with less than the number of work items
         * specified by the local size parameter in that dimension." */
        for (int i = 0; i < GLOBAL; i++)
            EXPECT(got[i] == (i < 8 ? LOCAL : GLOBAL % LOCAL));
    } else {
        if (err != CL_INVALID_WORK_GROUP_SIZE)
            fprintf(stderr, "%s: the non-uniform launch was not refused\n", what);
        EXPECT_RET(CL_INVALID_WORK_GROUP_SIZE, err);
    }
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &even, &local, 0, NULL, NULL));
    /* A NULL local size: "the OpenCL runtime must choose a uniform work-group size" where one
     * is required. */
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &uneven, NULL, 0, NULL, NULL));
    CHECK(clFinish(queue));
    CHECK(clReleaseKernel(kernel));
}

static cl_program from_source(void) {
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &SOURCE, NULL, &err);
    CHECK_RET(err);
    return program;
}

static cl_program built(const char *options) {
    cl_program program = from_source();
    CHECK(clBuildProgram(program, 1, &device, options, NULL, NULL));
    return program;
}

static cl_program compiled(const char *options) {
    cl_program program = from_source();
    CHECK(clCompileProgram(program, 1, &device, options, 0, NULL, NULL, NULL, NULL));
    return program;
}

static int supports_c_version(cl_uint major, cl_uint minor) {
    size_t size = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, NULL, &size));
    cl_name_version *all = malloc(size);
    REQUIRE(all != NULL);
    CHECK(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, size, all, NULL));
    int found = 0;
    for (size_t i = 0; i < size / sizeof *all; i++)
        found |= all[i].version == CL_MAKE_VERSION(major, minor, 0);
    free(all);
    return found;
}

int main(void) {
    device = first_device();
    if (!device_uint(device, CL_DEVICE_COMPILER_AVAILABLE)) {
        printf("uniform.c: the device has no compiler\n");
        return finish();
    }
    context = make_context(device);
    queue = make_queue(context, device);
    out = make_buffer(context, CL_MEM_READ_WRITE, 16 * sizeof(cl_int), NULL);
    CHECK(clGetDeviceInfo(device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof device_non_uniform,
                          &device_non_uniform, NULL));

    /* From source: only -cl-std=CL2.0 or CL3.0 without -cl-uniform-work-group-size. */
    struct {
        const char *options;
        int non_uniform;
    } builds[] = {
        {"", 0},
        {"-cl-std=CL1.2", 0},
        {"-cl-std=CL1.1", 0},
        {"-cl-std=CL3.0", 1},
        {"-cl-std=CL3.0 -cl-uniform-work-group-size", 0},
        {"-cl-uniform-work-group-size -cl-std=CL3.0", 0},
        {"-cl-std=CL2.0", 1},
    };
    for (size_t i = 0; i < sizeof builds / sizeof *builds; i++) {
        if (strstr(builds[i].options, "CL2.0") && !supports_c_version(2, 0))
            continue;
        cl_program program = built(builds[i].options);
        launch(program, builds[i].non_uniform, builds[i].options);

        /* From a binary: only -cl-uniform-work-group-size at its build matters. */
        cl_program loaded = program_from_binary(context, device, program);
        CHECK(clBuildProgram(loaded, 1, &device, "", NULL, NULL));
        launch(loaded, 1, "binary built without options");
        CHECK(clReleaseProgram(loaded));
        loaded = program_from_binary(context, device, program);
        CHECK(clBuildProgram(loaded, 1, &device, "-cl-uniform-work-group-size", NULL, NULL));
        launch(loaded, 0, "binary built with -cl-uniform-work-group-size");
        CHECK(clReleaseProgram(loaded));
        CHECK(clReleaseProgram(program));
    }

    /* Linked: every input must allow non-uniform work-groups. */
    if (device_uint(device, CL_DEVICE_LINKER_AVAILABLE)) {
        cl_program kernel_part = compiled("-cl-std=CL3.0");
        struct {
            const char *helper_options;
            int non_uniform;
        } links[] = {{"-cl-std=CL3.0", 1}, {"-cl-std=CL1.2", 0}, {"", 0}, {"-cl-std=CL3.0 -cl-uniform-work-group-size", 0}};
        for (size_t i = 0; i < sizeof links / sizeof *links; i++) {
            cl_int err = CL_SUCCESS;
            cl_program helper = clCreateProgramWithSource(context, 1, &HELPER, NULL, &err);
            CHECK_RET(err);
            CHECK(clCompileProgram(helper, 1, &device, links[i].helper_options, 0, NULL, NULL, NULL, NULL));
            cl_program inputs[] = {kernel_part, helper};
            cl_program linked = clLinkProgram(context, 1, &device, "", 2, inputs, NULL, NULL, &err);
            CHECK_RET(err);
            launch(linked, links[i].non_uniform, links[i].helper_options);
            CHECK(clReleaseProgram(linked));
            CHECK(clReleaseProgram(helper));
        }
        CHECK(clReleaseProgram(kernel_part));
    }

    CHECK(clReleaseMemObject(out));
    CHECK(clReleaseCommandQueue(queue));
    CHECK(clReleaseContext(context));
    return finish();
}
