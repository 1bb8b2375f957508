/* OpenCL C programs built from source and run, each compared element by element with a host
 * reference: vector add, SAXPY, a 2-D stencil, tiled matrix multiply with __local tiles and two
 * barriers per tile, a tree reduction with a barrier inside a loop, a work-group prefix sum,
 * __local arguments of several sizes, and a 3-D NDRange with a global offset and non-uniform
 * work-groups. Also runs the kernels from several host threads on several queues at once.
 *
 * Needs a compiler (CL_DEVICE_COMPILER_AVAILABLE); without one, it says so and checks only
 * that building answers CL_COMPILER_NOT_AVAILABLE. */
#include "check.h"

#include <math.h>
#include <pthread.h>

static const char *source =
    "kernel void vadd(global const float *a, global const float *b, global float *c) {\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = a[i] + b[i];\n"
    "}\n"
    "kernel void saxpy(float alpha, global const float *x, global float *y, uint n) {\n"
    "    uint i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        y[i] = alpha * x[i] + y[i];\n"
    "}\n"
    "kernel void stencil(global const float *in, global float *out, int w, int h) {\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {\n"
    "        out[y * w + x] = in[y * w + x];\n"
    "        return;\n"
    "    }\n"
    "    out[y * w + x] = 0.5f * in[y * w + x] + 0.125f * (in[y * w + x - 1] + in[y * w + x + 1]\n"
    "                   + in[(y - 1) * w + x] + in[(y + 1) * w + x]);\n"
    "}\n"
    "#define TILE 8\n"
    "kernel void matmul(global const float *A, global const float *B, global float *C, int n) {\n"
    "    local float As[TILE][TILE];\n"
    "    local float Bs[TILE][TILE];\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    float acc = 0.0f;\n"
    "    for (int t = 0; t < n / TILE; t++) {\n"
    "        As[ly][lx] = A[row * n + t * TILE + lx];\n"
    "        Bs[ly][lx] = B[(t * TILE + ly) * n + col];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int k = 0; k < TILE; k++)\n"
    "            acc += As[ly][k] * Bs[k][lx];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    C[row * n + col] = acc;\n"
    "}\n"
    "kernel void reduce(global const int *in, global int *out, local int *scratch) {\n"
    "    size_t lid = get_local_id(0);\n"
    "    scratch[lid] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {\n"
    "        if (lid < s)\n"
    "            scratch[lid] += scratch[lid + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (lid == 0)\n"
    "        out[get_group_id(0)] = scratch[0];\n"
    "}\n"
    "kernel void scan(global const int *in, global int *out, local int *tmp) {\n"
    "    /* Hillis-Steele inclusive scan of each work-group, double-buffered in local memory. */\n"
    "    int lid = get_local_id(0), n = get_local_size(0);\n"
    "    local int *src = tmp, *dst = tmp + n;\n"
    "    src[lid] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int off = 1; off < n; off *= 2) {\n"
    "        dst[lid] = lid >= off ? src[lid] + src[lid - off] : src[lid];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        local int *t = src; src = dst; dst = t;\n"
    "    }\n"
    "    out[get_global_id(0)] = src[lid];\n"
    "}\n"
    "kernel void locals(global int *out, local char *a, local int *b, local long *c) {\n"
    "    int lid = get_local_id(0), n = get_local_size(0);\n"
    "    a[lid] = (char)lid;\n"
    "    b[lid] = lid * 1000;\n"
    "    c[lid] = (long)lid << 33;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int r = n - 1 - lid;\n"
    "    out[get_global_id(0)] = a[r] + b[r] + (int)(c[r] >> 33);\n"
    "}\n"
    "kernel void ids(global uint *out) {\n"
    "    size_t gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);\n"
    "    size_t lin = get_global_linear_id();\n"
    "    out[lin * 4 + 0] = (uint)(gx + 1000 * gy + 1000000 * gz);\n"
    "    out[lin * 4 + 1] = (uint)get_local_linear_id();\n"
    "    out[lin * 4 + 2] = (uint)(get_local_size(0) * 100 + get_local_size(1) * 10 + get_local_size(2));\n"
    "    out[lin * 4 + 3] = (uint)(get_group_id(0) + 10 * get_group_id(1) + 100 * get_group_id(2));\n"
    "}\n";

