#!/bin/sh
# check_layers.sh [ROOT]
# Checks the include order of docs/architecture.md: every `#include "..."`
# of a project header in a .c or .h under util/ traces/ isa/ sim/ apps/
# pmu/ bench/ charts/ cli/ of the tree at ROOT (default: the current
# directory).  A name is resolved as the compiler resolves it: first beside
# the including file, then from the tree's root (the Makefile's -I.); a name
# found in neither is a system or third-party header and is not checked.
# Each file's layer is in the table below; a layer may include itself and the
# layers of lower rank, never one of the same rank (those are independent of
# each other) nor one above.  Prints one line per include against the order
# (and per file in no layer) and a summary; exit status 1 if there is any,
# 0 otherwise.
set -eu
root=${1:-.}
cd "$root"

# The layers, bottom to top.  RANK LAYER FOLDER...: each folder and all
# under it.  A file takes the layer of its nearest folder in the table.
# Ranks may be fractions: pmu/'s folders are 4.1 to 4.4, between isa and
# the models.
table='
1   utility         util/
2   traces          traces/
3   isa             isa/
4.1 pmu/catalog     pmu/catalog/
4.2 pmu/programming pmu/programming/
4.3 pmu/emulated    pmu/emulated/
4.4 pmu/waveform    pmu/waveform/
5   sim/decode      sim/decode/
6   sim/common      sim/common/
7   sim/p5          sim/p5/
7   sim/netburst    sim/netburst/
8   sim/machine     sim/machine/
8   charts          charts/
9   apps/compare    apps/compare/
9   apps/stat       apps/stat/
9   apps/p5mon      apps/p5mon/
9   apps/emulate    apps/emulate/
9   bench           bench/
10  apps/sample     apps/sample/
10  apps/sweep      apps/sweep/
11  cli             cli/
'

files=$(for dir in util traces isa sim apps pmu bench charts cli; do
    [ -d "$dir" ] && find "$dir" -type f \( -name '*.c' -o -name '*.h' \)
done | LC_ALL=C sort)

{ printf '%s\n' "$table"; echo '%%'; printf '%s\n' "$files"; } | awk '
BEGIN { in_table = 1; violations = 0; includes = 0; n_files = 0
        against = ", against the order in docs/architecture.md"
        no_layer = "in no layer of the table in tools/check_layers.sh" }
in_table && $0 == "%%" { in_table = 0; next }
in_table && NF >= 3 {
    for (i = 3; i <= NF; i++) { layer_of[$i] = $2; rank_of[$2] = $1 + 0 }
    next
}
in_table || $0 == "" { next }
{ check($0) }
END {
    if (violations == 0) {
        printf "check-layers: %d project includes in %d files, all in the order of docs/architecture.md\n", includes, n_files
        exit 0
    }
    printf "check-layers: %d against the order of docs/architecture.md, in %d project includes in %d files\n", violations, includes, n_files
    exit 1
}

# The layer of a path: the entry of its nearest folder; "" when none.
function layer(path,    dir) {
    dir = path
    while (sub(/\/[^\/]*$/, "", dir)) if ((dir "/") in layer_of) return layer_of[dir "/"]
    return ""
}

# `path` with "." and ".." parts resolved; "" when it leaves the tree.
function normalize(path,    n, part, kept, k, i, out) {
    n = split(path, part, "/")
    k = 0
    for (i = 1; i <= n; i++) {
        if (part[i] == "" || part[i] == ".") continue
        if (part[i] == "..") { if (k == 0) return ""; k--; continue }
        kept[++k] = part[i]
    }
    out = ""
    for (i = 1; i <= k; i++) out = out (i > 1 ? "/" : "") kept[i]
    return out
}

function is_file(path,    line, status) {
    if (path == "") return 0
    if (!(path in known)) {
        status = (getline line < path)
        if (status >= 0) close(path)
        known[path] = status >= 0
    }
    return known[path]
}

# The project file an include names, from the file in folder `dir`; ""
# for a header from outside the project.
function resolve(dir, name,    beside) {
    beside = normalize(dir "/" name)
    if (is_file(beside)) return beside
    name = normalize(name)
    if (is_file(name)) return name
    return ""
}

function check(file,    from, dir, line, number, name, target, to) {
    n_files++
    from = layer(file)
    if (from == "") { print file ": " no_layer; violations++ }
    dir = file
    sub(/\/[^\/]*$/, "", dir)
    number = 0
    while ((getline line < file) > 0) {
        number++
        if (line !~ /^[ \t]*#[ \t]*include[ \t]*"/) continue
        name = line
        sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", name)
        sub(/".*/, "", name)
        target = resolve(dir, name)
        if (target == "") continue
        includes++
        if (from == "") continue
        to = layer(target)
        if (to == "") {
            print file ":" number ": " from " includes " target ", which is " no_layer
            violations++
        } else if (to != from && rank_of[to] >= rank_of[from]) {
            print file ":" number ": " from " includes " to " (" target ")" against
            violations++
        }
    }
    close(file)
}
'
