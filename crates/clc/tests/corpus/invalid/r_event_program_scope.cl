// expect-error: 6
// rule: 6.11.r event_t cannot be used to declare a program scope variable

// An event_t variable at program scope.

__constant event_t pending = 0;

__kernel void k(__global float *out)
{
    out[0] = 0.0f;
}