static cl_context context;
static cl_device_id device;
static cl_program program;

static cl_kernel kernel(const char *name) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_RET(err);
    return k;
}

static cl_mem buffer(size_t size, void *data) {
    return make_buffer(context, data ? CL_MEM_COPY_HOST_PTR : 0, size, data);
}

static void read(cl_command_queue q, cl_mem m, size_t size, void *out) {
    CHECK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, size, out, 0, NULL, NULL));
}

static int test_vadd_saxpy(cl_command_queue q) {
    enum { N = 10007 };
    /* Per call, not static: several threads run this at once. */
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c), *y = malloc(N * sizeof *y);
    REQUIRE(a && b && c && y);
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = 7.0f - (float)i;
        y[i] = (float)(i % 13);
    }
    const size_t bytes = N * sizeof(float);
    cl_mem ma = buffer(bytes, a), mb = buffer(bytes, b), mc = buffer(bytes, NULL), my = buffer(bytes, y);
    cl_kernel k = kernel("vadd");
    CHECK(clSetKernelArg(k, 0, sizeof ma, &ma));
    CHECK(clSetKernelArg(k, 1, sizeof mb, &mb));
    CHECK(clSetKernelArg(k, 2, sizeof mc, &mc));
    size_t global = N;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    read(q, mc, bytes, c);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += c[i] != a[i] + b[i];
    EXPECT(bad == 0);
    cl_kernel s = kernel("saxpy");
    float alpha = -2.5f;
    cl_uint n = N;
    CHECK(clSetKernelArg(s, 0, sizeof alpha, &alpha));
    CHECK(clSetKernelArg(s, 1, sizeof ma, &ma));
    CHECK(clSetKernelArg(s, 2, sizeof my, &my));
    CHECK(clSetKernelArg(s, 3, sizeof n, &n));
    size_t rounded = (N + 63) / 64 * 64, local = 64;
    CHECK(clEnqueueNDRangeKernel(q, s, 1, NULL, &rounded, &local, 0, NULL, NULL));
    read(q, my, bytes, c);
    for (int i = 0; i < N; i++)
        bad += c[i] != alpha * a[i] + y[i];
    EXPECT(bad == 0);
    clReleaseKernel(k);
    clReleaseKernel(s);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    clReleaseMemObject(my);
    free(a);
    free(b);
    free(c);
    free(y);
    return bad;
}

/* The 5-point stencil over a W x H grid, the local size left to the implementation. */
static int stencil_case(cl_command_queue q, int W, int H) {
    size_t n = (size_t)W * H;
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out),
          *want = malloc(n * sizeof *want);
    for (size_t i = 0; i < n; i++)
        in[i] = (float)((i * 37) % 101) / 7.0f;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            size_t i = (size_t)y * W + x;
            want[i] = (x == 0 || y == 0 || x == W - 1 || y == H - 1)
                          ? in[i]
                          : 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - W] + in[i + W]);
        }
    cl_mem mi = buffer(n * sizeof *in, in), mo = buffer(n * sizeof *out, NULL);
    cl_kernel k = kernel("stencil");
    CHECK(clSetKernelArg(k, 0, sizeof mi, &mi));
    CHECK(clSetKernelArg(k, 1, sizeof mo, &mo));
    CHECK(clSetKernelArg(k, 2, sizeof W, &W));
    CHECK(clSetKernelArg(k, 3, sizeof H, &H));
    size_t global[2] = {(size_t)W, (size_t)H};
    CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, NULL, 0, NULL, NULL));
    read(q, mo, n * sizeof *out, out);
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += fabsf(out[i] - want[i]) > 1e-5f * fabsf(want[i]) + 1e-6f;
    EXPECT(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    free(in);
    free(out);
    free(want);
    return bad;
}

static int test_stencil(cl_command_queue q) {
    /* Rows of a prime length; rows of 2 x 8191, which no local size between 2 and 8191
     * divides (an implementation may share them out in groups it picks, the last partial,
     * as the kernel reads global ids only). */
    return stencil_case(q, 67, 45) + stencil_case(q, 16382, 5);
}

