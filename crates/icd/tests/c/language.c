/* OpenCL C constructs that real programs are written in and every clang-based compiler
 * accepts, built through the loader in each OpenCL C version the device offers, run, and
 * checked value by value: true/false (6.3.1), C11 anonymous structure and union members
 * (C11 6.7.2.1p13) with their layout and aligned attribute, #pragma once, variadic macros with
 * __VA_ARGS__, __VA_OPT__ and GNU named parameters, the GNU spellings __inline__ and
 * __restrict__, a pointer argument that discards const (a warning, not an error), sizeof of
 * arrays completed by their initializer (C99 6.7.8p22), and builtin overload resolution as
 * clang ranks it (mad24(uchar, uchar, int) resolves to int; a scalar argument converts
 * rather than widens to a vector, so max(int4, uint), clamp(float4, int, int) and
 * fmax(float4, double) resolve; min((short)1, 2) and clamp(uchar, 0, 255) are ambiguous),
 * #pragma pack (N, push, pop, and the empty form reset to the default layout) with the sizes
 * and member offsets clang gives, and C11 _Generic (6.5.1.1) selecting on scalar, vector and
 * pointer types after lvalue conversion, its default association, a selection used as an
 * lvalue, and the error when no association matches. */
#include "check.h"

#include <unistd.h>

static const char *header = "#pragma once\n"
                            "int header_value(void) { return 77; }\n";

static const char *source =
    "#include \"lang_once.h\"\n"
    "#include \"lang_once.h\"\n"
    "#pragma ferrocl_test_unknown_pragma\n"
    "#define SUM3(...) sum3(__VA_ARGS__)\n"
    "#define ADD(a, ...) ((a) __VA_OPT__(+ sum3(__VA_ARGS__, 0)))\n"
    "#define MAKE_INT2(x...) ((int2)(x))\n"
    "int sum3(int a, int b, int c) { return a + b + c; }\n"
    "typedef union { struct { float x, y; }; struct { float real, imag; }; } cfloat_t;\n"
    "struct S { int a; struct { int b, c; }; union { int d; float e; }; };\n"
    "struct A { char c; struct { char d; } __attribute__((aligned(16))); };\n"
    "__constant char greeting[] = \"Hello, world\";\n"
    "__inline__ int first(__global int *p) { return p[0]; }\n"
    "#pragma pack(push, 1)\n"
    "struct P1 { char c; int i; short s; };\n"
    "#pragma pack(push, 2)\n"
    "struct P2 { char c; int i; long l; };\n"
    "#pragma pack(pop)\n"
    "struct P3 { char c; int i; };\n"
    "#pragma pack(pop)\n"
    "struct P4 { char c; int i; };\n"
    "#pragma pack(4)\n"
    "struct P5 { char c; long l; };\n"
    "#pragma pack()\n"
    "struct P6 { char c; long l; };\n"
    "#define KIND(x) _Generic((x), int: 1, uint: 2, float: 3, float4: 4, int4: 5, \\\n"
    "                         __global const int *: 6, default: 9)\n"
    "int second(__global const int *__restrict__ p) { return p[1]; }\n"
    "__kernel void lang(__global int *out, __global const int *in) {\n"
    "    bool b = false;\n"
    "    int n = 0;\n"
    "    while (true) { if (++n == 3) break; }\n"
    "    out[0] = b == false && true == 1 && false == 0;\n"
    "    out[1] = n;\n"
    "    cfloat_t c;\n"
    "    c.real = 1.5f;\n"
    "    c.imag = 2.5f;\n"
    "    out[2] = (int)(c.x * 10.0f) + (int)(c.y * 100.0f);\n"
    "    out[3] = sizeof(cfloat_t);\n"
    "    out[4] = sizeof(struct S);\n"
    "    struct S s = {1, 2, 3, 4};\n"
    "    out[5] = s.a + 10 * s.b + 100 * s.c + 1000 * s.d;\n"
    "    out[6] = sizeof(struct A);\n"
    "    out[7] = sizeof(greeting);\n"
    "    char text[] = \"abc\";\n"
    "    out[8] = sizeof(text) * 10 + text[2];\n"
    "    out[9] = SUM3(1, 2, 3);\n"
    "    int2 v = MAKE_INT2(4, 5);\n"
    "    out[10] = v.x * 10 + v.y;\n"
    "    out[11] = ADD(1) * 100 + ADD(1, 2, 3);\n"
    "    out[12] = first(in) + second(in);\n"
    "    uchar4 px = (uchar4)(2, 0, 0, 3);\n"
    "    out[13] = mad24(px.x, px.w, 1000);\n"
    "    out[14] = header_value();\n"
    "    __private struct S *ps = &s;\n"
    "    ps->e = 0.5f;\n"
    "    out[15] = as_int(s.e) == as_int(0.5f);\n"
    "    int4 iv = (int4)(1, -2, 3, -4);\n"
    "    float4 fv = clamp((float4)(0.25f, 2.0f, -1.0f, 0.5f), 0, 1);\n"
    "    out[16] = max(iv, 5u).y * 100 + (int)(fmax(fv, 0.0).x * 4.0f + fv.y * 10.0f);\n"
    "    struct P1 p1;\n"
    "    out[17] = sizeof(struct P1) * 100 + (int)((char *)&p1.s - (char *)&p1) * 10 +\n"
    "              (int)((char *)&p1.i - (char *)&p1);\n"
    "    struct P2 p2 = {1, 2, 3};\n"
    "    out[18] = sizeof(struct P2) * 100 + (int)((char *)&p2.l - (char *)&p2) * 10 +\n"
    "              sizeof(struct P3);\n"
    "    out[19] = p2.c + p2.i * 10 + (int)p2.l * 100;\n"
    "    out[20] = sizeof(struct P4) * 10000 + sizeof(struct P5) * 100 + sizeof(struct P6);\n"
    "    uint u = 7;\n"
    "    float4 f4 = 0.0f;\n"
    "    int4 i4 = 0;\n"
    "    const int ci = 1;\n"
    "    out[21] = KIND(n) * 10000 + KIND(u) * 1000 + KIND(1.0f) * 100 + KIND(f4) * 10 + KIND(i4);\n"
    "    out[22] = KIND(in) * 100 + KIND(ci) * 10 + KIND((short)1);\n"
    "    out[23] = KIND(text) * 100 + KIND(1u + 2) * 10 + KIND('a');\n"
    "    _Generic(n, int: out[24], default: out[0]) = 11;\n"
    "}\n";

