// Multiplication of 8-bit vectors wraps modulo 2^8 (6.4: no integer promotion for vector
// operands, so a uchar16 product is computed in its own lanes), checked against the product
// of the lanes widened to int and reduced to their low byte, for signed and unsigned lanes
// and every pair of byte values (the CPU device multiplies bytes through 16-bit lanes).
// run: --kernel products --global 4096 --local 64 --arg 'int[2]=0'
// expect bad: 0 0
kernel void products(global int *bad) {
    int i = (int)get_global_id(0);
    uchar16 x = (uchar16)(i & 0xff) + (uchar16)(0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240);
    uchar16 y = (uchar16)(i >> 4) + (uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    uchar16 q = x * y;
    int16 r = (convert_int16(x) * convert_int16(y)) & 0xff;
    if (any(convert_int16(q) != r))
        atomic_inc(&bad[0]);
    char16 sx = as_char16(x), sy = as_char16(y);
    char16 sq = sx * sy;
    int16 sr = convert_int16(convert_char16((convert_int16(sx) * convert_int16(sy)) & 0xff));
    if (any(convert_int16(sq) != sr))
        atomic_inc(&bad[1]);
}
