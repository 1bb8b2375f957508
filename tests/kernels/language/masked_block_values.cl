// A divergent block with several global accesses whose values are used after it: chunks where
// every lane takes it, where none does and where some do (groups of 16, so 8-wide and 4-wide
// chunks both see all three). The values a lane computes inside are the ones it leaves with.
// run: --kernel masked --global 32 --local 16 --arg 'int[33]=5,6,7,8,9,10,11,12,0,1,2,1,0,2,1,0,3,0,4,1,5,2,6,0,0,9,0,9,9,0,9,0,7' --arg 'int[34]=0,7,3,10,6,2,9,5,1,8,4,0,7,3,10,6,2,9,5,1,8,4,0,7,3,10,6,2,9,5,1,8,4,0' --arg 'int[96]'
// expect out: 15 44 29 25 43 28 24 29 0 0 0 0 0 0 0 0 17 0 30 0 10 0 9 0 0 16 0 26 12 0 13 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 -3 -16 -7 13 -11 -2 18 -19 0 0 0 0 0 0 0 0 -13 0 -18 0 10 0 -9 0 0 4 0 -4 6 0 -11 0
kernel void masked(global const int *a, global const int *b, global int *out) {
    int i = get_global_id(0);
    int x = 0, y = 0;
    if (a[i] > 2) {
        x = a[i + 1] + b[i];
        y = b[i + 2] * 3;
        out[i + 64] = x - y;
    }
    out[i] = x + y;
}