enum { N = 25 };

/* The values `lang` writes, as C computes them. */
static const int want[N] = {
    1, 3, 15 + 250, 8, 16, 4321, 32, 13, 4 * 10 + 'c', 6, 45, 100 + 6, 10 + 20, 1006, 77, 1, 500 + 1 + 10,
    /* #pragma pack: P1 {c@0 i@1 s@5} is 7; P2 under pack(2) {c@0 i@2 l@6} is 14, P3 back
     * under pack(1) is 5, P4 (default) 8, P5 under pack(4) 12, P6 after pack() 16. */
    700 + 50 + 1, 1400 + 60 + 5, 1 + 20 + 300, 80000 + 1200 + 16,
    /* _Generic: int 1, uint 2, float 3, float4 4, int4 5, __global const int * 6, the rest
     * 9 (a char array decays to a pointer; a const int selects int; 'a' is an int). */
    12345, 600 + 10 + 9, 900 + 20 + 1, 11,
};

/* Builds `src` with `options`; returns the build status and leaves the log in `log`. */
static cl_int try_build(cl_context context, cl_device_id device, const char *src, const char *options,
                        char *log, size_t log_size, cl_program *out) {
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &src, NULL, &err);
    CHECK_RET(err);
    cl_int built = clBuildProgram(program, 1, &device, options, NULL, NULL);
    log[0] = 0;
    CHECK(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, log_size, log, NULL));
    *out = program;
    return built;
}

/* Whether the device accepts OpenCL C version `want` (CL_DEVICE_OPENCL_C_ALL_VERSIONS). */
static int supports_c_version(cl_device_id device, cl_version want_version) {
    size_t size = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, NULL, &size) != CL_SUCCESS)
        return 0;
    cl_name_version versions[64];
    if (size > sizeof versions)
        size = sizeof versions;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, size, versions, NULL));
    for (size_t i = 0; i < size / sizeof versions[0]; i++)
        if (CL_VERSION_MAJOR(versions[i].version) == CL_VERSION_MAJOR(want_version) &&
            CL_VERSION_MINOR(versions[i].version) == CL_VERSION_MINOR(want_version))
            return 1;
    return 0;
}

