// Branches on a consecutive id compared for equality with a uniform value, alone and with
// `||`, `&&`, `!` and uniform conditions (chunks test them without the lanes' vector): ids
// counting up and down, a comparison in 8 bits that wraps inside a chunk, and chunks where
// no lane, one lane and (by the uniform side) every lane takes the branch. Groups of 20: two
// full chunks of 8 and a tail. Each branch stores, so that it stays a branch.
// local-sizes: fixed: a branch tests the group id
// run: --kernel borders --global 40 --local 20 --arg 'int[280]' --arg int:40 --arg int:5
// expect out: 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 40 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 35 0 0 0 0 0 1 2 3 4 5 0 7 8 9 10 11 12 13 14 15 16 17 18 19 20 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 2 3 0 5 6 7 0 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 0 0 0 0 0 6 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 8 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 2 3 4 5 6 0 8 9 10 11 12 13 14 0 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40
kernel void borders(global int *out, int w, int k) {
    int x = get_global_id(0);
    int r = w - 1 - x;
    int n = get_global_size(0);
    if (x == 0 || x == w - 1)
        out[x] = x + 1;
    if (r == k)
        out[n + x] = x + 1;
    if (x != k && get_group_id(0) != 1)
        out[2 * n + x] = x + 1;
    if (!(x == 3 || x == k + 2))
        out[3 * n + x] = x + 1;
    if (x == k && k > 2)
        out[4 * n + x] = x + 1;
    if ((uchar)(x + 250) == 1)
        out[5 * n + x] = x + 1;
    if (r != k + 20 && x != k + 1)
        out[6 * n + x] = x + 1;
}
