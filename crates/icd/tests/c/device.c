/* 4.2 Querying Devices and 4.3 Partitioning a Device: clGetDeviceIDs, clGetDeviceInfo for
 * every query of Table 5 (sizes and the spec's consistency rules), clCreateSubDevices,
 * clRetainDevice / clReleaseDevice, clGetDeviceAndHostTimer and clGetHostTimer. */
#include "check.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

enum kind { UINT, ULONG, SIZE, BOOL, STRING, SIZES, NAME_VERSIONS, PARTITION_PROPS, PLATFORM, DEVICE };

struct query {
    cl_device_info param;
    const char *name;
    enum kind kind;
};

#define Q(param, kind) {param, #param, kind}

/* Table 5 (core queries of OpenCL 3.0; bit-fields are cl_ulong, enums and cl_version cl_uint). */
static const struct query QUERIES[] = {
    Q(CL_DEVICE_TYPE, ULONG),
    Q(CL_DEVICE_VENDOR_ID, UINT),
    Q(CL_DEVICE_MAX_COMPUTE_UNITS, UINT),
    Q(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, UINT),
    Q(CL_DEVICE_MAX_WORK_ITEM_SIZES, SIZES),
    Q(CL_DEVICE_MAX_WORK_GROUP_SIZE, SIZE),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, UINT),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, UINT),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, UINT),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, UINT),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, UINT),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, UINT),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, UINT),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, UINT),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, UINT),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, UINT),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, UINT),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, UINT),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, UINT),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, UINT),
    Q(CL_DEVICE_MAX_CLOCK_FREQUENCY, UINT),
    Q(CL_DEVICE_ADDRESS_BITS, UINT),
    Q(CL_DEVICE_MAX_MEM_ALLOC_SIZE, ULONG),
    Q(CL_DEVICE_IMAGE_SUPPORT, BOOL),
    Q(CL_DEVICE_MAX_READ_IMAGE_ARGS, UINT),
    Q(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, UINT),
    Q(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, UINT),
    Q(CL_DEVICE_IL_VERSION, STRING),
    Q(CL_DEVICE_ILS_WITH_VERSION, NAME_VERSIONS),
    Q(CL_DEVICE_IMAGE2D_MAX_WIDTH, SIZE),
    Q(CL_DEVICE_IMAGE2D_MAX_HEIGHT, SIZE),
    Q(CL_DEVICE_IMAGE3D_MAX_WIDTH, SIZE),
    Q(CL_DEVICE_IMAGE3D_MAX_HEIGHT, SIZE),
    Q(CL_DEVICE_IMAGE3D_MAX_DEPTH, SIZE),
    Q(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, SIZE),
    Q(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, SIZE),
    Q(CL_DEVICE_MAX_SAMPLERS, UINT),
    Q(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, UINT),
    Q(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, UINT),
    Q(CL_DEVICE_MAX_PIPE_ARGS, UINT),
    Q(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, UINT),
    Q(CL_DEVICE_PIPE_MAX_PACKET_SIZE, UINT),
    Q(CL_DEVICE_MAX_PARAMETER_SIZE, SIZE),
    Q(CL_DEVICE_MEM_BASE_ADDR_ALIGN, UINT),
    Q(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, UINT),
    Q(CL_DEVICE_SINGLE_FP_CONFIG, ULONG),
    Q(CL_DEVICE_DOUBLE_FP_CONFIG, ULONG),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, UINT),
    Q(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, UINT),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, ULONG),
    Q(CL_DEVICE_GLOBAL_MEM_SIZE, ULONG),
    Q(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, ULONG),
    Q(CL_DEVICE_MAX_CONSTANT_ARGS, UINT),
    Q(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, SIZE),
    Q(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, SIZE),
    Q(CL_DEVICE_LOCAL_MEM_TYPE, UINT),
    Q(CL_DEVICE_LOCAL_MEM_SIZE, ULONG),
    Q(CL_DEVICE_ERROR_CORRECTION_SUPPORT, BOOL),
    Q(CL_DEVICE_HOST_UNIFIED_MEMORY, BOOL),
    Q(CL_DEVICE_PROFILING_TIMER_RESOLUTION, SIZE),
    Q(CL_DEVICE_ENDIAN_LITTLE, BOOL),
    Q(CL_DEVICE_AVAILABLE, BOOL),
    Q(CL_DEVICE_COMPILER_AVAILABLE, BOOL),
    Q(CL_DEVICE_LINKER_AVAILABLE, BOOL),
    Q(CL_DEVICE_EXECUTION_CAPABILITIES, ULONG),
    Q(CL_DEVICE_QUEUE_PROPERTIES, ULONG),
    Q(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, ULONG),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, ULONG),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, UINT),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, UINT),
    Q(CL_DEVICE_MAX_ON_DEVICE_QUEUES, UINT),
    Q(CL_DEVICE_MAX_ON_DEVICE_EVENTS, UINT),
    Q(CL_DEVICE_BUILT_IN_KERNELS, STRING),
    Q(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, NAME_VERSIONS),
    Q(CL_DEVICE_PLATFORM, PLATFORM),
    Q(CL_DEVICE_NAME, STRING),
    Q(CL_DEVICE_VENDOR, STRING),
    Q(CL_DRIVER_VERSION, STRING),
    Q(CL_DEVICE_PROFILE, STRING),
    Q(CL_DEVICE_VERSION, STRING),
    Q(CL_DEVICE_NUMERIC_VERSION, UINT),
    Q(CL_DEVICE_OPENCL_C_VERSION, STRING),
    Q(CL_DEVICE_OPENCL_C_ALL_VERSIONS, NAME_VERSIONS),
    Q(CL_DEVICE_OPENCL_C_FEATURES, NAME_VERSIONS),
    Q(CL_DEVICE_EXTENSIONS, STRING),
    Q(CL_DEVICE_EXTENSIONS_WITH_VERSION, NAME_VERSIONS),
    Q(CL_DEVICE_PRINTF_BUFFER_SIZE, SIZE),
    Q(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, BOOL),
    Q(CL_DEVICE_PARENT_DEVICE, DEVICE),
    Q(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, UINT),
    Q(CL_DEVICE_PARTITION_PROPERTIES, PARTITION_PROPS),
    Q(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, ULONG),
    Q(CL_DEVICE_PARTITION_TYPE, PARTITION_PROPS),
    Q(CL_DEVICE_REFERENCE_COUNT, UINT),
    Q(CL_DEVICE_SVM_CAPABILITIES, ULONG),
    Q(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, UINT),
    Q(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, UINT),
    Q(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, UINT),
    Q(CL_DEVICE_MAX_NUM_SUB_GROUPS, UINT),
    Q(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, BOOL),
    Q(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, ULONG),
    Q(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, ULONG),
    Q(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, BOOL),
    Q(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, BOOL),
    Q(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, BOOL),
    Q(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, ULONG),
    Q(CL_DEVICE_PIPE_SUPPORT, BOOL),
    Q(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, SIZE),
    Q(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, STRING),
};

