/* Images and samplers (API 5.3, 5.7; OpenCL C 6.15.15, chapter 8): every image type created,
 * written, read back, copied, filled and mapped; the queries; error codes; samplers; and
 * kernels that read with every addressing and filter mode, checked against a reference of
 * 8.2's rules written here, and that write every kind of format.
 *
 * Skips (passing) on a device without images. */
#include "check.h"

#include <math.h>
#include <string.h>

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static cl_mem image(cl_mem_object_type type, cl_image_format format, size_t w, size_t h, size_t d,
                    size_t layers, cl_mem_flags flags, void *host, size_t row_pitch, size_t slice_pitch) {
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = type;
    desc.image_width = w;
    desc.image_height = h;
    desc.image_depth = d;
    desc.image_array_size = layers;
    desc.image_row_pitch = row_pitch;
    desc.image_slice_pitch = slice_pitch;
    cl_int err;
    cl_mem m = clCreateImage(context, flags, &format, &desc, host, &err);
    CHECK_RET(err);
    REQUIRE(m != NULL);
    return m;
}

/* Writes a pattern into every image type, reads it back whole and in part, copies, fills and
 * maps it. Texels are RGBA UNSIGNED_INT8 (4 bytes), so a texel is one uint. */
static void test_round_trips(void) {
    cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT8};
    struct {
        cl_mem_object_type type;
        size_t w, h, d, layers;
        size_t extent[3];
    } types[] = {
        {CL_MEM_OBJECT_IMAGE1D, 13, 0, 0, 0, {13, 1, 1}},
        {CL_MEM_OBJECT_IMAGE1D_ARRAY, 13, 0, 0, 3, {13, 3, 1}},
        {CL_MEM_OBJECT_IMAGE2D, 13, 7, 0, 0, {13, 7, 1}},
        {CL_MEM_OBJECT_IMAGE2D_ARRAY, 13, 7, 0, 3, {13, 7, 3}},
        {CL_MEM_OBJECT_IMAGE3D, 13, 7, 5, 0, {13, 7, 5}},
    };
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
        size_t *e = types[t].extent;
        size_t n = e[0] * e[1] * e[2];
        cl_uint *in = malloc(n * 4), *out = malloc(n * 4);
        for (size_t i = 0; i < n; i++)
            in[i] = (cl_uint)(i * 2654435761u);
        /* Created from host memory with padded pitches (CL_MEM_COPY_HOST_PTR). */
        /* Pitches with a gap: the slice pitch a multiple of the row pitch (5.3.1). */
        size_t row = e[0] * 4 + 8, slice = row * ((types[t].type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : e[1]) + 1);
        unsigned char *padded = calloc(slice * (e[2] > 1 ? e[2] : e[1]) + slice, 1);
        int one_d_array = types[t].type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
        for (size_t z = 0; z < e[2]; z++)
            for (size_t y = 0; y < e[1]; y++)
                memcpy(padded + (one_d_array ? y * slice : z * slice + y * row), in + (z * e[1] + y) * e[0], e[0] * 4);
        int has_slices = types[t].type == CL_MEM_OBJECT_IMAGE3D || types[t].type == CL_MEM_OBJECT_IMAGE2D_ARRAY || one_d_array;
        int has_rows = types[t].type != CL_MEM_OBJECT_IMAGE1D && !one_d_array;
        cl_mem img = image(types[t].type, fmt, types[t].w, types[t].h, types[t].d, types[t].layers,
                           CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, padded, has_rows || one_d_array ? row : 0,
                           has_slices ? slice : 0);
        size_t origin[3] = {0, 0, 0};
        CHECK(clEnqueueReadImage(queue, img, CL_TRUE, origin, e, 0, 0, out, 0, NULL, NULL));
        if (memcmp(in, out, n * 4) != 0)
            printf("images.c: image type %#x: the texels read back differ from those created\n",
                   (unsigned)types[t].type);
        EXPECT(memcmp(in, out, n * 4) == 0);
        /* Written whole, read back in part with a host row pitch. */
        for (size_t i = 0; i < n; i++)
            in[i] ^= 0x5a5a5a5a;
        CHECK(clEnqueueWriteImage(queue, img, CL_TRUE, origin, e, 0, 0, in, 0, NULL, NULL));
        size_t part_origin[3] = {2, e[1] > 1 ? 1 : 0, e[2] > 1 ? 1 : 0};
        size_t part[3] = {5, e[1] > 1 ? e[1] - 1 : 1, e[2] > 1 ? e[2] - 1 : 1};
        cl_uint *p = calloc(8 * part[1] * part[2], 4);
        /* A 1D array's layers are slice_pitch apart in host memory (5.3.3). */
        size_t host_slice = one_d_array ? 32 : 32 * part[1];
        CHECK(clEnqueueReadImage(queue, img, CL_TRUE, part_origin, part, 32, host_slice, p, 0, NULL, NULL));
        for (size_t z = 0; z < part[2]; z++)
            for (size_t y = 0; y < part[1]; y++)
                for (size_t x = 0; x < part[0]; x++)
                    EXPECT(p[(z * part[1] + y) * 8 + x] ==
                           in[((z + part_origin[2]) * e[1] + y + part_origin[1]) * e[0] + x + part_origin[0]]);
        /* Copied to another image, to a buffer and back. */
        cl_mem copy = image(types[t].type, fmt, types[t].w, types[t].h, types[t].d, types[t].layers,
                            CL_MEM_READ_WRITE, NULL, 0, 0);
        CHECK(clEnqueueCopyImage(queue, img, copy, origin, origin, e, 0, NULL, NULL));
        cl_mem buf = make_buffer(context, CL_MEM_READ_WRITE, n * 4 + 12, NULL);
        CHECK(clEnqueueCopyImageToBuffer(queue, copy, buf, origin, e, 12, 0, NULL, NULL));
        memset(out, 0, n * 4);
        CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 12, n * 4, out, 0, NULL, NULL));
        EXPECT(memcmp(in, out, n * 4) == 0);
        cl_mem back = image(types[t].type, fmt, types[t].w, types[t].h, types[t].d, types[t].layers,
                            CL_MEM_READ_WRITE, NULL, 0, 0);
        CHECK(clEnqueueCopyBufferToImage(queue, buf, back, 12, origin, e, 0, NULL, NULL));
        memset(out, 0, n * 4);
        CHECK(clEnqueueReadImage(queue, back, CL_TRUE, origin, e, 0, 0, out, 0, NULL, NULL));
        EXPECT(memcmp(in, out, n * 4) == 0);
        /* Filled in part: the fill color of an unsigned integer format is four uints. */
        cl_uint color[4] = {1, 2, 300, 4};
        CHECK(clEnqueueFillImage(queue, back, color, part_origin, part, 0, NULL, NULL));
        CHECK(clEnqueueReadImage(queue, back, CL_TRUE, origin, e, 0, 0, out, 0, NULL, NULL));
        for (size_t z = 0; z < e[2]; z++)
            for (size_t y = 0; y < e[1]; y++)
                for (size_t x = 0; x < e[0]; x++) {
                    size_t i = (z * e[1] + y) * e[0] + x;
                    int inside = x >= part_origin[0] && x < part_origin[0] + part[0] && y >= part_origin[1] &&
                                 y < part_origin[1] + part[1] && z >= part_origin[2] && z < part_origin[2] + part[2];
                    /* 300 saturates to 255. */
                    cl_uint want = inside ? (cl_uint)(1 | 2 << 8 | 255 << 16 | 4u << 24) : in[i];
                    EXPECT(out[i] == want);
                }
        /* Mapped: the pitches come back, and writes through the mapping land in the image. */
        size_t mrow = 0, mslice = 0;
        cl_int err;
        unsigned char *m = clEnqueueMapImage(queue, img, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, part_origin, part,
                                             &mrow, has_slices ? &mslice : NULL, 0, NULL, NULL, &err);
        CHECK_RET(err);
        REQUIRE(m != NULL);
        EXPECT(mrow >= e[0] * 4);
        size_t layer_pitch = one_d_array ? mslice : mrow;
        EXPECT(((cl_uint *)m)[0] == in[(part_origin[2] * e[1] + part_origin[1]) * e[0] + part_origin[0]]);
        ((cl_uint *)(m + (part[1] - 1) * layer_pitch))[0] = 0xdeadbeef;
        CHECK(clEnqueueUnmapMemObject(queue, img, m, 0, NULL, NULL));
        size_t one[3] = {1, 1, 1};
        size_t at[3] = {part_origin[0], part_origin[1] + (one_d_array ? 0 : part[1] - 1),
                        part_origin[2] + (one_d_array ? 0 : 0)};
        if (one_d_array)
            at[1] = part_origin[1] + part[1] - 1;
        cl_uint v = 0;
        CHECK(clEnqueueReadImage(queue, img, CL_TRUE, at, one, 0, 0, &v, 0, NULL, NULL));
        EXPECT(v == 0xdeadbeef);
        /* Queries. */
        size_t width = 0, height = 9, depth = 9, array = 9, elem = 0;
        cl_image_format got;
        CHECK(clGetImageInfo(img, CL_IMAGE_WIDTH, sizeof width, &width, NULL));
        CHECK(clGetImageInfo(img, CL_IMAGE_HEIGHT, sizeof height, &height, NULL));
        CHECK(clGetImageInfo(img, CL_IMAGE_DEPTH, sizeof depth, &depth, NULL));
        CHECK(clGetImageInfo(img, CL_IMAGE_ARRAY_SIZE, sizeof array, &array, NULL));
        CHECK(clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof elem, &elem, NULL));
        CHECK(clGetImageInfo(img, CL_IMAGE_FORMAT, sizeof got, &got, NULL));
        EXPECT(width == types[t].w && height == types[t].h && depth == types[t].d && array == types[t].layers);
        EXPECT(elem == 4 && got.image_channel_order == CL_RGBA && got.image_channel_data_type == CL_UNSIGNED_INT8);
        cl_mem_object_type mt = 0;
        CHECK(clGetMemObjectInfo(img, CL_MEM_TYPE, sizeof mt, &mt, NULL));
        EXPECT(mt == types[t].type);
        CHECK(clReleaseMemObject(img));
        CHECK(clReleaseMemObject(copy));
        CHECK(clReleaseMemObject(back));
        CHECK(clReleaseMemObject(buf));
        free(in);
        free(out);
        free(p);
        free(padded);
    }
}

