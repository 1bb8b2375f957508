// A __constant coefficient table indexed by constants and a private array indexed by
// constant expressions (OpenCV's pyramid kernels' pattern): the table's loads become
// constants and the array registers, and the results stay those of memory.
// run: --kernel taps --global 4 --arg 'uchar[24]=iota' --arg 'uchar[16]'
// expect dst: 4 6 8 10 12 14 16 18 20 22 24 26 28 30 32 34
// run: --kernel taps --global 2 --arg 'uchar[24]=250' --arg 'uchar[8]'
// expect dst: 255 255 255 255 255 255 255 255
__constant float kc[] = {0.125f, 0.5f, 0.75f, 0.5f, 0.125f};
#define OP(i) (convert_float4(arr[(i) * 1 + 0]) * kc[i])
kernel void taps(global const uchar *src, global uchar *dst) {
    int g = get_global_id(0);
    uchar4 arr[5];
    uchar4 unused;
    for (int i = 0; i < 5; i++)
        arr[i] = vload4(0, src + 4 * g + i);
    float4 sum[2];
    sum[1] = (float4)(0.0f);
    sum[0] = OP(0) + OP(1) + OP(2) + OP(3) + OP(4) + sum[1];
    vstore4(convert_uchar4_sat_rte(sum[0]), g, dst);
}
