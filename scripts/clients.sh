#!/usr/bin/env bash
# Real clients that check results, against the library: PyOpenCL's own test suite
# (results checked against numpy) and OpenCV's T-API reproducer of the integral kernels. Each
# is set up once in a cache folder (needs PyPI), then run; the exit status is non-zero if any
# client gives a wrong result or fails. The clients live beside the repository, in
# ../shared/clients (see its README).
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${FERROCL_CLIENTS:-../shared/clients}
# The library of the workspace's debug build (the one `cargo test --workspace` made: debug
# assertions on, the compiler and code generator optimized), or with --release the release one.
profile=debug
build=(cargo build -p ferrocl-icd)
if [ "${1:-}" = --release ]; then
    profile=release
    build+=(--release)
fi
"${build[@]}"
lib=$PWD/target/$profile/libferrocl.so

# OpenCV: a virtual environment with opencv-python-headless, and an ICD vendors directory that
# names ferrocl alone (Debian's ocl-icd, which OpenCV's wheel loads, reads OCL_ICD_VENDORS).
cache=${XDG_CACHE_HOME:-$HOME/.cache}/ferrocl-opencv
if [ ! -x "$cache/venv/bin/python" ] || ! "$cache/venv/bin/python" -c 'import cv2' 2>/dev/null; then
    python3 -c 'import venv, ensurepip' 2>/dev/null || {
        export DEBIAN_FRONTEND=noninteractive; apt-get update -qq; apt-get install -y -qq python3-venv; }
    python3 -m venv "$cache/venv"
    "$cache/venv/bin/pip" install -q opencv-python-headless numpy
fi
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
echo "$lib" >"$vendors/ferrocl.icd"
# OpenCV falls back to its own CPU code where it finds no OpenCL device: make sure it took
# ferrocl's, or the comparisons below would check nothing.
OCL_ICD_VENDORS="$vendors" OPENCV_OPENCL_DEVICE=:CPU: "$cache/venv/bin/python" -c '
import cv2, sys
d = cv2.ocl.Device.getDefault()
ok = cv2.ocl.haveOpenCL() and cv2.ocl.useOpenCL() and "ferrocl" in d.version()
sys.exit(0 if ok else "OpenCV does not use ferrocl (device %r, version %r)" % (d.name(), d.version()))'
echo "OpenCV T-API on ferrocl's CPU device (one core, then all):"
for cores in one all; do
    run=(env OCL_ICD_VENDORS="$vendors" OPENCV_OPENCL_DEVICE=:CPU: OPENCV_OPENCL_BUFFERPOOL_LIMIT=0
         "$cache/venv/bin/python" "$clients/opencv-integral/repro.py")
    if [ $cores = one ]; then run=(taskset -c 0 "${run[@]}"); fi
    "${run[@]}"
done

# PyOpenCL's 308 tests; the runner's last line is "N passed, M failed". Less one:
# test_wrapper.py::test_get_info, on a device with images, reads `img.image.depth`, an attribute
# this PyOpenCL's Image no longer has (AttributeError in the test itself, before any OpenCL call;
# the test leaves that branch out for PoCL and Intel's runtime by their vendor names).
"$clients/pyopencl/setup"
"$clients/pyopencl/run" --icd "$lib" -- --deselect=test_wrapper.py::test_get_info
