// Loop counters whose range the CPU device derives from the loop's test (an upward count to a
// bound): quotients and remainders of counters that start negative stay signed, a counter
// changed inside its body or stepped by two amounts is still right, one counting up from a
// local id divides unsigned; groups of 12 work-items (a full and a partial chunk).
// local-sizes: fixed: every counter starts from the local id
// run: --kernel counters --global 24 --local 12 --arg 'int[24]'
// expect out: 3317357 3122488 2419058 2119146 1816254 1516575 2108683 2708150 3305258 3005372 2202548 1807622 3317357 3122488 2419058 2119146 1816254 1516575 2108683 2708150 3305258 3005372 2202548 1807622
kernel void counters(global int *out) {
    int l = get_local_id(0);
    int acc = 0;
    for (int k = l - 7; k < 20; k += 5)
        acc += (k / 3) * 100 + k % 3;
    for (int k = l; k <= 30; k += 4) {
        if (k % 2) {
            k += 1;
            continue;
        }
        acc += (k / 7) * 10;
    }
    for (int k = l * 3; k < 40;) {
        acc += k / 6 + (k % 6) * 1000;
        if (k % 5 == 0)
            k += 7;
        else
            k += 3;
    }
    for (int k = l; k < 50; k += 8)
        acc += (k / 9) * 7 + (k % 9) * 100000;
    out[get_global_id(0)] = acc;
}
