/* Programs from ferrocl program binaries, kernels and their execution, through the ICD loader:
 * clCreateProgramWithBinary, clBuildProgram, the program and kernel queries, clSetKernelArg,
 * clEnqueueNDRangeKernel and clEnqueueTask, with every result checked against the host, and
 * the error codes of API 3.0 sections 5.8–5.10.
 *
 * argv[1] is a program binary holding the kernels of kernels.ir. */
#include "../c/check.h"

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    REQUIRE(f != NULL);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc((size_t)n);
    REQUIRE(data != NULL && fread(data, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return data;
}

static cl_kernel kernel(cl_program program, const char *name) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_RET(err);
    return k;
}

static void test_program(cl_context context, cl_device_id device, const unsigned char *binary, size_t size) {
    cl_int err = CL_SUCCESS, status = 1;
    /* 5.8.1: "CL_INVALID_BINARY if an invalid program binary was encountered for any device.
     * binary_status will return specific status for each device." */
    const unsigned char garbage[] = "not a program binary";
    const unsigned char *bad = garbage;
    size_t bad_size = sizeof garbage;
    cl_program p = clCreateProgramWithBinary(context, 1, &device, &bad_size, &bad, &status, &err);
    EXPECT_RET(CL_INVALID_BINARY, err);
    EXPECT(p == NULL && status == CL_INVALID_BINARY);
    /* "CL_INVALID_VALUE if lengths or binaries is NULL or if any entry in lengths[i] is zero or
     * binaries[i] is NULL." */
    size_t zero = 0;
    clCreateProgramWithBinary(context, 1, &device, &zero, &binary, NULL, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);

    cl_program program = clCreateProgramWithBinary(context, 1, &device, &size, &binary, &status, &err);
    CHECK_RET(err);
    EXPECT(status == CL_SUCCESS);
    /* No executable yet: "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
     * executable for program". */
    EXPECT(clCreateKernel(program, "vadd", &err) == NULL);
    EXPECT_RET(CL_INVALID_PROGRAM_EXECUTABLE, err);
    cl_program_binary_type type = 0;
    CHECK(clGetProgramBuildInfo(program, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);

    CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
    cl_build_status build = CL_BUILD_NONE;
    CHECK(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof build, &build, NULL));
    EXPECT(build == CL_BUILD_SUCCESS);
    size_t num = 0;
    CHECK(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof num, &num, NULL));
    EXPECT(num == 5);
    char names[128] = "";
    CHECK(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
    EXPECT(strcmp(names, "vadd;saxpy;reduce;fixed;empty") == 0);

    /* The binary round-trips: CL_PROGRAM_BINARIES gives one that builds again. */
    size_t out_size = 0;
    CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof out_size, &out_size, NULL));
    EXPECT(out_size > 0);
    unsigned char *out = malloc(out_size);
    CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof out, &out, NULL));
    const unsigned char *again = out;
    cl_program copy = clCreateProgramWithBinary(context, 1, &device, &out_size, &again, NULL, &err);
    CHECK_RET(err);
    CHECK(clBuildProgram(copy, 0, NULL, NULL, NULL, NULL));
    CHECK(clReleaseProgram(copy));
    free(out);

    cl_kernel all[5] = {0};
    cl_uint n = 0;
    EXPECT_ERR(CL_INVALID_VALUE, clCreateKernelsInProgram(program, 2, all, NULL));
    CHECK(clCreateKernelsInProgram(program, 5, all, &n));
    EXPECT(n == 5);
    /* "CL_INVALID_OPERATION if there are kernel objects attached to program." */
    EXPECT_ERR(CL_INVALID_OPERATION, clBuildProgram(program, 0, NULL, NULL, NULL, NULL));
    for (int i = 0; i < 5; i++)
        CHECK(clReleaseKernel(all[i]));
    EXPECT(clCreateKernel(program, "nope", &err) == NULL);
    EXPECT_RET(CL_INVALID_KERNEL_NAME, err);
    CHECK(clReleaseProgram(program));
}

