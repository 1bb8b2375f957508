#!/usr/bin/env bash
# Real OpenCL clients on ferrocl and PoCL in turns (issue 28's "How it is checked"), each result
# checked before it is timed: pyvkfft's fp32 transforms (against numpy's FFT), OpenCV's T-API
# operations (against OpenCV's own CPU code), CLBlast's SGEMM and DGEMM (against a host product
# at sampled entries), and clpeak (it only measures). docs/benchmarks.md ("Real clients") has the
# table and how to read it. Exit status non-zero if any client gives a wrong result.
#
#   scripts/clients-speed.sh [LIBFERROCL] [ROUNDS]
#
# LIBFERROCL defaults to this worktree's release build; ROUNDS (default 3) is how many times the
# OpenCV and clpeak runs alternate between the two platforms (each process picks one device).
# Needs PyPI (virtual environments in the cache folder) and Debian's clpeak and libclblast-dev.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$PWD/scripts/clients
lib=${1:-$PWD/target/release/libferrocl.so}
rounds=${2:-3}
[ -f "$lib" ] || cargo build --release -p ferrocl-icd
cache=${XDG_CACHE_HOME:-$HOME/.cache}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ferrocl" "$work/pocl" "$work/both"
echo "$lib" >"$work/ferrocl/ferrocl.icd"
cp /etc/OpenCL/vendors/pocl.icd "$work/pocl/"
cp "$work/ferrocl/ferrocl.icd" "$work/pocl/pocl.icd" "$work/both/"

if ! command -v clpeak >/dev/null || [ ! -f /usr/include/clblast_c.h ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq clpeak libclblast-dev
fi
for v in ferrocl-pyvkfft ferrocl-opencv; do
    if [ ! -x "$cache/$v/venv/bin/python" ]; then python3 -m venv "$cache/$v/venv"; fi
done
"$cache/ferrocl-pyvkfft/venv/bin/python" -c 'import pyvkfft, pyopencl' 2>/dev/null ||
    "$cache/ferrocl-pyvkfft/venv/bin/pip" install -q pyopencl pyvkfft numpy
"$cache/ferrocl-opencv/venv/bin/python" -c 'import cv2' 2>/dev/null ||
    "$cache/ferrocl-opencv/venv/bin/pip" install -q opencv-python-headless numpy
bad=0

echo "== pyvkfft (VkFFT's OpenCL backend), fp32, both platforms in one process, in turns"
OCL_ICD_VENDORS=$work/both "$cache/ferrocl-pyvkfft/venv/bin/python" "$here/vkfft_speed.py" \
    ferrocl portable || bad=1

echo "== OpenCV T-API, one process per platform, $rounds rounds in turns"
for r in $(seq "$rounds"); do
    for p in ferrocl pocl; do
        echo "-- round $r, $p"
        OCL_ICD_VENDORS=$work/$p OPENCV_OPENCL_DEVICE=:CPU: \
            "$cache/ferrocl-opencv/venv/bin/python" "$here/opencv_speed.py" --reps 3 || bad=1
    done
done

echo "== CLBlast SGEMM/DGEMM (Debian's libclblast, default parameters), in turns"
cc -O2 "$here/clblast_gemm.c" -lclblast -lOpenCL -lm -o "$work/clblast_gemm"
OCL_ICD_VENDORS=$work/both "$work/clblast_gemm" -n 256 -n 1024 -r 2 ferrocl Portable || bad=1

echo "== clpeak, one process per platform, $rounds rounds in turns"
for r in $(seq "$rounds"); do
    for p in ferrocl pocl; do
        echo "-- round $r, $p"
        OCL_ICD_VENDORS=$work/$p clpeak --global-bandwidth --compute-sp --compute-dp \
            --compute-integer --compute-intfast 2>&1 | grep -E '^ +[a-z0-9]+ +: |\(G[A-Z]+\)' || true
    done
done
exit $bad
