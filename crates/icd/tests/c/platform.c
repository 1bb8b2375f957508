/* 4.1 Querying Platform Info: clGetPlatformIDs, clGetPlatformInfo and
 * clGetExtensionFunctionAddressForPlatform. */
#include "check.h"

/* A string query: checks the size protocol and returns the malloc'ed value. */
static char *platform_string(cl_platform_id platform, cl_platform_info param) {
    size_t size = 0;
    /* 4.1: "If param_value is NULL, it is ignored." */
    CHECK(clGetPlatformInfo(platform, param, 0, NULL, &size));
    REQUIRE(size >= 1);
    char *s = malloc(size + 8);
    REQUIRE(s != NULL);
    memset(s, 'x', size + 8);
    size_t size_ret = 0;
    /* A larger buffer is fine; param_value_size_ret is "the actual size in bytes". */
    CHECK(clGetPlatformInfo(platform, param, size + 8, s, &size_ret));
    EXPECT(size_ret == size);
    EXPECT(s[size - 1] == '\0');
    EXPECT(strlen(s) + 1 == size);
    EXPECT(s[size] == 'x'); /* nothing written past the value */
    /* 4.1: CL_INVALID_VALUE if "the size in bytes specified by param_value_size is less than
     * size of the return type ... and param_value is not NULL". */
    if (size > 1) {
        EXPECT_ERR(CL_INVALID_VALUE, clGetPlatformInfo(platform, param, size - 1, s, NULL));
    }
    /* The exact size works. */
    CHECK(clGetPlatformInfo(platform, param, size, s, NULL));
    return s;
}

/* Whether the space separated `list` holds `name`. */
static int has_word(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n) {
        int starts = p == list || p[-1] == ' ';
        int ends = p[n] == '\0' || p[n] == ' ';
        if (starts && ends)
            return 1;
    }
    return 0;
}

static void test_get_platform_ids(void) {
    cl_uint n = 0;
    CHECK(clGetPlatformIDs(0, NULL, &n));
    /* 4.1: CL_SUCCESS "if the cl_khr_icd extension is supported, there are a non-zero number of
     * platforms available". */
    REQUIRE(n >= 1);
    cl_platform_id *all = calloc(n + 1, sizeof *all);
    REQUIRE(all != NULL);
    cl_uint n2 = 0;
    /* 4.1: "The number of OpenCL platforms returned is the minimum of the value specified by
     * num_entries or the number of OpenCL platforms available." */
    /* What lies past the platforms returned is not the spec's concern: the Khronos loader
     * overwrote the entry past them (with ferrocl its only platform), Debian's ocl-icd leaves
     * it alone. */
    CHECK(clGetPlatformIDs(n + 1, all, &n2));
    EXPECT(n2 == n);
    for (cl_uint i = 0; i < n; i++)
        EXPECT(all[i] != NULL);
    cl_platform_id one = NULL;
    CHECK(clGetPlatformIDs(1, &one, NULL));
    EXPECT(one == all[0]);
    /* 4.1: CL_INVALID_VALUE "if num_entries is equal to zero and platforms is not NULL or if both
     * num_platforms and platforms are NULL". */
    EXPECT_ERR(CL_INVALID_VALUE, clGetPlatformIDs(0, &one, &n2));
    EXPECT_ERR(CL_INVALID_VALUE, clGetPlatformIDs(0, &one, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clGetPlatformIDs(1, NULL, NULL));
    free(all);
}

static void test_platform_info(cl_platform_id platform) {
    char *profile = platform_string(platform, CL_PLATFORM_PROFILE);
    /* Table 3: "The profile name returned can be one of the following strings: FULL_PROFILE ...
     * EMBEDDED_PROFILE". */
    EXPECT(strcmp(profile, "FULL_PROFILE") == 0 || strcmp(profile, "EMBEDDED_PROFILE") == 0);

    char *version = platform_string(platform, CL_PLATFORM_VERSION);
    /* Table 3: "OpenCL<space><major_version.minor_version><space><platform-specific
     * information>" where major.minor is one of 1.0, 1.1, 1.2, 2.0, 2.1, 2.2 or 3.0. */
    int major = -1, minor = -1;
    char space = 0;
    EXPECT(sscanf(version, "OpenCL %d.%d%c", &major, &minor, &space) == 3 && space == ' ');
    EXPECT((major == 1 && minor >= 0 && minor <= 2) || (major == 2 && minor >= 0 && minor <= 2) ||
           (major == 3 && minor == 0));

    cl_version numeric = 0;
    size_t size = 0;
    CHECK(clGetPlatformInfo(platform, CL_PLATFORM_NUMERIC_VERSION, sizeof numeric, &numeric, &size));
    EXPECT(size == sizeof(cl_version));
    /* Table 3: "The major and minor version numbers returned must match those returned via
     * CL_PLATFORM_VERSION." */
    EXPECT((int)CL_VERSION_MAJOR(numeric) == major);
    EXPECT((int)CL_VERSION_MINOR(numeric) == minor);
    EXPECT_ERR(CL_INVALID_VALUE,
               clGetPlatformInfo(platform, CL_PLATFORM_NUMERIC_VERSION, sizeof numeric - 1, &numeric, NULL));

    free(platform_string(platform, CL_PLATFORM_NAME));
    free(platform_string(platform, CL_PLATFORM_VENDOR));

    char *extensions = platform_string(platform, CL_PLATFORM_EXTENSIONS);
    size = 0;
    CHECK(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, NULL, &size));
    EXPECT(size % sizeof(cl_name_version) == 0);
    size_t count = size / sizeof(cl_name_version);
    cl_name_version *with_version = malloc(size + sizeof(cl_name_version));
    REQUIRE(with_version != NULL);
    if (size > 0) {
        CHECK(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, size, with_version, NULL));
        EXPECT_ERR(CL_INVALID_VALUE, clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION,
                                                       size - 1, with_version, NULL));
    }
    /* Table 3: "The same extension name must not be reported more than once. The list of
     * extensions reported must match the list reported via CL_PLATFORM_EXTENSIONS." */
    size_t words = 0;
    for (const char *p = extensions; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        words++;
        while (*p && *p != ' ')
            p++;
    }
    EXPECT(words == count);
    for (size_t i = 0; i < count; i++) {
        const char *name = with_version[i].name;
        EXPECT(memchr(name, '\0', CL_NAME_VERSION_MAX_NAME_SIZE) != NULL);
        EXPECT(has_word(extensions, name));
        for (size_t j = 0; j < i; j++)
            EXPECT(strcmp(with_version[j].name, name) != 0);
    }

    cl_ulong resolution = 0;
    size = 0;
    CHECK(clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof resolution, &resolution, &size));
    EXPECT(size == sizeof(cl_ulong));
    EXPECT_ERR(CL_INVALID_VALUE, clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION,
                                                   sizeof resolution - 1, &resolution, NULL));

    /* The loader finds the platform through cl_khr_icd, so it is listed, with its suffix. */
    EXPECT(has_word(extensions, "cl_khr_icd"));
    char *suffix = platform_string(platform, CL_PLATFORM_ICD_SUFFIX_KHR);
    free(suffix);

    /* 4.1: CL_INVALID_VALUE "if param_name is not one of the supported values". */
    EXPECT_ERR(CL_INVALID_VALUE, clGetPlatformInfo(platform, 0x7fff, 0, NULL, &size));
    EXPECT_ERR(CL_INVALID_VALUE, clGetPlatformInfo(platform, CL_DEVICE_NAME, 0, NULL, &size));
    /* Only size_ret, only the value, or neither: all succeed. */
    char name[256];
    CHECK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, NULL));
    CHECK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, NULL, NULL));

    free(profile);
    free(version);
    free(extensions);
    free(with_version);
}

