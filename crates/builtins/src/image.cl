// 6.15.15 image functions: reads with and without samplers, writes and queries, for every
// image type, on top of the kernel ABI's image descriptor (crates/device/src/lib.rs,
// ImageDescriptor): an image argument is the address of the descriptor, a sampler its
// 32-bit bit-field. The addressing and filtering rules are OpenCL C 8.2's (the API
// specification's chapter 8 says the same), the conversions 8.3's.
//
// Every texel access is bounds-checked: a coordinate outside the image reads the border
// color (what CLK_ADDRESS_CLAMP asks; CLK_ADDRESS_NONE and the samplerless reads leave such
// reads undefined) and a write outside it is dropped, so no coordinate reaches memory the
// image does not own.

// The descriptor, field for field.
typedef struct {
    __global uchar *data;
    uint width;
    uint height;
    uint depth;
    uint array_size;
    ulong row_pitch;
    ulong slice_pitch;
    uint channel_order;
    uint channel_data_type;
    uint element_size;
    uint num_channels;
    uint image_type;
    uint reserved;
} __ferrocl_image;

#define IMG __global const __ferrocl_image *

// cl_channel_order and cl_channel_type codes (API 5.3.1.1, the values of cl.h).
#define ORDER_R 0x10B0
#define ORDER_A 0x10B1
#define ORDER_RG 0x10B2
#define ORDER_RA 0x10B3
#define ORDER_BGRA 0x10B6
#define ORDER_ARGB 0x10B7
#define ORDER_INTENSITY 0x10B8
#define ORDER_LUMINANCE 0x10B9

// Sampler fields (6.15.15.1).
#define SAMPLER_NORMALIZED 1u
#define SAMPLER_ADDRESS 0xEu
#define ADDRESS_NONE 0u
#define ADDRESS_CLAMP_TO_EDGE 2u
#define ADDRESS_REPEAT 6u
#define ADDRESS_MIRRORED_REPEAT 8u
#define SAMPLER_FILTER 0x30u
#define FILTER_LINEAR 0x20u

// ---------------------------------------------------------------------------------------------
// Texels: raw channels in memory order, read and written.

// x's bytes in 32 bits: x is inside the row, and a row holds at most 2^27 texels (the
// largest image1d_buffer_t's) of at most 16 bytes.
static __global uchar *__ferrocl_texel(IMG im, int x, int y, int z) {
    return im->data + (ulong)((uint)x * im->element_size) + (ulong)y * im->row_pitch
        + (ulong)z * im->slice_pitch;
}

static bool __ferrocl_inside(IMG im, int x, int y, int z) {
    int layers = max((int)im->depth, (int)im->array_size);
    // `&`, not `&&`: one test of every coordinate, no branch.
    return (x >= 0) & (x < (int)im->width) & (y >= 0) & (y < (int)im->height) & (z >= 0)
        & (z < layers);
}

// The raw channels of texel (x, y, z); zeros outside the image (the border, before the
// channel order adds alpha). Branch-free in the coordinates: the texel read is the nearest
// inside the image, and the border replaces it after, so work-items run in step.
static uint4 __ferrocl_raw(IMG im, int x, int y, int z) {
    uint4 r = (uint4)(0u);
    bool inside = __ferrocl_inside(im, x, y, z);
    int layers = max((int)im->depth, (int)im->array_size);
    __global const uchar *p = __ferrocl_texel(im, clamp(x, 0, (int)im->width - 1),
        clamp(y, 0, (int)im->height - 1), clamp(z, 0, layers - 1));
    uint n = im->num_channels;
    // The bytes of a channel, element_size / n, without a division: 1, 2 or 4.
    uint size = im->element_size == n ? 1u : im->element_size == 2u * n ? 2u : 4u;
    // Four 8-bit channels at 4-byte aligned texels (the image's data and pitches multiples of
    // 4): one 32-bit read, its bytes in memory order (every device is little-endian).
    bool words = ((((ulong)im->data | im->row_pitch | im->slice_pitch) & 3u) == 0);
    if (size == 1 && n == 4 && words) {
        uint v = *(__global const uint *)p;
        r = (uint4)(v, v >> 8, v >> 16, v >> 24) & 0xffu;
    } else if (size == 1) {
        r.x = p[0];
        if (n > 1) r.y = p[1];
        if (n > 2) r.z = p[2];
        if (n > 3) r.w = p[3];
    } else if (size == 2) {
        __global const ushort *q = (__global const ushort *)p;
        r.x = q[0];
        if (n > 1) r.y = q[1];
        if (n > 2) r.z = q[2];
        if (n > 3) r.w = q[3];
    } else {
        __global const uint *q = (__global const uint *)p;
        r.x = q[0];
        if (n > 1) r.y = q[1];
        if (n > 2) r.z = q[2];
        if (n > 3) r.w = q[3];
    }
    return inside ? r : (uint4)(0u);
}

