#!/bin/sh
# coverage_report.sh BUILD: line coverage per directory from the gcov data
# of a `make coverage` run; fails when pmu/ is below 90%.
set -eu
build=$1
gcovr -r . --object-directory "$build" --txt 2>/dev/null | awk '
    $1 ~ /^(pmu|bench|cli)\// && NF >= 4 {
        split($1, path, "/"); dir = path[1] "/"
        lines[dir] += $2; hit[dir] += $3
    }
    END {
        printf "%-8s %8s %8s %7s\n", "dir", "lines", "covered", "percent"
        status = 0
        for (dir in lines) {
            pct = lines[dir] ? 100 * hit[dir] / lines[dir] : 100
            printf "%-8s %8d %8d %6.1f%%\n", dir, lines[dir], hit[dir], pct
            if (dir == "pmu/" && pct < 90) status = 1
        }
        if (status) print "pmu/ line coverage is below 90%"
        exit status
    }'
