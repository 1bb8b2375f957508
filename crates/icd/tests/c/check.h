/* Shared helpers of the API conformance programs.
 *
 * CHECK(call)             the call returns CL_SUCCESS, or the program stops (later steps need it).
 * EXPECT_ERR(code, call)  the call returns `code`; a mismatch is recorded and the program goes on.
 * CHECK_RET(err)          an errcode_ret is CL_SUCCESS, or the program stops.
 * EXPECT(cond)            a condition holds; recorded, the program goes on.
 * REQUIRE(cond)           a condition holds, or the program stops.
 * Each failure prints file:line, the expression, and the error code by name. main() ends with
 * `return finish();`, which exits with 1 when anything failed.
 *
 * Lenient runs: the harness sets FERROCL_TEST_LENIENT when the programs run against another
 * implementation (FERROCL_TEST_VENDORS). Then the spots where that implementation is known to
 * deviate from the spec, written EXPECT_ERR_DEVIATES / EXPECT_DEVIATES with a comment saying
 * who deviates, are reported but not counted, and handles of a wrong object type are not passed
 * at all (guarded by `if (wrong_type_checks())`: PoCL does not check the type of a handle and
 * crashes). Against ferrocl every check counts. */
#ifndef FERROCL_CHECK_H
#define FERROCL_CHECK_H

#define _POSIX_C_SOURCE 200809L
/* The deprecated 1.x entry points are part of OpenCL 3.0 and tested too. */
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Atomic: the threads program checks from many threads. */
static _Atomic int check_failures;

