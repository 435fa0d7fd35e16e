# The Sprunt paper's benchmark programs (traces/paper/README.md), sourced by
# run_tests.sh after tests/cli_tests.sh (its helpers expect, pass, fail,
# trace_shows, $tmp, $build): each builds with traces/paper/paper.mk,
# records with a small count, has one region holding what the paper
# describes.

# paper_region TRACE: the dump of region 1 of TRACE, into $tmp/paper.dump.
paper_region() {
    pmubench trace dump "$1" | sed -n '/^region begin 1$/,/^region end 1$/p' >"$tmp/paper.dump"
}

# paper_count PATTERN: the instruction lines of $tmp/paper.dump matching PATTERN.
paper_count() {
    grep -c "^insn .*$1" "$tmp/paper.dump"
}

# pmubench sample (make paper's PEBS and IEBS): a trace it cannot read.
expect 2 "pmubench sample: $tmp/none.trace: cannot open: No such file or directory" -- \
    sample --pebs 1stL_cache_load_miss_retired --period 3 --trace "$tmp/none.trace"

# Built with cc (gcc), whatever compiler built pmubench (make asan uses
# clang): the exact load counts below are of gcc's code.
if [ -x "$build/recorder/pmutrace-amd64-linux" ]; then
    if make -s -f traces/paper/paper.mk BUILD="$tmp/paperbuild" CC=cc paper-programs >"$tmp/paper.make" 2>&1; then
        pass
    else
        fail "make -f traces/paper/paper.mk paper-programs: $(cat "$tmp/paper.make")"
    fi
    for name in fp_add_latency l1_miss pebs_target l1_miss_profile; do
        prog=$tmp/paperbuild/paper/$name
        [ -x "$prog" ] || { fail "$name was not built"; continue; }
        bits=64 # the ELF class, byte 4: 1 is 32-bit
        [ "$(od -An -tx1 -j4 -N1 "$prog" | tr -d ' ')" = 01 ] && bits=32
        if [ $bits = 32 ] && [ ! -x "$build/recorder/pmutrace-x86-linux" ]; then
            continue
        fi
        # Small counts: a run of a few thousand instructions in region 1.
        case $name in
        fp_add_latency) count=10 ;;
        l1_miss) count=10 ;;
        pebs_target) count=2 ;;
        l1_miss_profile) count=3 ;;
        esac
        expect 0 "" -- record --registers -o "$tmp/$name.trace" -- "$prog" $count
        trace_shows "$tmp/$name.trace" "\"isa\": $bits, .*\"regions\": 1, \"end\": \"exited\", \"code\": 0," \
            "$name: one region, exit 0"
        paper_region "$tmp/$name.trace"
        case $name in
        fp_add_latency)
            # 32 dependent fadd %st(1), %st (d8 c1) per iteration.
            n=$(paper_count ' bytes d8 c1 ')
            if [ "$n" = 320 ]; then pass; else fail "fp_add_latency: $n fadds in region 1, expected 320"; fi
            # The model on it (make paper, traces/paper/paper.sh): each
            # iteration is 34 uops (32 fadd, dec, jnz) and 160 cycles (32
            # adds, each waiting for the last one's 5 cycles), so 10 more
            # iterations are exactly 340 uops and 1600 cycles more; the
            # counts are the same for a second stat of the same trace (the
            # model is deterministic); two copies under Hyper-Threading keep
            # each thread's cycles (the adder is pipelined, the chains are
            # per thread) and retire twice the uops, give or take the few
            # one thread retires while the other is outside its region.
            pmubench record -o "$tmp/fp20.trace" -- "$prog" 20 >/dev/null 2>&1
            paper_stat() { # TRACE...: "UOPS CYCLES" of region 1
                pmubench stat -m netburst --region 1 --json \
                    -e uops_retired:NBOGUS,global_power_events:RUNNING \
                    $(for t in "$@"; do printf ' --trace %s' "$t"; done) |
                    sed -n 's/.*"uops_retired:NBOGUS": \([0-9]*\), "global_power_events:RUNNING": \([0-9]*\)}.*/\1 \2/p'
            }
            s10=$(paper_stat "$tmp/$name.trace") s10b=$(paper_stat "$tmp/$name.trace")
            s20=$(paper_stat "$tmp/fp20.trace")
            u10=${s10% *} c10=${s10#* } u20=${s20% *} c20=${s20#* }
            if [ -n "$s10" ] && [ "$s10" = "$s10b" ] && [ $((u20 - u10)) = 340 ] && [ $((c20 - c10)) = 1600 ] &&
                [ "$u10" -ge 340 ] && [ "$u10" -lt 360 ]; then
                pass; else fail "fp_add_latency stat: 10 iterations '$s10' then '$s10b', 20 iterations '$s20'"; fi
            # Two copies under Hyper-Threading: each logical processor
            # retires exactly its own trace's uops over the whole run, and a
            # second run of the same traces gives the same counts (how long
            # each thread's region takes depends on where the other thread
            # is when it starts, so it is not compared with the one-thread
            # run).
            ht_stat() {
                pmubench stat -m netburst --region 1 --json \
                    -e global_power_events:RUNNING:t0,global_power_events:RUNNING:t1 \
                    --trace "$tmp/$name.trace" --trace "$tmp/$name.trace"
            }
            ht=$(ht_stat) ht_again=$(ht_stat)
            alone=$(pmubench stat -m netburst -x , -e uops_retired:NBOGUS --trace "$tmp/$name.trace" | cut -d, -f1)
            both=$(pmubench stat -m netburst -x , -e uops_retired:NBOGUS:t0,uops_retired:NBOGUS:t1 \
                --trace "$tmp/$name.trace" --trace "$tmp/$name.trace" | cut -d, -f1 | tr '\n' ' ')
            if echo "$ht" | grep -q '"global_power_events:RUNNING:t0": [1-9][0-9]*, "global_power_events:RUNNING:t1": [1-9]' &&
                [ "$ht" = "$ht_again" ] && [ -n "$alone" ] && [ "$both" = "$alone $alone " ]; then
                pass; else fail "fp_add_latency two threads: $ht / $ht_again, uops $both (one thread: $s10, $alone uops)"; fi
            # traces/paper/paper.sh on small counts: its stderr gives the
            # same counts, and it ends with the eight paper lines.
            mkdir -p "$tmp/paperrun/paper"
            ln -sf "$(cd "$build" && pwd)/pmubench" "$tmp/paperrun/pmubench"
            cp "$tmp/paperbuild/paper/"* "$tmp/paperrun/paper/"
            if sh traces/paper/paper.sh "$tmp/paperrun" 10 10 2 3 >"$tmp/paper.out" 2>"$tmp/paper.err" &&
                grep -qx "fp_add_latency one thread: $u10 uops, $c10 cycles" "$tmp/paper.err" &&
                [ "$(grep -c '^paper [a-z0-9_]* paper=[0-9.]* model=\([0-9]*\.[0-9][0-9][0-9]\|[0-9]*\)$' "$tmp/paper.out")" = 8 ] &&
                [ "$(wc -l <"$tmp/paper.out")" = 8 ] &&
                [ "$(cut -d' ' -f2 "$tmp/paper.out" | tr '\n' ' ')" = "fp_add_latency_1t fp_add_latency_2t l1_miss_1t l1_miss_2t pebs_at_target_pct iebs_at_target_pct profile_samples profile_addresses " ] &&
                grep -qx "paper fp_add_latency_1t paper=0.21 model=$(awk -v a=$u10 -v b=$c10 'BEGIN { printf "%.3f", a / b }')" "$tmp/paper.out"; then
                pass; else fail "paper.sh: $(cat "$tmp/paper.out" "$tmp/paper.err")"; fi
            # Its usage: a missing BUILD is exit 2.
            if sh traces/paper/paper.sh >/dev/null 2>&1; then fail "paper.sh without BUILD succeeded"
            else [ $? = 2 ] && pass || fail "paper.sh without BUILD: not exit 2"; fi
            ;;
        l1_miss)
            # 16 loads per iteration, at 8 addresses 8 KB apart (one L1 set).
            n=$(paper_count ' load ')
            addrs=$(sed -n 's/.* load \(0x[0-9a-f]*\),[48]\( .*\)\{0,1\}$/\1/p' "$tmp/paper.dump" | sort -u)
            low=$(for a in $addrs; do printf '%x\n' $((a & 0x1fff)); done | sort -u)
            if [ "$n" = 160 ] && [ "$(echo "$addrs" | wc -l)" = 8 ] && [ "$(echo "$low" | wc -l)" = 1 ]; then
                pass; else fail "l1_miss: $n loads in region 1 (expected 160) at $(echo $addrs)"; fi
            # ... also without --registers: VEX's optimiser must not drop the
            # loads whose register the next load overwrites.
            pmubench record -o "$tmp/l1_plain.trace" -- "$prog" $count >/dev/null 2>&1
            paper_region "$tmp/l1_plain.trace"
            n=$(paper_count ' load ')
            if [ "$n" = 160 ]; then pass; else fail "l1_miss without --registers: $n loads in region 1, expected 160"; fi
            ;;
        pebs_target)
            # The target load at its label: 8 per iteration, 8 addresses
            # 8 KB apart ending in 0x760, between blocks of 100 loads.
            target=0x$(nm "$prog" | awk '$3 == "pebs_target_load" {print $1}' | sed 's/^0*//')
            grep "^insn $target " "$tmp/paper.dump" >"$tmp/paper.target"
            n=$(wc -l <"$tmp/paper.target")
            addrs=$(sed -n 's/.* load \(0x[0-9a-f]*\),[48]\( .*\)\{0,1\}$/\1/p' "$tmp/paper.target" | sort -u)
            low=$(for a in $addrs; do printf '%x\n' $((a & 0xfff)); done | sort -u)
            loads=$(paper_count ' load ')
            if [ "$n" = 16 ] && [ "$(echo "$addrs" | wc -l)" = 8 ] && [ "$low" = 760 ] && [ "$loads" = $((16 * 201)) ]; then
                pass; else fail "pebs_target: target $target run $n times (expected 16) at $(echo $addrs) ($loads loads)"; fi
            # pmubench sample: with a period of 1 every L1 miss of region 1
            # overflows IQ_COUNTER4, so there are as many PEBS records as
            # stat counts misses, the 16 target loads' among them, each with
            # the target's EIP; IEBS samples land past the target (skid).
            misses=$(pmubench stat -m netburst --region 1 -e 1stL_cache_load_miss_retired --json \
                --trace "$tmp/$name.trace" | sed -n 's/.*"1stL_cache_load_miss_retired": \([0-9]*\).*/\1/p')
            pmubench sample -m netburst --pebs 1stL_cache_load_miss_retired --period 1 --region 1 \
                --trace "$tmp/$name.trace" >"$tmp/paper.pebs"
            records=$(grep -c '^pebs ' "$tmp/paper.pebs")
            at=$(grep -c "^pebs [er]ip=$target " "$tmp/paper.pebs")
            if [ -n "$misses" ] && [ "$records" = "$misses" ] && [ "$at" = 16 ] &&
                grep -q "^samples $records instructions [0-9]* cycles [0-9]*$" "$tmp/paper.pebs"; then
                pass; else fail "sample --pebs on pebs_target: $records records, $at at $target, $misses misses"; fi
            pmubench sample -m netburst -e 1stL_cache_load_miss_retired --period 2 --region 1 \
                --trace "$tmp/$name.trace" >"$tmp/paper.iebs"
            samples=$(grep -c '^sample thread 0 cycle [0-9]* eip 0x[0-9a-f]* <[^ ]*> precise 0$' "$tmp/paper.iebs")
            if [ "$samples" -gt 0 ] && ! grep -q "^sample .* eip $target " "$tmp/paper.iebs" &&
                grep -q "^samples $samples " "$tmp/paper.iebs"; then
                pass; else fail "sample -e on pebs_target: $(cat "$tmp/paper.iebs")"; fi
            ;;
        l1_miss_profile)
            # Table 1: the load's register (EAX/RAX) holds 8 values 8 KB
            # apart with the same low 12 bits (0x760), here after the load.
            target=0x$(nm "$prog" | awk '$3 == "l1_miss_profile_load" {print $1}' | sed 's/^0*//')
            reg=rax
            [ $bits = 32 ] && reg=eax
            values=$(grep "^insn $target " "$tmp/paper.dump" | tr ' ' '\n' | sed -n "s/^$reg=//p" | sort -u)
            n=$(grep -c "^insn $target " "$tmp/paper.dump")
            low=$(for v in $values; do printf '%x\n' $((v & 0xfff)); done | sort -u)
            first=$(echo "$values" | head -1) last=$(echo "$values" | tail -1)
            if [ "$n" = 24 ] && [ "$(echo "$values" | wc -l)" = 8 ] && [ "$low" = 760 ] &&
                [ $((last - first)) = $((7 * 0x2000)) ]; then
                pass; else fail "l1_miss_profile: load run $n times (expected 24), $reg values $(echo $values)"; fi
            # PEBS records of every miss: the load's with its 8 values.
            # Northwood (-m netburst) has no IA-32e mode, so its records
            # have the 32-bit layout whatever the program: EAX, holding the
            # low half of RAX (these addresses are below 4 GB).
            pmubench sample -m netburst --pebs 1stL_cache_load_miss_retired --period 1 --region 1 \
                --trace "$tmp/$name.trace" >"$tmp/paper.pebs"
            at=$(grep -c "^pebs [er]ip=$target " "$tmp/paper.pebs")
            pvalues=$(grep "^pebs [er]ip=$target " "$tmp/paper.pebs" | sed -n "s/.* eax=\(0x[0-9a-f]*\).*/\1/p" | sort -u)
            if [ "$at" -ge 21 ] && [ "$at" -le 24 ] && [ "$pvalues" = "$values" ]; then
                pass; else fail "sample --pebs on l1_miss_profile: $at records at $target, eax $(echo $pvalues)"; fi
            ;;
        esac
    done
fi