/* Table 3, CL_PLATFORM_EXTENSIONS: "Each extension that is supported by all devices associated
 * with this platform must be reported here." */
static void test_common_extensions(cl_platform_id platform) {
    char *platform_extensions = platform_string(platform, CL_PLATFORM_EXTENSIONS);
    cl_uint n = 0;
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n));
    cl_device_id *devices = calloc(n, sizeof *devices);
    char **extensions = calloc(n, sizeof *extensions);
    REQUIRE(devices && extensions);
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, devices, NULL));
    for (cl_uint d = 0; d < n; d++)
        extensions[d] = device_string(devices[d], CL_DEVICE_EXTENSIONS);
    char *words = strdup(extensions[0]);
    REQUIRE(words != NULL);
    for (char *save = NULL, *word = strtok_r(words, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
        int everywhere = 1;
        for (cl_uint d = 1; d < n; d++)
            everywhere &= has_word(extensions[d], word);
        if (everywhere && !has_word(platform_extensions, word)) {
            /* (PoCL 3.1 lists only cl_khr_icd and its own extension for the platform.) */
            if (lenient()) {
                fprintf(stderr, "known deviation (not counted): %s is supported by every device but not listed "
                                "by the platform\n", word);
            } else {
                fprintf(stderr, "%s is supported by every device but not listed by the platform\n", word);
                check_failures++;
            }
        }
    }
    free(words);
    for (cl_uint d = 0; d < n; d++)
        free(extensions[d]);
    free(extensions);
    free(devices);
    free(platform_extensions);
}

static void test_invalid_platform(cl_platform_id platform) {
    if (!wrong_type_checks())
        return;
    /* 4.1: CL_INVALID_PLATFORM "if platform is not a valid platform": another object's handle. */
    cl_device_id device = NULL;
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_context context = make_context(device);
    size_t size = 0;
    EXPECT_ERR(CL_INVALID_PLATFORM, clGetPlatformInfo((cl_platform_id)context, CL_PLATFORM_NAME, 0, NULL, &size));
    EXPECT_ERR(CL_INVALID_PLATFORM, clGetPlatformInfo((cl_platform_id)device, CL_PLATFORM_NAME, 0, NULL, &size));
    CHECK(clReleaseContext(context));
}

static void test_extension_function_address(cl_platform_id platform) {
    /* cl_khr_icd (extension spec): "A return value of NULL indicates that the specified function
     * does not exist for the implementation". */
    EXPECT(clGetExtensionFunctionAddressForPlatform(platform, "clNoSuchFunctionFERROCL") == NULL);
    EXPECT(clGetExtensionFunctionAddressForPlatform(platform, "") == NULL);
}

int main(void) {
    test_get_platform_ids();
    cl_platform_id platform = first_platform();
    test_platform_info(platform);
    test_common_extensions(platform);
    test_invalid_platform(platform);
    test_extension_function_address(platform);
    return finish();
}
