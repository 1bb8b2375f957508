// expect-error: 9
// rule: C99 6.7.8 an initializer list shall not have more elements than the array
// note: PoCL accepts this file (with a warning); C99 6.7.8p2: "No initializer shall attempt to provide a value for an object not contained within the entity being initialized."

// Five initializers for a four-element array.

__kernel void k(__global int *out)
{
    int a[4] = { 1, 2, 3, 4, 5 };
    out[0] = a[0];
}
