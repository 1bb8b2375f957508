// Multiplication by constants in vectorized code (the CPU device turns those with one or two
// bits set into shifts): int, long and short lanes, with products that wrap; groups of 5 (one
// chunk of 4 and a work-item alone when vectorized).
// run: --kernel mul --global 10 --local 5 --arg 'int[120]'
// expect out: 0 0 0 -2147483648 0 -2147483648 -147564 0 -2050 -2147483648 0 0 -4 -18 -2147483648 2147483647 0 2147483643 147563 -295128 -2147481599 2147479549 -3 -32768 -239350504 1070406380 0 1013904198 0 774553694 69670 1146635024 967 -1535034926 -9774 0 1788457808 1605609192 0 -626627372 0 1161830436 -43059 1713754848 -599 -155154820 18044 0 -478701232 2140811752 0 2027808340 0 1549107108 139340 -2018224416 1935 1224667900 -19716 0 1549106968 -1618953236 0 387276742 0 1936383710 26611 -1459368176 369 -1690534062 8018 0 -718052184 -1083751180 0 -1253254870 0 -1971307054 -86118 -904643728 -1197 -310826114 -29826 0 1309755904 -548549376 0 1401180800 0 -1584030592 96281 -354051072 1337 1068824448 -2176 0 -957403360 -13347824 0 -239350840 0 -1196754200 -16447 192409792 -229 -1846549672 25432 0 1070404616 521853476 0 -1879882494 0 -809477878 -129176 734738864 -1795 -467013882 -12538 0
kernel void mul(global int *out) {
    int i = get_global_id(0);
    int n = (int)((uint)i * 2654435761u - (uint)(7 * i * i));
    if (i == 0) n = INT_MIN;
    if (i == 1) n = INT_MAX;
    long l = (long)n * 4099;
    short h = (short)n;
    global int *o = out + 12 * i;
    o[0] = n * 4;
    o[1] = (int)((uint)n * 18u);
    o[2] = (int)((uint)n * 0x80000000u);
    o[3] = n * 1;
    o[4] = n * 0;
    o[5] = (int)((uint)n * 5u);
    ulong a = (ulong)l * 72;
    o[6] = (int)(a >> 32);
    o[7] = (int)(uint)a;
    ulong b = (ulong)l * 0x8000000000000001ul;
    o[8] = (int)(b >> 32);
    o[9] = (int)(uint)b;
    o[10] = (short)((ushort)h * (ushort)3);
    o[11] = (short)((ushort)h * (ushort)0x8000);
}
