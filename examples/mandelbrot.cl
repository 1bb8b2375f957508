// The Mandelbrot set on a width x height grid: each work-item iterates one point and stores
// its escape count. Run it with:
//   cargo run --release -p ferrocl-cli -- run examples/mandelbrot.cl --kernel mandelbrot \
//       --global 64,24 --arg 'uint[1536]' --arg int:64 --arg int:255 --print 0
kernel void mandelbrot(global uint *out, int width, int max_iter) {
    int x = get_global_id(0), y = get_global_id(1);
    int height = get_global_size(1);
    float cr = -2.2f + 3.0f * x / width;
    float ci = -1.2f + 2.4f * y / height;
    float zr = 0.0f, zi = 0.0f;
    int i = 0;
    while (i < max_iter && zr * zr + zi * zi < 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        i++;
    }
    out[y * width + x] = i;
}
