// Structures and unions (C99 6.7.2.1): nested structs, arrays of structs,
// struct assignment and pass/return by value, pointers to structs with ->,
// anonymous-free unions for type punning (6.4.4.1), self-referential
// pointers, and structs in __global and __local memory.

struct vec3s { float x, y, z; };

struct body {
    struct vec3s pos;
    struct vec3s vel;
    float mass;
    int tags[3];
};

union bits {
    float f;
    uint u;
    uchar b[4];
};

struct node {
    int value;
    struct node *next;   /* private pointer to the same struct type */
};

typedef union {
    int4 v;
    int a[4];
} quad;

static struct vec3s add3(struct vec3s a, struct vec3s b)
{
    struct vec3s r;
    r.x = a.x + b.x;
    r.y = a.y + b.y;
    r.z = a.z + b.z;
    return r;
}

static float kinetic(const struct body *b)
{
    return 0.5f * b->mass * (b->vel.x * b->vel.x + b->vel.y * b->vel.y + b->vel.z * b->vel.z);
}

__kernel void structs(__global struct body *bodies, __global uint *bits_out,
                      __global int *list_out, __global float *energy)
{
    __local struct body shared[4];
    int i = get_global_id(0);
    int lid = get_local_id(0);
    struct body b = bodies[i];
    b.pos = add3(b.pos, b.vel);
    b.tags[0]++;
    bodies[i] = b;
    if (lid < 4)
        shared[lid] = b;
    barrier(CLK_LOCAL_MEM_FENCE);

    union bits u;
    u.f = b.mass;
    bits_out[i] = u.u ^ u.b[3];

    struct node n2 = { 2, 0 };
    struct node n1 = { 1, &n2 };
    int s = 0;
    for (struct node *p = &n1; p; p = p->next)
        s += p->value;
    list_out[i] = s;

    quad q;
    q.v = (int4)(1, 2, 3, 4);
    q.a[2] = 9;
    list_out[i] += q.v.z;

    __global struct body *gp = &bodies[i];
    energy[i] = kinetic(&b) + gp->mass + shared[lid & 3].pos.x;
}
