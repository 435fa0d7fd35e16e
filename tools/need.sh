#!/bin/sh
# need.sh CAPABILITY...
# need.sh --try CAPABILITY     exit status 0 when it works; installs nothing
#
# Tries each capability the build needs by doing it (compiling and linking
# a small program, running a tool), never by looking for a file that
# another package may ship.  When some are missing it installs their Debian
# packages with apt-get as root, then tries them again; as any other user it
# prints the one `apt-get install` line that provides them all and fails.
#
# Capabilities (the package that provides each):
#   capstone   C programs link with -lcapstone              libcapstone-dev
#   cmocka     C programs link with -lcmocka                libcmocka-dev
#   libpfm4    C programs link with -lpfm                   libpfm4-dev
#   m32        $CC -m32 -static links a 32-bit C program    gcc-multilib
#              that includes <errno.h> (<asm/errno.h>: gcc-multilib's
#              /usr/include/asm link)
#              (make M32=no builds without 32-bit programs)
#   i386       the kernel runs i386 programs                (none: a kernel
#              built or booted without IA-32 emulation runs none, and the
#              Makefile then builds as with M32=no)
#   objdump    objdump runs                                 binutils
#   valgrind   valgrind runs and its tool libraries link    valgrind
#   clang      clang compiles C                             clang
#   asan       clang links with ASan and UBSan              libclang-rt-dev
#   fuzzer     clang links a libFuzzer target               libclang-rt-dev
#   time       /usr/bin/time runs a program                 time
#   rsvg       rsvg-convert renders an SVG to PNG           librsvg2-bin
#   libpng     C programs link with -lpng                   libpng-dev
#   parallel   GNU parallel runs (not moreutils' parallel)  parallel
#   msrtools   msr-tools' rdmsr and wrmsr run               msr-tools
set -eu
CC=${CC:-cc}
VG_LIBDIR=${VG_LIBDIR:-/usr/lib/x86_64-linux-gnu/valgrind}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Compiles stdin as C with the compiler command $1 (split at spaces, as
# make splits CC="ccache gcc") and links it, with the options and
# libraries after it; quiet either way.
links() {
    cat >"$work/t.c"
    compiler=$1
    shift
    # shellcheck disable=SC2086
    $compiler -o "$work/t" "$work/t.c" "$@" >/dev/null 2>&1
}

# Runs a 93-byte i386 ELF executable (one PT_LOAD segment whose code is
# `mov $1, %eax; xor %ebx, %ebx; int $0x80`, the i386 exit system call)
# written here byte by byte, so that the test needs no 32-bit compiler or
# library.  Exit status 0 when it ran and exited 0 (or when no program can
# run from the scratch folder).
runs_i386() {
    printf '\177ELF\001\001\001\000\000\000\000\000\000\000\000\000' >"$work/i386"
    printf '\002\000\003\000\001\000\000\000\124\200\004\010\064\000\000\000' >>"$work/i386"
    printf '\000\000\000\000\000\000\000\000\064\000\040\000\001\000\000\000' >>"$work/i386"
    printf '\000\000\000\000\001\000\000\000\000\000\000\000\000\200\004\010' >>"$work/i386"
    printf '\000\200\004\010\135\000\000\000\135\000\000\000\005\000\000\000' >>"$work/i386"
    printf '\000\020\000\000\270\001\000\000\000\061\333\315\200' >>"$work/i386"
    chmod +x "$work/i386"
    # A folder whose programs cannot run (mounted noexec) says nothing of
    # the kernel: taken as yes, as if the kernel ran it.
    cp "$(command -v env)" "$work/env" && "$work/env" true || return 0
    "$work/i386" >/dev/null 2>&1
}

# $CC is split at spaces on purpose (see links).
# shellcheck disable=SC2086
try() {
    case $1 in
        capstone) printf '#include <capstone/capstone.h>\nint main(void){csh h;return cs_open(CS_ARCH_X86,CS_MODE_32,&h)!=CS_ERR_OK;}\n' \
                      | links "$CC" -lcapstone ;;
        cmocka) printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\nstatic void t(void **s){(void)s;}\nint main(void){const struct CMUnitTest ts[]={cmocka_unit_test(t)};return cmocka_run_group_tests(ts,NULL,NULL);}\n' \
                    | links "$CC" -lcmocka ;;
        libpfm4) printf '#include <perfmon/pfmlib.h>\nint main(void){return pfm_initialize()!=PFM_SUCCESS;}\n' \
                     | links "$CC" -lpfm ;;
        m32) printf '#include <errno.h>\n#include <stdio.h>\nint main(void){return getc(stdin)==-2?EIO:0;}\n' \
                 | links "$CC" -m32 -static ;;
        i386) runs_i386 ;;
        objdump) objdump --version >/dev/null 2>&1 ;;
        valgrind) valgrind --version >/dev/null 2>&1 &&
                  printf '#include <valgrind/pub_tool_basics.h>\n' >"$work/v.c" &&
                  $CC -DVGA_amd64=1 -DVGP_amd64_linux=1 -DVGO_linux=1 -fsyntax-only "$work/v.c" \
                      >/dev/null 2>&1 &&
                  [ -r "$VG_LIBDIR/libcoregrind-amd64-linux.a" ] ;;
        clang) printf 'int main(void){return 0;}\n' | links clang ;;
        asan) printf 'int main(void){return 0;}\n' | links clang -fsanitize=address,undefined ;;
        fuzzer) printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n){(void)d;(void)n;return 0;}\n' \
                    | links clang -fsanitize=fuzzer ;;
        time) /usr/bin/time true >/dev/null 2>&1 ;;
        rsvg) printf '<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>\n' >"$work/t.svg" &&
              rsvg-convert -f png -o "$work/t.png" "$work/t.svg" >/dev/null 2>&1 ;;
        libpng) printf '#include <png.h>\nint main(void){return png_access_version_number()==0;}\n' \
                    | links "$CC" -lpng ;;
        parallel) parallel --version 2>/dev/null | head -1 | grep -q '^GNU parallel' ;;
        msrtools) rdmsr --version >/dev/null 2>&1 && wrmsr --version >/dev/null 2>&1 ;;
        *) echo "need.sh: unknown capability '$1'" >&2; exit 2 ;;
    esac
}

