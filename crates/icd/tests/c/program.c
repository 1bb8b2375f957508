/* 5.8 Program Objects, 5.9 Kernel Objects and 5.10 Executing Kernels. The program-object API
 * that needs no compiler (creation from source, queries, build argument checks) runs on every
 * device; building, kernels and their execution run where CL_DEVICE_COMPILER_AVAILABLE is
 * CL_TRUE, and otherwise clBuildProgram must answer CL_COMPILER_NOT_AVAILABLE. */
#include "check.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

static const char *SOURCE =
    "kernel void add(global int *data, int amount, local int *scratch) {\n"
    "    size_t i = get_global_id(0);\n"
    "    scratch[get_local_id(0)] = data[i] + amount;\n"
    "    data[i] = scratch[get_local_id(0)];\n"
    "}\n"
    "kernel void fill_ids(global uint *out) {\n"
    "    size_t i = get_global_id(0) - get_global_offset(0);\n"
    "    out[i] = (uint)get_global_id(0);\n"
    "}\n"
    "kernel __attribute__((reqd_work_group_size(4, 1, 1))) void fixed(global int *out) {\n"
    "    out[get_global_id(0)] = (int)get_local_size(0);\n"
    "}\n";

static cl_program program_from_source(const char *source) {
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_RET(err);
    REQUIRE(program != NULL);
    return program;
}

static char *program_string(cl_program program, cl_program_info param) {
    size_t size = 0;
    CHECK(clGetProgramInfo(program, param, 0, NULL, &size));
    char *s = malloc(size + 1);
    REQUIRE(s != NULL);
    s[size] = '\0';
    if (size)
        CHECK(clGetProgramInfo(program, param, size, s, NULL));
    return s;
}

static char *build_string(cl_program program, cl_program_build_info param) {
    size_t size = 0;
    CHECK(clGetProgramBuildInfo(program, device, param, 0, NULL, &size));
    REQUIRE(size >= 1);
    char *s = malloc(size);
    REQUIRE(s != NULL);
    CHECK(clGetProgramBuildInfo(program, device, param, size, s, NULL));
    EXPECT(s[size - 1] == '\0');
    return s;
}

