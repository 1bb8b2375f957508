// A 5-point stencil whose border work-items take another branch (`x == 0 || x == e`,
// `y == 0 || y == h - 1`), over rows of 42 in two groups of 21 along x (two chunks of 8 and
// a tail each): a border at the start of a chunk (x = 0) and one inside a chunk (e = 27, in
// the chunk from 21), and rows that are all border. The chunks between the borders run a
// copy of the loop without the tests (`passes::split`), the others the loop with them.
// run: --kernel borders --global 42,5 --local 21,5 --arg 'int[210]' --arg int:42 --arg int:27 --arg int:5
// expect out: -1 -2 -3 -4 -5 -6 -7 -8 -9 -10 -11 -12 -13 -14 -15 -16 -17 -18 -19 -20 -21 -22 -23 -24 -25 -26 -27 -28 -29 -30 -31 -32 -33 -34 -35 -36 -37 -38 -39 -40 -41 -42 -43 442 308 293 688 620 574 550 548 568 319 189 275 286 125 277 451 453 380 523 494 584 890 345 501 582 685 -70 375 641 832 560 795 276 652 856 403 748 630 825 460 311 -85 273 772 711 478 849 660 493 348 710 609 530 182 147 134 628 659 712 496 593 712 853 531 716 826 279 336 -112 516 833 687 563 364 769 808 287 758 669 699 654 243 436 -127 597 662 361 955 601 366 541 447 666 519 297 97 404 442 308 293 688 620 574 550 548 568 319 189 275 286 -154 277 451 453 380 523 494 584 890 345 501 582 685 325 375 -169 -170 -171 -172 -173 -174 -175 -176 -177 -178 -179 -180 -181 -182 -183 -184 -185 -186 -187 -188 -189 -190 -191 -192 -193 -194 -195 -196 -197 -198 -199 -200 -201 -202 -203 -204 -205 -206 -207 -208 -209 -210
int v(int i) { return (i * i) % 97; }

kernel void borders(global int *out, int w, int e, int h) {
    int x = get_global_id(0), y = get_global_id(1);
    int i = y * w + x;
    if (x == 0 || y == 0 || x == e || y == h - 1)
        out[i] = -1 - i;
    else
        out[i] = v(i - 1) + 2 * v(i + 1) + 3 * v(i - w) + 5 * v(i + w);
}
