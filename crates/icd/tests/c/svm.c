/* API 5.6, shared virtual memory, on a device whose CL_DEVICE_SVM_CAPABILITIES offers buffer
 * sharing: clSVMAlloc's refusals, coarse-grain buffers updated through clEnqueueSVMMap/Unmap
 * and used by a kernel (at their start and at an offset), clEnqueueSVMMemFill/Memcpy, a buffer
 * made on an SVM pointer with CL_MEM_USE_HOST_PTR, pointers stored inside SVM memory and
 * followed by a kernel (CL_KERNEL_EXEC_INFO_SVM_PTRS), fine-grain buffers read and written by
 * the host without maps, malloc'ed memory with fine-grain system sharing, a flag handed
 * between the host and a running kernel with SVM atomics, clEnqueueSVMMigrateMem and
 * clEnqueueSVMFree with and without a callback. A device without SVM is left to unsupported.c. */
#include "check.h"

#include <stdatomic.h>

static const char *source =
    "kernel void twice(global float *a) { a[get_global_id(0)] *= 2.0f; }\n"
    "typedef struct node { global struct node *next; int value; } node;\n"
    "kernel void follow(global node *list, global int *out) {\n"
    "    int sum = 0;\n"
    "    for (global node *n = list; n; n = n->next) sum += n->value;\n"
    "    out[0] = sum;\n"
    "}\n";

/* SVM atomics: the kernel waits for the host's flag, then raises its own. */
static const char *atomics_source =
    "kernel void handshake(global atomic_int *flags) {\n"
    "    while (atomic_load_explicit(&flags[0], memory_order_acquire,\n"
    "                                memory_scope_all_svm_devices) == 0)\n"
    "        ;\n"
    "    atomic_store_explicit(&flags[2], 42, memory_order_relaxed, memory_scope_all_svm_devices);\n"
    "    atomic_store_explicit(&flags[1], 1, memory_order_release, memory_scope_all_svm_devices);\n"
    "}\n";

typedef struct node {
    struct node *next;
    cl_int value;
} node;

enum { N = 1000 };

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_program program;

static cl_kernel kernel(const char *name) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_RET(err);
    return k;
}

static void run(cl_kernel k, size_t n) {
    CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
}

/* 5.6.1, "clSVMAlloc will fail if". */
static void test_alloc_refusals(cl_ulong caps) {
    EXPECT(clSVMAlloc(context, CL_MEM_READ_WRITE, 0, 0) == NULL);
    EXPECT(clSVMAlloc(context, CL_MEM_SVM_ATOMICS, 64, 0) == NULL);
    EXPECT(clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0) == NULL);
    EXPECT(clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 3) == NULL);
    EXPECT(clSVMAlloc(NULL, CL_MEM_READ_WRITE, 64, 0) == NULL);
    cl_ulong max = device_ulong(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    EXPECT(clSVMAlloc(context, CL_MEM_READ_WRITE, (size_t)max + 1, 0) == NULL);
    if (!(caps & CL_DEVICE_SVM_ATOMICS))
        EXPECT(clSVMAlloc(context, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 64, 0) == NULL);
    if (!(caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER))
        EXPECT(clSVMAlloc(context, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0) == NULL);
    /* "alignment is the minimum alignment in bytes": 64 asked, 64 given. */
    void *p = clSVMAlloc(context, CL_MEM_READ_WRITE, 100, 64);
    REQUIRE(p != NULL);
    EXPECT(((uintptr_t)p & 63) == 0);
    clSVMFree(context, p);
    clSVMFree(context, NULL);
}

