// expect-error: 7
// rule: 6.11.r event_t cannot be used to declare a structure or union field

// A struct holding an event.

struct Copy {
    event_t ev;
    int size;
};

__kernel void k(__global float *out)
{
    out[0] = 0.0f;
}