static void __ferrocl_store_raw(IMG im, int x, int y, int z, uint4 r) {
    if (!__ferrocl_inside(im, x, y, z))
        return;
    __global uchar *p = __ferrocl_texel(im, x, y, z);
    uint n = im->num_channels;
    uint size = im->element_size == n ? 1u : im->element_size == 2u * n ? 2u : 4u;
    if (size == 1) {
        p[0] = (uchar)r.x;
        if (n > 1) p[1] = (uchar)r.y;
        if (n > 2) p[2] = (uchar)r.z;
        if (n > 3) p[3] = (uchar)r.w;
    } else if (size == 2) {
        __global ushort *q = (__global ushort *)p;
        q[0] = (ushort)r.x;
        if (n > 1) q[1] = (ushort)r.y;
        if (n > 2) q[2] = (ushort)r.z;
        if (n > 3) q[3] = (ushort)r.w;
    } else {
        __global uint *q = (__global uint *)p;
        q[0] = r.x;
        if (n > 1) q[1] = r.y;
        if (n > 2) q[2] = r.z;
        if (n > 3) q[3] = r.w;
    }
}

// ---------------------------------------------------------------------------------------------
// Channel order: memory channels to (r, g, b, a) and back. 8.3: a channel the order lacks
// reads as 0, alpha as 1 (1.0f for read_imagef, 1 for read_imagei/ui); CL_INTENSITY
// replicates its channel into all four, CL_LUMINANCE into r, g and b.

#define SWIZZLE(T, ONE)                                                                      \
    static T##4 __ferrocl_swizzle_##T(uint order, T##4 c) {                                  \
        switch (order) {                                                                     \
        case ORDER_R: return (T##4)(c.x, 0, 0, ONE);                                         \
        case ORDER_A: return (T##4)(0, 0, 0, c.x);                                           \
        case ORDER_RG: return (T##4)(c.x, c.y, 0, ONE);                                      \
        case ORDER_RA: return (T##4)(c.x, 0, 0, c.y);                                        \
        case ORDER_BGRA: return c.zyxw;                                                      \
        case ORDER_ARGB: return c.yzwx;                                                      \
        case ORDER_INTENSITY: return c.xxxx;                                                 \
        case ORDER_LUMINANCE: return (T##4)(c.x, c.x, c.x, ONE);                             \
        default: return c;                                                                   \
        }                                                                                    \
    }                                                                                        \
    static T##4 __ferrocl_unswizzle_##T(uint order, T##4 c) {                                \
        switch (order) {                                                                     \
        case ORDER_A: return c.wwww;                                                         \
        case ORDER_RA: return c.xwzw;                                                        \
        case ORDER_BGRA: return c.zyxw;                                                      \
        case ORDER_ARGB: return c.wxyz;                                                      \
        default: return c;                                                                   \
        }                                                                                    \
    }
SWIZZLE(float, 1.0f)
SWIZZLE(int, 1)
SWIZZLE(uint, 1u)

// ---------------------------------------------------------------------------------------------
// Conversions (8.3).

// IEEE binary16 bits to float: exact.
static float __ferrocl_from_half(uint h) {
    uint sign = (h & 0x8000u) << 16;
    uint e = (h >> 10) & 0x1fu;
    uint m = h & 0x3ffu;
    if (e == 0)
        return as_float(sign | as_uint((float)m * 0x1p-24f));
    if (e == 31)
        return as_float(sign | 0x7f800000u | (m << 13));
    return as_float(sign | ((e + 112u) << 23) | (m << 13));
}

// float to binary16 bits, rounded to nearest even (8.3.2: "round to nearest even").
static uint __ferrocl_to_half(float f) {
    uint b = as_uint(f);
    uint sign = (b >> 16) & 0x8000u;
    float a = fabs(f);
    if (isnan(f))
        return sign | 0x7e00u;
    if (a >= 65520.0f)
        return sign | 0x7c00u;
    if (a < 0x1p-14f)
        return sign | (uint)rint(a * 0x1p24f);
    uint h = ((((b >> 23) & 0xffu) - 112u) << 10) | ((b & 0x7fffffu) >> 13);
    uint rest = b & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u) != 0))
        h += 1u;
    return sign | h;
}

