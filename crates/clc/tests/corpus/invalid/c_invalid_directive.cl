// expect-error: 6
// rule: C99 6.10 a line starting with # must be a known preprocessing directive

// A misspelled directive.

#defin SIZE 16

__kernel void k(__global int *out)
{
    out[0] = 1;
}
