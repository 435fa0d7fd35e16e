# pmubench record --registers (docs/traces.md, "Registers"), sourced by
# run_tests.sh after tests/cli_tests.sh (its helpers expect, pass, fail,
# $tmp, $build).  A program sets known values in region 1; the dump must
# show exactly those values after those instructions, 64- and 32-bit.

expect 0 "" -- record --help
if grep -q -- '--registers' "$tmp/cli.out"; then pass; else fail "record --help does not name --registers"; fi

# reg_field LINE NAME: the value of NAME=... in a dump line.
reg_field() {
    printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# reg_check DUMP BYTES FIELDS WHAT: the region-1 instruction with code
# bytes BYTES has each NAME=VALUE of FIELDS, or WHAT fails.
reg_check() {
    line=$(sed -n '/^region begin 1$/,/^region end 1$/p' "$1" | grep -m1 " bytes $2 thread ")
    if [ -z "$line" ]; then
        fail "$4: no instruction with bytes $2 in region 1"
        return
    fi
    for want in $3; do
        got=$(reg_field "$line" "${want%%=*}")
        if [ "$got" != "${want#*=}" ]; then
            fail "$4: ${want%%=*} is '$got', expected '${want#*=}' ($line)"
            return
        fi
    done
    pass
}

cat >"$tmp/regs.c" <<'EOF'
#include "traces/pmubench_region.h"
char pmubench_buf[64];
int main(void)
{
    pmubench_region_begin(1);
#if defined(__x86_64__)
    __asm__ volatile("mov $0x1234, %%eax\n\t"
                     "mov $0x5678, %%ebx\n\t"
                     "movabs $0x123456789abcdef0, %%r9\n\t"
                     "cmp $1, %%eax\n\t"
                     "stc\n\t"
                     "std\n\t"
                     "cld\n\t"
                     "mov %0, %%rdi\n\t"
                     "mov $16, %%ecx\n\t"
                     "rep stosb\n\t"
                     : : "r"(pmubench_buf) : "rax", "rbx", "rcx", "rdi", "r9", "cc", "memory");
#else
    __asm__ volatile("mov $0x1234, %%eax\n\t"
                     "mov $0x5678, %%ebx\n\t"
                     "mov $0x9abcdef0, %%esi\n\t"
                     "cmp $1, %%eax\n\t"
                     "stc\n\t"
                     "std\n\t"
                     "cld\n\t"
                     "mov %0, %%edi\n\t"
                     "mov $16, %%ecx\n\t"
                     "rep stosb\n\t"
                     : : "r"(pmubench_buf) : "eax", "ebx", "ecx", "edi", "esi", "cc", "memory");
#endif
    pmubench_region_end(1);
    return 0;
}
EOF

if [ -x "$build/recorder/pmutrace-amd64-linux" ]; then
    for bits in 64 32; do
        [ $bits = 64 ] || [ -x "$build/recorder/pmutrace-x86-linux" ] || continue
        if ! cc -m$bits -std=gnu11 -O2 -static -I. "$tmp/regs.c" -o "$tmp/regs$bits" 2>/dev/null &&
            ! cc -m$bits -std=gnu11 -O2 -no-pie -I. "$tmp/regs.c" -o "$tmp/regs$bits" 2>/dev/null; then
            [ $bits = 64 ] && fail "cannot compile the register test program"
            continue
        fi
        # Off by default: no register records, the header says so.
        expect 0 "" -- record -o "$tmp/plain$bits.trace" -- "$tmp/regs$bits"
        trace_shows "$tmp/plain$bits.trace" "\"isa\": $bits, \"lengths_known\": true, \"registers\": false," \
            "record without --registers ($bits-bit)"
        if pmubench trace dump "$tmp/plain$bits.trace" | grep -q ' regs '; then
            fail "record without --registers ($bits-bit): the dump shows registers"; else pass; fi

        expect 0 "" -- record --registers -o "$tmp/regs$bits.trace" -- "$tmp/regs$bits"
        trace_shows "$tmp/regs$bits.trace" "\"isa\": $bits, \"lengths_known\": true, \"registers\": true," \
            "record --registers ($bits-bit)"
        # The same instructions either way (region 1's: the start-up's count
        # varies from run to run by some dozens, with or without registers).
        pmubench trace dump "$tmp/plain$bits.trace" | sed -n '/^region begin 1$/,/^region end 1$/p' |
            cut -d' ' -f2 >"$tmp/plain.region"
        pmubench trace dump "$tmp/regs$bits.trace" | sed -n '/^region begin 1$/,/^region end 1$/p' |
            cut -d' ' -f2 >"$tmp/regs.region"
        if [ "$(wc -l <"$tmp/regs.region")" -ge 12 ] && cmp -s "$tmp/plain.region" "$tmp/regs.region"; then
            pass; else fail "record --registers ($bits-bit): region 1 differs from the trace without"; fi
        pmubench trace dump "$tmp/regs$bits.trace" >"$tmp/regs.dump"
        # Every instruction but the last (the exit system call) has them.
        if [ "$(grep -c '^insn' "$tmp/regs.dump")" = "$(($(grep -c '^insn.* regs flags=' "$tmp/regs.dump") + 1))" ]; then
            pass; else fail "record --registers ($bits-bit): instructions without registers"; fi
        buf=$(nm "$tmp/regs$bits" | awk '$3 == "pmubench_buf" {print $1}')
        buf_end=$(printf '0x%x' $((0x$buf + 16)))
        if [ $bits = 64 ]; then
            a=rax b=rbx c=rcx d=rdi
            reg_check "$tmp/regs.dump" "49 b9 f0 de bc 9a 78 56 34 12" "r9=0x123456789abcdef0 rax=0x1234 rbx=0x5678" \
                "64-bit movabs"
        else
            a=eax b=ebx c=ecx d=edi
            reg_check "$tmp/regs.dump" "be f0 de bc 9a" "esi=0x9abcdef0 eax=0x1234 ebx=0x5678" "32-bit mov esi"
        fi
        what="record --registers ($bits-bit)"
        reg_check "$tmp/regs.dump" "b8 34 12 00 00" "$a=0x1234" "$what: mov \$0x1234, eax"
        reg_check "$tmp/regs.dump" "bb 78 56 00 00" "$a=0x1234 $b=0x5678" "$what: mov \$0x5678, ebx"
        # 0x1234 - 1: PF (0x33 has four bits set); bit 1 and IF always.
        reg_check "$tmp/regs.dump" "83 f8 01" "flags=0x206 $a=0x1234 $b=0x5678" "$what: cmp \$1, eax"
        reg_check "$tmp/regs.dump" "f9" "flags=0x207" "$what: stc"
        reg_check "$tmp/regs.dump" "fd" "flags=0x607" "$what: std"
        reg_check "$tmp/regs.dump" "fc" "flags=0x207" "$what: cld"
        reg_check "$tmp/regs.dump" "b9 10 00 00 00" "$c=0x10" "$what: mov \$16, ecx"
        # A REP string instruction is one record: the values after the last iteration.
        reg_check "$tmp/regs.dump" "f3 aa" "$c=0x0 $d=$buf_end $a=0x1234" "$what: rep stosb"
    done
fi

# Against the processor: a 64-bit loop (divisions, shifts, a call, popcount,
# rep movsb, adc/setc, std/cld) single-stepped natively with ptrace, the
# registers after each instruction compared with the recorded region 1.
# RSP (valgrind's stack is elsewhere), RSI, R8-R11 (left from the start-up)
# and the flags (bits the architecture leaves undefined differ: OF after
# shifts by more than 1, ZF after imul) are not compared (docs/traces.md,
# "Recording registers").
cat >"$tmp/regstep.c" <<'CEOF'
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    pid_t pid = fork();
    if (pid == 0) {
        ptrace(PTRACE_TRACEME, 0, 0, 0);
        execv(argv[1], argv + 1);
        _exit(127);
    }
    int st;
    struct user_regs_struct r;
    if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st) || ptrace(PTRACE_GETREGS, pid, 0, &r) != 0)
        return 2;
    unsigned long long prev = r.rip;
    while (ptrace(PTRACE_SINGLESTEP, pid, 0, 0) == 0 && waitpid(pid, &st, 0) == pid &&
           WIFSTOPPED(st) && ptrace(PTRACE_GETREGS, pid, 0, &r) == 0) {
        if (r.rip == prev)
            continue; /* an iteration of a REP string instruction */
        printf("0x%llx rax=0x%llx rcx=0x%llx rdx=0x%llx rbx=0x%llx rbp=0x%llx rdi=0x%llx "
               "r12=0x%llx r13=0x%llx r14=0x%llx r15=0x%llx\n", prev, r.rax, r.rcx, r.rdx,
               r.rbx, r.rbp, r.rdi, r.r12, r.r13, r.r14, r.r15);
        prev = r.rip;
    }
    return WIFEXITED(st) ? 0 : 2;
}
CEOF
cat >"$tmp/regloop.c" <<'CEOF'
#include "traces/pmubench_region.h"
static unsigned long long h(unsigned long long x) { return x * 0x9e3779b97f4a7c15ull ^ (x >> 29); }
__attribute__((noinline)) unsigned long long f(unsigned long long *a, int n)
{
    unsigned long long s = 0;
    for (int i = 0; i < n; i++) {
        s += h(a[i]) / (a[i] | 1);
        s ^= (unsigned long long)((long long)s >> 3);
        if (s & 1)
            s = (unsigned long long)__builtin_popcountll(s) + (s << 7);
        a[i] = s;
    }
    return s;
}
unsigned long long arr[64];
char src[300], dst[300];
int main(void)
{
    for (int i = 0; i < 64; i++)
        arr[i] = (unsigned long long)i * 12345;
    pmubench_region_begin(1);
    unsigned long long r = 0;
    for (int k = 0; k < 5; k++) {
        r += f(arr, 64);
        __asm__ volatile("mov %0, %%rcx\n\tand $255, %%rcx\n\tlea src(%%rip), %%rsi\n\t"
                         "lea dst(%%rip), %%rdi\n\trep movsb" : : "r"(r) : "rcx", "rsi", "rdi", "memory");
        __asm__ volatile("adc $3, %0\n\tsetc %%al\n\tmovzbl %%al, %%eax\n\tadd %%rax, %0\n\tstd\n\tcld"
                         : "+r"(r) : : "rax", "cc");
    }
    pmubench_region_end(1);
    return (int)(r & 1);
}
CEOF
if [ -x "$build/recorder/pmutrace-amd64-linux" ] &&
    cc -O2 "$tmp/regstep.c" -o "$tmp/regstep" 2>/dev/null &&
    cc -std=gnu11 -O2 -static -I. "$tmp/regloop.c" -o "$tmp/regloop" 2>/dev/null &&
    "$tmp/regstep" "$tmp/regloop" >"$tmp/regloop.native" 2>/dev/null; then
    pmubench record --registers -o "$tmp/regloop.trace" -- "$tmp/regloop" >/dev/null 2>&1
    pmubench trace dump "$tmp/regloop.trace" | sed -n '/^region begin 1$/,/^region end 1$/p' |
        sed -n 's/^insn \(0x[0-9a-f]*\) .* regs .*\( rax=[^ ]*\)\( rcx=[^ ]*\)\( rdx=[^ ]*\)\( rbx=[^ ]*\) rsp=[^ ]*\( rbp=[^ ]*\) rsi=[^ ]*\( rdi=[^ ]*\) r8=.* r11=[^ ]*\( r12=.*\)$/\1\2\3\4\5\6\7\8/p' \
        >"$tmp/regloop.recorded"
    n=$(wc -l <"$tmp/regloop.recorded")
    first=$(head -1 "$tmp/regloop.recorded" | cut -d' ' -f1)
    awk -v first="$first" '$1 == first { on = 1 } on' "$tmp/regloop.native" | head -n "$n" >"$tmp/regloop.expected"
    if [ "$n" -ge 10000 ] && cmp -s "$tmp/regloop.expected" "$tmp/regloop.recorded"; then
        pass
    else
        fail "record --registers against ptrace single-stepping: $n instructions; first difference: $(diff "$tmp/regloop.expected" "$tmp/regloop.recorded" | head -3 | tr '\n' ' ')"
    fi
fi
