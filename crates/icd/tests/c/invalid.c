/* Invalid handles: every entry point that takes an object answers NULL, and a handle of another
 * object type, with that object's CL_INVALID_* code (the "if X is not a valid X" sentence of each
 * entry point's error list), never with a crash. NULL is often answered by the ICD loader
 * itself; a handle of the wrong type reaches the implementation, which must check the type. */
#include "check.h"

/* Runs `call` twice, with BAD = NULL and with BAD = `wrong` cast to `type` (the second only when
 * wrong-type checks are on), expecting `code` (or `code2`, where the spec gives two codes that
 * both apply and orders neither first) each time. */
#define EXPECT_INVALID_EITHER(code, code2, type, wrong, call)                                           \
    do {                                                                                                \
        for (int pass_ = 0; pass_ < 2; pass_++) {                                                       \
            if (pass_ == 1 && !wrong_type_checks())                                                     \
                break;                                                                                  \
            type BAD = pass_ == 0 ? (type)NULL : (type)(wrong);                                         \
            cl_int got_ = (call);                                                                       \
            if (got_ != (code) && got_ != (code2)) {                                                    \
                fprintf(stderr, "%s:%d: %s with %s returned %s (%d), expected %s\n", __FILE__, __LINE__, \
                        #call, pass_ == 0 ? "NULL" : "a " #wrong " handle", cl_error_name(got_), got_,     \
                        cl_error_name(code));                                                           \
                check_failures++;                                                                       \
            }                                                                                           \
        }                                                                                               \
    } while (0)

#define EXPECT_INVALID(code, type, wrong, call) EXPECT_INVALID_EITHER(code, code, type, wrong, call)

/* The same for a creator: `call` stores its code in `err` and must return NULL. */
#define EXPECT_INVALID_RET_EITHER(code, code2, type, wrong, call)                                       \
    do {                                                                                                \
        for (int pass_ = 0; pass_ < 2; pass_++) {                                                       \
            if (pass_ == 1 && !wrong_type_checks())                                                     \
                break;                                                                                  \
            type BAD = pass_ == 0 ? (type)NULL : (type)(wrong);                                         \
            err = CL_SUCCESS;                                                                           \
            void *made_ = (void *)(call);                                                               \
            if ((err != (code) && err != (code2)) || made_ != NULL) {                                   \
                fprintf(stderr, "%s:%d: %s with %s returned %s (%d) and %p, expected %s and NULL\n",     \
                        __FILE__, __LINE__, #call, pass_ == 0 ? "NULL" : "a " #wrong " handle",         \
                        cl_error_name(err), err, made_, cl_error_name(code));                           \
                check_failures++;                                                                       \
            }                                                                                           \
        }                                                                                               \
    } while (0)

#define EXPECT_INVALID_RET(code, type, wrong, call) EXPECT_INVALID_RET_EITHER(code, code, type, wrong, call)

/* Only the wrong-type pass (for parameters where NULL means something else). */
#define EXPECT_WRONG_TYPE(code, type, wrong, call)                                                      \
    do {                                                                                                \
        if (wrong_type_checks()) {                                                                      \
            type BAD = (type)(wrong);                                                                   \
            EXPECT_ERR(code, call);                                                                     \
        }                                                                                               \
    } while (0)

static void CL_CALLBACK context_destroyed(cl_context c, void *user_data) {
    (void)c;
    (void)user_data;
}

static void CL_CALLBACK mem_destroyed(cl_mem m, void *user_data) {
    (void)m;
    (void)user_data;
}

static void CL_CALLBACK event_notify(cl_event e, cl_int status, void *user_data) {
    (void)e;
    (void)status;
    (void)user_data;
}

static void CL_CALLBACK native_noop(void *args) {
    (void)args;
}

static void CL_CALLBACK program_released(cl_program p, void *user_data) {
    (void)p;
    (void)user_data;
}