static cl_build_status build_status(cl_program program) {
    cl_build_status status = 99;
    CHECK(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
    return status;
}

static cl_uint program_uint(cl_program program, cl_program_info param) {
    cl_uint value = 0;
    size_t size = 0;
    CHECK(clGetProgramInfo(program, param, sizeof value, &value, &size));
    EXPECT(size == sizeof value);
    return value;
}

static void test_create_from_source(void) {
    /* 5.8.1: "If lengths is NULL, all strings in the strings argument are considered
     * null-terminated." "If an element in lengths is zero, its accompanying string is
     * null-terminated." "Any length value passed in that is greater than zero excludes the null
     * terminator in its count." CL_PROGRAM_SOURCE: "a concatenation of all source strings ...
     * with a null terminator". */
    const char *parts[] = {"kernel void k(global int *p) ", "{ p[0] = 1; }XXXX", "\n"};
    size_t lengths[] = {0, 13, 1};
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 3, parts, lengths, &err);
    CHECK_RET(err);
    char *source = program_string(program, CL_PROGRAM_SOURCE);
    EXPECT(strcmp(source, "kernel void k(global int *p) { p[0] = 1; }\n") == 0);
    size_t size = 0;
    CHECK(clGetProgramInfo(program, CL_PROGRAM_SOURCE, 0, NULL, &size));
    EXPECT(size == strlen(source) + 1);
    free(source);
    CHECK(clReleaseProgram(program));

    program = program_from_source(SOURCE);
    source = program_string(program, CL_PROGRAM_SOURCE);
    EXPECT(strcmp(source, SOURCE) == 0);
    free(source);
    CHECK(clReleaseProgram(program));

    /* CL_INVALID_VALUE "if count is zero or if strings or any entry in strings is NULL". */
    program = clCreateProgramWithSource(context, 0, parts, NULL, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    EXPECT(program == NULL);
    if (strict()) { /* PoCL 3.1 dereferences the NULL strings */
        program = clCreateProgramWithSource(context, 1, NULL, NULL, &err);
        EXPECT_RET(CL_INVALID_VALUE, err);
        EXPECT(program == NULL);
    }
    const char *with_null[] = {"kernel void k() {}", NULL};
    program = clCreateProgramWithSource(context, 2, with_null, NULL, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    EXPECT(program == NULL);
    program = clCreateProgramWithSource(NULL, 1, parts, NULL, &err);
    EXPECT_RET(CL_INVALID_CONTEXT, err);
    EXPECT(program == NULL);
}

static void test_unbuilt_program(void) {
    cl_int err = CL_SUCCESS;
    cl_program program = program_from_source(SOURCE);
    EXPECT(program_uint(program, CL_PROGRAM_REFERENCE_COUNT) == 1);
    CHECK(clRetainProgram(program));
    EXPECT(program_uint(program, CL_PROGRAM_REFERENCE_COUNT) == 2);
    CHECK(clReleaseProgram(program));
    cl_context c = NULL;
    CHECK(clGetProgramInfo(program, CL_PROGRAM_CONTEXT, sizeof c, &c, NULL));
    EXPECT(c == context);
    /* "The devices associated with the program object are the devices associated with context." */
    EXPECT(program_uint(program, CL_PROGRAM_NUM_DEVICES) == 1);
    cl_device_id d = NULL;
    size_t size = 0;
    CHECK(clGetProgramInfo(program, CL_PROGRAM_DEVICES, sizeof d, &d, &size));
    EXPECT(size == sizeof d && d == device);
    /* CL_PROGRAM_IL: "If program is created with clCreateProgramWithSource ... param_value_size_ret
     * will be set to 0". */
    CHECK(clGetProgramInfo(program, CL_PROGRAM_IL, 0, NULL, &size));
    EXPECT(size == 0);
    /* CL_PROGRAM_BINARY_SIZES: one entry per device; "If a binary is not available for a
     * device(s), a size of zero is returned." */
    size_t binary_size = 1;
    /* (PoCL 3.1 answers CL_INVALID_PROGRAM before a build.) */
    err = clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof binary_size, &binary_size, &size);
    EXPECT_ERR_DEVIATES(CL_SUCCESS, err);
    if (err == CL_SUCCESS) {
        EXPECT(size == sizeof(size_t));
        EXPECT(binary_size == 0);
    }
    /* CL_INVALID_PROGRAM_EXECUTABLE "if param_name is CL_PROGRAM_NUM_KERNELS,
     * CL_PROGRAM_KERNEL_NAMES ... and a successful program executable has not been built". */
    size_t num_kernels = 0;
    EXPECT_ERR(CL_INVALID_PROGRAM_EXECUTABLE,
               clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof num_kernels, &num_kernels, NULL));
    EXPECT_ERR(CL_INVALID_PROGRAM_EXECUTABLE, clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size));
    /* The size protocol and unknown names. */
    cl_uint small = 0;
    EXPECT_ERR(CL_INVALID_VALUE, clGetProgramInfo(program, CL_PROGRAM_CONTEXT, sizeof small, &small, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clGetProgramInfo(program, 0x7fff, 0, NULL, &size));

    /* Build queries before any build: "CL_BUILD_NONE - The build status returned if no
     * clBuildProgram, clCompileProgram or clLinkProgram has been performed"; options and log:
     * "If build status of the specified program for device is CL_BUILD_NONE, an empty string is
     * returned"; CL_PROGRAM_BINARY_TYPE_NONE: "There is no binary associated". */
    EXPECT(build_status(program) == CL_BUILD_NONE);
    cl_program_build_info strings[] = {CL_PROGRAM_BUILD_OPTIONS, CL_PROGRAM_BUILD_LOG};
    for (int i = 0; i < 2; i++) {
        char text[8] = "x";
        size = 0;
        /* (PoCL 3.1 answers CL_INVALID_PROGRAM before a build.) */
        err = clGetProgramBuildInfo(program, device, strings[i], sizeof text, text, &size);
        EXPECT_ERR_DEVIATES(CL_SUCCESS, err);
        if (err == CL_SUCCESS)
            EXPECT(size == 1 && text[0] == '\0');
    }
    cl_program_binary_type binary_type = 99;
    CHECK(clGetProgramBuildInfo(program, device, CL_PROGRAM_BINARY_TYPE, sizeof binary_type, &binary_type, NULL));
    EXPECT(binary_type == CL_PROGRAM_BINARY_TYPE_NONE);
    EXPECT_ERR(CL_INVALID_VALUE, clGetProgramBuildInfo(program, device, 0x7fff, 0, NULL, &size));
    EXPECT_ERR(CL_INVALID_VALUE,
               clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof(cl_build_status) - 1, &small, NULL));
    /* clGetProgramBuildInfo: CL_INVALID_DEVICE "if device is not in the list of devices associated
     * with program". */
    EXPECT_ERR(CL_INVALID_DEVICE, clGetProgramBuildInfo(program, NULL, CL_PROGRAM_BUILD_STATUS, 0, NULL, &size));
    if (wrong_type_checks())
        EXPECT_ERR(CL_INVALID_DEVICE,
                   clGetProgramBuildInfo(program, (cl_device_id)context, CL_PROGRAM_BUILD_STATUS, 0, NULL, &size));

    /* clCreateKernel: CL_INVALID_PROGRAM_EXECUTABLE "if there is no successfully built executable
     * for program"; clCreateKernelsInProgram the same. */
    cl_kernel kernel = clCreateKernel(program, "add", &err);
    EXPECT_RET(CL_INVALID_PROGRAM_EXECUTABLE, err);
    EXPECT(kernel == NULL);
    cl_uint count = 0;
    EXPECT_ERR(CL_INVALID_PROGRAM_EXECUTABLE, clCreateKernelsInProgram(program, 0, NULL, &count));

    /* clBuildProgram: CL_INVALID_VALUE "if device_list is NULL and num_devices is greater than
     * zero, or if device_list is not NULL and num_devices is zero" and "if pfn_notify is NULL but
     * user_data is not NULL"; CL_INVALID_DEVICE "if any device in device_list is not in the list
     * of devices associated with program". */
    EXPECT_ERR(CL_INVALID_VALUE, clBuildProgram(program, 1, NULL, NULL, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clBuildProgram(program, 0, &device, NULL, NULL, NULL));
    int data = 0;
    EXPECT_ERR(CL_INVALID_VALUE, clBuildProgram(program, 1, &device, NULL, NULL, &data));
    cl_device_id null_device = NULL;
    if (strict()) /* PoCL 3.1 dereferences the NULL device */
        EXPECT_ERR(CL_INVALID_DEVICE, clBuildProgram(program, 1, &null_device, NULL, NULL, NULL));
    if (wrong_type_checks()) {
        cl_device_id wrong = (cl_device_id)context;
        EXPECT_ERR(CL_INVALID_DEVICE, clBuildProgram(program, 1, &wrong, NULL, NULL, NULL));
    }

    if (!device_uint(device, CL_DEVICE_COMPILER_AVAILABLE)) {
        /* CL_COMPILER_NOT_AVAILABLE "if program is created with ... clCreateProgramWithSource ...
         * and a compiler is not available". */
        EXPECT_ERR(CL_COMPILER_NOT_AVAILABLE, clBuildProgram(program, 1, &device, NULL, NULL, NULL));
        EXPECT_ERR(CL_COMPILER_NOT_AVAILABLE, clBuildProgram(program, 0, NULL, NULL, NULL, NULL));
        EXPECT_ERR(CL_COMPILER_NOT_AVAILABLE, clCompileProgram(program, 1, &device, NULL, 0, NULL, NULL, NULL, NULL));
    }
    CHECK(clReleaseProgram(program));
}

