/* Faulty kernels must not take the implementation down. A kernel that writes far outside a
 * private array (directly, and through a generic pointer), and one that dereferences a wild global pointer, run on one queue while a
 * correct kernel runs on another; the faulting launch ends its event with a negative status
 * (5.11, CL_EVENT_COMMAND_EXECUTION_STATUS: "a negative integer value (command was abnormally
 * terminated - this may be caused by a bad memory access etc.)"), and every later launch, on
 * either queue, gives the right results.
 *
 * A GPU promises less: CUDA keeps a kernel's memory fault for the life of the context, so
 * after a wild pointer the GPU device reports the fault, then CL_DEVICE_AVAILABLE false, and
 * every later command on it ends with an error (none hangs); a new context refuses it with
 * CL_DEVICE_NOT_AVAILABLE (4.4). Its private writes out of range run as on the CPU device.
 *
 * Out-of-bounds accesses are undefined behaviour in OpenCL C, so what these kernels do is
 * ferrocl's own promise, not the spec's: against another implementation (a lenient run) only
 * the correct kernels run. Needs a compiler (CL_DEVICE_COMPILER_AVAILABLE). */
#include "check.h"

static const char *source =
    "kernel void vadd(global const int *a, global const int *b, global int *c) {\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = a[i] + b[i];\n"
    "}\n"
    "kernel void smash(global int *out, long start, long n) {\n"
    "    int a[4];\n"
    "    for (long i = 0; i < n; i++)\n"
    "        a[start + i] = (int)i;\n"
    "    a[0] = (int)get_global_id(0);\n"
    "    out[get_global_id(0)] = a[0] * 3;\n"
    "}\n"
    /* The same writes through an unqualified pointer parameter: a generic pointer with the
     * generic address space (OpenCL C 6.7.9), a private one without it. */
    "void fill(int *a, long start, long n) {\n"
    "    for (long i = 0; i < n; i++)\n"
    "        a[start + i] = (int)i;\n"
    "}\n"
    "kernel void smash_generic(global int *out, long start, long n) {\n"
    "    int a[4];\n"
    "    fill(a, start, n);\n"
    "    a[0] = (int)get_global_id(0);\n"
    "    out[get_global_id(0)] = a[0] * 3;\n"
    "}\n"
    "kernel void wild(global int *out, ulong address) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = 1;\n"
    "    if (get_local_id(0) == 5) {\n"
    "        global int *p = (global int *)address;\n"
    "        *p = *p + 1;\n"
    "    }\n"
    "}\n"
    /* A builtin writing its result through the wild pointer. */
    "kernel void wild_builtin(global int *out, ulong address) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = 1;\n"
    "    if (get_local_id(0) == 5)\n"
    "        out[i] = (int)frexp(12.0f, (global int *)address);\n"
    "}\n";

static cl_context context;
static cl_program program;

enum { N = 4096 };

/* Runs c = a + b on `q` and checks every element. */
static void check_vadd(cl_command_queue q) {
    static int a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = i * 7 - 3;
        b[i] = 100 - i;
    }
    cl_mem ma = make_buffer(context, CL_MEM_COPY_HOST_PTR, sizeof a, a);
    cl_mem mb = make_buffer(context, CL_MEM_COPY_HOST_PTR, sizeof b, b);
    cl_mem mc = make_buffer(context, 0, sizeof c, NULL);
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, "vadd", &err);
    CHECK_RET(err);
    CHECK(clSetKernelArg(k, 0, sizeof ma, &ma));
    CHECK(clSetKernelArg(k, 1, sizeof mb, &mb));
    CHECK(clSetKernelArg(k, 2, sizeof mc, &mc));
    size_t global = N, local = 64;
    cl_event e = NULL;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &e));
    CHECK(clEnqueueReadBuffer(q, mc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
    cl_int status = 1;
    CHECK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    EXPECT(status == CL_COMPLETE);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += c[i] != a[i] + b[i];
    EXPECT(bad == 0);
    clReleaseEvent(e);
    clReleaseKernel(k);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
}

/* Private writes far outside `int a[4]`: the launch completes, and the private round trip
 * after them still reads back what it stored. */
static void smash(cl_command_queue q, cl_command_queue other, const char *name, cl_long start, cl_long n) {
    static int out[N];
    cl_mem mo = make_buffer(context, 0, sizeof out, NULL);
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_RET(err);
    CHECK(clSetKernelArg(k, 0, sizeof mo, &mo));
    CHECK(clSetKernelArg(k, 1, sizeof start, &start));
    CHECK(clSetKernelArg(k, 2, sizeof n, &n));
    size_t global = 256, local = 32;
    cl_event e = NULL;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &e));
    check_vadd(other);
    CHECK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, global * sizeof(int), out, 0, NULL, NULL));
    cl_int status = 1;
    CHECK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    EXPECT(status == CL_COMPLETE);
    int bad = 0;
    for (size_t i = 0; i < global; i++)
        bad += out[i] != (int)i * 3;
    EXPECT(bad == 0);
    clReleaseEvent(e);
    clReleaseKernel(k);
    clReleaseMemObject(mo);
}

