/* CLBlast's SGEMM and DGEMM (Debian's libclblast, its default parameters for a device it has no
 * tuning for) on every OpenCL platform whose name contains one of the arguments, in turns: each
 * result checked against a double-precision host product at 512 sampled entries, then the best
 * time of REPS calls.
 *
 *   cc -O2 clblast_gemm.c -lclblast -lOpenCL -lm -o clblast_gemm
 *   clblast_gemm [-n N]... [-r REPS] PLATFORM_SUBSTRING...
 *
 * Prints one line per (routine, size, platform) with the largest relative error of the samples,
 * the time in ms and GFLOP/s; exits 1 if any result is wrong. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <clblast_c.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXP 4

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

struct plat {
    const char *name;
    cl_context ctx;
    cl_command_queue q;
};

/* One GEMM of size n (C = A B, row-major) in precision `dbl`: checks, times; returns the time
 * in seconds or a negative number on a failure or a wrong result. */
static double gemm(struct plat *p, size_t n, int dbl, int reps, const void *a, const void *b,
                   double *err) {
    size_t es = dbl ? 8 : 4, bytes = n * n * es;
    cl_int e;
    cl_mem A = clCreateBuffer(p->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (void *)a, &e);
    cl_mem B = clCreateBuffer(p->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (void *)b, &e);
    cl_mem C = clCreateBuffer(p->ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
    double best = 1e30;
    for (int r = 0; r <= reps; r++) {
        double t = now();
        CLBlastStatusCode s = dbl
            ? CLBlastDgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n,
                           1.0, A, 0, n, B, 0, n, 0.0, C, 0, n, &p->q, NULL)
            : CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n,
                           1.0f, A, 0, n, B, 0, n, 0.0f, C, 0, n, &p->q, NULL);
        clFinish(p->q);
        t = now() - t;
        if (s != CLBlastSuccess) {
            fprintf(stderr, "%s: CLBlast status %d\n", p->name, (int)s);
            return -1;
        }
        if (r > 0 && t < best) best = t; /* the first call builds the kernels */
    }
    void *c = malloc(bytes);
    clEnqueueReadBuffer(p->q, C, CL_TRUE, 0, bytes, c, 0, NULL, NULL);
    srand(11);
    *err = 0;
    for (int s = 0; s < 512; s++) {
        size_t i = rand() % n, j = rand() % n;
        double ref = 0, mag = 0, got;
        for (size_t k = 0; k < n; k++) {
            double x = dbl ? ((const double *)a)[i * n + k] : ((const float *)a)[i * n + k];
            double y = dbl ? ((const double *)b)[k * n + j] : ((const float *)b)[k * n + j];
            ref += x * y;
            mag += fabs(x * y);
        }
        got = dbl ? ((double *)c)[i * n + j] : ((float *)c)[i * n + j];
        double rel = fabs(got - ref) / (mag > 0 ? mag : 1);
        if (!(rel <= *err)) *err = rel; /* NaN propagates */
    }
    free(c);
    clReleaseMemObject(A);
    clReleaseMemObject(B);
    clReleaseMemObject(C);
    /* Bounds of a sum of n products, relative to the sum of their magnitudes. */
    double tol = n * (dbl ? 1.2e-16 : 6e-8) * 4;
    return (*err <= tol) ? best : -2;
}

int main(int argc, char **argv) {
    size_t sizes[8];
    int ns = 0, reps = 3, np = 0, bad = 0;
    const char *want[MAXP];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc && ns < 8) sizes[ns++] = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (np < MAXP) want[np++] = argv[i];
    }
    if (!ns) sizes[ns++] = 512;
    cl_platform_id ids[16];
    cl_uint count = 0;
    clGetPlatformIDs(16, ids, &count);
    struct plat ps[MAXP];
    for (int w = 0; w < np; w++) {
        ps[w].name = want[w];
        ps[w].q = NULL;
        for (cl_uint i = 0; i < count; i++) {
            char name[256];
            clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
            if (!strstr(name, want[w])) continue;
            cl_device_id d;
            clGetDeviceIDs(ids[i], CL_DEVICE_TYPE_ALL, 1, &d, NULL);
            ps[w].ctx = clCreateContext(NULL, 1, &d, NULL, NULL, NULL);
            ps[w].q = clCreateCommandQueue(ps[w].ctx, d, 0, NULL);
            break;
        }
        if (!ps[w].q) {
            fprintf(stderr, "no platform named %s\n", want[w]);
            return 2;
        }
    }
    for (int dbl = 0; dbl < 2; dbl++)
        for (int s = 0; s < ns; s++) {
            size_t n = sizes[s], es = dbl ? 8 : 4;
            void *a = malloc(n * n * es), *b = malloc(n * n * es);
            srand(3);
            for (size_t i = 0; i < n * n; i++) {
                double x = rand() / (double)RAND_MAX - 0.5, y = rand() / (double)RAND_MAX - 0.5;
                if (dbl) ((double *)a)[i] = x, ((double *)b)[i] = y;
                else ((float *)a)[i] = x, ((float *)b)[i] = y;
            }
            for (int w = 0; w < np; w++) {
                double err = 0, t = gemm(&ps[w], n, dbl, reps, a, b, &err);
                if (t < 0) bad = 1;
                printf("%s %5zu %-10s err %.1e %-5s %9.2f ms %7.1f GFLOP/s\n", dbl ? "DGEMM" : "SGEMM",
                       n, ps[w].name, err, t == -2 ? "WRONG" : t < 0 ? "FAIL" : "ok", t * 1e3,
                       t > 0 ? 2.0 * n * n * n / t * 1e-9 : 0);
                fflush(stdout);
            }
            free(a);
            free(b);
        }
    return bad;
}
