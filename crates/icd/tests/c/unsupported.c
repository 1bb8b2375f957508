/* Optional features a device does not support answer with the spec's codes (Appendix H, "OpenCL
 * 3.0 Backwards Compatibility", and the error lists of each entry point). Each feature is queried
 * first; where the device supports it, a minimal use checks that it works instead. */
#include "check.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

static void CL_CALLBACK native_noop(void *args) {
    (void)args;
}

static void CL_CALLBACK program_released(cl_program program, void *user_data) {
    (void)program;
    (void)user_data;
}

static void test_svm(void) {
    cl_ulong svm = device_ulong(device, CL_DEVICE_SVM_CAPABILITIES);
    if (svm != 0) {
        void *p = clSVMAlloc(context, CL_MEM_READ_WRITE, 1024, 0);
        EXPECT(p != NULL);
        clSVMFree(context, p);
        return;
    }
    /* Appendix H: clSVMAlloc "Returns NULL if no devices in context support Shared Virtual
     * Memory." clSVMFree "Is a NOP". */
    EXPECT(clSVMAlloc(context, CL_MEM_READ_WRITE, 1024, 0) == NULL);
    clSVMFree(context, NULL);
    /* "clEnqueueSVMFree, clEnqueueSVMMemcpy, clEnqueueSVMMemFill, clEnqueueSVMMap,
     * clEnqueueSVMUnmap, clEnqueueSVMMigrateMem: Returns CL_INVALID_OPERATION if the device
     * associated with command_queue does not support Shared Virtual Memory." */
    unsigned char host[64] = {0};
    void *pointers[] = {host};
    cl_uint pattern = 0;
    size_t sizes[] = {sizeof host};
    EXPECT_ERR(CL_INVALID_OPERATION, clEnqueueSVMFree(queue, 1, pointers, NULL, NULL, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_OPERATION, clEnqueueSVMMemcpy(queue, CL_TRUE, host, host + 32, 16, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_OPERATION, clEnqueueSVMMemFill(queue, host, &pattern, sizeof pattern, 16, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_OPERATION, clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, host, 16, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_OPERATION, clEnqueueSVMUnmap(queue, host, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_OPERATION,
               clEnqueueSVMMigrateMem(queue, 1, (const void **)pointers, sizes, 0, 0, NULL, NULL));
    /* clGetMemObjectInfo(CL_MEM_USES_SVM_POINTER): "Returns CL_FALSE if no devices in the context
     * associated with memobj support Shared Virtual Memory." */
    cl_mem mem = make_buffer(context, CL_MEM_USE_HOST_PTR, sizeof host, host);
    cl_bool uses = CL_TRUE;
    CHECK(clGetMemObjectInfo(mem, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
    EXPECT(uses == CL_FALSE);
    CHECK(clReleaseMemObject(mem));
}

static void test_images(void) {
    cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 16;
    desc.image_height = 16;
    cl_int err = CL_SUCCESS;
    cl_uint count = 0;
    if (device_uint(device, CL_DEVICE_IMAGE_SUPPORT)) {
        cl_mem image = clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
        CHECK_RET(err);
        CHECK(clReleaseMemObject(image));
        CHECK(clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &count));
        EXPECT(count >= 1);
        return;
    }
    /* clCreateImage / clCreateImageWithProperties: CL_INVALID_OPERATION "if there are no devices
     * in context that support images (i.e. CL_DEVICE_IMAGE_SUPPORT ... is CL_FALSE)"; the same for
     * clCreateImage2D and clCreateImage3D. */
    cl_mem image = clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
    EXPECT_RET(CL_INVALID_OPERATION, err);
    EXPECT(image == NULL);
    image = clCreateImageWithProperties(context, NULL, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
    EXPECT_RET(CL_INVALID_OPERATION, err);
    EXPECT(image == NULL);
    image = clCreateImage2D(context, CL_MEM_READ_WRITE, &format, 16, 16, 0, NULL, &err);
    EXPECT_RET(CL_INVALID_OPERATION, err);
    EXPECT(image == NULL);
    image = clCreateImage3D(context, CL_MEM_READ_WRITE, &format, 16, 16, 4, 0, 0, NULL, &err);
    EXPECT_RET(CL_INVALID_OPERATION, err);
    EXPECT(image == NULL);
    /* clCreateSamplerWithProperties / clCreateSampler: CL_INVALID_OPERATION "if images are not
     * supported by any device associated with context". */
    cl_sampler sampler = clCreateSamplerWithProperties(context, NULL, &err);
    EXPECT_RET(CL_INVALID_OPERATION, err);
    EXPECT(sampler == NULL);
    sampler = clCreateSampler(context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    EXPECT_RET(CL_INVALID_OPERATION, err);
    EXPECT(sampler == NULL);
    /* clGetSupportedImageFormats lists no such error: it answers, with valid arguments. */
    CHECK(clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &count));
}

static void test_pipes(void) {
    cl_int err = CL_SUCCESS;
    if (device_uint(device, CL_DEVICE_PIPE_SUPPORT)) {
        cl_mem pipe = clCreatePipe(context, CL_MEM_READ_WRITE, 4, 16, NULL, &err);
        CHECK_RET(err);
        CHECK(clReleaseMemObject(pipe));
        return;
    }
    /* Appendix H: clCreatePipe "Returns CL_INVALID_OPERATION if no devices in context support
     * pipes." clGetPipeInfo "Returns CL_INVALID_MEM_OBJECT since pipe cannot be a valid pipe
     * object." */
    cl_mem pipe = clCreatePipe(context, CL_MEM_READ_WRITE, 4, 16, NULL, &err);
    EXPECT_RET(CL_INVALID_OPERATION, err);
    EXPECT(pipe == NULL);
    cl_mem buffer = make_buffer(context, CL_MEM_READ_WRITE, 64, NULL);
    cl_uint packets = 0;
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clGetPipeInfo(buffer, CL_PIPE_MAX_PACKETS, sizeof packets, &packets, NULL));
    CHECK(clReleaseMemObject(buffer));
}

static void test_device_enqueue(void) {
    cl_ulong caps = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof caps, &caps, NULL));
    if (caps & CL_DEVICE_QUEUE_SUPPORTED)
        return;
    /* Appendix H: clGetCommandQueueInfo(CL_QUEUE_SIZE) "Returns CL_INVALID_COMMAND_QUEUE since
     * command_queue cannot be a valid device command-queue"; CL_QUEUE_DEVICE_DEFAULT "Returns NULL
     * if the device associated with command_queue does not support on-device queues";
     * clSetDefaultDeviceCommandQueue "Returns CL_INVALID_OPERATION if device does not support
     * on-device queues". */
    cl_uint size = 0;
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clGetCommandQueueInfo(queue, CL_QUEUE_SIZE, sizeof size, &size, NULL));
    cl_command_queue default_queue = (cl_command_queue)(uintptr_t)1;
    CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE_DEFAULT, sizeof default_queue, &default_queue, NULL));
    EXPECT(default_queue == NULL);
    EXPECT_ERR(CL_INVALID_OPERATION, clSetDefaultDeviceCommandQueue(context, device, queue));

    /* clGetEventProfilingInfo(CL_PROFILING_COMMAND_COMPLETE) "Returns a value equivalent to
     * passing CL_PROFILING_COMMAND_END if the device associated with event does not support
     * device-side enqueue." */
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int err = CL_SUCCESS;
    cl_command_queue profiled = clCreateCommandQueueWithProperties(context, device, props, &err);
    CHECK_RET(err);
    cl_mem buffer = make_buffer(context, CL_MEM_READ_WRITE, 4096, NULL);
    unsigned char data[4096] = {0};
    cl_event event = NULL;
    CHECK(clEnqueueWriteBuffer(profiled, buffer, CL_TRUE, 0, sizeof data, data, 0, NULL, &event));
    cl_ulong end = 0, complete = 1;
    CHECK(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    CHECK(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_COMPLETE, sizeof complete, &complete, NULL));
    EXPECT(complete == end);
    CHECK(clReleaseEvent(event));
    CHECK(clReleaseMemObject(buffer));
    CHECK(clReleaseCommandQueue(profiled));
}

