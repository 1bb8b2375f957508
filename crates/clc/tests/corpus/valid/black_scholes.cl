// Black-Scholes European option pricing (call and put) using the
// Abramowitz-Stegun polynomial approximation of the normal CDF and erf.

#define A1 0.31938153f
#define A2 -0.356563782f
#define A3 1.781477937f
#define A4 -1.821255978f
#define A5 1.330274429f
#define RSQRT2PI 0.39894228040143267794f

float cnd(float d)
{
    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float poly = k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5))));
    float c = RSQRT2PI * exp(-0.5f * d * d) * poly;
    return d > 0 ? 1.0f - c : c;
}

/* same CDF via the error function, for comparison */
float cnd_erf(float d) { return 0.5f * (1.0f + erf(d * M_SQRT1_2_F)); }

__kernel void black_scholes(__global float *call,
                            __global float *put,
                            __global const float *spot,
                            __global const float *strike,
                            __global const float *years,
                            const float riskfree,
                            const float volatility,
                            const int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float S = spot[i], X = strike[i], T = years[i];
    float sqrtT = sqrt(T);
    float d1 = (log(S / X) + (riskfree + 0.5f * volatility * volatility) * T) /
               (volatility * sqrtT);
    float d2 = d1 - volatility * sqrtT;
    float cndd1 = cnd(d1), cndd2 = cnd(d2);
    float expRT = exp(-riskfree * T);
    call[i] = S * cndd1 - X * expRT * cndd2;
    put[i] = X * expRT * (1.0f - cndd2) - S * (1.0f - cndd1);
}

__kernel void black_scholes_erf(__global float2 *prices, __global const float4 *params,
                                const float r)
{
    int i = get_global_id(0);
    float4 p = params[i]; /* spot, strike, years, volatility */
    float sv = p.w * sqrt(p.z);
    float d1 = (log(p.x / p.y) + (r + 0.5f * p.w * p.w) * p.z) / sv;
    float d2 = d1 - sv;
    float df = exp(-r * p.z);
    float c = p.x * cnd_erf(d1) - p.y * df * cnd_erf(d2);
    prices[i] = (float2)(c, c - p.x + p.y * df); /* put from parity */
}
