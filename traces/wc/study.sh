#!/bin/sh
# study.sh BUILD: the wc case study of Safford 1997 (section 5.6), `make demo`
# (traces/wc/README.md, docs/p5-model.md "The wc case study").
#
#   1. records $BUILD/wc/wc over $BUILD/wc/input.txt (pmubench record);
#   2. simulates the trace on the p5 model (pmubench stat -m p5);
#   3. measures the same binary and input on this machine: perf_event_open
#      (pmubench compare measure:) and valgrind lackey for loads and stores
#      (pmubench compare lackey:);
#   4. prints Table 5.6 (simulated against measured here, with the thesis's
#      simulator and PMC columns beside them) and Table 5.7 (the inner
#      loop, region 1 of traces/wc/wc.c).
#
# Leaves its files in $BUILD/wc/study/.  Exit status 2 when a step fails.
set -u
build=${1:?usage: study.sh BUILD}
pmubench=$build/pmubench
wc=$build/wc/wc
input=$build/wc/input.txt
dir=$build/wc/study
events=data_read,data_read_miss,data_write,data_write_miss,data_cache_lines_written_back,instructions_executed,branches
loop_events=instructions_executed,instructions_executed_in_v_pipe,branches,btb_hits

die() { echo "study: $*" >&2; exit 2; }
for need in "$pmubench" "$wc" "$input"; do
    [ -e "$need" ] || die "$need is missing (make BUILD=$build all wc builds it)"
done
mkdir -p "$dir" || die "cannot create $dir"

# The ELF class byte: 1 is 32-bit, 2 is 64-bit.
bits=$(od -An -j4 -N1 -tu1 "$wc" | tr -d ' ')
[ "$bits" = 1 ] && bits=32 || bits=64
lines=$(awk 'END {print NR}' "$input")
chars=$(wc -c <"$input" | tr -d ' ')

echo "The wc case study (Safford 1997, section 5.6) on this machine"
echo "  program  $wc ($bits-bit, static), traces/wc/wc.c"
echo "  input    $input: $lines lines, $chars characters (the thesis: 4036 and 105196)"
echo

echo "1. pmubench record -o $dir/wc.trace -- $wc $input"
"$pmubench" record -o "$dir/wc.trace" -- "$wc" "$input" | sed 's/^/   wc: /' ||
    die "recording failed"
"$pmubench" trace info "$dir/wc.trace" | sed -n 's/^\(instructions\|branches\|loads\|stores\|regions\) */   \1: /p'

echo "2. pmubench stat -m p5 -e $events"
"$pmubench" stat -m p5 --json -o "$dir/simulated.json" -e "$events" --trace "$dir/wc.trace" ||
    die "simulation failed"

echo "3. measured here: pmubench compare ... measure: (perf_event_open) and lackey: (valgrind lackey)"
# compare prints the program's own output first, then its table.
"$pmubench" compare -x '|' "$dir/simulated.json" measure: -- "$wc" "$input" >"$dir/perf.txt" ||
    die "the perf_event_open measurement failed"
"$pmubench" compare -x '|' "$dir/simulated.json" lackey: -- "$wc" "$input" >"$dir/lackey.txt" ||
    die "the lackey measurement failed"
echo

