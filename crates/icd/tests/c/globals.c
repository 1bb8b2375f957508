/* OpenCL C 3.0 6.7.8 and API 5.8: program-scope variables in the global address space, on a
 * device that lists __opencl_c_program_scope_global_variables. Their values live as long as
 * the program: launches of one kernel, and of another kernel of the same program, see what the
 * launches before them wrote; another program built from the same source has its own. Also
 * CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, the initializers after a round trip through a
 * program binary, and the queries of program constructors and destructors. A device without
 * the feature is checked for the answers Appendix H gives. */
#include "check.h"

static const char *source =
    "#ifndef __opencl_c_program_scope_global_variables\n"
    "#error the feature macro is not defined\n"
    "#endif\n"
    "global int counter = 5;\n"
    "global float table[1000] = {1.5f, 2.5f};\n"
    "global atomic_int hits = ATOMIC_VAR_INIT(0);\n"
    "kernel void bump(int by) {\n"
    "    static global int calls;\n"
    "    if (get_global_id(0) == 0) {\n"
    "        counter += by;\n"
    "        calls++;\n"
    "        table[999] = (float)calls;\n"
    "    }\n"
    "    atomic_fetch_add(&hits, 1);\n"
    "}\n"
    "kernel void read(global int *out, global float *f) {\n"
    "    out[0] = counter;\n"
    "    out[1] = atomic_load(&hits);\n"
    "    f[0] = table[0];\n"
    "    f[1] = table[1];\n"
    "    f[2] = table[2];\n"
    "    f[3] = table[999];\n"
    "}\n";

static int has_feature(cl_device_id device, const char *name) {
    size_t size = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size));
    cl_name_version *list = malloc(size ? size : 1);
    REQUIRE(list != NULL);
    CHECK(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, list, NULL));
    int found = 0;
    for (size_t i = 0; i < size / sizeof *list; i++)
        found |= strcmp(list[i].name, name) == 0;
    free(list);
    return found;
}

/* Launches `bump` over `n` work-items with `by`. */
static void bump(cl_command_queue queue, cl_kernel kernel, int by, size_t n) {
    CHECK(clSetKernelArg(kernel, 0, sizeof by, &by));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &n, NULL, 0, NULL, NULL));
}

/* Reads the variables through the `read` kernel of `program`. */
static void read_vars(cl_context context, cl_command_queue queue, cl_program program, int out[2], float f[4]) {
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "read", &err);
    CHECK_RET(err);
    cl_mem a = make_buffer(context, CL_MEM_WRITE_ONLY, 2 * sizeof(int), NULL);
    cl_mem b = make_buffer(context, CL_MEM_WRITE_ONLY, 4 * sizeof(float), NULL);
    CHECK(clSetKernelArg(kernel, 0, sizeof a, &a));
    CHECK(clSetKernelArg(kernel, 1, sizeof b, &b));
    size_t one = 1;
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, a, CL_TRUE, 0, 2 * sizeof(int), out, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, 4 * sizeof(float), f, 0, NULL, NULL));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(kernel);
}

static void expect_initial(cl_context context, cl_command_queue queue, cl_program program) {
    int out[2];
    float f[4];
    read_vars(context, queue, program, out, f);
    /* Table 8: "Optional constant initializers, 0-initialized by default." */
    EXPECT(out[0] == 5 && out[1] == 0);
    EXPECT(f[0] == 1.5f && f[1] == 2.5f && f[2] == 0.0f && f[3] == 0.0f);
}

