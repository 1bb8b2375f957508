// options: -cl-fast-relaxed-math -cl-mad-enable -cl-no-signed-zeros -DSCALE=0.5f
// Build options that change the program (API spec 5.8.6.3):
// -cl-fast-relaxed-math defines __FAST_RELAXED_MATH__; the other math
// options and -D with a float value are accepted alongside it.

#ifndef __FAST_RELAXED_MATH__
#error -cl-fast-relaxed-math must define __FAST_RELAXED_MATH__
#endif

__kernel void relaxed(__global float *x)
{
    size_t i = get_global_id(0);
    float v = x[i];
#ifdef __FAST_RELAXED_MATH__
    x[i] = native_sqrt(v) * SCALE + native_recip(v + 1.0f);
#else
    x[i] = sqrt(v) * SCALE + 1.0f / (v + 1.0f);
#endif
}
