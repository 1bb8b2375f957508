/* 5.2.3 and Appendix D: copies within one buffer, between sub-buffers of one buffer, and
 * between a sub-buffer and its parent.
 *
 * clEnqueueCopyBufferRect returns "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the
 * same buffer or sub-buffer object and the source and destination regions overlap or if
 * src_buffer and dst_buffer are different sub-buffers of the same associated buffer object and
 * they overlap. Refer to Checking for Memory Copy Overlap for details"; clEnqueueCopyBuffer
 * the same with "The regions overlap if src_offset <= dst_offset <= src_offset + size - 1 or if
 * dst_offset <= src_offset <= dst_offset + size - 1". Every other copy succeeds and copies
 * exactly its rectangle: "Each byte of the region's width is copied from the source offset to
 * the destination offset. After copying each width, the source and destination offsets are
 * incremented by their respective source and destination row pitches."
 *
 * Thousands of rectangles are drawn with a fixed seed, many of them near each other (bounding
 * ranges that overlap while the rows interleave), and each copy is checked against a host model:
 * the overlap rule restated here from the appendix, and the exact bytes a copy writes. */
#include "check.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

/* xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift generators"). */
static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint64_t next_random(void) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1Dull;
}

/* A value in [lo, hi]. */
static size_t draw(size_t lo, size_t hi) {
    return lo + (size_t)(next_random() % (uint64_t)(hi - lo + 1));
}

/* The appendix's test, for two rectangles of `region` with one row and slice pitch whose first
 * bytes are `s` and `d`. Its three steps, restated by the distance from one start to the other:
 * the copy does not overlap when the two blocks (first byte to last) are apart; or when, counted
 * around a row pitch, the destination's columns start at least region[0] after the source's and
 * end at least region[0] before the source's next row ("region[0] fits in the gap between
 * region[0] and row_pitch"), or the other way round; or the same around a slice pitch with the
 * bytes one slice covers ("region[1] fits in the gap between region[1] and slice_pitch"). */
static int appendix_overlap(size_t s, size_t d, const size_t region[3], size_t row, size_t slice) {
    size_t slice_size = (region[1] - 1) * row + region[0];
    size_t block = (region[2] - 1) * slice + slice_size;
    if (s + block <= d || d + block <= s)
        return 0;
    size_t dx = (d % row + row - s % row) % row;
    if (dx >= region[0] && dx <= row - region[0])
        return 0;
    size_t dy = (d % slice + slice - s % slice) % slice;
    if (dy >= slice_size && dy <= slice - slice_size)
        return 0;
    return 1;
}

/* Byte offset of byte x of row y of slice z of a rectangle starting at `start`. */
static size_t at(size_t start, size_t x, size_t y, size_t z, size_t row, size_t slice) {
    return start + z * slice + y * row + x;
}

/* Whether the two rectangles share a byte (`mark` is scratch of `n` bytes). */
static int bytes_overlap(unsigned char *mark, size_t n, size_t s, const size_t sp[2], size_t d, const size_t dp[2],
                         const size_t region[3]) {
    memset(mark, 0, n);
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            for (size_t x = 0; x < region[0]; x++)
                mark[at(s, x, y, z, sp[0], sp[1])] = 1;
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            for (size_t x = 0; x < region[0]; x++)
                if (mark[at(d, x, y, z, dp[0], dp[1])])
                    return 1;
    return 0;
}

/* The copy on the host model, from a snapshot of the source bytes (the rectangles are disjoint
 * whenever a copy is made, so the order of the rows does not matter). */
static void model_copy(unsigned char *model, unsigned char *snapshot, size_t n, size_t s, const size_t sp[2],
                       size_t d, const size_t dp[2], const size_t region[3]) {
    memcpy(snapshot, model, n);
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            for (size_t x = 0; x < region[0]; x++)
                model[at(d, x, y, z, dp[0], dp[1])] = snapshot[at(s, x, y, z, sp[0], sp[1])];
}

/* The rectangle's origin argument for a first byte `start`: its x, y and z (x below the row
 * pitch), or every byte in x (an origin is only a way of writing the offset
 * origin[2] × slice_pitch + origin[1] × row_pitch + origin[0]). */
