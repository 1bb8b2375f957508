// Divergent loops and branches whose tests compare 32-bit and 64-bit values: per-lane trip
// counts, so the vectorized code tests whether all, some or none of a chunk's lanes are
// active; groups of 11 (two chunks of 4 and three work-items alone when vectorized).
// local-sizes: fixed: a trip count starts at the local id
// run: --kernel masks --global 22 --local 11 --arg 'int[22]'
// expect out: 19 16 22 20 27 26 105 21 27 9 18 90 93 123 45 57 45 19 16 22 20 -1
kernel void masks(global int *out) {
    size_t g = get_global_id(0);
    int l = get_local_id(0);
    int acc = 0;
    for (size_t k = 0; k < g % 7; ++k)
        acc += (int)k + 1;
    for (int k = l; k < 9; k += 2)
        acc += k;
    if (g > 5 && g < 17)
        acc *= 3;
    else
        acc -= 1;
    out[g] = acc;
}