static inline const char *cl_error_name(cl_int code) {
    switch (code) {
#define NAME(c) \
    case c:     \
        return #c;
        NAME(CL_SUCCESS)
        NAME(CL_DEVICE_NOT_FOUND)
        NAME(CL_DEVICE_NOT_AVAILABLE)
        NAME(CL_COMPILER_NOT_AVAILABLE)
        NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        NAME(CL_OUT_OF_RESOURCES)
        NAME(CL_OUT_OF_HOST_MEMORY)
        NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
        NAME(CL_MEM_COPY_OVERLAP)
        NAME(CL_IMAGE_FORMAT_MISMATCH)
        NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
        NAME(CL_BUILD_PROGRAM_FAILURE)
        NAME(CL_MAP_FAILURE)
        NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
        NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        NAME(CL_COMPILE_PROGRAM_FAILURE)
        NAME(CL_LINKER_NOT_AVAILABLE)
        NAME(CL_LINK_PROGRAM_FAILURE)
        NAME(CL_DEVICE_PARTITION_FAILED)
        NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
        NAME(CL_INVALID_VALUE)
        NAME(CL_INVALID_DEVICE_TYPE)
        NAME(CL_INVALID_PLATFORM)
        NAME(CL_INVALID_DEVICE)
        NAME(CL_INVALID_CONTEXT)
        NAME(CL_INVALID_QUEUE_PROPERTIES)
        NAME(CL_INVALID_COMMAND_QUEUE)
        NAME(CL_INVALID_HOST_PTR)
        NAME(CL_INVALID_MEM_OBJECT)
        NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        NAME(CL_INVALID_IMAGE_SIZE)
        NAME(CL_INVALID_SAMPLER)
        NAME(CL_INVALID_BINARY)
        NAME(CL_INVALID_BUILD_OPTIONS)
        NAME(CL_INVALID_PROGRAM)
        NAME(CL_INVALID_PROGRAM_EXECUTABLE)
        NAME(CL_INVALID_KERNEL_NAME)
        NAME(CL_INVALID_KERNEL_DEFINITION)
        NAME(CL_INVALID_KERNEL)
        NAME(CL_INVALID_ARG_INDEX)
        NAME(CL_INVALID_ARG_VALUE)
        NAME(CL_INVALID_ARG_SIZE)
        NAME(CL_INVALID_KERNEL_ARGS)
        NAME(CL_INVALID_WORK_DIMENSION)
        NAME(CL_INVALID_WORK_GROUP_SIZE)
        NAME(CL_INVALID_WORK_ITEM_SIZE)
        NAME(CL_INVALID_GLOBAL_OFFSET)
        NAME(CL_INVALID_EVENT_WAIT_LIST)
        NAME(CL_INVALID_EVENT)
        NAME(CL_INVALID_OPERATION)
        NAME(CL_INVALID_GL_OBJECT)
        NAME(CL_INVALID_BUFFER_SIZE)
        NAME(CL_INVALID_MIP_LEVEL)
        NAME(CL_INVALID_GLOBAL_WORK_SIZE)
        NAME(CL_INVALID_PROPERTY)
        NAME(CL_INVALID_IMAGE_DESCRIPTOR)
        NAME(CL_INVALID_COMPILER_OPTIONS)
        NAME(CL_INVALID_LINKER_OPTIONS)
        NAME(CL_INVALID_DEVICE_PARTITION_COUNT)
        NAME(CL_INVALID_PIPE_SIZE)
        NAME(CL_INVALID_DEVICE_QUEUE)
        NAME(CL_INVALID_SPEC_ID)
        NAME(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
        NAME(CL_PLATFORM_NOT_FOUND_KHR)
#undef NAME
    default:
        return "(unknown error code)";
    }
}

static inline void check_report(const char *file, int line, const char *what, cl_int got, cl_int want) {
    fprintf(stderr, "%s:%d: %s returned %s (%d), expected %s (%d)\n", file, line, what,
            cl_error_name(got), got, cl_error_name(want), want);
    check_failures++;
}

#define CHECK(call)                                                    \
    do {                                                               \
        cl_int check_err_ = (call);                                    \
        if (check_err_ != CL_SUCCESS) {                                \
            check_report(__FILE__, __LINE__, #call, check_err_, 0);    \
            exit(1);                                                   \
        }                                                              \
    } while (0)

#define CHECK_RET(err)                                                             \
    do {                                                                           \
        cl_int check_err_ = (err);                                                 \
        if (check_err_ != CL_SUCCESS) {                                            \
            check_report(__FILE__, __LINE__, "errcode_ret " #err, check_err_, 0);  \
            exit(1);                                                               \
        }                                                                          \
    } while (0)

#define EXPECT_ERR(want, call)                                              \
    do {                                                                    \
        cl_int check_err_ = (call);                                         \
        if (check_err_ != (want))                                           \
            check_report(__FILE__, __LINE__, #call, check_err_, (want));    \
    } while (0)

/* An errcode_ret value `got` equals `want`. */
#define EXPECT_RET(want, got)                                                        \
    do {                                                                             \
        cl_int check_err_ = (got);                                                   \
        if (check_err_ != (want))                                                    \
            check_report(__FILE__, __LINE__, "errcode_ret " #got, check_err_, (want)); \
    } while (0)

#define EXPECT(cond)                                                          \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
            check_failures++;                                                 \
        }                                                                     \
    } while (0)

#define REQUIRE(cond)                                                                \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: required %s\n", __FILE__, __LINE__, #cond);     \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

static inline int lenient(void) {
    return getenv("FERROCL_TEST_LENIENT") != NULL;
}

/* Whether to run a check that another implementation is known to crash on (lenient runs skip
 * it; the comment at the call says who crashes). */
static inline int strict(void) {
    return !lenient();
}

/* Whether to pass handles of the wrong object type (see lenient runs above). */
static inline int wrong_type_checks(void) {
    return !lenient();
}

static inline void check_deviation(const char *file, int line, const char *what, cl_int got, cl_int want) {
    if (lenient())
        fprintf(stderr, "%s:%d: known deviation (not counted): %s returned %s (%d), the spec says %s (%d)\n", file,
                line, what, cl_error_name(got), got, cl_error_name(want), want);
    else
        check_report(file, line, what, got, want);
}

/* EXPECT_ERR at a spot where another implementation is known to deviate from the spec. */
#define EXPECT_ERR_DEVIATES(want, call)                                      \
    do {                                                                     \
        cl_int check_err_ = (call);                                          \
        if (check_err_ != (want))                                            \
            check_deviation(__FILE__, __LINE__, #call, check_err_, (want));  \
    } while (0)

/* EXPECT at a spot where another implementation is known to deviate from the spec. */
#define EXPECT_DEVIATES(cond)                                                                     \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            if (lenient()) {                                                                      \
                fprintf(stderr, "%s:%d: known deviation (not counted): expected %s\n", __FILE__,  \
                        __LINE__, #cond);                                                         \
            } else {                                                                              \
                fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);               \
                check_failures++;                                                                 \
            }                                                                                     \
        }                                                                                         \
    } while (0)

static inline int finish(void) {
    if (check_failures) {
        fprintf(stderr, "%d check(s) failed\n", check_failures);
        return 1;
    }
    return 0;
}

/* The first platform the loader reports (the vendors directory holds one implementation). */
static inline cl_platform_id first_platform(void) {
    cl_platform_id platform = NULL;
    cl_uint n = 0;
    CHECK(clGetPlatformIDs(1, &platform, &n));
    REQUIRE(n >= 1 && platform != NULL);
    return platform;
}

/* The first device of the first platform. */
static inline cl_device_id first_device(void) {
    cl_device_id device = NULL;
    CHECK(clGetDeviceIDs(first_platform(), CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    REQUIRE(device != NULL);
    return device;
}

/* A context on the first device. */
static inline cl_context make_context(cl_device_id device) {
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_RET(err);
    REQUIRE(context != NULL);
    return context;
}

/* An in-order queue without properties. */
static inline cl_command_queue make_queue(cl_context context, cl_device_id device) {
    cl_int err = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_RET(err);
    REQUIRE(queue != NULL);
    return queue;
}

/* A buffer of `size` bytes. */
static inline cl_mem make_buffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr) {
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, flags, size, host_ptr, &err);
    CHECK_RET(err);
    REQUIRE(mem != NULL);
    return mem;
}

/* A program built from `source` for `device` with `options`; on a build failure the log is
 * printed and the test exits. */
static inline cl_program build_program(cl_context context, cl_device_id device, const char *source,
                                       const char *options) {
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_RET(err);
    REQUIRE(program != NULL);
    err = clBuildProgram(program, 1, &device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[16384] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed (%s):\n%s\n", cl_error_name(err), log);
        exit(1);
    }
    return program;
}

/* A program created from the binary of `program` (built for `device` alone): CL_PROGRAM_BINARIES
 * read back through clCreateProgramWithBinary. */
static inline cl_program program_from_binary(cl_context context, cl_device_id device, cl_program program) {
    size_t size = 0;
    CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    REQUIRE(size > 0);
    unsigned char *binary = malloc(size);
    REQUIRE(binary != NULL);
    CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL));
    const unsigned char *in[] = {binary};
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program loaded = clCreateProgramWithBinary(context, 1, &device, &size, in, &status, &err);
    CHECK_RET(err);
    EXPECT(status == CL_SUCCESS);
    free(binary);
    return loaded;
}