static float4 __ferrocl_channels_f(uint type, uint4 r) {
    switch (type) {
    // 8.3.1.1: "CL_UNORM_INT8 ... normalized to [0.0f, 1.0f] ... c / 255.0f".
    // (The channels of the unsigned formats are below 2^16: converted as signed integers,
    // which is the same value and cheaper where no unsigned conversion exists.)
    case CLK_UNORM_INT8: return convert_float4(as_int4(r)) / 255.0f;
    case CLK_UNORM_INT16: return convert_float4(as_int4(r)) / 65535.0f;
    // "CL_SNORM_INT8 ... max(-1.0f, c / 127.0f)".
    case CLK_SNORM_INT8: return fmax(convert_float4(convert_char4(r)) / 127.0f, -1.0f);
    case CLK_SNORM_INT16: return fmax(convert_float4(convert_short4(r)) / 32767.0f, -1.0f);
    case CLK_HALF_FLOAT:
        return (float4)(__ferrocl_from_half(r.x), __ferrocl_from_half(r.y),
            __ferrocl_from_half(r.z), __ferrocl_from_half(r.w));
    case CLK_FLOAT: return as_float4(r);
    // read_imagef of an integer format is undefined; the value, converted.
    case CLK_SIGNED_INT8: return convert_float4(convert_char4(r));
    case CLK_SIGNED_INT16: return convert_float4(convert_short4(r));
    case CLK_SIGNED_INT32: return convert_float4(as_int4(r));
    default: return convert_float4(r);
    }
}

static uint __ferrocl_channel_from_f(uint type, float f) {
    switch (type) {
    // 8.3.1.2: "CL_UNORM_INT8 ... convert_uchar_sat_rte(f * 255.0f)", and alike.
    case CLK_UNORM_INT8: return convert_uchar_sat_rte(f * 255.0f);
    case CLK_UNORM_INT16: return convert_ushort_sat_rte(f * 65535.0f);
    case CLK_SNORM_INT8: return (uchar)convert_char_sat_rte(f * 127.0f);
    case CLK_SNORM_INT16: return (ushort)convert_short_sat_rte(f * 32767.0f);
    case CLK_HALF_FLOAT: return __ferrocl_to_half(f);
    case CLK_FLOAT: return as_uint(f);
    default: return (uint)convert_int_sat_rte(f);
    }
}

// 8.3.1.3 and 8.3.1.4: integer formats read and written as integers, saturated on writes
// ("convert_char_sat(i)", "convert_uchar_sat(u)" ...).
static int __ferrocl_channel_i(uint type, uint r) {
    switch (type) {
    case CLK_SIGNED_INT8: return (char)r;
    case CLK_SIGNED_INT16: return (short)r;
    default: return (int)r;
    }
}

static uint __ferrocl_channel_from_i(uint type, int i) {
    switch (type) {
    case CLK_SIGNED_INT8: return (uchar)convert_char_sat(i);
    case CLK_SIGNED_INT16: return (ushort)convert_short_sat(i);
    default: return (uint)i;
    }
}

