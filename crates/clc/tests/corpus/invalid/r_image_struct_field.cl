// requires: images
// expect-error: 8
// rule: 6.11.b an image type cannot be used to declare a structure or union field

// A struct with an image member.

typedef struct {
    image2d_t img;
    int level;
} Texture;

__kernel void k(__global int *out)
{
    out[0] = 0;
}