static void origin_of(size_t start, size_t row, size_t slice, size_t origin[3]) {
    if (next_random() % 4 == 0) {
        origin[0] = start;
        origin[1] = origin[2] = 0;
    } else {
        origin[2] = start / slice;
        origin[1] = start % slice / row;
        origin[0] = start % slice % row;
    }
}

/* A rectangle that fits in `n` bytes: pitches (the slice pitch a multiple of the row pitch, as
 * 5.2.3 requires) and region; returns the bytes from its first to its last. */
static size_t draw_shape(size_t n, size_t pitch[2], size_t region[3]) {
    for (;;) {
        size_t row = draw(1, 40), rows = draw(1, 10);
        region[0] = draw(1, row);
        region[1] = draw(1, rows);
        pitch[0] = row;
        pitch[1] = row * rows;
        size_t slice_size = (region[1] - 1) * row + region[0];
        if (slice_size > n)
            continue;
        size_t most = (n - slice_size) / pitch[1] + 1;
        region[2] = draw(1, most < 5 ? most : 5);
        return (region[2] - 1) * pitch[1] + slice_size;
    }
}

/* A second start near the first one half of the time, so that bounding ranges overlap often. */
static size_t draw_start_near(size_t first, size_t lo, size_t hi) {
    if (next_random() % 2 == 0) {
        size_t a = first > lo + 60 ? first - 60 : lo, b = first + 60 < hi ? first + 60 : hi;
        if (a <= b)
            return draw(a, b);
    }
    return draw(lo, hi);
}

static unsigned char *read_all(cl_mem mem, size_t n) {
    unsigned char *got = malloc(n);
    REQUIRE(got != NULL);
    CHECK(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, n, got, 0, NULL, NULL));
    return got;
}

/* Counts of what the draws covered: each must be reached, or the test proves little. */
struct tally {
    unsigned copied, refused, interleaved, conservative;
};

/* One rectangle copy from `src` (whose first byte is byte `src_base` of the parent) to `dst`,
 * checked against the model of the parent's `n` bytes. */
static void rect_copy(cl_mem parent, size_t n, unsigned char *model, unsigned char *scratch, cl_mem src,
                      size_t src_base, size_t src_size, cl_mem dst, size_t dst_base, size_t dst_size,
                      struct tally *t) {
    size_t sp[2], dp[2], region[3];
    size_t extent = draw_shape(src_size < dst_size ? src_size : dst_size, sp, region);
    /* Different objects may have different pitches: then the rule is the bytes themselves. */
    int same_pitch = src == dst || next_random() % 3 != 0;
    dp[0] = sp[0];
    dp[1] = sp[1];
    if (!same_pitch) {
        dp[0] = sp[0] + draw(0, 8);
        dp[1] = dp[0] * (sp[1] / sp[0] + draw(0, 2));
        size_t dst_extent = (region[2] - 1) * dp[1] + (region[1] - 1) * dp[0] + region[0];
        if (dst_extent > dst_size) {
            dp[0] = sp[0];
            dp[1] = sp[1];
            same_pitch = 1;
        }
    }
    size_t dst_extent = (region[2] - 1) * dp[1] + (region[1] - 1) * dp[0] + region[0];
    size_t s = draw(0, src_size - extent);
    size_t d = draw_start_near(s + src_base >= dst_base ? s + src_base - dst_base : 0, 0, dst_size - dst_extent);
    size_t so[3], dorg[3];
    origin_of(s, sp[0], sp[1], so);
    origin_of(d, dp[0], dp[1], dorg);
    size_t ps = src_base + s, pd = dst_base + d;
    int touch = bytes_overlap(scratch, n, ps, sp, pd, dp, region);
    int want = same_pitch ? appendix_overlap(ps, pd, region, sp[0], sp[1]) : touch;
    /* Pitches of 0 stand for region[0] and region[1] × row pitch; pass them so when they are. */
    size_t srp = sp[0], ssp = sp[1], drp = dp[0], dsp = dp[1];
    if (same_pitch && sp[0] == region[0] && next_random() % 2 == 0)
        srp = drp = 0;
    if (same_pitch && sp[1] == region[1] * sp[0] && next_random() % 2 == 0)
        ssp = dsp = 0;
    cl_int err = clEnqueueCopyBufferRect(queue, src, dst, so, dorg, region, srp, ssp, drp, dsp, 0, NULL, NULL);
    if (err != (want ? CL_MEM_COPY_OVERLAP : CL_SUCCESS)) {
        fprintf(stderr,
                "rect copy from byte %zu to %zu (of the parent), region {%zu, %zu, %zu}, pitches {%zu, %zu} and "
                "{%zu, %zu}, origins {%zu, %zu, %zu} and {%zu, %zu, %zu}, bytes %s:\n",
                ps, pd, region[0], region[1], region[2], sp[0], sp[1], dp[0], dp[1], so[0], so[1], so[2], dorg[0],
                dorg[1], dorg[2], touch ? "shared" : "disjoint");
        /* PoCL 3.1 deviates: it refuses many copies whose rectangles share no byte and accepts
         * some that share bytes. */
        check_deviation(__FILE__, __LINE__, "clEnqueueCopyBufferRect", err, want ? CL_MEM_COPY_OVERLAP : CL_SUCCESS);
    }
    /* The appendix never calls a copy whose bytes meet free of overlap. */
    EXPECT(want || !touch);
    size_t lo = ps < pd ? ps : pd, hi = ps + extent > pd + dst_extent ? ps + extent : pd + dst_extent;
    int ranges_meet = lo + extent + dst_extent > hi;
    if (want) {
        t->refused++;
        t->conservative += !touch;
        return;
    }
    t->copied++;
    t->interleaved += ranges_meet;
    if (err == CL_SUCCESS)
        model_copy(model, scratch, n, ps, sp, pd, dp, region);
    unsigned char *got = read_all(parent, n);
    if (memcmp(got, model, n) != 0) {
        fprintf(stderr, "bytes after the rect copy from %zu to %zu, region {%zu, %zu, %zu}, pitches {%zu, %zu}:\n",
                ps, pd, region[0], region[1], region[2], sp[0], sp[1]);
        /* PoCL 3.1 deviates (its copies within one buffer can write other bytes). */
        EXPECT_DEVIATES(memcmp(got, model, n) == 0);
        memcpy(model, got, n);
    }
    free(got);
}