/* Everything below needs a compiler. */

static cl_program built_program(const char *source, const char *options) {
    cl_program program = program_from_source(source);
    cl_int err = clBuildProgram(program, 1, &device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char *log = build_string(program, CL_PROGRAM_BUILD_LOG);
        fprintf(stderr, "clBuildProgram failed with %s; log:\n%s\n", cl_error_name(err), log);
        free(log);
        exit(1);
    }
    return program;
}

static cl_kernel make_kernel(cl_program program, const char *name) {
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, name, &err);
    CHECK_RET(err);
    REQUIRE(kernel != NULL);
    return kernel;
}

static void test_build(void) {
    cl_program program = built_program(SOURCE, "-cl-std=CL1.2 -DUNUSED=1");
    /* CL_BUILD_SUCCESS after a successful build; the options are those given;
     * CL_PROGRAM_BINARY_TYPE_EXECUTABLE for a built program. */
    EXPECT(build_status(program) == CL_BUILD_SUCCESS);
    char *options = build_string(program, CL_PROGRAM_BUILD_OPTIONS);
    EXPECT(strcmp(options, "-cl-std=CL1.2 -DUNUSED=1") == 0);
    free(options);
    cl_program_binary_type binary_type = 99;
    CHECK(clGetProgramBuildInfo(program, device, CL_PROGRAM_BINARY_TYPE, sizeof binary_type, &binary_type, NULL));
    EXPECT(binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    size_t num_kernels = 0;
    CHECK(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof num_kernels, &num_kernels, NULL));
    EXPECT(num_kernels == 3);
    /* CL_PROGRAM_KERNEL_NAMES: "a semi-colon separated list of kernel names". */
    char *names = program_string(program, CL_PROGRAM_KERNEL_NAMES);
    int found = 0;
    for (char *save = NULL, *name = strtok_r(names, ";", &save); name; name = strtok_r(NULL, ";", &save))
        found |= (strcmp(name, "add") == 0) << 0 | (strcmp(name, "fill_ids") == 0) << 1 | (strcmp(name, "fixed") == 0) << 2;
    EXPECT(found == 7);
    free(names);

    /* clCreateKernelsInProgram: CL_INVALID_VALUE "if kernels is not NULL and num_kernels is less
     * than the number of kernels in program". */
    cl_kernel kernels[3] = {NULL, NULL, NULL};
    cl_uint count = 0;
    EXPECT_ERR(CL_INVALID_VALUE, clCreateKernelsInProgram(program, 2, kernels, &count));
    CHECK(clCreateKernelsInProgram(program, 0, NULL, &count));
    EXPECT(count == 3);
    CHECK(clCreateKernelsInProgram(program, 3, kernels, &count));
    /* clBuildProgram: CL_INVALID_OPERATION "if there are kernel objects attached to program". */
    EXPECT_ERR(CL_INVALID_OPERATION, clBuildProgram(program, 1, &device, NULL, NULL, NULL));
    for (int i = 0; i < 3; i++)
        CHECK(clReleaseKernel(kernels[i]));

    /* clCreateKernel: CL_INVALID_KERNEL_NAME "if kernel_name is not found in program";
     * CL_INVALID_VALUE "if kernel_name is NULL". */
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "no_such_kernel", &err);
    EXPECT_RET(CL_INVALID_KERNEL_NAME, err);
    EXPECT(kernel == NULL);
    kernel = clCreateKernel(program, NULL, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    EXPECT(kernel == NULL);
    CHECK(clReleaseProgram(program));

    /* A build that fails: CL_BUILD_PROGRAM_FAILURE "if there is a failure to build the program
     * executable", status CL_BUILD_ERROR, and a log that says something. */
    program = program_from_source("kernel void broken(global int *p) { p[0] = undeclared_name; }\n");
    EXPECT_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(program, 1, &device, NULL, NULL, NULL));
    EXPECT(build_status(program) == CL_BUILD_ERROR);
    char *log = build_string(program, CL_PROGRAM_BUILD_LOG);
    EXPECT(strlen(log) > 0);
    free(log);
    kernel = clCreateKernel(program, "broken", &err);
    EXPECT_RET(CL_INVALID_PROGRAM_EXECUTABLE, err);
    /* CL_INVALID_BUILD_OPTIONS "if the build options specified by options are invalid". (PoCL
     * 3.1 reports a build failure.) */
    cl_program fine = program_from_source("kernel void k(global int *p) { p[0] = 1; }\n");
    EXPECT_ERR_DEVIATES(CL_INVALID_BUILD_OPTIONS, clBuildProgram(fine, 1, &device, "-cl-no-such-option", NULL, NULL));
    CHECK(clReleaseProgram(fine));
    CHECK(clReleaseProgram(program));
}

