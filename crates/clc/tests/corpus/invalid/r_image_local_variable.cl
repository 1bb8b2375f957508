// requires: images
// expect-error: 9
// rule: 6.11.b an image type cannot be used to declare a variable

// An image2d_t local variable initialised from an argument.

__kernel void copy(__read_only image2d_t src, __write_only image2d_t dst)
{
    image2d_t alias = src;
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p, read_imagef(alias, p));
}
