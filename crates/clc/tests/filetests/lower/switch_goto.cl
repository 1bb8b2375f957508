// switch with fallthrough and default, goto to a label.
int g(int x) {
    int r = 0;
    switch (x) {
    case 1: r = 1;
    case 2: r += 2; break;
    default: goto out;
    }
    r *= 3;
out:
    return r;
}
