/* 5.2 Buffer Objects and 5.5 Memory Objects: clCreateBuffer(WithProperties), clCreateSubBuffer,
 * clEnqueueRead/Write/Copy/FillBuffer, the *Rect variants, clEnqueueMapBuffer,
 * clEnqueueUnmapMemObject, clEnqueueMigrateMemObjects, clGetMemObjectInfo,
 * clSetMemObjectDestructorCallback, clRetainMemObject and clReleaseMemObject. */
#include "check.h"

#include <stdatomic.h>

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

/* Expects creation with these arguments to fail with `want` and return NULL. */
static void expect_create_error(int line, cl_int want, cl_mem_flags flags, size_t size, void *host_ptr) {
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, flags, size, host_ptr, &err);
    if (err != want || mem != NULL) {
        fprintf(stderr, "buffer.c:%d: clCreateBuffer(flags 0x%llx, size %zu, host_ptr %p) returned %s and %p, expected %s\n",
                line, (unsigned long long)flags, size, host_ptr, cl_error_name(err), (void *)mem, cl_error_name(want));
        check_failures++;
        if (mem)
            clReleaseMemObject(mem);
    }
}

static cl_mem_flags mem_flags(cl_mem mem) {
    cl_mem_flags flags = 0;
    CHECK(clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    return flags;
}

static size_t mem_size_t(cl_mem mem, cl_mem_info param) {
    size_t value = 0;
    CHECK(clGetMemObjectInfo(mem, param, sizeof value, &value, NULL));
    return value;
}

static cl_uint mem_uint(cl_mem mem, cl_mem_info param) {
    cl_uint value = 0;
    CHECK(clGetMemObjectInfo(mem, param, sizeof value, &value, NULL));
    return value;
}

static void *mem_ptr(cl_mem mem, cl_mem_info param) {
    void *value = NULL;
    CHECK(clGetMemObjectInfo(mem, param, sizeof value, &value, NULL));
    return value;
}

static void fill_pattern(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 7 + seed * 13 + (i >> 8));
}

/* Reads the whole buffer into a fresh allocation. */
static unsigned char *read_all(cl_mem mem, size_t size) {
    unsigned char *p = malloc(size);
    REQUIRE(p != NULL);
    CHECK(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, size, p, 0, NULL, NULL));
    return p;
}

static void test_create_flags(void) {
    unsigned char host[256];
    fill_pattern(host, sizeof host, 1);
    cl_mem_flags valid[] = {
        0,
        CL_MEM_READ_WRITE,
        CL_MEM_WRITE_ONLY,
        CL_MEM_READ_ONLY,
        CL_MEM_ALLOC_HOST_PTR,
        CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY,
        CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
        CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS,
    };
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        cl_int err = CL_SUCCESS;
        cl_mem mem = clCreateBuffer(context, valid[i], 256, NULL, &err);
        if (err != CL_SUCCESS || mem == NULL) {
            fprintf(stderr, "clCreateBuffer(flags 0x%llx) returned %s\n", (unsigned long long)valid[i], cl_error_name(err));
            check_failures++;
            continue;
        }
        /* Table 39: CL_MEM_FLAGS returns "the flags argument value specified when memobj is
         * created". (PoCL 3.1 reports CL_MEM_READ_WRITE for flags 0.) */
        cl_mem_flags got = mem_flags(mem);
        if (got != valid[i])
            fprintf(stderr, "CL_MEM_FLAGS of a buffer created with flags 0x%llx is 0x%llx\n",
                    (unsigned long long)valid[i], (unsigned long long)got);
        if (valid[i] == 0)
            EXPECT_DEVIATES(got == 0);
        else
            EXPECT(got == valid[i]);
        EXPECT(mem_size_t(mem, CL_MEM_SIZE) == 256);
        CHECK(clReleaseMemObject(mem));
    }
    /* Host pointer flags, each with the host pointer they need. */
    cl_mem mem = make_buffer(context, CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, sizeof host, host);
    EXPECT(mem_flags(mem) == (CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR));
    CHECK(clReleaseMemObject(mem));

    /* CL_INVALID_VALUE "if values specified in flags are not valid as defined in the Memory
     * Flags table": the table's mutually exclusive pairs, and an undefined bit. */
    cl_mem_flags exclusive[] = {
        CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY,    /* "are mutually exclusive" */
        CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,     /* "CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY and */
        CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY,     /*  CL_MEM_READ_ONLY are mutually exclusive" */
        CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY, /* "are mutually exclusive" */
        CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, /* "CL_MEM_HOST_WRITE_ONLY or */
        CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,  /*  CL_MEM_HOST_READ_ONLY and CL_MEM_HOST_NO_ACCESS" */
        (cl_mem_flags)1 << 40,
    };
    for (size_t i = 0; i < sizeof exclusive / sizeof exclusive[0]; i++)
        expect_create_error(__LINE__, CL_INVALID_VALUE, exclusive[i], 256, NULL);
    /* "CL_MEM_ALLOC_HOST_PTR and CL_MEM_USE_HOST_PTR are mutually exclusive." "CL_MEM_COPY_HOST_PTR
     * and CL_MEM_USE_HOST_PTR are mutually exclusive." */
    expect_create_error(__LINE__, CL_INVALID_VALUE, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, sizeof host, host);
    expect_create_error(__LINE__, CL_INVALID_VALUE, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, sizeof host, host);

    /* CL_INVALID_HOST_PTR "if host_ptr is NULL, and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR
     * are set in flags" and "if host_ptr is not NULL but CL_MEM_COPY_HOST_PTR or
     * CL_MEM_USE_HOST_PTR are not set in flags". */
    expect_create_error(__LINE__, CL_INVALID_HOST_PTR, CL_MEM_USE_HOST_PTR, 256, NULL);
    expect_create_error(__LINE__, CL_INVALID_HOST_PTR, CL_MEM_COPY_HOST_PTR, 256, NULL);
    expect_create_error(__LINE__, CL_INVALID_HOST_PTR, 0, sizeof host, host);
    expect_create_error(__LINE__, CL_INVALID_HOST_PTR, CL_MEM_READ_ONLY, sizeof host, host);
    expect_create_error(__LINE__, CL_INVALID_HOST_PTR, CL_MEM_ALLOC_HOST_PTR, sizeof host, host);

    /* CL_INVALID_BUFFER_SIZE "if size is zero" and "if size is greater than
     * CL_DEVICE_MAX_MEM_ALLOC_SIZE for all devices in context". */
    expect_create_error(__LINE__, CL_INVALID_BUFFER_SIZE, CL_MEM_READ_WRITE, 0, NULL);
    expect_create_error(__LINE__, CL_INVALID_BUFFER_SIZE, 0, 0, NULL);
    cl_ulong max_alloc = device_ulong(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    if (max_alloc < SIZE_MAX)
        expect_create_error(__LINE__, CL_INVALID_BUFFER_SIZE, CL_MEM_READ_WRITE, (size_t)max_alloc + 1, NULL);

    /* CL_INVALID_CONTEXT "if context is not a valid context". */
    cl_int err = CL_SUCCESS;
    mem = clCreateBuffer(NULL, 0, 256, NULL, &err);
    EXPECT_RET(CL_INVALID_CONTEXT, err);
    EXPECT(mem == NULL);
    if (wrong_type_checks()) {
        mem = clCreateBuffer((cl_context)queue, 0, 256, NULL, &err);
        EXPECT_RET(CL_INVALID_CONTEXT, err);
        EXPECT(mem == NULL);
    }
}

