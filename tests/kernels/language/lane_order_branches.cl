// Branches on a consecutive id ordered against a uniform value (bounds checks such as
// `if (i < n)`), which chunks test on their first and last lanes: `<`, `<=`, `>`, `>=`, ids
// counting down, with `||`, `&&`, `!` and uniform conditions, bounds that fall inside a
// chunk of 8, between chunks and in a group's scalar tail (groups of 24: three chunks).
// Each branch stores, so that it stays a branch.
// local-sizes: fixed: branches test the local and the group id
// run: --kernel bounds --global 48 --local 24 --arg 'int[384]' --arg int:13 --arg int:30
// expect out: 1 2 3 4 5 6 7 8 9 10 11 12 13 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 36 37 38 39 40 41 42 43 44 45 46 47 48 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 2 3 4 5 6 7 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 0 0 0 0 0 0 0 0 0 0 0 0 0 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
kernel void bounds(global int *out, int n, int m) {
    int x = get_global_id(0);
    int lid = get_local_id(0);
    int r = get_global_size(0) - 1 - x;
    int k = get_global_size(0);
    if (x < n)
        out[x] = x + 1;
    if (x <= n)
        out[k + x] = x + 1;
    if (x > n)
        out[2 * k + x] = x + 1;
    if (x >= m)
        out[3 * k + x] = x + 1;
    if (r < n)
        out[4 * k + x] = x + 1;
    if (n >= r && get_group_id(0) == 0)
        out[5 * k + x] = x + 1;
    if (lid < 7 || x >= m)
        out[6 * k + x] = x + 1;
    if (x < m && !(x < n))
        out[7 * k + x] = x + 1;
}
