// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) of fixed-size
// records: a bitwise version and a table-driven one with the table in
// __local memory built by the work-group.

#define POLY 0xEDB88320u

uint crc32_bitwise(__global const uchar *p, uint len)
{
    uint crc = 0xFFFFFFFFu;
    for (uint i = 0; i < len; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (POLY & (0u - (crc & 1u)));
    }
    return ~crc;
}

__kernel void crc32_records(__global const uchar *data, const uint record_len,
                            __global uint *crcs)
{
    size_t r = get_global_id(0);
    crcs[r] = crc32_bitwise(data + r * record_len, record_len);
}

__kernel void crc32_table(__global const uchar *data, const uint record_len,
                          __global uint *crcs, const uint records)
{
    __local uint table[256];
    for (uint i = get_local_id(0); i < 256; i += get_local_size(0)) {
        uint c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ POLY : c >> 1;
        table[i] = c;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    uint r = get_global_id(0);
    if (r >= records)
        return;
    __global const uchar *p = data + (size_t)r * record_len;
    uint crc = ~0u;
    for (uint i = 0; i < record_len; ++i)
        crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    crcs[r] = crc ^ 0xFFFFFFFFu;
}
