// Branches on consecutive ids compared with uniform values (`x < lo`, `x == hi`...) whose
// lanes disagree only in the chunks where a border falls: there each lane takes its side in
// turn, as scalar code. The sides load, store and update memory atomically, use the local
// id, and compute values that meet after the branch (an int, a pointer, and the boolean of
// a `||`, which is a branch of its own). Groups of 24: three chunks of 8 (six of 4), the
// borders at 5 and 13 inside the first two; the second group lies wholly past `hi`.
// local-sizes: fixed: values are computed from the local id
// run: --kernel sides --global 48 --local 24 --arg 'int[49]=iota' --arg 'int[48]' --arg 'int[48]' --arg 'int[1]' --arg int:5 --arg int:13
// expect out: 1 104 209 307 413 -10 -12 -14 -16 -18 -20 -22 -24 1340 1457 1531 1649 1769 1837 1958 2081 2143 2267 2393 49 176 305 355 485 617 661 794 929 967 1103 1241 1273 1412 1553 1579 1721 1865 1885 2030 2177 2191 2339 2489
// expect aux: 1 1 1 1 1 12 2 2 2 2 2 2 2 11 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
// expect count: 40
kernel void sides(global const int *in, global int *out, global int *aux, global int *count,
                  int lo, int hi) {
    int x = get_global_id(0);
    int lx = get_local_id(0);
    int v;
    global int *p;
    if ((x < lo) | (x >= hi)) {
        v = (x % 3 + 1) * x + lx * 100 + in[x + 1];
        p = aux;
        atomic_inc(count);
    } else {
        v = -x - in[x];
        p = out;
    }
    out[x] = v;
    aux[x] = p == aux ? 1 : 2;
    if (x == lo || x == hi)
        aux[x] += 10;
}