static void test_create_with_properties(void) {
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBufferWithProperties(context, NULL, CL_MEM_READ_WRITE, 128, NULL, &err);
    CHECK_RET(err);
    size_t size = (size_t)-1;
    /* Table 39, CL_MEM_PROPERTIES: NULL properties "must return param_value_size_ret equal to 0". */
    CHECK(clGetMemObjectInfo(mem, CL_MEM_PROPERTIES, 0, NULL, &size));
    EXPECT(size == 0);
    CHECK(clReleaseMemObject(mem));

    cl_mem_properties empty[] = {0};
    mem = clCreateBufferWithProperties(context, empty, CL_MEM_READ_WRITE, 128, NULL, &err);
    CHECK_RET(err);
    /* "must return the values specified in the properties argument in the same order". */
    cl_mem_properties got[4] = {1, 1, 1, 1};
    CHECK(clGetMemObjectInfo(mem, CL_MEM_PROPERTIES, sizeof got, got, &size));
    EXPECT(size == sizeof(cl_mem_properties) && got[0] == 0);
    CHECK(clReleaseMemObject(mem));

    /* Created by clCreateBuffer: size 0. */
    mem = make_buffer(context, 0, 128, NULL);
    CHECK(clGetMemObjectInfo(mem, CL_MEM_PROPERTIES, 0, NULL, &size));
    EXPECT(size == 0);
    CHECK(clReleaseMemObject(mem));

    /* CL_INVALID_PROPERTY "if a property name in properties is not a supported property name". */
    cl_mem_properties unknown[] = {0x7fff, 1, 0};
    mem = clCreateBufferWithProperties(context, unknown, CL_MEM_READ_WRITE, 128, NULL, &err);
    EXPECT_RET(CL_INVALID_PROPERTY, err);
    EXPECT(mem == NULL);
    /* The flag, size and host-pointer rules are those of clCreateBuffer. */
    mem = clCreateBufferWithProperties(context, NULL, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 128, NULL, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    mem = clCreateBufferWithProperties(context, NULL, CL_MEM_READ_WRITE, 0, NULL, &err);
    EXPECT_RET(CL_INVALID_BUFFER_SIZE, err);
    mem = clCreateBufferWithProperties(context, NULL, CL_MEM_USE_HOST_PTR, 128, NULL, &err);
    EXPECT_RET(CL_INVALID_HOST_PTR, err);
    mem = clCreateBufferWithProperties(NULL, NULL, CL_MEM_READ_WRITE, 128, NULL, &err);
    EXPECT_RET(CL_INVALID_CONTEXT, err);
}

static void test_host_ptr(void) {
    enum { N = 4096 };
    unsigned char *host = malloc(N);
    REQUIRE(host != NULL);
    fill_pattern(host, N, 2);

    /* CL_MEM_USE_HOST_PTR: "the contents of the memory pointed to by host_ptr at the time of the
     * clCreateBuffer call define the initial contents of the buffer object." */
    cl_mem mem = make_buffer(context, CL_MEM_USE_HOST_PTR, N, host);
    /* Table 39, CL_MEM_HOST_PTR: "return the host_ptr argument value". */
    EXPECT(mem_ptr(mem, CL_MEM_HOST_PTR) == host);
    unsigned char *got = read_all(mem, N);
    EXPECT(memcmp(got, host, N) == 0);

    /* Write through the API, then map: "The host_ptr specified in clCreateBuffer ... will contain
     * the latest bits in the region being mapped when the clEnqueueMapBuffer command has
     * completed" and "The pointer value returned by clEnqueueMapBuffer will be derived from the
     * host_ptr". */
    unsigned char update[256];
    fill_pattern(update, sizeof update, 3);
    CHECK(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 512, sizeof update, update, 0, NULL, NULL));
    cl_int err = CL_SUCCESS;
    unsigned char *mapped = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ, 256, 1024, 0, NULL, NULL, &err);
    CHECK_RET(err);
    REQUIRE(mapped != NULL);
    EXPECT(mapped >= host && mapped + 1024 <= host + N);
    EXPECT(memcmp(host + 512, update, sizeof update) == 0);
    EXPECT(memcmp(mapped + 256, update, sizeof update) == 0);
    CHECK(clEnqueueUnmapMemObject(queue, mem, mapped, 0, NULL, NULL));
    CHECK(clFinish(queue));
    CHECK(clReleaseMemObject(mem));
    free(got);

    /* CL_MEM_COPY_HOST_PTR: "The implementation will copy the memory immediately and host_ptr is
     * available for reuse by the application when the clCreateBuffer ... operation returns." */
    fill_pattern(host, N, 4);
    unsigned char *expect = malloc(N);
    REQUIRE(expect != NULL);
    memcpy(expect, host, N);
    mem = make_buffer(context, CL_MEM_COPY_HOST_PTR, N, host);
    memset(host, 0, N);
    got = read_all(mem, N);
    EXPECT(memcmp(got, expect, N) == 0);
    /* "Otherwise, returns NULL." */
    EXPECT(mem_ptr(mem, CL_MEM_HOST_PTR) == NULL);
    CHECK(clReleaseMemObject(mem));
    free(got);
    free(expect);
    free(host);
}

