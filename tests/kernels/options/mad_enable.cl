// -cl-mad-enable (API 5.8.6.3): "Allow a * b + c to be replaced by a mad instruction", which
// in the full profile may be a fused multiply-add (OpenCL C 7.4: mad "can be implemented
// either as a correctly rounded fma or as a multiply followed by an add"). The option allows
// it where `#pragma OPENCL FP_CONTRACT OFF` does not (OpenCL C 6.15.2.1). The inputs make the difference show: a = b = 1 + 2^-12,
// so a * b = 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11 = -c; rounded twice, a * b + c is 0,
// fused it is 2^-24.
// - Without the option, contraction is off: 0, exactly.
// - With it (and with -cl-unsafe-math-optimizations and -cl-fast-relaxed-math, which imply
//   it), ferrocl fuses where it defines FP_FAST_FMAF (one fast instruction); elsewhere the
//   replacement is permitted, not promised, and the kernel computes the fused value with fma
//   instead (`-DMAD` tells the kernel that an option is given), so that the expectation is
//   one value.
// run: --kernel mad_enable --global 4 --arg 'float[4]=7' --arg 'float[3]=1.000244140625,1.000244140625,-1.00048828125'
// expect o: 0 0 0 0
// run: --kernel mad_enable --global 4 --options '-cl-mad-enable -DMAD' --arg 'float[4]=7' --arg 'float[3]=1.000244140625,1.000244140625,-1.00048828125'
// expect o: 5.9604645e-08 5.9604645e-08 5.9604645e-08 5.9604645e-08
// run: --kernel mad_enable --global 4 --options '-cl-unsafe-math-optimizations -DMAD' --arg 'float[4]=7' --arg 'float[3]=1.000244140625,1.000244140625,-1.00048828125'
// expect o: 5.9604645e-08 5.9604645e-08 5.9604645e-08 5.9604645e-08
// run: --kernel mad_enable --global 4 --options '-cl-fast-relaxed-math -DMAD' --arg 'float[4]=7' --arg 'float[3]=1.000244140625,1.000244140625,-1.00048828125'
// expect o: 5.9604645e-08 5.9604645e-08 5.9604645e-08 5.9604645e-08

#pragma OPENCL FP_CONTRACT OFF

kernel void mad_enable(global float *o, global const float *in) {
    float a = in[0], b = in[1], c = in[2];
#if defined(MAD) && !defined(FP_FAST_FMAF)
    o[get_global_id(0)] = fma(a, b, c);
#else
    o[get_global_id(0)] = a * b + c;
#endif
}
