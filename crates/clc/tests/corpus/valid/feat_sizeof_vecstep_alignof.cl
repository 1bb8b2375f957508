// sizeof (6.5.11), vec_step (6.15.13 / 6.3.5 context) and __alignof /
// _Alignof: on scalar, vector (3-component vectors are 4 wide), struct,
// array and expression operands; the values are integer constant
// expressions usable as array sizes.

typedef struct { char c; int i; float4 v; } S;

__kernel void sizes(__global int *out)
{
    int a[sizeof(float4) / sizeof(float)];                /* 4 */
    int idx = 0;
    out[idx++] = sizeof(char) + sizeof(short) + sizeof(int) + sizeof(long);
    out[idx++] = sizeof(float3);                           /* 16 */
    out[idx++] = sizeof(S);
    out[idx++] = sizeof a / sizeof a[0];
    out[idx++] = sizeof(out[0]);
    out[idx++] = vec_step(float3);                         /* 3 */
    out[idx++] = vec_step(int16);
    out[idx++] = vec_step(float);                          /* 1 */
    out[idx++] = vec_step((char8)(0));
    out[idx++] = __alignof__(float4);
    out[idx++] = _Alignof(S);
    out[idx++] = sizeof(size_t) + sizeof(ptrdiff_t) + sizeof(uintptr_t);
}
