// OpenCL C 3.0 6.7.9: "A pointer that points to the constant address space cannot be cast or
// implicitly converted to the generic address space."
// requires: __opencl_c_generic_address_space
// run: --kernel k --global 1 --options -cl-std=CL2.0 --arg 'int[1]'
// expect build error
int first(const int *p) {
    return p[0];
}

constant int table[2] = {1, 2};

kernel void k(global int *out) {
    out[0] = first(table);
}
