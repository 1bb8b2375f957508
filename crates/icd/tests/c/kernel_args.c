/* 5.9.2: kernel arguments. A struct passed by value takes exactly the size of its type (the
 * layout the compiler gives it, as a C compiler lays out the same declaration), and the kernel
 * reads the bytes set. A kernel keeps no reference to its memory-object arguments; an enqueued
 * kernel keeps them until it completes.
 *
 * Needs a compiler (CL_DEVICE_COMPILER_AVAILABLE); without one, it says so and stops. */
#include "check.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

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
    "}\n"
    "kernel void copy(global const int *src, global int *dst) {\n"
    "    dst[get_global_id(0)] = src[get_global_id(0)];\n"
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

/* 5.9.2: "A kernel object does not update the reference count for objects such as memory or
 * sampler objects specified as argument values by clSetKernelArg"; 5.5.1: "After the memobj
 * reference count becomes zero and commands queued for execution on a command-queue(s) that use
 * memobj have finished, the memory object is deleted", and its destructor callbacks run then. */
static atomic_int destroyed[2];

static void CL_CALLBACK on_destroy(cl_mem mem, void *user_data) {
    (void)mem;
    atomic_fetch_add(&destroyed[(intptr_t)user_data], 1);
}

/* Whether buffer `which`'s destructor callback has run, waiting up to 5 s for it (the spec does
 * not say on which thread, or how soon after the deletion, the callback runs). */
static int destroyed_within(int which) {
    for (int i = 0; i < 500 && atomic_load(&destroyed[which]) == 0; i++) {
        struct timespec ms = {0, 10 * 1000 * 1000};
        nanosleep(&ms, NULL);
    }
    return atomic_load(&destroyed[which]);
}

static void argument_lifetimes(cl_context context, cl_command_queue queue, cl_program program) {
    cl_int err = CL_SUCCESS;
    cl_kernel copy = clCreateKernel(program, "copy", &err);
    CHECK_RET(err);
    cl_int data[4] = {11, -22, 33, -44};
    cl_mem out = make_buffer(context, CL_MEM_READ_WRITE, sizeof data, NULL);

    /* A buffer set as an argument and released is deleted at the release: the kernel holds no
     * reference to it. */
    cl_mem held = make_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data);
    CHECK(clSetMemObjectDestructorCallback(held, on_destroy, (void *)0));
    CHECK(clSetKernelArg(copy, 0, sizeof held, &held));
    CHECK(clSetKernelArg(copy, 1, sizeof out, &out));
    CHECK(clReleaseMemObject(held));
    EXPECT(destroyed_within(0) == 1);

    /* Enqueuing the kernel whose argument was deleted is an error, not a crash (using a deleted
     * object is undefined; of the errors the spec lists, CL_INVALID_KERNEL_ARGS "if the kernel
     * argument values have not been specified" is the one that fits: the value is gone).
     * Other implementations crash here. */
    size_t four = 4;
    if (strict()) {
        EXPECT_ERR(CL_INVALID_KERNEL_ARGS, clEnqueueNDRangeKernel(queue, copy, 1, NULL, &four, NULL, 0, NULL, NULL));
    }

    /* A buffer used by an enqueued kernel lives until the kernel completes, though the
     * application released it and the kernel holds no reference. A user event holds the kernel
     * back. */
    cl_mem used = make_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data);
    CHECK(clSetMemObjectDestructorCallback(used, on_destroy, (void *)1));
    CHECK(clSetKernelArg(copy, 0, sizeof used, &used));
    cl_event gate = clCreateUserEvent(context, &err);
    CHECK_RET(err);
    cl_event done = NULL;
    CHECK(clEnqueueNDRangeKernel(queue, copy, 1, NULL, &four, NULL, 1, &gate, &done));
    CHECK(clFlush(queue));
    CHECK(clReleaseMemObject(used));
    struct timespec pause = {0, 100 * 1000 * 1000};
    nanosleep(&pause, NULL);
    EXPECT(atomic_load(&destroyed[1]) == 0);
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clWaitForEvents(1, &done));
    EXPECT(destroyed_within(1) == 1);
    cl_int got[4] = {0};
    CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    EXPECT(memcmp(got, data, sizeof data) == 0);

    clReleaseEvent(done);
    clReleaseEvent(gate);
    clReleaseMemObject(out);
    clReleaseKernel(copy);
}

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
    argument_lifetimes(context, queue, program);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return finish();
}
