// double arithmetic (cl_khr_fp64): IEEE-754 division and fma are correctly rounded.
// requires: cl_khr_fp64
// run: --kernel dbl --global 2 --arg 'double[4]'
// expect out: 0 0.3333333333333333 1 0.6666666666666666
kernel void dbl(global double *out) {
    int i = get_global_id(0);
    out[2 * i] = (double)i;
    out[2 * i + 1] = fma((double)(i + 1), 1.0 / 3.0, 0.0);
}
