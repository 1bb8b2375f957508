/* 5.1 Command-Queues: clCreateCommandQueueWithProperties, clCreateCommandQueue,
 * clSetDefaultDeviceCommandQueue, clRetainCommandQueue, clReleaseCommandQueue,
 * clGetCommandQueueInfo; 5.16 clFlush and clFinish. */
#include "check.h"

static cl_uint queue_uint(cl_command_queue queue, cl_command_queue_info param) {
    cl_uint value = 0;
    size_t size = 0;
    CHECK(clGetCommandQueueInfo(queue, param, sizeof value, &value, &size));
    EXPECT(size == sizeof value);
    return value;
}

static cl_command_queue_properties queue_properties(cl_command_queue queue) {
    cl_command_queue_properties value = 0;
    size_t size = 0;
    CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof value, &value, &size));
    EXPECT(size == sizeof value);
    return value;
}

/* CL_QUEUE_PROPERTIES_ARRAY equals `want` (n entries with the terminating 0; n == 0: none). */
static void expect_properties_array(cl_command_queue queue, const cl_queue_properties *want, size_t n) {
    size_t size = (size_t)-1;
    CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &size));
    /* Table 17: "the implementation must return the values specified in the properties argument
     * in the same order and without including additional properties. If command_queue was
     * created using clCreateCommandQueue, or if the properties argument ... was NULL, the
     * implementation must return param_value_size_ret equal to 0". */
    EXPECT(size == n * sizeof(cl_queue_properties));
    if (n > 0 && size == n * sizeof(cl_queue_properties)) {
        cl_queue_properties got[8] = {0};
        REQUIRE(n <= 8);
        CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, size, got, NULL));
        EXPECT(memcmp(got, want, size) == 0);
        EXPECT_ERR(CL_INVALID_VALUE, clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, size - 1, got, NULL));
    }
}

