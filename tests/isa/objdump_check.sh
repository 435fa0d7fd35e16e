#!/bin/sh
# objdump_check.sh BUILD [WRAPPER...]
# The decoder against objdump (docs/isa.md, "The objdump check"): for this
# machine's libc, the 32-bit libc (/usr/lib32) when present, and a small
# program built with gcc -m32 when gcc-multilib is installed, every
# instruction objdump decodes in .text must agree with the decoder on its
# length and branch kind.  Prints one "objdump-check:" line per binary and
# exits non-zero on any disagreement or when no 32-bit binary was checked.
set -u
build=$1
shift
wrapper="$*"
check=$build/tests/objdump_check
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
checked32=0

run() { # ELF
    echo "objdump-check: $1"
    objdump -d -z --no-show-raw-insn -M att -j .text "$1" >"$tmp/listing" || { status=1; return; }
    # shellcheck disable=SC2086
    $wrapper "$check" "$1" <"$tmp/listing" || status=1
}

run /lib/x86_64-linux-gnu/libc.so.6
if [ -f /usr/lib32/libc.so.6 ]; then
    run /usr/lib32/libc.so.6
    checked32=1
fi
cat >"$tmp/sample32.c" <<'C'
#include <stdio.h>
#include <string.h>
static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
int main(int argc, char **argv)
{
    int v[64];
    double s = 0;
    for (int i = 0; i < 64; i++) { v[i] = (i * 7919) % 101; s += v[i] / 3.0; }
    qsort(v, 64, sizeof v[0], cmp);
    printf("%d %f %zu\n", v[argc], s, strlen(argv[0]));
    return 0;
}
C
if gcc -m32 -O2 -include stdlib.h -o "$tmp/sample32" "$tmp/sample32.c" 2>/dev/null; then
    run "$tmp/sample32"
    checked32=1
fi
if [ "$checked32" -eq 0 ]; then
    echo "objdump-check: no 32-bit binary (install gcc-multilib)"
    status=1
fi
exit $status
