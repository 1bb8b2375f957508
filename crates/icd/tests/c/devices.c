/* One context holding every device of the platform, and buffers that commands on the devices'
 * queues use in turn (API 5.4: memory objects "are migrated ... on demand"; 5.13: commands of
 * different queues ordered by events). Each step runs on the next device, so that with a CPU
 * and a GPU every kind of move happens: a kernel's results reach a read, a map, a copy and
 * the next kernel on another device; a read or write of a region; fills and copies; sub-buffers;
 * CL_MEM_USE_HOST_PTR; clEnqueueMigrateMemObjects; a read ordered after another device's kernel
 * by an event alone. With one device it checks the same results on it. */
#include "check.h"

enum { N = 1 << 16, MAX_DEVICES = 8 };

static const char *source =
    "kernel void add(global int *x, int k) { x[get_global_id(0)] += k; }\n"
    "kernel void sum(global const int *a, global const int *b, global int *out) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = a[i] + b[i];\n"
    "}\n";

static cl_context context;
static cl_uint devices;
static cl_command_queue queues[MAX_DEVICES];
static cl_kernel add, sum;
static int host[N];

static cl_command_queue on(int step) {
    return queues[step % devices];
}

/* x[i] += k for every i, on the queue of `step`'s device, after `after` where not NULL; the
 * launch's event. */
static cl_event run_add_after(int step, cl_mem x, int k, size_t count, cl_event after) {
    cl_event ev;
    CHECK(clSetKernelArg(add, 0, sizeof x, &x));
    CHECK(clSetKernelArg(add, 1, sizeof k, &k));
    CHECK(clEnqueueNDRangeKernel(on(step), add, 1, NULL, &count, NULL, after ? 1 : 0, after ? &after : NULL, &ev));
    return ev;
}

static cl_event run_add(int step, cl_mem x, int k, size_t count) {
    return run_add_after(step, x, k, count, NULL);
}

static cl_mem buffer(cl_mem_flags flags, void *data) {
    cl_int err;
    cl_mem m = clCreateBuffer(context, flags, sizeof host, data, &err);
    CHECK_RET(err);
    return m;
}

/* Reads `count` ints at `at` on `step`'s queue and compares them with want(i) for each i. */
static void expect_ints(int step, cl_mem x, size_t at, size_t count, int (*want)(size_t), const char *what) {
    CHECK(clEnqueueReadBuffer(on(step), x, CL_TRUE, at * sizeof(int), count * sizeof(int), host, 0, NULL, NULL));
    int bad = 0;
    for (size_t i = 0; i < count; i++) {
        if (host[i] != want(at + i) && bad++ < 3) {
            printf("%s: [%zu] = %d, want %d\n", what, at + i, host[i], want(at + i));
        }
    }
    EXPECT(bad == 0);
}

static int ramp(size_t i) { return (int)i; }

/* After the round trip: k = 1 + 2 + ... + 6 added. */
static int ramp_plus_21(size_t i) { return (int)i + 21; }

static void kernels_in_turn(void) {
    for (int i = 0; i < N; i++) host[i] = i;
    cl_mem x = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host);
    for (int step = 0; step < 6; step++) {
        clReleaseEvent(run_add(step, x, step + 1, N));
        CHECK(clFinish(on(step)));
    }
    /* A region, from each device's queue, then the whole. */
    for (cl_uint d = 0; d < devices; d++) expect_ints((int)d, x, 1000 + d, 17, ramp_plus_21, "after six kernels");
    expect_ints(0, x, 0, N, ramp_plus_21, "after six kernels, whole");
    clReleaseMemObject(x);
}

static int mapped_want(size_t i) { return i == 5 ? -100 + (int)devices : (int)i + 3 + (int)devices; }

static void maps_between_kernels(void) {
    for (int i = 0; i < N; i++) host[i] = i;
    cl_mem x = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host);
    clReleaseEvent(run_add((int)devices - 1, x, 3, N));
    CHECK(clFinish(on((int)devices - 1)));
    cl_int err;
    int *p = clEnqueueMapBuffer(on(0), x, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, sizeof host, 0, NULL, NULL, &err);
    CHECK_RET(err);
    EXPECT(p[7] == 10 && p[N - 1] == N + 2);
    p[5] = -100;
    CHECK(clEnqueueUnmapMemObject(on(0), x, p, 0, NULL, NULL));
    CHECK(clFinish(on(0)));
    for (cl_uint d = 0; d < devices; d++) {
        clReleaseEvent(run_add((int)d, x, 1, N));
        CHECK(clFinish(on((int)d)));
    }
    expect_ints(0, x, 0, N, mapped_want, "map between kernels");
    clReleaseMemObject(x);
}

