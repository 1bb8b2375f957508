/* 5.9.2: kernel arguments. A struct passed by value takes exactly the size of its type (the
 * layout the compiler gives it, as a C compiler lays out the same declaration), and the kernel
 * reads the bytes set.
 *
 * Needs a compiler (CL_DEVICE_COMPILER_AVAILABLE); without one, it says so and stops. */
#include "check.h"

#include <stddef.h>

static const char *source =
    "typedef struct { int a; float b; char c; } Small;\n"
    "typedef struct { char tag; long big; short s[3]; } Wide;\n"
    "kernel void read_structs(Small x, global int *out, Wide w) {\n"
    "    out[0] = x.a;\n"
    "    out[1] = (int)(x.b * 4.0f);\n"
    "    out[2] = x.c;\n"
    "    out[3] = w.tag;\n"
    "    out[4] = (int)(w.big >> 32);\n"
    "    out[5] = (int)w.big;\n"
    "    out[6] = w.s[0] + w.s[1] + w.s[2];\n"
    "}\n";

/* The host's view of the same types (6.1.7: OpenCL C's scalar sizes and alignments are the
 * host's cl_* types). */
typedef struct {
    cl_int a;
    cl_float b;
    cl_char c;
} Small;
typedef struct {
    cl_char tag;
    cl_long big;
    cl_short s[3];
} Wide;

int main(void) {
    cl_device_id device = first_device();
    if (!device_uint(device, CL_DEVICE_COMPILER_AVAILABLE)) {
        printf("kernel_args.c: the device has no compiler; nothing was run\n");
        return finish();
    }
    cl_context context = make_context(device);
    cl_command_queue queue = make_queue(context, device);
    cl_program program = build_program(context, device, source, "");
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "read_structs", &err);
    CHECK_RET(err);
    cl_mem out = make_buffer(context, CL_MEM_READ_WRITE, 7 * sizeof(cl_int), NULL);
    CHECK(clSetKernelArg(kernel, 1, sizeof out, &out));

    Small x = {-123456, 2.5f, 'q'};
    Wide w = {'W', ((cl_long)0x12345678 << 32) | 0x0abcdef0, {100, -7, 30}};
    REQUIRE(sizeof(Small) == 12 && sizeof(Wide) == 24);

    /* 5.9.2: CL_INVALID_ARG_SIZE "if arg_size does not match the size of the data type for an
     * argument that is not a memory object". PoCL 3.1 deviates: it takes any size for a struct. */
    EXPECT_ERR_DEVIATES(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 0, sizeof x - 1, &x));
    EXPECT_ERR_DEVIATES(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 0, sizeof x + 4, &x));
    EXPECT_ERR_DEVIATES(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 0, offsetof(Small, c), &x));
    EXPECT_ERR_DEVIATES(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 2, sizeof w - 8, &w));
    EXPECT_ERR_DEVIATES(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 2, sizeof x, &x));
    /* CL_INVALID_ARG_VALUE "if arg_value specified is not a valid value". */
    EXPECT_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(kernel, 0, sizeof x, NULL));

    CHECK(clSetKernelArg(kernel, 0, sizeof x, &x));
    CHECK(clSetKernelArg(kernel, 2, sizeof w, &w));
    size_t one = 1;
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, &one, 0, NULL, NULL));
    cl_int got[7] = {0};
    CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    cl_int want[7] = {-123456, 10, 'q', 'W', 0x12345678, 0x0abcdef0, 123};
    for (int i = 0; i < 7; i++) {
        if (got[i] != want[i]) {
            fprintf(stderr, "out[%d] = %d, expected %d\n", i, got[i], want[i]);
        }
        EXPECT(got[i] == want[i]);
    }

    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return finish();
}