static uint __ferrocl_channel_from_ui(uint type, uint u) {
    switch (type) {
    case CLK_UNSIGNED_INT8: return convert_uchar_sat(u);
    case CLK_UNSIGNED_INT16: return convert_ushort_sat(u);
    default: return u;
    }
}

static float4 __ferrocl_fetch_float(IMG im, int x, int y, int z) {
    uint4 r = __ferrocl_raw(im, x, y, z);
    float4 c = __ferrocl_channels_f(im->channel_data_type, r);
    return __ferrocl_swizzle_float(im->channel_order, c);
}

static int4 __ferrocl_fetch_int(IMG im, int x, int y, int z) {
    uint4 r = __ferrocl_raw(im, x, y, z);
    uint t = im->channel_data_type;
    int4 c = (int4)(__ferrocl_channel_i(t, r.x), __ferrocl_channel_i(t, r.y),
        __ferrocl_channel_i(t, r.z), __ferrocl_channel_i(t, r.w));
    return __ferrocl_swizzle_int(im->channel_order, c);
}

static uint4 __ferrocl_fetch_uint(IMG im, int x, int y, int z) {
    return __ferrocl_swizzle_uint(im->channel_order, __ferrocl_raw(im, x, y, z));
}

static void __ferrocl_write_float(IMG im, int x, int y, int z, float4 v) {
    float4 c = __ferrocl_unswizzle_float(im->channel_order, v);
    uint t = im->channel_data_type;
    uint4 r = (uint4)(__ferrocl_channel_from_f(t, c.x), __ferrocl_channel_from_f(t, c.y),
        __ferrocl_channel_from_f(t, c.z), __ferrocl_channel_from_f(t, c.w));
    __ferrocl_store_raw(im, x, y, z, r);
}

static void __ferrocl_write_int(IMG im, int x, int y, int z, int4 v) {
    int4 c = __ferrocl_unswizzle_int(im->channel_order, v);
    uint t = im->channel_data_type;
    uint4 r = (uint4)(__ferrocl_channel_from_i(t, c.x), __ferrocl_channel_from_i(t, c.y),
        __ferrocl_channel_from_i(t, c.z), __ferrocl_channel_from_i(t, c.w));
    __ferrocl_store_raw(im, x, y, z, r);
}

static void __ferrocl_write_uint(IMG im, int x, int y, int z, uint4 v) {
    uint4 c = __ferrocl_unswizzle_uint(im->channel_order, v);
    uint t = im->channel_data_type;
    uint4 r = (uint4)(__ferrocl_channel_from_ui(t, c.x), __ferrocl_channel_from_ui(t, c.y),
        __ferrocl_channel_from_ui(t, c.z), __ferrocl_channel_from_ui(t, c.w));
    __ferrocl_store_raw(im, x, y, z, r);
}

// ---------------------------------------------------------------------------------------------
// Addressing and filtering (8.2).

// The texel index of coordinate s along an axis of `size` texels, nearest filtering
// (8.2.1 for CLK_ADDRESS_{NONE,CLAMP_TO_EDGE,CLAMP}: "i = clamp(floor(u), ...)", 8.2.2 for
// the repeat modes). CLK_ADDRESS_NONE is taken as clamp-to-edge (out-of-range coordinates are
// undefined with it); CLK_ADDRESS_CLAMP leaves -1 and size, which read the border.
static int __ferrocl_nearest(float s, int size, uint smp) {
    uint mode = smp & SAMPLER_ADDRESS;
    float n = (float)size;
    if ((smp & SAMPLER_NORMALIZED) != 0) {
        if (mode == ADDRESS_REPEAT) {
            // "u = (s - floor(s)) * w_t; i = (int)floor(u); if (i > w_t - 1) i = i - w_t".
            int i = (int)fmin(floor((s - floor(s)) * n), n);
            return i > size - 1 ? i - size : i;
        }
        if (mode == ADDRESS_MIRRORED_REPEAT) {
            // "s' = 2.0f * rint(0.5f * s); s' = fabs(s - s'); u = s' * w_t; i = (int)floor(u);
            // i = min(i, w_t - 1)".
            float m = fabs(s - 2.0f * rint(0.5f * s));
            return min((int)fmin(floor(m * n), n), size - 1);
        }
        s = s * n;
    }
    // Kept within [-1, size] so the conversion is defined (NaN goes to -1).
    int i = (int)fmin(fmax(floor(s), -1.0f), n);
    if (mode == ADDRESS_CLAMP_TO_EDGE || mode == ADDRESS_NONE)
        i = clamp(i, 0, size - 1);
    return i;
}

