// OpenCL C 3.0 6.7.8, table 8: "Pointers in which the address space they point to is not
// given explicitly" point to the generic address space (OpenCL C 2.0), and "static or extern
// local variables" are in the global address space. Generic parameters and results pass
// private, local and global pointers (a pointer to a generic pointer included); a static
// counter keeps its value between calls; overloadable functions are chosen by the address
// space of the argument; builtins with pointer parameters (fract, sincos) take generic ones.
// requires: __opencl_c_generic_address_space
// local-sizes: fixed: one work-item, whose static counter counts its own calls
// run: --kernel k --global 1 --options -cl-std=CL2.0 --arg 'int[4]'
// expect out: 2 2 20 123
// run: --kernel m --global 1 --options -cl-std=CL2.0 --arg 'float[3]'
// expect out: 2.75 3.5 1
int *pick(int *a, int *b, int c) { return c ? a : b; }
int deref2(int **pp) { return **pp; }
int count(void) { static int n = 0; return ++n; }
int sum(int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
int __attribute__((overloadable)) f(global int *p) { return 1; }
int __attribute__((overloadable)) f(local int *p) { return 2; }
int __attribute__((overloadable)) f(private int *p) { return 3; }
kernel void k(global int *out) {
    local int l[4];
    int pr[4] = {1, 2, 3, 4};
    l[get_local_id(0)] = 10;
    barrier(CLK_LOCAL_MEM_FENCE);
    int *p = pick(pr, out, 1);
    int *q = pr;
    int **pq = &q;
    out[0] = *p + deref2(pq);
    count();
    out[1] = count();
    out[2] = sum(l, 1) + sum(pr, 4);
    out[3] = f(out) * 100 + f(l) * 10 + f(pr);
}
kernel void m(global float *out) {
    local float lf[1];
    float pf;
    out[0] = fract(2.75f, &pf) + pf;
    out[1] = fract(3.5f, lf) + lf[0];
    float *g = &pf;
    out[2] = sincos(0.0f, g) + *g;
}