/* A 1D image over a buffer and a 2D image from a buffer share its bytes. */
static void test_from_buffer(void) {
    cl_image_format fmt = {CL_R, CL_FLOAT};
    float data[64];
    for (int i = 0; i < 64; i++)
        data[i] = (float)i;
    cl_mem buf = make_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data);
    /* 2D images from buffers are optional in 3.0: "If the device does not support images created
     * from buffers, this value must be 0" (CL_DEVICE_IMAGE_PITCH_ALIGNMENT). */
    int from_buffer = device_uint(device, CL_DEVICE_IMAGE_PITCH_ALIGNMENT) != 0;
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    desc.image_width = 64;
    desc.buffer = buf;
    cl_int err;
    cl_mem b1 = clCreateImage(context, 0, &fmt, &desc, NULL, &err);
    CHECK_RET(err);
    if (from_buffer) {
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = 6;
        desc.image_height = 8;
        desc.image_row_pitch = 8 * sizeof(float);
        cl_mem b2 = clCreateImage(context, 0, &fmt, &desc, NULL, &err);
        CHECK_RET(err);
        float v[6];
        size_t origin[3] = {0, 3, 0}, region[3] = {6, 1, 1};
        CHECK(clEnqueueReadImage(queue, b2, CL_TRUE, origin, region, 0, 0, v, 0, NULL, NULL));
        for (int i = 0; i < 6; i++)
            EXPECT(v[i] == 24.0f + i);
        CHECK(clReleaseMemObject(b2));
    }
    cl_mem assoc = NULL;
    CHECK(clGetImageInfo(b1, CL_IMAGE_BUFFER, sizeof assoc, &assoc, NULL));
    EXPECT(assoc == buf);
    /* 5.3.1: CL_INVALID_VALUE for flags that conflict with the buffer's, or host-pointer
     * flags; the flags not given are the buffer's. */
    cl_mem ro = make_buffer(context, CL_MEM_READ_ONLY, sizeof data, NULL);
    desc.buffer = ro;
    EXPECT(clCreateImage(context, CL_MEM_WRITE_ONLY, &fmt, &desc, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_VALUE, err);
    EXPECT(clCreateImage(context, CL_MEM_ALLOC_HOST_PTR, &fmt, &desc, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_VALUE, err);
    cl_mem inherits = clCreateImage(context, 0, &fmt, &desc, NULL, &err);
    CHECK_RET(err);
    cl_mem_flags got_flags = 0;
    CHECK(clGetMemObjectInfo(inherits, CL_MEM_FLAGS, sizeof got_flags, &got_flags, NULL));
    EXPECT(got_flags & CL_MEM_READ_ONLY);
    CHECK(clReleaseMemObject(inherits));
    CHECK(clReleaseMemObject(ro));
    desc.buffer = buf;
    /* The buffer image of 64 floats cannot be wider than its buffer. */
    desc.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    desc.image_width = 65;
    desc.image_row_pitch = 0;
    desc.image_height = 0;
    EXPECT(clCreateImage(context, 0, &fmt, &desc, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_IMAGE_SIZE, err);
    CHECK(clReleaseMemObject(b1));
    CHECK(clReleaseMemObject(buf));

    /* CL_MEM_USE_HOST_PTR with a padded row pitch: read back as given, and "the pointer value
     * returned by clEnqueueMapImage will be derived from the host_ptr" (5.3.8). */
    float host[4][6];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 6; x++)
            host[y][x] = y * 100.0f + x;
    cl_mem u = image(CL_MEM_OBJECT_IMAGE2D, fmt, 5, 4, 0, 0, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, host,
                     6 * sizeof(float), 0);
    float back[4][5];
    size_t o[3] = {0, 0, 0}, r[3] = {5, 4, 1};
    CHECK(clEnqueueReadImage(queue, u, CL_TRUE, o, r, 0, 0, back, 0, NULL, NULL));
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 5; x++)
            EXPECT(back[y][x] == host[y][x]);
    void *hp = NULL;
    CHECK(clGetMemObjectInfo(u, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
    EXPECT(hp == (void *)host);
    size_t at[3] = {1, 2, 0}, one[3] = {1, 1, 1}, pitch = 0;
    float *m = clEnqueueMapImage(queue, u, CL_TRUE, CL_MAP_READ, at, one, &pitch, NULL, 0, NULL, NULL, &err);
    CHECK_RET(err);
    EXPECT(pitch == 6 * sizeof(float) && m == &host[2][1]);
    CHECK(clEnqueueUnmapMemObject(queue, u, m, 0, NULL, NULL));
    CHECK(clFinish(queue));
    CHECK(clReleaseMemObject(u));
}

static void test_errors_and_formats(void) {
    cl_uint count = 0;
    CHECK(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &count));
    cl_image_format *formats = malloc(count * sizeof *formats);
    CHECK(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, count, formats, NULL));
    /* API 5.3.2.1, table 28: the minimum list for reading or writing. */
    cl_channel_type rgba[] = {CL_UNORM_INT8,    CL_UNORM_INT16,    CL_SIGNED_INT8,     CL_SIGNED_INT16,
                              CL_SIGNED_INT32,  CL_UNSIGNED_INT8,  CL_UNSIGNED_INT16,  CL_UNSIGNED_INT32,
                              CL_HALF_FLOAT,    CL_FLOAT};
    for (size_t i = 0; i < sizeof rgba / sizeof *rgba + 1; i++) {
        cl_image_format want = {i < 10 ? CL_RGBA : CL_BGRA, i < 10 ? rgba[i] : CL_UNORM_INT8};
        int found = 0;
        for (cl_uint j = 0; j < count; j++)
            found |= formats[j].image_channel_order == want.image_channel_order &&
                     formats[j].image_channel_data_type == want.image_channel_data_type;
        EXPECT(found);
    }
    free(formats);
    EXPECT_ERR(CL_INVALID_VALUE, clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0, NULL, &count));

    cl_int err;
    cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_image_format bad = {0x1234, CL_UNORM_INT8};
    cl_image_format unsupported = {CL_BGRA, CL_UNORM_INT16};
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 4;
    desc.image_height = 4;
    EXPECT(clCreateImage(context, 0, NULL, &desc, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, err);
    EXPECT(clCreateImage(context, 0, &bad, &desc, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, err);
    EXPECT(clCreateImage(context, 0, &unsupported, &desc, NULL, &err) == NULL);
    EXPECT_RET(CL_IMAGE_FORMAT_NOT_SUPPORTED, err);
    EXPECT(clCreateImage(context, 0, &fmt, NULL, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_IMAGE_DESCRIPTOR, err);
    EXPECT(clCreateImage(context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &fmt, &desc, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_VALUE, err);
    EXPECT(clCreateImage(context, CL_MEM_COPY_HOST_PTR, &fmt, &desc, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_HOST_PTR, err);
    desc.image_row_pitch = 16;
    EXPECT(clCreateImage(context, 0, &fmt, &desc, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_IMAGE_DESCRIPTOR, err);
    desc.image_row_pitch = 0;
    size_t max_w = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof max_w, &max_w, NULL));
    EXPECT(max_w >= 8192);
    desc.image_width = max_w + 1;
    EXPECT(clCreateImage(context, 0, &fmt, &desc, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_IMAGE_SIZE, err);
    EXPECT(clCreateImage2D(context, 0, &fmt, 0, 4, 0, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_IMAGE_SIZE, err);
    cl_mem img2 = clCreateImage2D(context, CL_MEM_READ_WRITE, &fmt, 4, 4, 0, NULL, &err);
    CHECK_RET(err);
    cl_image_format fmt16 = {CL_RGBA, CL_UNORM_INT16};
    cl_mem img3 = clCreateImage3D(context, CL_MEM_READ_WRITE, &fmt16, 4, 4, 2, 0, 0, NULL, &err);
    CHECK_RET(err);

    /* Origins and regions (5.3.3). */
    unsigned char buf[256];
    size_t origin[3] = {0, 0, 0}, region[3] = {4, 4, 1};
    size_t far[3] = {1, 0, 0}, deep[3] = {0, 0, 1}, flat[3] = {4, 4, 0};
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadImage(queue, img2, CL_TRUE, far, region, 0, 0, buf, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadImage(queue, img2, CL_TRUE, deep, region, 0, 0, buf, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadImage(queue, img2, CL_TRUE, origin, flat, 0, 0, buf, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadImage(queue, img2, CL_TRUE, NULL, region, 0, 0, buf, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadImage(queue, img2, CL_TRUE, origin, region, 0, 0, NULL, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueReadImage(queue, img2, CL_TRUE, origin, region, 8, 0, buf, 0, NULL, NULL));
    cl_mem plain = make_buffer(context, CL_MEM_READ_WRITE, 64, NULL);
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueReadImage(queue, plain, CL_TRUE, origin, region, 0, 0, buf, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueReadBuffer(queue, img2, CL_TRUE, 0, 16, buf, 0, NULL, NULL));
    EXPECT_ERR(CL_IMAGE_FORMAT_MISMATCH, clEnqueueCopyImage(queue, img2, img3, origin, origin, region, 0, NULL, NULL));
    size_t two[3] = {2, 2, 1}, at1[3] = {1, 1, 0};
    EXPECT_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyImage(queue, img2, img2, origin, at1, two, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueCopyImageToBuffer(queue, img2, plain, origin, region, 4, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueFillImage(queue, img2, NULL, origin, region, 0, NULL, NULL));
    size_t rp;
    EXPECT(clEnqueueMapImage(queue, img2, CL_TRUE, CL_MAP_READ, origin, region, NULL, NULL, 0, NULL, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_VALUE, err);
    size_t region3[3] = {4, 4, 2};
    EXPECT(clEnqueueMapImage(queue, img3, CL_TRUE, CL_MAP_READ, origin, region3, &rp, NULL, 0, NULL, NULL, &err) == NULL);
    EXPECT_RET(CL_INVALID_VALUE, err);
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clGetImageInfo(plain, CL_IMAGE_WIDTH, sizeof rp, &rp, NULL));
    cl_mem host_only = clCreateImage2D(context, CL_MEM_HOST_WRITE_ONLY, &fmt, 4, 4, 0, NULL, &err);
    CHECK_RET(err);
    EXPECT_ERR(CL_INVALID_OPERATION, clEnqueueReadImage(queue, host_only, CL_TRUE, origin, region, 0, 0, buf, 0, NULL, NULL));

    /* Samplers (5.7). */
    cl_sampler s = clCreateSampler(context, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
    CHECK_RET(err);
    cl_bool norm = 0;
    cl_addressing_mode am = 0;
    cl_filter_mode fm = 0;
    cl_uint refs = 0;
    CHECK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
    CHECK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
    CHECK(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL));
    EXPECT(norm == CL_TRUE && am == CL_ADDRESS_REPEAT && fm == CL_FILTER_LINEAR);
    CHECK(clRetainSampler(s));
    CHECK(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    EXPECT(refs == 2);
    CHECK(clReleaseSampler(s));
    CHECK(clReleaseSampler(s));
    EXPECT(clCreateSampler(context, CL_TRUE, 0x1234, CL_FILTER_LINEAR, &err) == NULL);
    EXPECT_RET(CL_INVALID_VALUE, err);
    /* With properties: the defaults are normalized, clamp, nearest. */
    cl_sampler_properties props[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
    s = clCreateSamplerWithProperties(context, props, &err);
    CHECK_RET(err);
    CHECK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
    CHECK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
    EXPECT(am == CL_ADDRESS_CLAMP && norm == CL_TRUE);
    cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
    EXPECT(clCreateSamplerWithProperties(context, twice, &err) == NULL);
    EXPECT_RET(CL_INVALID_VALUE, err);
    CHECK(clReleaseSampler(s));
    EXPECT_ERR(CL_INVALID_SAMPLER, clRetainSampler(NULL));
    CHECK(clReleaseMemObject(img2));
    CHECK(clReleaseMemObject(img3));
    CHECK(clReleaseMemObject(host_only));
    CHECK(clReleaseMemObject(plain));
}

/* ---- kernels against a reference of OpenCL C 8.2 (nearest and linear, every addressing
 * mode, normalized and not), on a 2D CL_R CL_FLOAT image and a 3D one. ---- */

static const char *kernel_source =
    "kernel void sample2(read_only image2d_t img, sampler_t s, global const float2 *c,\n"
    "                    global float4 *out) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = read_imagef(img, s, c[i]);\n"
    "}\n"
    "kernel void sample3(read_only image3d_t img, sampler_t s, global const float4 *c,\n"
    "                    global float4 *out) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = read_imagef(img, s, c[i]);\n"
    "}\n"
    "constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "kernel void copy_int(read_only image2d_t src, write_only image2d_t dst) {\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    const sampler_t local_s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;\n"
    "    uint4 a = read_imageui(src, edge, p - 1);\n"
    "    uint4 b = read_imageui(src, local_s, p);\n"
    "    write_imageui(dst, p, a + b + read_imageui(src, p));\n"
    "}\n"
    "kernel void convert(read_only image2d_t src, write_only image2d_t dst, global int *q) {\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    write_imagef(dst, p, read_imagef(src, p));\n"
    "    if (p.x == 0 && p.y == 0) {\n"
    "        q[0] = get_image_width(src); q[1] = get_image_height(src);\n"
    "        q[2] = get_image_channel_order(src); q[3] = get_image_channel_data_type(src);\n"
    "        int2 d = get_image_dim(dst); q[4] = d.x; q[5] = d.y;\n"
    "    }\n"
    "}\n"
    "kernel void layer1(read_only image1d_array_t src, sampler_t s, global const float2 *c,\n"
    "                   global float4 *out) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = read_imagef(src, s, c[i]);\n"
    "}\n"
    "kernel void layers(read_only image2d_array_t src, global int4 *out) {\n"
    "    int i = get_global_id(0);\n"
    "    out[i] = read_imagei(src, (int4)(i, 0, i, 0));\n"
    "    if (i == 0) out[4] = (int4)(get_image_array_size(src), 0, 0, 0);\n"
    "}\n";

enum { W = 5, H = 4, D = 3 };
static float texels[D][H][W];

static float tex(int x, int y, int z, int w, int h, int d, int border) {
    if (x < 0 || x >= w || y < 0 || y >= h || z < 0 || z >= d)
        return border ? 0.0f : NAN;
    return texels[z][y][x];
}

/* 8.2's coordinate rules for one axis, written from the specification's formulas. */
static int ref_nearest(float s, int n, int normalized, cl_addressing_mode mode) {
    if (normalized && mode == CL_ADDRESS_REPEAT) {
        float u = (s - floorf(s)) * n;
        int i = (int)floorf(u);
        return i > n - 1 ? i - n : i;
    }
    if (normalized && mode == CL_ADDRESS_MIRRORED_REPEAT) {
        float sp = fabsf(s - 2.0f * rintf(0.5f * s));
        int i = (int)floorf(sp * n);
        return i < n - 1 ? i : n - 1;
    }
    float u = normalized ? s * n : s;
    int i = (int)floorf(u);
    if (mode == CL_ADDRESS_CLAMP_TO_EDGE)
        i = i < 0 ? 0 : i > n - 1 ? n - 1 : i;
    else
        i = i < -1 ? -1 : i > n ? n : i;
    return i;
}

static void ref_linear(float s, int n, int normalized, cl_addressing_mode mode, int *i0, int *i1, float *a) {
    float u = s;
    if (normalized && mode == CL_ADDRESS_REPEAT)
        u = (s - floorf(s)) * n;
    else if (normalized && mode == CL_ADDRESS_MIRRORED_REPEAT)
        u = fabsf(s - 2.0f * rintf(0.5f * s)) * n;
    else if (normalized)
        u = s * n;
    *i0 = (int)floorf(u - 0.5f);
    *i1 = *i0 + 1;
    *a = (u - 0.5f) - floorf(u - 0.5f);
    if (normalized && mode == CL_ADDRESS_REPEAT) {
        if (*i0 < 0) *i0 += n;
        if (*i1 > n - 1) *i1 -= n;
    } else if (normalized && mode == CL_ADDRESS_MIRRORED_REPEAT) {
        if (*i0 < 0) *i0 = 0;
        if (*i1 > n - 1) *i1 = n - 1;
    } else if (mode == CL_ADDRESS_CLAMP_TO_EDGE) {
        *i0 = *i0 < 0 ? 0 : *i0 > n - 1 ? n - 1 : *i0;
        *i1 = *i1 < 0 ? 0 : *i1 > n - 1 ? n - 1 : *i1;
    }
}

static float reference(const float *c, int dims, int normalized, cl_addressing_mode mode, cl_filter_mode filter) {
    int n[3] = {W, H, dims == 3 ? D : 1};
    int border = mode == CL_ADDRESS_CLAMP;
    if (filter == CL_FILTER_NEAREST) {
        int x = ref_nearest(c[0], n[0], normalized, mode), y = ref_nearest(c[1], n[1], normalized, mode);
        int z = dims == 3 ? ref_nearest(c[2], n[2], normalized, mode) : 0;
        return tex(x, y, z, n[0], n[1], n[2], border);
    }
    int i[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    float w[3] = {0, 0, 0};
    for (int k = 0; k < dims; k++)
        ref_linear(c[k], n[k], normalized, mode, &i[k][0], &i[k][1], &w[k]);
    float r = 0;
    for (int dz = 0; dz < (dims == 3 ? 2 : 1); dz++)
        for (int dy = 0; dy < 2; dy++)
            for (int dx = 0; dx < 2; dx++) {
                float f = (dx ? w[0] : 1 - w[0]) * (dy ? w[1] : 1 - w[1]) * (dims == 3 ? (dz ? w[2] : 1 - w[2]) : 1);
                r += f * tex(i[0][dx], i[1][dy], i[2][dz], n[0], n[1], n[2], border);
            }
    return r;
}

static void test_sampling(cl_program program) {
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                texels[z][y][x] = (float)(x * 7 + y * 31 + z * 101 % 17) + 0.25f * x;
    cl_image_format fmt = {CL_R, CL_FLOAT};
    cl_mem img2 = image(CL_MEM_OBJECT_IMAGE2D, fmt, W, H, 0, 0, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, texels[0], 0, 0);
    cl_mem img3 = image(CL_MEM_OBJECT_IMAGE3D, fmt, W, H, D, 0, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, texels, 0, 0);
    enum { N = 61 };
    float coords[N][4];
    for (int i = 0; i < N; i++) {
        /* Inside, on texel edges and centers, and outside on both sides. */
        float t = (float)i / (N - 1);
        coords[i][0] = -1.3f + 3.6f * t;
        coords[i][1] = 2.2f - 2.9f * t;
        coords[i][2] = 0.1f + 1.7f * t * t - 0.4f;
        coords[i][3] = 0;
    }
    cl_mem cbuf = make_buffer(context, CL_MEM_READ_ONLY, sizeof coords, NULL);
    cl_mem out = make_buffer(context, CL_MEM_WRITE_ONLY, N * 4 * sizeof(float), NULL);
    cl_int err;
    cl_kernel k2 = clCreateKernel(program, "sample2", &err);
    CHECK_RET(err);
    cl_kernel k3 = clCreateKernel(program, "sample3", &err);
    CHECK_RET(err);
    cl_addressing_mode modes[] = {CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                  CL_ADDRESS_MIRRORED_REPEAT};
    for (int dims = 2; dims <= 3; dims++)
        for (int normalized = 0; normalized <= 1; normalized++)
            for (size_t m = 0; m < 4; m++)
                for (cl_filter_mode filter = CL_FILTER_NEAREST; filter <= CL_FILTER_LINEAR; filter++) {
                    /* Repeat modes need normalized coordinates (6.15.15.1). */
                    if (!normalized && m >= 2)
                        continue;
                    float scaled[N][4];
                    for (int i = 0; i < N; i++)
                        for (int k = 0; k < 4; k++) {
                            int n = k == 0 ? W : k == 1 ? H : D;
                            scaled[i][k] = normalized ? coords[i][k] : coords[i][k] * n;
                        }
                    /* float2 coordinates for the 2D kernel. */
                    float packed2[N][2];
                    for (int i = 0; i < N; i++) {
                        packed2[i][0] = scaled[i][0];
                        packed2[i][1] = scaled[i][1];
                    }
                    CHECK(clEnqueueWriteBuffer(queue, cbuf, CL_TRUE, 0, dims == 2 ? sizeof packed2 : sizeof scaled,
                                               dims == 2 ? (void *)packed2 : (void *)scaled, 0, NULL, NULL));
                    cl_sampler s = clCreateSampler(context, normalized, modes[m], filter, &err);
                    CHECK_RET(err);
                    cl_kernel k = dims == 2 ? k2 : k3;
                    cl_mem img = dims == 2 ? img2 : img3;
                    CHECK(clSetKernelArg(k, 0, sizeof img, &img));
                    CHECK(clSetKernelArg(k, 1, sizeof s, &s));
                    CHECK(clSetKernelArg(k, 2, sizeof cbuf, &cbuf));
                    CHECK(clSetKernelArg(k, 3, sizeof out, &out));
                    size_t global = N;
                    CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
                    float got[N][4];
                    CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
                    for (int i = 0; i < N; i++) {
                        float want = reference(scaled[i], dims, normalized, modes[m], filter);
                        /* 8.2's linear filtering is within the precision of the format and
                         * the weights; alpha is 1 for CL_R. */
                        float tol = filter == CL_FILTER_LINEAR ? 2e-4f * (1 + fabsf(want)) : 0;
                        float alpha_tol = filter == CL_FILTER_LINEAR ? 1e-6f : 0;
                        if (!(fabsf(got[i][0] - want) <= tol) || !(fabsf(got[i][3] - 1.0f) <= alpha_tol)) {
                            printf("images.c: %dD normalized %d mode %#x filter %#x at (%g, %g, %g): %g %g, want %g 1\n",
                                   dims, normalized, (unsigned)modes[m], (unsigned)filter, scaled[i][0],
                                   scaled[i][1], scaled[i][2], got[i][0], got[i][3], want);
                            EXPECT(0);
                            break;
                        }
                    }
                    CHECK(clReleaseSampler(s));
                }
    CHECK(clReleaseKernel(k2));
    CHECK(clReleaseKernel(k3));
    CHECK(clReleaseMemObject(img2));
    CHECK(clReleaseMemObject(img3));
    CHECK(clReleaseMemObject(cbuf));
    CHECK(clReleaseMemObject(out));
}

/* Program-scope and function-scope sampler constants, samplerless reads, integer writes. */
static void test_int_kernel(cl_program program) {
    cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT16};
    unsigned short src[3][4][4];
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++)
            for (int c = 0; c < 4; c++)
                src[y][x][c] = (unsigned short)(x * 1000 + y * 100 + c * 20000);
    cl_mem a = image(CL_MEM_OBJECT_IMAGE2D, fmt, 4, 3, 0, 0, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, src, 0, 0);
    cl_mem b = image(CL_MEM_OBJECT_IMAGE2D, fmt, 4, 3, 0, 0, CL_MEM_WRITE_ONLY, NULL, 0, 0);
    cl_int err;
    cl_kernel k = clCreateKernel(program, "copy_int", &err);
    CHECK_RET(err);
    CHECK(clSetKernelArg(k, 0, sizeof a, &a));
    CHECK(clSetKernelArg(k, 1, sizeof b, &b));
    size_t global[2] = {4, 3};
    CHECK(clEnqueueNDRangeKernel(queue, k, 2, NULL, global, NULL, 0, NULL, NULL));
    unsigned short got[3][4][4];
    size_t origin[3] = {0, 0, 0}, region[3] = {4, 3, 1};
    CHECK(clEnqueueReadImage(queue, b, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL));
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++)
            for (int c = 0; c < 4; c++) {
                int px = x > 0 ? x - 1 : 0, py = y > 0 ? y - 1 : 0;
                unsigned sum = src[py][px][c] + 2u * src[y][x][c];
                /* write_imageui saturates to the 16-bit channel (8.3.1.4). */
                EXPECT(got[y][x][c] == (sum > 65535 ? 65535 : sum));
            }
    /* A buffer is no image argument, and an image no buffer argument. */
    cl_mem plain = make_buffer(context, CL_MEM_READ_WRITE, 64, NULL);
    EXPECT_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof plain, &plain));
    CHECK(clReleaseKernel(k));

    /* Normalized formats converted on reads and writes (8.3): UNORM_INT8 BGRA read, written
     * to SNORM_INT16 RGBA and to HALF_FLOAT RGBA. */
    cl_image_format bgra = {CL_BGRA, CL_UNORM_INT8};
    unsigned char px[2][2][4] = {{{0, 64, 128, 255}, {1, 2, 3, 4}}, {{255, 254, 253, 252}, {10, 20, 30, 40}}};
    cl_mem c8 = image(CL_MEM_OBJECT_IMAGE2D, bgra, 2, 2, 0, 0, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, px, 0, 0);
    cl_image_format kinds[] = {{CL_RGBA, CL_SNORM_INT16}, {CL_RGBA, CL_HALF_FLOAT}, {CL_RGBA, CL_UNORM_INT16}};
    for (int f = 0; f < 3; f++) {
        cl_mem dst = image(CL_MEM_OBJECT_IMAGE2D, kinds[f], 2, 2, 0, 0, CL_MEM_WRITE_ONLY, NULL, 0, 0);
        cl_mem q = make_buffer(context, CL_MEM_WRITE_ONLY, 6 * sizeof(cl_int), NULL);
        k = clCreateKernel(program, "convert", &err);
        CHECK_RET(err);
        CHECK(clSetKernelArg(k, 0, sizeof c8, &c8));
        CHECK(clSetKernelArg(k, 1, sizeof dst, &dst));
        CHECK(clSetKernelArg(k, 2, sizeof q, &q));
        size_t g[2] = {2, 2};
        CHECK(clEnqueueNDRangeKernel(queue, k, 2, NULL, g, NULL, 0, NULL, NULL));
        unsigned short out[2][2][4];
        size_t r2[3] = {2, 2, 1};
        CHECK(clEnqueueReadImage(queue, dst, CL_TRUE, origin, r2, 0, 0, out, 0, NULL, NULL));
        cl_int qv[6];
        CHECK(clEnqueueReadBuffer(queue, q, CL_TRUE, 0, sizeof qv, qv, 0, NULL, NULL));
        EXPECT(qv[0] == 2 && qv[1] == 2 && qv[2] == CL_BGRA && qv[3] == CL_UNORM_INT8 && qv[4] == 2 && qv[5] == 2);
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 2; x++)
                for (int c = 0; c < 4; c++) {
                    /* Memory order B, G, R, A: component c (r, g, b, a) is byte 2, 1, 0, 3. */
                    int byte = c == 0 ? 2 : c == 1 ? 1 : c == 2 ? 0 : 3;
                    float v = px[y][x][byte] / 255.0f;
                    unsigned short want;
                    if (f == 0) {
                        want = (unsigned short)(short)lrintf(v * 32767.0f);
                    } else if (f == 2) {
                        want = (unsigned short)lrintf(v * 65535.0f);
                    } else {
                        /* v in [0, 1]: normal halves (or 0); 10 mantissa bits, nearest even. */
                        if (v == 0) {
                            want = 0;
                        } else {
                            int e;
                            float m = frexpf(v, &e); /* v = m * 2^e, m in [0.5, 1) */
                            float scaled = rintf(m * 2048.0f); /* 11 significant bits */
                            if (scaled == 2048.0f) {
                                scaled = 1024.0f;
                                e++;
                            }
                            want = (unsigned short)(((e - 1 + 15) << 10) | ((int)scaled - 1024));
                        }
                    }
                    EXPECT(out[y][x][c] == want);
                }
        CHECK(clReleaseKernel(k));
        CHECK(clReleaseMemObject(dst));
        CHECK(clReleaseMemObject(q));
    }

    /* Arrays: layer i of a 2D array, read without a sampler. */
    cl_image_format r32 = {CL_R, CL_SIGNED_INT32};
    cl_int layers_data[4][1][4];
    for (int l = 0; l < 4; l++)
        for (int x = 0; x < 4; x++)
            layers_data[l][0][x] = l * 10 + x;
    cl_mem arr = image(CL_MEM_OBJECT_IMAGE2D_ARRAY, r32, 4, 1, 0, 4, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                       layers_data, 0, 0);
    cl_mem o = make_buffer(context, CL_MEM_WRITE_ONLY, 5 * 4 * sizeof(cl_int), NULL);
    k = clCreateKernel(program, "layers", &err);
    CHECK_RET(err);
    CHECK(clSetKernelArg(k, 0, sizeof arr, &arr));
    CHECK(clSetKernelArg(k, 1, sizeof o, &o));
    size_t four = 4;
    CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &four, NULL, 0, NULL, NULL));
    cl_int res[5][4];
    CHECK(clEnqueueReadBuffer(queue, o, CL_TRUE, 0, sizeof res, res, 0, NULL, NULL));
    for (int i = 0; i < 4; i++)
        EXPECT(res[i][0] == i * 10 + i && res[i][1] == 0 && res[i][2] == 0 && res[i][3] == 1);
    EXPECT(res[4][0] == 4);
    CHECK(clReleaseKernel(k));

    /* A 1D array sampled: the layer is "clamp(rint(coord.y), 0, image_array_size - 1)"
     * (6.15.15.2), rint rounding halves to even. */
    cl_image_format rf = {CL_R, CL_FLOAT};
    float rows[3][4] = {{0, 1, 2, 3}, {10, 11, 12, 13}, {20, 21, 22, 23}};
    cl_mem a1 = image(CL_MEM_OBJECT_IMAGE1D_ARRAY, rf, 4, 0, 0, 3, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, rows, 0, 0);
    float c1[6][2] = {{1.2f, 0.5f}, {2.7f, 1.5f}, {-1.0f, 7.0f}, {3.9f, -2.0f}, {1.0f, 1.49f}, {5.5f, 2.5f}};
    float want1[6] = {1, 22, 20, 3, 11, 23};
    cl_mem cb = make_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof c1, c1);
    cl_mem ob = make_buffer(context, CL_MEM_WRITE_ONLY, 6 * 4 * sizeof(float), NULL);
    cl_sampler s1 = clCreateSampler(context, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
    CHECK_RET(err);
    k = clCreateKernel(program, "layer1", &err);
    CHECK_RET(err);
    CHECK(clSetKernelArg(k, 0, sizeof a1, &a1));
    CHECK(clSetKernelArg(k, 1, sizeof s1, &s1));
    CHECK(clSetKernelArg(k, 2, sizeof cb, &cb));
    CHECK(clSetKernelArg(k, 3, sizeof ob, &ob));
    size_t six = 6;
    CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &six, NULL, 0, NULL, NULL));
    float r1[6][4];
    CHECK(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof r1, r1, 0, NULL, NULL));
    for (int i = 0; i < 6; i++)
        EXPECT(r1[i][0] == want1[i] && r1[i][1] == 0 && r1[i][2] == 0 && r1[i][3] == 1);
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseSampler(s1));
    CHECK(clReleaseMemObject(a1));
    CHECK(clReleaseMemObject(cb));
    CHECK(clReleaseMemObject(ob));
    CHECK(clReleaseMemObject(arr));
    CHECK(clReleaseMemObject(o));
    CHECK(clReleaseMemObject(c8));
    CHECK(clReleaseMemObject(plain));
    CHECK(clReleaseMemObject(a));
    CHECK(clReleaseMemObject(b));
}

/* OpenCL C 3.0: a read_write image (__opencl_c_read_write_images) read, fenced and written by
 * each work-item, and a 3D image written (__opencl_c_3d_image_writes). */
static const char *rw_source =
    "kernel void rw(read_write image2d_t img, write_only image3d_t vol) {\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    float4 v = read_imagef(img, p);\n"
    "    atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);\n"
    "    write_imagef(img, p, v * 2.0f);\n"
    "    write_imagei(vol, (int4)(p, p.x + p.y, 0), (int4)(p.x, p.y, 7, 9));\n"
    "}\n";

static void test_read_write(void) {
    cl_image_format ff = {CL_RG, CL_FLOAT}, fi = {CL_RGBA, CL_SIGNED_INT8};
    float data[3][4][2];
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++)
            data[y][x][0] = x + 10.0f * y, data[y][x][1] = -1.5f;
    cl_mem img = image(CL_MEM_OBJECT_IMAGE2D, ff, 4, 3, 0, 0, CL_MEM_KERNEL_READ_AND_WRITE | CL_MEM_COPY_HOST_PTR, data, 0, 0);
    cl_mem vol = image(CL_MEM_OBJECT_IMAGE3D, fi, 4, 3, 6, 0, CL_MEM_WRITE_ONLY, NULL, 0, 0);
    cl_int zero[4] = {0, 0, 0, 0};
    size_t o3[3] = {0, 0, 0}, r3[3] = {4, 3, 6};
    CHECK(clEnqueueFillImage(queue, vol, zero, o3, r3, 0, NULL, NULL));
    cl_program program = build_program(context, device, rw_source, "-cl-std=CL3.0");
    cl_int err;
    cl_kernel k = clCreateKernel(program, "rw", &err);
    CHECK_RET(err);
    CHECK(clSetKernelArg(k, 0, sizeof img, &img));
    CHECK(clSetKernelArg(k, 1, sizeof vol, &vol));
    size_t g[2] = {4, 3};
    CHECK(clEnqueueNDRangeKernel(queue, k, 2, NULL, g, NULL, 0, NULL, NULL));
    float out[3][4][2];
    size_t origin[3] = {0, 0, 0}, region[3] = {4, 3, 1}, vregion[3] = {4, 3, 6};
    CHECK(clEnqueueReadImage(queue, img, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL));
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++)
            EXPECT(out[y][x][0] == 2 * (x + 10.0f * y) && out[y][x][1] == -3.0f);
    signed char v[6][3][4][4];
    CHECK(clEnqueueReadImage(queue, vol, CL_TRUE, origin, vregion, 0, 0, v, 0, NULL, NULL));
    for (int z = 0; z < 6; z++)
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 4; x++) {
                int written = z == x + y;
                EXPECT(v[z][y][x][0] == (written ? x : 0) && v[z][y][x][3] == (written ? 9 : 0));
            }
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseProgram(program));
    CHECK(clReleaseMemObject(img));
    CHECK(clReleaseMemObject(vol));
}