static int use_host_want(size_t i) { return 2 * (int)i + (int)devices; }

static void use_host_ptr(void) {
    static int mine[N];
    for (int i = 0; i < N; i++) mine[i] = 2 * i;
    cl_mem x = buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, mine);
    for (cl_uint d = 0; d < devices; d++) {
        clReleaseEvent(run_add((int)d, x, 1, N));
        CHECK(clFinish(on((int)d)));
    }
    /* 5.2.1: the host_ptr's bytes are the buffer's once it is mapped. */
    cl_int err;
    int *p = clEnqueueMapBuffer(on(0), x, CL_TRUE, CL_MAP_READ, 0, sizeof host, 0, NULL, NULL, &err);
    CHECK_RET(err);
    EXPECT(p == mine);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += mine[i] != use_host_want((size_t)i);
    EXPECT(bad == 0);
    CHECK(clEnqueueUnmapMemObject(on(0), x, p, 0, NULL, NULL));
    CHECK(clFinish(on(0)));
    clReleaseMemObject(x);
}

static int fill_want(size_t i) {
    /* The fills below, in order, over the kernels' ramp + 1. */
    if (i >= 100 && i < 116) return 0x01010101 * 7;
    if (i >= 200 && i < 216) return (0x0102 << 16) | 0x0102;
    if (i >= 300 && i < 316) return -5;
    if (i >= 400 && i < 416) return i % 2 ? -6 : -7;
    if (i >= 500 && i < 516) return (int)(i % 4) - 8;
    return (int)i + 1;
}

static int copy_want(size_t i) { return i >= 1024 && i < 2048 ? fill_want(i - 1024 + 100) : (int)i; }

static void fills_and_copies(void) {
    for (int i = 0; i < N; i++) host[i] = i;
    cl_mem x = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host);
    cl_mem y = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host);
    int step = (int)devices - 1;
    clReleaseEvent(run_add(step, x, 1, N));
    CHECK(clFinish(on(step)));
    unsigned char b = 7;
    short s = 0x0102;
    int w = -5;
    int two[2] = {-7, -6};
    int four[4] = {-8, -7, -6, -5};
    /* Each on the next device's queue, finished before the next. */
    CHECK(clEnqueueFillBuffer(on(step), x, &b, 1, 400, 64, 0, NULL, NULL));
    CHECK(clFinish(on(step)));
    CHECK(clEnqueueFillBuffer(on(step + 1), x, &s, 2, 800, 64, 0, NULL, NULL));
    CHECK(clFinish(on(step + 1)));
    CHECK(clEnqueueFillBuffer(on(step + 2), x, &w, 4, 1200, 64, 0, NULL, NULL));
    CHECK(clFinish(on(step + 2)));
    CHECK(clEnqueueFillBuffer(on(step + 3), x, two, 8, 1600, 64, 0, NULL, NULL));
    CHECK(clFinish(on(step + 3)));
    CHECK(clEnqueueFillBuffer(on(step + 4), x, four, 16, 2000, 64, 0, NULL, NULL));
    CHECK(clFinish(on(step + 4)));
    expect_ints(0, x, 0, N, fill_want, "fills");
    /* y is on the last device too; the copy lands on a region of it. */
    clReleaseEvent(run_add(step, y, 0, N));
    CHECK(clFinish(on(step)));
    CHECK(clEnqueueCopyBuffer(on(step), x, y, 400, 4096, 4096, 0, NULL, NULL));
    CHECK(clFinish(on(step)));
    expect_ints(step + 1, y, 0, N, copy_want, "copy");
    clReleaseMemObject(x);
    clReleaseMemObject(y);
}

static int sub_want(size_t i) { return i >= N / 2 ? (int)i + 11 : (int)i + 1; }