static void test_sub_buffers(void) {
    size_t align = device_uint(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
    REQUIRE(align >= 1);
    size_t size = 4 * align + 4096;
    unsigned char *host = malloc(size);
    REQUIRE(host != NULL);
    fill_pattern(host, size, 5);
    cl_mem parent = make_buffer(context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_READ_ONLY, size, host);
    cl_int err = CL_SUCCESS;

    cl_buffer_region region = {align, 2 * align};
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK_RET(err);
    REQUIRE(sub != NULL);
    cl_mem_object_type type = 0;
    CHECK(clGetMemObjectInfo(sub, CL_MEM_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_MEM_OBJECT_BUFFER);
    EXPECT(mem_size_t(sub, CL_MEM_SIZE) == 2 * align);
    EXPECT(mem_size_t(sub, CL_MEM_OFFSET) == align);
    EXPECT(mem_ptr(sub, CL_MEM_ASSOCIATED_MEMOBJECT) == parent);
    EXPECT(mem_ptr(sub, CL_MEM_CONTEXT) == context);
    /* "If memobj is a sub-buffer the memory access qualifiers inherited from parent buffer is
     * also returned." The host pointer flags and the access flags are inherited. */
    cl_mem_flags flags = mem_flags(sub);
    EXPECT(flags & CL_MEM_READ_ONLY);
    EXPECT(flags & CL_MEM_HOST_READ_ONLY);
    EXPECT(flags & CL_MEM_USE_HOST_PTR);
    /* CL_MEM_HOST_PTR of a sub-buffer: "the host_ptr passed to clCreateBuffer ... plus the origin
     * value". */
    EXPECT(mem_ptr(sub, CL_MEM_HOST_PTR) == host + align);
    EXPECT(mem_ptr(parent, CL_MEM_ASSOCIATED_MEMOBJECT) == NULL);
    EXPECT(mem_size_t(parent, CL_MEM_OFFSET) == 0);
    /* The sub-buffer shows the parent's bytes at its origin. */
    unsigned char *got = read_all(sub, 2 * align);
    EXPECT(memcmp(got, host + align, 2 * align) == 0);
    free(got);

    /* CL_INVALID_MEM_OBJECT "if buffer is not a valid buffer object or is a sub-buffer object". */
    cl_buffer_region small = {0, align};
    cl_mem bad = clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &small, &err);
    EXPECT_RET(CL_INVALID_MEM_OBJECT, err);
    EXPECT(bad == NULL);
    bad = clCreateSubBuffer(NULL, 0, CL_BUFFER_CREATE_TYPE_REGION, &small, &err);
    EXPECT_RET(CL_INVALID_MEM_OBJECT, err);
    /* CL_INVALID_VALUE "if the region specified by the cl_buffer_region structure passed in
     * buffer_create_info is out of bounds in buffer". */
    cl_buffer_region outside = {2 * align, size};
    bad = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &outside, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    EXPECT(bad == NULL);
    cl_buffer_region past_end = {size + align, align};
    bad = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &past_end, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    /* CL_INVALID_BUFFER_SIZE "if the size field of the cl_buffer_region structure ... is 0". */
    cl_buffer_region empty = {0, 0};
    bad = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &empty, &err);
    EXPECT_RET(CL_INVALID_BUFFER_SIZE, err);
    EXPECT(bad == NULL);
    /* CL_MISALIGNED_SUB_BUFFER_OFFSET "if there are no devices in context associated with buffer
     * for which the origin field ... is aligned to the CL_DEVICE_MEM_BASE_ADDR_ALIGN value". */
    if (align > 1) {
        cl_buffer_region misaligned = {1, align};
        bad = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &misaligned, &err);
        EXPECT_RET(CL_MISALIGNED_SUB_BUFFER_OFFSET, err);
        EXPECT(bad == NULL);
    }
    /* CL_INVALID_VALUE "if the value specified in buffer_create_type is not valid" and "if
     * buffer_create_info is NULL". */
    bad = clCreateSubBuffer(parent, 0, 0x7fff, &small, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    bad = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    /* CL_INVALID_VALUE "if buffer was created with CL_MEM_READ_ONLY and flags specifies
     * CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY, or if flags specifies CL_MEM_USE_HOST_PTR or
     * CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR", and for the host access flags "if buffer
     * was created with CL_MEM_HOST_READ_ONLY and flags specify CL_MEM_HOST_WRITE_ONLY". */
    cl_mem_flags conflicting[] = {CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR,
                                  CL_MEM_COPY_HOST_PTR, CL_MEM_HOST_WRITE_ONLY};
    for (size_t i = 0; i < sizeof conflicting / sizeof conflicting[0]; i++) {
        bad = clCreateSubBuffer(parent, conflicting[i], CL_BUFFER_CREATE_TYPE_REGION, &small, &err);
        if (err != CL_INVALID_VALUE) {
            fprintf(stderr, "clCreateSubBuffer(READ_ONLY|HOST_READ_ONLY parent, flags 0x%llx) returned %s\n",
                    (unsigned long long)conflicting[i], cl_error_name(err));
            check_failures++;
            if (bad)
                clReleaseMemObject(bad);
        }
    }
    /* Flags that agree with the parent are fine. */
    cl_mem same = clCreateSubBuffer(parent, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION,
                                    &small, &err);
    CHECK_RET(err);
    CHECK(clReleaseMemObject(same));

    /* A write-only, host-no-access parent refuses the other qualifiers too. */
    cl_mem wo = make_buffer(context, CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, size, NULL);
    cl_mem_flags wo_conflicting[] = {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY};
    for (size_t i = 0; i < sizeof wo_conflicting / sizeof wo_conflicting[0]; i++) {
        bad = clCreateSubBuffer(wo, wo_conflicting[i], CL_BUFFER_CREATE_TYPE_REGION, &small, &err);
        if (err != CL_INVALID_VALUE) {
            fprintf(stderr, "clCreateSubBuffer(WRITE_ONLY|HOST_NO_ACCESS parent, flags 0x%llx) returned %s\n",
                    (unsigned long long)wo_conflicting[i], cl_error_name(err));
            check_failures++;
            if (bad)
                clReleaseMemObject(bad);
        }
    }
    CHECK(clReleaseMemObject(wo));

    /* "If memobj is a buffer object, memobj cannot be deleted until all sub-buffer objects
     * associated with memobj are deleted": the sub-buffer stays usable after the parent's last
     * release. */
    CHECK(clReleaseMemObject(parent));
    got = read_all(sub, 2 * align);
    EXPECT(memcmp(got, host + align, 2 * align) == 0);
    free(got);
    CHECK(clReleaseMemObject(sub));
    free(host);

    /* Writes through a sub-buffer land in the parent, at the origin. */
    parent = make_buffer(context, CL_MEM_READ_WRITE, size, NULL);
    unsigned char *zero = calloc(size, 1);
    REQUIRE(zero != NULL);
    CHECK(clEnqueueWriteBuffer(queue, parent, CL_TRUE, 0, size, zero, 0, NULL, NULL));
    cl_buffer_region second = {2 * align, align};
    sub = clCreateSubBuffer(parent, CL_MEM_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &second, &err);
    CHECK_RET(err);
    EXPECT(mem_flags(sub) & CL_MEM_WRITE_ONLY);
    unsigned char *data = malloc(align);
    REQUIRE(data != NULL);
    fill_pattern(data, align, 6);
    CHECK(clEnqueueWriteBuffer(queue, sub, CL_TRUE, 0, align, data, 0, NULL, NULL));
    got = read_all(parent, size);
    EXPECT(memcmp(got + 2 * align, data, align) == 0);
    EXPECT(memcmp(got, zero, 2 * align) == 0);
    EXPECT(memcmp(got + 3 * align, zero, size - 3 * align) == 0);
    free(got);

    /* CL_MEM_COPY_OVERLAP "if src_buffer and dst_buffer are different sub-buffers of the same
     * associated buffer object and they overlap". */
    cl_buffer_region ra = {0, 2 * align}, rb = {align, 2 * align};
    cl_mem a = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &ra, &err);
    CHECK_RET(err);
    cl_mem b = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &rb, &err);
    CHECK_RET(err);
    /* a[align..2align) and b[0..align) are both parent[align..2align). */
    EXPECT_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(queue, a, b, align, 0, align, 0, NULL, NULL));
    /* a[0..align) and b[align..2align) = parent[0..align) and parent[2align..3align): disjoint. */
    CHECK(clEnqueueCopyBuffer(queue, a, b, 0, align, align, 0, NULL, NULL));
    CHECK(clFinish(queue));
    CHECK(clReleaseMemObject(a));
    CHECK(clReleaseMemObject(b));
    CHECK(clReleaseMemObject(sub));
    CHECK(clReleaseMemObject(parent));
    free(data);
    free(zero);
}