static size_t fixed_size(enum kind kind) {
    switch (kind) {
    case UINT:
    case BOOL:
        return sizeof(cl_uint);
    case ULONG:
        return sizeof(cl_ulong);
    case SIZE:
        return sizeof(size_t);
    case PLATFORM:
        return sizeof(cl_platform_id);
    case DEVICE:
        return sizeof(cl_device_id);
    default:
        return 0;
    }
}

static size_t element_size(enum kind kind) {
    switch (kind) {
    case SIZES:
        return sizeof(size_t);
    case NAME_VERSIONS:
        return sizeof(cl_name_version);
    case PARTITION_PROPS:
        return sizeof(cl_device_partition_property);
    default:
        return 1;
    }
}

/* Every query answers with its documented size, follows the size protocol, and a too small
 * buffer is CL_INVALID_VALUE (4.2: "if the size in bytes specified by param_value_size is less
 * than size of the return type ... and param_value is not NULL"). */
static void test_all_queries(cl_device_id device, cl_platform_id platform) {
    cl_uint dims = device_uint(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    for (size_t i = 0; i < sizeof QUERIES / sizeof QUERIES[0]; i++) {
        const struct query *q = &QUERIES[i];
        size_t size = (size_t)-1;
        cl_int err = clGetDeviceInfo(device, q->param, 0, NULL, &size);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "clGetDeviceInfo(%s) size query returned %s\n", q->name, cl_error_name(err));
            check_failures++;
            continue;
        }
        size_t want = fixed_size(q->kind);
        if (want != 0 && size != want) {
            /* PoCL 3.1 answers CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, a cl_bitfield, in 4 bytes. */
            EXPECT_DEVIATES(q->param == CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES && size == want);
            if (q->param != CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) {
                fprintf(stderr, "%s: size %zu, expected %zu\n", q->name, size, want);
                check_failures++;
            }
            continue;
        }
        if (q->kind == SIZES && size != dims * sizeof(size_t)) {
            fprintf(stderr, "%s: size %zu, expected %u size_t\n", q->name, size, dims);
            check_failures++;
        }
        if (size % element_size(q->kind) != 0) {
            fprintf(stderr, "%s: size %zu is not a whole number of elements\n", q->name, size);
            check_failures++;
        }
        if (q->kind == STRING && size < 1) {
            fprintf(stderr, "%s: a string needs at least its terminating NUL\n", q->name);
            check_failures++;
        }
        unsigned char *value = malloc(size + 16);
        REQUIRE(value != NULL);
        memset(value, 0xa5, size + 16);
        size_t size_ret = 0;
        err = clGetDeviceInfo(device, q->param, size + 16, value, &size_ret);
        if (err != CL_SUCCESS || size_ret != size) {
            fprintf(stderr, "%s: query with a larger buffer returned %s, size %zu (expected %zu)\n", q->name,
                    cl_error_name(err), size_ret, size);
            check_failures++;
        }
        if (value[size] != 0xa5) {
            fprintf(stderr, "%s: wrote past the value's size\n", q->name);
            check_failures++;
        }
        if (q->kind == STRING && size >= 1 && (value[size - 1] != '\0' || strlen((char *)value) + 1 != size)) {
            fprintf(stderr, "%s: not a NUL-terminated string of the reported size\n", q->name);
            check_failures++;
        }
        if (size > 0) {
            err = clGetDeviceInfo(device, q->param, size - 1, value, NULL);
            if (err != CL_INVALID_VALUE) {
                fprintf(stderr, "%s: param_value_size one byte too small returned %s, expected CL_INVALID_VALUE\n",
                        q->name, cl_error_name(err));
                check_failures++;
            }
            err = clGetDeviceInfo(device, q->param, size, value, NULL);
            if (err != CL_SUCCESS) {
                fprintf(stderr, "%s: exact size returned %s\n", q->name, cl_error_name(err));
                check_failures++;
            }
        }
        if (q->kind == PLATFORM)
            EXPECT(*(cl_platform_id *)value == platform);
        if (q->kind == BOOL)
            EXPECT(*(cl_bool *)value == CL_TRUE || *(cl_bool *)value == CL_FALSE);
        free(value);
    }
    size_t size = 0;
    /* 4.2: CL_INVALID_VALUE "if param_name is not one of the supported values". */
    EXPECT_ERR(CL_INVALID_VALUE, clGetDeviceInfo(device, 0x7fff, 0, NULL, &size));
    EXPECT_ERR(CL_INVALID_VALUE, clGetDeviceInfo(device, CL_PLATFORM_NAME, 0, NULL, &size));
    /* Neither value nor size: nothing to return, still a success. */
    CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, 0, NULL, NULL));
}

/* Reads a cl_name_version[] query. */
static cl_name_version *name_versions(cl_device_id device, cl_device_info param, size_t *count) {
    size_t size = 0;
    CHECK(clGetDeviceInfo(device, param, 0, NULL, &size));
    *count = size / sizeof(cl_name_version);
    cl_name_version *list = malloc(size + sizeof(cl_name_version));
    REQUIRE(list != NULL);
    if (size)
        CHECK(clGetDeviceInfo(device, param, size, list, NULL));
    for (size_t i = 0; i < *count; i++)
        EXPECT(memchr(list[i].name, '\0', CL_NAME_VERSION_MAX_NAME_SIZE) != NULL);
    return list;
}

static int has_word(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n) {
        if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return 1;
    }
    return 0;
}

static size_t count_words(const char *list, char separator) {
    size_t words = 0;
    for (const char *p = list; *p;) {
        while (*p == separator)
            p++;
        if (!*p)
            break;
        words++;
        while (*p && *p != separator)
            p++;
    }
    return words;
}

static int has_version(const cl_name_version *list, size_t count, const char *name, cl_uint major, cl_uint minor) {
    for (size_t i = 0; i < count; i++) {
        if (strcmp(list[i].name, name) == 0 && CL_VERSION_MAJOR(list[i].version) == major &&
            CL_VERSION_MINOR(list[i].version) == minor)
            return 1;
    }
    return 0;
}

