# pmubench sample's symbols (docs/sample.md), sourced by run_tests.sh after
# tests/cli_tests.sh (its helpers expect, pass, fail, $tmp, $build).  A
# small assembly program, static and without libc so that its trace is the
# same on every run, is recorded as an executable (ET_EXEC) and as a
# static position-independent one; the sample lines must name its
# symbols, the same in both.  Make paper's programs are checked by
# tests/cli_paper.sh and traces/paper/paper.sh.

expect_usage "pmubench sample: --symbols and --no-symbols: one or the other" -- \
    sample -e global_power_events:RUNNING --period 9 --symbols x --no-symbols --trace t
expect_usage "pmubench sample: --symbols needs a value" -- \
    sample -e global_power_events:RUNNING --period 9 --trace t --symbols

# same FILE WANT WHAT: FILE holds exactly WANT, or WHAT fails.
same() {
    if [ "$(cat "$1")" = "$2" ]; then pass; else fail "$3: $(diff -u - "$1" <<EOF
$2
EOF
)"; fi
}

s=$tmp/sample
mkdir -p "$s"
# _start sets its own stack (so that ESP does not depend on the
# environment), then work loads 16 new cache lines at miss_load and spin
# runs a one-instruction loop 3000 times, then 64 NOPs.
cat >"$s/prog.S" <<'EOF'
    .text
    .globl _start
_start:
    lea stack_top(%rip), %rsp
    call work
    call spin
    mov $60, %eax
    xor %edi, %edi
    syscall

    .globl work
    .type work, @function
work:
    lea buffer(%rip), %rsi
    mov $16, %ecx
    .globl miss_load
miss_load:
    mov (%rsi), %rax
    add $64, %rsi
    dec %ecx
    jnz miss_load
    ret
    .size work, . - work

    .type spin, @function
spin:
    mov $3000, %ecx
1:  loop 1b
    .rept 64
    nop
    .endr
    ret
    .size spin, . - spin

    .bss
    .type buffer, @object
    .size buffer, 1024
buffer:
    .zero 1280
stack_top:
EOF
# prog2 starts with a NOP: other code at the same entry point.
sed 's/^_start:$/_start:\n    nop/' "$s/prog.S" >"$s/prog2.S"

if [ -x "$build/recorder/pmutrace-amd64-linux" ] &&
    cc -nostdlib -static -no-pie -o "$s/prog" "$s/prog.S" >"$s/cc.out" 2>&1 &&
    cc -nostdlib -static-pie -o "$s/prog_pie" "$s/prog.S" >>"$s/cc.out" 2>&1 &&
    cc -nostdlib -static -no-pie -o "$s/prog2" "$s/prog2.S" >>"$s/cc.out" 2>&1; then
    pebs="--pebs 1stL_cache_load_miss_retired --period 4"
    expect 0 "" -- record --registers -o "$s/prog.trace" -- "$s/prog"
    expect 0 "" -- record --registers -o "$s/prog_pie.trace" -- "$s/prog_pie"

    # PEBS: every fourth L1 miss, three at miss_load and one at spin's RET
    # (the return address's line); the records name the symbols.  The run's
    # cycles are mostly spin's 3000 LOOPs chained through ECX at LOOP's
    # 8 cycles (Intel's 0F2n row), and four PEBS assists (218 cycles more
    # than the three of the run below).
    # Northwood has no EM64T: 32-bit records of a 64-bit trace.
    expect 0 "" -- sample $pebs --trace "$s/prog.trace" -o "$s/prog.pebs"
    same "$s/prog.pebs" "symbols $s/prog base 0x0
