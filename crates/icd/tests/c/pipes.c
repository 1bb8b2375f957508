/* API 5.4 and OpenCL C 3.0 6.15.18: pipes, on a device that answers CL_TRUE to
 * CL_DEVICE_PIPE_SUPPORT (a device without pipes is checked by unsupported.c). The pipe objects
 * and their errors; kernels that write a pipe and kernels that read it, run in order on one
 * queue: packets one at a time, in reservations of a work-item, of a work-group and of a
 * sub-group, struct and vector packets, a full pipe and an empty one, the packet counts. The
 * order in which work-groups reach the pipe is implementation-defined (6.15.18.3), so what is
 * checked is which packets arrive, and the order inside each reservation. */
#include "check.h"

static const char *source =
    "#ifndef __opencl_c_pipes\n"
    "#error the feature macro is not defined\n"
    "#endif\n"
    "typedef struct { char c; long l; float f; short s; } Rec;\n"
    /* Pipes passed on to functions. */
    "int put(write_only pipe int p, int v) { return write_pipe(p, &v); }\n"
    "int take(read_only pipe int p, int *v) { return read_pipe(p, v); }\n"
    "kernel void produce(write_only pipe int p, global int *status) {\n"
    "    int gid = (int)get_global_id(0);\n"
    "    status[gid] = put(p, 3 * gid + 1);\n"
    "}\n"
    "kernel void consume(read_only pipe int p, global int *out, global int *status) {\n"
    "    int gid = (int)get_global_id(0), v = -1;\n"
    "    status[gid] = take(p, &v);\n"
    "    out[gid] = v;\n"
    "}\n"
    "kernel void counts(read_only pipe int p, global uint *out) {\n"
    "    out[0] = get_pipe_num_packets(p);\n"
    "    out[1] = get_pipe_max_packets(p);\n"
    "    reserve_id_t none = CLK_NULL_RESERVE_ID;\n"
    "    out[2] = is_valid_reserve_id(none);\n"
    "}\n"
    /* Reservations of 4 packets by each work-item, written last index first. */
    "kernel void produce4(write_only pipe int p, global int *status) {\n"
    "    int gid = (int)get_global_id(0);\n"
    "    reserve_id_t r = reserve_write_pipe(p, 4);\n"
    "    status[gid] = is_valid_reserve_id(r) ? 0 : -1;\n"
    "    if (is_valid_reserve_id(r)) {\n"
    "        for (int i = 3; i >= 0; i--) {\n"
    "            int v = 4 * gid + i;\n"
    "            status[gid] |= write_pipe(p, r, (uint)i, &v);\n"
    "        }\n"
    "        commit_write_pipe(p, r);\n"
    "    }\n"
    "}\n"
    "kernel void consume4(read_only pipe int p, global int4 *out, global int *status) {\n"
    "    int gid = (int)get_global_id(0);\n"
    "    int4 v = (int4)(-1);\n"
    "    reserve_id_t r = reserve_read_pipe(p, 4);\n"
    "    status[gid] = is_valid_reserve_id(r) ? 0 : -1;\n"
    "    if (is_valid_reserve_id(r)) {\n"
    "        int a, b, c, d;\n"
    "        status[gid] |= read_pipe(p, r, 0u, &a) | read_pipe(p, r, 1u, &b);\n"
    "        status[gid] |= read_pipe(p, r, 2u, &c) | read_pipe(p, r, 3u, &d);\n"
    "        /* An index outside the reservation is refused (Table 41: a negative value). */\n"
    "        int e = 0;\n"
    "        status[gid] |= (read_pipe(p, r, 4u, &e) < 0 ? 0 : 2);\n"
    "        commit_read_pipe(p, r);\n"
    "        v = (int4)(a, b, c, d);\n"
    "    }\n"
    "    out[gid] = v;\n"
    "}\n"
    /* A work-group reservation of one packet per work-item. */
    "kernel void produce_wg(write_only pipe uint p, global int *status) {\n"
    "    uint lid = (uint)get_local_id(0), n = (uint)get_local_size(0);\n"
    "    reserve_id_t r = work_group_reserve_write_pipe(p, n);\n"
    "    uint v = (uint)get_group_id(0) * 1000u + lid;\n"
    "    status[get_global_id(0)] = is_valid_reserve_id(r) ? write_pipe(p, r, lid, &v) : -1;\n"
    "    work_group_commit_write_pipe(p, r);\n"
    "}\n"
    "kernel void consume_wg(read_only pipe uint p, global uint *out, global int *status) {\n"
    "    uint lid = (uint)get_local_id(0), n = (uint)get_local_size(0), v = 0xffffffffu;\n"
    "    reserve_id_t r = work_group_reserve_read_pipe(p, n);\n"
    "    status[get_global_id(0)] = is_valid_reserve_id(r) ? read_pipe(p, r, lid, &v) : -1;\n"
    "    work_group_commit_read_pipe(p, r);\n"
    "    out[get_global_id(0)] = v;\n"
    "}\n"
    "#ifdef __opencl_c_subgroups\n"
    "kernel void produce_sg(write_only pipe uint p, global int *status) {\n"
    "    uint lid = get_sub_group_local_id(), n = get_sub_group_size();\n"
    "    reserve_id_t r = sub_group_reserve_write_pipe(p, n);\n"
    "    uint v = (uint)get_global_id(0) - lid;\n"
    "    v = v * 1000u + lid;\n"
    "    status[get_global_id(0)] = is_valid_reserve_id(r) ? write_pipe(p, r, lid, &v) : -1;\n"
    "    sub_group_commit_write_pipe(p, r);\n"
    "}\n"
    "#endif\n"
    /* Struct and vector packets. */
    "kernel void produce_rec(write_only pipe Rec p, write_only pipe float3 q) {\n"
    "    int gid = (int)get_global_id(0);\n"
    "    Rec r = { (char)gid, (long)gid << 40, (float)gid * 0.5f, (short)-gid };\n"
    "    float3 f = (float3)(gid, gid + 1, gid + 2);\n"
    "    write_pipe(p, &r);\n"
    "    write_pipe(q, &f);\n"
    "}\n"
    "kernel void consume_rec(read_only pipe Rec p, read_only pipe float3 q, global Rec *out,\n"
    "                        global float4 *fout) {\n"
    "    int gid = (int)get_global_id(0);\n"
    "    Rec r;\n"
    "    float3 f;\n"
    "    read_pipe(p, &r);\n"
    "    read_pipe(q, &f);\n"
    "    out[gid] = r;\n"
    "    fout[gid] = (float4)(f, 0.0f);\n"
    "}\n";

