/* 5.8.3-5.8.5, 5.8.8, 5.8.9 and OpenCL C 6.10: separate compilation and linking across
 * programs. An extern program-scope variable and an extern function used by one compiled
 * object and defined by another resolve at clLinkProgram; an extern declaration of an
 * incomplete struct type compiles; compiled objects and libraries read back with
 * clCreateProgramWithBinary keep CL_PROGRAM_BINARY_TYPE and still link; a link that fails (a
 * symbol defined nowhere, or twice) returns a program object with CL_LINK_PROGRAM_FAILURE and a
 * build log naming the symbol; #include "/absolute/path.h" opens that file. The variables are
 * in the __constant address space, where every OpenCL C version allows program-scope
 * variables (6.7.3). */
#include "check.h"

#include <unistd.h>

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

static const char *USER =
    "extern constant int table[4];\n"
    "extern int bump(int by);\n"
    "struct opaque;\n"
    "extern constant struct opaque shared_opaque;\n"
    "kernel void use(global int *out) {\n"
    "    out[0] = bump(table[1]);\n"
    "    out[1] = table[3];\n"
    "    out[2] = (constant void *)&shared_opaque != 0;\n"
    "}\n";

static const char *DEFINER =
    "constant int table[4] = {1, 2, 3, 4};\n"
    "struct opaque { int a, b; };\n"
    "constant struct opaque shared_opaque = {5, 6};\n"
    "int bump(int by) { return by + 40; }\n";

/* A call of a function that no program defines. */
static const char *CALLER =
    "int nowhere(int x);\n"
    "kernel void use(global int *out) { out[0] = nowhere(1); }\n";

/* Another definition of `table`, and a string literal of its own. */
static const char *REDEFINER =
    "constant int table[4] = {9, 9, 9, 9};\n"
    "constant char name[] = \"redefiner\";\n";

static cl_program compiled(const char *source, const char *options) {
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_RET(err);
    err = clCompileProgram(program, 1, &device, options, 0, NULL, NULL, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "clCompileProgram failed (%s):\n%s\n", cl_error_name(err), log);
        exit(1);
    }
    return program;
}

static cl_program_binary_type binary_type(cl_program program) {
    cl_program_binary_type type = 0;
    CHECK(clGetProgramBuildInfo(program, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL));
    return type;
}

/* Links `inputs`, runs kernel "use" and checks what it saw. */
static void link_and_run(cl_program *inputs, cl_uint n, const char *what) {
    cl_int err = CL_SUCCESS;
    cl_program linked = clLinkProgram(context, 1, &device, "", n, inputs, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "%s: clLinkProgram failed\n", what);
        if (linked) {
            char log[8192] = "";
            clGetProgramBuildInfo(linked, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
            fprintf(stderr, "%s\n", log);
        }
    }
    CHECK_RET(err);
    EXPECT(binary_type(linked) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    cl_kernel kernel = clCreateKernel(linked, "use", &err);
    CHECK_RET(err);
    cl_mem out = make_buffer(context, CL_MEM_READ_WRITE, 3 * sizeof(cl_int), NULL);
    CHECK(clSetKernelArg(kernel, 0, sizeof out, &out));
    size_t one = 1;
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0, NULL, NULL));
    cl_int got[3] = {0, 0, 0};
    CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    /* bump(table[1]) = 2 + 40, table[3] = 4, and the opaque object has an address. */
    if (got[0] != 42 || got[1] != 4 || got[2] != 1)
        fprintf(stderr, "%s: got %d %d %d\n", what, got[0], got[1], got[2]);
    EXPECT(got[0] == 42 && got[1] == 4 && got[2] == 1);
    CHECK(clReleaseMemObject(out));
    CHECK(clReleaseKernel(kernel));
    CHECK(clReleaseProgram(linked));
}

/* A link expected to fail: a program object comes back with CL_LINK_PROGRAM_FAILURE, a build
 * status of CL_BUILD_ERROR and a log that names `symbol`. */
