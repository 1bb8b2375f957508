// expect-error: 8
// rule: C99 6.5.1 an identifier must be declared before use (CRLF line endings)

// The same mistake as c_undeclared_identifier.cl in a file with CRLF line
// endings: the reported line must count CRLF as one line break.
__kernel void k(__global int *out)
{
    out[0] = missing_name;
}