// The two texel indices of coordinate s for linear filtering, and the weight of the second
// (8.2.1: "i0 = address_mode((int)floor(u - 0.5)); i1 = address_mode((int)floor(u - 0.5) +
// 1); a = frac(u - 0.5)"; 8.2.2 for the repeat modes).
static int2 __ferrocl_linear(float s, int size, uint smp, float *weight) {
    uint mode = smp & SAMPLER_ADDRESS;
    bool normalized = (smp & SAMPLER_NORMALIZED) != 0;
    float n = (float)size;
    float u = s;
    if (normalized && mode == ADDRESS_REPEAT)
        u = (s - floor(s)) * n;
    else if (normalized && mode == ADDRESS_MIRRORED_REPEAT)
        u = fabs(s - 2.0f * rint(0.5f * s)) * n;
    else if (normalized)
        u = s * n;
    float f = floor(u - 0.5f);
    float a = (u - 0.5f) - f;
    *weight = isfinite(a) ? a : 0.0f;
    int i0 = (int)fmin(fmax(f, -2.0f), n + 1.0f);
    int i1 = i0 + 1;
    if (normalized && mode == ADDRESS_REPEAT) {
        if (i0 < 0) i0 += size;
        if (i1 > size - 1) i1 -= size;
    } else if (normalized && mode == ADDRESS_MIRRORED_REPEAT) {
        i0 = max(i0, 0);
        i1 = min(i1, size - 1);
    } else if (mode == ADDRESS_CLAMP_TO_EDGE || mode == ADDRESS_NONE) {
        i0 = clamp(i0, 0, size - 1);
        i1 = clamp(i1, 0, size - 1);
    }
    return (int2)(i0, i1);
}

// The layer of an array coordinate: "clamp(rint(coord), 0, image_array_size - 1)".
static int __ferrocl_layer(IMG im, float l) {
    return (int)fmin(fmax(rint(l), 0.0f), (float)((int)im->array_size - 1));
}

static int __ferrocl_layer_i(IMG im, int l) {
    return clamp(l, 0, (int)im->array_size - 1);
}

// A sampled read of `dims` spatial coordinates (c.x, c.y, c.z), `layer` the layer of an
// array (0 otherwise).
static float4 __ferrocl_sample_float(IMG im, uint smp, float4 c, int dims, int layer) {
    int w = (int)im->width, h = (int)im->height, d = (int)im->depth;
    if ((smp & SAMPLER_FILTER) != FILTER_LINEAR) {
        int x = __ferrocl_nearest(c.x, w, smp);
        int y = dims > 1 ? __ferrocl_nearest(c.y, h, smp) : 0;
        int z = dims > 2 ? __ferrocl_nearest(c.z, d, smp) : layer;
        return __ferrocl_fetch_float(im, x, y, z);
    }
    float a, b = 0.0f, g = 0.0f;
    int2 X = __ferrocl_linear(c.x, w, smp, &a);
    int2 Y = (int2)(0), Z = (int2)(layer);
    if (dims > 1)
        Y = __ferrocl_linear(c.y, h, smp, &b);
    if (dims > 2)
        Z = __ferrocl_linear(c.z, d, smp, &g);
    // 8.2.1: "T = (1 - a) * T_i0 + a * T_i1" along each axis, for 1D, 2D and 3D alike.
    float4 r = (1.0f - a) * (1.0f - b) * (1.0f - g) * __ferrocl_fetch_float(im, X.x, Y.x, Z.x)
        + a * (1.0f - b) * (1.0f - g) * __ferrocl_fetch_float(im, X.y, Y.x, Z.x);
    if (dims > 1)
        r += (1.0f - a) * b * (1.0f - g) * __ferrocl_fetch_float(im, X.x, Y.y, Z.x)
            + a * b * (1.0f - g) * __ferrocl_fetch_float(im, X.y, Y.y, Z.x);
    if (dims > 2)
        r += (1.0f - a) * (1.0f - b) * g * __ferrocl_fetch_float(im, X.x, Y.x, Z.y)
            + a * (1.0f - b) * g * __ferrocl_fetch_float(im, X.y, Y.x, Z.y)
            + (1.0f - a) * b * g * __ferrocl_fetch_float(im, X.x, Y.y, Z.y)
            + a * b * g * __ferrocl_fetch_float(im, X.y, Y.y, Z.y);
    return r;
}