static void test_read_write(void) {
    enum { N = 1 << 16 };
    unsigned char *src = malloc(N), *dst = malloc(N);
    REQUIRE(src && dst);
    fill_pattern(src, N, 7);
    cl_mem mem = make_buffer(context, CL_MEM_READ_WRITE, N, NULL);
    CHECK(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, N, src, 0, NULL, NULL));
    memset(dst, 0, N);
    CHECK(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, N, dst, 0, NULL, NULL));
    EXPECT(memcmp(src, dst, N) == 0);

    /* Partial, unaligned ranges; non-blocking with events. */
    unsigned char part[1000];
    fill_pattern(part, sizeof part, 8);
    cl_event written = NULL, read = NULL;
    CHECK(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 12345, sizeof part, part, 0, NULL, &written));
    unsigned char back[1002];
    memset(back, 0xee, sizeof back);
    CHECK(clEnqueueReadBuffer(queue, mem, CL_FALSE, 12344, 1002, back, 1, &written, &read));
    CHECK(clWaitForEvents(1, &read));
    EXPECT(back[0] == src[12344]);
    EXPECT(memcmp(back + 1, part, sizeof part) == 0);
    EXPECT(back[1001] == src[12345 + 1000]);
    cl_command_type type = 0;
    CHECK(clGetEventInfo(written, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_COMMAND_WRITE_BUFFER);
    CHECK(clGetEventInfo(read, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_COMMAND_READ_BUFFER);
    CHECK(clReleaseEvent(written));
    CHECK(clReleaseEvent(read));

    /* CL_INVALID_VALUE "if the region being read or written specified by (offset, size) is out of
     * bounds or if ptr is a NULL value". */
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadBuffer(queue, mem, CL_TRUE, N - 10, 11, dst, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueWriteBuffer(queue, mem, CL_TRUE, N, 1, src, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, (size_t)-1, dst, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueWriteBuffer(queue, mem, CL_TRUE, 16, (size_t)-8, src, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 16, NULL, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, 16, NULL, 0, NULL, NULL));
    /* CL_INVALID_EVENT_WAIT_LIST "if event_wait_list is NULL and num_events_in_wait_list > 0, or
     * event_wait_list is not NULL and num_events_in_wait_list is 0, or if event objects in
     * event_wait_list are not valid events". */
    cl_event none = NULL;
    EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 16, dst, 1, NULL, NULL));
    EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, 16, src, 0, &none, NULL));
    EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, 16, src, 1, &none, NULL));
    /* CL_INVALID_MEM_OBJECT "if buffer is not a valid buffer object". */
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueReadBuffer(queue, NULL, CL_TRUE, 0, 16, dst, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueWriteBuffer(queue, NULL, CL_TRUE, 0, 16, src, 0, NULL, NULL));
    /* CL_INVALID_COMMAND_QUEUE "if command_queue is not a valid host command-queue". */
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clEnqueueReadBuffer(NULL, mem, CL_TRUE, 0, 16, dst, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clEnqueueWriteBuffer(NULL, mem, CL_TRUE, 0, 16, src, 0, NULL, NULL));
    if (wrong_type_checks()) {
        EXPECT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueReadBuffer(queue, (cl_mem)queue, CL_TRUE, 0, 16, dst, 0, NULL, NULL));
        EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clEnqueueReadBuffer((cl_command_queue)mem, mem, CL_TRUE, 0, 16, dst, 0, NULL, NULL));
        cl_event wrong = (cl_event)mem;
        EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 16, dst, 1, &wrong, NULL));
    }
    /* CL_INVALID_CONTEXT "if the context associated with command_queue and buffer are not the
     * same or if the context associated with command_queue and events in event_wait_list are not
     * the same". */
    cl_context other = make_context(device);
    cl_mem foreign = make_buffer(other, CL_MEM_READ_WRITE, 64, NULL);
    EXPECT_ERR(CL_INVALID_CONTEXT, clEnqueueReadBuffer(queue, foreign, CL_TRUE, 0, 16, dst, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_CONTEXT, clEnqueueWriteBuffer(queue, foreign, CL_TRUE, 0, 16, src, 0, NULL, NULL));
    cl_int err = CL_SUCCESS;
    cl_event foreign_event = clCreateUserEvent(other, &err);
    CHECK_RET(err);
    EXPECT_ERR(CL_INVALID_CONTEXT, clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 16, dst, 1, &foreign_event, NULL));
    CHECK(clSetUserEventStatus(foreign_event, CL_COMPLETE));
    CHECK(clReleaseEvent(foreign_event));
    CHECK(clReleaseMemObject(foreign));
    CHECK(clReleaseContext(other));

    /* CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST "if the read and write operations are
     * blocking and the execution status of any of the events in event_wait_list is a negative
     * integer value". */
    if (strict()) { /* PoCL 3.1 blocks forever here */
        cl_event failed = clCreateUserEvent(context, &err);
        CHECK_RET(err);
        CHECK(clSetUserEventStatus(failed, -1));
        EXPECT_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                   clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 16, dst, 1, &failed, NULL));
        EXPECT_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                   clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, 16, src, 1, &failed, NULL));
        CHECK(clReleaseEvent(failed));
    }

    CHECK(clReleaseMemObject(mem));
    free(src);
    free(dst);
}