static void test_create_with_properties(cl_context context, cl_device_id device) {
    cl_int err = CL_SUCCESS;
    cl_command_queue_properties supported = device_ulong(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);

    /* NULL properties: an in-order host queue without profiling. */
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_RET(err);
    REQUIRE(queue != NULL);
    EXPECT(queue_properties(queue) == 0);
    expect_properties_array(queue, NULL, 0);
    CHECK(clReleaseCommandQueue(queue));

    /* An empty list is not NULL: it is returned as just the terminating 0. */
    cl_queue_properties empty[] = {0};
    queue = clCreateCommandQueueWithProperties(context, device, empty, &err);
    CHECK_RET(err);
    expect_properties_array(queue, empty, 1);
    CHECK(clReleaseCommandQueue(queue));

    /* Profiling is a mandated host-queue capability (CL_DEVICE_QUEUE_ON_HOST_PROPERTIES). */
    cl_queue_properties profiling[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    queue = clCreateCommandQueueWithProperties(context, device, profiling, NULL);
    REQUIRE(queue != NULL);
    EXPECT(queue_properties(queue) == CL_QUEUE_PROFILING_ENABLE);
    expect_properties_array(queue, profiling, 3);
    CHECK(clReleaseCommandQueue(queue));

    cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE,
                                 0};
    queue = clCreateCommandQueueWithProperties(context, device, ooo, &err);
    if (supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
        CHECK_RET(err);
        EXPECT(queue_properties(queue) == (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
        expect_properties_array(queue, ooo, 3);
        CHECK(clReleaseCommandQueue(queue));
    } else {
        /* "CL_INVALID_QUEUE_PROPERTIES if values specified in properties are valid but are not
         * supported by the device." */
        EXPECT_RET(CL_INVALID_QUEUE_PROPERTIES, err);
        EXPECT(queue == NULL);
    }

    /* "CL_INVALID_VALUE if values specified in properties are not valid": an unknown property
     * name, an unknown bit, CL_QUEUE_SIZE without CL_QUEUE_ON_DEVICE ("This can only be
     * specified if CL_QUEUE_ON_DEVICE is set"), CL_QUEUE_ON_DEVICE without out-of-order ("If
     * CL_QUEUE_ON_DEVICE is set, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE must also be set"),
     * CL_QUEUE_ON_DEVICE_DEFAULT without CL_QUEUE_ON_DEVICE ("This can only be used with
     * CL_QUEUE_ON_DEVICE"). */
    cl_queue_properties unknown[] = {0x7fff, 1, 0};
    cl_queue_properties bad_bit[] = {CL_QUEUE_PROPERTIES, (cl_queue_properties)1 << 40, 0};
    cl_queue_properties size_only[] = {CL_QUEUE_SIZE, 16 * 1024, 0};
    cl_queue_properties on_device_in_order[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};
    cl_queue_properties default_only[] = {CL_QUEUE_PROPERTIES,
                                          CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE_DEFAULT, 0};
    const cl_queue_properties *invalid[] = {unknown, bad_bit, size_only, on_device_in_order, default_only};
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        /* PoCL 3.1 aborts the process on any CL_QUEUE_ON_DEVICE* bit. */
        if (!strict() && (invalid[i] == on_device_in_order || invalid[i] == default_only))
            continue;
        queue = clCreateCommandQueueWithProperties(context, device, invalid[i], &err);
        if (invalid[i] == size_only) {
            /* PoCL 3.1 accepts CL_QUEUE_SIZE on a host queue. */
            EXPECT_ERR_DEVIATES(CL_INVALID_VALUE, err);
            if (queue != NULL && err == CL_SUCCESS)
                CHECK(clReleaseCommandQueue(queue));
            continue;
        }
        if (err != CL_INVALID_VALUE) {
            fprintf(stderr, "queue.c: invalid property list %zu returned %s, expected CL_INVALID_VALUE\n", i,
                    cl_error_name(err));
            check_failures++;
        }
        EXPECT(queue == NULL);
    }

    /* A device queue on a device without device-side enqueue: the list is valid, the device
     * does not support it. */
    cl_ulong enqueue = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof enqueue, &enqueue, NULL));
    cl_queue_properties on_device[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE,
                                       CL_QUEUE_SIZE, 16 * 1024, 0};
    if (!(enqueue & CL_DEVICE_QUEUE_SUPPORTED) && strict()) { /* PoCL 3.1 aborts the process here */
        queue = clCreateCommandQueueWithProperties(context, device, on_device, &err);
        EXPECT_RET(CL_INVALID_QUEUE_PROPERTIES, err);
        EXPECT(queue == NULL);
    }

    /* "CL_INVALID_CONTEXT if context is not a valid context." "CL_INVALID_DEVICE if device is not
     * a valid device or is not associated with context." */
    queue = clCreateCommandQueueWithProperties(NULL, device, NULL, &err);
    EXPECT_RET(CL_INVALID_CONTEXT, err);
    EXPECT(queue == NULL);
    queue = clCreateCommandQueueWithProperties(context, NULL, NULL, &err);
    EXPECT_RET(CL_INVALID_DEVICE, err);
    EXPECT(queue == NULL);
    if (wrong_type_checks()) {
        queue = clCreateCommandQueueWithProperties((cl_context)device, device, NULL, &err);
        EXPECT_RET(CL_INVALID_CONTEXT, err);
        EXPECT(queue == NULL);
        queue = clCreateCommandQueueWithProperties(context, (cl_device_id)context, NULL, &err);
        EXPECT_RET(CL_INVALID_DEVICE, err);
        EXPECT(queue == NULL);
    }
}

/* A sub-device is a device not associated with a context made of its parent. */
static void test_device_not_in_context(cl_context context, cl_device_id device) {
    cl_device_partition_property props[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    cl_device_id sub = NULL;
    cl_uint n = 0;
    if (clCreateSubDevices(device, props, 1, &sub, &n) != CL_SUCCESS)
        return; /* the device cannot be partitioned */
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_DEVICE if device ... is not associated with context." (PoCL 3.1 creates the
     * queue.) */
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, sub, NULL, &err);
    EXPECT_ERR_DEVIATES(CL_INVALID_DEVICE, err);
    if (queue != NULL)
        CHECK(clReleaseCommandQueue(queue));
    queue = clCreateCommandQueue(context, sub, 0, &err);
    EXPECT_ERR_DEVIATES(CL_INVALID_DEVICE, err);
    if (queue != NULL)
        CHECK(clReleaseCommandQueue(queue));
    CHECK(clReleaseDevice(sub));
}