static void test_versions(cl_device_id device) {
    char *version = device_string(device, CL_DEVICE_VERSION);
    /* Table 5: "OpenCL<space><major_version.minor_version><space><vendor-specific information>". */
    int major = -1, minor = -1;
    char space = 0;
    EXPECT(sscanf(version, "OpenCL %d.%d%c", &major, &minor, &space) == 3 && space == ' ');
    cl_version numeric = device_uint(device, CL_DEVICE_NUMERIC_VERSION);
    /* Table 5: "The major and minor version numbers returned must match those returned via
     * CL_DEVICE_VERSION." */
    EXPECT((int)CL_VERSION_MAJOR(numeric) == major && (int)CL_VERSION_MINOR(numeric) == minor);

    char *profile = device_string(device, CL_DEVICE_PROFILE);
    EXPECT(strcmp(profile, "FULL_PROFILE") == 0 || strcmp(profile, "EMBEDDED_PROFILE") == 0);

    if (device_uint(device, CL_DEVICE_COMPILER_AVAILABLE)) {
        char *c_version = device_string(device, CL_DEVICE_OPENCL_C_VERSION);
        /* Table 5: "OpenCL<space>C<space><major_version.minor_version><space><vendor-specific
         * information>" ... "an OpenCL 3.0 device must support at least OpenCL C 1.2". */
        int c_major = -1, c_minor = -1;
        space = 0;
        EXPECT(sscanf(c_version, "OpenCL C %d.%d%c", &c_major, &c_minor, &space) == 3 && space == ' ');
        if (major == 3)
            EXPECT(c_major > 1 || (c_major == 1 && c_minor >= 2));
        size_t count = 0;
        cl_name_version *all = name_versions(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, &count);
        /* Table 5: "In each returned description structure, the name field is required to be
         * "OpenCL C"" and "The version returned by CL_DEVICE_OPENCL_C_VERSION is required to be
         * present in the list." */
        for (size_t i = 0; i < count; i++)
            EXPECT(strcmp(all[i].name, "OpenCL C") == 0);
        EXPECT(has_version(all, count, "OpenCL C", (cl_uint)c_major, (cl_uint)c_minor));
        if (major == 3) {
            /* Table 5: "support for at least OpenCL C 3.0, OpenCL C 1.2, OpenCL C 1.1, and
             * OpenCL C 1.0 is required for an OpenCL 3.0 device." */
            EXPECT(has_version(all, count, "OpenCL C", 1, 0));
            EXPECT(has_version(all, count, "OpenCL C", 1, 1));
            EXPECT(has_version(all, count, "OpenCL C", 1, 2));
            EXPECT(has_version(all, count, "OpenCL C", 3, 0));
        }
        free(all);
        free(c_version);
        /* Table 5: "This must be CL_TRUE if CL_DEVICE_COMPILER_AVAILABLE is CL_TRUE." */
        EXPECT(device_uint(device, CL_DEVICE_LINKER_AVAILABLE) == CL_TRUE);
    } else {
        /* Table 5: "This can be CL_FALSE for the embedded platform profile only." */
        EXPECT(strcmp(profile, "EMBEDDED_PROFILE") == 0);
    }
    free(version);
    free(profile);

    /* Table 5: CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED "Returns the latest version of the
     * conformance test suite that this device has fully passed"; 4.2: its format is
     * vYYYY-MM-DD-XX, a release date of the suite (its first release for OpenCL 3.0 is of 2020). */
    char *conformance = device_string(device, CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED);
    int year = 0, month = 0, day = 0, patch = -1, end = 0;
    EXPECT(strlen(conformance) == 14 && conformance[0] == 'v');
    EXPECT(sscanf(conformance, "v%4d-%2d-%2d-%2d%n", &year, &month, &day, &patch, &end) == 4 && end == 14);
    /* PoCL 3.1 reports a zero date. */
    EXPECT_DEVIATES(year >= 2020 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && patch >= 0);
    free(conformance);
}

static int has_feature(const cl_name_version *list, size_t count, const char *name);

static void test_extensions(cl_device_id device) {
    char *extensions = device_string(device, CL_DEVICE_EXTENSIONS);
    size_t count = 0;
    cl_name_version *list = name_versions(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, &count);
    /* Table 5: "The same extension name must not be reported more than once. The list of
     * extensions reported must match the list reported via CL_DEVICE_EXTENSIONS." */
    EXPECT(count == count_words(extensions, ' '));
    for (size_t i = 0; i < count; i++) {
        if (!has_word(extensions, list[i].name)) {
            fprintf(stderr, "%s is in CL_DEVICE_EXTENSIONS_WITH_VERSION, not in CL_DEVICE_EXTENSIONS\n", list[i].name);
            check_failures++;
        }
        for (size_t j = 0; j < i; j++)
            EXPECT(strcmp(list[i].name, list[j].name) != 0);
    }
    /* Table 5: "The following Khronos extension names must be returned by all devices that
     * support OpenCL 1.1: cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics
     * cl_khr_global_int32_extended_atomics cl_khr_local_int32_base_atomics
     * cl_khr_local_int32_extended_atomics" */
    EXPECT(has_word(extensions, "cl_khr_byte_addressable_store"));
    EXPECT(has_word(extensions, "cl_khr_global_int32_base_atomics"));
    EXPECT(has_word(extensions, "cl_khr_global_int32_extended_atomics"));
    EXPECT(has_word(extensions, "cl_khr_local_int32_base_atomics"));
    EXPECT(has_word(extensions, "cl_khr_local_int32_extended_atomics"));

    /* cl_khr_fp64 "when and only when the optional feature is supported"; without it, the double
     * vector widths "must return 0" and the mandated minimum double capability is 0. */
    cl_ulong fp64 = device_ulong(device, CL_DEVICE_DOUBLE_FP_CONFIG);
    if (has_word(extensions, "cl_khr_fp64")) {
        /* "the minimum double precision floating-point capability for OpenCL 2.0 or newer
         * devices is: CL_FP_FMA CL_FP_ROUND_TO_NEAREST CL_FP_INF_NAN CL_FP_DENORM." */
        cl_ulong need = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM;
        EXPECT((fp64 & need) == need);
    } else {
        EXPECT(fp64 == 0);
        EXPECT(device_uint(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE) == 0);
        EXPECT(device_uint(device, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE) == 0);
    }
    /* "If the cl_khr_fp16 extension is not supported, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF must
     * return 0." (and the same for NATIVE). */
    if (!has_word(extensions, "cl_khr_fp16")) {
        EXPECT(device_uint(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) == 0);
        EXPECT(device_uint(device, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF) == 0);
    }

    /* cl_khr_integer_dot_product: the capabilities name the input forms, whose feature macros
     * the device lists; each acceleration-properties query is six cl_bools. Without the
     * extension, its queries are CL_INVALID_VALUE. */
    cl_ulong dot_caps = 0;
    cl_int dot_err = clGetDeviceInfo(device, CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR, sizeof dot_caps,
                                     &dot_caps, NULL);
    if (has_word(extensions, "cl_khr_integer_dot_product")) {
        EXPECT(dot_err == CL_SUCCESS);
        size_t features_count = 0;
        cl_name_version *features = name_versions(device, CL_DEVICE_OPENCL_C_FEATURES, &features_count);
        EXPECT(!!(dot_caps & CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR) ==
               has_feature(features, features_count, "__opencl_c_integer_dot_product_input_4x8bit"));
        EXPECT(!!(dot_caps & CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR) ==
               has_feature(features, features_count, "__opencl_c_integer_dot_product_input_4x8bit_packed"));
        free(features);
        size_t size = 0;
        CHECK(clGetDeviceInfo(device, CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR, 0, NULL, &size));
        EXPECT(size == 6 * sizeof(cl_bool));
        CHECK(clGetDeviceInfo(device, CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR, 0,
                              NULL, &size));
        EXPECT(size == 6 * sizeof(cl_bool));
    } else {
        EXPECT(dot_err == CL_INVALID_VALUE);
    }

    /* IL: "If the device does not support intermediate language programs, the value must be ""
     * (an empty string)." and ILS_WITH_VERSION "must match the list reported via
     * CL_DEVICE_IL_VERSION". */
    char *il = device_string(device, CL_DEVICE_IL_VERSION);
    size_t il_count = 0;
    cl_name_version *ils = name_versions(device, CL_DEVICE_ILS_WITH_VERSION, &il_count);
    EXPECT(il_count == count_words(il, ' '));
    free(ils);
    free(il);

    /* "The list of reported kernels must match the list returned via CL_DEVICE_BUILT_IN_KERNELS." */
    char *kernels = device_string(device, CL_DEVICE_BUILT_IN_KERNELS);
    size_t kernel_count = 0;
    cl_name_version *kernel_list = name_versions(device, CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, &kernel_count);
    EXPECT(kernel_count == count_words(kernels, ';'));
    free(kernel_list);
    free(kernels);
    free(list);
    free(extensions);
}

