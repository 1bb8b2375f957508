// requires: images
// expect-error: 10
// rule: 6.11.b an image function argument cannot be modified

// Assigning to an image argument.

__kernel void k(read_only image2d_t a, read_only image2d_t b, __global float4 *out, int flip)
{
    if (flip)
        a = b;
    out[0] = read_imagef(a, (int2)(0));
}
