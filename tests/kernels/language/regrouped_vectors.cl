// OpenCL C 6.3.7 and 6.15.7 (vload4, vstore4): element-wise operations on vectors that
// work-items load and store at consecutive addresses. Vectorized, each component is held in
// a vector of its own, regrouped by shuffles after the load and before the store, and the
// CPU device drops the shuffles where every operation in between treats the components
// alike (`cpu/src/vectorize/regroup.rs`): thr and h are such; mixed also reads one
// component on its own, and g multiplies by a different constant in each component, so
// those keep the regrouping for some or all of their values.
// run: --kernel k --global 32 --arg 'uchar[128]=iota' --arg 'float[128]=iota' --arg 'uchar[128]' --arg 'uchar[128]' --arg 'float[128]' --arg 'uchar[128]' --arg uchar:100
// expect thr: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 200 200 200 200 200 200 200 200 200 200 200 200 200 200 200 200 200 200 200 200 200 200 200 200 200 200 200
// expect mixed: 120 119 118 117 112 111 110 109 104 103 102 101 96 95 94 93 88 87 86 85 80 79 78 77 72 71 70 69 64 63 62 61 56 55 54 53 48 47 46 45 40 39 38 37 32 31 30 29 24 23 22 21 16 15 14 13 8 7 6 5 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 32 33 34 35 40 41 42 43 48 49 50 51 56 57 58 59 64 65 66 67 72 73 74 75 80 81 82 83 88 89 90 91 96 97 98 99 104 105 106 107 112 113 114 115 120 121 122 123 128 129 130 131
// expect g: 1 6 15 28 9 22 39 60 17 38 63 92 25 54 87 124 33 70 111 156 41 86 135 188 49 102 159 220 57 118 183 252 65 134 207 284 73 150 231 316 81 166 255 348 89 182 279 380 97 198 303 412 105 214 327 444 113 230 351 476 121 246 375 508 129 262 399 540 137 278 423 572 145 294 447 604 153 310 471 636 161 326 495 668 169 342 519 700 177 358 543 732 185 374 567 764 193 390 591 796 201 406 615 828 209 422 639 860 217 438 663 892 225 454 687 924 233 470 711 956 241 486 735 988 249 502 759 1020
// expect h: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 4 7 10 13 16 19 22 25 28 31 34 37 40 43 46 49 52 55 58 61 64 67 70 73 76 79 82 85 88 91 94 97 100 103 106 109 112 115 118 121 124 127 130 133 136 139 142 145 148 151 154 157 160 163 166 169 172 175 178 181 184 187 190 193 196 199 202 205 208 211 214 217 220 223 226 229 232 235 238 241 244 247 250 253 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255
kernel void k(global const uchar *src, global const float *f, global uchar *thr,
              global uchar *mixed, global float *g, global uchar *h, uchar t)
{
    size_t i = get_global_id(0);
    uchar4 s = vload4(i, src);
    vstore4(select((uchar4)(0), (uchar4)(200), s > (uchar4)(t)), i, thr);
    uchar4 d = abs_diff(s, (uchar4)(60));
    vstore4(d + (uchar4)(d.x), i, mixed);
    float4 v = vload4(i, f);
    vstore4((v * 2.0f + 1.0f) * (float4)(1.0f, 2.0f, 3.0f, 4.0f), i, g);
    vstore4(convert_uchar4_sat(convert_int4(s) * 3 - 50), i, h);
}
