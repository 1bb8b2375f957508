// The # and ## operators (C99 6.10.3.2, 6.10.3.3): building identifiers,
// type names and builtin names by pasting, stringizing arguments, the
// two-level expansion idiom, and pasting that forms numbers.

#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)
#define STR(x) #x
#define XSTR(x) STR(x)
#define VEC(type, n) type##n
#define CONVERT(type, n) convert_##type##n
#define KERNEL_NAME(op, type) op##_##type
#define WIDTH 4
#define HEX(d) 0x##d

#define DEFINE_SCALE(type)                                          \
    __kernel void KERNEL_NAME(scale, type)(__global type *p,        \
                                           const type factor)       \
    {                                                               \
        p[get_global_id(0)] *= factor;                              \
    }

DEFINE_SCALE(float)
DEFINE_SCALE(int)
DEFINE_SCALE(uint)

__constant char width_text[] = XSTR(WIDTH);     /* "4" */
__constant char name_text[] = STR(CAT(a, b));   /* "CAT(a, b)": # blocks expansion */
__constant char spaces[] = STR(  x   +   y  );  /* "x + y" */

__kernel void paste(__global XCAT(float, WIDTH) *out, __global const VEC(int, 4) *in)
{
    size_t i = get_global_id(0);
    VEC(float, 4) f = CONVERT(float, 4)(in[i]);
    int CAT(local_, var) = HEX(ff);
    out[i] = f * (float)local_var + (float)(width_text[0] + name_text[0] + spaces[2]);
}
