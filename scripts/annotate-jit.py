#!/usr/bin/env python3
"""Per-instruction profile of one ferrocl kernel's generated code.

    FERROCL_CODE_DIR=/tmp/code perf record -o perf.data PROGRAM ...
        (stderr shows "ferrocl: kernel NAME at START, LEN bytes" for each kernel built)
    scripts/annotate-jit.py perf.data START /tmp/code/NAME.bin | sort -rn | head -40

prints every instruction of the disassembled kernel with the number of samples taken at its
address (the first line: the total in the kernel). Samples land on the instruction after the
one that stalled more often than not.
"""
import collections
import os
import re
import subprocess
import sys


def main():
    data, start, code = sys.argv[1], int(sys.argv[2], 16), sys.argv[3]
    size = os.path.getsize(code)
    ips = subprocess.run(["perf", "script", "-i", data, "-F", "ip"],
                         capture_output=True, text=True, check=True).stdout.split()
    counts = collections.Counter(int(ip, 16) - start for ip in ips
                                 if start <= int(ip, 16) < start + size)
    print("samples", sum(counts.values()))
    dis = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", code],
                         capture_output=True, text=True, check=True).stdout
    for line in dis.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(.*)", line)
        if m:
            offset = int(m.group(1), 16)
            print(f"{counts.get(offset, 0):6d} {offset:5x} {m.group(2)}")


if __name__ == "__main__":
    main()