static void test_coarse_grain(void) {
    float *a = clSVMAlloc(context, CL_MEM_READ_WRITE, N * sizeof(float), 0);
    REQUIRE(a != NULL);
    /* Coarse grain: "the host must use calls to" map and unmap. */
    CHECK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, a, N * sizeof(float), 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        a[i] = (float)i;
    CHECK(clEnqueueSVMUnmap(queue, a, 0, NULL, NULL));
    cl_kernel k = kernel("twice");
    CHECK(clSetKernelArgSVMPointer(k, 0, a));
    run(k, N);
    /* "can be a pointer offset into the SVM region": the second half doubled again. */
    CHECK(clSetKernelArgSVMPointer(k, 0, a + N / 2));
    run(k, N / 2);
    CHECK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, a, N * sizeof(float), 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += a[i] != (float)i * (i < N / 2 ? 2.0f : 4.0f);
    EXPECT(bad == 0);
    CHECK(clEnqueueSVMUnmap(queue, a, 0, NULL, NULL));

    /* clEnqueueSVMMemFill and clEnqueueSVMMemcpy, SVM to SVM and SVM to host memory. */
    float pattern[2] = {1.5f, -2.0f};
    CHECK(clEnqueueSVMMemFill(queue, a, pattern, sizeof pattern, N * sizeof(float), 0, NULL, NULL));
    float *b = clSVMAlloc(context, CL_MEM_READ_WRITE, N * sizeof(float), 0);
    REQUIRE(b != NULL);
    CHECK(clEnqueueSVMMemcpy(queue, CL_FALSE, b, a, N * sizeof(float), 0, NULL, NULL));
    static float host[N];
    CHECK(clEnqueueSVMMemcpy(queue, CL_TRUE, host, b, N * sizeof(float), 0, NULL, NULL));
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += host[i] != pattern[i % 2];
    EXPECT(bad == 0);
    /* CL_MEM_COPY_OVERLAP "if the values specified for dst_ptr, src_ptr and size result in an
     * overlapping copy"; CL_INVALID_VALUE "if dst_ptr or src_ptr is NULL"; for the fill, "if
     * svm_ptr is not aligned to pattern_size bytes" and "if size is not a multiple of
     * pattern_size". */
    EXPECT_ERR(CL_MEM_COPY_OVERLAP, clEnqueueSVMMemcpy(queue, CL_TRUE, a + 1, a, 8, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueSVMMemcpy(queue, CL_TRUE, NULL, a, 8, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE,
               clEnqueueSVMMemFill(queue, (char *)a + 4, pattern, sizeof pattern, 16, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue, a, pattern, sizeof pattern, 12, 0, NULL, NULL));

    /* 5.2.1: a buffer on an SVM pointer with CL_MEM_USE_HOST_PTR "has the shared memory as
     * the underlying storage", and CL_MEM_USES_SVM_POINTER says so; one larger than the
     * allocation is CL_INVALID_BUFFER_SIZE. */
    cl_int err = CL_SUCCESS;
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N * sizeof(float), b, &err);
    CHECK_RET(err);
    cl_bool uses = CL_FALSE;
    CHECK(clGetMemObjectInfo(buf, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
    EXPECT(uses == CL_TRUE);
    CHECK(clSetKernelArg(k, 0, sizeof buf, &buf));
    run(k, N);
    CHECK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, b, N * sizeof(float), 0, NULL, NULL));
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += b[i] != 2.0f * pattern[i % 2];
    EXPECT(bad == 0);
    CHECK(clEnqueueSVMUnmap(queue, b, 0, NULL, NULL));
    cl_mem too_big = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N * sizeof(float) + 4, b, &err);
    EXPECT_RET(CL_INVALID_BUFFER_SIZE, err);
    EXPECT(too_big == NULL);
    clReleaseMemObject(buf);

    /* clEnqueueSVMMigrateMem: CL_INVALID_VALUE "if sizes[i] is non-zero range
     * [svm_pointers[i], svm_pointers[i]+sizes[i]) is not contained within an existing
     * clSVMAlloc allocation". */
    const void *ptrs[2] = {a, b + 10};
    size_t sizes[2] = {0, 16};
    CHECK(clEnqueueSVMMigrateMem(queue, 2, ptrs, sizes, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
    size_t past[2] = {0, N * sizeof(float)};
    /* PoCL 3.1 does not check the ranges. */
    EXPECT_ERR_DEVIATES(CL_INVALID_VALUE, clEnqueueSVMMigrateMem(queue, 2, ptrs, past, 0, 0, NULL, NULL));
    CHECK(clFinish(queue));
    clReleaseKernel(k);
    clSVMFree(context, a);
    clSVMFree(context, b);
}

/* Pointers inside SVM memory: the host links three nodes, the kernel walks the list. */
static void test_pointers_in_svm(void) {
    node *nodes = clSVMAlloc(context, CL_MEM_READ_WRITE, 3 * sizeof(node), 0);
    node *tail = clSVMAlloc(context, CL_MEM_READ_WRITE, sizeof(node), 0);
    cl_int *out = clSVMAlloc(context, CL_MEM_READ_WRITE, sizeof(cl_int), 0);
    REQUIRE(nodes && tail && out);
    CHECK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, nodes, 3 * sizeof(node), 0, NULL, NULL));
    CHECK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, tail, sizeof(node), 0, NULL, NULL));
    nodes[0] = (node){&nodes[1], 1};
    nodes[1] = (node){&nodes[2], 20};
    nodes[2] = (node){tail, 300};
    *tail = (node){NULL, 4000};
    CHECK(clEnqueueSVMUnmap(queue, nodes, 0, NULL, NULL));
    CHECK(clEnqueueSVMUnmap(queue, tail, 0, NULL, NULL));
    cl_kernel k = kernel("follow");
    CHECK(clSetKernelArgSVMPointer(k, 0, nodes));
    CHECK(clSetKernelArgSVMPointer(k, 1, out));
    /* "Non-argument pointers to SVM allocations must be specified". */
    void *extra[1] = {tail};
    CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof extra, extra));
    run(k, 1);
    cl_int sum = 0;
    CHECK(clEnqueueSVMMemcpy(queue, CL_TRUE, &sum, out, sizeof sum, 0, NULL, NULL));
    EXPECT(sum == 4321);
    /* 5.9.3: CL_INVALID_OPERATION "for CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM if
     * param_value is CL_TRUE but no devices in context associated with kernel support
     * fine-grain system SVM allocations". */
    if (!(device_ulong(device, CL_DEVICE_SVM_CAPABILITIES) & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM)) {
        cl_bool on = CL_TRUE;
        /* PoCL 3.1 accepts it. */
        EXPECT_ERR_DEVIATES(CL_INVALID_OPERATION,
                            clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof on, &on));
        /* Without system sharing, a host address outside every SVM allocation is not a valid
         * SVM pointer (5.9.2: CL_INVALID_ARG_VALUE "if arg_value specified is not a valid
         * value"). */
        static cl_int not_svm[4];
        if (strict())
            EXPECT_ERR(CL_INVALID_ARG_VALUE, clSetKernelArgSVMPointer(k, 1, not_svm));
    }
    clReleaseKernel(k);

    /* clEnqueueSVMFree without a callback: "If pfn_free_func is NULL, ... the OpenCL
     * implementation will free these SVM pointers"; CL_INVALID_VALUE "if num_svm_pointers is 0
     * and svm_pointers is non-NULL". */
    void *to_free[2] = {nodes, tail};
    CHECK(clEnqueueSVMFree(queue, 2, to_free, NULL, NULL, 0, NULL, NULL));
    void *last[1] = {out};
    CHECK(clEnqueueSVMFree(queue, 1, last, NULL, NULL, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueSVMFree(queue, 0, last, NULL, NULL, 0, NULL, NULL));
    CHECK(clFinish(queue));
}