// read_imagei and read_imageui: "The filter_mode specified in sampler must be set to
// CLK_FILTER_NEAREST; otherwise the values returned are undefined" (6.15.15.2): nearest.
#define SAMPLE_INT(T)                                                                        \
    static T##4 __ferrocl_sample_##T(IMG im, uint smp, float4 c, int dims, int layer) {      \
        int x = __ferrocl_nearest(c.x, (int)im->width, smp);                                 \
        int y = dims > 1 ? __ferrocl_nearest(c.y, (int)im->height, smp) : 0;                 \
        int z = dims > 2 ? __ferrocl_nearest(c.z, (int)im->depth, smp) : layer;              \
        return __ferrocl_fetch_##T(im, x, y, z);                                             \
    }
SAMPLE_INT(int)
SAMPLE_INT(uint)

// ---------------------------------------------------------------------------------------------
// The builtins, named as lowering calls them (`read_imagef.image2d_t.sampler_t.float2` is
// `__cl_read_imagef_image2d_t_sampler_t_float2`). For each image type: the float coordinate
// as (x, y, z), the layer from a float and an int coordinate, and the texel of an int one.

#define XYZ_1(c) (float4)((c), 0.0f, 0.0f, 0.0f)
#define XYZ_1A(c) (float4)((c).x, 0.0f, 0.0f, 0.0f)
#define XYZ_2(c) (float4)((c), 0.0f, 0.0f)
#define XYZ_2A(c) (float4)((c).xy, 0.0f, 0.0f)
#define XYZ_3(c) (c)
#define LAYER_NONE(im, c) 0
#define LAYER_1A(im, c) __ferrocl_layer(im, (c).y)
#define LAYER_1A_I(im, c) __ferrocl_layer_i(im, (c).y)
#define LAYER_2A(im, c) __ferrocl_layer(im, (c).z)
#define LAYER_2A_I(im, c) __ferrocl_layer_i(im, (c).z)
#define TEXEL_1(im, c) (c), 0, 0
#define TEXEL_1A(im, c) (c).x, 0, LAYER_1A_I(im, c)
#define TEXEL_2(im, c) (c).x, (c).y, 0
#define TEXEL_2A(im, c) (c).x, (c).y, LAYER_2A_I(im, c)
#define TEXEL_3(im, c) (c).x, (c).y, (c).z

// Reads of type T (float, int, uint: read_imagef, _i, _ui) from image type D with float
// coordinates F and int coordinates I.
#define READS(S, T, D, F, I, XYZ, DIMS, LAYER, LAYER_I, TEXEL)                              \
    T##4 __cl_read_image##S##_##D##_sampler_t_##F(IMG im, uint smp, F c) {                   \
        return __ferrocl_sample_##T(im, smp, XYZ(c), DIMS, LAYER(im, c));                    \
    }                                                                                        \
    T##4 __cl_read_image##S##_##D##_sampler_t_##I(IMG im, uint smp, I c) {                   \
        return __ferrocl_sample_##T(im, smp & ~SAMPLER_NORMALIZED, XYZ(convert_##F(c)), DIMS, \
            LAYER_I(im, c));                                                                 \
    }                                                                                        \
    T##4 __cl_read_image##S##_##D##_##I(IMG im, I c) {                                       \
        return __ferrocl_fetch_##T(im, TEXEL(im, c));                                        \
    }

