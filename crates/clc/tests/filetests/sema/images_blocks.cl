// options: -cl-std=CL2.0
// Samplers, image reads and writes; a block enqueued with a local buffer (6.14, 6.15.19).
constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

kernel void img(read_only image2d_t in, write_only image2d_t out, global int *flag)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(out, p, read_imagef(in, smp, p) * 0.5f);
    int n = flag[0];
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(64),
                   ^(local void *scratch) { flag[1] = n; }, 256u);
}