static int freed_count;
static void *freed_first;
static void CL_CALLBACK free_with(cl_command_queue q, cl_uint n, void **pointers, void *user_data) {
    (void)q;
    freed_count = (int)n;
    freed_first = pointers[0];
    for (cl_uint i = 0; i < n; i++)
        clSVMFree((cl_context)user_data, pointers[i]);
}

/* Fine-grain system sharing: "Support for sharing the host's entire virtual memory including
 * memory allocated using malloc". */
static void test_fine_grain_system(void) {
    float *a = malloc(N * sizeof(float));
    REQUIRE(a != NULL);
    for (int i = 0; i < N; i++)
        a[i] = (float)i;
    cl_kernel k = kernel("twice");
    cl_bool on = CL_TRUE;
    CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof on, &on));
    CHECK(clSetKernelArgSVMPointer(k, 0, a + 1));
    run(k, N - 1);
    CHECK(clFinish(queue));
    int bad = a[0] != 0.0f;
    for (int i = 1; i < N; i++)
        bad += a[i] != 2.0f * (float)i;
    EXPECT(bad == 0);
    clReleaseKernel(k);
    free(a);
}

/* SVM atomics: "atomic operations that provide memory consistency across the host and all
 * OpenCL devices supporting fine-grain SVM allocations". The host and a running kernel hand a
 * flag back and forth through a fine-grain allocation with CL_MEM_SVM_ATOMICS; the kernel's
 * relaxed store before its release is seen after the host's acquire. */
