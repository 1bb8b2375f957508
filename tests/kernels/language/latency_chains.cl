// A small kernel whose loop runs alike in every work-item and touches no memory (a chain of
// dependent integer operations): the CPU device runs it 16 lanes wide. 40 work-items: two
// chunks of 16, and 8 that run one at a time.
// run: --kernel chain --global 40 --arg 'uint[40]' --arg uint:12345 --arg int:7
// expect out: 234314837 3776795501 848086404 2496399042 3100059884 3153038100 4170626417 1156029947 2141111239 2904278865 859280143 3419373732 867777094 2206052420 4269376679 3643996625 3241742470 2231578135 82533122 1507872020 3588753584 3824953339 787544639 2546074669 3248567898 247203423 2499878722 2268124975 2061541950 3746350816 1410750559 1313119623 647686334 527984851 3406998994 1278576138 541485331 489278389 700736259 4144667693
uint mix(uint h) {
    h ^= h >> 16;
    h *= 0x7feb352dU;
    h ^= h >> 15;
    h *= 0x846ca68bU;
    h ^= h >> 16;
    return h;
}

kernel void chain(global uint *out, uint seed, int rounds) {
    uint h = (uint)get_global_id(0) ^ seed;
    for (int r = 0; r < rounds; ++r)
        h = mix(h + (uint)r);
    out[get_global_id(0)] = h;
}