/* Values of fixed-size device queries. */
static inline cl_uint device_uint(cl_device_id device, cl_device_info param) {
    cl_uint value = 0;
    size_t size = 0;
    CHECK(clGetDeviceInfo(device, param, sizeof value, &value, &size));
    REQUIRE(size == sizeof value);
    return value;
}

static inline cl_ulong device_ulong(cl_device_id device, cl_device_info param) {
    cl_ulong value = 0;
    size_t size = 0;
    CHECK(clGetDeviceInfo(device, param, sizeof value, &value, &size));
    REQUIRE(size == sizeof value);
    return value;
}

static inline size_t device_size(cl_device_id device, cl_device_info param) {
    size_t value = 0;
    size_t size = 0;
    CHECK(clGetDeviceInfo(device, param, sizeof value, &value, &size));
    REQUIRE(size == sizeof value);
    return value;
}

/* A string query, malloc'ed. */
static inline char *device_string(cl_device_id device, cl_device_info param) {
    size_t size = 0;
    CHECK(clGetDeviceInfo(device, param, 0, NULL, &size));
    REQUIRE(size >= 1);
    char *s = malloc(size);
    REQUIRE(s != NULL);
    CHECK(clGetDeviceInfo(device, param, size, s, NULL));
    REQUIRE(s[size - 1] == '\0');
    return s;
}

/* Monotonic wall-clock time in nanoseconds. */
static inline uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
