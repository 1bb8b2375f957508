// y = a * x + y over n elements.
//   cargo run --release -p ferrocl-cli -- run examples/saxpy.cl --kernel saxpy --global 8 \
//       --arg float:2 --arg 'float[8]=iota' --arg 'float[8]=1' --print y
kernel void saxpy(float a, global const float *x, global float *y) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
