"""pyvkfft (VkFFT's OpenCL backend) on two OpenCL platforms in turns: each transform's result
checked against numpy's FFT in double, then its time per transform (best of REPS batches).

Usage: python vkfft_speed.py [--reps N] [--double] PLATFORM_SUBSTRING...
Prints one line per (transform, platform): the relative L2 error, and the time in ms; exits 1
if any error is above the tolerance.
"""
import argparse
import sys
import time

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
from pyvkfft.opencl import VkFFTApp

# The fp32 transforms (issue 28): name, shape, ndim, r2c.
CASES = [
    ("c2c 4096", (4096,), 1, False),
    ("c2c 64x1024 batched", (64, 1024), 1, False),
    ("c2c 256x256", (256, 256), 2, False),
    ("r2c 512x512", (512, 512), 2, True),
]


def device(name):
    for p in cl.get_platforms():
        if name.lower() in p.name.lower():
            return p.get_devices()[0]
    sys.exit("no platform named %r" % name)


def setup(queue, shape, ndim, r2c, dtype):
    rng = np.random.default_rng(7)
    if r2c:
        x = rng.standard_normal(shape).astype(dtype)
        ref = np.fft.rfftn(x.astype(np.float64), axes=tuple(range(-ndim, 0)))
        cdt = np.complex64 if dtype == np.float32 else np.complex128
        out = cla.empty(queue, shape[:-1] + (shape[-1] // 2 + 1,), cdt)
    else:
        x = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
        ref = np.fft.fftn(x.astype(np.complex128), axes=tuple(range(-ndim, 0)))
        out = cla.empty(queue, shape, dtype)
    src = cla.to_device(queue, x)
    app = VkFFTApp(shape, dtype, queue, ndim=ndim, inplace=False, r2c=r2c, norm=1)
    return app, src, out, ref


def timed(queue, app, src, out, n):
    app.fft(src, out)
    queue.finish()
    t = time.perf_counter()
    for _ in range(n):
        app.fft(src, out)
    queue.finish()
    return (time.perf_counter() - t) / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--double", action="store_true")
    ap.add_argument("platforms", nargs="+")
    a = ap.parse_args()
    contexts = {p: cl.Context([device(p)]) for p in a.platforms}
    queues = {p: cl.CommandQueue(c) for p, c in contexts.items()}
    bad = 0
    for name, shape, ndim, r2c in CASES:
        if a.double:
            dtype = np.float64 if r2c else np.complex128
            tol = 1e-12
        else:
            dtype = np.float32 if r2c else np.complex64
            tol = 1e-5
        st = {p: setup(q, shape, ndim, r2c, dtype) for p, q in queues.items()}
        best = {p: float("inf") for p in queues}
        for p, q in queues.items():
            app, src, out, ref = st[p]
            app.fft(src, out)
            err = np.linalg.norm(out.get() - ref) / np.linalg.norm(ref)
            ok = err < tol
            bad += not ok
            st[p] = (app, src, out, err, ok)
        # Enough transforms per batch for about 50 ms on the slower platform.
        n = max(1, int(0.05 / max(timed(q, st[p][0], st[p][1], st[p][2], 1)
                                  for p, q in queues.items())))
        for _ in range(a.reps):
            for p, q in queues.items():
                best[p] = min(best[p], timed(q, st[p][0], st[p][1], st[p][2], n))
        for p in queues:
            print("%-22s %-10s err %.1e %-5s %9.3f ms" % (
                name, p, st[p][3], "ok" if st[p][4] else "WRONG", best[p] * 1e3))
        sys.stdout.flush()
    sys.exit(1 if bad else 0)


main()
