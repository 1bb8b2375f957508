/* 4.4 Contexts: clCreateContext, clCreateContextFromType, clRetainContext, clReleaseContext,
 * clGetContextInfo and clSetContextDestructorCallback. */
#include "check.h"

#include <stdatomic.h>

static void CL_CALLBACK notify(const char *errinfo, const void *private_info, size_t cb, void *user_data) {
    (void)errinfo;
    (void)private_info;
    (void)cb;
    (void)user_data;
}

static cl_uint context_uint(cl_context context, cl_context_info param) {
    cl_uint value = 0;
    size_t size = 0;
    CHECK(clGetContextInfo(context, param, sizeof value, &value, &size));
    EXPECT(size == sizeof value);
    return value;
}

/* The context's CL_CONTEXT_PROPERTIES equal `want` (`n` entries, the terminating 0 included);
 * n == 0 means the context was created with NULL properties. */
static void expect_properties(cl_context context, const cl_context_properties *want, size_t n) {
    size_t size = (size_t)-1;
    CHECK(clGetContextInfo(context, CL_CONTEXT_PROPERTIES, 0, NULL, &size));
    /* Table 14: "the implementation must return the values specified in the properties argument
     * in the same order and without including additional properties" and, for NULL properties,
     * "must return param_value_size_ret equal to 0". */
    EXPECT(size == n * sizeof(cl_context_properties));
    if (size == n * sizeof(cl_context_properties) && n > 0) {
        cl_context_properties got[16] = {0};
        REQUIRE(n <= 16);
        CHECK(clGetContextInfo(context, CL_CONTEXT_PROPERTIES, size, got, NULL));
        EXPECT(memcmp(got, want, size) == 0);
    }
}

static void test_create_context(cl_platform_id platform, cl_device_id device) {
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_RET(err);
    REQUIRE(context != NULL);
    EXPECT(context_uint(context, CL_CONTEXT_REFERENCE_COUNT) == 1);
    EXPECT(context_uint(context, CL_CONTEXT_NUM_DEVICES) == 1);
    cl_device_id got = NULL;
    size_t size = 0;
    CHECK(clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof got, &got, &size));
    EXPECT(size == sizeof got && got == device);
    expect_properties(context, NULL, 0);
    CHECK(clReleaseContext(context));

    /* With the platform property, a callback with user data, and no errcode_ret. */
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    int data = 0;
    context = clCreateContext(props, 1, &device, notify, &data, NULL);
    REQUIRE(context != NULL);
    expect_properties(context, props, 3);
    CHECK(clReleaseContext(context));

    /* CL_CONTEXT_INTEROP_USER_SYNC (Table 13), in either order with the platform. */
    cl_context_properties sync[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, CL_CONTEXT_PLATFORM,
                                    (cl_context_properties)platform, 0};
    context = clCreateContext(sync, 1, &device, NULL, NULL, &err);
    CHECK_RET(err);
    expect_properties(context, sync, 5);
    CHECK(clReleaseContext(context));

    /* [10]: "Duplicate devices specified in devices are ignored." */
    cl_device_id twice[] = {device, device};
    context = clCreateContext(NULL, 2, twice, NULL, NULL, &err);
    CHECK_RET(err);
    EXPECT(context_uint(context, CL_CONTEXT_NUM_DEVICES) == 1);
    CHECK(clReleaseContext(context));
}