# Table 5.6: per event the simulated count, the count measured here (loads
# and stores from lackey, everything else from the host PMU; lackey's
# instruction count where the PMU cannot count), and the thesis's columns
# (Safford 1997, Table 5.6; branches are not in it).
awk -F'|' '
    BEGIN {
        split("data_read data_read_miss data_write data_write_miss data_cache_lines_written_back instructions_executed branches", order, " ")
        thesis_sim["data_read"] = "441127";             thesis_pmc["data_read"] = "448702.5 +/- 1.1"
        thesis_sim["data_read_miss"] = "138";           thesis_pmc["data_read_miss"] = "1726.8 +/- 11.2"
        thesis_sim["data_write"] = "230755";            thesis_pmc["data_write"] = "234355.5 +/- 1.1"
        thesis_sim["data_write_miss"] = "10";           thesis_pmc["data_write_miss"] = "28.0 +/- 6.3"
        thesis_sim["data_cache_lines_written_back"] = "0"; thesis_pmc["data_cache_lines_written_back"] = "200.7 +/- 9.2"
        thesis_sim["instructions_executed"] = "2248201"; thesis_pmc["instructions_executed"] = "2266817.5 +/- 0.2"
    }
    FNR == 1 { source = (FILENAME ~ /lackey/) ? "lackey" : "perf" }
    NF < 8 || $1 == "event" { next }
    {
        split($1, names, " / ")
        event = names[1]
        row[source, event] = $0
        simulated[event] = $2
    }
    function pick(event,    lk, pf) {
        lk = row["lackey", event]; pf = row["perf", event]
        if (event == "data_read" || event == "data_write") return lk
        split(pf, f, "|")
        if (event == "instructions_executed" && f[3] !~ /^[0-9]/) return lk
        return pf
    }
    function note_number(text,    i) {
        for (i = 1; i <= n_notes; i++) if (notes[i] == text) return i
        notes[++n_notes] = text
        return n_notes
    }
    END {
        printf "Table 5.6 on this machine: simulated (p5 model) against measured here, and the thesis\n\n"
        printf "%-30s %11s %15s %-7s %8s  %10s %19s\n", "Event", "Simulated", "Measured", "by", "Diff %", "Thesis sim", "Thesis PMCs"
        for (k = 1; k in order; k++) {
            event = order[k]
            line = pick(event)
            split(line, f, "|")
            by = (line == row["lackey", event]) ? "lackey" : "perf"
            measured = (f[3] == "" ? "-" : f[3])
            if (measured == "-") by = "-"
            marks = ""
            n = split(f[8], parts, "; ")
            for (i = 1; i <= n; i++) if (parts[i] != "") marks = marks "[" note_number(parts[i]) "]"
            printf "%-30s %11s %15s %-7s %8s  %10s %19s %s\n", event, simulated[event], measured, by,
                (f[6] == "-" || f[6] == "") ? "-" : f[6] "%", \
                (event in thesis_sim) ? thesis_sim[event] : "-", (event in thesis_pmc) ? thesis_pmc[event] : "-", marks
        }
        printf "\nDiff %% = 100 x (measured - simulated) / measured.  A dash: no count of that kind here.\n"
        for (i = 1; i <= n_notes; i++) printf "[%d] %s\n", i, notes[i]
    }' "$dir/lackey.txt" "$dir/perf.txt" || die "cannot print Table 5.6"
echo

# Table 5.7: region 1 is the counting loop (traces/wc/wc.c); its
# iterations are the calls to getc inside it, counted in the trace.
"$pmubench" stat -m p5 -x '|' -o "$dir/loop.txt" --region 1 -e "$loop_events" --trace "$dir/wc.trace" ||
    die "the region simulation failed"
getc=$(nm "$wc" 2>/dev/null | awk '$3 == "getc" {sub(/^0+/, "", $1); print "0x" $1; exit}')
[ -n "$getc" ] || die "$wc has no getc symbol (nm)"
iterations=$("$pmubench" trace dump "$dir/wc.trace" | awk -v getc="$getc" '
    /^region begin 1$/ { inside = 1 } /^region end 1$/ { inside = 0 }
    inside && / taken / { for (i = 1; i < NF; i++) if ($i == "taken" && $(i + 1) == getc) n++ }
    END { print n + 0 }')
awk -F'|' -v n="$iterations" -v chars="$chars" '
    { count[$3] = $1 }
    END {
        printf "Table 5.7 on this machine: the wc inner loop (region 1), simulated\n\n"
        printf "%-58s %12s %8s\n", "", "here", "thesis"
        printf "%-58s %12d %8s\n", "number of times loop body executed", n, "105198"
        printf "%-58s %12.1f %8s\n", "average total branches per loop iteration", count["branches"] / n, "5.5"
        printf "%-58s %12.1f %8s\n", "average total BTB hits per loop iteration", count["btb_hits"] / n, "3"
        printf "%-58s %12.1f %8s\n", "instructions executed in each loop iteration", count["instructions_executed"] / n, "24"
        printf "%-58s %12.1f %8s\n", "instructions executed in the v-pipe in each loop iteration", count["instructions_executed_in_v_pipe"] / n, "14"
        printf "\nLoop body executions = characters + the final EOF read: %d = %d + 1: %s\n", n, chars, (n == chars + 1) ? "yes" : "NO"
        printf "(Per iteration counts include getc, a call into glibc here; the thesis'\''s getc was a macro.)\n"
    }' "$dir/loop.txt" || die "cannot print Table 5.7"
