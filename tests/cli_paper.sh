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
            ;;
        esac
    done
fi
