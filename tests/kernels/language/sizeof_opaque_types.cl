// OpenCL C 6.5.11: the size of event_t (and of the other opaque types) is
// implementation-defined: a value above zero, usable like any other size (an array of three
// is three times as large).
// run: --kernel k --global 1 --arg 'int[2]'
// expect o: 1 1
kernel void k(global int *o) {
    event_t evs[3];
    o[0] = sizeof(event_t) > 0;
    o[1] = sizeof(evs) == 3 * sizeof(event_t);
}
