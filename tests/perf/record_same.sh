#!/bin/sh
# record_same.sh BUILD OLD_RECORDER NEW_RECORDER: whether two builds of the
# recorder's tool (folders as `make recorder` leaves build/recorder) write
# the same traces, byte for byte, of deterministic programs: the case
# study's wc and wc-getc on their input (`make wc`), the programs of
# tests/emulate (`make emulate-programs`), /bin/true and a shell script
# that runs commands, recorded with `pmubench record` and, with msr-tools'
# programs for the script, `pmubench emulate -o` (frames with a process
# ID, children traced).  A check for a change that must not change the
# traces (a faster tool): docs/traces.md, "Measured figures".
#
# Both folders are copied to paths of the same length (the i386 stack
# holds VALGRIND_LIB: a longer path moves the stack's addresses), and every
# run has address-space randomization off (setarch -R).  Prints a line per
# trace; exit status 1 when any differ, 2 when something cannot run.
set -u
build=${1:?usage: record_same.sh BUILD OLD_RECORDER NEW_RECORDER}
old=${2:?usage: record_same.sh BUILD OLD_RECORDER NEW_RECORDER}
new=${3:?usage: record_same.sh BUILD OLD_RECORDER NEW_RECORDER}
pmubench=$build/pmubench
for need in "$pmubench" "$build/wc/wc" "$build/wc/wc-getc" "$build/wc/input.txt" \
    "$build/emulate/work64"; do
    [ -e "$need" ] || { echo "record_same: $need is missing (make all wc emulate-programs)" >&2; exit 2; }
done
command -v setarch >/dev/null 2>&1 || { echo "record_same: setarch is missing" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/a" "$tmp/b"
cp -a "$old" "$tmp/a/recorder" && cp -a "$new" "$tmp/b/recorder" ||
    { echo "record_same: cannot copy the recorders" >&2; exit 2; }
# Builtins only: a child's exit would reach the shell at a moment that
# varies from run to run (SIGCHLD), and so would its trace.
cat >"$tmp/script.sh" <<'EOF'
n=0
for word in one two three four five six seven eight nine ten; do
    n=$((n + ${#word}))
    case $word in t*) n=$((n * 2)) ;; esac
done
echo "$n"
EOF

# A 32-bit program's own run varies now and then: glibc's parser of the
# hwcaps tunable reads on past GLIBC_TUNABLES into random bytes on valgrind's
# i386 stack (docs/traces.md, "Where a recorded run differs from a native
# one"); and a shell's PPID is its parent's process ID.  So each side is
# recorded up to `tries` times until one trace of each side is the same,
# and in a PID namespace of its own when `unshare` can make one.
tries=4
isolate=
unshare --pid --fork true 2>/dev/null && isolate="unshare --pid --fork"
differ=0
# record SIDE TRY COMMAND ARGS...: `pmubench COMMAND -o TRACE ARGS` with
# SIDE's recorder, into $tmp/SIDE.TRY.
record() {
    side=$1 try=$2
    shift 2
    command=$1
    shift
    # the program's own exit status is not the recording's
    # shellcheck disable=SC2086
    PMUBENCH_RECORDER_DIR="$tmp/$side/recorder" $isolate setarch "$(uname -m)" -R \
        "$pmubench" "$command" -o "$tmp/$side.$try" "$@" >/dev/null 2>"$tmp/err"
    [ -s "$tmp/$side.$try" ] ||
        { echo "record_same: $name made no trace: $(head -1 "$tmp/err")" >&2; exit 2; }
}
# same NAME COMMAND ARGS...: records with both recorders and compares.
same() {
    name=$1
    shift
    rm -f "$tmp"/a.* "$tmp"/b.*
    try=1
    while [ $try -le $tries ]; do
        record a $try "$@"
        record b $try "$@"
        for i in $(seq "$try"); do
            if cmp -s "$tmp/a.$i" "$tmp/b.$try" || cmp -s "$tmp/a.$try" "$tmp/b.$i"; then
                echo "same    $name ($(wc -c <"$tmp/a.$i") bytes, $try tries)"
                return
            fi
        done
        try=$((try + 1))
    done
    echo "DIFFER  $name: $(cmp "$tmp/a.1" "$tmp/b.1" 2>&1 | head -1)"
    differ=1
}

input=$build/wc/input.txt
same "wc" record -- "$build/wc/wc" "$input"
same "wc-getc" record -- "$build/wc/wc-getc" "$input"
same "wc --cpu p5" record --cpu p5 -- "$build/wc/wc" "$input"
same "wc-getc --cpu p5" record --cpu p5 -- "$build/wc/wc-getc" "$input"
same "/bin/true" record -- /bin/true
same "script" record -- sh "$tmp/script.sh"
for program in "$build"/emulate/*; do
    [ -x "$program" ] || continue
    base=$(basename "$program")
    case $base in
    selfmon* | work* | tsc*) args=1000 ;;
    *) args= ;;
    esac
    # shellcheck disable=SC2086
    same "record $base" record -- "$program" $args
    # shellcheck disable=SC2086
    same "emulate $base" emulate -m p5 -- "$program" $args
done
same "emulate script" emulate -m p5 -- sh -c ". \"$tmp/script.sh\"; exec \"$build/emulate/work64\" 1000"
exit $differ
