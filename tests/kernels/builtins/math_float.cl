// Float math functions within the bounds of OpenCL C 3.0's table of ULP values for single
// precision (exp, log: 3 ulp; sin: 4 ulp; sqrt: 3 ulp). The expected values are the
// mathematical values, to double precision.
// run: --kernel math --global 4 --arg 'float[4]' --arg 'float[4]' --arg 'float[4]' --arg 'float[4]'
// expect e ulp=3: 1.2840254166877414 1.6487212707001282 2.117000016612675 2.718281828459045
// expect l ulp=3: -1.3862943611198906 -0.6931471805599453 -0.2876820724517809 0.0
// expect s ulp=4: 0.24740395925452294 0.479425538604203 0.6816387600233341 0.8414709848078965
// expect r ulp=3: 0.5 0.7071067811865476 0.8660254037844386 1.0
kernel void math(global float *e, global float *l, global float *s, global float *r) {
    int i = get_global_id(0);
    float x = (float)(i + 1) * 0.25f;
    e[i] = exp(x);
    l[i] = log(x);
    s[i] = sin(x);
    r[i] = sqrt(x);
}