int main(void) {
    cl_device_id device = first_device();
    cl_context context = make_context(device);
    cl_command_queue queue = make_queue(context, device);
    size_t max_size = device_size(device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE);
    size_t preferred = device_size(device, CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE);
    if (!has_feature(device, "__opencl_c_program_scope_global_variables")) {
        /* Appendix H: the queries "May return 0" and "Returns 0" without the feature. */
        EXPECT(max_size == 0 && preferred == 0);
        printf("globals.c: the device does not support program scope global variables\n");
        return finish();
    }
    /* 4.2, Table 5: "The minimum value is 64 KB if the device supports program scope global
     * variables". */
    EXPECT(max_size >= 64 * 1024);

    cl_program program = build_program(context, device, source, "-cl-std=CL3.0");
    size_t total = 0;
    CHECK(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, sizeof total,
                                &total, NULL));
    /* "The total amount of storage, in bytes, used by program variables in the global address
     * space": counter, table, hits and the static calls at least. */
    EXPECT(total >= 3 * sizeof(int) + 1000 * sizeof(float));
    EXPECT(total < 64 * 1024);

    /* Constructors and destructors: "Returns CL_FALSE if no devices in the context associated
     * with program support program initialization and clean-up kernels" (Appendix H), and a
     * device that supports them must have reported OpenCL 2.2. */
    cl_bool ctors = CL_TRUE, dtors = CL_TRUE;
    CHECK(clGetProgramInfo(program, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof ctors, &ctors, NULL));
    CHECK(clGetProgramInfo(program, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, sizeof dtors, &dtors, NULL));
    EXPECT(ctors == CL_FALSE && dtors == CL_FALSE);

    expect_initial(context, queue, program);
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "bump", &err);
    CHECK_RET(err);
    bump(queue, kernel, 10, 64);
    bump(queue, kernel, 100, 256);
    bump(queue, kernel, 1000, 7);
    int out[2];
    float f[4];
    read_vars(context, queue, program, out, f);
    /* Three launches: counter 5 + 10 + 100 + 1000, hits 64 + 256 + 7, calls 3. */
    EXPECT(out[0] == 1115);
    EXPECT(out[1] == 327);
    EXPECT(f[0] == 1.5f && f[1] == 2.5f && f[3] == 3.0f);

    /* Another program of the same source: variables of its own, at their initial values, and
     * the first program's unchanged by its launches. */
    cl_program other = build_program(context, device, source, "-cl-std=CL3.0");
    expect_initial(context, queue, other);
    cl_kernel other_bump = clCreateKernel(other, "bump", &err);
    CHECK_RET(err);
    bump(queue, other_bump, 1, 1);
    read_vars(context, queue, program, out, f);
    EXPECT(out[0] == 1115 && out[1] == 327);

    /* A program binary carries the initializers. */
    cl_program loaded = program_from_binary(context, device, program);
    CHECK(clBuildProgram(loaded, 1, &device, NULL, NULL, NULL));
    expect_initial(context, queue, loaded);

    /* A pointer initialized with the address of a variable of another compiled object
     * (OpenCL C 6.10, extern), after clLinkProgram, and moved by one launch for the next. */
    const char *defs = "global int values[3] = {7, 8, 9};\n"
                       "global int *cursor = &values[1];\n";
    const char *uses = "extern global int *cursor;\n"
                       "kernel void step(global int *out) { out[0] = *cursor; cursor++; }\n";
    cl_program parts[2];
    const char *texts[2] = {defs, uses};
    for (int i = 0; i < 2; i++) {
        parts[i] = clCreateProgramWithSource(context, 1, &texts[i], NULL, &err);
        CHECK_RET(err);
        CHECK(clCompileProgram(parts[i], 1, &device, "-cl-std=CL3.0", 0, NULL, NULL, NULL, NULL));
    }
    cl_program linked = clLinkProgram(context, 1, &device, NULL, 2, parts, NULL, NULL, &err);
    CHECK_RET(err);
    cl_kernel step = clCreateKernel(linked, "step", &err);
    CHECK_RET(err);
    cl_mem cell = make_buffer(context, CL_MEM_WRITE_ONLY, sizeof(int), NULL);
    CHECK(clSetKernelArg(step, 0, sizeof cell, &cell));
    int seen[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        size_t one = 1;
        CHECK(clEnqueueNDRangeKernel(queue, step, 1, NULL, &one, NULL, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(queue, cell, CL_TRUE, 0, sizeof(int), &seen[i], 0, NULL, NULL));
    }
    EXPECT(seen[0] == 8 && seen[1] == 9);
    clReleaseMemObject(cell);
    clReleaseKernel(step);
    clReleaseProgram(linked);
    clReleaseProgram(parts[0]);
    clReleaseProgram(parts[1]);

    /* "maximum number of bytes of storage that may be allocated for any single variable": one
     * larger does not build. */
    if (max_size < 256 * 1024 * 1024) {
        char big[256];
        snprintf(big, sizeof big, "global char big[%zu];\nkernel void k(global char *o) { o[0] = big[1]; }\n",
                 max_size + 1);
        const char *text = big;
        cl_program too_big = clCreateProgramWithSource(context, 1, &text, NULL, &err);
        CHECK_RET(err);
        EXPECT(clBuildProgram(too_big, 1, &device, "-cl-std=CL3.0", NULL, NULL) != CL_SUCCESS);
        clReleaseProgram(too_big);
    }

    clReleaseKernel(other_bump);
    clReleaseKernel(kernel);
    clReleaseProgram(loaded);
    clReleaseProgram(other);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return finish();
}