static int test_matmul(cl_command_queue q) {
    enum { N = 48 };
    static float A[N * N], B[N * N], C[N * N];
    for (int i = 0; i < N * N; i++) {
        A[i] = (float)(i % 7) - 3.0f;
        B[i] = (float)(i % 5) * 0.5f;
    }
    cl_mem ma = buffer(sizeof A, A), mb = buffer(sizeof B, B), mc = buffer(sizeof C, NULL);
    cl_kernel k = kernel("matmul");
    int n = N;
    CHECK(clSetKernelArg(k, 0, sizeof ma, &ma));
    CHECK(clSetKernelArg(k, 1, sizeof mb, &mb));
    CHECK(clSetKernelArg(k, 2, sizeof mc, &mc));
    CHECK(clSetKernelArg(k, 3, sizeof n, &n));
    size_t global[2] = {N, N}, local[2] = {8, 8};
    CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL));
    read(q, mc, sizeof C, C);
    int bad = 0;
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) {
            float acc = 0.0f;
            for (int t = 0; t < N / 8; t++)
                for (int k2 = 0; k2 < 8; k2++)
                    acc += A[r * N + t * 8 + k2] * B[(t * 8 + k2) * N + c];
            bad += C[r * N + c] != acc;
        }
    EXPECT(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    return bad;
}

static int test_reduce_scan_locals(cl_command_queue q) {
    enum { L = 64, G = 19, N = L * G };
    int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 7919) % 1001 - 500;
    cl_mem mi = buffer(sizeof in, in), mo = buffer(sizeof out, NULL);
    size_t global = N, local = L;
    int bad = 0;

    cl_kernel r = kernel("reduce");
    CHECK(clSetKernelArg(r, 0, sizeof mi, &mi));
    CHECK(clSetKernelArg(r, 1, sizeof mo, &mo));
    CHECK(clSetKernelArg(r, 2, L * sizeof(int), NULL));
    CHECK(clEnqueueNDRangeKernel(q, r, 1, NULL, &global, &local, 0, NULL, NULL));
    read(q, mo, G * sizeof(int), out);
    for (int g = 0; g < G; g++) {
        int s = 0;
        for (int i = 0; i < L; i++)
            s += in[g * L + i];
        bad += out[g] != s;
    }

    cl_kernel s = kernel("scan");
    CHECK(clSetKernelArg(s, 0, sizeof mi, &mi));
    CHECK(clSetKernelArg(s, 1, sizeof mo, &mo));
    CHECK(clSetKernelArg(s, 2, 2 * L * sizeof(int), NULL));
    CHECK(clEnqueueNDRangeKernel(q, s, 1, NULL, &global, &local, 0, NULL, NULL));
    read(q, mo, sizeof out, out);
    for (int g = 0; g < G; g++) {
        int acc = 0;
        for (int i = 0; i < L; i++) {
            acc += in[g * L + i];
            bad += out[g * L + i] != acc;
        }
    }

    cl_kernel l = kernel("locals");
    CHECK(clSetKernelArg(l, 0, sizeof mo, &mo));
    CHECK(clSetKernelArg(l, 1, L * sizeof(char), NULL));
    CHECK(clSetKernelArg(l, 2, L * sizeof(int), NULL));
    CHECK(clSetKernelArg(l, 3, L * sizeof(cl_long), NULL));
    CHECK(clEnqueueNDRangeKernel(q, l, 1, NULL, &global, &local, 0, NULL, NULL));
    read(q, mo, sizeof out, out);
    for (int i = 0; i < N; i++) {
        int rr = L - 1 - i % L;
        bad += out[i] != rr + rr * 1000 + rr;
    }
    EXPECT(bad == 0);
    clReleaseKernel(r);
    clReleaseKernel(s);
    clReleaseKernel(l);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    return bad;
}