pebs eip=0x401026 <miss_load> eflags=0x206 eax=0x0 ebx=0x0 ecx=0xc edx=0x0 esi=0x402100 edi=0x0 ebp=0x0 esp=0x4024f8
pebs eip=0x401026 <miss_load> eflags=0x202 eax=0x0 ebx=0x0 ecx=0x8 edx=0x0 esi=0x402200 edi=0x0 ebp=0x0 esp=0x4024f8
pebs eip=0x401026 <miss_load> eflags=0x202 eax=0x0 ebx=0x0 ecx=0x4 edx=0x0 esi=0x402300 edi=0x0 ebp=0x0 esp=0x4024f8
pebs eip=0x401079 <spin+0x47> eflags=0x246 eax=0x0 ebx=0x0 ecx=0x0 edx=0x0 esi=0x402400 edi=0x0 ebp=0x0 esp=0x4024f8
by-symbol 3 75.0% miss_load
by-symbol 1 25.0% spin
samples 4 instructions 3139 cycles 25501" "sample --pebs with symbols"

    # The same program position-independent: valgrind loads it at a page
    # boundary, which the trace's run of the entry point's code gives;
    # the same symbols at the same offsets.
    expect 0 "" -- sample $pebs --trace "$s/prog_pie.trace" -o "$s/prog_pie.pebs"
    base=$(sed -n "s|^symbols $s/prog_pie base \(0x[0-9a-f]*000\)$|\1|p" "$s/prog_pie.pebs")
    if [ -n "$base" ] && [ "$((base))" -gt 0 ] &&
        [ "$(sed 1d "$s/prog_pie.pebs" | sed 's/ <.*//' | head -1)" = "pebs eip=0x$(printf %x $((base + 0x1026)))" ] &&
        [ "$(sed -e 1d -e 's/^.* </</' -e 's/> .*//' "$s/prog_pie.pebs")" = \
          "$(sed -e 1d -e 's/^.* </</' -e 's/> .*//' "$s/prog.pebs")" ]; then
        pass; else fail "sample --pebs of the PIE: $(cat "$s/prog_pie.pebs")"; fi

    # PEBS on 2ndL_cache_load_miss_retired, every second L2 miss: the L2
    # misses are the loads of each 128-byte line's first sector (every
    # other miss_load), the records the 3rd, 5th and 7th; spin's RET reads
    # a line the call's store brought into the L2, no record there.
    expect 0 "" -- sample --pebs 2ndL_cache_load_miss_retired --period 2 --trace "$s/prog.trace"
    same "$tmp/cli.out" "symbols $s/prog base 0x0