static void test_kernel_objects(void) {
    cl_int err = CL_SUCCESS;
    cl_program program = built_program(SOURCE, NULL);
    cl_kernel kernel = make_kernel(program, "add");
    size_t size = 0;
    char name[64] = {0};
    CHECK(clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name, name, &size));
    EXPECT(strcmp(name, "add") == 0 && size == 4);
    cl_uint num_args = 0;
    CHECK(clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof num_args, &num_args, NULL));
    EXPECT(num_args == 3);
    cl_uint refs = 0;
    CHECK(clGetKernelInfo(kernel, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    EXPECT(refs == 1);
    cl_context c = NULL;
    CHECK(clGetKernelInfo(kernel, CL_KERNEL_CONTEXT, sizeof c, &c, NULL));
    EXPECT(c == context);
    cl_program p = NULL;
    CHECK(clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof p, &p, NULL));
    EXPECT(p == program);
    CHECK(clGetKernelInfo(kernel, CL_KERNEL_ATTRIBUTES, 0, NULL, &size));
    EXPECT(size >= 1);
    EXPECT_ERR(CL_INVALID_VALUE, clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof num_args - 1, &num_args, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clGetKernelInfo(kernel, 0x7fff, 0, NULL, &size));
    CHECK(clRetainKernel(kernel));
    CHECK(clGetKernelInfo(kernel, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    EXPECT(refs == 2);
    CHECK(clReleaseKernel(kernel));

    /* clGetKernelWorkGroupInfo. */
    size_t wg = 0;
    CHECK(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    EXPECT(wg >= 1 && wg <= device_size(device, CL_DEVICE_MAX_WORK_GROUP_SIZE));
    size_t compile[3] = {9, 9, 9};
    CHECK(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compile, compile, NULL));
    /* "If the work-group size is not specified in the kernel source or IL, (0, 0, 0) is
     * returned." */
    EXPECT(compile[0] == 0 && compile[1] == 0 && compile[2] == 0);
    size_t multiple = 0;
    CHECK(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple,
                                   &multiple, NULL));
    EXPECT(multiple >= 1);
    cl_ulong mem = 0;
    CHECK(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof mem, &mem, NULL));
    CHECK(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof mem, &mem, NULL));
    /* CL_INVALID_VALUE "if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and device is not a custom
     * device and kernel is not a built-in kernel". */
    size_t global[3];
    if (device_ulong(device, CL_DEVICE_TYPE) != CL_DEVICE_TYPE_CUSTOM)
        EXPECT_ERR(CL_INVALID_VALUE,
                   clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof global, global, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clGetKernelWorkGroupInfo(kernel, device, 0x7fff, 0, NULL, &size));
    cl_kernel fixed = make_kernel(program, "fixed");
    CHECK(clGetKernelWorkGroupInfo(fixed, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compile, compile, NULL));
    EXPECT(compile[0] == 4 && compile[1] == 1 && compile[2] == 1);

    /* clGetKernelArgInfo: "Kernel argument information is only available if the program object
     * ... is created with clCreateProgramWithSource and the program executable is built with the
     * -cl-kernel-arg-info option". */
    char arg_name[64];
    /* Without the option the information may still be there (PoCL 3.1 has it); the spec's code
     * for its absence is CL_KERNEL_ARG_INFO_NOT_AVAILABLE. */
    err = clGetKernelArgInfo(kernel, 0, CL_KERNEL_ARG_NAME, sizeof arg_name, arg_name, NULL);
    EXPECT(err == CL_KERNEL_ARG_INFO_NOT_AVAILABLE || err == CL_SUCCESS);
    cl_program with_info = built_program(SOURCE, "-cl-kernel-arg-info");
    cl_kernel described = make_kernel(with_info, "add");
    CHECK(clGetKernelArgInfo(described, 0, CL_KERNEL_ARG_NAME, sizeof arg_name, arg_name, NULL));
    EXPECT(strcmp(arg_name, "data") == 0);
    CHECK(clGetKernelArgInfo(described, 1, CL_KERNEL_ARG_TYPE_NAME, sizeof arg_name, arg_name, NULL));
    EXPECT(strcmp(arg_name, "int") == 0);
    CHECK(clGetKernelArgInfo(described, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof arg_name, arg_name, NULL));
    EXPECT(strcmp(arg_name, "int*") == 0);
    cl_kernel_arg_address_qualifier address = 0;
    CHECK(clGetKernelArgInfo(described, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address, NULL));
    EXPECT(address == CL_KERNEL_ARG_ADDRESS_GLOBAL);
    CHECK(clGetKernelArgInfo(described, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address, NULL));
    EXPECT(address == CL_KERNEL_ARG_ADDRESS_LOCAL);
    CHECK(clGetKernelArgInfo(described, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address, NULL));
    EXPECT(address == CL_KERNEL_ARG_ADDRESS_PRIVATE);
    cl_kernel_arg_access_qualifier access = 0;
    CHECK(clGetKernelArgInfo(described, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, NULL));
    EXPECT(access == CL_KERNEL_ARG_ACCESS_NONE);
    cl_kernel_arg_type_qualifier type_qualifier = 99;
    CHECK(clGetKernelArgInfo(described, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof type_qualifier, &type_qualifier, NULL));
    EXPECT(type_qualifier == CL_KERNEL_ARG_TYPE_NONE);
    /* CL_INVALID_ARG_INDEX "if arg_index is not a valid argument index". */
    EXPECT_ERR(CL_INVALID_ARG_INDEX, clGetKernelArgInfo(described, 3, CL_KERNEL_ARG_NAME, sizeof arg_name, arg_name, NULL));
    CHECK(clReleaseKernel(described));
    CHECK(clReleaseProgram(with_info));

    /* clSetKernelArg errors. */
    cl_mem buffer = make_buffer(context, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), NULL);
    cl_int amount = 5;
    /* CL_INVALID_ARG_INDEX "if arg_index is not a valid argument index". */
    EXPECT_ERR(CL_INVALID_ARG_INDEX, clSetKernelArg(kernel, 3, sizeof amount, &amount));
    /* CL_INVALID_ARG_SIZE "if arg_size does not match the size of the data type for an argument
     * that is not a memory object", "if the argument is a memory object and arg_size !=
     * sizeof(cl_mem)", "if arg_size is zero and the argument is declared with the local
     * qualifier". */
    EXPECT_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 1, sizeof(cl_long), &amount));
    EXPECT_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 0, sizeof(cl_mem) - 1, &buffer));
    EXPECT_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 2, 0, NULL));
    /* CL_INVALID_ARG_VALUE "if arg_value specified is not a valid value": NULL for a by-value
     * argument, non-NULL for a local one ("If the argument is declared with the local qualifier,
     * the arg_value entry must be NULL"). */
    EXPECT_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(kernel, 1, sizeof amount, NULL));
    EXPECT_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(kernel, 2, 16, &amount));
    /* CL_INVALID_MEM_OBJECT "for an argument declared to be a memory object when the specified
     * arg_value is not a valid memory object". */
    if (wrong_type_checks()) {
        cl_mem not_mem = (cl_mem)queue;
        EXPECT_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(kernel, 0, sizeof not_mem, &not_mem));
    }
    /* clEnqueueNDRangeKernel: CL_INVALID_KERNEL_ARGS "if the kernel argument values have not been
     * specified". */
    size_t global_size = 64, local_size = 8;
    EXPECT_ERR(CL_INVALID_KERNEL_ARGS, clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global_size, &local_size, 0,
                                                              NULL, NULL));
    EXPECT_ERR(CL_INVALID_KERNEL_ARGS, clEnqueueTask(queue, kernel, 0, NULL, NULL));
    CHECK(clReleaseMemObject(buffer));
    CHECK(clReleaseKernel(fixed));
    /* 5.8.7: "The program object is deleted after all kernel objects associated with program
     * have been deleted and the program reference count becomes zero": until then the kernel's
     * CL_KERNEL_PROGRAM is a valid program, which may be queried and retained. */
    CHECK(clReleaseProgram(program));
    p = NULL;
    CHECK(clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof p, &p, NULL));
    EXPECT(p == program);
    CHECK(clRetainProgram(p));
    CHECK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof size, &size, NULL));
    EXPECT(size >= 1);
    cl_kernel again = make_kernel(p, "add");
    CHECK(clReleaseProgram(p));
    CHECK(clReleaseKernel(again));
    CHECK(clReleaseKernel(kernel));
}