typedef struct {
    cl_char c;
    cl_long l;
    cl_float f;
    cl_short s;
} Rec;

enum { N = 64 };

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;
static cl_program program;

static cl_mem make_pipe(cl_uint packet_size, cl_uint max_packets) {
    cl_int err = CL_SUCCESS;
    cl_mem pipe = clCreatePipe(context, 0, packet_size, max_packets, NULL, &err);
    CHECK_RET(err);
    REQUIRE(pipe != NULL);
    return pipe;
}

static cl_kernel kernel(const char *name) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_RET(err);
    REQUIRE(k != NULL);
    return k;
}

/* Runs `k` over `global` work-items in groups of `local` (0: the implementation's choice). */
static void run(cl_kernel k, size_t global, size_t local) {
    CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL));
}

static void read_back(cl_mem buffer, size_t size, void *host) {
    CHECK(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, size, host, 0, NULL, NULL));
}

static int count_equal(const int *values, int n, int want) {
    int count = 0;
    for (int i = 0; i < n; i++)
        count += values[i] == want;
    return count;
}

static void test_objects(void) {
    cl_int err = CL_SUCCESS;
    cl_uint max_packet = device_uint(device, CL_DEVICE_PIPE_MAX_PACKET_SIZE);
    /* 5.4.1: CL_INVALID_PIPE_SIZE "if pipe_packet_size is 0 or the pipe_packet_size exceeds
     * CL_DEVICE_PIPE_MAX_PACKET_SIZE ... or if pipe_max_packets is 0". */
    EXPECT(clCreatePipe(context, 0, 0, 16, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_PIPE_SIZE, err);
    EXPECT(clCreatePipe(context, 0, max_packet + 1, 16, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_PIPE_SIZE, err);
    EXPECT(clCreatePipe(context, 0, 4, 0, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_PIPE_SIZE, err);
    /* "Only CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS can be specified"; CL_INVALID_VALUE "if
     * values specified in flags are not as defined above" and "if properties is not NULL". */
    EXPECT(clCreatePipe(context, CL_MEM_READ_ONLY, 4, 16, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_VALUE, err);
    EXPECT(clCreatePipe(context, CL_MEM_COPY_HOST_PTR, 4, 16, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_VALUE, err);
    cl_pipe_properties props[] = {0};
    EXPECT(clCreatePipe(context, 0, 4, 16, props, &err) == NULL);
    EXPECT_RET(CL_INVALID_VALUE, err);
    EXPECT(clCreatePipe(NULL, 0, 4, 16, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_CONTEXT, err);

    cl_mem pipe = clCreatePipe(context, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, max_packet, 3, NULL, &err);
    CHECK_RET(err);
    cl_uint value = 0;
    size_t size = 0;
    CHECK(clGetPipeInfo(pipe, CL_PIPE_PACKET_SIZE, sizeof value, &value, &size));
    EXPECT(value == max_packet && size == sizeof value);
    CHECK(clGetPipeInfo(pipe, CL_PIPE_MAX_PACKETS, sizeof value, &value, NULL));
    EXPECT(value == 3);
    /* CL_PIPE_PROPERTIES: "If the properties argument ... was NULL, the implementation must
     * return param_value_size_ret equal to 0". */
    size = 1;
    CHECK(clGetPipeInfo(pipe, CL_PIPE_PROPERTIES, 0, NULL, &size));
    EXPECT(size == 0);
    EXPECT_ERR(CL_INVALID_VALUE, clGetPipeInfo(pipe, CL_PIPE_MAX_PACKETS, 2, &value, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clGetPipeInfo(pipe, 0x1234, sizeof value, &value, NULL));

    /* 5.5.6: CL_MEM_OBJECT_PIPE "if memobj is created with clCreatePipe"; the flags as given. */
    cl_mem_object_type type = 0;
    CHECK(clGetMemObjectInfo(pipe, CL_MEM_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_MEM_OBJECT_PIPE);
    cl_mem_flags flags = 0;
    CHECK(clGetMemObjectInfo(pipe, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    EXPECT(flags == (CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS));
    CHECK(clGetMemObjectInfo(pipe, CL_MEM_SIZE, sizeof size, &size, NULL));
    EXPECT(size >= 3 * (size_t)max_packet);
    cl_uint refs = 0;
    CHECK(clRetainMemObject(pipe));
    CHECK(clGetMemObjectInfo(pipe, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    EXPECT(refs == 2);
    CHECK(clReleaseMemObject(pipe));

    /* A pipe is not a buffer, and a buffer not a pipe: CL_INVALID_MEM_OBJECT. */
    cl_mem buffer = make_buffer(context, CL_MEM_READ_WRITE, 64, NULL);
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clGetPipeInfo(buffer, CL_PIPE_MAX_PACKETS, sizeof value, &value, NULL));
    char bytes[16];
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueReadBuffer(queue, pipe, CL_TRUE, 0, 16, bytes, 0, NULL, NULL));
    cl_buffer_region region = {0, 16};
    EXPECT(clCreateSubBuffer(pipe, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err) == NULL);
    EXPECT_RET(CL_INVALID_MEM_OBJECT, err);

    /* clSetKernelArg: CL_INVALID_MEM_OBJECT "for an argument declared to be a memory object when
     * the specified arg_value is not a valid memory object" (a buffer for a pipe, a pipe for a
     * buffer), CL_INVALID_ARG_SIZE for a size other than a cl_mem's, CL_INVALID_ARG_VALUE for no
     * value. */
    cl_kernel k = kernel("produce");
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof buffer, &buffer));
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 1, sizeof pipe, &pipe));
    EXPECT_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, sizeof pipe - 1, &pipe));
    EXPECT_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 0, sizeof pipe, NULL));
    CHECK(clSetKernelArg(k, 0, sizeof pipe, &pipe));

    /* clGetKernelArgInfo: the pipe qualifier and the access qualifier. */
    cl_kernel_arg_type_qualifier quals = 0;
    cl_kernel_arg_access_qualifier access = 0;
    CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof quals, &quals, NULL));
    EXPECT(quals & CL_KERNEL_ARG_TYPE_PIPE);
    CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, NULL));
    EXPECT(access == CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
    char type_name[64] = "";
    CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof type_name, type_name, NULL));
    /* CL_KERNEL_ARG_TYPE_NAME "does not include any type qualifiers": pipe is reported as
     * CL_KERNEL_ARG_TYPE_PIPE below, and the name is the packet type's. */
    EXPECT(strcmp(type_name, "int") == 0);
    CHECK(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof quals, &quals, NULL));
    EXPECT(!(quals & CL_KERNEL_ARG_TYPE_PIPE));
    cl_kernel c = kernel("consume");
    CHECK(clGetKernelArgInfo(c, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, NULL));
    EXPECT(access == CL_KERNEL_ARG_ACCESS_READ_ONLY);
    CHECK(clReleaseKernel(c));
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseMemObject(buffer));
    CHECK(clReleaseMemObject(pipe));
}

