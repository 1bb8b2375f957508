// OpenCL C 6.3.6, 6.4.2: `(char2)(char)0` is the vector type applied to the cast expression
// `(char)0` (a scalar converted to every lane), not the start of a vector literal.
// run: --kernel k --global 1 --arg 'int[8]'
// expect o: 0 0 3 3 20 20 1 2
kernel void k(global int *o) {
    char2 a = (char2)(char)0;
    int4 b = (int4)(int)(3.75f);
    float2 c = (float2)(float)(int)2.5f;
    int2 d = (int2)((int)1, (int)2);
    o[0] = a.x; o[1] = a.y;
    o[2] = b.x; o[3] = b.w;
    o[4] = (int)(c.x * 10.0f); o[5] = (int)(c.y * 10.0f);
    o[6] = d.x; o[7] = d.y;
}