static void test_create_context_errors(cl_platform_id platform, cl_device_id device) {
    cl_int err = CL_SUCCESS;
    cl_context context;
    /* 4.4: CL_INVALID_VALUE "if devices is NULL", "if num_devices is equal to zero", "if
     * pfn_notify is NULL but user_data is not NULL". */
    context = clCreateContext(NULL, 1, NULL, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    EXPECT(context == NULL);
    context = clCreateContext(NULL, 0, &device, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    EXPECT(context == NULL);
    int data = 0;
    context = clCreateContext(NULL, 1, &device, NULL, &data, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    EXPECT(context == NULL);

    /* 4.4: CL_INVALID_PROPERTY "if a context property name in properties is not a supported
     * property name, if the value specified for a supported property name is not valid, or if the
     * same property name is specified more than once." */
    cl_context_properties unknown[] = {0x7fff, 1, 0};
    context = clCreateContext(unknown, 1, &device, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_PROPERTY, err);
    EXPECT(context == NULL);
    cl_context_properties duplicate[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, CL_CONTEXT_PLATFORM,
                                         (cl_context_properties)platform, 0};
    context = clCreateContext(duplicate, 1, &device, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_PROPERTY, err);
    EXPECT(context == NULL);
    cl_context_properties sync_twice[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, CL_CONTEXT_INTEROP_USER_SYNC,
                                          CL_FALSE, 0};
    context = clCreateContext(sync_twice, 1, &device, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_PROPERTY, err);
    EXPECT(context == NULL);

    /* 4.4: CL_INVALID_DEVICE "if any device in devices is not a valid device". */
    cl_device_id with_null[] = {device, NULL};
    context = clCreateContext(NULL, 2, with_null, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_DEVICE, err);
    EXPECT(context == NULL);

    if (wrong_type_checks()) {
        cl_context other = make_context(device);
        cl_device_id wrong[] = {device, (cl_device_id)other};
        context = clCreateContext(NULL, 2, wrong, NULL, NULL, &err);
        EXPECT_RET(CL_INVALID_DEVICE, err);
        EXPECT(context == NULL);
        /* CL_INVALID_PLATFORM "if the platform specified in properties is not a valid platform". */
        cl_context_properties bad_platform[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)other, 0};
        context = clCreateContext(bad_platform, 1, &device, NULL, NULL, &err);
        EXPECT_RET(CL_INVALID_PLATFORM, err);
        EXPECT(context == NULL);
        CHECK(clReleaseContext(other));
    }
}

static void test_create_context_from_type(cl_platform_id platform, cl_device_id device) {
    cl_int err = CL_SUCCESS;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_uint all = 0;
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &all));

    cl_context context = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, NULL, NULL, &err);
    CHECK_RET(err);
    /* [11]: it "may create a context for all or a subset of the actual physical devices". */
    cl_uint n = context_uint(context, CL_CONTEXT_NUM_DEVICES);
    EXPECT(n >= 1 && n <= all);
    expect_properties(context, props, 3);
    CHECK(clReleaseContext(context));

    cl_device_type type = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL));
    context = clCreateContextFromType(props, type, notify, NULL, &err);
    CHECK_RET(err);
    cl_device_id got[8] = {0};
    CHECK(clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof got, got, NULL));
    cl_device_type got_type = 0;
    CHECK(clGetDeviceInfo(got[0], CL_DEVICE_TYPE, sizeof got_type, &got_type, NULL));
    EXPECT(got_type == type);
    CHECK(clReleaseContext(context));

    context = clCreateContextFromType(props, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &err);
    CHECK_RET(err);
    EXPECT(context_uint(context, CL_CONTEXT_NUM_DEVICES) == 1);
    CHECK(clReleaseContext(context));

    /* CL_DEVICE_NOT_FOUND "if no devices that match device_type and property values specified in
     * properties were found". */
    cl_device_type types[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        cl_uint count = 0;
        if (clGetDeviceIDs(platform, types[i], 0, NULL, &count) == CL_DEVICE_NOT_FOUND) {
            context = clCreateContextFromType(props, types[i], NULL, NULL, &err);
            EXPECT_RET(CL_DEVICE_NOT_FOUND, err);
            /* "Otherwise, it returns a NULL value" (PoCL 3.1 returns a non-NULL handle). */
            EXPECT_DEVIATES(context == NULL);
        }
    }
    /* CL_INVALID_DEVICE_TYPE "if device_type is not a valid value". (PoCL 3.1 answers
     * CL_DEVICE_NOT_FOUND.) */
    context = clCreateContextFromType(props, (cl_device_type)1 << 40, NULL, NULL, &err);
    EXPECT_ERR_DEVIATES(CL_INVALID_DEVICE_TYPE, err);
    EXPECT_DEVIATES(context == NULL);
    /* CL_INVALID_VALUE "if pfn_notify is NULL but user_data is not NULL". */
    int data = 0;
    context = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, NULL, &data, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    EXPECT(context == NULL);
    /* CL_INVALID_PROPERTY: unknown and repeated names. */
    cl_context_properties unknown[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0x7fff, 1, 0};
    context = clCreateContextFromType(unknown, CL_DEVICE_TYPE_ALL, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_PROPERTY, err);
    EXPECT(context == NULL);
    cl_context_properties duplicate[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, CL_CONTEXT_PLATFORM,
                                         (cl_context_properties)platform, 0};
    context = clCreateContextFromType(duplicate, CL_DEVICE_TYPE_ALL, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_PROPERTY, err);
    EXPECT(context == NULL);
}

