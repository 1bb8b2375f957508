/* Thread safety (Appendix A, "Multiple Host Threads": OpenCL calls that modify cl_kernel objects
 * are not thread-safe; "All other OpenCL API calls are thread-safe"): many threads create, use
 * and release queues, buffers and events on one context at once, share a queue and a buffer, and
 * retain and release shared objects concurrently. */
#include "check.h"

#include <pthread.h>

enum { THREADS = 8, ROUNDS = 40, SIZE = 16384, RETAINS = 2000 };

static cl_context context;
static cl_device_id device;
static cl_command_queue shared_queue;
static cl_mem shared_buffer; /* THREADS slices of SIZE bytes */
static cl_event shared_event;
static pthread_barrier_t start;

static void fill(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(seed * 31 + i * 7 + (i >> 9));
}

/* One round of private work: its own queue and buffers, write, copy, fill, map, read back. */
static void private_round(int id, int round, unsigned char *data, unsigned char *back) {
    cl_int err = CL_SUCCESS;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, round % 2 ? CL_QUEUE_PROFILING_ENABLE : 0, 0};
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, props, &err);
    CHECK_RET(err);
    cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE, SIZE, NULL, &err);
    CHECK_RET(err);
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, SIZE, NULL, &err);
    CHECK_RET(err);
    fill(data, SIZE, (unsigned)(id * 1000 + round));
    cl_event gate = clCreateUserEvent(context, &err);
    CHECK_RET(err);
    cl_event written = NULL, copied = NULL;
    CHECK(clEnqueueWriteBuffer(queue, a, CL_FALSE, 0, SIZE, data, 1, &gate, &written));
    CHECK(clEnqueueCopyBuffer(queue, a, b, 0, 0, SIZE, 1, &written, &copied));
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    memset(back, 0, SIZE);
    CHECK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, SIZE, back, 1, &copied, NULL));
    if (memcmp(back, data, SIZE) != 0) {
        fprintf(stderr, "thread %d round %d: copy read back wrong data\n", id, round);
        check_failures++;
    }
    /* Fill part of b and check through a map. */
    cl_uint pattern = 0x11223344u + (cl_uint)id;
    CHECK(clEnqueueFillBuffer(queue, b, &pattern, sizeof pattern, 1024, 2048, 0, NULL, NULL));
    unsigned char *mapped = clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_READ, 0, SIZE, 0, NULL, NULL, &err);
    CHECK_RET(err);
    for (size_t i = 0; i < SIZE; i++) {
        unsigned char want = i >= 1024 && i < 3072 ? ((unsigned char *)&pattern)[i % 4] : data[i];
        if (mapped[i] != want) {
            fprintf(stderr, "thread %d round %d: byte %zu after fill is %u, expected %u\n", id, round, i, mapped[i], want);
            check_failures++;
            break;
        }
    }
    CHECK(clEnqueueUnmapMemObject(queue, b, mapped, 0, NULL, NULL));
    CHECK(clFinish(queue));
    CHECK(clReleaseEvent(gate));
    CHECK(clReleaseEvent(written));
    CHECK(clReleaseEvent(copied));
    CHECK(clReleaseMemObject(a));
    CHECK(clReleaseMemObject(b));
    CHECK(clReleaseCommandQueue(queue));
}