static void failing_link(cl_program *inputs, cl_uint n, const char *symbol) {
    cl_int err = CL_SUCCESS;
    cl_program linked = clLinkProgram(context, 1, &device, "", n, inputs, NULL, NULL, &err);
    EXPECT_RET(CL_LINK_PROGRAM_FAILURE, err);
    /* 5.8.8: "If the linking operation can begin, clLinkProgram returns a valid non-zero
     * program object." */
    /* (PoCL 3.1 returns NULL.) */
    EXPECT_DEVIATES(linked != NULL);
    if (!linked)
        return;
    cl_build_status status = CL_BUILD_SUCCESS;
    CHECK(clGetProgramBuildInfo(linked, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
    EXPECT(status == CL_BUILD_ERROR);
    char log[8192] = "";
    CHECK(clGetProgramBuildInfo(linked, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    if (!strstr(log, symbol))
        fprintf(stderr, "the link log does not name '%s':\n%s\n", symbol, log);
    EXPECT(strstr(log, symbol) != NULL);
    /* No executable: CL_INVALID_PROGRAM_EXECUTABLE "if there is no successfully built
     * executable for program". */
    cl_kernel kernel = clCreateKernel(linked, "use", &err);
    EXPECT(kernel == NULL && err == CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK(clReleaseProgram(linked));
}

static void test_absolute_include(void) {
    char path[] = "/tmp/ferrocl-linking-XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    const char *header = "#define FROM_ABSOLUTE_HEADER 11\n";
    REQUIRE(write(fd, header, strlen(header)) == (ssize_t)strlen(header));
    close(fd);
    char source[512];
    snprintf(source, sizeof source,
             "#include \"%s\"\nkernel void k(global int *o) { o[0] = FROM_ABSOLUTE_HEADER; }\n", path);
    cl_program program = build_program(context, device, source, "");
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    CHECK_RET(err);
    cl_mem out = make_buffer(context, CL_MEM_READ_WRITE, sizeof(cl_int), NULL);
    CHECK(clSetKernelArg(kernel, 0, sizeof out, &out));
    size_t one = 1;
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0, NULL, NULL));
    cl_int got = 0;
    CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL));
    EXPECT(got == 11);
    unlink(path);
    CHECK(clReleaseMemObject(out));
    CHECK(clReleaseKernel(kernel));
    CHECK(clReleaseProgram(program));
}

int main(void) {
    device = first_device();
    if (!device_uint(device, CL_DEVICE_COMPILER_AVAILABLE) || !device_uint(device, CL_DEVICE_LINKER_AVAILABLE)) {
        printf("linking.c: the device has no compiler or no linker\n");
        return finish();
    }
    context = make_context(device);
    queue = make_queue(context, device);
    test_absolute_include();
    {
        cl_program user = compiled(USER, "");
        cl_program definer = compiled(DEFINER, "");
        EXPECT(binary_type(user) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);

        cl_program both[] = {user, definer};
        link_and_run(both, 2, "two compiled objects");

        /* 5.8.9 CL_PROGRAM_BINARY_TYPE: a binary read back keeps its type and links. */
        cl_program user_bin = program_from_binary(context, device, user);
        cl_program definer_bin = program_from_binary(context, device, definer);
        EXPECT(binary_type(user_bin) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
        cl_program from_binaries[] = {user_bin, definer_bin};
        link_and_run(from_binaries, 2, "two compiled objects read back from binaries");

        cl_int err = CL_SUCCESS;
        cl_program library = clLinkProgram(context, 1, &device, "-create-library", 1, &definer, NULL, NULL, &err);
        CHECK_RET(err);
        EXPECT(binary_type(library) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
        cl_program library_bin = program_from_binary(context, device, library);
        EXPECT(binary_type(library_bin) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
        cl_program with_library[] = {user_bin, library_bin};
        link_and_run(with_library, 2, "an object and a library read back from binaries");

        /* Nothing defines `table`: the link fails and says so. */
        cl_program only_user[] = {user};
        failing_link(only_user, 1, "table");
        /* Nothing defines `nowhere`. */
        cl_program caller = compiled(CALLER, "");
        failing_link(&caller, 1, "nowhere");
        CHECK(clReleaseProgram(caller));
        /* Two definitions of `table`. */
        cl_program redefiner = compiled(REDEFINER, "");
        cl_program twice[] = {user, definer, redefiner};
        failing_link(twice, 3, "table");
        CHECK(clReleaseProgram(redefiner));

        CHECK(clReleaseProgram(library_bin));
        CHECK(clReleaseProgram(library));
        CHECK(clReleaseProgram(definer_bin));
        CHECK(clReleaseProgram(user_bin));
        CHECK(clReleaseProgram(definer));
        CHECK(clReleaseProgram(user));
    }
    CHECK(clReleaseCommandQueue(queue));
    CHECK(clReleaseContext(context));
    return finish();
}