#define WRITES(S, T, D, I, TEXEL)                                                            \
    void __cl_write_image##S##_##D##_##I##_##T##4(IMG im, I c, T##4 v) {                     \
        __ferrocl_write_##T(im, TEXEL(im, c), v);                                            \
    }

#define IMAGE_TYPE(D, F, I, XYZ, DIMS, LAYER, LAYER_I, TEXEL)                                \
    READS(f, float, D, F, I, XYZ, DIMS, LAYER, LAYER_I, TEXEL)                               \
    READS(i, int, D, F, I, XYZ, DIMS, LAYER, LAYER_I, TEXEL)                                 \
    READS(ui, uint, D, F, I, XYZ, DIMS, LAYER, LAYER_I, TEXEL)                               \
    WRITES(f, float, D, I, TEXEL)                                                            \
    WRITES(i, int, D, I, TEXEL)                                                              \
    WRITES(ui, uint, D, I, TEXEL)                                                            \
    int __cl_get_image_width_##D(IMG im) { return (int)im->width; }                          \
    int __cl_get_image_channel_data_type_##D(IMG im) { return (int)im->channel_data_type; }  \
    int __cl_get_image_channel_order_##D(IMG im) { return (int)im->channel_order; }

IMAGE_TYPE(image1d_t, float, int, XYZ_1, 1, LAYER_NONE, LAYER_NONE, TEXEL_1)
IMAGE_TYPE(image1d_array_t, float2, int2, XYZ_1A, 1, LAYER_1A, LAYER_1A_I, TEXEL_1A)
IMAGE_TYPE(image2d_t, float2, int2, XYZ_2, 2, LAYER_NONE, LAYER_NONE, TEXEL_2)
IMAGE_TYPE(image2d_array_t, float4, int4, XYZ_2A, 2, LAYER_2A, LAYER_2A_I, TEXEL_2A)
IMAGE_TYPE(image3d_t, float4, int4, XYZ_3, 3, LAYER_NONE, LAYER_NONE, TEXEL_3)

// 1D buffer images: samplerless reads and writes only.
#define BUFFER_READ(S, T)                                                                    \
    T##4 __cl_read_image##S##_image1d_buffer_t_int(IMG im, int c) {                          \
        return __ferrocl_fetch_##T(im, c, 0, 0);                                             \
    }
BUFFER_READ(f, float)
BUFFER_READ(i, int)
BUFFER_READ(ui, uint)
WRITES(f, float, image1d_buffer_t, int, TEXEL_1)
WRITES(i, int, image1d_buffer_t, int, TEXEL_1)
WRITES(ui, uint, image1d_buffer_t, int, TEXEL_1)
int __cl_get_image_width_image1d_buffer_t(IMG im) { return (int)im->width; }
int __cl_get_image_channel_data_type_image1d_buffer_t(IMG im) {
    return (int)im->channel_data_type;
}
int __cl_get_image_channel_order_image1d_buffer_t(IMG im) { return (int)im->channel_order; }

// The other queries (6.15.15.5).
int __cl_get_image_height_image2d_t(IMG im) { return (int)im->height; }
int __cl_get_image_height_image2d_array_t(IMG im) { return (int)im->height; }
int __cl_get_image_height_image3d_t(IMG im) { return (int)im->height; }
int __cl_get_image_depth_image3d_t(IMG im) { return (int)im->depth; }
int2 __cl_get_image_dim_image2d_t(IMG im) { return (int2)((int)im->width, (int)im->height); }
int2 __cl_get_image_dim_image2d_array_t(IMG im) {
    return (int2)((int)im->width, (int)im->height);
}
int4 __cl_get_image_dim_image3d_t(IMG im) {
    return (int4)((int)im->width, (int)im->height, (int)im->depth, 0);
}
size_t __cl_get_image_array_size_image1d_array_t(IMG im) { return im->array_size; }
size_t __cl_get_image_array_size_image2d_array_t(IMG im) { return im->array_size; }
