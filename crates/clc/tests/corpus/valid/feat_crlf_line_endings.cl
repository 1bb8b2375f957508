// CRLF line endings (C99 5.1.1.2, phase 1: end-of-line indicators become
// new-line characters); the file is byte-exact: .gitattributes marks it -text.

#define TWICE(x) \
    (2 * (x))

__kernel void crlf(__global int *out)
{
    int v = TWICE(get_global_id(0));
    out[get_global_id(0)] = v;
}
