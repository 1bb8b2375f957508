// expect-error: 8
// rule: 6.9.2 vec_type_hint takes a built-in scalar or vector type

// vec_type_hint naming a struct.

struct S { int a; };

__kernel __attribute__((vec_type_hint(struct S)))
void k(__global int *out)
{
    out[0] = 1;
}