static void test_native_kernels(void) {
    cl_ulong exec = device_ulong(device, CL_DEVICE_EXECUTION_CAPABILITIES);
    if (exec & CL_EXEC_NATIVE_KERNEL)
        return;
    /* clEnqueueNativeKernel: CL_INVALID_OPERATION "if the device associated with command_queue
     * cannot execute the native kernel". */
    int arg = 0;
    EXPECT_ERR(CL_INVALID_OPERATION,
               clEnqueueNativeKernel(queue, native_noop, &arg, sizeof arg, 0, NULL, NULL, 0, NULL, NULL));
}

/* The program-level answers need a program object (from source: no compiler needed to create
 * one). */
static void test_programs(void) {
    const char *source = "kernel void k(global int *p) { p[0] = 1; }";
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_RET(err);

    char *il_version = device_string(device, CL_DEVICE_IL_VERSION);
    if (il_version[0] == '\0') {
        /* Appendix H: clCreateProgramWithIL "Returns CL_INVALID_OPERATION if no devices in context
         * support intermediate language programs"; CL_PROGRAM_IL "Returns an empty buffer";
         * clSetProgramSpecializationConstant "Returns CL_INVALID_OPERATION". */
        /* A well-formed SPIR-V 1.0 module: the header, OpCapability Addresses, OpCapability
         * Kernel, OpMemoryModel Physical64 OpenCL. */
        static const cl_uint spirv[] = {0x07230203, 0x00010000, 0, 1, 0,          0x00020011, 4,
                                        0x00020011, 6,          0x0003000e, 2, 2};
        cl_program il = clCreateProgramWithIL(context, spirv, sizeof spirv, &err);
        EXPECT_ERR_DEVIATES(CL_INVALID_OPERATION, err); /* PoCL 3.1: CL_INVALID_VALUE */
        EXPECT(il == NULL);
        size_t size = 1;
        CHECK(clGetProgramInfo(program, CL_PROGRAM_IL, 0, NULL, &size));
        EXPECT(size == 0);
        cl_uint value = 0;
        /* For this program from source, 5.8.3's CL_INVALID_PROGRAM "if program is not a valid
         * program object created from an intermediate language" applies as well; the spec orders
         * neither first. */
        if (strict()) { /* PoCL 3.1 fails an assertion here */
            err = clSetProgramSpecializationConstant(program, 0, sizeof value, &value);
            EXPECT(err == CL_INVALID_OPERATION || err == CL_INVALID_PROGRAM);
        }
    }
    free(il_version);

    /* Appendix H: "Program initialization and clean-up kernels are not supported in OpenCL 3.0";
     * clSetProgramReleaseCallback "Returns CL_INVALID_OPERATION if no devices in the context
     * associated with program support program initialization and clean-up kernels". */
    char *version = device_string(device, CL_DEVICE_VERSION);
    if (strncmp(version, "OpenCL 3.", 9) == 0) {
        EXPECT_ERR(CL_INVALID_OPERATION, clSetProgramReleaseCallback(program, program_released, NULL));
    }
    free(version);

    if (!device_uint(device, CL_DEVICE_COMPILER_AVAILABLE)) {
        /* clBuildProgram: CL_COMPILER_NOT_AVAILABLE "if program is created with
         * clCreateProgramWithSource and a compiler is not available". */
        EXPECT_ERR(CL_COMPILER_NOT_AVAILABLE, clBuildProgram(program, 1, &device, NULL, NULL, NULL));
    }
    CHECK(clReleaseProgram(program));
}

int main(void) {
    device = first_device();
    context = make_context(device);
    queue = make_queue(context, device);
    test_svm();
    test_images();
    test_pipes();
    test_device_enqueue();
    test_native_kernels();
    test_programs();
    CHECK(clReleaseCommandQueue(queue));
    CHECK(clReleaseContext(context));
    return finish();
}
