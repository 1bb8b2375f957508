// Conversions with explicit rounding and saturation (6.4.3): float to int in each rounding
// mode, saturated out-of-range values and NaN (6.4.3.3: NaN converts to 0 when saturated).
// run: --kernel conv --global 1 --arg 'int[8]'
// expect out: 2 3 2 3 -3 2147483647 -2147483648 0
kernel void conv(global int *out) {
    float x = 2.5f;
    out[0] = convert_int_rtz(x);
    out[1] = convert_int_rtp(x);
    out[2] = convert_int_rte(x);
    out[3] = convert_int_rte(3.4f);
    out[4] = convert_int_rtn(-2.5f);
    out[5] = convert_int_sat(3.0e10f);
    out[6] = convert_int_sat(-3.0e10f);
    out[7] = convert_int_sat(nan(0u));
}
