#!/bin/sh
# run_tests.sh BUILD [WRAPPER...]
# Runs the cmocka unit tests and the bench scripts, prints one line per
# failure and a closing "check: N passed, N failed" line; exits non-zero on
# any failure.  WRAPPER (e.g. valgrind ...) runs in front of every program.
set -u
build=$1
shift
wrapper="$*"
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# 1. cmocka unit tests: each binary is one test group.
for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    if $wrapper "$t" >"$tmp/unit.out" 2>&1; then
        pass
    else
        cat "$tmp/unit.out"
        fail "$t"
    fi
    grep -E '^\[  (PASSED|FAILED)  \]' "$tmp/unit.out" | sed "s|^|$(basename "$t"): |"
done

# 2. Bench scripts.  NAME.pmu runs; its stdout must equal NAME.out.  A script
# with NAME.err must instead fail with exit status 2 (or NAME.status) and
# print exactly NAME.err on stderr.  NAME.vcd, where present, is the
# expected waveform.  NAME.args holds extra arguments.
for script in tests/bench/*.pmu tests/bench/errors/*.pmu; do
    [ -f "$script" ] || continue
    base=${script%.pmu}
    args=""
    [ -f "$base.args" ] && args=$(cat "$base.args")
    vcd_args=""
    [ -f "$base.vcd" ] && vcd_args="--vcd $tmp/out.vcd"
    rm -f "$tmp/out.vcd"
    # shellcheck disable=SC2086
    $wrapper "$build/pmubench" run "$script" $vcd_args $args >"$tmp/stdout" 2>"$tmp/stderr"
    status=$?
    if [ -f "$base.err" ]; then
        want=2
        [ -f "$base.status" ] && want=$(cat "$base.status")
        if [ "$status" -ne "$want" ]; then
            fail "$script: exit status $status, expected $want"; cat "$tmp/stderr"; continue
        fi
        if ! diff -u "$base.err" "$tmp/stderr"; then fail "$script: stderr differs"; continue; fi
        if [ -s "$tmp/stdout" ] && [ ! -f "$base.out" ]; then
            fail "$script: printed output although it failed"; continue
        fi
    else
        if [ "$status" -ne 0 ]; then
            fail "$script: exit status $status"; cat "$tmp/stderr"; continue
        fi
        if [ -s "$tmp/stderr" ]; then fail "$script: wrote to stderr"; cat "$tmp/stderr"; continue; fi
    fi
    if [ -f "$base.out" ] && ! diff -u "$base.out" "$tmp/stdout"; then
        fail "$script: output differs"; continue
    fi
    if [ -f "$base.vcd" ] && ! diff -u "$base.vcd" "$tmp/out.vcd"; then
        fail "$script: waveform differs"; continue
    fi
    pass
done

# 3. Command-line tests (exit codes and messages of the CLI itself):
# tests/cli_tests.sh first (it defines expect and trace_shows), then each
# command's own tests/cli_*.sh.
. tests/cli_tests.sh
for cli_script in tests/cli_*.sh; do
    [ "$cli_script" = tests/cli_tests.sh ] || . "$cli_script"
done

# 4. Every test docs/semantics.md names exists.
missing=$(grep -o 'bench:[a-z0-9_]\+\|unit:test_[a-z0-9_]\+' docs/semantics.md | sort -u |
    while read -r ref; do
        name=${ref#*:}
        case $ref in
            bench:*) [ -f "tests/bench/$name.pmu" ] || echo "$ref" ;;
            unit:*) [ -f "tests/unit/$name.c" ] || echo "$ref" ;;
        esac
    done)
if [ -z "$missing" ]; then pass; else fail "docs/semantics.md names missing tests:" $missing; fi

# 5. Differential test against libpfm4 (docs/events.md, "Differential test
# against libpfm4"): one test; its own summary line is shown.
if [ -x "$build/tests/libpfm4_diff" ]; then
    if $wrapper "$build/tests/libpfm4_diff" tests/diff/libpfm4_exceptions.txt >"$tmp/diff.out" 2>&1; then
        pass
    else
        grep -v '^netburst' "$tmp/diff.out"
        fail "$build/tests/libpfm4_diff"
    fi
    grep '^libpfm4-diff: [0-9]* passed' "$tmp/diff.out"
fi

# 5. The recorder's accuracy against perf (tests/traces/accuracy.sh), or,
# where perf cannot count, against ptrace single-stepping
# (tests/traces/stepcount.c).
if [ -x "$build/recorder/pmutrace-amd64-linux" ]; then
    sh tests/traces/accuracy.sh "$build" >"$tmp/accuracy.out" 2>&1
    case $(head -1 "$tmp/accuracy.out") in
    "accuracy: skipped"*) cat "$tmp/accuracy.out" ;;
    *)
        grep '^accuracy: reference' "$tmp/accuracy.out"
        while read -r word rest; do
            case $word in ok) pass ;; FAIL) fail "accuracy: $rest" ;; esac
        done <"$tmp/accuracy.out"
        ;;
    esac
fi

# 6. The decoder against objdump (docs/isa.md, "The objdump check"); not
# under the wrapper: it decodes some 770,000 instructions.
if [ -x "$build/tests/objdump_check" ]; then
    if sh tests/isa/objdump_check.sh "$build" >"$tmp/objdump.out" 2>&1; then
        pass
    else
        cat "$tmp/objdump.out"; fail "tests/isa/objdump_check.sh"
    fi
    grep '^objdump-check: [0-9]* agreed' "$tmp/objdump.out"
fi

echo "check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