/* One round on the shared queue: this thread's slice of the shared buffer. */
static void shared_round(int id, int round, unsigned char *data, unsigned char *back) {
    size_t offset = (size_t)id * SIZE;
    fill(data, SIZE, (unsigned)(id * 7777 + round));
    CHECK(clEnqueueWriteBuffer(shared_queue, shared_buffer, CL_FALSE, offset, SIZE, data, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(shared_queue, shared_buffer, CL_TRUE, offset, SIZE, back, 0, NULL, NULL));
    /* The queue is in order: this thread's read follows this thread's write, and no other thread
     * touches this slice. */
    if (memcmp(back, data, SIZE) != 0) {
        fprintf(stderr, "thread %d round %d: shared queue slice read back wrong data\n", id, round);
        check_failures++;
    }
}

/* Concurrent retain/release of shared objects: the counts return to where they started. */
static void retain_release(void) {
    for (int i = 0; i < RETAINS; i++) {
        CHECK(clRetainMemObject(shared_buffer));
        CHECK(clRetainContext(context));
        CHECK(clRetainCommandQueue(shared_queue));
        CHECK(clRetainEvent(shared_event));
    }
    for (int i = 0; i < RETAINS; i++) {
        CHECK(clReleaseMemObject(shared_buffer));
        CHECK(clReleaseContext(context));
        CHECK(clReleaseCommandQueue(shared_queue));
        CHECK(clReleaseEvent(shared_event));
    }
}

static int compiler_available;

/* Kernels where a compiler exists: each thread builds its own program and runs its own kernel on
 * the shared queue and its own queue ("These APIs are safe to call from any host thread so long
 * as concurrent calls operate on different cl_kernel objects"). */
static void kernel_round(int id, unsigned char *data) {
    static const char *source = "kernel void scale(global int *p, int k) { p[get_global_id(0)] *= k; }\n";
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_RET(err);
    CHECK(clBuildProgram(program, 1, &device, NULL, NULL, NULL));
    cl_kernel kernel = clCreateKernel(program, "scale", &err);
    CHECK_RET(err);
    enum { COUNT = SIZE / sizeof(cl_int) };
    cl_int *values = (cl_int *)data;
    for (int i = 0; i < COUNT; i++)
        values[i] = i + id;
    cl_mem mem = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, SIZE, values, &err);
    CHECK_RET(err);
    cl_int k = id + 2;
    CHECK(clSetKernelArg(kernel, 0, sizeof mem, &mem));
    CHECK(clSetKernelArg(kernel, 1, sizeof k, &k));
    size_t global = COUNT;
    CHECK(clEnqueueNDRangeKernel(shared_queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(shared_queue, mem, CL_TRUE, 0, SIZE, values, 0, NULL, NULL));
    for (int i = 0; i < COUNT; i++) {
        if (values[i] != (i + id) * k) {
            fprintf(stderr, "thread %d: kernel result %d at %d, expected %d\n", id, values[i], i, (i + id) * k);
            check_failures++;
            break;
        }
    }
    CHECK(clReleaseMemObject(mem));
    CHECK(clReleaseKernel(kernel));
    CHECK(clReleaseProgram(program));
}

static void *worker(void *arg) {
    int id = (int)(intptr_t)arg;
    unsigned char *data = malloc(SIZE), *back = malloc(SIZE);
    REQUIRE(data && back);
    pthread_barrier_wait(&start);
    for (int round = 0; round < ROUNDS; round++) {
        private_round(id, round, data, back);
        shared_round(id, round, data, back);
        if (round % 10 == 0)
            retain_release();
        if (compiler_available && round % 20 == 0)
            kernel_round(id, data);
    }
    free(data);
    free(back);
    return NULL;
}

int main(void) {
    device = first_device();
    context = make_context(device);
    shared_queue = make_queue(context, device);
    shared_buffer = make_buffer(context, CL_MEM_READ_WRITE, (size_t)THREADS * SIZE, NULL);
    cl_int err = CL_SUCCESS;
    shared_event = clCreateUserEvent(context, &err);
    CHECK_RET(err);
    cl_uint buffer_count = 0, event_count = 0;
    CHECK(clGetMemObjectInfo(shared_buffer, CL_MEM_REFERENCE_COUNT, sizeof buffer_count, &buffer_count, NULL));
    CHECK(clGetEventInfo(shared_event, CL_EVENT_REFERENCE_COUNT, sizeof event_count, &event_count, NULL));

    compiler_available = device_uint(device, CL_DEVICE_COMPILER_AVAILABLE) == CL_TRUE;
    pthread_barrier_init(&start, NULL, THREADS);
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++)
        REQUIRE(pthread_create(&threads[i], NULL, worker, (void *)(intptr_t)i) == 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&start);

    /* Every retain was matched by a release. */
    cl_uint after = 0;
    CHECK(clGetMemObjectInfo(shared_buffer, CL_MEM_REFERENCE_COUNT, sizeof after, &after, NULL));
    EXPECT(after == buffer_count);
    CHECK(clGetEventInfo(shared_event, CL_EVENT_REFERENCE_COUNT, sizeof after, &after, NULL));
    EXPECT(after == event_count);
    CHECK(clSetUserEventStatus(shared_event, CL_COMPLETE));
    CHECK(clReleaseEvent(shared_event));
    CHECK(clFinish(shared_queue));
    CHECK(clReleaseMemObject(shared_buffer));
    CHECK(clReleaseCommandQueue(shared_queue));
    CHECK(clReleaseContext(context));
    return finish();
}