static int has_feature(const cl_name_version *list, size_t count, const char *name) {
    for (size_t i = 0; i < count; i++)
        if (strcmp(list[i].name, name) == 0)
            return 1;
    return 0;
}

/* 3.4.2: "Whenever an OpenCL C feature is optional in the new version of the OpenCL C
 * programming language, it will be paired with a feature macro, such as __opencl_c_<feature_name>,
 * and a corresponding API query. If a feature macro is defined then the feature is supported by
 * the OpenCL C compiler, otherwise the optional feature is not supported." CL_DEVICE_OPENCL_C_FEATURES
 * lists the macros (it "may return an empty array" without a compiler, so this needs one). */
static void test_feature_macros(cl_device_id device) {
    if (!device_uint(device, CL_DEVICE_COMPILER_AVAILABLE))
        return;
    size_t count = 0;
    cl_name_version *features = name_versions(device, CL_DEVICE_OPENCL_C_FEATURES, &count);
    /* "the returned version will be" that of "the OpenCL C version that introduced the feature
     * macro": 3.0 for every __opencl_c_ macro of OpenCL C 3.0. */
    for (size_t i = 0; i < count; i++)
        if (strncmp(features[i].name, "__opencl_c_", 11) == 0)
            EXPECT(CL_VERSION_MAJOR(features[i].version) >= 3);
    cl_ulong atomics = device_ulong(device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
    cl_ulong fences = device_ulong(device, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
    cl_ulong enqueue = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof enqueue, &enqueue, NULL));
    struct {
        const char *macro;
        int supported;
    } pairs[] = {
        {"__opencl_c_images", device_uint(device, CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE},
        {"__opencl_c_read_write_images", device_uint(device, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) > 0},
        {"__opencl_c_fp64", device_ulong(device, CL_DEVICE_DOUBLE_FP_CONFIG) != 0},
        {"__opencl_c_pipes", device_uint(device, CL_DEVICE_PIPE_SUPPORT) == CL_TRUE},
        {"__opencl_c_generic_address_space", device_uint(device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) == CL_TRUE},
        {"__opencl_c_device_enqueue", (enqueue & CL_DEVICE_QUEUE_SUPPORTED) != 0},
        {"__opencl_c_program_scope_global_variables", device_size(device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) > 0},
        {"__opencl_c_work_group_collective_functions",
         device_uint(device, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT) == CL_TRUE},
        {"__opencl_c_subgroups", device_uint(device, CL_DEVICE_MAX_NUM_SUB_GROUPS) > 0},
        {"__opencl_c_atomic_order_acq_rel", (atomics & CL_DEVICE_ATOMIC_ORDER_ACQ_REL) != 0},
        {"__opencl_c_atomic_order_seq_cst",
         (atomics & CL_DEVICE_ATOMIC_ORDER_SEQ_CST) && (fences & CL_DEVICE_ATOMIC_ORDER_SEQ_CST)},
        {"__opencl_c_atomic_scope_device",
         (atomics & CL_DEVICE_ATOMIC_SCOPE_DEVICE) && (fences & CL_DEVICE_ATOMIC_SCOPE_DEVICE)},
        {"__opencl_c_atomic_scope_all_devices",
         (atomics & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES) && (fences & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES)},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        int listed = has_feature(features, count, pairs[i].macro);
        if (listed != pairs[i].supported) {
            fprintf(stderr, "%s is %s by CL_DEVICE_OPENCL_C_FEATURES but the device query says %s\n", pairs[i].macro,
                    listed ? "listed" : "not listed", pairs[i].supported ? "supported" : "unsupported");
            check_failures++;
        }
    }
    /* Appendix H: "compilers for FULL_PROFILE devices must support these types and define the
     * macro unconditionally" (__opencl_c_int64); __opencl_c_device_enqueue and __opencl_c_pipes
     * "must also define the feature macro __opencl_c_generic_address_space", and
     * __opencl_c_device_enqueue also __opencl_c_program_scope_global_variables. */
    char *profile = device_string(device, CL_DEVICE_PROFILE);
    if (strcmp(profile, "FULL_PROFILE") == 0)
        EXPECT(has_feature(features, count, "__opencl_c_int64"));
    free(profile);
    if (has_feature(features, count, "__opencl_c_device_enqueue"))
        EXPECT(has_feature(features, count, "__opencl_c_generic_address_space") &&
               has_feature(features, count, "__opencl_c_program_scope_global_variables"));
    if (has_feature(features, count, "__opencl_c_pipes"))
        EXPECT(has_feature(features, count, "__opencl_c_generic_address_space"));
    free(features);
}

/* The minimums of Table 5 for a FULL_PROFILE device, and the features that must agree. */
static void test_limits(cl_device_id device) {
    char *profile = device_string(device, CL_DEVICE_PROFILE);
    int full = strcmp(profile, "FULL_PROFILE") == 0;
    free(profile);

    cl_ulong type = device_ulong(device, CL_DEVICE_TYPE);
    /* "The device must report a single device type, which must not be CL_DEVICE_TYPE_DEFAULT or
     * CL_DEVICE_TYPE_ALL." */
    EXPECT(type == CL_DEVICE_TYPE_CPU || type == CL_DEVICE_TYPE_GPU || type == CL_DEVICE_TYPE_ACCELERATOR ||
           type == CL_DEVICE_TYPE_CUSTOM);

    cl_uint vendor_id = device_uint(device, CL_DEVICE_VENDOR_ID);
    /* "the low 16 bits must contain that PCI vendor ID, and the remaining bits must be set to
     * zero. Otherwise ... Khronos vendor IDs are allocated starting at 0x10000". */
    EXPECT(vendor_id <= 0xffff || vendor_id >= 0x10000);
#if defined(__x86_64__) || defined(__i386__)
    /* ferrocl's CPU device names its vendor as the processor identifies itself (CPUID leaf 0:
     * "GenuineIntel", "AuthenticAMD"), never the bare "AMD" or "Intel" that clients take for
     * those vendors' GPU drivers. Table 5 asks only for a "Vendor name string", so other
     * implementations are not held to this. */
    if (type == CL_DEVICE_TYPE_CPU && !lenient()) {
        unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
        char cpuid_vendor[13] = "";
        if (__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
            memcpy(cpuid_vendor, &ebx, 4);
            memcpy(cpuid_vendor + 4, &edx, 4);
            memcpy(cpuid_vendor + 8, &ecx, 4);
            char *vendor = device_string(device, CL_DEVICE_VENDOR);
            EXPECT(strcmp(vendor, cpuid_vendor) == 0);
            free(vendor);
        }
    }
#endif

    EXPECT(device_uint(device, CL_DEVICE_MAX_COMPUTE_UNITS) >= 1);
    cl_uint dims = device_uint(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    EXPECT(dims >= 3); /* "The minimum value is 3." */
    size_t *sizes = calloc(dims, sizeof(size_t));
    REQUIRE(sizes != NULL);
    CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(size_t), sizes, NULL));
    for (cl_uint i = 0; i < dims; i++)
        EXPECT(sizes[i] >= 1); /* "The minimum value is (1, 1, 1)." */
    free(sizes);
    EXPECT(device_size(device, CL_DEVICE_MAX_WORK_GROUP_SIZE) >= 1);

    cl_uint address_bits = device_uint(device, CL_DEVICE_ADDRESS_BITS);
    EXPECT(address_bits == 32 || address_bits == 64); /* "supported values are 32 or 64 bits" */

    cl_ulong global = device_ulong(device, CL_DEVICE_GLOBAL_MEM_SIZE);
    cl_ulong max_alloc = device_ulong(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    /* "The minimum value is max(min(1024 × 1024 × 1024, 1/4th of CL_DEVICE_GLOBAL_MEM_SIZE),
     * 32 × 1024 × 1024)." */
    cl_ulong quarter = global / 4;
    cl_ulong min_alloc = quarter < (1ull << 30) ? quarter : (1ull << 30);
    if (min_alloc < 32ull << 20)
        min_alloc = 32ull << 20;
    EXPECT(max_alloc >= min_alloc);
    EXPECT(max_alloc <= global);

    if (full) {
        EXPECT(device_ulong(device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) >= 64 * 1024);
        EXPECT(device_uint(device, CL_DEVICE_MAX_CONSTANT_ARGS) >= 8);
        EXPECT(device_ulong(device, CL_DEVICE_LOCAL_MEM_SIZE) >= 32 * 1024);
        EXPECT(device_size(device, CL_DEVICE_MAX_PARAMETER_SIZE) >= 1024);
        /* "The minimum value is the size (in bits) of the largest OpenCL built-in data type
         * supported by the device (long16 in FULL profile ...)." */
        EXPECT(device_uint(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) >= 8 * 128);
        EXPECT(device_uint(device, CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE) >= 128);
        EXPECT(device_size(device, CL_DEVICE_PRINTF_BUFFER_SIZE) >= 1024 * 1024);
        /* "For the full profile, the mandated minimum floating-point capability is:
         * CL_FP_ROUND_TO_NEAREST CL_FP_INF_NAN." */
        cl_ulong fp = device_ulong(device, CL_DEVICE_SINGLE_FP_CONFIG);
        EXPECT((fp & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)) == (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN));
    }
    cl_uint cache_type = device_uint(device, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE);
    EXPECT(cache_type == CL_NONE || cache_type == CL_READ_ONLY_CACHE || cache_type == CL_READ_WRITE_CACHE);
    cl_uint local_type = device_uint(device, CL_DEVICE_LOCAL_MEM_TYPE);
    EXPECT(local_type == CL_LOCAL || local_type == CL_GLOBAL || (type == CL_DEVICE_TYPE_CUSTOM && local_type == CL_NONE));

    /* "The mandated minimum capability is: CL_EXEC_KERNEL." */
    EXPECT(device_ulong(device, CL_DEVICE_EXECUTION_CAPABILITIES) & CL_EXEC_KERNEL);
    /* QUEUE_ON_HOST_PROPERTIES: "The mandated minimum capability is: CL_QUEUE_PROFILING_ENABLE." */
    cl_ulong host_queue = device_ulong(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
    EXPECT(host_queue & CL_QUEUE_PROFILING_ENABLE);
    EXPECT((host_queue & ~(cl_ulong)(CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) == 0);
    EXPECT(device_ulong(device, CL_DEVICE_QUEUE_PROPERTIES) == host_queue);

    /* ATOMIC_MEMORY_CAPABILITIES: "The mandated minimum capability is:
     * CL_DEVICE_ATOMIC_ORDER_RELAXED CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP". */
    cl_ulong atomics = device_ulong(device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
    EXPECT((atomics & (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP)) ==
           (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP));
    cl_ulong fences = device_ulong(device, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
    cl_ulong fence_min = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
    EXPECT((fences & fence_min) == fence_min);

    /* Images: each limit "is 0 otherwise" when CL_DEVICE_IMAGE_SUPPORT is CL_FALSE. */
    if (device_uint(device, CL_DEVICE_IMAGE_SUPPORT)) {
        EXPECT(device_uint(device, CL_DEVICE_MAX_READ_IMAGE_ARGS) >= 128);
        EXPECT(device_uint(device, CL_DEVICE_MAX_WRITE_IMAGE_ARGS) >= 64);
        /* PoCL 3.1 reports 8192. */
        EXPECT_DEVIATES(device_size(device, CL_DEVICE_IMAGE2D_MAX_WIDTH) >= 16384);
        EXPECT_DEVIATES(device_size(device, CL_DEVICE_IMAGE2D_MAX_HEIGHT) >= 16384);
        EXPECT(device_size(device, CL_DEVICE_IMAGE3D_MAX_WIDTH) >= 2048);
        EXPECT(device_size(device, CL_DEVICE_IMAGE3D_MAX_HEIGHT) >= 2048);
        EXPECT(device_size(device, CL_DEVICE_IMAGE3D_MAX_DEPTH) >= 2048);
        EXPECT(device_size(device, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) >= 65536);
        EXPECT(device_size(device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) >= 2048);
        EXPECT(device_uint(device, CL_DEVICE_MAX_SAMPLERS) >= 16);
    } else {
        EXPECT(device_uint(device, CL_DEVICE_MAX_READ_IMAGE_ARGS) == 0);
        EXPECT(device_uint(device, CL_DEVICE_MAX_WRITE_IMAGE_ARGS) == 0);
        EXPECT(device_uint(device, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) == 0);
        EXPECT(device_size(device, CL_DEVICE_IMAGE2D_MAX_WIDTH) == 0);
        EXPECT(device_size(device, CL_DEVICE_IMAGE2D_MAX_HEIGHT) == 0);
        EXPECT(device_size(device, CL_DEVICE_IMAGE3D_MAX_WIDTH) == 0);
        EXPECT(device_size(device, CL_DEVICE_IMAGE3D_MAX_HEIGHT) == 0);
        EXPECT(device_size(device, CL_DEVICE_IMAGE3D_MAX_DEPTH) == 0);
        EXPECT(device_size(device, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) == 0);
        EXPECT(device_size(device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) == 0);
        EXPECT(device_uint(device, CL_DEVICE_MAX_SAMPLERS) == 0);
    }
    /* IMAGE_PITCH_ALIGNMENT / IMAGE_BASE_ADDRESS_ALIGNMENT: "The value returned must be a power
     * of 2" or 0 without 2D images from buffers. */
    cl_uint pitch = device_uint(device, CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
    EXPECT((pitch & (pitch - 1)) == 0);
    cl_uint base = device_uint(device, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT);
    EXPECT((base & (base - 1)) == 0);

    /* Pipes: the limits "must be 0 for devices that do not support pipes"; "Devices that return
     * CL_TRUE for CL_DEVICE_PIPE_SUPPORT must also return CL_TRUE for
     * CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT." */
    if (device_uint(device, CL_DEVICE_PIPE_SUPPORT)) {
        EXPECT(device_uint(device, CL_DEVICE_MAX_PIPE_ARGS) >= 16);
        EXPECT(device_uint(device, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS) >= 1);
        EXPECT(device_uint(device, CL_DEVICE_PIPE_MAX_PACKET_SIZE) >= 1024);
        EXPECT(device_uint(device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) == CL_TRUE);
    } else {
        EXPECT(device_uint(device, CL_DEVICE_MAX_PIPE_ARGS) == 0);
        EXPECT(device_uint(device, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS) == 0);
        EXPECT(device_uint(device, CL_DEVICE_PIPE_MAX_PACKET_SIZE) == 0);
    }

    /* Device-side enqueue: the on-device queue limits "must be 0 for devices that do not support
     * on-device queues"; "If CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT is set, CL_DEVICE_QUEUE_SUPPORTED
     * must also be set." */
    cl_ulong enqueue = 0; /* read as in a 4-byte answer too (PoCL 3.1, see above) */
    CHECK(clGetDeviceInfo(device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof enqueue, &enqueue, NULL));
    if (enqueue & CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT)
        EXPECT(enqueue & CL_DEVICE_QUEUE_SUPPORTED);
    if (!(enqueue & CL_DEVICE_QUEUE_SUPPORTED)) {
        EXPECT(device_ulong(device, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES) == 0);
        EXPECT(device_uint(device, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE) == 0);
        EXPECT(device_uint(device, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE) == 0);
        EXPECT(device_uint(device, CL_DEVICE_MAX_ON_DEVICE_QUEUES) == 0);
        EXPECT(device_uint(device, CL_DEVICE_MAX_ON_DEVICE_EVENTS) == 0);
    }

    /* Sub-groups: MAX_NUM_SUB_GROUPS "must be 0 for devices that do not support sub-groups", and
     * INDEPENDENT_FORWARD_PROGRESS "must return CL_FALSE for devices that do not support
     * sub-groups". */
    if (device_uint(device, CL_DEVICE_MAX_NUM_SUB_GROUPS) == 0)
        EXPECT(device_uint(device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS) == CL_FALSE);

    /* Program-scope globals: "The minimum value is 64 KB if the device supports program scope
     * global variables, and must be 0 for devices that do not". */
    size_t global_var = device_size(device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE);
    EXPECT(global_var == 0 || global_var >= 64 * 1024);

    /* "The value returned cannot exceed CL_DEVICE_MAX_COMPUTE_UNITS." */
    EXPECT(device_uint(device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) <=
           device_uint(device, CL_DEVICE_MAX_COMPUTE_UNITS));
    EXPECT(device_uint(device, CL_DEVICE_AVAILABLE) == CL_TRUE);

    /* Root device: "If device is a root-level device, a NULL value is returned." and "If the
     * device is a root-level device, a reference count of one is returned." */
    cl_device_id parent = (cl_device_id)(uintptr_t)1;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
    EXPECT(parent == NULL);
    EXPECT(device_uint(device, CL_DEVICE_REFERENCE_COUNT) == 1);
    /* PARTITION_TYPE of a device that is no sub-device: "may either return a
     * param_value_size_ret of 0 ... or can return a property value of 0". */
    size_t size = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_PARTITION_TYPE, 0, NULL, &size));
    if (size > 0) {
        cl_device_partition_property first = -1;
        CHECK(clGetDeviceInfo(device, CL_DEVICE_PARTITION_TYPE, sizeof first, &first, NULL));
        EXPECT(first == 0);
    }
}

static void test_get_device_ids(cl_platform_id platform, cl_device_id device) {
    cl_uint n = 0;
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n));
    REQUIRE(n >= 1);
    cl_device_id *all = calloc(n + 1, sizeof *all);
    REQUIRE(all != NULL);
    all[n] = (cl_device_id)(uintptr_t)0x1234;
    cl_uint n2 = 0;
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n + 1, all, &n2));
    EXPECT(n2 == n);
    EXPECT(all[0] == device);
    EXPECT(all[n] == (cl_device_id)(uintptr_t)0x1234);

    /* Each device is found by its own type; "One device in the platform must be returned as the
     * CL_DEVICE_TYPE_DEFAULT device". */
    cl_ulong type = device_ulong(device, CL_DEVICE_TYPE);
    cl_uint of_type = 0;
    CHECK(clGetDeviceIDs(platform, type, 0, NULL, &of_type));
    EXPECT(of_type >= 1 && of_type <= n);
    cl_uint defaults = 0;
    cl_device_id default_device = NULL;
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &default_device, &defaults));
    EXPECT(defaults == 1);
    EXPECT(default_device != NULL);
    /* A combination of types finds the union. */
    cl_uint any = 0;
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                       CL_DEVICE_TYPE_CUSTOM,
                         0, NULL, &any));
    EXPECT(any == n);

    /* 4.2: CL_DEVICE_NOT_FOUND "if no OpenCL devices that matched device_type were found". */
    cl_device_type types[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR,
                              CL_DEVICE_TYPE_CUSTOM};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        cl_uint count = 0;
        cl_int err = clGetDeviceIDs(platform, types[i], 0, NULL, &count);
        int present = 0;
        for (cl_uint d = 0; d < n; d++)
            present |= device_ulong(all[d], CL_DEVICE_TYPE) == types[i];
        if (present) {
            EXPECT(err == CL_SUCCESS && count >= 1);
        } else {
            EXPECT_ERR(CL_DEVICE_NOT_FOUND, err);
            /* Also with a devices array. */
            cl_device_id none = NULL;
            EXPECT_ERR(CL_DEVICE_NOT_FOUND, clGetDeviceIDs(platform, types[i], 1, &none, NULL));
        }
    }

    /* 4.2: CL_INVALID_DEVICE_TYPE "if device_type is not a valid value". (PoCL 3.1 answers
     * CL_DEVICE_NOT_FOUND.) */
    EXPECT_ERR_DEVIATES(CL_INVALID_DEVICE_TYPE, clGetDeviceIDs(platform, (cl_device_type)1 << 40, 0, NULL, &n2));
    EXPECT_ERR_DEVIATES(CL_INVALID_DEVICE_TYPE, clGetDeviceIDs(platform, 0, 0, NULL, &n2));
    /* 4.2: CL_INVALID_VALUE "if num_entries is equal to zero and devices is not NULL or if both
     * num_devices and devices are NULL". */
    EXPECT_ERR(CL_INVALID_VALUE, clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, all, &n2));
    EXPECT_ERR(CL_INVALID_VALUE, clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, all, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, NULL, NULL));
    free(all);

    /* 4.2: CL_INVALID_PLATFORM "if platform is not a valid platform"; CL_INVALID_DEVICE "if
     * device is not a valid device" (here: handles of other object types). */
    cl_context context = make_context(device);
    size_t size = 0;
    if (wrong_type_checks()) {
        EXPECT_ERR(CL_INVALID_PLATFORM, clGetDeviceIDs((cl_platform_id)context, CL_DEVICE_TYPE_ALL, 0, NULL, &n2));
        EXPECT_ERR(CL_INVALID_PLATFORM, clGetDeviceIDs((cl_platform_id)device, CL_DEVICE_TYPE_ALL, 0, NULL, &n2));
        EXPECT_ERR(CL_INVALID_DEVICE, clGetDeviceInfo((cl_device_id)context, CL_DEVICE_NAME, 0, NULL, &size));
        EXPECT_ERR(CL_INVALID_DEVICE, clGetDeviceInfo((cl_device_id)platform, CL_DEVICE_NAME, 0, NULL, &size));
        EXPECT_ERR(CL_INVALID_DEVICE, clRetainDevice((cl_device_id)context));
        EXPECT_ERR(CL_INVALID_DEVICE, clReleaseDevice((cl_device_id)context));
    }
    EXPECT_ERR(CL_INVALID_DEVICE, clGetDeviceInfo(NULL, CL_DEVICE_NAME, 0, NULL, &size));
    EXPECT_ERR(CL_INVALID_DEVICE, clRetainDevice(NULL));
    EXPECT_ERR(CL_INVALID_DEVICE, clReleaseDevice(NULL));
    CHECK(clReleaseContext(context));
}