static void test_vadd(cl_context context, cl_command_queue queue, cl_program program) {
    enum { N = 100003 };
    float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float)), *c = malloc(N * sizeof(float));
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.25f;
        b[i] = 3.0f - (float)i;
    }
    cl_mem ma = make_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float), a);
    cl_mem mb = make_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float), b);
    cl_mem mc = make_buffer(context, CL_MEM_WRITE_ONLY, N * sizeof(float), NULL);
    cl_kernel k = kernel(program, "vadd");
    cl_uint nargs = 0;
    CHECK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
    EXPECT(nargs == 3);
    char name[16] = "";
    CHECK(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
    EXPECT(strcmp(name, "vadd") == 0);
    CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &ma));
    CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &mb));
    size_t global = N;
    /* "CL_INVALID_KERNEL_ARGS if the kernel argument values have not been specified." */
    EXPECT_ERR(CL_INVALID_KERNEL_ARGS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    /* 5.9.2: "CL_INVALID_ARG_SIZE if ... the argument is a memory object and arg_size !=
     * sizeof(cl_mem)"; "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object
     * when the specified arg_value is not a valid memory object"; "CL_INVALID_ARG_INDEX if
     * arg_index is not a valid argument index". */
    EXPECT_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 2, 4, &mc));
    cl_mem not_mem = (cl_mem)queue;
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 2, sizeof(cl_mem), &not_mem));
    EXPECT_ERR(CL_INVALID_ARG_INDEX, clSetKernelArg(k, 3, sizeof(cl_mem), &mc));
    CHECK(clSetKernelArg(k, 2, sizeof(cl_mem), &mc));
    /* 5.10: CL_INVALID_WORK_DIMENSION, CL_INVALID_WORK_ITEM_SIZE and CL_INVALID_WORK_GROUP_SIZE. */
    EXPECT_ERR(CL_INVALID_WORK_DIMENSION, clEnqueueNDRangeKernel(queue, k, 0, NULL, &global, NULL, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_WORK_DIMENSION, clEnqueueNDRangeKernel(queue, k, 4, NULL, &global, NULL, 0, NULL, NULL));
    size_t sizes[3] = {0};
    cl_device_id device = NULL;
    CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, NULL));
    CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, NULL));
    size_t too_big = sizes[0] + 1;
    EXPECT_ERR(CL_INVALID_WORK_ITEM_SIZE, clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &too_big, 0, NULL, NULL));
    size_t g3[3] = {64, 64, 64}, l3[3] = {64, 64, 64};
    EXPECT_ERR(CL_INVALID_WORK_GROUP_SIZE, clEnqueueNDRangeKernel(queue, k, 3, NULL, g3, l3, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_KERNEL, clEnqueueNDRangeKernel(queue, (cl_kernel)context, 1, NULL, &global, NULL, 0, NULL, NULL));

    /* N is prime: with a local size of 64 the last work-group is partial (non-uniform
     * work-groups, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT). */
    size_t local = 64;
    cl_event done = NULL;
    CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, &done));
    cl_command_type type = 0;
    CHECK(clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_COMMAND_NDRANGE_KERNEL);
    CHECK(clEnqueueReadBuffer(queue, mc, CL_TRUE, 0, N * sizeof(float), c, 1, &done, NULL));
    for (int i = 0; i < N; i++)
        if (c[i] != a[i] + b[i]) {
            fprintf(stderr, "vadd: c[%d] = %g, expected %g\n", i, c[i], a[i] + b[i]);
            check_failures++;
            break;
        }
    /* Again with the local size left to the implementation, and a global offset. */
    memset(c, 0, N * sizeof(float));
    CHECK(clEnqueueWriteBuffer(queue, mc, CL_TRUE, 0, N * sizeof(float), c, 0, NULL, NULL));
    size_t offset = 3, rest = N - 3;
    CHECK(clEnqueueNDRangeKernel(queue, k, 1, &offset, &rest, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, mc, CL_TRUE, 0, N * sizeof(float), c, 0, NULL, NULL));
    EXPECT(c[0] == 0.0f && c[2] == 0.0f && c[3] == a[3] + b[3] && c[N - 1] == a[N - 1] + b[N - 1]);
    CHECK(clReleaseEvent(done));
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseMemObject(ma));
    CHECK(clReleaseMemObject(mb));
    CHECK(clReleaseMemObject(mc));
    free(a);
    free(b);
    free(c);
}