/* A wild global pointer: the event ends with a negative status, and waiting for it says so. */
static void wild(cl_command_queue q, cl_command_queue other, const char *name, cl_ulong address) {
    cl_mem mo = make_buffer(context, 0, N * sizeof(int), NULL);
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_RET(err);
    CHECK(clSetKernelArg(k, 0, sizeof mo, &mo));
    CHECK(clSetKernelArg(k, 1, sizeof address, &address));
    size_t global = N, local = 64;
    cl_event e = NULL;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &e));
    check_vadd(other);
    /* 5.11: clWaitForEvents returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST "if the
     * execution status of any of the events in event_list is a negative integer value". */
    EXPECT_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &e));
    cl_int status = 0;
    CHECK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    EXPECT(status < 0);
    /* ferrocl's choice of negative status. */
    EXPECT(status == CL_OUT_OF_RESOURCES);
    clReleaseEvent(e);
    clReleaseKernel(k);
    clReleaseMemObject(mo);
}

/* The GPU's promise (see the top): one wild pointer loses the device, with errors after. */
static void gpu_fault(cl_device_id device, cl_command_queue q) {
    cl_mem mo = make_buffer(context, 0, N * sizeof(int), NULL);
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, "wild", &err);
    CHECK_RET(err);
    cl_ulong address = 8;
    CHECK(clSetKernelArg(k, 0, sizeof mo, &mo));
    CHECK(clSetKernelArg(k, 1, sizeof address, &address));
    size_t global = N, local = 64;
    cl_event e = NULL;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &e));
    EXPECT_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &e));
    cl_int status = 0;
    CHECK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    EXPECT(status == CL_OUT_OF_RESOURCES);
    clReleaseEvent(e);
    EXPECT(device_uint(device, CL_DEVICE_AVAILABLE) == CL_FALSE);
    /* A later launch and a read end with errors, and the queue still finishes. */
    address = 0;
    CHECK(clSetKernelArg(k, 1, sizeof address, &address));
    global = 64;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &e));
    clFinish(q);
    CHECK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    EXPECT(status < 0);
    clReleaseEvent(e);
    int word = 0;
    EXPECT(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, sizeof word, &word, 0, NULL, NULL) != CL_SUCCESS);
    cl_context again = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    EXPECT(again == NULL && err == CL_DEVICE_NOT_AVAILABLE);
    clReleaseKernel(k);
    clReleaseMemObject(mo);
}

int main(void) {
    cl_device_id device = first_device();
    context = make_context(device);
    if (!device_uint(device, CL_DEVICE_COMPILER_AVAILABLE)) {
        printf("faults.c: the device has no compiler; nothing was run\n");
        clReleaseContext(context);
        return finish();
    }
    program = build_program(context, device, source, "-cl-std=CL3.0");
    cl_command_queue q = make_queue(context, device), other = make_queue(context, device);
    check_vadd(q);
    if (lenient()) {
        printf("faults.c: another implementation; the faulting kernels were not run\n");
    } else {
        static const char *smashers[] = {"smash", "smash_generic"};
        for (int s = 0; s < 2; s++) {
            smash(q, other, smashers[s], 4, 1 << 16);
            smash(q, other, smashers[s], -((cl_long)1 << 40), 64);
            smash(q, other, smashers[s], (cl_long)1 << 40, 64);
        }
        if (device_ulong(device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU) {
            gpu_fault(device, q);
        } else {
            for (int i = 0; i < 5; i++) {
                wild(q, other, "wild", 8);
                wild(q, other, "wild", 0x8000000000000000ull);
                wild(q, other, "wild_builtin", 8);
            }
            /* The queue that ran the faulting kernels still works. */
            check_vadd(q);
            check_vadd(other);
            CHECK(clFinish(q));
            CHECK(clFinish(other));
        }
    }
    clReleaseCommandQueue(q);
    clReleaseCommandQueue(other);
    clReleaseProgram(program);
    clReleaseContext(context);
    return finish();
}
