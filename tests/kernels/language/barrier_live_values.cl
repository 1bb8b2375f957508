// Values live across barriers in a loop, in 2-D groups of 6 by 3 (a chunk of 4 and two
// work-items alone per row when vectorized): a pointer computed from the local ids (computed
// again in each region rather than kept), a loop counter that is the same for the whole group
// and changes in the region that reads it (one copy for the group, read before the region's
// rows run), and a per-work-item accumulator.
// local-sizes: fixed: values computed from the local ids and shared in __local memory
// run: --kernel steps --global 12,6 --local 6,3 --arg 'int[72]' --arg local:72
// expect out: 189 239 267 287 337 395 289 339 367 387 437 495 289 309 337 387 377 375 389 409 437 487 477 475 269 289 287 307 357 355 369 389 387 407 457 455 199 249 277 297 347 405 299 349 377 397 447 505 299 319 347 397 387 385 399 419 447 497 487 485 279 299 297 317 367 365 379 399 397 417 467 465
kernel void steps(global int *out, local int *t) {
    int lx = get_local_id(0), ly = get_local_id(1);
    int w = get_local_size(0), n = w * get_local_size(1);
    local int *mine = t + ly * w + lx;
    int base = get_group_id(0) * 100 + get_group_id(1) * 10;
    *mine = lx + 10 * ly;
    barrier(CLK_LOCAL_MEM_FENCE);
    int acc = 0;
    for (int s = 1; s < 20; s = s * 2 + 1) {
        int other = t[(ly * w + lx + s) % n];
        barrier(CLK_LOCAL_MEM_FENCE);
        *mine += other + s;
        acc += s * lx;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = *mine + acc + base;
}
