/* 4.2, Table 5, CL_DEVICE_DOUBLE_FP_CONFIG: what each bit the device reports promises, checked
 * by running kernels. CL_FP_ROUND_TO_ZERO and CL_FP_ROUND_TO_INF ("round to zero" and "round to
 * positive and negative infinity rounding modes supported"): the conversions that name those
 * modes (OpenCL C 6.4.3, convert_<type>_rtz/_rtp/_rtn) from double to float and int and from
 * long to double round as named, at values where the modes disagree. CL_FP_ROUND_TO_NEAREST:
 * the same conversions with _rte and by default. CL_FP_DENORM: denormal doubles are kept by
 * arithmetic. CL_FP_INF_NAN: infinities and NaNs come out of arithmetic. CL_FP_FMA: fma is
 * fused (one rounding). A device without double precision reports 0 and is not run. */
#include "check.h"

#include <math.h>

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void round_modes(global const double *d, global const long *l, global float *f,\n"
    "                        global int *i, global double *ld, global double *arith) {\n"
    "    size_t k = get_global_id(0);\n"
    "    double x = d[k];\n"
    "    f[4 * k + 0] = convert_float_rte(x);\n"
    "    f[4 * k + 1] = convert_float_rtz(x);\n"
    "    f[4 * k + 2] = convert_float_rtp(x);\n"
    "    f[4 * k + 3] = convert_float_rtn(x);\n"
    "    i[4 * k + 0] = convert_int_rte(x * 4.0);\n"
    "    i[4 * k + 1] = convert_int_rtz(x * 4.0);\n"
    "    i[4 * k + 2] = convert_int_rtp(x * 4.0);\n"
    "    i[4 * k + 3] = convert_int_rtn(x * 4.0);\n"
    "    ld[4 * k + 0] = convert_double(l[k]);\n"
    "    ld[4 * k + 1] = convert_double_rtz(l[k]);\n"
    "    ld[4 * k + 2] = convert_double_rtp(l[k]);\n"
    "    ld[4 * k + 3] = convert_double_rtn(l[k]);\n"
    "    if (k == 0) {\n"
    "        arith[0] = d[2] * d[3];\n"           /* a denormal product */
    "        arith[1] = d[4] / d[5];\n"           /* 1 / 0 */
    "        arith[2] = d[5] / d[5];\n"           /* 0 / 0 */
    "        arith[3] = fma(d[6], d[7], d[8]);\n" /* (1 + e)(1 - e) - 1 */
    "    }\n"
    "}\n";

enum { N = 9 };

int main(void) {
    cl_device_id device = first_device();
    cl_ulong config = device_ulong(device, CL_DEVICE_DOUBLE_FP_CONFIG);
    if (config == 0 || !device_uint(device, CL_DEVICE_COMPILER_AVAILABLE)) {
        printf("fpconfig.c: the device has no double precision or no compiler\n");
        return finish();
    }
    const double e24 = ldexp(1.0, -24), e30 = ldexp(1.0, -30), two53 = ldexp(1.0, 53);
    /* Doubles between two floats, just above their midpoint, so that nearest rounds away from
     * zero and toward zero does not (times 4 they lie just above the integers 4 and -4, for the
     * int conversions), and the arithmetic inputs. */
    double d[N] = {
        1.0 + e24 + ldexp(1.0, -50),    /* floats 1 and 1 + 2^-23; nearest is the upper */
        -(1.0 + e24 + ldexp(1.0, -50)), /* the same, negative */
        ldexp(1.0, -1060),              /* d[2] * d[3] = 2^-1070, a denormal */
        ldexp(1.0, -10),
        1.0,
        0.0,
        1.0 + e30,
        1.0 - e30,
        -1.0,
    };
    /* Longs between two doubles: 2^53 + 1 lies halfway between 2^53 and 2^53 + 2 (nearest-even
     * picks 2^53), 2^53 + 3 between 2^53 + 2 and 2^53 + 4 (nearest-even picks 2^53 + 4). */
    cl_long l[N] = {(cl_long)two53 + 1, -(cl_long)two53 - 1, (cl_long)two53 + 3, -(cl_long)two53 - 3, 5, 0, 0, 0, 0};
    cl_context context = make_context(device);
    cl_command_queue queue = make_queue(context, device);
    cl_program program = build_program(context, device, source, "");
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "round_modes", &err);
    CHECK_RET(err);
    cl_mem bd = make_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof d, d);
    cl_mem bl = make_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof l, l);
    cl_mem bf = make_buffer(context, CL_MEM_WRITE_ONLY, 4 * N * sizeof(float), NULL);
    cl_mem bi = make_buffer(context, CL_MEM_WRITE_ONLY, 4 * N * sizeof(cl_int), NULL);
    cl_mem bld = make_buffer(context, CL_MEM_WRITE_ONLY, 4 * N * sizeof(double), NULL);
    cl_mem ba = make_buffer(context, CL_MEM_WRITE_ONLY, 4 * sizeof(double), NULL);
    cl_mem args[] = {bd, bl, bf, bi, bld, ba};
    for (cl_uint a = 0; a < 6; a++)
        CHECK(clSetKernelArg(kernel, a, sizeof(cl_mem), &args[a]));
    size_t global = 5;
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
    float f[4 * N];
    cl_int i[4 * N];
    double ld[4 * N], arith[4];
    CHECK(clEnqueueReadBuffer(queue, bf, CL_TRUE, 0, sizeof f, f, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, bi, CL_TRUE, 0, sizeof i, i, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, bld, CL_TRUE, 0, sizeof ld, ld, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, ba, CL_TRUE, 0, sizeof arith, arith, 0, NULL, NULL));

    const float up = 1.0f + ldexpf(1.0f, -23);
    /* Element k of each result: rte, rtz, rtp, rtn. */
    if (config & CL_FP_ROUND_TO_NEAREST) {
        EXPECT(f[0] == up && f[4] == -up);
        EXPECT(ld[0] == two53 && ld[4] == -two53);
        EXPECT(ld[8] == two53 + 4 && ld[12] == -two53 - 4);
        EXPECT(i[0] == 4 && i[4] == -4);
        EXPECT(ld[16] == 5.0);
    }
    if (config & CL_FP_ROUND_TO_ZERO) {
        EXPECT(f[1] == 1.0f && f[5] == -1.0f);
        EXPECT(ld[1] == two53 && ld[5] == -two53);
        EXPECT(ld[9] == two53 + 2 && ld[13] == -two53 - 2);
        EXPECT(i[1] == 4 && i[5] == -4);
    }
    if (config & CL_FP_ROUND_TO_INF) {
        EXPECT(f[2] == up && f[6] == -1.0f);
        EXPECT(f[3] == 1.0f && f[7] == -up);
        EXPECT(ld[2] == two53 + 2 && ld[6] == -two53);
        EXPECT(ld[3] == two53 && ld[7] == -two53 - 2);
        EXPECT(ld[10] == two53 + 4 && ld[14] == -two53 - 2);
        EXPECT(ld[11] == two53 + 2 && ld[15] == -two53 - 4);
        EXPECT(i[2] == 5 && i[6] == -4);
        EXPECT(i[3] == 4 && i[7] == -5);
    }
    if (config & CL_FP_DENORM)
        EXPECT(arith[0] == ldexp(1.0, -1070));
    if (config & CL_FP_INF_NAN) {
        EXPECT(isinf(arith[1]) && arith[1] > 0);
        EXPECT(isnan(arith[2]));
    }
    /* Fused: (1 + 2^-30)(1 - 2^-30) - 1 = -2^-60 exactly; a separate multiply rounds the
     * product to 1 and gives 0. */
    if (config & CL_FP_FMA)
        EXPECT(arith[3] == -ldexp(1.0, -60));

    for (int a = 0; a < 6; a++)
        CHECK(clReleaseMemObject(args[a]));
    CHECK(clReleaseKernel(kernel));
    CHECK(clReleaseProgram(program));
    CHECK(clReleaseCommandQueue(queue));
    CHECK(clReleaseContext(context));
    return finish();
}