/* A pipe with a writer kernel (pipe, writer's status) and a reader kernel (pipe, out, reader's
 * status), over buffers of `items` entries (`out_size` bytes each for the reader's output). */
typedef struct {
    cl_mem pipe, wstatus, rstatus, out;
    cl_kernel writer, reader;
} Pair;

static Pair make_pair(const char *writer, const char *reader, cl_uint packet_size, cl_uint capacity, size_t items,
                      size_t out_size) {
    Pair p;
    p.pipe = make_pipe(packet_size, capacity);
    p.wstatus = make_buffer(context, CL_MEM_READ_WRITE, items * sizeof(int), NULL);
    p.rstatus = make_buffer(context, CL_MEM_READ_WRITE, items * sizeof(int), NULL);
    p.out = make_buffer(context, CL_MEM_READ_WRITE, items * out_size, NULL);
    p.writer = kernel(writer);
    p.reader = kernel(reader);
    CHECK(clSetKernelArg(p.writer, 0, sizeof p.pipe, &p.pipe));
    CHECK(clSetKernelArg(p.writer, 1, sizeof p.wstatus, &p.wstatus));
    CHECK(clSetKernelArg(p.reader, 0, sizeof p.pipe, &p.pipe));
    CHECK(clSetKernelArg(p.reader, 1, sizeof p.out, &p.out));
    CHECK(clSetKernelArg(p.reader, 2, sizeof p.rstatus, &p.rstatus));
    return p;
}

