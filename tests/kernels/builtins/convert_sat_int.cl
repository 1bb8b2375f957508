// Saturating integer conversions (6.4.3.3: "when the conversion is saturated, the value
// is clamped to the nearest representable value"), from `int`, `short`, `uint` and `ushort`
// to narrower and other-signed types, each work-item converting its own value, so that the
// vectorized kernel converts whole vectors.
// run: --kernel sat --global 24 --arg 'int[24]=0,1,-1,127,128,-128,-129,255,256,32767,32768,-32768,-32769,65535,65536,2147483647,-2147483648,70000,-70000,200,-200,1000,-5,99999' --arg 'uchar[24]' --arg 'char[24]' --arg 'ushort[24]' --arg 'short[24]' --arg 'uint[24]' --arg 'uchar[24]' --arg 'char[24]' --arg 'int[24]' --arg 'char[24]'
// expect u8: 0 1 0 127 128 0 0 255 255 255 255 0 0 255 255 255 0 255 0 200 0 255 0 255
// expect s8: 0 1 -1 127 127 -128 -128 127 127 127 127 -128 -128 127 127 127 -128 127 -128 127 -128 127 -5 127
// expect u16: 0 1 0 127 128 0 0 255 256 32767 32768 0 0 65535 65535 65535 0 65535 0 200 0 1000 0 65535
// expect s16: 0 1 -1 127 128 -128 -129 255 256 32767 32767 -32768 -32768 32767 32767 32767 -32768 32767 -32768 200 -200 1000 -5 32767
// expect u32: 0 1 0 127 128 0 0 255 256 32767 32768 0 0 65535 65536 2147483647 0 70000 0 200 0 1000 0 99999
// expect short_u8: 0 1 0 127 128 0 0 255 255 255 0 0 255 0 0 0 0 255 0 200 0 255 0 0
// expect uint_s8: 0 1 127 127 127 127 127 127 127 127 127 127 127 127 127 127 127 127 127 127 127 127 127 127
// expect uint_s32: 0 1 2147483647 127 128 2147483647 2147483647 255 256 32767 32768 2147483647 2147483647 65535 65536 2147483647 2147483647 70000 2147483647 200 2147483647 1000 2147483647 99999
// expect ushort_s8: 0 1 127 127 127 127 127 127 127 127 127 127 127 127 0 127 0 127 127 127 127 127 127 127
kernel void sat(global const int *a, global uchar *u8, global char *s8, global ushort *u16,
                global short *s16, global uint *u32, global uchar *short_u8,
                global char *uint_s8, global int *uint_s32, global char *ushort_s8)
{
    size_t i = get_global_id(0);
    int x = a[i];
    u8[i] = convert_uchar_sat(x);
    s8[i] = convert_char_sat(x);
    u16[i] = convert_ushort_sat(x);
    s16[i] = convert_short_sat(x);
    u32[i] = convert_uint_sat(x);
    short h = (short)x;
    short_u8[i] = convert_uchar_sat(h);
    uint y = as_uint(x);
    uint_s8[i] = convert_char_sat(y);
    uint_s32[i] = convert_int_sat(y);
    ushort z = (ushort)x;
    ushort_s8[i] = convert_char_sat(z);
}
