// expect-error: 11
// rule: C99 6.8.4.2 no two case constants in one switch shall have the same value

// Two case labels with the value 2 (one written as an expression).

__kernel void k(__global int *out)
{
    switch (out[0]) {
    case 1: out[1] = 10; break;
    case 2: out[1] = 20; break;
    case 1 + 1: out[1] = 30; break;
    }
}