static void release_pair(Pair *p) {
    CHECK(clReleaseKernel(p->writer));
    CHECK(clReleaseKernel(p->reader));
    CHECK(clReleaseMemObject(p->wstatus));
    CHECK(clReleaseMemObject(p->rstatus));
    CHECK(clReleaseMemObject(p->out));
    CHECK(clReleaseMemObject(p->pipe));
}

/* The `counts` kernel's answers: get_pipe_num_packets, get_pipe_max_packets, and whether
 * CLK_NULL_RESERVE_ID is a valid reservation. */
static void counts(cl_mem pipe, cl_uint out[3]) {
    cl_mem buffer = make_buffer(context, CL_MEM_READ_WRITE, 3 * sizeof(cl_uint), NULL);
    cl_kernel k = kernel("counts");
    CHECK(clSetKernelArg(k, 0, sizeof pipe, &pipe));
    CHECK(clSetKernelArg(k, 1, sizeof buffer, &buffer));
    run(k, 1, 1);
    read_back(buffer, 3 * sizeof(cl_uint), out);
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseMemObject(buffer));
}

/* Each packet a reader got (status 0) is one a successful writer wrote, and none twice; the
 * writer of value `v` is `writer_of(v)`, or -1 for a value no writer wrote. */
static void check_unique(const int *rstatus, const int *wstatus, const int *values, int n, int writers,
                         int (*writer_of)(int)) {
    int *seen = calloc((size_t)writers, sizeof(int));
    REQUIRE(seen != NULL);
    for (int i = 0; i < n; i++) {
        EXPECT(rstatus[i] <= 0);
        if (rstatus[i] != 0)
            continue;
        int w = writer_of(values[i]);
        EXPECT(w >= 0 && w < writers);
        if (w >= 0 && w < writers) {
            EXPECT(wstatus[w] == 0 && !seen[w]);
            seen[w] = 1;
        }
    }
    free(seen);
}