static int lists_opencl_c_2_0(void) {
    size_t size = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, NULL, &size));
    cl_name_version versions[64];
    REQUIRE(size <= sizeof versions);
    CHECK(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, size, versions, NULL));
    for (size_t i = 0; i < size / sizeof versions[0]; i++)
        if (CL_VERSION_MAJOR(versions[i].version) == 2 && CL_VERSION_MINOR(versions[i].version) == 0)
            return 1;
    return 0;
}

static void test_atomics(void) {
    /* memory_scope_all_svm_devices is OpenCL C 2.0 (in 3.0 it needs
     * __opencl_c_atomic_scope_all_devices). */
    if (!lists_opencl_c_2_0()) {
        printf("svm.c: SVM atomics not run: the device does not list OpenCL C 2.0\n");
        return;
    }
    cl_program p = build_program(context, device, atomics_source, "-cl-std=CL2.0");
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(p, "handshake", &err);
    CHECK_RET(err);
    _Atomic cl_int *flags =
        clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 3 * sizeof(cl_int), 0);
    REQUIRE(flags != NULL);
    for (int i = 0; i < 3; i++)
        atomic_store(&flags[i], 0);
    CHECK(clSetKernelArgSVMPointer(k, 0, (void *)flags));
    run(k, 1);
    CHECK(clFlush(queue));
    atomic_store_explicit(&flags[0], 1, memory_order_release);
    uint64_t start = now_ns();
    int seen = 0;
    while (!(seen = atomic_load_explicit(&flags[1], memory_order_acquire)) && now_ns() - start < 20000000000ull)
        ;
    EXPECT(seen == 1);
    EXPECT(atomic_load_explicit(&flags[2], memory_order_relaxed) == 42);
    CHECK(clFinish(queue));
    clReleaseKernel(k);
    clReleaseProgram(p);
    clSVMFree(context, (void *)flags);
}

/* Fine grain: "Memory consistency is guaranteed at synchronization points without need for"
 * maps. */
static void test_fine_grain(void) {
    float *a = clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof(float), 0);
    REQUIRE(a != NULL);
    for (int i = 0; i < N; i++)
        a[i] = (float)(i % 17);
    cl_kernel k = kernel("twice");
    CHECK(clSetKernelArgSVMPointer(k, 0, a));
    run(k, N);
    CHECK(clFinish(queue));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += a[i] != 2.0f * (float)(i % 17);
    EXPECT(bad == 0);
    clReleaseKernel(k);
    void *list[1] = {a};
    /* "If pfn_free_func is a valid callback function, the OpenCL implementation will call
     * pfn_free_func to free all the SVM pointers specified in svm_pointers." */
    CHECK(clEnqueueSVMFree(queue, 1, list, free_with, context, 0, NULL, NULL));
    CHECK(clFinish(queue));
    EXPECT(freed_count == 1 && freed_first == a);
}

int main(void) {
    device = first_device();
    cl_ulong caps = device_ulong(device, CL_DEVICE_SVM_CAPABILITIES);
    if (!(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        printf("svm.c: the device does not support coarse-grain buffer SVM\n");
        return finish();
    }
    context = make_context(device);
    queue = make_queue(context, device);
    program = build_program(context, device, source, "");
    test_alloc_refusals(caps);
    test_coarse_grain();
    test_pointers_in_svm();
    if (caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)
        test_fine_grain();
    if (caps & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM)
        test_fine_grain_system();
    if (caps & CL_DEVICE_SVM_ATOMICS)
        test_atomics();
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return finish();
}
