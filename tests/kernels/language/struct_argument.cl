// A struct passed by value: every work-item gets the argument as set, even when work-items
// before it in its group wrote to their own parameter (C99 6.9.1p9: a parameter is an object
// of the function). 64 work-items in groups of 16, out[i] = 7 + 2 * i.
// run: --kernel use_params --global 64 --local 16 --arg '{int:7,float:2,int:0,int:0}' --arg 'int[64]'
// expect out: 7 9 11 13 15 17 19 21 23 25 27 29 31 33 35 37 39 41 43 45 47 49 51 53 55 57 59 61 63 65 67 69 71 73 75 77 79 81 83 85 87 89 91 93 95 97 99 101 103 105 107 109 111 113 115 117 119 121 123 125 127 129 131 133
typedef struct { int base; float scale; int pad[2]; } params;
kernel void use_params(params p, global int *out) {
    int i = get_global_id(0);
    out[i] = p.base + (int)(p.scale * i);
    p.base += 1000;
    p.scale = -1.0f;
}