static void test_create_command_queue(cl_context context, cl_device_id device) {
    cl_int err = CL_SUCCESS;
    cl_command_queue_properties supported = device_ulong(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
    cl_command_queue queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK_RET(err);
    EXPECT(queue_properties(queue) == CL_QUEUE_PROFILING_ENABLE);
    expect_properties_array(queue, NULL, 0);
    CHECK(clReleaseCommandQueue(queue));

    queue = clCreateCommandQueue(context, device, 0, &err);
    CHECK_RET(err);
    EXPECT(queue_properties(queue) == 0);
    CHECK(clReleaseCommandQueue(queue));

    queue = clCreateCommandQueue(context, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
        CHECK_RET(err);
        CHECK(clReleaseCommandQueue(queue));
    } else {
        EXPECT_RET(CL_INVALID_QUEUE_PROPERTIES, err);
    }

    /* Table 16: "Only command-queue properties specified in this table can be used, otherwise the
     * value specified in properties is considered to be not valid." */
    queue = clCreateCommandQueue(context, device, (cl_command_queue_properties)1 << 40, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    EXPECT(queue == NULL);
    queue = clCreateCommandQueue(NULL, device, 0, &err);
    EXPECT_RET(CL_INVALID_CONTEXT, err);
    EXPECT(queue == NULL);
    queue = clCreateCommandQueue(context, NULL, 0, &err);
    EXPECT_RET(CL_INVALID_DEVICE, err);
    EXPECT(queue == NULL);
}

static void test_queue_info(cl_context context, cl_device_id device) {
    cl_command_queue queue = make_queue(context, device);
    cl_context got_context = NULL;
    size_t size = 0;
    CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof got_context, &got_context, &size));
    EXPECT(size == sizeof(cl_context) && got_context == context);
    cl_device_id got_device = NULL;
    CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof got_device, &got_device, &size));
    EXPECT(size == sizeof(cl_device_id) && got_device == device);
    EXPECT(queue_uint(queue, CL_QUEUE_REFERENCE_COUNT) == 1);

    /* The size protocol on each fixed-size query. */
    cl_command_queue_info params[] = {CL_QUEUE_CONTEXT, CL_QUEUE_DEVICE, CL_QUEUE_REFERENCE_COUNT, CL_QUEUE_PROPERTIES};
    size_t sizes[] = {sizeof(cl_context), sizeof(cl_device_id), sizeof(cl_uint), sizeof(cl_command_queue_properties)};
    for (size_t i = 0; i < 4; i++) {
        CHECK(clGetCommandQueueInfo(queue, params[i], 0, NULL, &size));
        EXPECT(size == sizes[i]);
        unsigned char value[16];
        /* "CL_INVALID_VALUE if ... the size in bytes specified by param_value_size is less than
         * size of the return type ... and param_value is not NULL." */
        EXPECT_ERR(CL_INVALID_VALUE, clGetCommandQueueInfo(queue, params[i], sizes[i] - 1, value, NULL));
    }

    /* CL_QUEUE_SIZE: "To be considered valid for this query, command_queue must be a device
     * command-queue"; CL_INVALID_COMMAND_QUEUE "if command_queue is not a valid command-queue for
     * param_name". */
    cl_uint queue_size = 0;
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clGetCommandQueueInfo(queue, CL_QUEUE_SIZE, sizeof queue_size, &queue_size, NULL));

    /* CL_QUEUE_DEVICE_DEFAULT: "the current default command-queue for the underlying device";
     * a device without device-side enqueue has none. */
    cl_ulong enqueue = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof enqueue, &enqueue, NULL));
    if (!(enqueue & CL_DEVICE_QUEUE_SUPPORTED)) {
        cl_command_queue default_queue = (cl_command_queue)(uintptr_t)1;
        cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE_DEFAULT, sizeof default_queue, &default_queue, &size);
        if (err == CL_SUCCESS)
            EXPECT(size == sizeof(cl_command_queue) && default_queue == NULL);
        else
            EXPECT_RET(CL_INVALID_COMMAND_QUEUE, err);
    }

    /* "CL_INVALID_VALUE if param_name is not one of the supported values". */
    EXPECT_ERR(CL_INVALID_VALUE, clGetCommandQueueInfo(queue, 0x7fff, 0, NULL, &size));
    EXPECT_ERR(CL_INVALID_VALUE, clGetCommandQueueInfo(queue, CL_CONTEXT_DEVICES, 0, NULL, &size));
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue". */
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clGetCommandQueueInfo(NULL, CL_QUEUE_CONTEXT, 0, NULL, &size));
    if (wrong_type_checks())
        EXPECT_ERR(CL_INVALID_COMMAND_QUEUE,
                   clGetCommandQueueInfo((cl_command_queue)context, CL_QUEUE_CONTEXT, 0, NULL, &size));
    CHECK(clReleaseCommandQueue(queue));
}