int main(void) {
    cl_device_id device = first_device();
    cl_context context = make_context(device);
    cl_command_queue queue = make_queue(context, device);
    cl_mem buffer = make_buffer(context, CL_MEM_READ_WRITE, 1024, NULL);
    cl_int err = CL_SUCCESS;
    cl_event event = clCreateUserEvent(context, &err);
    CHECK_RET(err);
    unsigned char host[1024] = {0};
    size_t size = 0;
    cl_uint count = 0;
    size_t origin[3] = {0, 0, 0}, region[3] = {4, 1, 1};

    /* 4.1 clGetPlatformInfo, 4.2 clGetDeviceIDs: CL_INVALID_PLATFORM "if platform is not a valid
     * platform" (NULL platform is implementation-defined there, so only the wrong type). */
    EXPECT_WRONG_TYPE(CL_INVALID_PLATFORM, cl_platform_id, context, clGetPlatformInfo(BAD, CL_PLATFORM_NAME, 0, NULL, &size));
    EXPECT_WRONG_TYPE(CL_INVALID_PLATFORM, cl_platform_id, device, clGetDeviceIDs(BAD, CL_DEVICE_TYPE_ALL, 0, NULL, &count));
    /* clUnloadPlatformCompiler: CL_INVALID_PLATFORM "if platform is not a valid platform". */
    /* (ocl-icd sends a NULL platform to its default platform, so only the wrong type.) */
    EXPECT_WRONG_TYPE(CL_INVALID_PLATFORM, cl_platform_id, context, clUnloadPlatformCompiler(BAD));

    /* 4.2 / 4.3: CL_INVALID_DEVICE "if device is not a valid device". */
    EXPECT_INVALID(CL_INVALID_DEVICE, cl_device_id, context, clGetDeviceInfo(BAD, CL_DEVICE_NAME, 0, NULL, &size));
    EXPECT_INVALID(CL_INVALID_DEVICE, cl_device_id, context, clRetainDevice(BAD));
    EXPECT_INVALID(CL_INVALID_DEVICE, cl_device_id, context, clReleaseDevice(BAD));
    cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id sub[8];
    EXPECT_INVALID(CL_INVALID_DEVICE, cl_device_id, queue, clCreateSubDevices(BAD, equally, 8, sub, &count));
    cl_ulong t1 = 0, t2 = 0;
    EXPECT_INVALID(CL_INVALID_DEVICE, cl_device_id, queue, clGetDeviceAndHostTimer(BAD, &t1, &t2));
    EXPECT_INVALID(CL_INVALID_DEVICE, cl_device_id, queue, clGetHostTimer(BAD, &t1));

    /* 4.4: CL_INVALID_CONTEXT "if context is not a valid context". */
    EXPECT_INVALID(CL_INVALID_CONTEXT, cl_context, queue, clRetainContext(BAD));
    EXPECT_INVALID(CL_INVALID_CONTEXT, cl_context, queue, clReleaseContext(BAD));
    EXPECT_INVALID(CL_INVALID_CONTEXT, cl_context, queue, clGetContextInfo(BAD, CL_CONTEXT_NUM_DEVICES, 0, NULL, &size));
    EXPECT_INVALID(CL_INVALID_CONTEXT, cl_context, buffer, clSetContextDestructorCallback(BAD, context_destroyed, NULL));
    /* Creators taking a context. */
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, queue, clCreateCommandQueueWithProperties(BAD, device, NULL, &err));
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, queue, clCreateCommandQueue(BAD, device, 0, &err));
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, queue, clCreateBuffer(BAD, 0, 64, NULL, &err));
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, buffer, clCreateBufferWithProperties(BAD, NULL, 0, 64, NULL, &err));
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, event, clCreateUserEvent(BAD, &err));
    const char *source = "kernel void k(global int *p) { p[0] = 1; }";
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, queue, clCreateProgramWithSource(BAD, 1, &source, NULL, &err));
    unsigned char il[20] = {0x03, 0x02, 0x23, 0x07};
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, queue, clCreateProgramWithIL(BAD, il, sizeof il, &err));
    const unsigned char *binary = il;
    size_t binary_size = sizeof il;
    cl_int binary_status = 0;
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, queue,
                       clCreateProgramWithBinary(BAD, 1, &device, &binary_size, &binary, &binary_status, &err));
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, queue,
                       clCreateProgramWithBuiltInKernels(BAD, 1, &device, "none", &err));
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, queue, clCreateSamplerWithProperties(BAD, NULL, &err));
    cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, queue, clCreateImage(BAD, CL_MEM_READ_WRITE, &format, &desc, NULL, &err));
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, queue,
                       clCreateImageWithProperties(BAD, NULL, CL_MEM_READ_WRITE, &format, &desc, NULL, &err));
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, queue, clCreatePipe(BAD, CL_MEM_READ_WRITE, 4, 16, NULL, &err));
    EXPECT_INVALID(CL_INVALID_CONTEXT, cl_context, queue,
                   clGetSupportedImageFormats(BAD, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &count));
    EXPECT_INVALID(CL_INVALID_CONTEXT, cl_context, queue, clSetDefaultDeviceCommandQueue(BAD, device, queue));

    /* 5.1 / 5.16: CL_INVALID_COMMAND_QUEUE "if command_queue is not a valid (host) command-queue". */
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context, clRetainCommandQueue(BAD));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context, clReleaseCommandQueue(BAD));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clGetCommandQueueInfo(BAD, CL_QUEUE_CONTEXT, 0, NULL, &size));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context, clFlush(BAD));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context, clFinish(BAD));
    /* Every enqueue. */
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, buffer,
                   clEnqueueReadBuffer(BAD, buffer, CL_TRUE, 0, 4, host, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, buffer,
                   clEnqueueWriteBuffer(BAD, buffer, CL_TRUE, 0, 4, host, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, buffer,
                   clEnqueueReadBufferRect(BAD, buffer, CL_TRUE, origin, origin, region, 0, 0, 0, 0, host, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, buffer,
                   clEnqueueWriteBufferRect(BAD, buffer, CL_TRUE, origin, origin, region, 0, 0, 0, 0, host, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueCopyBuffer(BAD, buffer, buffer, 0, 512, 4, 0, NULL, NULL));
    size_t far[3] = {512, 0, 0};
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueCopyBufferRect(BAD, buffer, buffer, origin, far, region, 0, 0, 0, 0, 0, NULL, NULL));
    cl_uint pattern = 0;
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueFillBuffer(BAD, buffer, &pattern, 4, 0, 4, 0, NULL, NULL));
    EXPECT_INVALID_RET(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                       clEnqueueMapBuffer(BAD, buffer, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueUnmapMemObject(BAD, buffer, host, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueMigrateMemObjects(BAD, 1, &buffer, 0, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context, clEnqueueMarkerWithWaitList(BAD, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context, clEnqueueBarrierWithWaitList(BAD, 0, NULL, NULL));
    cl_event out = NULL;
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context, clEnqueueMarker(BAD, &out));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context, clEnqueueBarrier(BAD));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context, clEnqueueWaitForEvents(BAD, 1, &event));
    size_t global = 1;
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueNDRangeKernel(BAD, NULL, 1, NULL, &global, NULL, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context, clEnqueueTask(BAD, NULL, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueSVMMemcpy(BAD, CL_TRUE, host, host + 512, 4, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueSVMMemFill(BAD, host, &pattern, 4, 4, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueSVMMap(BAD, CL_TRUE, CL_MAP_READ, host, 4, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context, clEnqueueSVMUnmap(BAD, host, 0, NULL, NULL));
    /* The image, native-kernel and remaining SVM enqueues: every slot of the dispatch table that
     * takes a queue answers. */
    size_t image_origin[3] = {0, 0, 0}, image_region[3] = {1, 1, 1}, pitch = 0;
    cl_float color[4] = {0, 0, 0, 0};
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueReadImage(BAD, buffer, CL_TRUE, image_origin, image_region, 0, 0, host, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueWriteImage(BAD, buffer, CL_TRUE, image_origin, image_region, 0, 0, host, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueFillImage(BAD, buffer, color, image_origin, image_region, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueCopyImage(BAD, buffer, buffer, image_origin, image_origin, image_region, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueCopyImageToBuffer(BAD, buffer, buffer, image_origin, image_region, 0, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueCopyBufferToImage(BAD, buffer, buffer, 0, image_origin, image_region, 0, NULL, NULL));
    EXPECT_INVALID_RET(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                       clEnqueueMapImage(BAD, buffer, CL_TRUE, CL_MAP_READ, image_origin, image_region, &pitch, &pitch,
                                         0, NULL, NULL, &err));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueNativeKernel(BAD, native_noop, host, 4, 0, NULL, NULL, 0, NULL, NULL));
    void *svm_pointers[] = {host};
    const void *svm_const[] = {host};
    size_t svm_sizes[] = {4};
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueSVMFree(BAD, 1, svm_pointers, NULL, NULL, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_COMMAND_QUEUE, cl_command_queue, context,
                   clEnqueueSVMMigrateMem(BAD, 1, svm_const, svm_sizes, 0, 0, NULL, NULL));
    /* clSetCommandQueueProperty (deprecated, 1.0) "may unconditionally return an error" with
     * CL_INVALID_OPERATION; otherwise an invalid queue is CL_INVALID_COMMAND_QUEUE. */
    if (wrong_type_checks()) {
        cl_command_queue_properties old = 0;
        err = clSetCommandQueueProperty((cl_command_queue)context, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old);
        EXPECT(err == CL_INVALID_COMMAND_QUEUE || err == CL_INVALID_OPERATION);
    }

    /* And clCreateCommandQueue* given a wrong device: CL_INVALID_DEVICE "if device is not a valid
     * device or is not associated with context". */
    EXPECT_INVALID_RET(CL_INVALID_DEVICE, cl_device_id, context, clCreateCommandQueueWithProperties(context, BAD, NULL, &err));
    EXPECT_INVALID_RET(CL_INVALID_DEVICE, cl_device_id, context, clCreateCommandQueue(context, BAD, 0, &err));

    /* 5.2 / 5.5: CL_INVALID_MEM_OBJECT "if memobj is not a valid memory object". */
    EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, queue, clRetainMemObject(BAD));
    EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, queue, clReleaseMemObject(BAD));
    EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, queue, clGetMemObjectInfo(BAD, CL_MEM_SIZE, 0, NULL, &size));
    EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, queue, clSetMemObjectDestructorCallback(BAD, mem_destroyed, NULL));
    EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, queue, clGetImageInfo(BAD, CL_IMAGE_WIDTH, 0, NULL, &size));
    EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, queue, clGetPipeInfo(BAD, CL_PIPE_MAX_PACKETS, 0, NULL, &size));
    cl_buffer_region part = {0, 64};
    EXPECT_INVALID_RET(CL_INVALID_MEM_OBJECT, cl_mem, queue,
                       clCreateSubBuffer(BAD, 0, CL_BUFFER_CREATE_TYPE_REGION, &part, &err));
    EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, event, clEnqueueReadBuffer(queue, BAD, CL_TRUE, 0, 4, host, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, event, clEnqueueWriteBuffer(queue, BAD, CL_TRUE, 0, 4, host, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, event,
                   clEnqueueReadBufferRect(queue, BAD, CL_TRUE, origin, origin, region, 0, 0, 0, 0, host, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, event,
                   clEnqueueWriteBufferRect(queue, BAD, CL_TRUE, origin, origin, region, 0, 0, 0, 0, host, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, event, clEnqueueCopyBuffer(queue, BAD, buffer, 0, 0, 4, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, event, clEnqueueCopyBuffer(queue, buffer, BAD, 0, 0, 4, 0, NULL, NULL));
    if (strict()) /* PoCL 3.1 dereferences a NULL buffer here */
        EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, event,
                       clEnqueueCopyBufferRect(queue, BAD, buffer, origin, far, region, 0, 0, 0, 0, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, event, clEnqueueFillBuffer(queue, BAD, &pattern, 4, 0, 4, 0, NULL, NULL));
    EXPECT_INVALID_RET(CL_INVALID_MEM_OBJECT, cl_mem, event,
                       clEnqueueMapBuffer(queue, BAD, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err));
    EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, event, clEnqueueUnmapMemObject(queue, BAD, host, 0, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_MEM_OBJECT, cl_mem, event, clEnqueueMigrateMemObjects(queue, 1, &BAD, 0, 0, NULL, NULL));

    /* 5.11: CL_INVALID_EVENT "if event is not a valid event object"; in wait lists,
     * CL_INVALID_EVENT_WAIT_LIST "if event objects in event_wait_list are not valid events". */
    EXPECT_INVALID(CL_INVALID_EVENT, cl_event, buffer, clRetainEvent(BAD));
    EXPECT_INVALID(CL_INVALID_EVENT, cl_event, buffer, clReleaseEvent(BAD));
    EXPECT_INVALID(CL_INVALID_EVENT, cl_event, buffer, clGetEventInfo(BAD, CL_EVENT_CONTEXT, 0, NULL, &size));
    EXPECT_INVALID(CL_INVALID_EVENT, cl_event, buffer, clSetUserEventStatus(BAD, CL_COMPLETE));
    EXPECT_INVALID(CL_INVALID_EVENT, cl_event, buffer, clSetEventCallback(BAD, CL_COMPLETE, event_notify, NULL));
    EXPECT_INVALID(CL_INVALID_EVENT, cl_event, buffer,
                   clGetEventProfilingInfo(BAD, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    EXPECT_INVALID(CL_INVALID_EVENT, cl_event, buffer, clWaitForEvents(1, &BAD));
    EXPECT_INVALID(CL_INVALID_EVENT_WAIT_LIST, cl_event, buffer,
                   clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, 4, host, 1, &BAD, NULL));
    EXPECT_INVALID(CL_INVALID_EVENT_WAIT_LIST, cl_event, buffer,
                   clEnqueueWriteBuffer(queue, buffer, CL_FALSE, 0, 4, host, 1, &BAD, NULL));
    EXPECT_INVALID(CL_INVALID_EVENT_WAIT_LIST, cl_event, buffer,
                   clEnqueueCopyBuffer(queue, buffer, buffer, 0, 512, 4, 1, &BAD, NULL));
    EXPECT_INVALID(CL_INVALID_EVENT_WAIT_LIST, cl_event, buffer,
                   clEnqueueFillBuffer(queue, buffer, &pattern, 4, 0, 4, 1, &BAD, NULL));
    EXPECT_INVALID(CL_INVALID_EVENT_WAIT_LIST, cl_event, buffer, clEnqueueMarkerWithWaitList(queue, 1, &BAD, NULL));
    EXPECT_INVALID(CL_INVALID_EVENT_WAIT_LIST, cl_event, buffer, clEnqueueBarrierWithWaitList(queue, 1, &BAD, NULL));
    EXPECT_INVALID(CL_INVALID_EVENT_WAIT_LIST, cl_event, buffer,
                   clEnqueueMigrateMemObjects(queue, 1, &buffer, 0, 1, &BAD, NULL));

    /* Image arguments that are not memory objects: CL_INVALID_MEM_OBJECT "if image is not a valid
     * image object"; on a device without images CL_INVALID_OPERATION "if the device associated
     * with command_queue does not support images" applies too. */
    cl_int no_images = device_uint(device, CL_DEVICE_IMAGE_SUPPORT) ? CL_INVALID_MEM_OBJECT : CL_INVALID_OPERATION;
    EXPECT_INVALID_EITHER(CL_INVALID_MEM_OBJECT, no_images, cl_mem, event,
                          clEnqueueReadImage(queue, BAD, CL_TRUE, image_origin, image_region, 0, 0, host, 0, NULL, NULL));
    EXPECT_INVALID_EITHER(CL_INVALID_MEM_OBJECT, no_images, cl_mem, event,
                          clEnqueueWriteImage(queue, BAD, CL_TRUE, image_origin, image_region, 0, 0, host, 0, NULL, NULL));
    EXPECT_INVALID_EITHER(CL_INVALID_MEM_OBJECT, no_images, cl_mem, event,
                          clEnqueueFillImage(queue, BAD, color, image_origin, image_region, 0, NULL, NULL));
    EXPECT_INVALID_RET_EITHER(CL_INVALID_MEM_OBJECT, no_images, cl_mem, event,
                              clEnqueueMapImage(queue, BAD, CL_TRUE, CL_MAP_READ, image_origin, image_region, &pitch,
                                                &pitch, 0, NULL, NULL, &err));
    /* Creators of the 1.x image and sampler API. */
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, queue,
                       clCreateImage2D(BAD, CL_MEM_READ_WRITE, &format, 4, 4, 0, NULL, &err));
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, queue,
                       clCreateImage3D(BAD, CL_MEM_READ_WRITE, &format, 4, 4, 4, 0, 0, NULL, &err));
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, queue,
                       clCreateSampler(BAD, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
    cl_program no_programs[1] = {NULL};
    EXPECT_INVALID_RET(CL_INVALID_CONTEXT, cl_context, queue,
                       clLinkProgram(BAD, 1, &device, NULL, 1, no_programs, NULL, NULL, &err));

    /* 5.8 Program objects: CL_INVALID_PROGRAM "if program is not a valid program object". */
    EXPECT_INVALID(CL_INVALID_PROGRAM, cl_program, context, clRetainProgram(BAD));
    EXPECT_INVALID(CL_INVALID_PROGRAM, cl_program, context, clReleaseProgram(BAD));
    EXPECT_INVALID(CL_INVALID_PROGRAM, cl_program, context, clGetProgramInfo(BAD, CL_PROGRAM_CONTEXT, 0, NULL, &size));
    EXPECT_INVALID(CL_INVALID_PROGRAM, cl_program, context,
                   clGetProgramBuildInfo(BAD, device, CL_PROGRAM_BUILD_STATUS, 0, NULL, &size));
    EXPECT_INVALID(CL_INVALID_PROGRAM, cl_program, context, clBuildProgram(BAD, 1, &device, NULL, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_PROGRAM, cl_program, context, clCompileProgram(BAD, 1, &device, NULL, 0, NULL, NULL, NULL, NULL));
    EXPECT_INVALID(CL_INVALID_PROGRAM, cl_program, context, clSetProgramReleaseCallback(BAD, program_released, NULL));
    cl_uint spec_value = 0;
    EXPECT_INVALID(CL_INVALID_PROGRAM, cl_program, context,
                   clSetProgramSpecializationConstant(BAD, 0, sizeof spec_value, &spec_value));
    EXPECT_INVALID_RET(CL_INVALID_PROGRAM, cl_program, context, clCreateKernel(BAD, "k", &err));
    cl_kernel kernels[1];
    EXPECT_INVALID(CL_INVALID_PROGRAM, cl_program, context, clCreateKernelsInProgram(BAD, 1, kernels, &count));

    /* 5.9 Kernel objects: CL_INVALID_KERNEL "if kernel is not a valid kernel object". */
    EXPECT_INVALID(CL_INVALID_KERNEL, cl_kernel, buffer, clRetainKernel(BAD));
    EXPECT_INVALID(CL_INVALID_KERNEL, cl_kernel, buffer, clReleaseKernel(BAD));
    EXPECT_INVALID(CL_INVALID_KERNEL, cl_kernel, buffer, clGetKernelInfo(BAD, CL_KERNEL_NUM_ARGS, 0, NULL, &size));
    EXPECT_INVALID(CL_INVALID_KERNEL, cl_kernel, buffer, clSetKernelArg(BAD, 0, sizeof buffer, &buffer));
    EXPECT_INVALID(CL_INVALID_KERNEL, cl_kernel, buffer,
                   clGetKernelWorkGroupInfo(BAD, device, CL_KERNEL_WORK_GROUP_SIZE, 0, NULL, &size));
    EXPECT_INVALID(CL_INVALID_KERNEL, cl_kernel, buffer,
                   clGetKernelArgInfo(BAD, 0, CL_KERNEL_ARG_NAME, 0, NULL, &size));
    EXPECT_INVALID_RET(CL_INVALID_KERNEL, cl_kernel, buffer, clCloneKernel(BAD, &err));
    EXPECT_INVALID(CL_INVALID_KERNEL, cl_kernel, buffer, clSetKernelArgSVMPointer(BAD, 0, host));
    cl_bool fine_grain = CL_FALSE;
    EXPECT_INVALID(CL_INVALID_KERNEL, cl_kernel, buffer,
                   clSetKernelExecInfo(BAD, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof fine_grain, &fine_grain));
    EXPECT_INVALID(CL_INVALID_KERNEL, cl_kernel, buffer,
                   clGetKernelSubGroupInfo(BAD, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof size, &size, NULL));
    if (strict()) { /* PoCL 3.1 dereferences a NULL kernel here */
        EXPECT_INVALID(CL_INVALID_KERNEL, cl_kernel, buffer,
                       clEnqueueNDRangeKernel(queue, BAD, 1, NULL, &global, NULL, 0, NULL, NULL));
        EXPECT_INVALID(CL_INVALID_KERNEL, cl_kernel, buffer, clEnqueueTask(queue, BAD, 0, NULL, NULL));
    }

    /* 5.7 Sampler objects: CL_INVALID_SAMPLER "if sampler is not a valid sampler object". */
    EXPECT_INVALID(CL_INVALID_SAMPLER, cl_sampler, event, clRetainSampler(BAD));
    EXPECT_INVALID(CL_INVALID_SAMPLER, cl_sampler, event, clReleaseSampler(BAD));
    EXPECT_INVALID(CL_INVALID_SAMPLER, cl_sampler, event, clGetSamplerInfo(BAD, CL_SAMPLER_CONTEXT, 0, NULL, &size));

    /* Failing creators with errcode_ret NULL: "If errcode_ret is NULL, no error code is
     * returned", and they still return NULL. */
    EXPECT(clCreateContext(NULL, 0, &device, NULL, NULL, NULL) == NULL);
    EXPECT(clCreateBuffer(context, CL_MEM_READ_WRITE, 0, NULL, NULL) == NULL);
    EXPECT(clCreateBufferWithProperties(context, NULL, CL_MEM_USE_HOST_PTR, 64, NULL, NULL) == NULL);
    EXPECT(clCreateSubBuffer(buffer, 0, 0x7fff, &part, NULL) == NULL);
    EXPECT(clCreateCommandQueueWithProperties(context, NULL, NULL, NULL) == NULL);
    EXPECT(clCreateUserEvent(NULL, NULL) == NULL);
    EXPECT(clEnqueueMapBuffer(queue, buffer, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, NULL) == NULL);

    /* Nothing above disturbed the real objects. */
    CHECK(clSetUserEventStatus(event, CL_COMPLETE));
    CHECK(clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 0, 4, host, 1, &event, NULL));
    CHECK(clReleaseEvent(event));
    CHECK(clReleaseMemObject(buffer));
    CHECK(clReleaseCommandQueue(queue));
    CHECK(clReleaseContext(context));
    return finish();
}
