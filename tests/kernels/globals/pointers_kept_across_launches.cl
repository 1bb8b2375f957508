// OpenCL C 3.0 6.7.8, table 8: program-scope variables in the global address space take
// "Optional constant initializers" -- for a pointer, the address of another program-scope
// variable (6.7.8's example: `global int *p = &g;`) -- and live as long as the program. Each
// launch reads through the pointer, then moves it one element on: three launches read the
// first three elements of the table, the pointer kept from one launch to the next. A pointer
// into __constant data initialized with an address is read the same way.
// requires: __opencl_c_program_scope_global_variables
// local-sizes: fixed: one work-item reads and moves the pointer
// run: --kernel walk --global 1 --options -cl-std=CL3.0 --arg 'int[3]' --repeat 3
// expect out: 30 20 2
// run: --kernel walk --global 1 --options -cl-std=CL2.0 --arg 'int[3]' --repeat 3
// expect out: 30 20 2
global int table[4] = {10, 20, 30, 40};
global int *cursor = &table[0];
constant int squares[3] = {0, 1, 4};
constant int *const last_square = &squares[2];

kernel void walk(global int *out) {
    out[0] = *cursor;
    out[1] = *(cursor - 1);
    out[2] = *last_square / 2;
    cursor++;
}