static void test_reference_counts(cl_device_id device) {
    cl_context context = make_context(device);
    CHECK(clRetainContext(context));
    CHECK(clRetainContext(context));
    EXPECT(context_uint(context, CL_CONTEXT_REFERENCE_COUNT) == 3);
    CHECK(clReleaseContext(context));
    EXPECT(context_uint(context, CL_CONTEXT_REFERENCE_COUNT) == 2);
    CHECK(clReleaseContext(context));
    EXPECT(context_uint(context, CL_CONTEXT_REFERENCE_COUNT) == 1);
    CHECK(clReleaseContext(context));

    /* clRetainContext / clReleaseContext: CL_INVALID_CONTEXT "if context is not a valid OpenCL
     * context". */
    EXPECT_ERR(CL_INVALID_CONTEXT, clRetainContext(NULL));
    EXPECT_ERR(CL_INVALID_CONTEXT, clReleaseContext(NULL));
    if (wrong_type_checks()) {
        EXPECT_ERR(CL_INVALID_CONTEXT, clRetainContext((cl_context)device));
        EXPECT_ERR(CL_INVALID_CONTEXT, clReleaseContext((cl_context)device));
    }
}

static void test_context_info(cl_device_id device) {
    cl_context context = make_context(device);
    cl_context_info params[] = {CL_CONTEXT_REFERENCE_COUNT, CL_CONTEXT_NUM_DEVICES, CL_CONTEXT_DEVICES};
    size_t sizes[] = {sizeof(cl_uint), sizeof(cl_uint), sizeof(cl_device_id)};
    for (size_t i = 0; i < 3; i++) {
        size_t size = 0;
        CHECK(clGetContextInfo(context, params[i], 0, NULL, &size));
        EXPECT(size == sizes[i]);
        unsigned char value[64];
        /* CL_INVALID_VALUE "if the size in bytes specified by param_value_size is less than size
         * of the return type ... and param_value is not NULL". */
        EXPECT_ERR(CL_INVALID_VALUE, clGetContextInfo(context, params[i], size - 1, value, NULL));
        size_t size_ret = 0;
        CHECK(clGetContextInfo(context, params[i], sizeof value, value, &size_ret));
        EXPECT(size_ret == size);
    }
    size_t size = 0;
    /* CL_INVALID_VALUE "if param_name is not one of the supported values". */
    EXPECT_ERR(CL_INVALID_VALUE, clGetContextInfo(context, 0x7fff, 0, NULL, &size));
    EXPECT_ERR(CL_INVALID_VALUE, clGetContextInfo(context, CL_DEVICE_NAME, 0, NULL, &size));
    /* CL_INVALID_CONTEXT "if context is not a valid context". */
    EXPECT_ERR(CL_INVALID_CONTEXT, clGetContextInfo(NULL, CL_CONTEXT_NUM_DEVICES, 0, NULL, &size));
    if (wrong_type_checks())
        EXPECT_ERR(CL_INVALID_CONTEXT, clGetContextInfo((cl_context)device, CL_CONTEXT_NUM_DEVICES, 0, NULL, &size));
    CHECK(clReleaseContext(context));
}