static void test_execution(void) {
    enum { N = 256 };
    cl_program program = built_program(SOURCE, NULL);
    cl_kernel add = make_kernel(program, "add");
    cl_int host[N];
    for (int i = 0; i < N; i++)
        host[i] = i * 3;
    cl_mem buffer = make_buffer(context, CL_MEM_COPY_HOST_PTR, sizeof host, host);
    cl_int amount = 7;
    CHECK(clSetKernelArg(add, 0, sizeof buffer, &buffer));
    CHECK(clSetKernelArg(add, 1, sizeof amount, &amount));
    size_t local_size = 16;
    CHECK(clSetKernelArg(add, 2, local_size * sizeof(cl_int), NULL));
    size_t global_size = N;
    cl_event event = NULL;
    CHECK(clEnqueueNDRangeKernel(queue, add, 1, NULL, &global_size, &local_size, 0, NULL, &event));
    CHECK(clWaitForEvents(1, &event));
    cl_command_type type = 0;
    CHECK(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_COMMAND_NDRANGE_KERNEL);
    CHECK(clReleaseEvent(event));
    cl_int back[N];
    CHECK(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += back[i] != i * 3 + 7;
    EXPECT(wrong == 0);

    /* clCloneKernel: "a copy of kernel" with its arguments; changing the clone's arguments leaves
     * the original alone. */
    cl_int err = CL_SUCCESS;
    cl_kernel clone = clCloneKernel(add, &err);
    CHECK_RET(err);
    cl_int other_amount = 100;
    CHECK(clSetKernelArg(clone, 1, sizeof other_amount, &other_amount));
    CHECK(clEnqueueNDRangeKernel(queue, clone, 1, NULL, &global_size, &local_size, 0, NULL, NULL));
    CHECK(clEnqueueNDRangeKernel(queue, add, 1, NULL, &global_size, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += back[i] != i * 3 + 7 + 100 + 7;
    EXPECT(wrong == 0);
    CHECK(clReleaseKernel(clone));

    /* clEnqueueTask runs one work-item (a work_dim of 1, global and local sizes of 1). */
    CHECK(clEnqueueTask(queue, add, 0, NULL, &event));
    CHECK(clWaitForEvents(1, &event));
    CHECK(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    EXPECT_DEVIATES(type == CL_COMMAND_TASK); /* PoCL 3.1: CL_COMMAND_NDRANGE_KERNEL */
    CHECK(clReleaseEvent(event));
    CHECK(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    EXPECT(back[0] == 0 + 7 + 100 + 7 + 7 && back[1] == 3 + 7 + 100 + 7);

    /* A global offset shifts get_global_id. */
    cl_kernel ids = make_kernel(program, "fill_ids");
    cl_mem out = make_buffer(context, CL_MEM_READ_WRITE, 32 * sizeof(cl_uint), NULL);
    CHECK(clSetKernelArg(ids, 0, sizeof out, &out));
    size_t offset = 1000, count = 32;
    CHECK(clEnqueueNDRangeKernel(queue, ids, 1, &offset, &count, NULL, 0, NULL, NULL));
    cl_uint got[32];
    CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    wrong = 0;
    for (cl_uint i = 0; i < 32; i++)
        wrong += got[i] != 1000 + i;
    EXPECT(wrong == 0);

    /* NDRange errors: CL_INVALID_WORK_DIMENSION "if work_dim is not a valid value (i.e. a value
     * between 1 and CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)"; CL_INVALID_WORK_ITEM_SIZE if a local
     * size exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES; CL_INVALID_WORK_GROUP_SIZE if the work-group is
     * larger than CL_KERNEL_WORK_GROUP_SIZE or does not match reqd_work_group_size. */
    cl_uint dims = device_uint(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    size_t globals[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    EXPECT_ERR(CL_INVALID_WORK_DIMENSION, clEnqueueNDRangeKernel(queue, ids, 0, NULL, globals, NULL, 0, NULL, NULL));
    if (dims < 8)
        EXPECT_ERR(CL_INVALID_WORK_DIMENSION,
                   clEnqueueNDRangeKernel(queue, ids, dims + 1, NULL, globals, NULL, 0, NULL, NULL));
    size_t *max_items = calloc(dims, sizeof(size_t));
    REQUIRE(max_items != NULL);
    CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(size_t), max_items, NULL));
    size_t kernel_wg = 0;
    CHECK(clGetKernelWorkGroupInfo(ids, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_wg, &kernel_wg, NULL));
    /* Should an enqueue below wrongly succeed, its kernel writes inside this buffer. */
    const size_t huge = (size_t)1 << 28; /* larger limits are not probed */
    size_t items0 = max_items[0] < huge ? max_items[0] + 1 : 1;
    size_t span = (items0 > kernel_wg ? items0 : kernel_wg) * sizeof(cl_uint);
    cl_mem wide = make_buffer(context, CL_MEM_READ_WRITE, span, NULL);
    CHECK(clSetKernelArg(ids, 0, sizeof wide, &wide));
    /* A local size one past CL_DEVICE_MAX_WORK_ITEM_SIZES[d] in one dimension. When that is also
     * more work-items than CL_KERNEL_WORK_GROUP_SIZE, both codes are the spec's. */
    for (cl_uint d = 0; d < dims && d < 3; d++) {
        size_t local[3] = {1, 1, 1}, global3[3] = {1, 1, 1};
        if (max_items[d] >= huge || kernel_wg >= huge)
            continue;
        local[d] = global3[d] = max_items[d] + 1;
        err = clEnqueueNDRangeKernel(queue, ids, d + 1, NULL, global3, local, 0, NULL, NULL);
        if (local[d] <= kernel_wg)
            EXPECT_RET(CL_INVALID_WORK_ITEM_SIZE, err);
        else
            EXPECT(err == CL_INVALID_WORK_ITEM_SIZE || err == CL_INVALID_WORK_GROUP_SIZE);
    }
    /* More work-items than CL_KERNEL_WORK_GROUP_SIZE, each dimension within its maximum. */
    if (dims >= 2) {
        size_t a = max_items[0] < kernel_wg ? max_items[0] : kernel_wg;
        size_t b = kernel_wg / a + 1;
        if (b <= max_items[1]) {
            size_t local2[2] = {a, b};
            EXPECT_ERR(CL_INVALID_WORK_GROUP_SIZE,
                       clEnqueueNDRangeKernel(queue, ids, 2, NULL, local2, local2, 0, NULL, NULL));
        }
    }
    free(max_items);
    CHECK(clFinish(queue));
    CHECK(clReleaseMemObject(wide));
    CHECK(clSetKernelArg(ids, 0, sizeof out, &out));
    cl_kernel fixed = make_kernel(program, "fixed");
    CHECK(clSetKernelArg(fixed, 0, sizeof out, &out));
    size_t eight = 8, two = 2, four = 4;
    EXPECT_ERR(CL_INVALID_WORK_GROUP_SIZE, clEnqueueNDRangeKernel(queue, fixed, 1, NULL, &eight, &two, 0, NULL, NULL));
    CHECK(clEnqueueNDRangeKernel(queue, fixed, 1, NULL, &eight, &four, 0, NULL, NULL));
    cl_int sizes[8];
    CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof sizes, sizes, 0, NULL, NULL));
    for (int i = 0; i < 8; i++)
        EXPECT(sizes[i] == 4);
    /* clEnqueueTask: CL_INVALID_WORK_GROUP_SIZE "if a work-group size is specified for kernel in
     * the program source and it is not (1, 1, 1)". */
    EXPECT_ERR(CL_INVALID_WORK_GROUP_SIZE, clEnqueueTask(queue, fixed, 0, NULL, NULL));
    if (strict()) /* PoCL 3.1 dereferences the NULL wait list */
        EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST,
                   clEnqueueNDRangeKernel(queue, ids, 1, NULL, &count, NULL, 1, NULL, NULL));
    /* CL_INVALID_CONTEXT "if context associated with command_queue and kernel are not the same". */
    cl_context other = make_context(device);
    cl_command_queue other_queue = make_queue(other, device);
    EXPECT_ERR(CL_INVALID_CONTEXT, clEnqueueNDRangeKernel(other_queue, ids, 1, NULL, &count, NULL, 0, NULL, NULL));
    CHECK(clReleaseCommandQueue(other_queue));
    CHECK(clReleaseContext(other));

    CHECK(clFinish(queue));
    CHECK(clReleaseKernel(fixed));
    CHECK(clReleaseKernel(ids));
    CHECK(clReleaseKernel(add));
    CHECK(clReleaseMemObject(out));
    CHECK(clReleaseMemObject(buffer));
    CHECK(clReleaseProgram(program));
}

/* 5.8.5 Separate compilation and linking: an embedded header, a compiled object, a library, and
 * an executable linked from them. */
static void test_compile_link(void) {
    cl_program header = program_from_source("int twice(int x);\n");
    cl_program helper = program_from_source("#include \"ferrocl/twice.h\"\nint twice(int x) { return 2 * x; }\n");
    cl_program main_part = program_from_source(
        "#include \"ferrocl/twice.h\"\nkernel void doubled(global int *p) { p[get_global_id(0)] = twice((int)get_global_id(0)); }\n");
    const char *names[] = {"ferrocl/twice.h"};
    /* clCompileProgram: CL_INVALID_VALUE "if num_input_headers is zero and header_include_names
     * or input_headers are not NULL or if num_input_headers is not zero and header_include_names
     * or input_headers are NULL". */
    /* (PoCL 3.1 compiles without the header instead.) */
    EXPECT_ERR_DEVIATES(CL_INVALID_VALUE, clCompileProgram(helper, 1, &device, NULL, 0, &header, names, NULL, NULL));
    if (strict()) { /* PoCL 3.1 dereferences the NULL arrays */
        EXPECT_ERR(CL_INVALID_VALUE, clCompileProgram(helper, 1, &device, NULL, 1, NULL, names, NULL, NULL));
        EXPECT_ERR(CL_INVALID_VALUE, clCompileProgram(helper, 1, &device, NULL, 1, &header, NULL, NULL, NULL));
    }
    EXPECT_ERR(CL_INVALID_VALUE, clCompileProgram(helper, 1, NULL, NULL, 1, &header, names, NULL, NULL));

    CHECK(clCompileProgram(helper, 1, &device, NULL, 1, &header, names, NULL, NULL));
    CHECK(clCompileProgram(main_part, 0, NULL, NULL, 1, &header, names, NULL, NULL));
    /* CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT: "the specified program object was created using
     * clCreateProgramWithSource and compiled using clCompileProgram". */
    cl_program_binary_type type = 0;
    CHECK(clGetProgramBuildInfo(helper, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    EXPECT(build_status(helper) == CL_BUILD_SUCCESS);
    /* A compile error: CL_COMPILE_PROGRAM_FAILURE. */
    cl_program broken = program_from_source("int f(void) { return undeclared_name; }\n");
    EXPECT_ERR(CL_COMPILE_PROGRAM_FAILURE, clCompileProgram(broken, 1, &device, NULL, 0, NULL, NULL, NULL, NULL));
    EXPECT(build_status(broken) == CL_BUILD_ERROR);
    CHECK(clReleaseProgram(broken));

    if (device_uint(device, CL_DEVICE_LINKER_AVAILABLE)) {
        cl_int err = CL_SUCCESS;
        /* "-create-library": CL_PROGRAM_BINARY_TYPE_LIBRARY. */
        cl_program library = clLinkProgram(context, 1, &device, "-create-library", 1, &helper, NULL, NULL, &err);
        CHECK_RET(err);
        CHECK(clGetProgramBuildInfo(library, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL));
        EXPECT(type == CL_PROGRAM_BINARY_TYPE_LIBRARY);
        cl_program inputs[] = {main_part, library};
        cl_program linked = clLinkProgram(context, 1, &device, NULL, 2, inputs, NULL, NULL, &err);
        CHECK_RET(err);
        CHECK(clGetProgramBuildInfo(linked, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL));
        EXPECT(type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
        cl_kernel kernel = make_kernel(linked, "doubled");
        cl_mem out = make_buffer(context, CL_MEM_READ_WRITE, 16 * sizeof(cl_int), NULL);
        CHECK(clSetKernelArg(kernel, 0, sizeof out, &out));
        size_t count = 16;
        CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &count, NULL, 0, NULL, NULL));
        cl_int got[16];
        CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        for (int i = 0; i < 16; i++)
            EXPECT(got[i] == 2 * i);
        /* clLinkProgram: CL_INVALID_VALUE "if num_input_programs is zero and input_programs is NULL
         * or if num_input_programs is zero and input_programs is not NULL or if num_input_programs
         * is not zero and input_programs is NULL"; CL_INVALID_PROGRAM "if programs specified in
         * input_programs are not valid program objects". */
        cl_program bad = clLinkProgram(context, 1, &device, NULL, 0, NULL, NULL, NULL, &err);
        EXPECT_RET(CL_INVALID_VALUE, err);
        EXPECT(bad == NULL);
        bad = clLinkProgram(context, 1, &device, NULL, 0, inputs, NULL, NULL, &err);
        EXPECT_RET(CL_INVALID_VALUE, err);
        bad = clLinkProgram(context, 1, &device, NULL, 2, NULL, NULL, NULL, &err);
        EXPECT_RET(CL_INVALID_VALUE, err);
        cl_program null_input[] = {main_part, NULL};
        if (strict()) { /* PoCL 3.1 dereferences the NULL program */
            bad = clLinkProgram(context, 1, &device, NULL, 2, null_input, NULL, NULL, &err);
            EXPECT_RET(CL_INVALID_PROGRAM, err);
            EXPECT(bad == NULL);
        }
        CHECK(clReleaseMemObject(out));
        CHECK(clReleaseKernel(kernel));
        CHECK(clReleaseProgram(linked));
        CHECK(clReleaseProgram(library));
    }
    CHECK(clReleaseProgram(main_part));
    CHECK(clReleaseProgram(helper));
    CHECK(clReleaseProgram(header));
}

/* CL_PROGRAM_BINARIES round-trips through clCreateProgramWithBinary (5.8.4: "The executable binary
 * can be queried using clGetProgramInfo(program, CL_PROGRAM_BINARIES, ...) and can be specified to
 * clCreateProgramWithBinary to create a new program object"). */
static void test_binaries(void) {
    cl_program program = built_program(SOURCE, NULL);
    size_t binary_size = 0;
    CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof binary_size, &binary_size, NULL));
    REQUIRE(binary_size > 0);
    unsigned char *binary = malloc(binary_size);
    REQUIRE(binary != NULL);
    unsigned char *binaries[] = {binary};
    CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binaries, binaries, NULL));
    CHECK(clReleaseProgram(program));

    cl_int status = -1, err = CL_SUCCESS;
    const unsigned char *in[] = {binary};
    cl_program loaded = clCreateProgramWithBinary(context, 1, &device, &binary_size, in, &status, &err);
    CHECK_RET(err);
    EXPECT(status == CL_SUCCESS);
    CHECK(clBuildProgram(loaded, 1, &device, NULL, NULL, NULL));
    cl_kernel ids = make_kernel(loaded, "fill_ids");
    cl_mem out = make_buffer(context, CL_MEM_READ_WRITE, 8 * sizeof(cl_uint), NULL);
    CHECK(clSetKernelArg(ids, 0, sizeof out, &out));
    size_t count = 8;
    CHECK(clEnqueueNDRangeKernel(queue, ids, 1, NULL, &count, NULL, 0, NULL, NULL));
    cl_uint got[8];
    CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    for (cl_uint i = 0; i < 8; i++)
        EXPECT(got[i] == i);
    CHECK(clReleaseMemObject(out));
    CHECK(clReleaseKernel(ids));
    CHECK(clReleaseProgram(loaded));

    /* clCreateProgramWithBinary errors: CL_INVALID_VALUE "if device_list is NULL or num_devices is
     * zero" and "if lengths or binaries is NULL or if any entry in lengths[i] is zero or
     * binaries[i] is NULL"; CL_INVALID_BINARY "if an invalid program binary was encountered". */
    loaded = clCreateProgramWithBinary(context, 0, &device, &binary_size, in, &status, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    loaded = clCreateProgramWithBinary(context, 1, NULL, &binary_size, in, &status, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    size_t zero = 0;
    loaded = clCreateProgramWithBinary(context, 1, &device, &zero, in, &status, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    const unsigned char *null_binary[] = {NULL};
    loaded = clCreateProgramWithBinary(context, 1, &device, &binary_size, null_binary, &status, &err);
    EXPECT_RET(CL_INVALID_VALUE, err);
    static const unsigned char garbage[64] = "this is not a program binary of any kind, not even close......";
    const unsigned char *bad[] = {garbage};
    size_t garbage_size = sizeof garbage;
    loaded = clCreateProgramWithBinary(context, 1, &device, &garbage_size, bad, &status, &err);
    EXPECT_RET(CL_INVALID_BINARY, err);
    EXPECT(loaded == NULL);
    EXPECT(status != CL_SUCCESS);
    free(binary);
}

int main(void) {
    device = first_device();
    context = make_context(device);
    queue = make_queue(context, device);
    test_create_from_source();
    test_unbuilt_program();
    if (device_uint(device, CL_DEVICE_COMPILER_AVAILABLE)) {
        test_build();
        test_kernel_objects();
        test_execution();
        test_binaries();
        test_compile_link();
    } else {
        printf("program.c: no compiler; building, kernels and execution are not tested\n");
    }
    CHECK(clReleaseCommandQueue(queue));
    CHECK(clReleaseContext(context));
    return finish();
}