package() {
    case $1 in
        capstone) echo libcapstone-dev ;;
        cmocka) echo libcmocka-dev ;;
        libpfm4) echo libpfm4-dev ;;
        m32) echo gcc-multilib ;;
        objdump) echo binutils ;;
        valgrind) echo valgrind ;;
        clang) echo clang ;;
        asan | fuzzer) echo libclang-rt-dev ;;
        time) echo time ;;
        rsvg) echo librsvg2-bin ;;
        libpng) echo libpng-dev ;;
        parallel) echo parallel ;;
        msrtools) echo msr-tools ;;
    esac
}

# The missing capabilities among "$@", as a list.
missing() {
    for capability; do
        try "$capability" || printf ' %s' "$capability"
    done
}

# The packages of the capabilities given, each once.
packages() {
    for capability; do package "$capability"; done | awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//'
}

if [ "${1:-}" = --try ]; then
    try "$2"
    exit
fi
absent=$(missing "$@")
[ -z "$absent" ] && exit 0
# shellcheck disable=SC2086 # word splitting of the lists is wanted
wanted=$(packages $absent)
hint=
case " $absent " in *" m32 "*) hint=" (or build without 32-bit programs: make M32=no ...)" ;; esac
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "missing:$absent; install them with: sudo apt-get update && sudo apt-get install -y $wanted$hint" >&2
    exit 1
fi
echo "installing $wanted (for:$absent)" >&2
DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $wanted >&2
# shellcheck disable=SC2086
still=$(missing $absent)
if [ -n "$still" ]; then
    echo "need.sh: installed $wanted, but still missing:$still$hint" >&2
    exit 1
fi
