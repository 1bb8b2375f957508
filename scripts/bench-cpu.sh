#!/bin/sh
# Builds ferrocl in release and runs `ferrocl bench` on ferrocl, PoCL and Intel's CPU OpenCL
# runtime in one run (docs/benchmarks.md). Extra arguments go to `ferrocl bench`
# (`--filter nw`, `--json`, ...).
#
# INTEL_OCL: the folder holding Intel's libintelocl.so (VENV/lib of a virtual environment with
# the PyPI packages intel-opencl-rt and intel-cmplr-lib-rt); a platform that is not installed
# shows as n/a and the run goes on.
set -eu
cd "$(dirname "$0")/.."
intel=${INTEL_OCL:-}
target=${CARGO_TARGET_DIR:-target}
cargo build --release -p ferrocl-cli -p ferrocl-icd
# The loader reads its platforms from OCL_ICD_VENDORS: the system's .icd files and one naming
# Intel's library (`ferrocl bench` adds ferrocl's own).
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
for icd in /etc/OpenCL/vendors/*.icd; do
    if [ -f "$icd" ]; then cp "$icd" "$vendors/"; fi
done
if [ -n "$intel" ] && [ -f "$intel/libintelocl.so" ]; then
    echo "$intel/libintelocl.so" >"$vendors/intel-cpu.icd"
fi
# libintelocl.so finds its own libraries (its RUNPATH is $ORIGIN); LD_LIBRARY_PATH stays as it
# is, so that the system's loader, not the one beside Intel's library, opens every platform.
OCL_ICD_VENDORS=$vendors "$target/release/ferrocl" bench --platform ferrocl --platform pocl --platform intel "$@"