pebs eip=0x401026 <miss_load> eflags=0x206 eax=0x0 ebx=0x0 ecx=0xc edx=0x0 esi=0x402100 edi=0x0 ebp=0x0 esp=0x4024f8
pebs eip=0x401026 <miss_load> eflags=0x202 eax=0x0 ebx=0x0 ecx=0x8 edx=0x0 esi=0x402200 edi=0x0 ebp=0x0 esp=0x4024f8
pebs eip=0x401026 <miss_load> eflags=0x202 eax=0x0 ebx=0x0 ecx=0x4 edx=0x0 esi=0x402300 edi=0x0 ebp=0x0 esp=0x4024f8
by-symbol 3 100.0% miss_load
samples 3 instructions 3139 cycles 25283" "sample --pebs 2ndL_cache_load_miss_retired"

    # IEBS: every 1000 cycles; the model samples the LOOP at spin+0x5 each
    # time (the cycles are the timing model's, not checked here).
    expect 0 "" -- sample -e global_power_events:RUNNING --period 1000 --trace "$s/prog.trace" -o "$s/prog.iebs"
    n=$(grep -c '^sample ' "$s/prog.iebs")
    if [ "$(sed -n '/^sample /s/ cycle [0-9]* / cycle C /p' "$s/prog.iebs" | sort -u)" = \
        "sample thread 0 cycle C eip 0x401037 <spin+0x5> precise 0" ] && [ "$n" -ge 10 ] &&
        [ "$(head -1 "$s/prog.iebs")" = "symbols $s/prog base 0x0" ] &&
        [ "$(sed -n '/^by-symbol /p' "$s/prog.iebs")" = "by-symbol $n 100.0% spin" ] &&
        tail -1 "$s/prog.iebs" | grep -q "^samples $n instructions 3139 cycles [0-9]*$"; then
        pass; else fail "sample -e with symbols: $(cat "$s/prog.iebs")"; fi

    # --plot: the same output, and the histogram as one bar per symbol
    # (docs/sample.md, "The picture"): spin's, its count at its end.
    expect 0 "" -- sample -e global_power_events:RUNNING --period 1000 --trace "$s/prog.trace" \
        --plot "$s/prog.svg"
    svg_renders "$s/prog.svg" "sample --plot" 4e79a7
    if diff -u "$s/prog.iebs" "$tmp/cli.out" >/dev/null && grep -q '>spin</text>' "$s/prog.svg" &&
        grep -q "font-size=\"10\">$n</text>" "$s/prog.svg"; then
        pass; else fail "sample --plot: $(cat "$s/prog.svg")"; fi
    expect 2 "pmubench sample: --plot '$s/prog' and --symbols '$s/prog' are the same file" -- \
        sample -e global_power_events:RUNNING --period 1000 --trace "$s/prog.trace" \
        --symbols "$s/prog" --plot "$s/prog"
    expect 1 "pmubench sample: $s/no/x.svg: cannot create: No such file or directory" -- \
        sample -e global_power_events:RUNNING --period 1000 --trace "$s/prog.trace" --plot "$s/no/x.svg"

    # --no-symbols: the same lines without the symbols and the histogram.
    expect 0 "" -- sample -e global_power_events:RUNNING --period 1000 --no-symbols --trace "$s/prog.trace"
    if [ "$(head -1 "$tmp/cli.out")" = "symbols none (--no-symbols)" ] &&
        [ "$(sed 1d "$tmp/cli.out")" = "$(sed -e 1d -e '/^by-symbol /d' -e 's/ <[^ ]*>//' "$s/prog.iebs")" ]; then
        pass; else fail "sample --no-symbols: $(cat "$tmp/cli.out")"; fi

    # --symbols FILE: the program's file elsewhere.
    cp "$s/prog" "$s/prog_copy"
    expect 0 "" -- sample $pebs --symbols "$s/prog_copy" --trace "$s/prog.trace"
    same "$tmp/cli.out" "$(sed "1s|.*|symbols $s/prog_copy base 0x0|" "$s/prog.pebs")" "sample --symbols"

    # --symbols FILE that cannot name this trace: one line, status 2, no output.
    expect 2 "pmubench sample: $s/none: cannot open: No such file or directory" -- \
        sample $pebs --symbols "$s/none" --trace "$s/prog.trace" -o "$s/out"
    if [ -e "$s/out" ]; then fail "sample -o: output left by a failed run"; else pass; fi
    expect 2 "pmubench sample: $s: is a directory" -- \
        sample $pebs --symbols "$s" --trace "$s/prog.trace"
    expect 2 "pmubench sample: $s/prog.trace: byte offset 0: expected the ELF magic 7f 45 4c 46 (not an ELF file)" -- \
        sample $pebs --symbols "$s/prog.trace" --trace "$s/prog.trace"
    head -c 20 "$s/prog" >"$s/prog_head"
    expect 2 "pmubench sample: $s/prog_head: byte offset 20: truncated: expected the 64-byte ELF header" -- \
        sample $pebs --symbols "$s/prog_head" --trace "$s/prog.trace"
    expect 2 "pmubench sample: $s/prog2: the trace runs other code at its entry point 0x401000: not the program traced" -- \
        sample $pebs --symbols "$s/prog2" --trace "$s/prog.trace"
    pie_entry=$(od -An -tx8 -j24 -N8 "$s/prog_pie" | tr -d ' ' | sed 's/^0*//')
    expect 2 "pmubench sample: $s/prog_pie: position-independent (ET_DYN), and the trace does not run the code at its entry point 0x$pie_entry: its load base is unknown" -- \
        sample $pebs --symbols "$s/prog_pie" --trace "$s/prog.trace"
    if strip -o "$s/prog_stripped" "$s/prog"; then
        expect 2 "pmubench sample: $s/prog_stripped: no function or object symbols (no .symtab or .dynsym)" -- \
            sample $pebs --symbols "$s/prog_stripped" --trace "$s/prog.trace"
    fi

    # The traced program gone, or replaced: raw addresses, said on the
    # first line.
    raw=$(sed -e 1d -e '/^by-symbol /d' -e 's/ <[^ ]*>//' "$s/prog.pebs")
    mv "$s/prog" "$s/prog.kept"
    expect 0 "" -- sample $pebs --trace "$s/prog.trace"
    same "$tmp/cli.out" "symbols none ($s/prog: cannot open: No such file or directory)
$raw" "sample without the traced program"
    cp "$s/prog2" "$s/prog"
    expect 0 "" -- sample $pebs --trace "$s/prog.trace"
    same "$tmp/cli.out" "symbols none ($s/prog: the trace runs other code at its entry point 0x401000: not the program traced)
