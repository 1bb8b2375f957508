// Statements (C99 6.8): switch with fall-through and default in the middle,
// goto forward and backward, do-while, for with a declaration, nested
// loops with break and continue, and an empty statement body.

int classify(int x)
{
    int r = 0;
    switch (x & 7) {
    case 0:
        r += 1;
        /* fall through */
    case 1:
    case 2:
        r += 2;
        break;
    default:
        r = -1;
        break;
    case 5: {
        int t = x * 3;
        r = t;
        break;
    }
    case 6:
        if (x > 100)
            break;
        r = 6;
    }
    return r;
}

int find_first(__global const int *a, int n, int key)
{
    int i = 0;
    for (;;) {
        if (i >= n)
            goto not_found;
        if (a[i] == key)
            goto found;
        i++;
    }
found:
    return i;
not_found:
    return -1;
}

__kernel void control(__global const int *in, __global int *out, const int n)
{
    int gid = get_global_id(0);
    int acc = classify(in[gid]);

    int k = 0;
    do {
        acc += k;
        k++;
    } while (k < 4);

    for (int i = 0, j = n; i < j; i++, j--) {
        if (i == 2)
            continue;
        if (in[i] < 0)
            break;
        acc ^= in[i];
    }

    int tries = 0;
retry:
    tries++;
    if (tries < 3)
        goto retry;

    int w = 10;
    while (w-- > 0)
        ;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            if (j > i)
                break;
            acc += i * j;
        }
    out[gid] = acc + tries + w + find_first(in, n, 42);
}
