// Ray casting against a list of spheres with structs of float3 members:
// primary rays from a pinhole camera, nearest hit, Lambert shading with a
// shadow ray, output packed to RGBA8.

typedef struct {
    float3 centre;
    float radius;
    float3 colour;
    float reflect;
} Sphere;

typedef struct {
    float3 origin;
    float3 dir;
} Ray;

typedef struct {
    float t;
    int index;
} Hit;

static float intersect(const Sphere *s, const Ray *r)
{
    float3 oc = r->origin - s->centre;
    float b = dot(oc, r->dir);
    float c = dot(oc, oc) - s->radius * s->radius;
    float disc = b * b - c;
    if (disc < 0.0f)
        return -1.0f;
    float sq = sqrt(disc);
    float t = -b - sq;
    return t > 1e-4f ? t : -b + sq;
}

static Hit nearest(__constant Sphere *spheres, int count, Ray r)
{
    Hit h = { INFINITY, -1 };
    for (int i = 0; i < count; i++) {
        Sphere s = spheres[i];
        float t = intersect(&s, &r);
        if (t > 1e-4f && t < h.t) {
            h.t = t;
            h.index = i;
        }
    }
    return h;
}

__kernel void render(__global uchar4 *image, __constant Sphere *spheres, const int count,
                     const float3 eye, const float3 light, const int width, const int height)
{
    int px = get_global_id(0), py = get_global_id(1);
    if (px >= width || py >= height)
        return;
    float aspect = (float)width / height;
    float2 ndc = (float2)((px + 0.5f) / width * 2.0f - 1.0f, 1.0f - (py + 0.5f) / height * 2.0f);
    Ray r;
    r.origin = eye;
    r.dir = normalize((float3)(ndc.x * aspect, ndc.y, -1.5f));

    float3 colour = (float3)(0.1f, 0.1f, 0.15f);
    Hit h = nearest(spheres, count, r);
    if (h.index >= 0) {
        float3 p = r.origin + h.t * r.dir;
        float3 n = normalize(p - spheres[h.index].centre);
        float3 l = normalize(light - p);
        Ray shadow = { p + 1e-3f * n, l };
        float lit = nearest(spheres, count, shadow).index < 0 ? 1.0f : 0.2f;
        colour = spheres[h.index].colour * (0.1f + lit * fmax(dot(n, l), 0.0f));
    }
    image[py * width + px] = (uchar4)(convert_uchar3_sat_rte(colour * 255.0f), 255);
}