$raw" "sample with the traced program replaced"
    # A FIFO there is refused without waiting for a writer, a 3 GB sparse
    # file by its first bytes, and of a program 3 GB long only what the
    # symbols need is read: each within 10 seconds (a hang fails).
    ptimeout=10
    [ -z "$wrapper" ] || ptimeout=120
    pmubench() { timeout "$ptimeout" $wrapper "$build/pmubench" "$@"; }
    rm -f "$s/prog"
    mkfifo "$s/prog"
    expect 0 "" -- sample $pebs --trace "$s/prog.trace"
    same "$tmp/cli.out" "symbols none ($s/prog: not a regular file)
$raw" "sample with a FIFO for the traced program"
    expect 2 "pmubench sample: $s/prog: not a regular file" -- \
        sample $pebs --symbols "$s/prog" --trace "$s/prog.trace"
    rm -f "$s/prog"
    truncate -s 3G "$s/prog"
    expect 0 "" -- sample $pebs --trace "$s/prog.trace"
    same "$tmp/cli.out" "symbols none ($s/prog: byte offset 0: expected the ELF magic 7f 45 4c 46 (not an ELF file))
$raw" "sample with a 3 GB sparse file for the traced program"
    cp "$s/prog.kept" "$s/prog"
    truncate -s 3G "$s/prog"
    expect 0 "" -- sample $pebs --trace "$s/prog.trace"
    same "$tmp/cli.out" "$(cat "$s/prog.pebs")" "sample with the traced program made 3 GB long"
    pmubench() { $wrapper "$build/pmubench" "$@"; }
    mv "$s/prog.kept" "$s/prog"

    # A dynamic position-independent program: the trace starts in the
    # dynamic loader and reaches the program's entry point later.  About
    # a third of its samples are in work (10 of 29 here), most of the
    # others in the loader and libc ([unknown]: not in the program's
    # file); how many depends on the environment the loader reads.
    cat >"$s/dyn.c" <<'EOF'
#include <stdio.h>
__attribute__((noinline)) static long work(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += i * i;
    return s;
}
int main(void)
{
    printf("%ld\n", work(100000));
    return 0;
}
EOF
    if cc -O1 -fPIE -pie -o "$s/dyn" "$s/dyn.c" 2>>"$s/cc.out"; then
        pmubench record -o "$s/dyn.trace" -- "$s/dyn" >/dev/null 2>&1
        expect 0 "" -- sample -e global_power_events:RUNNING --period 20000 --trace "$s/dyn.trace"
        in_work=$(sed -n 's/^by-symbol \([0-9]*\) [0-9.]*% work$/\1/p' "$tmp/cli.out")
        if grep -q "^symbols $s/dyn base 0x[0-9a-f]*[1-9a-f][0-9a-f]*000$" "$tmp/cli.out" &&
            [ "${in_work:-0}" -ge 5 ]; then
            pass; else fail "sample of a dynamic PIE: $(cat "$tmp/cli.out")"; fi
    else
        fail "cc -fPIE -pie dyn.c: $(cat "$s/cc.out")"
    fi
elif [ -x "$build/recorder/pmutrace-amd64-linux" ]; then
    fail "cc prog.S: $(cat "$s/cc.out")"
fi

# An imported trace names no program.
pmubench trace import --lackey tests/traces/small.lackey -o "$s/imported.trace" >/dev/null 2>&1
expect 0 "" -- sample -e global_power_events:RUNNING --period 5 --trace "$s/imported.trace"
if [ "$(head -1 "$tmp/cli.out")" = "symbols none (the trace names no program)" ] &&
    ! grep -q '<\|^by-symbol' "$tmp/cli.out"; then
    pass; else fail "sample of an imported trace: $(cat "$tmp/cli.out")"; fi
# Without symbols there is no histogram: the picture says "no data".
expect 0 "" -- sample -e global_power_events:RUNNING --period 5 --trace "$s/imported.trace" \
    --plot "$s/imported.svg"
svg_renders "$s/imported.svg" "sample --plot without symbols"
if grep -q '>no data</text>' "$s/imported.svg"; then pass; else fail "sample --plot without symbols"; fi
expect 2 "pmubench sample: --plot '$s/imported.trace' and --trace '$s/imported.trace' are the same file" -- \
    sample -e global_power_events:RUNNING --period 5 --trace "$s/imported.trace" --plot "$s/imported.trace"