/* One clEnqueueCopyBuffer between the same objects. */
static void linear_copy(cl_mem parent, size_t n, unsigned char *model, unsigned char *scratch, cl_mem src,
                        size_t src_base, size_t src_size, cl_mem dst, size_t dst_base, size_t dst_size,
                        struct tally *t) {
    size_t size = draw(1, (src_size < dst_size ? src_size : dst_size) / 2);
    size_t s = draw(0, src_size - size);
    size_t d = draw_start_near(s + src_base >= dst_base ? s + src_base - dst_base : 0, 0, dst_size - size);
    size_t ps = src_base + s, pd = dst_base + d;
    /* "The regions overlap if src_offset <= dst_offset <= src_offset + size - 1 or if
     * dst_offset <= src_offset <= dst_offset + size - 1" (offsets in the one buffer). */
    int want = (ps <= pd && pd <= ps + size - 1) || (pd <= ps && ps <= pd + size - 1);
    cl_int err = clEnqueueCopyBuffer(queue, src, dst, s, d, size, 0, NULL, NULL);
    if (err != (want ? CL_MEM_COPY_OVERLAP : CL_SUCCESS)) {
        fprintf(stderr, "copy of %zu bytes from byte %zu to %zu (of the parent):\n", size, ps, pd);
        /* PoCL 3.1 deviates between sub-buffers of one buffer. */
        check_deviation(__FILE__, __LINE__, "clEnqueueCopyBuffer", err, want ? CL_MEM_COPY_OVERLAP : CL_SUCCESS);
    }
    if (want) {
        t->refused++;
        return;
    }
    t->copied++;
    size_t pitch[2] = {size, size}, region[3] = {size, 1, 1};
    if (err == CL_SUCCESS)
        model_copy(model, scratch, n, ps, pitch, pd, pitch, region);
    unsigned char *got = read_all(parent, n);
    EXPECT_DEVIATES(memcmp(got, model, n) == 0); /* PoCL 3.1, as above */
    memcpy(model, got, n);
    free(got);
}

