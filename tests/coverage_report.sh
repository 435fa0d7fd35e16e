#!/bin/sh
# coverage_report.sh BUILD: line coverage per directory from the gcov data
# a `make coverage` run left in BUILD (sim/ by model: sim/p5/, sim/netburst/
# ...; pmu/ by folder and as a whole); fails when pmu/ as a whole is below
# 90%.
set -eu
build=$1
for src in util/*.c pmu/*/*.c bench/*.c cli/*.c traces/*.c isa/*.c sim/*/*.c apps/*/*.c charts/*.c; do
    obj_dir="$build/$(dirname "$src")"
    [ -f "$obj_dir/$(basename "$src" .c).gcda" ] || { echo "$src 0 0"; continue; }
    # gcov prints "File 'X'" then "Lines executed:P% of N" for each file.
    gcov -n -o "$obj_dir" "$src" 2>/dev/null | awk -v want="$src" '
        /^File / { file = $2; gsub(/\047/, "", file) }
        /^Lines executed:/ && file == want {
            split($2, a, ":"); pct = a[2]; sub(/%/, "", pct)
            printf "%s %d %d\n", want, $4, int($4 * pct / 100 + 0.5); file = ""
        }'
done | awk '
    { dir = $1; sub(/[^\/]*$/, "", dir); lines[dir] += $2; hit[dir] += $3
      if (dir ~ /^pmu\/./) { lines["pmu/"] += $2; hit["pmu/"] += $3 }
      printf "  %-28s %5d lines %6.1f%%\n", $1, $2, $2 ? 100 * $3 / $2 : 0 }
    END {
        print "line coverage per directory:"
        status = 0
        for (dir in lines) {
            pct = lines[dir] ? 100 * hit[dir] / lines[dir] : 0
            printf "  %-16s %6d of %6d lines  %5.1f%%\n", dir, hit[dir], lines[dir], pct
            if (dir == "pmu/" && pct < 90) status = 1
        }
        if (status) print "pmu/ line coverage is below 90%"
        exit status
    }'
