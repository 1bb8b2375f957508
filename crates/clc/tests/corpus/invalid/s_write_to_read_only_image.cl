// requires: images
// expect-error: 10
// rule: 6.8 / 6.15.15 write_image functions take write_only (or read_write) images

// write_imagef on a read_only image argument.

__kernel void k(read_only image2d_t img)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(img, p, (float4)(0.0f));
}
