// OpenCL C 6.3.7: ".lo (or .even) and .hi (or .odd) for a 3-component vector type operate as
// if the 3-component vector type is a 4-component vector type with the value in the w
// component undefined": read and written, only the defined lanes are checked.
// o[0..6]: lo, hi.x, even, odd.x; then w after `.odd =`, `.hi =`, `.even =`; then an
// expression of two halves.
// run: --kernel k --global 1 --arg 'int[16]'
// expect o: 1 2 3 1 3 2 1 7 3 1 7 9 11 7 12 32
kernel void k(global int *o) {
    int3 v = (int3)(1, 2, 3);
    int2 lo = v.lo, hi = v.hi, ev = v.even, od = v.odd;
    o[0] = lo.x; o[1] = lo.y; o[2] = hi.x; o[3] = ev.x; o[4] = ev.y; o[5] = od.x;
    int3 w = v;
    w.odd = (int2)(7, 8);
    o[6] = w.x; o[7] = w.y; o[8] = w.z;
    w.hi = (int2)(9, 10);
    o[9] = w.x; o[10] = w.y; o[11] = w.z;
    w.even = (int2)(11, 12);
    o[12] = w.x; o[13] = w.y; o[14] = w.z;
    o[15] = v.odd.x + v.hi.x * 10;
}
