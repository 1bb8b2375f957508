// Functions that stay calls. Each function below is larger than the inliner's budget (ROUNDS
// is 256 mixing steps, some 1,500 instructions) and has several call sites, so ferrocl keeps
// it as a call of a function compiled on its own (ferrocl_ir::passes::inline): pointer
// arguments into private, local, global and constant memory, a structure and an 8-lane vector
// returned, a function called from several sites and from another such function, loops
// inside them. Every implementation must compute the same values as with the calls inlined.
// run: --kernel scalars --global 8 --local 4 --arg 'uint[8]=iota' --arg 'uint[32]'
// expect out: 1832453263 3656297902 1202525138 3490917119 240142975 2735235842 3062955139 2512263022 2688427513 1070240168 2497934212 1570059666 1063875938 1789246192 1067390969 887894858 2080864121 4110486502 438825508 2909193764 27163368 3385968984 620564840 2084609779 3704311725 1219821032 765209475 1346343808 3137457424 323142478 3441318170 3997722612
// run: --kernel spaces --global 8 --local 4 --arg 'uint[8]=iota' --arg 'uint[16]=iota' --arg 'uint[64]' --arg local:16
// expect g: 3126639367 3304323263 764759162 3475529855 2013513804 3875765858 676212381 1095961476
// expect out: 1832453263 3126639367 2461231185 1832453263 240142975 3126639367 3892086445 474235756 240142975 3475529855 637780873 3137457424 2688427513 3304323263 1620305581 2196577667 2688427513 764759162 2570737014 3704311725 1063875938 764759162 2337498696 1341760176 1063875938 3875765858 323142478 27163368 1832453263 3475529855 474235756 511059004 2080864121 2013513804 3185174555 2080864121 27163368 2013513804 2196577667 3656831508 27163368 1095961476 3385968984 374901435 3704311725 3875765858 1341760176 3892086445 3704311725 676212381 1520888111 2709708734 3137457424 676212381 511059004 1620305581 3137457424 320119984 2913758368 1168398696 2080864121 1095961476 3656831508 2337498696
// local-sizes: fixed: the neighbour in the group, modulo the local size, in a __local buffer of 4 words
// run: --kernel records --global 8 --local 4 --arg 'uint[96]'
// expect out: 1167 27961 22203 25448 3126639367 3701129262 360061536 392262439 2594182291 1946699116 1809542286 2298687603 19071 3664 50609 44324 3304323263 2032091653 3204892493 2790482265 1666515311 2170242421 850667255 1367769200 9721 41022 1851 28391 764759162 228049227 982457950 2540246016 116234761 3974984380 4131955474 3815084954 30050 16233 62097 37630 3475529855 810857710 4126521985 2380495453 374944444 4190881059 3904510584 2734018942 30585 31751 33673 16128 2013513804 1159603372 34603596 3197757186 4154558449 735122706 637259961 916395718 31464 414 34985 64860 3875765858 2190124010 1453651216 2554799491 3567276244 3128174961 2089417183 458790459 20397 56523 41903 12597 676212381 3689571420 1972797057 3339156604 4143355307 1637108007 4173853006 982567133 52496 47873 61853 3763 1095961476 4219140265 2487578444 578390301 2875626090 4256990399 3969699708 2060663813

#define STEP(x, t, k) t = (x) ^ ((x) >> 3); x = ((t << 5) | (t >> 27)) + (k) * 0x9e3779b9u;
#define S4(x, t, k) STEP(x, t, 4u * (k)) STEP(x, t, 4u * (k) + 1u) \
    STEP(x, t, 4u * (k) + 2u) STEP(x, t, 4u * (k) + 3u)
#define S16(x, t, k) S4(x, t, 4u * (k)) S4(x, t, 4u * (k) + 1u) \
    S4(x, t, 4u * (k) + 2u) S4(x, t, 4u * (k) + 3u)
#define S64(x, t, k) S16(x, t, 4u * (k)) S16(x, t, 4u * (k) + 1u) \
    S16(x, t, 4u * (k) + 2u) S16(x, t, 4u * (k) + 3u)
#define ROUNDS(x, t) S64(x, t, 0u) S64(x, t, 1u) S64(x, t, 2u) S64(x, t, 3u)

uint mix(uint x) {
    uint t;
    ROUNDS(x, t)
    return x;
}

// Calls mix from two sites of its own.
uint mix_twice(uint x) {
    uint y = mix(x) ^ 0x5a5a5a5au, t;
    ROUNDS(y, t)
    return mix(y) ^ y;
}

#define STIR(s, n) \
    for (int i = 0; i < (n); i++) { \
        uint x = (s)[i] ^ (uint)i, t; \
        ROUNDS(x, t) \
        (s)[i] = x; \
    }

void stir_private(private uint *s, int n) { STIR(s, n) }
void stir_local(local uint *s, int n) { STIR(s, n) }
void stir_global(global uint *s, int n) { STIR(s, n) }

uint sum_constant(constant uint *c, int n) {
    uint s = 0;
    for (int i = 0; i < n; i++) {
        uint x = s + c[i], t;
        ROUNDS(x, t)
        s = x;
    }
    return s;
}

struct pair {
    uint lo, hi;
};

struct pair halves(uint x) {
    uint t;
    ROUNDS(x, t)
    struct pair p;
    p.lo = x & 0xffffu;
    p.hi = x >> 16;
    return p;
}

uint8 spread(uint8 v) {
    uint8 t;
    v ^= (uint8)(0u, 0x01010101u, 0x02020202u, 0x03030303u,
                 0x04040404u, 0x05050505u, 0x06060606u, 0x07070707u);
    ROUNDS(v, t)
    return v;
}

kernel void scalars(global const uint *in, global uint *out) {
    uint i = get_global_id(0);
    uint x = in[i];
    uint a = mix(x);
    uint b = mix(a + 1u);
    uint c = mix_twice(x);
    uint d = mix_twice(b);
    out[4 * i + 0] = a;
    out[4 * i + 1] = b;
    out[4 * i + 2] = c;
    out[4 * i + 3] = d;
}

kernel void spaces(global uint *g, constant uint *c, global uint *out, local uint *tile) {
    uint i = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    tile[l] = g[i];
    stir_local(tile + l, 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint neighbour = tile[(l + 1) % n];
    barrier(CLK_LOCAL_MEM_FENCE);
    stir_local(tile + l, 1);
    uint p[4] = { i, i + 1, i + 2, i + 3 };
    stir_private(p, 4);
    stir_private(p + 1, 2);
    stir_global(g + i, 1);
    stir_global(g + i, 1);
    global uint *o = out + 8 * i;
    o[0] = p[0];
    o[1] = p[1];
    o[2] = p[2];
    o[3] = p[3];
    o[4] = neighbour;
    o[5] = tile[l];
    o[6] = sum_constant(c + i % 8, 4);
    o[7] = sum_constant(c + (i + 3) % 8, 4);
}

kernel void records(global uint *out) {
    uint i = get_global_id(0);
    struct pair a = halves(i);
    struct pair b = halves(a.lo + a.hi);
    uint8 v = spread((uint8)(i) + (uint8)(0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u));
    uint8 w = spread(v);
    out[12 * i + 0] = a.lo;
    out[12 * i + 1] = a.hi;
    out[12 * i + 2] = b.lo;
    out[12 * i + 3] = b.hi;
    vstore8(w, 0, out + 12 * i + 4);
}