static void test_saxpy_and_reduce(cl_context context, cl_command_queue queue, cl_program program) {
    enum { N = 4096, L = 128 };
    float x[N], y[N], want[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 17);
        y[i] = (float)(i % 5) - 2.0f;
    }
    const float alpha = 1.5f;
    for (int i = 0; i < N; i++)
        want[i] = alpha * x[i] + y[i];
    cl_mem mx = make_buffer(context, CL_MEM_COPY_HOST_PTR, sizeof x, x);
    cl_mem my = make_buffer(context, CL_MEM_COPY_HOST_PTR, sizeof y, y);
    cl_kernel k = kernel(program, "saxpy");
    /* A value argument of the wrong size, or NULL: 5.9.2's CL_INVALID_ARG_SIZE and
     * CL_INVALID_ARG_VALUE. */
    double wrong = 1.0;
    EXPECT_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, sizeof wrong, &wrong));
    EXPECT_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 0, sizeof alpha, NULL));
    CHECK(clSetKernelArg(k, 0, sizeof alpha, &alpha));
    CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &mx));
    CHECK(clSetKernelArg(k, 2, sizeof(cl_mem), &my));
    size_t global = N;
    CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    float got[N];
    CHECK(clEnqueueReadBuffer(queue, my, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    EXPECT(memcmp(got, want, sizeof got) == 0);
    CHECK(clReleaseKernel(k));

    int in[N], sums[N / L];
    for (int i = 0; i < N; i++)
        in[i] = (i * 7919) % 1000 - 500;
    cl_mem min = make_buffer(context, CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem mout = make_buffer(context, 0, sizeof sums, NULL);
    cl_kernel r = kernel(program, "reduce");
    CHECK(clSetKernelArg(r, 0, sizeof(cl_mem), &min));
    CHECK(clSetKernelArg(r, 1, sizeof(cl_mem), &mout));
    /* A __local argument takes a size and a NULL value. */
    EXPECT_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(r, 2, L * sizeof(int), in));
    EXPECT_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(r, 2, 0, NULL));
    CHECK(clSetKernelArg(r, 2, L * sizeof(int), NULL));
    cl_ulong local_mem = 0;
    CHECK(clGetKernelWorkGroupInfo(r, NULL, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, NULL));
    EXPECT(local_mem >= L * sizeof(int));
    size_t local = L;
    CHECK(clEnqueueNDRangeKernel(queue, r, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, mout, CL_TRUE, 0, sizeof sums, sums, 0, NULL, NULL));
    for (int g = 0; g < N / L; g++) {
        int s = 0;
        for (int i = 0; i < L; i++)
            s += in[g * L + i];
        EXPECT(sums[g] == s);
    }
    CHECK(clReleaseKernel(r));
    CHECK(clReleaseMemObject(mx));
    CHECK(clReleaseMemObject(my));
    CHECK(clReleaseMemObject(min));
    CHECK(clReleaseMemObject(mout));
}

static void test_reqd_work_group_size(cl_context context, cl_command_queue queue, cl_program program) {
    cl_kernel k = kernel(program, "fixed");
    size_t compiled[3] = {0};
    CHECK(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled, compiled, NULL));
    EXPECT(compiled[0] == 8 && compiled[1] == 1 && compiled[2] == 1);
    char attrs[64] = "";
    CHECK(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL));
    EXPECT(strcmp(attrs, "reqd_work_group_size(8,1,1)") == 0);
    cl_uint out[32] = {0};
    cl_mem m = make_buffer(context, CL_MEM_USE_HOST_PTR, sizeof out, out);
    CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &m));
    size_t global = 32, local = 16;
    /* "CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and does not match the
     * required work-group size for kernel in the program source." */
    EXPECT_ERR(CL_INVALID_WORK_GROUP_SIZE, clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    /* Left to the implementation, the local size is the required one. */
    CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    /* clEnqueueTask runs one work-item: with reqd_work_group_size(8,1,1) that is an invalid
     * work-group size. */
    EXPECT_ERR(CL_INVALID_WORK_GROUP_SIZE, clEnqueueTask(queue, k, 0, NULL, NULL));
    CHECK(clFinish(queue));
    for (int i = 0; i < 32; i++)
        EXPECT(out[i] == 8);
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseMemObject(m));
}

int main(int argc, char **argv) {
    REQUIRE(argc == 2);
    size_t size = 0;
    unsigned char *binary = read_file(argv[1], &size);
    cl_device_id device = first_device();
    cl_context context = make_context(device);
    cl_command_queue queue = make_queue(context, device);
    test_program(context, device, binary, size);

    cl_int err = CL_SUCCESS;
    const unsigned char *b = binary;
    cl_program program = clCreateProgramWithBinary(context, 1, &device, &size, &b, NULL, &err);
    CHECK_RET(err);
    CHECK(clBuildProgram(program, 0, NULL, NULL, NULL, NULL));
    test_vadd(context, queue, program);
    test_saxpy_and_reduce(context, queue, program);
    test_reqd_work_group_size(context, queue, program);
    CHECK(clReleaseProgram(program));
    CHECK(clReleaseCommandQueue(queue));
    CHECK(clReleaseContext(context));
    free(binary);
    return finish();
}