/* Destructor callbacks record their order here. */
static atomic_int destructor_calls;
static int destructor_order[4];
static cl_context destructor_context;

static void CL_CALLBACK on_destroy(cl_context context, void *user_data) {
    int slot = atomic_fetch_add(&destructor_calls, 1);
    if (slot < 4)
        destructor_order[slot] = (int)(intptr_t)user_data;
    if (context != destructor_context)
        destructor_order[slot < 4 ? slot : 3] = -1;
}

/* Waits up to 5 s for `n` destructor calls (the callbacks "may be called asynchronously"). */
static int wait_destructor_calls(int n) {
    for (int i = 0; i < 5000 && atomic_load(&destructor_calls) < n; i++) {
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return atomic_load(&destructor_calls);
}

static void test_destructor_callbacks(cl_device_id device) {
    cl_context context = make_context(device);
    destructor_context = context;
    /* "CL_INVALID_VALUE if pfn_notify is NULL." */
    EXPECT_ERR(CL_INVALID_VALUE, clSetContextDestructorCallback(context, NULL, NULL));
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    EXPECT_ERR(CL_INVALID_CONTEXT, clSetContextDestructorCallback(NULL, on_destroy, NULL));
    if (wrong_type_checks())
        EXPECT_ERR(CL_INVALID_CONTEXT, clSetContextDestructorCallback((cl_context)device, on_destroy, NULL));

    CHECK(clSetContextDestructorCallback(context, on_destroy, (void *)1));
    CHECK(clSetContextDestructorCallback(context, on_destroy, (void *)2));
    CHECK(clSetContextDestructorCallback(context, on_destroy, (void *)3));
    /* A command-queue keeps the context alive: "After the reference count becomes zero and all
     * the objects attached to context (such as memory objects, command-queues) are released, the
     * context is deleted." */
    cl_command_queue queue = make_queue(context, device);
    CHECK(clRetainContext(context));
    CHECK(clReleaseContext(context));
    EXPECT(atomic_load(&destructor_calls) == 0);
    CHECK(clReleaseContext(context));
    EXPECT(atomic_load(&destructor_calls) == 0);
    /* Not deleted yet, so still a valid context: the queue's CL_QUEUE_CONTEXT "Return[s] the
     * context specified when the command-queue is created", which a library that only holds
     * the queue may query and retain (PyOpenCL's CommandQueue.context does). */
    cl_context attached = NULL;
    CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof attached, &attached, NULL));
    EXPECT(attached == context);
    EXPECT(context_uint(attached, CL_CONTEXT_NUM_DEVICES) == 1);
    CHECK(clRetainContext(attached));
    cl_mem buffer = make_buffer(attached, CL_MEM_READ_WRITE, 64, NULL);
    CHECK(clReleaseContext(attached));
    CHECK(clRetainContext(attached));
    CHECK(clReleaseContext(attached));
    EXPECT(atomic_load(&destructor_calls) == 0);
    CHECK(clReleaseCommandQueue(queue));
    /* The buffer holds it still. */
    EXPECT(atomic_load(&destructor_calls) == 0);
    CHECK(clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof attached, &attached, NULL));
    EXPECT(attached == context);
    CHECK(clRetainContext(attached));
    CHECK(clReleaseContext(attached));
    CHECK(clReleaseMemObject(buffer));
    /* "The registered callback functions are called in the reverse order in which they were
     * registered." */
    EXPECT(wait_destructor_calls(3) == 3);
    EXPECT(destructor_order[0] == 3 && destructor_order[1] == 2 && destructor_order[2] == 1);
}

int main(void) {
    cl_platform_id platform = first_platform();
    cl_device_id device = first_device();
    test_create_context(platform, device);
    test_create_context_errors(platform, device);
    test_create_context_from_type(platform, device);
    test_reference_counts(device);
    test_context_info(device);
    test_destructor_callbacks(device);
    return finish();
}
