// Common (6.15.4) and geometric (6.15.5) builtins: clamp, degrees, max,
// min, mix, radians, step, smoothstep, sign with vector and scalar edge
// arguments; cross, dot, distance, length, normalize and the fast_
// variants on float, float2, float3 and float4.

__kernel void common_geometric(__global float4 *out4, __global float3 *out3, __global float *out)
{
    size_t i = get_global_id(0);
    float4 x = (float4)(-1.0f, 0.25f, 0.75f, 2.0f) * (float)(i + 1);
    float4 c = clamp(x, 0.0f, 1.0f) + clamp(x, (float4)(-1.0f), (float4)(1.0f));
    float4 d = degrees(x) + radians(x);
    float4 mm = max(x, 0.5f) + min(x, (float4)(0.0f));
    float4 mx = mix(x, (float4)(1.0f), 0.5f) + mix(x, -x, (float4)(0.25f));
    float4 st = step(0.5f, x) + step((float4)(0.1f), x);
    float4 sm = smoothstep(0.0f, 1.0f, x) + smoothstep((float4)(0.0f), (float4)(2.0f), x);
    float4 sg = sign(x);

    float3 a = (float3)(1.0f, 0.0f, 0.0f), b = (float3)(0.0f, 1.0f, 0.0f);
    float3 n = cross(a, b);
    float4 n4 = cross(x, (float4)(0.0f, 0.0f, 1.0f, 0.0f));
    float geo = dot(x, x) + dot(a, b) + dot(x.xy, x.zw) + dot(x.x, x.y) +
                distance(x, (float4)(0.0f)) + distance(a, b) + length(x) + length(x.xyz) +
                length(x.xy) + length(x.w) + fast_length(x) + fast_distance(a, b);
    float4 nrm = normalize(x) + fast_normalize(x);
    float2 n2 = normalize(x.xy);
    float s = clamp(x.x, -0.5f, 0.5f) + sign(x.y) + step(0.0f, x.z) + smoothstep(0.0f, 1.0f, x.w);

    out4[i] = c + d + mm + mx + st + sm + sg + nrm + n4 + (float4)(n2, 0.0f, 0.0f);
    out3[i] = n + normalize(a + b);
    out[i] = geo + s;
}