static cl_mem sub_buffer(cl_mem parent, size_t origin, size_t size) {
    cl_buffer_region r = {origin, size};
    cl_int err = CL_SUCCESS;
    cl_mem sub = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK_RET(err);
    return sub;
}

int main(void) {
    device = first_device();
    context = make_context(device);
    queue = make_queue(context, device);
    cl_uint align_bits = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
    size_t align = align_bits / 8 ? align_bits / 8 : 1;

    /* The parent: room for four aligned sub-buffers, and at least 2048 bytes. */
    size_t n = 4 * align < 2048 ? 2048 : 4 * align;
    unsigned char *model = malloc(n), *scratch = malloc(n);
    REQUIRE(model && scratch);
    for (size_t i = 0; i < n; i++)
        model[i] = (unsigned char)next_random();
    cl_mem parent = make_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n, model);

    /* Within one buffer. */
    struct tally one = {0, 0, 0, 0};
    for (int i = 0; i < 3000; i++)
        rect_copy(parent, n, model, scratch, parent, 0, n, parent, 0, n, &one);
    struct tally linear = {0, 0, 0, 0};
    for (int i = 0; i < 500; i++)
        linear_copy(parent, n, model, scratch, parent, 0, n, parent, 0, n, &linear);

    /* Sub-buffers: a pair that overlaps (A covers the first two alignment units past one, B
     * starts one unit later), a pair apart, and each with its parent. Offsets and rectangles are
     * the parent's bytes. */
    /* PoCL 3.1 crashes in these copies: lenient runs stop at one buffer. */
    if (!strict()) {
        printf("one buffer: %u copied, %u refused\n", one.copied, one.refused);
        return finish();
    }
    size_t half = n / 2 / align * align;
    cl_mem a = sub_buffer(parent, align, half), b = sub_buffer(parent, 2 * align, half - align);
    struct tally subs = {0, 0, 0, 0};
    struct {
        cl_mem src;
        size_t src_base, src_size;
        cl_mem dst;
        size_t dst_base, dst_size;
    } pairs[] = {
        {a, align, half, b, 2 * align, half - align},
        {b, 2 * align, half - align, a, align, half},
        {a, align, half, parent, 0, n},
        {parent, 0, n, b, 2 * align, half - align},
        {a, align, half, a, align, half},
    };
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        for (int i = 0; i < 600; i++)
            rect_copy(parent, n, model, scratch, pairs[p].src, pairs[p].src_base, pairs[p].src_size, pairs[p].dst,
                      pairs[p].dst_base, pairs[p].dst_size, &subs);
        for (int i = 0; i < 100; i++)
            linear_copy(parent, n, model, scratch, pairs[p].src, pairs[p].src_base, pairs[p].src_size, pairs[p].dst,
                        pairs[p].dst_base, pairs[p].dst_size, &linear);
    }
    /* Sub-buffers apart from each other never overlap, whatever the rectangles. */
    cl_mem c = sub_buffer(parent, half, n - half);
    struct tally apart = {0, 0, 0, 0};
    for (int i = 0; i < 300; i++)
        rect_copy(parent, n, model, scratch, a, align, half - align, c, half, n - half, &apart);
    EXPECT(apart.refused == 0);

    printf("one buffer: %u copied (%u with overlapping bounding ranges), %u refused (%u of them with disjoint "
           "bytes)\n",
           one.copied, one.interleaved, one.refused, one.conservative);
    printf("sub-buffers: %u copied (%u interleaved), %u refused; linear: %u copied, %u refused\n", subs.copied,
           subs.interleaved, subs.refused, linear.copied, linear.refused);
    /* The draws reach every case the rule distinguishes. */
    EXPECT(one.copied > 500 && one.refused > 300 && one.interleaved > 200);
    EXPECT(subs.copied > 500 && subs.refused > 300 && subs.interleaved > 100);
    EXPECT(linear.copied > 100 && linear.refused > 100);

    CHECK(clReleaseMemObject(c));
    CHECK(clReleaseMemObject(a));
    CHECK(clReleaseMemObject(b));
    CHECK(clReleaseMemObject(parent));
    CHECK(clReleaseCommandQueue(queue));
    CHECK(clReleaseContext(context));
    free(model);
    free(scratch);
    return finish();
}
