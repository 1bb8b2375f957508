// exp, exp2, exp10, log, log2 and log10 of float (computed in float by the builtin library)
// within table 65's 3 ulp (OpenCL C 7.4), with the values 7.5.1 and C99 F.9 prescribe exact:
// subnormal arguments and a subnormal result (exp(-100)), results that round to 0 (exp10(-100))
// or overflow (exp10(88.5)), log of a negative number (a NaN), powers of two and ten. 13
// work-items: a full chunk of lanes and a partial one; d takes exp2 on the odd work-items and
// log2 on the even ones (divergent). The expected values are the mathematical values of the
// float arguments, to double precision.
// run: --kernel k --global 13 --arg 'float[13]=1e-45,1e-40,1.17549435e-38,0.001,0.5,0.70710677,1.0,1.4142135,3.0,10.0,38.5,88.5,-100.0' --arg 'float[13]' --arg 'float[13]' --arg 'float[13]' --arg 'float[13]' --arg 'float[13]' --arg 'float[13]' --arg 'float[13]'
// expect e ulp=3: 1.0 1.0 1.0 1.0010005002142532 1.6487212707001282 2.028114957104002 2.718281828459045 4.113250279228966 20.085536923187668 22026.465794806718 5.252155228592516e+16 2.7230878250681117e+38 3.720075976020836e-44
// expect e2 ulp=3: 1.0 1.0 1.0 1.0006933874955262 1.4142135623730951 1.6325269057441878 2.0 2.665144097978692 8.0 1024.0 388736063996.9344 4.3767789824051675e+26 7.888609052210118e-31
// expect e10 ulp=3: 1.0 1.0 1.0 1.0023052381875188 3.1622776601683795 5.094561028491335 10.0 25.95455207302269 1000.0 10000000000.0 3.1622776601683792e+38 inf 0.0
// expect l ulp=3: -103.27892990343184 -92.10340910966488 -87.3365447505531 -6.907755231484687 -0.6931471805599453 -0.3465736073942438 0.0 0.3465735731657015 1.0986122886681098 2.302585092994046 3.6506582412937387 4.483002552013883 NaN
// expect l2 ulp=3: -149.0 -132.8771315714809 -126.0 -9.96578421613775 -1.0 -0.5000000246906742 0.0 0.49999997530932583 1.584962500721156 3.321928094887362 5.266786540694901 6.467605550082998 NaN
// expect l10 ulp=3: -44.8534693539332 -40.00000234080515 -37.92977945366163 -2.9999999793721193 -0.3010299956639812 -0.15051500526462414 0.0 0.15051499039935706 0.47712125471966244 1.0 1.5854607295085006 1.9469432706978254 NaN
// expect d ulp=3: -149.0 1.0 -126.0 1.0006933874955262 -1.0 1.6325269057441878 0.0 2.665144097978692 1.584962500721156 1024.0 5.266786540694901 4.3767789824051675e+26 NaN
kernel void k(global const float *x, global float *e, global float *e2, global float *e10,
              global float *l, global float *l2, global float *l10, global float *d) {
    size_t i = get_global_id(0);
    float v = x[i];
    e[i] = exp(v);
    e2[i] = exp2(v);
    e10[i] = exp10(v);
    l[i] = log(v);
    l2[i] = log2(v);
    l10[i] = log10(v);
    if (i & 1)
        d[i] = exp2(v);
    else
        d[i] = log2(v);
}
