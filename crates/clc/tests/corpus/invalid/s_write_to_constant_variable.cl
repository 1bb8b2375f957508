// expect-error: 12
// expect-error: 13
// rule: 6.7.3 it is illegal to write to a variable in the constant address space

// Assigning to and incrementing a program-scope __constant variable.

__constant int a = 3;

__kernel void k(__global int *buf)
{
    buf[a] = 1;
    a = 42;
    a++;
}