/* Every supported 2D format written with write_imagef/i/ui (by its channel type) and read
 * back twice: the bytes, against the conversions of OpenCL C 8.3 written here, and through
 * read_imagef/i/ui, against the channel order's rules (missing channels 0, alpha 1). */
static const char *format_source =
    "kernel void wf(write_only image2d_t m, float4 v) { write_imagef(m, (int2)(1, 0), v); }\n"
    "kernel void wi(write_only image2d_t m, int4 v) { write_imagei(m, (int2)(1, 0), v); }\n"
    "kernel void wu(write_only image2d_t m, uint4 v) { write_imageui(m, (int2)(1, 0), v); }\n"
    "kernel void rf(read_only image2d_t m, global float4 *o) { *o = read_imagef(m, (int2)(1, 0)); }\n"
    "kernel void ri(read_only image2d_t m, global int4 *o) { *o = read_imagei(m, (int2)(1, 0)); }\n"
    "kernel void ru(read_only image2d_t m, global uint4 *o) { *o = read_imageui(m, (int2)(1, 0)); }\n";

/* float to binary16 bits for normal results, to nearest even. */
static unsigned half_of(float f) {
    unsigned sign = f < 0 ? 0x8000u : 0;
    int e;
    float m = frexpf(fabsf(f), &e); /* |f| = m * 2^e, m in [0.5, 1) */
    float q = rintf(m * 2048.0f);
    if (q == 2048.0f) {
        q = 1024.0f;
        e++;
    }
    return sign | (unsigned)((e - 1 + 15) << 10) | ((unsigned)q - 1024u);
}