static void test_host_access_flags(void) {
    unsigned char data[64] = {0};
    cl_int err = CL_SUCCESS;
    cl_mem write_only = make_buffer(context, CL_MEM_HOST_WRITE_ONLY, sizeof data, NULL);
    cl_mem read_only = make_buffer(context, CL_MEM_HOST_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof data, data);
    cl_mem no_access = make_buffer(context, CL_MEM_HOST_NO_ACCESS, sizeof data, NULL);
    size_t origin[3] = {0, 0, 0}, region[3] = {8, 2, 1};

    /* CL_INVALID_OPERATION "if clEnqueueReadBuffer is called on buffer which has been created
     * with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS", likewise for writes and for the Rect
     * variants. */
    EXPECT_ERR(CL_INVALID_OPERATION, clEnqueueReadBuffer(queue, write_only, CL_TRUE, 0, 8, data, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_OPERATION, clEnqueueReadBuffer(queue, no_access, CL_TRUE, 0, 8, data, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_OPERATION, clEnqueueWriteBuffer(queue, read_only, CL_TRUE, 0, 8, data, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_OPERATION, clEnqueueWriteBuffer(queue, no_access, CL_TRUE, 0, 8, data, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_OPERATION, clEnqueueReadBufferRect(queue, write_only, CL_TRUE, origin, origin, region, 0, 0,
                                                             0, 0, data, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_OPERATION, clEnqueueReadBufferRect(queue, no_access, CL_TRUE, origin, origin, region, 0, 0, 0,
                                                             0, data, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_OPERATION, clEnqueueWriteBufferRect(queue, read_only, CL_TRUE, origin, origin, region, 0, 0,
                                                              0, 0, data, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_OPERATION, clEnqueueWriteBufferRect(queue, no_access, CL_TRUE, origin, origin, region, 0, 0,
                                                              0, 0, data, 0, NULL, NULL));
    /* clEnqueueMapBuffer: CL_INVALID_OPERATION "if buffer has been created with
     * CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags or if
     * buffer has been created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE
     * or CL_MAP_WRITE_INVALIDATE_REGION is set in map_flags". */
    void *p = clEnqueueMapBuffer(queue, write_only, CL_TRUE, CL_MAP_READ, 0, 8, 0, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_OPERATION, err);
    EXPECT(p == NULL);
    p = clEnqueueMapBuffer(queue, no_access, CL_TRUE, CL_MAP_READ, 0, 8, 0, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_OPERATION, err);
    p = clEnqueueMapBuffer(queue, read_only, CL_TRUE, CL_MAP_WRITE, 0, 8, 0, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_OPERATION, err);
    p = clEnqueueMapBuffer(queue, read_only, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 8, 0, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_OPERATION, err);
    p = clEnqueueMapBuffer(queue, no_access, CL_TRUE, CL_MAP_WRITE, 0, 8, 0, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_OPERATION, err);

    /* What each flag allows works. */
    CHECK(clEnqueueWriteBuffer(queue, write_only, CL_TRUE, 0, 8, data, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, read_only, CL_TRUE, 0, 8, data, 0, NULL, NULL));
    p = clEnqueueMapBuffer(queue, read_only, CL_TRUE, CL_MAP_READ, 0, 8, 0, NULL, NULL, &err);
    CHECK_RET(err);
    CHECK(clEnqueueUnmapMemObject(queue, read_only, p, 0, NULL, NULL));
    p = clEnqueueMapBuffer(queue, write_only, CL_TRUE, CL_MAP_WRITE, 0, 8, 0, NULL, NULL, &err);
    CHECK_RET(err);
    CHECK(clEnqueueUnmapMemObject(queue, write_only, p, 0, NULL, NULL));
    /* "The usage information ... is ignored by clEnqueueCopyBuffer" and by clEnqueueFillBuffer. */
    CHECK(clEnqueueCopyBuffer(queue, no_access, write_only, 0, 0, 8, 0, NULL, NULL));
    cl_uint pattern = 0x01020304;
    CHECK(clEnqueueFillBuffer(queue, no_access, &pattern, sizeof pattern, 0, 16, 0, NULL, NULL));
    CHECK(clFinish(queue));
    CHECK(clReleaseMemObject(write_only));
    CHECK(clReleaseMemObject(read_only));
    CHECK(clReleaseMemObject(no_access));
}

static void test_copy(void) {
    enum { N = 8192 };
    unsigned char *a = malloc(N), *b = malloc(N);
    REQUIRE(a && b);
    fill_pattern(a, N, 9);
    fill_pattern(b, N, 10);
    cl_mem src = make_buffer(context, CL_MEM_COPY_HOST_PTR, N, a);
    cl_mem dst = make_buffer(context, CL_MEM_COPY_HOST_PTR, N, b);
    cl_event copied = NULL;
    CHECK(clEnqueueCopyBuffer(queue, src, dst, 100, 3000, 2000, 0, NULL, &copied));
    CHECK(clWaitForEvents(1, &copied));
    cl_command_type type = 0;
    CHECK(clGetEventInfo(copied, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_COMMAND_COPY_BUFFER);
    CHECK(clReleaseEvent(copied));
    memcpy(b + 3000, a + 100, 2000);
    unsigned char *got = read_all(dst, N);
    EXPECT(memcmp(got, b, N) == 0);
    free(got);

    /* Within one buffer, without overlap. */
    CHECK(clEnqueueCopyBuffer(queue, dst, dst, 0, 4096, 4096, 0, NULL, NULL));
    memcpy(b + 4096, b, 4096);
    got = read_all(dst, N);
    EXPECT(memcmp(got, b, N) == 0);
    free(got);

    /* CL_MEM_COPY_OVERLAP: "The regions overlap if src_offset ≤ dst_offset ≤ src_offset + size - 1
     * or if dst_offset ≤ src_offset ≤ dst_offset + size - 1." */
    EXPECT_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(queue, dst, dst, 0, 100, 200, 0, NULL, NULL));
    EXPECT_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(queue, dst, dst, 100, 0, 200, 0, NULL, NULL));
    EXPECT_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(queue, dst, dst, 100, 100, 1, 0, NULL, NULL));
    EXPECT_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(queue, dst, dst, 0, 199, 200, 0, NULL, NULL));
    CHECK(clEnqueueCopyBuffer(queue, dst, dst, 0, 200, 200, 0, NULL, NULL)); /* adjacent: no overlap */
    /* CL_INVALID_VALUE "if src_offset, dst_offset, size, src_offset + size or dst_offset + size
     * require accessing elements outside the src_buffer and dst_buffer buffer objects". */
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue, src, dst, N - 10, 0, 11, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue, src, dst, 0, N - 10, 11, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue, src, dst, N, 0, 1, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue, src, dst, 8, 0, (size_t)-4, 0, NULL, NULL));
    /* CL_INVALID_MEM_OBJECT "if src_buffer and dst_buffer are not valid buffer objects". */
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueCopyBuffer(queue, NULL, dst, 0, 0, 8, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueCopyBuffer(queue, src, NULL, 0, 0, 8, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clEnqueueCopyBuffer(NULL, src, dst, 0, 0, 8, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueCopyBuffer(queue, src, dst, 0, 0, 8, 1, NULL, NULL));
    /* CL_INVALID_CONTEXT "if the context associated with command_queue, src_buffer and dst_buffer
     * are not the same". */
    cl_context other = make_context(device);
    cl_mem foreign = make_buffer(other, CL_MEM_READ_WRITE, N, NULL);
    EXPECT_ERR(CL_INVALID_CONTEXT, clEnqueueCopyBuffer(queue, src, foreign, 0, 0, 8, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_CONTEXT, clEnqueueCopyBuffer(queue, foreign, dst, 0, 0, 8, 0, NULL, NULL));
    CHECK(clReleaseMemObject(foreign));
    CHECK(clReleaseContext(other));
    CHECK(clFinish(queue));
    CHECK(clReleaseMemObject(src));
    CHECK(clReleaseMemObject(dst));
    free(a);
    free(b);
}

static void test_fill(void) {
    enum { N = 4096 };
    cl_mem mem = make_buffer(context, CL_MEM_READ_WRITE, N, NULL);
    unsigned char *expect = calloc(N, 1);
    REQUIRE(expect != NULL);
    CHECK(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, N, expect, 0, NULL, NULL));
    /* pattern_size "one of { 1, 2, 4, 8, 16, 32, 64, 128 }", each filling a region whose offset
     * and size are multiples of it. */
    for (size_t pattern_size = 1; pattern_size <= 128; pattern_size *= 2) {
        unsigned char pattern[128];
        fill_pattern(pattern, pattern_size, (unsigned)pattern_size);
        size_t offset = pattern_size * 3, size = pattern_size * 5;
        cl_event filled = NULL;
        CHECK(clEnqueueFillBuffer(queue, mem, pattern, pattern_size, offset, size, 0, NULL, &filled));
        /* "The memory associated with pattern can be reused or freed after the function returns." */
        memset(pattern, 0xff, sizeof pattern);
        CHECK(clWaitForEvents(1, &filled));
        cl_command_type type = 0;
        CHECK(clGetEventInfo(filled, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
        EXPECT(type == CL_COMMAND_FILL_BUFFER);
        CHECK(clReleaseEvent(filled));
        fill_pattern(pattern, pattern_size, (unsigned)pattern_size);
        for (size_t i = 0; i < size; i++)
            expect[offset + i] = pattern[i % pattern_size];
        unsigned char *got = read_all(mem, N);
        if (memcmp(got, expect, N) != 0) {
            fprintf(stderr, "clEnqueueFillBuffer with pattern_size %zu: wrong contents\n", pattern_size);
            check_failures++;
        }
        free(got);
    }
    unsigned char pattern[256] = {1, 2, 3, 4};
    /* CL_INVALID_VALUE "if pattern is NULL or if pattern_size is 0 or if pattern_size is not one
     * of { 1, 2, 4, 8, 16, 32, 64, 128 }". */
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, mem, NULL, 4, 0, 64, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, mem, pattern, 0, 0, 64, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, mem, pattern, 3, 0, 63, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, mem, pattern, 256, 0, 512, 0, NULL, NULL));
    /* "if offset and size are not a multiple of pattern_size". */
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, mem, pattern, 4, 2, 64, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, mem, pattern, 4, 0, 62, 0, NULL, NULL));
    /* "if offset or offset + size require accessing elements outside the buffer". */
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, mem, pattern, 4, N - 4, 8, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, mem, pattern, 4, N, 4, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueFillBuffer(queue, NULL, pattern, 4, 0, 64, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clEnqueueFillBuffer(NULL, mem, pattern, 4, 0, 64, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueFillBuffer(queue, mem, pattern, 4, 0, 64, 1, NULL, NULL));
    CHECK(clReleaseMemObject(mem));
    free(expect);
}

/* Byte offset of (x, y, z) in a box with the given pitches. */
static size_t rect_offset(const size_t origin[3], size_t x, size_t y, size_t z, size_t row_pitch, size_t slice_pitch) {
    return (origin[2] + z) * slice_pitch + (origin[1] + y) * row_pitch + origin[0] + x;
}

static void test_rect(void) {
    /* The buffer is a 3D box of 40-byte rows and 8-row slices (some slack in each). */
    enum { ROW = 40, SLICE = 40 * 8, DEPTH = 4, N = SLICE * DEPTH };
    enum { HROW = 32, HSLICE = 32 * 7, HN = HSLICE * 5 };
    cl_mem mem = make_buffer(context, CL_MEM_READ_WRITE, N, NULL);
    unsigned char *model = calloc(N, 1), *host = malloc(HN);
    REQUIRE(model && host);
    CHECK(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, N, model, 0, NULL, NULL));
    fill_pattern(host, HN, 11);

    /* clEnqueueWriteBufferRect: region {20, 5, 3} from host origin {3, 1, 1} to buffer origin
     * {7, 2, 1}, each side with its own pitches. */
    size_t borigin[3] = {7, 2, 1}, horigin[3] = {3, 1, 1}, region[3] = {20, 5, 3};
    cl_event event = NULL;
    CHECK(clEnqueueWriteBufferRect(queue, mem, CL_FALSE, borigin, horigin, region, ROW, SLICE, HROW, HSLICE, host, 0,
                                   NULL, &event));
    CHECK(clWaitForEvents(1, &event));
    cl_command_type type = 0;
    CHECK(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_COMMAND_WRITE_BUFFER_RECT);
    CHECK(clReleaseEvent(event));
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            for (size_t x = 0; x < region[0]; x++)
                model[rect_offset(borigin, x, y, z, ROW, SLICE)] = host[rect_offset(horigin, x, y, z, HROW, HSLICE)];
    unsigned char *got = read_all(mem, N);
    EXPECT(memcmp(got, model, N) == 0);
    free(got);

    /* clEnqueueReadBufferRect back into a fresh host box. */
    unsigned char *back = calloc(HN, 1), *back_model = calloc(HN, 1);
    REQUIRE(back && back_model);
    size_t rorigin[3] = {5, 1, 0}, rhost[3] = {0, 1, 1}, rregion[3] = {25, 6, 3};
    CHECK(clEnqueueReadBufferRect(queue, mem, CL_TRUE, rorigin, rhost, rregion, ROW, SLICE, HROW, HSLICE, back, 0,
                                  NULL, NULL));
    for (size_t z = 0; z < rregion[2]; z++)
        for (size_t y = 0; y < rregion[1]; y++)
            for (size_t x = 0; x < rregion[0]; x++)
                back_model[rect_offset(rhost, x, y, z, HROW, HSLICE)] = model[rect_offset(rorigin, x, y, z, ROW, SLICE)];
    EXPECT(memcmp(back, back_model, HN) == 0);

    /* Pitches 0: "If buffer_row_pitch is 0, buffer_row_pitch is computed as region[0]", the slice
     * pitch as region[1] × row pitch: a dense copy. */
    size_t zero[3] = {0, 0, 0}, dense[3] = {16, 4, 2};
    unsigned char dense_out[16 * 4 * 2];
    CHECK(clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, zero, dense, 0, 0, 0, 0, dense_out, 0, NULL, NULL));
    EXPECT(memcmp(dense_out, model, sizeof dense_out) == 0);

    /* clEnqueueCopyBufferRect into a second buffer, then within one buffer (same pitches, no
     * overlap). */
    cl_mem other = make_buffer(context, CL_MEM_READ_WRITE, N, NULL);
    unsigned char *model2 = calloc(N, 1);
    REQUIRE(model2 != NULL);
    CHECK(clEnqueueWriteBuffer(queue, other, CL_TRUE, 0, N, model2, 0, NULL, NULL));
    size_t sorigin[3] = {2, 1, 0}, dorigin[3] = {10, 3, 2}, cregion[3] = {18, 4, 2};
    CHECK(clEnqueueCopyBufferRect(queue, mem, other, sorigin, dorigin, cregion, ROW, SLICE, ROW, SLICE, 0, NULL, &event));
    CHECK(clWaitForEvents(1, &event));
    CHECK(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_COMMAND_COPY_BUFFER_RECT);
    CHECK(clReleaseEvent(event));
    for (size_t z = 0; z < cregion[2]; z++)
        for (size_t y = 0; y < cregion[1]; y++)
            for (size_t x = 0; x < cregion[0]; x++)
                model2[rect_offset(dorigin, x, y, z, ROW, SLICE)] = model[rect_offset(sorigin, x, y, z, ROW, SLICE)];
    got = read_all(other, N);
    EXPECT(memcmp(got, model2, N) == 0);
    free(got);
    size_t a_origin[3] = {0, 0, 0}, b_origin[3] = {20, 0, 0}, half[3] = {20, 8, 4};
    CHECK(clEnqueueCopyBufferRect(queue, mem, mem, a_origin, b_origin, half, ROW, SLICE, ROW, SLICE, 0, NULL, NULL));
    for (size_t z = 0; z < half[2]; z++)
        for (size_t y = 0; y < half[1]; y++)
            for (size_t x = 0; x < half[0]; x++)
                model[rect_offset(b_origin, x, y, z, ROW, SLICE)] = model[rect_offset(a_origin, x, y, z, ROW, SLICE)];
    got = read_all(mem, N);
    EXPECT(memcmp(got, model, N) == 0);
    free(got);

    /* Errors. "CL_INVALID_VALUE if buffer_origin, host_origin, or region is NULL." */
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadBufferRect(queue, mem, CL_TRUE, NULL, zero, dense, 0, 0, 0, 0, back, 0,
                                                         NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, NULL, dense, 0, 0, 0, 0, back, 0,
                                                         NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueWriteBufferRect(queue, mem, CL_TRUE, zero, zero, NULL, 0, 0, 0, 0, host, 0,
                                                          NULL, NULL));
    /* "CL_INVALID_VALUE if any region array element is 0." */
    size_t flat[3] = {16, 0, 1};
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, zero, flat, 0, 0, 0, 0, back, 0,
                                                         NULL, NULL));
    /* "CL_INVALID_VALUE if buffer_row_pitch is not 0 and is less than region[0]" (and host). */
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, zero, dense, 15, 0, 0, 0, back, 0,
                                                         NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueWriteBufferRect(queue, mem, CL_TRUE, zero, zero, dense, 0, 0, 15, 0, host, 0,
                                                          NULL, NULL));
    /* Slice pitch less than region[1] × row pitch and not a multiple of the row pitch. */
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, zero, dense, 16, 50, 0, 0, back, 0,
                                                         NULL, NULL));
    /* "if the region being read or written specified by (buffer_origin, region,
     * buffer_row_pitch, buffer_slice_pitch) is out of bounds". */
    size_t last[3] = {0, 0, DEPTH - 1}, two_slices[3] = {ROW, 8, 2};
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadBufferRect(queue, mem, CL_TRUE, last, zero, two_slices, ROW, SLICE, ROW,
                                                         SLICE, back, 0, NULL, NULL));
    size_t wide[3] = {ROW + 1, 1, 1};
    size_t end_row[3] = {0, 8 * DEPTH - 1, 0};
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueWriteBufferRect(queue, mem, CL_TRUE, end_row, zero, wide, ROW + 1, 0, 0, 0,
                                                          host, 0, NULL, NULL));
    /* "CL_INVALID_VALUE if ptr is NULL." */
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, zero, dense, 0, 0, 0, 0, NULL, 0,
                                                         NULL, NULL));
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueReadBufferRect(queue, NULL, CL_TRUE, zero, zero, dense, 0, 0, 0, 0, back,
                                                              0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, zero, dense, 0, 0, 0, 0,
                                                                   back, 1, NULL, NULL));
    /* clEnqueueCopyBufferRect: overlap within one buffer (Appendix D), different pitches within
     * one buffer ("if src_buffer and dst_buffer are the same buffer object, src_row_pitch must
     * equal dst_row_pitch and src_slice_pitch must equal dst_slice_pitch"), NULL and 0 regions,
     * and out of bounds. */
    size_t shifted[3] = {10, 0, 0};
    EXPECT_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBufferRect(queue, mem, mem, a_origin, shifted, half, ROW, SLICE, ROW,
                                                            SLICE, 0, NULL, NULL));
    size_t small[3] = {4, 2, 1}, far[3] = {0, 0, 3};
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueCopyBufferRect(queue, mem, mem, a_origin, far, small, ROW, SLICE, 20, 60, 0,
                                                         NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueCopyBufferRect(queue, mem, other, NULL, zero, small, 0, 0, 0, 0, 0, NULL,
                                                         NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueCopyBufferRect(queue, mem, other, zero, zero, flat, 0, 0, 0, 0, 0, NULL,
                                                         NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueCopyBufferRect(queue, mem, other, last, zero, two_slices, ROW, SLICE, ROW,
                                                         SLICE, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueCopyBufferRect(queue, mem, other, zero, zero, dense, 15, 0, 0, 0, 0, NULL,
                                                         NULL));
    if (strict()) /* PoCL 3.1 dereferences the NULL buffer */
        EXPECT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueCopyBufferRect(queue, mem, NULL, zero, zero, dense, 0, 0, 0, 0, 0,
                                                                  NULL, NULL));
    CHECK(clFinish(queue));
    CHECK(clReleaseMemObject(other));
    CHECK(clReleaseMemObject(mem));
    free(model);
    free(model2);
    free(host);
    free(back);
    free(back_model);
}

static void test_map(void) {
    enum { N = 8192 };
    unsigned char *data = malloc(N);
    REQUIRE(data != NULL);
    fill_pattern(data, N, 12);
    cl_mem mem = make_buffer(context, CL_MEM_COPY_HOST_PTR, N, data);
    cl_int err = CL_SUCCESS;
    EXPECT(mem_uint(mem, CL_MEM_MAP_COUNT) == 0);

    /* Blocking read map: "guaranteed to contain the latest bits in the region being mapped". */
    unsigned char *r = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ, 1000, 3000, 0, NULL, NULL, &err);
    CHECK_RET(err);
    REQUIRE(r != NULL);
    EXPECT(memcmp(r, data + 1000, 3000) == 0);
    EXPECT(mem_uint(mem, CL_MEM_MAP_COUNT) == 1);
    /* Read maps may overlap. */
    unsigned char *r2 = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ, 0, 2000, 0, NULL, NULL, &err);
    CHECK_RET(err);
    EXPECT(memcmp(r2, data, 2000) == 0);
    /* "clEnqueueMapBuffer ... increment the mapped count of the memory object". */
    EXPECT(mem_uint(mem, CL_MEM_MAP_COUNT) == 2);
    /* clEnqueueUnmapMemObject: "CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by
     * clEnqueueMapBuffer or clEnqueueMapImage for memobj". */
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueUnmapMemObject(queue, mem, data, 0, NULL, NULL));
    cl_event unmapped = NULL;
    CHECK(clEnqueueUnmapMemObject(queue, mem, r, 0, NULL, &unmapped));
    CHECK(clWaitForEvents(1, &unmapped));
    cl_command_type type = 0;
    CHECK(clGetEventInfo(unmapped, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_COMMAND_UNMAP_MEM_OBJECT);
    CHECK(clReleaseEvent(unmapped));
    /* "clEnqueueUnmapMemObject decrements the mapped count of the memory object." */
    EXPECT(mem_uint(mem, CL_MEM_MAP_COUNT) == 1);
    CHECK(clEnqueueUnmapMemObject(queue, mem, r2, 0, NULL, NULL));
    CHECK(clFinish(queue));
    EXPECT(mem_uint(mem, CL_MEM_MAP_COUNT) == 0);

    /* Non-blocking write map: usable once its event completes; the writes land at unmap. */
    cl_event mapped = NULL;
    unsigned char *w = clEnqueueMapBuffer(queue, mem, CL_FALSE, CL_MAP_WRITE, 4096, 1024, 0, NULL, &mapped, &err);
    CHECK_RET(err);
    REQUIRE(w != NULL);
    CHECK(clWaitForEvents(1, &mapped));
    CHECK(clGetEventInfo(mapped, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_COMMAND_MAP_BUFFER);
    CHECK(clReleaseEvent(mapped));
    /* CL_MAP_WRITE: "guaranteed to contain the latest bits". */
    EXPECT(memcmp(w, data + 4096, 1024) == 0);
    /* "Mapping (and unmapping) overlapped regions ... for writing is an error and will result in
     * CL_INVALID_OPERATION error returned by clEnqueueMapBuffer". (PoCL 3.1 allows it.) */
    void *w2 = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_WRITE, 4096 + 512, 1024, 0, NULL, NULL, &err);
    EXPECT_ERR_DEVIATES(CL_INVALID_OPERATION, err);
    if (w2 != NULL && err == CL_SUCCESS)
        CHECK(clEnqueueUnmapMemObject(queue, mem, w2, 0, NULL, NULL));
    for (int i = 0; i < 1024; i++)
        w[i] = (unsigned char)(255 - i);
    CHECK(clEnqueueUnmapMemObject(queue, mem, w, 0, NULL, NULL));
    for (int i = 0; i < 1024; i++)
        data[4096 + i] = (unsigned char)(255 - i);
    unsigned char *got = read_all(mem, N);
    EXPECT(memcmp(got, data, N) == 0);
    free(got);

    /* CL_MAP_WRITE_INVALIDATE_REGION: the host overwrites the whole region. */
    unsigned char *inv = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 512, 0, NULL, NULL,
                                            &err);
    CHECK_RET(err);
    memset(inv, 0x3c, 512);
    CHECK(clEnqueueUnmapMemObject(queue, mem, inv, 0, NULL, NULL));
    memset(data, 0x3c, 512);
    got = read_all(mem, N);
    EXPECT(memcmp(got, data, N) == 0);
    free(got);

    /* clEnqueueMapBuffer: CL_INVALID_VALUE "if region being mapped given by (offset, size) is out
     * of bounds or if size is 0 or if values specified in map_flags are not valid";
     * "CL_MAP_READ or CL_MAP_WRITE and CL_MAP_WRITE_INVALIDATE_REGION are mutually exclusive." */
    struct {
        cl_map_flags flags;
        size_t offset, size;
    } bad[] = {
        {CL_MAP_READ, N - 8, 16},
        {CL_MAP_READ, N, 1},
        {CL_MAP_READ, 0, 0},
        {CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16},
        {CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16},
        {(cl_map_flags)1 << 40, 0, 16},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        void *p = clEnqueueMapBuffer(queue, mem, CL_TRUE, bad[i].flags, bad[i].offset, bad[i].size, 0, NULL, NULL, &err);
        if (bad[i].offset == 0 && bad[i].size == 16) {
            /* PoCL 3.1 does not check the map flags. */
            EXPECT_ERR_DEVIATES(CL_INVALID_VALUE, err);
            if (p != NULL && err == CL_SUCCESS)
                CHECK(clEnqueueUnmapMemObject(queue, mem, p, 0, NULL, NULL));
            continue;
        }
        if (err != CL_INVALID_VALUE || p != NULL) {
            fprintf(stderr, "clEnqueueMapBuffer(flags 0x%llx, offset %zu, size %zu) returned %s, expected CL_INVALID_VALUE\n",
                    (unsigned long long)bad[i].flags, bad[i].offset, bad[i].size, cl_error_name(err));
            check_failures++;
        }
    }
    void *p = clEnqueueMapBuffer(queue, NULL, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_MEM_OBJECT, err);
    EXPECT(p == NULL);
    p = clEnqueueMapBuffer(NULL, mem, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_COMMAND_QUEUE, err);
    p = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ, 0, 16, 1, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_EVENT_WAIT_LIST, err);
    EXPECT(p == NULL);
    /* CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST "if the map operation is blocking and the
     * execution status of any of the events in event_wait_list is a negative integer value". */
    if (strict()) { /* PoCL 3.1 blocks forever here */
        cl_event failed = clCreateUserEvent(context, &err);
        CHECK_RET(err);
        CHECK(clSetUserEventStatus(failed, -5));
        p = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ, 0, 16, 1, &failed, NULL, &err);
        EXPECT_RET(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, err);
        EXPECT(p == NULL);
        CHECK(clReleaseEvent(failed));
    }

    /* clEnqueueUnmapMemObject errors. */
    r = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err);
    CHECK_RET(err);
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueUnmapMemObject(queue, NULL, r, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clEnqueueUnmapMemObject(NULL, mem, r, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueUnmapMemObject(queue, mem, r, 1, NULL, NULL));
    cl_mem other = make_buffer(context, CL_MEM_READ_WRITE, N, NULL);
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueUnmapMemObject(queue, other, r, 0, NULL, NULL));
    CHECK(clEnqueueUnmapMemObject(queue, mem, r, 0, NULL, NULL));
    CHECK(clFinish(queue));
    CHECK(clReleaseMemObject(other));
    CHECK(clReleaseMemObject(mem));
    free(data);
}

