// options: -cl-std=CL1.2
// requires: images
// expect-error: 8
// rule: 6.8 read_write images need OpenCL C 2.0 or newer

// A read_write image argument under OpenCL C 1.2.

__kernel void k(read_write image2d_t img)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(img, p, (float4)(1.0f));
}