static int test_ids(cl_command_queue q) {
    /* Global sizes that are not multiples of the local sizes: the last work-group of each
     * dimension is smaller (non-uniform work-groups, OpenCL C 2.0 and later). */
    const size_t gs[3] = {10, 7, 3}, ls[3] = {4, 3, 2}, off[3] = {5, 100, 1000};
    const size_t n = gs[0] * gs[1] * gs[2];
    cl_uint *out = calloc(n * 4, sizeof(cl_uint));
    cl_mem mo = buffer(n * 4 * sizeof(cl_uint), NULL);
    cl_kernel k = kernel("ids");
    CHECK(clSetKernelArg(k, 0, sizeof mo, &mo));
    int bad = 0;
    cl_int err = clEnqueueNDRangeKernel(q, k, 3, off, gs, ls, 0, NULL, NULL);
    if (err == CL_INVALID_WORK_GROUP_SIZE) {
        /* Allowed only where the device lacks non-uniform work-group support. */
        cl_bool nonuniform = device_uint(device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT);
        EXPECT(!nonuniform);
    } else {
        CHECK(err);
        read(q, mo, n * 4 * sizeof(cl_uint), out);
        for (size_t z = 0; z < gs[2]; z++)
            for (size_t y = 0; y < gs[1]; y++)
                for (size_t x = 0; x < gs[0]; x++) {
                    size_t lin = (z * gs[1] + y) * gs[0] + x;
                    size_t lsx = x / ls[0] * ls[0] + ls[0] <= gs[0] ? ls[0] : gs[0] % ls[0];
                    size_t lsy = y / ls[1] * ls[1] + ls[1] <= gs[1] ? ls[1] : gs[1] % ls[1];
                    size_t lsz = z / ls[2] * ls[2] + ls[2] <= gs[2] ? ls[2] : gs[2] % ls[2];
                    cl_uint *r = out + lin * 4;
                    bad += r[0] != (cl_uint)((x + off[0]) + 1000 * (y + off[1]) + 1000000 * (z + off[2]));
                    bad += r[1] != (cl_uint)(((z % ls[2]) * lsy + y % ls[1]) * lsx + x % ls[0]);
                    bad += r[2] != (cl_uint)(lsx * 100 + lsy * 10 + lsz);
                    bad += r[3] != (cl_uint)(x / ls[0] + 10 * (y / ls[1]) + 100 * (z / ls[2]));
                }
        EXPECT(bad == 0);
    }
    clReleaseKernel(k);
    clReleaseMemObject(mo);
    free(out);
    return bad;
}

static void *worker(void *arg) {
    (void)arg;
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    if (err != CL_SUCCESS)
        return (void *)1;
    long bad = 0;
    for (int i = 0; i < 3; i++)
        bad += test_vadd_saxpy(q) + test_reduce_scan_locals(q);
    clReleaseCommandQueue(q);
    return (void *)bad;
}

int main(void) {
    device = first_device();
    context = make_context(device);
    cl_int err = CL_SUCCESS;
    program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_RET(err);
    if (!device_uint(device, CL_DEVICE_COMPILER_AVAILABLE)) {
        /* 5.8.6: CL_COMPILER_NOT_AVAILABLE "if program is created with
         * clCreateProgramWithSource and a compiler is not available". */
        EXPECT_ERR(CL_COMPILER_NOT_AVAILABLE, clBuildProgram(program, 0, NULL, "-cl-std=CL3.0", NULL, NULL));
        printf("kernels.c: the device has no compiler; the kernels were not run\n");
        clReleaseProgram(program);
        clReleaseContext(context);
        return finish();
    }
    err = clBuildProgram(program, 0, NULL, "-cl-std=CL3.0", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[16384] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed (%s):\n%s\n", cl_error_name(err), log);
        return 1;
    }
    cl_command_queue q = make_queue(context, device);
    test_vadd_saxpy(q);
    test_stencil(q);
    test_matmul(q);
    test_reduce_scan_locals(q);
    test_ids(q);

    /* Several host threads, each with its own queue, run kernels at once. */
    pthread_t threads[4];
    for (int i = 0; i < 4; i++)
        REQUIRE(pthread_create(&threads[i], NULL, worker, NULL) == 0);
    for (int i = 0; i < 4; i++) {
        void *bad = NULL;
        pthread_join(threads[i], &bad);
        EXPECT(bad == NULL);
    }
    clReleaseCommandQueue(q);
    clReleaseProgram(program);
    clReleaseContext(context);
    return finish();
}
