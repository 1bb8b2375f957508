// expect-error: 8
// rule: 6.11.v implicit function declaration is not supported

// A call to a function that was never declared.

__kernel void k(__global float *out)
{
    out[0] = helper(1.0f);
}

float helper(float x) { return x * 2.0f; }
