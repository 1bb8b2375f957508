// options: -cl-std=CL3.0
// requires: images __opencl_c_read_write_images
// expect-error: 13
// rule: 6.8 reading with a sampler from a read_write image is a compilation error

// read_imagef with a sampler on a read_write image.

__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;

__kernel void k(read_write image2d_t img)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 v = read_imagef(img, smp, p);
    write_imagef(img, p, v * 0.5f);
}