static void test_reference_counts(cl_context context, cl_device_id device) {
    cl_command_queue queue = make_queue(context, device);
    CHECK(clRetainCommandQueue(queue));
    EXPECT(queue_uint(queue, CL_QUEUE_REFERENCE_COUNT) == 2);
    CHECK(clReleaseCommandQueue(queue));
    EXPECT(queue_uint(queue, CL_QUEUE_REFERENCE_COUNT) == 1);
    /* Releasing a queue with commands in flight: "After the command_queue reference count
     * becomes zero and all commands queued to command_queue have finished ..., the command-queue
     * is deleted." and it "performs an implicit flush". */
    cl_mem buffer = make_buffer(context, CL_MEM_READ_WRITE, 4096, NULL);
    unsigned char data[4096];
    memset(data, 0x5a, sizeof data);
    cl_event written = NULL;
    CHECK(clEnqueueWriteBuffer(queue, buffer, CL_FALSE, 0, sizeof data, data, 0, NULL, &written));
    CHECK(clReleaseCommandQueue(queue));
    CHECK(clWaitForEvents(1, &written));
    cl_int status = -1;
    CHECK(clGetEventInfo(written, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    EXPECT(status == CL_COMPLETE);
    CHECK(clReleaseEvent(written));
    CHECK(clReleaseMemObject(buffer));

    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue." */
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clRetainCommandQueue(NULL));
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clReleaseCommandQueue(NULL));
    if (wrong_type_checks()) {
        EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clRetainCommandQueue((cl_command_queue)context));
        EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clReleaseCommandQueue((cl_command_queue)context));
    }
}

static void test_flush_finish(cl_context context, cl_device_id device) {
    cl_command_queue queue = make_queue(context, device);
    CHECK(clFlush(queue));
    CHECK(clFinish(queue)); /* an empty queue */
    cl_mem buffer = make_buffer(context, CL_MEM_READ_WRITE, 1 << 20, NULL);
    unsigned char *data = malloc(1 << 20);
    REQUIRE(data != NULL);
    memset(data, 7, 1 << 20);
    cl_event events[8];
    for (int i = 0; i < 8; i++)
        CHECK(clEnqueueWriteBuffer(queue, buffer, CL_FALSE, 0, 1 << 20, data, 0, NULL, &events[i]));
    CHECK(clFlush(queue));
    /* clFinish "blocks until all previously enqueued commands in the command-queue have
     * completed". */
    CHECK(clFinish(queue));
    for (int i = 0; i < 8; i++) {
        cl_int status = -1;
        CHECK(clGetEventInfo(events[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
        EXPECT(status == CL_COMPLETE);
        CHECK(clReleaseEvent(events[i]));
    }
    /* clFlush / clFinish: CL_INVALID_COMMAND_QUEUE "if command_queue is not a valid host
     * command-queue". */
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clFlush(NULL));
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clFinish(NULL));
    if (wrong_type_checks()) {
        EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clFlush((cl_command_queue)buffer));
        EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clFinish((cl_command_queue)context));
    }
    free(data);
    CHECK(clReleaseMemObject(buffer));
    CHECK(clReleaseCommandQueue(queue));
}

static void test_set_default_device_queue(cl_context context, cl_device_id device) {
    cl_ulong enqueue = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof enqueue, &enqueue, NULL));
    if (enqueue & CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT)
        return;
    cl_command_queue queue = make_queue(context, device);
    /* Appendix H: clSetDefaultDeviceCommandQueue "Returns CL_INVALID_OPERATION if device does
     * not support a replaceable default on-device queue", whatever queue is passed: a host queue
     * or none at all. */
    EXPECT_ERR(CL_INVALID_OPERATION, clSetDefaultDeviceCommandQueue(context, device, queue));
    EXPECT_ERR(CL_INVALID_OPERATION, clSetDefaultDeviceCommandQueue(context, device, NULL));
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    EXPECT_ERR(CL_INVALID_CONTEXT, clSetDefaultDeviceCommandQueue(NULL, device, queue));
    CHECK(clReleaseCommandQueue(queue));
}

int main(void) {
    cl_device_id device = first_device();
    cl_context context = make_context(device);
    test_create_with_properties(context, device);
    test_device_not_in_context(context, device);
    test_create_command_queue(context, device);
    test_queue_info(context, device);
    test_reference_counts(context, device);
    test_flush_finish(context, device);
    test_set_default_device_queue(context, device);
    CHECK(clReleaseContext(context));
    return finish();
}
