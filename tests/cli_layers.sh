# The include order of docs/architecture.md, checked by
# tools/check_layers.sh (make check-layers): the real tree passes; a copy of
# some of its files with includes against the order added fails with one
# exact line per such include, a summary, and exit status 1.  Sourced by
# run_tests.sh after tests/cli_tests.sh (uses pass, fail, $tmp).

sh tools/check_layers.sh >"$tmp/layers.out" 2>&1
layers_status=$?
layers_files=$(find util traces isa sim apps pmu bench charts cli -type f \( -name '*.c' -o -name '*.h' \) | wc -l)
if [ "$layers_status" -eq 0 ] && grep -qx "check-layers: [0-9]* project includes in $layers_files files, all in the order of docs/architecture.md" \
    "$tmp/layers.out"; then
    pass
else
    fail "check_layers.sh on the tree: exit status $layers_status, $(cat "$tmp/layers.out")"
fi

# layers_copy FILE...: the files into the tree $tmp/layers, at their paths.
layers_copy() {
    for layers_file in "$@"; do
        mkdir -p "$tmp/layers/$(dirname "$layers_file")"
        cp "$layers_file" "$tmp/layers/$layers_file"
    done
}
# layers_add FILE INCLUDE: appends `#include "INCLUDE"` to the copy of FILE;
# prints the line number it has.
layers_add() {
    printf '#include "%s"\n' "$2" >>"$tmp/layers/$1"
    wc -l <"$tmp/layers/$1" | tr -d ' '
}
rm -rf "$tmp/layers"
layers_copy pmu/catalog/p5_events.h pmu/programming/program.h pmu/emulated/p5_pmu.h \
    sim/p5/p5_model.h sim/netburst/nbm_model.h util/text.c util/text.h \
    charts/svg.h charts/bar_chart.h apps/compare/stat_plot.h apps/compare/count_set.h apps/compare/intervals.h
mkdir -p "$tmp/layers/sim/newapp"
printf '#include "sim/p5/p5_model.h"\n' >"$tmp/layers/sim/newapp/main.c"
# A folder including one above it (pmu/catalog under the models, and
# pmu/programming under pmu/emulated, whose ranks are fractions), a utility
# including a layer above it (util/text under charts),
# a model including the other model (same rank: independent) by a relative
# name, charts including an application (apps/compare/stat_plot.h, which
# includes charts/ and apps/compare/, copied as it is, passes), and
# a folder in no layer.
layers_pmu=$(layers_add pmu/catalog/p5_events.h sim/p5/p5_model.h)
layers_prog=$(layers_add pmu/programming/program.h pmu/emulated/p5_pmu.h)
layers_text=$(layers_add util/text.c charts/svg.h)
layers_nb=$(layers_add sim/netburst/nbm_model.h ../p5/p5_model.h)
layers_bar=$(layers_add charts/bar_chart.h apps/compare/count_set.h)
layers_against=", against the order in docs/architecture.md"
cat >"$tmp/layers.want" <<EOF
charts/bar_chart.h:$layers_bar: charts includes apps/compare (apps/compare/count_set.h)$layers_against
pmu/catalog/p5_events.h:$layers_pmu: pmu/catalog includes sim/p5 (sim/p5/p5_model.h)$layers_against
pmu/programming/program.h:$layers_prog: pmu/programming includes pmu/emulated (pmu/emulated/p5_pmu.h)$layers_against
sim/netburst/nbm_model.h:$layers_nb: sim/netburst includes sim/p5 (sim/p5/p5_model.h)$layers_against
sim/newapp/main.c: in no layer of the table in tools/check_layers.sh
util/text.c:$layers_text: utility includes charts (charts/svg.h)$layers_against
EOF
sh tools/check_layers.sh "$tmp/layers" >"$tmp/layers.out" 2>&1
layers_status=$?
if [ "$layers_status" -ne 1 ]; then
    fail "check_layers.sh on includes against the order: exit status $layers_status, expected 1"
elif ! sed '$d' "$tmp/layers.out" | diff -u "$tmp/layers.want" -; then
    fail "check_layers.sh on includes against the order: lines differ"
elif ! tail -n 1 "$tmp/layers.out" |
    grep -qx 'check-layers: 6 against the order of docs/architecture.md, in [0-9]* project includes in 13 files'; then
    fail "check_layers.sh on includes against the order: summary $(tail -n 1 "$tmp/layers.out")"
else
    pass
fi
rm -rf "$tmp/layers"