/* `produce` writes 3 * gid + 1. */
static int produce_writer(int v) {
    return v % 3 == 1 ? (v - 1) / 3 : -1;
}

/* One packet per work-item, through a pipe of `capacity` packets: `produced` writers, then a
 * count, then `consumed` readers. */
static void test_packets(int capacity, int produced, int consumed) {
    Pair p = make_pair("produce", "consume", sizeof(cl_int), (cl_uint)capacity, 2 * N, sizeof(int));
    int wstatus[2 * N], rstatus[2 * N], out[2 * N];
    cl_uint n[3];
    counts(p.pipe, n);
    EXPECT(n[0] == 0 && n[1] == (cl_uint)capacity);
    /* CLK_NULL_RESERVE_ID is no valid reservation. */
    EXPECT(n[2] == 0);

    run(p.writer, (size_t)produced, 0);
    read_back(p.wstatus, sizeof(int) * (size_t)produced, wstatus);
    int stored = produced < capacity ? produced : capacity;
    /* Table 41: write_pipe "Returns 0 if write_pipe is successful and a negative value if the
     * pipe is full". */
    EXPECT(count_equal(wstatus, produced, 0) == stored);
    int failed = 0;
    for (int i = 0; i < produced; i++)
        failed += wstatus[i] < 0;
    EXPECT(failed == produced - stored);
    counts(p.pipe, n);
    EXPECT(n[0] == (cl_uint)stored);

    run(p.reader, (size_t)consumed, 0);
    read_back(p.rstatus, sizeof(int) * (size_t)consumed, rstatus);
    read_back(p.out, sizeof(int) * (size_t)consumed, out);
    int got = consumed < stored ? consumed : stored;
    /* read_pipe: 0 "if read_pipe is successful and a negative value if the pipe is empty". */
    EXPECT(count_equal(rstatus, consumed, 0) == got);
    check_unique(rstatus, wstatus, out, consumed, produced, produce_writer);
    counts(p.pipe, n);
    EXPECT(n[0] == (cl_uint)(stored - got));
    release_pair(&p);
}

/* A writer and a reader kernel on two queues at once, many work-groups each, through a pipe
 * much smaller than what is written: whatever interleaving happens, every packet read is one a
 * successful write put there, none is read twice, and what is left is the difference. */
