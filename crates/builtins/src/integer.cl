// 6.15.3.1 extended bit operations (cl_khr_extended_bit_ops) and the integer dot products of
// __opencl_c_integer_dot_product_input_4x8bit[_packed]. Every width works in 64 bits: a value
// of T is first taken as its unsigned bits (UT), then widened to ulong.

// The `count` low bits set (count 0 to 64).
ulong __cl_low_mask(uint count) {
    return count == 0u ? 0UL : (~0UL >> (64u - count));
}

// Bit reversal of all 64 bits: swap ever larger halves.
ulong __cl_reverse64(ulong x) {
    x = ((x >> 1) & 0x5555555555555555UL) | ((x & 0x5555555555555555UL) << 1);
    x = ((x >> 2) & 0x3333333333333333UL) | ((x & 0x3333333333333333UL) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fUL) | ((x & 0x0f0f0f0f0f0f0f0fUL) << 4);
    x = ((x >> 8) & 0x00ff00ff00ff00ffUL) | ((x & 0x00ff00ff00ff00ffUL) << 8);
    x = ((x >> 16) & 0x0000ffff0000ffffUL) | ((x & 0x0000ffff0000ffffUL) << 16);
    return (x >> 32) | (x << 32);
}

// T: the type; UT, ST: its unsigned and signed forms; BITS: its width.
#define __CL_BITOPS(T, UT, ST, BITS)                                                            \
    T __cl_bitfield_insert_##T##_##T##_uint_uint(T base, T insert, uint offset, uint count) {    \
        ulong mask = __cl_low_mask(count) << offset;                                            \
        ulong b = (ulong)(UT)base, i = (ulong)(UT)insert;                                       \
        return (T)(UT)((b & ~mask) | ((i << offset) & mask));                                   \
    }                                                                                           \
    ST __cl_bitfield_extract_signed_##T##_uint_uint(T base, uint offset, uint count) {           \
        ulong field = ((ulong)(UT)base >> offset) & __cl_low_mask(count);                       \
        /* Sign-extend from bit count - 1: move it to bit 63, shift back arithmetically. */      \
        uint up = 64u - count;                                                                  \
        long wide = count == 0u ? 0L : ((long)(field << up) >> up);                             \
        return (ST)wide;                                                                        \
    }                                                                                           \
    UT __cl_bitfield_extract_unsigned_##T##_uint_uint(T base, uint offset, uint count) {         \
        return (UT)(((ulong)(UT)base >> offset) & __cl_low_mask(count));                        \
    }                                                                                           \
    T __cl_bit_reverse_##T(T base) {                                                             \
        return (T)(UT)(__cl_reverse64((ulong)(UT)base) >> (64 - BITS));                         \
    }

__CL_BITOPS(char, uchar, char, 8)
__CL_BITOPS(uchar, uchar, char, 8)
__CL_BITOPS(short, ushort, short, 16)
__CL_BITOPS(ushort, ushort, short, 16)
__CL_BITOPS(int, uint, int, 32)
__CL_BITOPS(uint, uint, int, 32)
__CL_BITOPS(long, ulong, long, 64)
__CL_BITOPS(ulong, ulong, long, 64)

// Integer dot products: every product and sum is exact in int (|product| <= 2^14 for signed
// inputs, 4 * 255 * 255 < 2^18 for unsigned ones), and acc is added with saturation
// (dot_acc_sat: "product = dot(a,b); result = add_sat(product, acc)").
#define __CL_DOT(R, A, B, NAME)                                                                 \
    R __cl_dot_##NAME(A a, B b) {                                                               \
        return (R)((int)a.x * (int)b.x + (int)a.y * (int)b.y + (int)a.z * (int)b.z +           \
                   (int)a.w * (int)b.w);                                                        \
    }                                                                                           \
    R __cl_dot_acc_sat_##NAME##_##R(A a, B b, R acc) {                                          \
        return add_sat(__cl_dot_##NAME(a, b), acc);                                             \
    }

__CL_DOT(uint, uchar4, uchar4, uchar4_uchar4)
__CL_DOT(int, char4, char4, char4_char4)
__CL_DOT(int, uchar4, char4, uchar4_char4)
__CL_DOT(int, char4, uchar4, char4_uchar4)

// The packed forms: four 8-bit elements in a 32-bit word; the product is the same whichever
// element order the packing uses, as long as both operands use one.
#define __CL_DOT_PACKED(R, SIG, A, B)                                                           \
    R __cl_dot_4x8packed_##SIG##_##R##_uint_uint(uint a, uint b) {                              \
        return __cl_dot_##A##_##B(as_##A(a), as_##B(b));                                       \
    }                                                                                           \
    R __cl_dot_acc_sat_4x8packed_##SIG##_##R##_uint_uint_##R(uint a, uint b, R acc) {           \
        return add_sat(__cl_dot_##A##_##B(as_##A(a), as_##B(b)), acc);                          \
    }

__CL_DOT_PACKED(uint, uu, uchar4, uchar4)
__CL_DOT_PACKED(int, ss, char4, char4)
__CL_DOT_PACKED(int, us, uchar4, char4)
__CL_DOT_PACKED(int, su, char4, uchar4)