static void test_root_device_refcount(cl_device_id device) {
    /* 4.3: for a root-level device "the device reference count remains unchanged" and
     * clRetainDevice "returns CL_SUCCESS if ... the device is a root-level device". */
    CHECK(clRetainDevice(device));
    CHECK(clRetainDevice(device));
    EXPECT(device_uint(device, CL_DEVICE_REFERENCE_COUNT) == 1);
    CHECK(clReleaseDevice(device));
    CHECK(clReleaseDevice(device));
    CHECK(clReleaseDevice(device)); /* unchanged: releasing a root device more often is fine */
    EXPECT(device_uint(device, CL_DEVICE_REFERENCE_COUNT) == 1);
    /* The device stays usable. */
    EXPECT(device_uint(device, CL_DEVICE_MAX_COMPUTE_UNITS) >= 1);
}

static int supports_partition(cl_device_id device, cl_device_partition_property scheme) {
    size_t size = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_PARTITION_PROPERTIES, 0, NULL, &size));
    cl_device_partition_property props[16] = {0};
    if (size > sizeof props)
        size = sizeof props;
    if (size)
        CHECK(clGetDeviceInfo(device, CL_DEVICE_PARTITION_PROPERTIES, sizeof props, props, NULL));
    for (size_t i = 0; i < size / sizeof props[0]; i++)
        if (props[i] == scheme)
            return 1;
    return 0;
}