static void test_migrate(void) {
    cl_mem a = make_buffer(context, CL_MEM_READ_WRITE, 1024, NULL);
    cl_mem b = make_buffer(context, CL_MEM_READ_WRITE, 1024, NULL);
    cl_mem both[] = {a, b};
    unsigned char data[1024];
    fill_pattern(data, sizeof data, 13);
    CHECK(clEnqueueWriteBuffer(queue, a, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
    cl_event migrated = NULL;
    CHECK(clEnqueueMigrateMemObjects(queue, 2, both, 0, 0, NULL, &migrated));
    CHECK(clWaitForEvents(1, &migrated));
    cl_command_type type = 0;
    CHECK(clGetEventInfo(migrated, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_COMMAND_MIGRATE_MEM_OBJECTS);
    CHECK(clReleaseEvent(migrated));
    CHECK(clEnqueueMigrateMemObjects(queue, 1, &a, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
    /* Migration keeps the contents (only CONTENT_UNDEFINED drops them). */
    unsigned char *got = read_all(a, sizeof data);
    EXPECT(memcmp(got, data, sizeof data) == 0);
    free(got);
    CHECK(clEnqueueMigrateMemObjects(queue, 1, &b, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, NULL));
    CHECK(clEnqueueMigrateMemObjects(queue, 2, both, CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
                                     0, NULL, NULL));
    /* "CL_INVALID_VALUE if num_mem_objects is zero or if mem_objects is NULL." "CL_INVALID_VALUE
     * if flags is not 0 or is not any of the values described in the table above." */
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(queue, 0, both, 0, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(queue, 2, NULL, 0, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(queue, 2, both, (cl_mem_migration_flags)1 << 40, 0, NULL, NULL));
    /* "CL_INVALID_MEM_OBJECT if any of the memory objects in mem_objects is not a valid memory
     * object." */
    cl_mem with_null[] = {a, NULL};
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueMigrateMemObjects(queue, 2, with_null, 0, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clEnqueueMigrateMemObjects(NULL, 2, both, 0, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMigrateMemObjects(queue, 2, both, 0, 1, NULL, NULL));
    cl_context other = make_context(device);
    cl_mem foreign = make_buffer(other, CL_MEM_READ_WRITE, 64, NULL);
    cl_mem mixed[] = {a, foreign};
    EXPECT_ERR(CL_INVALID_CONTEXT, clEnqueueMigrateMemObjects(queue, 2, mixed, 0, 0, NULL, NULL));
    CHECK(clReleaseMemObject(foreign));
    CHECK(clReleaseContext(other));
    CHECK(clFinish(queue));
    CHECK(clReleaseMemObject(a));
    CHECK(clReleaseMemObject(b));
}

static void test_mem_info(void) {
    unsigned char host[512];
    cl_mem mem = make_buffer(context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, sizeof host, host);
    struct {
        cl_mem_info param;
        size_t size;
    } queries[] = {
        {CL_MEM_TYPE, sizeof(cl_mem_object_type)},
        {CL_MEM_FLAGS, sizeof(cl_mem_flags)},
        {CL_MEM_SIZE, sizeof(size_t)},
        {CL_MEM_HOST_PTR, sizeof(void *)},
        {CL_MEM_MAP_COUNT, sizeof(cl_uint)},
        {CL_MEM_REFERENCE_COUNT, sizeof(cl_uint)},
        {CL_MEM_CONTEXT, sizeof(cl_context)},
        {CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(cl_mem)},
        {CL_MEM_OFFSET, sizeof(size_t)},
        {CL_MEM_USES_SVM_POINTER, sizeof(cl_bool)},
    };
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        size_t size = 0;
        CHECK(clGetMemObjectInfo(mem, queries[i].param, 0, NULL, &size));
        EXPECT(size == queries[i].size);
        unsigned char value[16];
        /* CL_INVALID_VALUE "if the size in bytes specified by param_value_size is less than size of
         * the return type ... and param_value is not NULL". */
        EXPECT_ERR(CL_INVALID_VALUE, clGetMemObjectInfo(mem, queries[i].param, queries[i].size - 1, value, NULL));
        size_t size_ret = 0;
        CHECK(clGetMemObjectInfo(mem, queries[i].param, sizeof value, value, &size_ret));
        EXPECT(size_ret == queries[i].size);
    }
    cl_mem_object_type type = 0;
    CHECK(clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_MEM_OBJECT_BUFFER);
    EXPECT(mem_flags(mem) == (CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR));
    EXPECT(mem_size_t(mem, CL_MEM_SIZE) == sizeof host);
    EXPECT(mem_ptr(mem, CL_MEM_HOST_PTR) == host);
    EXPECT(mem_ptr(mem, CL_MEM_CONTEXT) == context);
    /* CL_MEM_USES_SVM_POINTER: CL_TRUE only for an SVM host_ptr. */
    EXPECT(mem_uint(mem, CL_MEM_USES_SVM_POINTER) == CL_FALSE);
    size_t size = 0;
    /* CL_INVALID_VALUE "if param_name is not one of the supported values". */
    EXPECT_ERR(CL_INVALID_VALUE, clGetMemObjectInfo(mem, 0x7fff, 0, NULL, &size));
    EXPECT_ERR(CL_INVALID_VALUE, clGetMemObjectInfo(mem, CL_QUEUE_CONTEXT, 0, NULL, &size));
    /* CL_INVALID_MEM_OBJECT "if memobj is not a valid memory object". */
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clGetMemObjectInfo(NULL, CL_MEM_SIZE, 0, NULL, &size));
    if (wrong_type_checks())
        EXPECT_ERR(CL_INVALID_MEM_OBJECT, clGetMemObjectInfo((cl_mem)queue, CL_MEM_SIZE, 0, NULL, &size));
    CHECK(clReleaseMemObject(mem));
}

static atomic_int destructor_calls;
static int destructor_order[4];

static void CL_CALLBACK on_destroy(cl_mem mem, void *user_data) {
    (void)mem;
    int slot = atomic_fetch_add(&destructor_calls, 1);
    if (slot < 4)
        destructor_order[slot] = (int)(intptr_t)user_data;
}

static int wait_calls(int n) {
    for (int i = 0; i < 5000 && atomic_load(&destructor_calls) < n; i++) {
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return atomic_load(&destructor_calls);
}

static void test_reference_counts_and_destructors(void) {
    cl_mem mem = make_buffer(context, CL_MEM_READ_WRITE, 256, NULL);
    EXPECT(mem_uint(mem, CL_MEM_REFERENCE_COUNT) == 1);
    CHECK(clRetainMemObject(mem));
    EXPECT(mem_uint(mem, CL_MEM_REFERENCE_COUNT) == 2);
    CHECK(clReleaseMemObject(mem));
    EXPECT(mem_uint(mem, CL_MEM_REFERENCE_COUNT) == 1);

    /* clSetMemObjectDestructorCallback: "CL_INVALID_VALUE if pfn_notify is NULL" and
     * "CL_INVALID_MEM_OBJECT if memobj is not a valid memory object". */
    EXPECT_ERR(CL_INVALID_VALUE, clSetMemObjectDestructorCallback(mem, NULL, NULL));
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clSetMemObjectDestructorCallback(NULL, on_destroy, NULL));
    /* "The registered callback functions are called in the reverse order in which they were
     * registered." A parent "cannot be deleted until all sub-buffer objects associated with memobj
     * are deleted". */
    CHECK(clSetMemObjectDestructorCallback(mem, on_destroy, (void *)1));
    CHECK(clSetMemObjectDestructorCallback(mem, on_destroy, (void *)2));
    cl_buffer_region region = {0, 64};
    cl_int err = CL_SUCCESS;
    cl_mem sub = clCreateSubBuffer(mem, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK_RET(err);
    CHECK(clSetMemObjectDestructorCallback(sub, on_destroy, (void *)3));
    CHECK(clReleaseMemObject(mem));
    EXPECT(atomic_load(&destructor_calls) == 0);
    CHECK(clReleaseMemObject(sub));
    EXPECT(wait_calls(3) == 3);
    EXPECT(destructor_order[0] == 3 && destructor_order[1] == 2 && destructor_order[2] == 1);

    /* clRetainMemObject / clReleaseMemObject: CL_INVALID_MEM_OBJECT "if memobj is not a valid
     * memory object". */
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clRetainMemObject(NULL));
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clReleaseMemObject(NULL));
    if (wrong_type_checks()) {
        EXPECT_ERR(CL_INVALID_MEM_OBJECT, clRetainMemObject((cl_mem)queue));
        EXPECT_ERR(CL_INVALID_MEM_OBJECT, clReleaseMemObject((cl_mem)context));
    }
}

int main(void) {
    device = first_device();
    context = make_context(device);
    queue = make_queue(context, device);
    test_create_flags();
    test_create_with_properties();
    test_host_ptr();
    test_sub_buffers();
    test_read_write();
    test_host_access_flags();
    test_copy();
    test_fill();
    test_rect();
    test_map();
    test_migrate();
    test_mem_info();
    test_reference_counts_and_destructors();
    CHECK(clReleaseCommandQueue(queue));
    CHECK(clReleaseContext(context));
    return finish();
}
