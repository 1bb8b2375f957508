// expect-error: 6
// rule: 6.11.r event_t cannot be the type of a kernel argument

// An event_t kernel argument.

__kernel void k(__global float *out, event_t ev)
{
    wait_group_events(1, &ev);
    out[0] = 0.0f;
}