static void test_sub_devices(cl_device_id device) {
    cl_uint units = device_uint(device, CL_DEVICE_MAX_COMPUTE_UNITS);
    cl_uint max_sub = device_uint(device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES);
    cl_uint n = 0;
    cl_device_id out[64];

    /* 4.3: CL_INVALID_VALUE "if values specified in properties are not valid". */
    cl_device_partition_property bogus[] = {0x7fff, 1, 0};
    EXPECT_ERR(CL_INVALID_VALUE, clCreateSubDevices(device, bogus, 64, out, &n));
    /* CL_INVALID_DEVICE "if in_device is not a valid device". */
    cl_device_partition_property equally_one[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    EXPECT_ERR(CL_INVALID_DEVICE, clCreateSubDevices(NULL, equally_one, 64, out, &n));

    if (!supports_partition(device, CL_DEVICE_PARTITION_EQUALLY)) {
        /* "or if values specified in properties are valid but not supported by the device." */
        EXPECT_ERR(CL_INVALID_VALUE, clCreateSubDevices(device, equally_one, 64, out, &n));
    } else if (units >= 2 && max_sub >= 2) {
        cl_uint per = units / 2;
        cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, (cl_device_partition_property)per, 0};
        CHECK(clCreateSubDevices(device, equally, 0, NULL, &n));
        EXPECT(n == units / per);
        REQUIRE(n >= 1 && n <= 64);
        /* CL_INVALID_VALUE "if out_devices is not NULL and num_devices is less than the number of
         * sub-devices created by the partition scheme." */
        EXPECT_ERR(CL_INVALID_VALUE, clCreateSubDevices(device, equally, n - 1 == 0 ? 0 : n - 1, out, NULL));
        CHECK(clCreateSubDevices(device, equally, n, out, NULL));
        for (cl_uint i = 0; i < n; i++) {
            cl_device_id parent = NULL;
            CHECK(clGetDeviceInfo(out[i], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
            EXPECT(parent == device);
            EXPECT(device_uint(out[i], CL_DEVICE_MAX_COMPUTE_UNITS) == per);
            EXPECT(device_uint(out[i], CL_DEVICE_REFERENCE_COUNT) == 1);
            cl_device_partition_property type[3] = {0};
            size_t size = 0;
            CHECK(clGetDeviceInfo(out[i], CL_DEVICE_PARTITION_TYPE, sizeof type, type, &size));
            /* "Returns the properties argument specified in clCreateSubDevices if device is a
             * sub-device." */
            EXPECT(size == sizeof equally && type[0] == CL_DEVICE_PARTITION_EQUALLY &&
                   type[1] == (cl_device_partition_property)per && type[2] == 0);
            /* Sub-devices are usable: a context on one. */
            cl_context context = make_context(out[i]);
            CHECK(clReleaseContext(context));
            CHECK(clRetainDevice(out[i]));
            EXPECT(device_uint(out[i], CL_DEVICE_REFERENCE_COUNT) == 2);
            CHECK(clReleaseDevice(out[i]));
            CHECK(clReleaseDevice(out[i]));
        }
    }
    if (supports_partition(device, CL_DEVICE_PARTITION_BY_COUNTS)) {
        /* CL_INVALID_DEVICE_PARTITION_COUNT if "the total number of compute units requested
         * exceeds CL_DEVICE_MAX_COMPUTE_UNITS for in_device". */
        cl_device_partition_property too_many[] = {CL_DEVICE_PARTITION_BY_COUNTS, (cl_device_partition_property)units + 1,
                                                   CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
        EXPECT_ERR(CL_INVALID_DEVICE_PARTITION_COUNT, clCreateSubDevices(device, too_many, 64, out, &n));
        cl_device_partition_property one[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
        CHECK(clCreateSubDevices(device, one, 64, out, &n));
        EXPECT(n == 1);
        EXPECT(device_uint(out[0], CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
        CHECK(clReleaseDevice(out[0]));
    }
}

static void test_timers(cl_platform_id platform, cl_device_id device) {
    cl_ulong resolution = 0;
    CHECK(clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof resolution, &resolution, NULL));
    cl_ulong device_ts = 0, host_ts = 0;
    cl_int err = clGetDeviceAndHostTimer(device, &device_ts, &host_ts);
    if (err == CL_INVALID_OPERATION) {
        /* "CL_INVALID_OPERATION if the platform associated with device does not support device
         * and host timer synchronization", and then the resolution "must be 0". */
        EXPECT(resolution == 0);
        EXPECT_ERR(CL_INVALID_OPERATION, clGetHostTimer(device, &host_ts));
        return;
    }
    CHECK(err);
    /* "CL_INVALID_VALUE if host_timestamp or device_timestamp is NULL." */
    EXPECT_ERR(CL_INVALID_VALUE, clGetDeviceAndHostTimer(device, NULL, &host_ts));
    EXPECT_ERR(CL_INVALID_VALUE, clGetDeviceAndHostTimer(device, &device_ts, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clGetHostTimer(device, NULL));
    EXPECT_ERR(CL_INVALID_DEVICE, clGetHostTimer(NULL, &host_ts));
    EXPECT_ERR(CL_INVALID_DEVICE, clGetDeviceAndHostTimer(NULL, &device_ts, &host_ts));

    /* Both timers count nanoseconds and do not go back. The timer reads sit between two wall
     * clock reads around a 20 ms sleep, so each timer's elapsed time is at least the sleep (in
     * nanoseconds: a coarser unit shows as far less) and at most the wall time around it. */
    cl_ulong host0 = 0, host1 = 0, dev0 = 0, dev1 = 0, host2 = 0;
    const uint64_t sleep_ns = 20 * 1000 * 1000;
    uint64_t wall0 = now_ns();
    CHECK(clGetDeviceAndHostTimer(device, &dev0, &host0));
    struct timespec pause = {0, (long)sleep_ns};
    nanosleep(&pause, NULL);
    CHECK(clGetHostTimer(device, &host1));
    CHECK(clGetDeviceAndHostTimer(device, &dev1, &host2));
    uint64_t wall1 = now_ns();
    EXPECT(host1 >= host0 && host2 >= host1);
    EXPECT(dev1 >= dev0);
    uint64_t wall = wall1 - wall0, slack = 1000 * 1000; /* clock granularity */
    EXPECT(host1 - host0 + slack >= sleep_ns && host2 - host0 <= wall + slack);
    EXPECT(dev1 - dev0 + slack >= sleep_ns && dev1 - dev0 <= wall + slack);
}

int main(void) {
    cl_platform_id platform = first_platform();
    cl_device_id device = first_device();
    test_get_device_ids(platform, device);
    test_all_queries(device, platform);
    test_versions(device);
    test_extensions(device);
    test_feature_macros(device);
    test_limits(device);
    test_root_device_refcount(device);
    test_sub_devices(device);
    test_timers(platform, device);
    return finish();
}