static void sub_buffers(void) {
    for (int i = 0; i < N; i++) host[i] = i;
    cl_mem x = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host);
    cl_buffer_region half = {sizeof host / 2, sizeof host / 2};
    cl_int err;
    cl_mem upper = clCreateSubBuffer(x, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &half, &err);
    CHECK_RET(err);
    int last = (int)devices - 1;
    clReleaseEvent(run_add(last, upper, 10, N / 2));
    CHECK(clFinish(on(last)));
    clReleaseEvent(run_add(last + 1, x, 1, N));
    CHECK(clFinish(on(last + 1)));
    expect_ints(last, x, 0, N, sub_want, "sub-buffer then parent");
    clReleaseMemObject(upper);
    clReleaseMemObject(x);
}

static int twice_plus_1(size_t i) { return 2 * (int)i + 1; }

static void read_only_inputs_and_events(void) {
    for (int i = 0; i < N; i++) host[i] = i;
    cl_mem a = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, host);
    cl_mem b = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host);
    cl_mem out = buffer(CL_MEM_READ_WRITE, NULL);
    for (cl_uint d = 0; d < devices; d++) {
        CHECK(clSetKernelArg(sum, 0, sizeof a, &a));
        CHECK(clSetKernelArg(sum, 1, sizeof b, &b));
        CHECK(clSetKernelArg(sum, 2, sizeof out, &out));
        size_t n = N;
        cl_event ev;
        CHECK(clEnqueueNDRangeKernel(queues[d], sum, 1, NULL, &n, NULL, 0, NULL, &ev));
        /* The next device's queue adds one and reads the result, ordered after the sum by
           the event alone. */
        clReleaseEvent(run_add_after((int)d + 1, out, 1, N, ev));
        CHECK(clEnqueueReadBuffer(on((int)d + 1), out, CL_FALSE, 0, sizeof host, host, 0, NULL, NULL));
        CHECK(clFinish(on((int)d + 1)));
        clReleaseEvent(ev);
        int bad = 0;
        for (int i = 0; i < N; i++) bad += host[i] != twice_plus_1((size_t)i);
        if (bad) printf("device %u then %u: %d wrong\n", d, (d + 1) % devices, bad);
        EXPECT(bad == 0);
    }
    expect_ints(0, a, 0, N, ramp, "read-only input");
    expect_ints(0, b, 0, N, ramp, "const input");
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(out);
}

static int ramp_plus_1(size_t i) { return (int)i + 1; }

static void migrations(void) {
    for (int i = 0; i < N; i++) host[i] = i;
    cl_mem x = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host);
    for (cl_uint d = 0; d < devices; d++) {
        CHECK(clEnqueueMigrateMemObjects(queues[d], 1, &x, 0, 0, NULL, NULL));
        CHECK(clFinish(queues[d]));
    }
    expect_ints(0, x, 0, N, ramp, "migrated everywhere");
    clReleaseEvent(run_add((int)devices - 1, x, 1, N));
    CHECK(clEnqueueMigrateMemObjects(on((int)devices - 1), 1, &x, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
    CHECK(clFinish(on((int)devices - 1)));
    expect_ints(0, x, 0, N, ramp_plus_1, "migrated to the host after a kernel");
    clReleaseMemObject(x);
}

int main(void) {
    cl_platform_id platform;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    cl_device_id ids[MAX_DEVICES];
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, MAX_DEVICES, ids, &devices));
    if (devices > MAX_DEVICES) devices = MAX_DEVICES;
    printf("%u device(s)\n", devices);
    cl_int err;
    context = clCreateContext(NULL, devices, ids, NULL, NULL, &err);
    CHECK_RET(err);
    for (cl_uint d = 0; d < devices; d++) {
        queues[d] = clCreateCommandQueueWithProperties(context, ids[d], NULL, &err);
        CHECK_RET(err);
    }
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_RET(err);
    CHECK(clBuildProgram(program, devices, ids, "", NULL, NULL));
    add = clCreateKernel(program, "add", &err);
    CHECK_RET(err);
    sum = clCreateKernel(program, "sum", &err);
    CHECK_RET(err);

    kernels_in_turn();
    maps_between_kernels();
    use_host_ptr();
    fills_and_copies();
    sub_buffers();
    read_only_inputs_and_events();
    migrations();

    clReleaseKernel(add);
    clReleaseKernel(sum);
    clReleaseProgram(program);
    for (cl_uint d = 0; d < devices; d++) clReleaseCommandQueue(queues[d]);
    clReleaseContext(context);
    return finish();
}
