"""OpenCV's T-API (opencv-python-headless) on the OpenCL device that OPENCV_OPENCL_DEVICE and
OCL_ICD_VENDORS select: issue 28's slowest operations, each result compared with OpenCV's own
CPU code (OpenCL off), then timed (best of REPS batches of N calls, ending with
cv2.ocl.finish()).

Usage: python opencv_speed.py [--reps N] [--json FILE]
Prints one line per operation: the largest difference from the CPU result, whether it is within
the operation's tolerance, and the time in ms; exits 1 if any operation is wrong.
"""
import argparse
import json
import sys
import time

import cv2
import numpy as np

H, W = 720, 1280
rng = np.random.default_rng(5)
yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
smooth = 128 + 60 * np.sin(xx / 37.0) * np.cos(yy / 23.0)
u8 = np.clip(smooth + rng.normal(0, 20, (H, W)), 0, 255).astype(np.uint8)
u8b = np.clip(255 - smooth + rng.normal(0, 30, (H, W)), 0, 255).astype(np.uint8)
u8c3 = np.ascontiguousarray(np.dstack([u8, u8b, np.roll(u8, 5, axis=1)]))
f32 = (rng.standard_normal((H, W)) * 2).astype(np.float32)
f32pos = (rng.random((H, W)) * 100 + 1e-3).astype(np.float32)
# DIS optical flow: a smooth textured frame and the same frame shifted by (2, 1) pixels.
tex = cv2.GaussianBlur(u8, (5, 5), 1.5)
tex2 = np.roll(np.roll(tex, 2, axis=1), 1, axis=0)
dis = cv2.DISOpticalFlow_create(cv2.DISOPTICAL_FLOW_PRESET_MEDIUM)
kx = cv2.getGaussianKernel(9, 2.0).astype(np.float32)

# name, function of the array converter, tolerance (largest absolute difference allowed; for
# floats relative to the reference's magnitude: |a-b| <= tol * max(1, |b|)).
OPS = [
    ("threshold u8", lambda c: cv2.threshold(c(u8), 127, 255, cv2.THRESH_BINARY)[1], 0),
    ("pyrDown u8c3", lambda c: cv2.pyrDown(c(u8c3)), 1),
    ("pyrUp u8", lambda c: cv2.pyrUp(c(u8)), 1),
    ("exp f32", lambda c: cv2.exp(c(f32)), 1e-5),
    ("log f32", lambda c: cv2.log(c(f32pos)), 1e-5),
    ("absdiff u8", lambda c: cv2.absdiff(c(u8), c(u8b)), 0),
    ("subtract u8", lambda c: cv2.subtract(c(u8), c(u8b)), 0),
    ("divide u8", lambda c: cv2.divide(c(u8), c(u8b)), 1),
    ("addWeighted u8", lambda c: cv2.addWeighted(c(u8), 0.3, c(u8b), 0.7, 5), 1),
    ("min u8", lambda c: cv2.min(c(u8), c(u8b)), 0),
    ("bitwise_and u8", lambda c: cv2.bitwise_and(c(u8), c(u8b)), 0),
    ("bitwise_xor u8", lambda c: cv2.bitwise_xor(c(u8), c(u8b)), 0),
    ("sepFilter2D f32", lambda c: cv2.sepFilter2D(c(f32), -1, kx, kx), 1e-4),
    ("GaussianBlur 9x9 f32", lambda c: cv2.GaussianBlur(c(f32), (9, 9), 2.0), 1e-4),
    # OpenCV's OpenCL DIS is its own implementation; its flow is compared by the mean
    # end-point difference from the CPU flow (pixels).
    ("DISOpticalFlow", lambda c: dis.calc(c(tex), c(tex2), None), 0.25),
]


def get(x):
    return x.get() if isinstance(x, cv2.UMat) else x


def diff(name, got, ref):
    got = get(got).astype(np.float64)
    ref = ref.astype(np.float64)
    if got.shape != ref.shape:
        return float("inf")
    if name == "DISOpticalFlow":
        return float(np.mean(np.hypot(*(got - ref).reshape(-1, 2).T)))
    d = np.abs(got - ref)
    if ref.dtype == np.float64 and np.issubdtype(get(ref).dtype, np.floating):
        pass
    return float(np.max(d / np.maximum(1.0, np.abs(ref))) if "f32" in name else np.max(d))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--json")
    ap.add_argument("--only", help="comma-separated substrings of operation names")
    a = ap.parse_args()
    dev = cv2.ocl.Device.getDefault()
    if not (cv2.ocl.haveOpenCL() and cv2.ocl.useOpenCL()):
        sys.exit("OpenCV found no OpenCL device")
    print("# device %r, %r" % (dev.name(), dev.version()))
    ops = OPS
    if a.only:
        keys = a.only.split(",")
        ops = [o for o in OPS if any(k in o[0] for k in keys)]
    out = {}
    bad = 0
    for name, f, tol in ops:
        cv2.ocl.setUseOpenCL(False)
        ref = f(lambda x: x)
        cv2.ocl.setUseOpenCL(True)
        got = f(cv2.UMat)
        cv2.ocl.finish()
        d = diff(name, got, ref)
        ok = d <= tol
        bad += not ok
        t0 = time.perf_counter()
        f(cv2.UMat)
        cv2.ocl.finish()
        one = time.perf_counter() - t0
        n = max(1, int(0.05 / max(one, 1e-6)))
        best = float("inf")
        for _ in range(a.reps):
            t0 = time.perf_counter()
            for _ in range(n):
                f(cv2.UMat)
            cv2.ocl.finish()
            best = min(best, (time.perf_counter() - t0) / n)
        out[name] = {"ms": best * 1e3, "diff": d, "ok": ok}
        print("%-22s diff %.2g %-5s %9.3f ms" % (name, d, "ok" if ok else "WRONG", best * 1e3))
        sys.stdout.flush()
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(out, fh)
    sys.exit(1 if bad else 0)


main()
