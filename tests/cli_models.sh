# The timing models' inputs and memory, sourced by run_tests.sh after
# tests/cli_tests.sh: the largest data access a trace may hold
# (docs/traces.md, "Access sizes"), whichever way the trace was made, and
# the NetBurst model's memory bound (docs/netburst-model.md, "Memory use").

# An access of 2^32 - 1 bytes hung the P5 model.  The importers reject it
# (and any above 16 KB), and take 16 KB.
printf 'I  400000,3\n L 1000,4294967295\n' >"$tmp/huge.lk"
expect 2 "$tmp/huge.lk:2: data access size 4294967295 (expected 1-16384)" -- \
    trace import --lackey "$tmp/huge.lk" -o "$tmp/huge.trace"
printf '2 400000 3\n0 1000 ffffffff\n' >"$tmp/huge.din"
expect 2 "$tmp/huge.din:2: data access size ffffffff (expected 1-4000, hexadecimal)" -- \
    trace import --dinero "$tmp/huge.din" -o "$tmp/huge.trace"
printf 'I  400000,3\n L 1000,16384\n' >"$tmp/largest.lk"
expect 0 "" -- trace import --lackey "$tmp/largest.lk" -o "$tmp/largest.trace"
trace_shows "$tmp/largest.trace" '"loads": 1' "the largest access imported"

# The recorder merges a REP string instruction's iterations into ranges
# of at most 16,384 bytes: a copy of 40,000 bytes is three loads and three
# stores (it was one of each, of 40,000 bytes).  `ranges` prints each
# access of a dump line as KIND+OFFSET,SIZE, the offset from the first
# access of its kind.
ranges() {
    # shellcheck disable=SC2086
    set -- $1
    first_load="" first_store=""
    while [ $# -gt 1 ]; do
        addr=${2%,*}
        eval "[ -n \"\$first_$1\" ] || first_$1=$addr; first=\$first_$1"
        printf ' %s+%d,%s' "$1" $((addr - first)) "${2#*,}"
        shift 2
    done
}
if [ -x "$build/recorder/pmutrace-amd64-linux" ] &&
    printf 'int main(void){static char a[40000], b[40000]; char *d = b; const char *s = a; unsigned long n = sizeof a; __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory"); return b[0];}\n' |
    cc -O2 -x c - -o "$tmp/repcopy" 2>/dev/null; then
    expect 0 "" -- record -o "$tmp/repcopy.trace" -- "$tmp/repcopy"
    copy=$(pmubench trace dump "$tmp/repcopy.trace" | sed -n 's/^insn .* bytes f3 a4 thread 0 cpl 3 //p')
    want=" load+0,16384 store+0,16384 load+16384,16384 store+16384,16384 load+32768,7232"
    if [ "$(ranges "$copy")" = "$want store+32768,7232" ]; then
        pass; else fail "record of rep movsb over 40,000 bytes: '$copy'"; fi
fi

# The reader rejects it in a trace made by hand (the header, an
# instruction of 3 bytes with one load whose size follows as a varint, its
# address, END), for every command.  A run that does not end within a
# minute fails: it hung.
printf 'PMUTRACE\001\001\000\000\000\043\001\375\377\377\377\377\017\000\217\001\000\000' \
    >"$tmp/huge.trace"
huge_error="$tmp/huge.trace: byte offset 21: data access of 4294967295 bytes (expected 1-16384)"
pmubench() { timeout 60 $wrapper "$build/pmubench" "$@"; }
expect 2 "$huge_error" -- trace info "$tmp/huge.trace"
expect 2 "pmubench stat: $huge_error" -- stat -m p5 --trace "$tmp/huge.trace"
expect 2 "pmubench stat: $huge_error" -- stat -m netburst --trace "$tmp/huge.trace"
pmubench() { $wrapper "$build/pmubench" "$@"; }

# Out of memory is a run-time failure: one line, exit status 1, never a
# wrong count.  `limit_floor ARGS...` prints the smallest address space,
# in 1 MB steps from 8 MB, in which `pmubench ARGS` succeeds (nothing
# under valgrind or AddressSanitizer, which need address space of their
# own); then a run that needs more of it gets 2 MB above that.
limit_floor() {
    [ -z "$wrapper" ] || return 0
    kb=8192
    while [ $kb -le 131072 ]; do
        if (ulimit -v $kb && exec "$build/pmubench" "$@") >/dev/null 2>&1; then
            echo $kb
            return 0
        fi
        kb=$((kb + 1024))
    done
}
limited() { (ulimit -v "$limit_kb" && exec "$build/pmubench" "$@"); }

# stat: one load whose 8 misses take memory_latency 100,000 cycles each,
# one at a time; the ring of cycles ahead cannot grow to its bound, and
# the run must fail rather than lose the instruction's retirement and
# print a count of 0.  The floor: the same with the preset's latencies, which the first ring holds.
printf 'I  400000,3\n L 100000,8\n' >"$tmp/near.lk"
printf 'I  400000,3\n L 100000,1024\n' >"$tmp/far.lk"
pmubench trace import --lackey "$tmp/near.lk" -o "$tmp/near.trace"
pmubench trace import --lackey "$tmp/far.lk" -o "$tmp/far.trace"
far_stat="-m netburst -F memory_latency=100000 -F l1d_load_misses=1 -e instr_retired:NBOGUSNTAG"
floor=$(limit_floor stat -m netburst -e instr_retired:NBOGUSNTAG --trace "$tmp/near.trace" 2>/dev/null)
if [ -n "$floor" ]; then
    limit_kb=$((floor + 2048))
    pmubench() { limited "$@"; }
    # shellcheck disable=SC2086
    expect 1 "pmubench stat: $tmp/far.trace: out of memory for the model's events" -- \
        stat $far_stat --trace "$tmp/far.trace"
    pmubench() { $wrapper "$build/pmubench" "$@"; }
fi

# sample: one instruction loading 64 areas of 16 KB, 8,192 misses four at
# a time, over 400,000 cycles.
awk 'BEGIN { print "I  400000,3"; for (i = 0; i < 64; i++) printf " L %x,16384\n", 1048576 + 16384 * i }' \
    >"$tmp/wide.lk"
pmubench trace import --lackey "$tmp/wide.lk" -o "$tmp/wide.trace"
sampling="-m netburst -e instr_retired:NBOGUSNTAG --period 1 --no-symbols"
# shellcheck disable=SC2086
floor=$(limit_floor sample $sampling --trace "$tmp/near.trace" 2>/dev/null)
if [ -n "$floor" ]; then
    limit_kb=$((floor + 2048))
    pmubench() { limited "$@"; }
    # shellcheck disable=SC2086
    expect 1 "pmubench sample: $tmp/wide.trace: out of memory for the model's events" -- \
        sample $sampling --trace "$tmp/wide.trace"
    pmubench() { $wrapper "$build/pmubench" "$@"; }
fi