static float float_of_half(unsigned h) {
    float v = ldexpf((float)(1024 + (h & 0x3ff)), (int)((h >> 10) & 0x1f) - 25);
    return h & 0x8000 ? -v : v;
}

static void test_every_format(void) {
    cl_program program = build_program(context, device, format_source, "");
    cl_uint count = 0;
    CHECK(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &count));
    cl_image_format *formats = malloc(count * sizeof *formats);
    CHECK(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, count, formats, NULL));
    float fv[4] = {0.3f, -0.7f, 1.6f, 0.55f};
    cl_int iv[4] = {-200, 100, 70000, -5};
    cl_uint uv[4] = {300, 7, 70000, 1};
    cl_mem out = make_buffer(context, CL_MEM_READ_WRITE, 16, NULL);
    int tested = 0;
    for (cl_uint f = 0; f < count; f++) {
        cl_channel_order o = formats[f].image_channel_order;
        cl_channel_type t = formats[f].image_channel_data_type;
        /* Which component (r, g, b, a = 0..3) each channel in memory holds. */
        int comps[4], n;
        switch (o) {
        case CL_R: case CL_INTENSITY: case CL_LUMINANCE: n = 1; comps[0] = 0; break;
        case CL_A: n = 1; comps[0] = 3; break;
        case CL_RG: n = 2; comps[0] = 0; comps[1] = 1; break;
        case CL_RA: n = 2; comps[0] = 0; comps[1] = 3; break;
        case CL_RGBA: n = 4; for (int c = 0; c < 4; c++) comps[c] = c; break;
        case CL_BGRA: n = 4; comps[0] = 2; comps[1] = 1; comps[2] = 0; comps[3] = 3; break;
        case CL_ARGB: n = 4; comps[0] = 3; comps[1] = 0; comps[2] = 1; comps[3] = 2; break;
        default: continue; /* an order this test does not know */
        }
        int kind; /* 0 float, 1 int, 2 uint */
        int size;
        switch (t) {
        case CL_UNORM_INT8: case CL_SNORM_INT8: kind = 0; size = 1; break;
        case CL_UNORM_INT16: case CL_SNORM_INT16: case CL_HALF_FLOAT: kind = 0; size = 2; break;
        case CL_FLOAT: kind = 0; size = 4; break;
        case CL_SIGNED_INT8: kind = 1; size = 1; break;
        case CL_SIGNED_INT16: kind = 1; size = 2; break;
        case CL_SIGNED_INT32: kind = 1; size = 4; break;
        case CL_UNSIGNED_INT8: kind = 2; size = 1; break;
        case CL_UNSIGNED_INT16: kind = 2; size = 2; break;
        case CL_UNSIGNED_INT32: kind = 2; size = 4; break;
        default: continue;
        }
        cl_mem img = image(CL_MEM_OBJECT_IMAGE2D, formats[f], 2, 1, 0, 0, CL_MEM_READ_WRITE, NULL, 0, 0);
        cl_int err;
        cl_kernel w = clCreateKernel(program, kind == 0 ? "wf" : kind == 1 ? "wi" : "wu", &err);
        CHECK_RET(err);
        CHECK(clSetKernelArg(w, 0, sizeof img, &img));
        CHECK(clSetKernelArg(w, 1, 16, kind == 0 ? (void *)fv : kind == 1 ? (void *)iv : (void *)uv));
        CHECK(clEnqueueTask(queue, w, 0, NULL, NULL));
        unsigned char raw[16];
        size_t origin[3] = {1, 0, 0}, region[3] = {1, 1, 1};
        CHECK(clEnqueueReadImage(queue, img, CL_TRUE, origin, region, 0, 0, raw, 0, NULL, NULL));
        long long stored[4];
        for (int c = 0; c < n; c++) {
            int k = comps[c];
            long long want;
            switch (t) {
            case CL_UNORM_INT8: want = (long long)fminf(fmaxf(rintf(fv[k] * 255.0f), 0), 255); break;
            case CL_SNORM_INT8: want = (long long)fminf(fmaxf(rintf(fv[k] * 127.0f), -128), 127); break;
            case CL_UNORM_INT16: want = (long long)fminf(fmaxf(rintf(fv[k] * 65535.0f), 0), 65535); break;
            case CL_SNORM_INT16: want = (long long)fminf(fmaxf(rintf(fv[k] * 32767.0f), -32768), 32767); break;
            case CL_HALF_FLOAT: want = half_of(fv[k]); break;
            case CL_FLOAT: { cl_uint b; memcpy(&b, &fv[k], 4); want = b; break; }
            case CL_SIGNED_INT8: want = iv[k] < -128 ? -128 : iv[k] > 127 ? 127 : iv[k]; break;
            case CL_SIGNED_INT16: want = iv[k] < -32768 ? -32768 : iv[k] > 32767 ? 32767 : iv[k]; break;
            case CL_SIGNED_INT32: want = iv[k]; break;
            case CL_UNSIGNED_INT8: want = uv[k] > 255 ? 255 : uv[k]; break;
            case CL_UNSIGNED_INT16: want = uv[k] > 65535 ? 65535 : uv[k]; break;
            default: want = uv[k]; break;
            }
            long long got;
            if (size == 1)
                got = (t == CL_SNORM_INT8 || t == CL_SIGNED_INT8) ? (long long)(signed char)raw[c] : raw[c];
            else if (size == 2) {
                unsigned short v;
                memcpy(&v, raw + 2 * c, 2);
                got = (t == CL_SNORM_INT16 || t == CL_SIGNED_INT16) ? (long long)(short)v : v;
            } else {
                cl_uint v;
                memcpy(&v, raw + 4 * c, 4);
                got = t == CL_SIGNED_INT32 ? (long long)(cl_int)v : v;
            }
            stored[c] = got;
            if (got != want) {
                printf("images.c: format %#x %#x channel %d: stored %lld, want %lld\n", (unsigned)o, (unsigned)t, c,
                       got, want);
                EXPECT(0);
            }
        }
        /* Read back: each component from its channel, converted back; missing ones 0, alpha 1. */
        cl_kernel r = clCreateKernel(program, kind == 0 ? "rf" : kind == 1 ? "ri" : "ru", &err);
        CHECK_RET(err);
        CHECK(clSetKernelArg(r, 0, sizeof img, &img));
        CHECK(clSetKernelArg(r, 1, sizeof out, &out));
        CHECK(clEnqueueTask(queue, r, 0, NULL, NULL));
        union { float f[4]; cl_int i[4]; cl_uint u[4]; } back;
        CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, 16, &back, 0, NULL, NULL));
        for (int k = 0; k < 4; k++) {
            int c = -1;
            for (int j = 0; j < n; j++)
                if (comps[j] == k)
                    c = j;
            if (o == CL_INTENSITY || (o == CL_LUMINANCE && k < 3))
                c = 0;
            double want;
            if (c < 0) {
                want = k == 3 ? 1 : 0;
            } else if (kind == 0) {
                switch (t) {
                case CL_UNORM_INT8: want = stored[c] / 255.0; break;
                case CL_SNORM_INT8: want = fmax(-1.0, stored[c] / 127.0); break;
                case CL_UNORM_INT16: want = stored[c] / 65535.0; break;
                case CL_SNORM_INT16: want = fmax(-1.0, stored[c] / 32767.0); break;
                case CL_HALF_FLOAT: want = float_of_half((unsigned)stored[c]); break;
                default: { float v; cl_uint b = (cl_uint)stored[c]; memcpy(&v, &b, 4); want = v; }
                }
            } else {
                want = (double)stored[c];
            }
            double got = kind == 0 ? (double)back.f[k] : kind == 1 ? (double)back.i[k] : (double)back.u[k];
            /* 8.3.1.1: the normalized conversions are within 1.5 ulp; integers exact. */
            if (!(fabs(got - want) <= (kind == 0 ? 2e-7 * fabs(want) : 0))) {
                printf("images.c: format %#x %#x component %d: read %g, want %g\n", (unsigned)o, (unsigned)t, k, got,
                       want);
                EXPECT(0);
            }
        }
        tested++;
        CHECK(clReleaseKernel(w));
        CHECK(clReleaseKernel(r));
        CHECK(clReleaseMemObject(img));
    }
    EXPECT(tested >= 11);
    free(formats);
    CHECK(clReleaseMemObject(out));
    CHECK(clReleaseProgram(program));
}

int main(void) {
    device = first_device();
    if (!device_uint(device, CL_DEVICE_IMAGE_SUPPORT)) {
        printf("images.c: the device has no images\n");
        return finish();
    }
    context = make_context(device);
    queue = make_queue(context, device);
    test_round_trips();
    test_from_buffer();
    test_errors_and_formats();
    if (device_uint(device, CL_DEVICE_COMPILER_AVAILABLE)) {
        cl_program program = build_program(context, device, kernel_source, "");
        test_sampling(program);
        test_int_kernel(program);
        test_read_write();
        test_every_format();
        CHECK(clReleaseProgram(program));
    }
    CHECK(clReleaseCommandQueue(queue));
    CHECK(clReleaseContext(context));
    return finish();
}
