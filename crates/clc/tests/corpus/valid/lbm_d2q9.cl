// Lattice-Boltzmann D2Q9 BGK step (streaming + collision, pull scheme) on
// a periodic domain, with the velocity set and weights in __constant
// memory and structure-of-arrays storage.

__constant int cx[9] = { 0, 1, 0, -1, 0, 1, -1, -1, 1 };
__constant int cy[9] = { 0, 0, 1, 0, -1, 1, 1, -1, -1 };
__constant float w[9] = { 4.0f / 9, 1.0f / 9, 1.0f / 9, 1.0f / 9, 1.0f / 9,
                          1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36 };

inline int wrap(int v, int n) { return (v + n) % n; }

__kernel void lbm_step(__global const float *f_in, __global float *f_out,
                       __global float4 *macro, /* rho, ux, uy, unused */
                       const int nx, const int ny, const float omega)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= nx || y >= ny)
        return;
    int cells = nx * ny;
    float f[9];
    float rho = 0.0f, ux = 0.0f, uy = 0.0f;
    #pragma unroll
    for (int q = 0; q < 9; q++) {
        int sx = wrap(x - cx[q], nx), sy = wrap(y - cy[q], ny);
        f[q] = f_in[q * cells + sy * nx + sx];
        rho += f[q];
        ux += f[q] * cx[q];
        uy += f[q] * cy[q];
    }
    ux /= rho;
    uy /= rho;
    float usq = 1.5f * (ux * ux + uy * uy);
    for (int q = 0; q < 9; q++) {
        float cu = 3.0f * (cx[q] * ux + cy[q] * uy);
        float feq = w[q] * rho * (1.0f + cu + 0.5f * cu * cu - usq);
        f_out[q * cells + y * nx + x] = f[q] - omega * (f[q] - feq);
    }
    macro[y * nx + x] = (float4)(rho, ux, uy, 0.0f);
}
