// Initializers (C99 6.7.8): designated struct members and array indices,
// nested designators, partial initialization (rest zero), brace elision,
// string-literal initialization of char arrays, and compound literals.

typedef struct {
    int id;
    float weight;
    float2 offset;
    int flags[4];
} Item;

struct Config {
    struct { int w, h; } size;
    float scale;
    char name[8];
};

__constant Item table[3] = {
    [2] = { .id = 2, .weight = 0.5f },
    [0] = { .flags = { [3] = 8 }, .id = 7 },
};

__kernel void designated(__global int *out, __global float *fout)
{
    Item a = { .weight = 2.0f, .id = 1, .offset = (float2)(1.0f, -1.0f) };
    Item b = { 3, 1.5f };                       /* remaining members zero */
    int sparse[10] = { [1] = 1, [5] = 5, 6, [9] = 9 };
    struct Config cfg = { .size.w = 640, .size.h = 480, .name = "cam" };
    struct Config elided = { 32, 16, 0.25f };   /* brace elision for .size */
    int matrix[2][3] = { { 1, 2, 3 }, [1][2] = 6 };
    char word[] = "hello";

    Item c = (Item){ .id = 9, .flags = { 1, 2 } };  /* compound literal */

    out[0] = a.id + b.id + sparse[6] + cfg.size.w + elided.size.h + matrix[1][2] +
             word[4] + table[0].flags[3] + table[2].id + c.flags[1] + cfg.name[1];
    fout[0] = a.weight + b.weight + a.offset.y + elided.scale + table[2].weight;
}