static void test_concurrent(void) {
    enum { M = 4096, CAPACITY = 64 };
    Pair p = make_pair("produce", "consume", sizeof(cl_int), CAPACITY, M, sizeof(int));
    static int wstatus[M], rstatus[M], out[M];
    cl_int err = CL_SUCCESS;
    cl_command_queue other = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_RET(err);
    size_t global = M, local = 8;
    CHECK(clEnqueueNDRangeKernel(queue, p.writer, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueNDRangeKernel(other, p.reader, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clFinish(queue));
    CHECK(clFinish(other));
    read_back(p.wstatus, sizeof wstatus, wstatus);
    read_back(p.rstatus, sizeof rstatus, rstatus);
    read_back(p.out, sizeof out, out);
    int written = count_equal(wstatus, M, 0), read = count_equal(rstatus, M, 0);
    EXPECT(written >= CAPACITY && read <= written);
    for (int i = 0; i < M; i++)
        EXPECT(wstatus[i] <= 0);
    check_unique(rstatus, wstatus, out, M, M, produce_writer);
    cl_uint n[3];
    counts(p.pipe, n);
    EXPECT(n[0] == (cl_uint)(written - read));
    CHECK(clReleaseCommandQueue(other));
    release_pair(&p);
}

/* `produce4` writes 4 * gid + i as packet i of its reservation. */
static int produce4_writer(int v) {
    return v % 4 == 0 ? v / 4 : -1;
}

/* Reservations of 4 packets: each reservation read back holds one writer's 4 packets, in
 * index order. */
static void test_reservations(void) {
    enum { W = 16 };
    Pair p = make_pair("produce4", "consume4", sizeof(cl_int), 4 * W, W, sizeof(cl_int4));
    int wstatus[W], rstatus[W];
    cl_int out[4 * W], first[W];
    run(p.writer, W, 4);
    read_back(p.wstatus, sizeof wstatus, wstatus);
    EXPECT(count_equal(wstatus, W, 0) == W);
    run(p.reader, W, 4);
    read_back(p.rstatus, sizeof rstatus, rstatus);
    read_back(p.out, sizeof out, out);
    EXPECT(count_equal(rstatus, W, 0) == W);
    for (int i = 0; i < W; i++) {
        first[i] = out[4 * i];
        for (int j = 1; j < 4; j++)
            EXPECT(out[4 * i + j] == out[4 * i] + j);
    }
    check_unique(rstatus, wstatus, first, W, W, produce4_writer);
    /* The pipe is empty now: a reservation fails. */
    run(p.reader, 1, 1);
    read_back(p.rstatus, sizeof(int), rstatus);
    EXPECT(rstatus[0] == -1);
    release_pair(&p);
}

static int identity(int w) {
    return w;
}

/* Work-group (and sub-group) reservations: each group's packets are one contiguous run, read
 * back by one group in local id order. */
static void test_group_reservations(const char *producer, size_t local, size_t span, size_t block) {
    Pair p = make_pair(producer, "consume_wg", sizeof(cl_uint), N, N, sizeof(cl_uint));
    int wstatus[N], rstatus[N], writers[N];
    cl_uint out[N];
    run(p.writer, N, local);
    read_back(p.wstatus, sizeof wstatus, wstatus);
    EXPECT(count_equal(wstatus, N, 0) == N);
    /* Read in groups of `block` work-items: each holds whole runs of the writers. */
    run(p.reader, N, block);
    read_back(p.rstatus, sizeof rstatus, rstatus);
    read_back(p.out, sizeof out, out);
    EXPECT(count_equal(rstatus, N, 0) == N);
    /* Each writer's run of `span` packets lies whole in one reader's block (whose size is a
     * multiple of it), in index order. The packet's writer: group (or sub-group start)
     * v / 1000, index v % 1000. */
    size_t group = strcmp(producer, "produce_wg") == 0 ? local : 1;
    for (size_t i = 0; i < N; i++) {
        cl_uint v = out[i], first = out[i - i % span];
        EXPECT(first % 1000 == 0 && v == first + (cl_uint)(i % span));
        writers[i] = (int)((size_t)(v / 1000) * group + v % 1000);
    }
    check_unique(rstatus, wstatus, writers, N, N, identity);
    release_pair(&p);
}

/* Struct and float3 packets, one work-item writing and reading each (so the order is known). */
static void test_struct_packets(void) {
    enum { M = 5 };
    cl_mem rp = make_pipe(sizeof(Rec), M), fp = make_pipe(sizeof(cl_float3), M);
    Rec out[M];
    cl_float4 fout[M];
    memset(out, 0, sizeof out);
    cl_mem ob = make_buffer(context, CL_MEM_READ_WRITE, sizeof out, NULL);
    cl_mem fb = make_buffer(context, CL_MEM_READ_WRITE, sizeof fout, NULL);
    cl_kernel p = kernel("produce_rec"), c = kernel("consume_rec");
    CHECK(clSetKernelArg(p, 0, sizeof rp, &rp));
    CHECK(clSetKernelArg(p, 1, sizeof fp, &fp));
    CHECK(clSetKernelArg(c, 0, sizeof rp, &rp));
    CHECK(clSetKernelArg(c, 1, sizeof fp, &fp));
    CHECK(clSetKernelArg(c, 2, sizeof ob, &ob));
    CHECK(clSetKernelArg(c, 3, sizeof fb, &fb));
    for (size_t i = 0; i < M; i++) {
        size_t one = 1, offset = i;
        CHECK(clEnqueueNDRangeKernel(queue, p, 1, &offset, &one, &one, 0, NULL, NULL));
    }
    for (size_t i = 0; i < M; i++) {
        size_t one = 1, offset = i;
        CHECK(clEnqueueNDRangeKernel(queue, c, 1, &offset, &one, &one, 0, NULL, NULL));
    }
    read_back(ob, sizeof out, out);
    read_back(fb, sizeof fout, fout);
    for (int i = 0; i < M; i++) {
        EXPECT(out[i].c == i && out[i].l == (cl_long)i << 40 && out[i].f == (float)i * 0.5f && out[i].s == -i);
        EXPECT(fout[i].s[0] == (float)i && fout[i].s[1] == (float)(i + 1) && fout[i].s[2] == (float)(i + 2));
    }
    /* A packet type larger than the pipe's packets is never copied: the write fails. */
    cl_mem small = make_pipe(4, M);
    CHECK(clSetKernelArg(p, 0, sizeof small, &small));
    CHECK(clSetKernelArg(c, 0, sizeof small, &small));
    size_t one = 1;
    CHECK(clEnqueueNDRangeKernel(queue, p, 1, NULL, &one, &one, 0, NULL, NULL));
    cl_uint n[3] = {1, 1, 1};
    counts(small, n);
    EXPECT(n[0] == 0 && n[1] == M);
    CHECK(clReleaseMemObject(small));
    CHECK(clReleaseKernel(p));
    CHECK(clReleaseKernel(c));
    CHECK(clReleaseMemObject(ob));
    CHECK(clReleaseMemObject(fb));
    CHECK(clReleaseMemObject(rp));
    CHECK(clReleaseMemObject(fp));
}

/* 6.15.18: pipes require OpenCL C 2.0, or 3.0 with the feature; `pipe` is no keyword before
 * 2.0, and "Using the read_write (or __read_write) qualifier with the pipe specifier is a
 * compilation error". */
static void test_build_errors(void) {
    const char *bad[][2] = {
        {"kernel void k(read_only pipe int p) {}", "-cl-std=CL1.2"},
        {"kernel void k(read_write pipe int p) {}", "-cl-std=CL3.0"},
        {"kernel void k(read_only pipe int p, global int *o) { int v = 1; o[0] = write_pipe(p, &v); }",
         "-cl-std=CL3.0"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cl_int err = CL_SUCCESS;
        cl_program prog = clCreateProgramWithSource(context, 1, &bad[i][0], NULL, &err);
        CHECK_RET(err);
        EXPECT_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(prog, 1, &device, bad[i][1], NULL, NULL));
        CHECK(clReleaseProgram(prog));
    }
}

int main(void) {
    device = first_device();
    if (!device_uint(device, CL_DEVICE_PIPE_SUPPORT)) {
        printf("pipes: the device does not support pipes (unsupported.c checks its answers)\n");
        return finish();
    }
    context = make_context(device);
    queue = make_queue(context, device);
    program = build_program(context, device, source, "-cl-std=CL3.0");
    test_objects();
    test_packets(N, N, N);         /* all written, all read */
    test_packets(N / 2, N, N / 4); /* a full pipe, then a partial read */
    test_packets(N, N / 4, N);     /* an empty pipe before the readers are done */
    test_concurrent();
    test_reservations();
    test_group_reservations("produce_wg", 16, 16, 16);
    test_group_reservations("produce_wg", 8, 8, 16);
    cl_uint sub_group = 0;
    cl_kernel probe = NULL;
    cl_int err = CL_SUCCESS;
    probe = clCreateKernel(program, "produce_sg", &err);
    /* The sub-group forms exist where the device has sub-groups (__opencl_c_subgroups). */
    EXPECT((err == CL_SUCCESS) == (device_uint(device, CL_DEVICE_MAX_NUM_SUB_GROUPS) > 0));
    if (err == CL_SUCCESS) {
        size_t local = 16;
        size_t size = 0;
        CHECK(clGetKernelSubGroupInfo(probe, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local,
                                      sizeof size, &size, NULL));
        sub_group = (cl_uint)size;
        EXPECT(sub_group > 0);
        CHECK(clReleaseKernel(probe));
        /* Sub-groups of `sub_group` work-items in groups of 16 that it divides: each sub-group's
         * run is whole inside a reader's group of 16. */
        if (sub_group > 0 && 16 % sub_group == 0)
            test_group_reservations("produce_sg", 16, sub_group, 16);
    }
    test_struct_packets();
    test_build_errors();
    CHECK(clReleaseProgram(program));
    CHECK(clReleaseCommandQueue(queue));
    CHECK(clReleaseContext(context));
    return finish();
}