int main(void) {
    cl_device_id device = first_device();
    if (!device_uint(device, CL_DEVICE_COMPILER_AVAILABLE)) {
        printf("language.c: the device has no compiler\n");
        return finish();
    }
    cl_context context = make_context(device);
    cl_command_queue queue = make_queue(context, device);

    /* The header that #pragma once guards, found through -I. */
    char dir[] = "/tmp/ferrocl-language-XXXXXX";
    REQUIRE(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/lang_once.h", dir);
    FILE *f = fopen(path, "w");
    REQUIRE(f != NULL);
    fputs(header, f);
    fclose(f);

    static const struct {
        const char *std;
        cl_version version;
    } stds[] = {
        {"-cl-std=CL1.1", CL_MAKE_VERSION(1, 1, 0)},
        {"-cl-std=CL1.2", CL_MAKE_VERSION(1, 2, 0)},
        {"-cl-std=CL2.0", CL_MAKE_VERSION(2, 0, 0)},
        {"-cl-std=CL3.0", CL_MAKE_VERSION(3, 0, 0)},
    };
    int in[2] = {10, 20};
    cl_mem in_buf = make_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem out_buf = make_buffer(context, CL_MEM_WRITE_ONLY, N * sizeof(int), NULL);
    static char log[65536];
    int built_any = 0;
    for (size_t k = 0; k < sizeof stds / sizeof stds[0]; k++) {
        if (!supports_c_version(device, stds[k].version))
            continue;
        char options[512];
        snprintf(options, sizeof options, "%s -I %s", stds[k].std, dir);
        cl_program program = NULL;
        cl_int err = try_build(context, device, source, options, log, sizeof log, &program);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "language.c: build with '%s' failed (%s):\n%s\n", options, cl_error_name(err), log);
            check_failures++;
            clReleaseProgram(program);
            continue;
        }
        built_any = 1;
        /* clang's -Wunknown-pragmas: an ignored pragma is reported, never silent. */
        if (strict())
            EXPECT(strstr(log, "ferrocl_test_unknown_pragma") != NULL || strstr(log, "unknown pragma") != NULL);
        cl_kernel kernel = clCreateKernel(program, "lang", &err);
        CHECK_RET(err);
        CHECK(clSetKernelArg(kernel, 0, sizeof out_buf, &out_buf));
        CHECK(clSetKernelArg(kernel, 1, sizeof in_buf, &in_buf));
        size_t one = 1;
        int out[N];
        memset(out, 0, sizeof out);
        CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(queue, out_buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        for (int i = 0; i < N; i++) {
            if (out[i] != want[i]) {
                fprintf(stderr, "language.c: %s: out[%d] = %d, expected %d\n", stds[k].std, i, out[i], want[i]);
                check_failures++;
            }
        }
        clReleaseKernel(kernel);
        clReleaseProgram(program);
    }
    EXPECT(built_any);

    /* Calls that clang reports ambiguous: no candidate is better than every other in each
     * argument ([over.match.best]). */
    static const char *ambiguous[] = {
        "__kernel void k(__global int *o) { o[0] = min((short)1, 2); }\n",
        "__kernel void k(__global int *o, __global uchar *p) { o[0] = clamp(p[0], 0, 255); }\n",
    };
    for (size_t k = 0; k < sizeof ambiguous / sizeof ambiguous[0]; k++) {
        cl_program program = NULL;
        cl_int err = try_build(context, device, ambiguous[k], "", log, sizeof log, &program);
        EXPECT_RET(CL_BUILD_PROGRAM_FAILURE, err);
        if (err == CL_BUILD_PROGRAM_FAILURE)
            EXPECT(strstr(log, "ambiguous") != NULL);
        clReleaseProgram(program);
    }

    /* C11 6.5.1.1p2: without a default association, the controlling expression's type must
     * match one of the association types. */
    {
        static const char *no_match = "__kernel void k(__global int *o) {\n"
                                      "    float3 v = 0.0f;\n"
                                      "    o[0] = _Generic(v, int: 1, float4: 2);\n"
                                      "}\n";
        cl_program program = NULL;
        cl_int err = try_build(context, device, no_match, "", log, sizeof log, &program);
        EXPECT_RET(CL_BUILD_PROGRAM_FAILURE, err);
        if (err == CL_BUILD_PROGRAM_FAILURE)
            EXPECT(strstr(log, "not compatible with any generic association") != NULL);
        clReleaseProgram(program);
    }

    remove(path);
    rmdir(dir);
    clReleaseMemObject(in_buf);
    clReleaseMemObject(out_buf);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return finish();
}
