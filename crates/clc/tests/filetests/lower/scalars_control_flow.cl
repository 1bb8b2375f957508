// Scalars in stack slots, if/else, a for loop with break and continue, && short-circuit,
// comparisons as int 0/1.
int f(int a, uint b) {
    int s = 0;
    for (int i = 0; i < a; i++) {
        if (i == 3) continue;
        if (s > 100 && b) break;
        s += i * 2;
    }
    return s + (a < (int)b);
}
