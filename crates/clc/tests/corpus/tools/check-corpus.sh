#!/bin/sh
# Runs check-corpus (PoCL or whatever the first OpenCL platform is) over the
# corpus and reports disagreements:
#   valid/*.cl    that fail to build;
#   invalid/*.cl  that build, or whose first error is not on a line named by
#                 a `// expect-error: LINE` annotation.
# An invalid file that builds is not a disagreement when it carries a
# `// note: PoCL accepts ...` line citing the spec rule PoCL does not check.
# Also lists (as "info") annotated lines on which the reference reports no
# error, and errors on lines that are not annotated.
# Usage: tools/check-corpus.sh [-v] [FILE...]   (default: the whole corpus)
set -u
here=$(cd "$(dirname "$0")" && pwd)
corpus=$(dirname "$here")
verbose=0
if [ "${1:-}" = "-v" ]; then verbose=1; shift; fi
bin=${TMPDIR:-/tmp}/ferrocl-check-corpus.$$
trap 'rm -f "$bin"' EXIT
gcc -O1 -o "$bin" "$here/check-corpus.c" -lOpenCL || exit 2
if [ $# -eq 0 ]; then set -- "$corpus"/valid/*.cl "$corpus"/invalid/*.cl; fi

bad=0
total=0
skipped=0
permissive=0
out=$("$bin" "$@" 2>/dev/null)
status_lines=$(printf '%s\n' "$out" | grep -E '^(OK  |FAIL|SKIP) ')
while IFS= read -r line; do
    [ -n "$line" ] || continue
    total=$((total + 1))
    kind=${line%% *}
    file=$(printf '%s\n' "$line" | awk '{print $2}')
    case $kind in
    SKIP) skipped=$((skipped + 1)); [ $verbose = 1 ] && echo "$line"; continue ;;
    esac
    case $(basename "$(dirname "$file")") in
    valid)
        if [ "$kind" = FAIL ]; then
            echo "valid file fails to build: $file"
            bad=$((bad + 1))
        fi
        ;;
    invalid)
        expected=$(sed -n 's|^// expect-error: *\([0-9][0-9]*\).*|\1|p' "$file" | tr '\n' ' ')
        if [ -z "$expected" ]; then
            echo "invalid file has no expect-error annotation: $file"
            bad=$((bad + 1))
        fi
        if [ "$kind" = OK ]; then
            if grep -q '^// note: PoCL accepts' "$file"; then
                permissive=$((permissive + 1))
                [ $verbose = 1 ] && echo "known permissive: $file"
            else
                echo "invalid file builds: $file"
                bad=$((bad + 1))
            fi
            continue
        fi
        errs=$(printf '%s\n' "$line" | sed -n 's/.* errors=\([0-9,a-z]*\).*/\1/p')
        first=${errs%%,*}
        case " $expected " in
        *" $first "*) ;;
        *)
            echo "invalid file's first error is on line $first, annotated: $expected: $file"
            bad=$((bad + 1))
            ;;
        esac
        for l in $expected; do
            case ",$errs," in
            *",$l,"*) ;;
            *) echo "info: no reference error on annotated line $l: $file" ;;
            esac
        done
        for l in $(printf '%s' "$errs" | tr ',' ' '); do
            case " $expected " in
            *" $l "*) ;;
            *) echo "info: reference error on unannotated line $l: $file" ;;
            esac
        done
        ;;
    esac
done <<STATUS
$status_lines
STATUS
if [ $verbose = 1 ]; then printf '%s\n' "$out"; fi
echo "checked $total files ($skipped skipped, $permissive invalid files PoCL is known to accept), $bad disagreements"
[ $bad -eq 0 ]
