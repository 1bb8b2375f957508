// printf: the format and a private buffer with the promoted arguments, each aligned to its
// size (int at 0, double at 8, float4 at 16, pointer at 32).
__kernel void p(__global int *g) {
    printf("%d %f %v4f %p\n", g[0], 1.5f, (float4)(1.0f), g);
}
