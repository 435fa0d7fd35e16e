# The progress line of record and stat (docs/stat.md, "Progress"), sourced
# by run_tests.sh after tests/cli_tests.sh: on a pseudo-terminal (util-linux
# script), with the first line forced early by PMUBENCH_PROGRESS_AFTER_MS=0
# (the runs here last well under the second it waits for otherwise).

# on_tty COMMAND: runs the shell command with a terminal for its stdin,
# stdout and stderr (by sh, whatever the caller's SHELL); what the terminal
# showed in $tmp/tty.out.
on_tty() {
    SHELL=/bin/sh script -qec "$1" /dev/null </dev/null >"$tmp/tty.out" 2>&1
}
if command -v script >/dev/null 2>&1 && [ -x "$build/recorder/pmutrace-amd64-linux" ]; then
    pm="$wrapper '$build/pmubench'"
    # record: the line on the terminal when the program's stdout and stderr
    # go elsewhere; none when the program writes to the terminal (its
    # output would run into the line), which shows the output alone.
    PMUBENCH_PROGRESS_AFTER_MS=0 on_tty "$pm record -o '$tmp/progress.trace' -- /bin/true >'$tmp/progress.out' 2>'$tmp/progress.err'"
    if grep -aq "^.record: [0-9.]*M instructions, [0-9.]*M/s" "$tmp/tty.out"; then pass
    else fail "record with its output in files: no progress line: $(od -c "$tmp/tty.out" | head -5)"; fi
    PMUBENCH_PROGRESS_AFTER_MS=0 on_tty "$pm record -o '$tmp/echo.trace' -- /bin/echo out there"
    if [ "$(tr -d '\r' <"$tmp/tty.out")" = "out there" ]; then pass
    else fail "record of a program writing to the terminal: $(od -c "$tmp/tty.out" | head -5)"; fi
    # stat: the share of the trace, which pass of how many (--runs hardware:
    # a pass per run); the line cleared, the counts on stdout those of a run
    # without a terminal.
    stat_args="stat -e branches,clocks,data_read --runs hardware --trace '$tmp/progress.trace'"
    eval "pmubench $stat_args" >"$tmp/progress.want" 2>/dev/null
    PMUBENCH_PROGRESS_AFTER_MS=0 on_tty "$pm $stat_args >'$tmp/progress.got'"
    if grep -aq "^.stat: [0-9.]*M instructions, [0-9.]*M/s, [0-9]*% of the trace, pass 1 of 2" \
        "$tmp/tty.out"; then pass
    else fail "stat on a terminal: no progress line: $(od -c "$tmp/tty.out" | head -5)"; fi
    if cmp -s "$tmp/progress.want" "$tmp/progress.got"; then pass
    else fail "stat on a terminal: other counts than without one"; fi
    # stderr not a terminal (stdout still one): no line, on either.
    PMUBENCH_PROGRESS_AFTER_MS=0 \
        on_tty "$pm record -o '$tmp/progress.trace' -- /bin/true 2>'$tmp/progress.err'"
    if [ ! -s "$tmp/tty.out" ] && [ ! -s "$tmp/progress.err" ]; then pass
    else fail "record with stderr in a file: '$(cat "$tmp/tty.out" "$tmp/progress.err")'"; fi
    PMUBENCH_PROGRESS_AFTER_MS=0 on_tty "$pm $stat_args >/dev/null 2>'$tmp/progress.err'"
    if [ ! -s "$tmp/tty.out" ] && ! grep -q "instructions," "$tmp/progress.err"; then pass
    else fail "stat with stderr in a file: '$(cat "$tmp/tty.out" "$tmp/progress.err")'"; fi
    # A run shorter than the threshold on a terminal: no line (an hour's
    # threshold here, as under valgrind this run lasts over the default
    # second; the default is test_progress_line's, with a fake clock).
    PMUBENCH_PROGRESS_AFTER_MS=3600000 on_tty "$pm $stat_args >/dev/null"
    if ! grep -aq "instructions," "$tmp/tty.out"; then pass
    else fail "a short stat printed a progress line: $(od -c "$tmp/tty.out" | head -5)"; fi
    # A threshold that is not a number of milliseconds (README, "Numbers":
    # the one number rule, which refuses octal-looking 010): one warning
    # line, the counts as ever, exit status 0.
    for bad in x -5 12ms '' 010 86400001; do
        status=0
        (export PMUBENCH_PROGRESS_AFTER_MS="$bad"; eval "pmubench $stat_args") \
            >"$tmp/progress.got" 2>"$tmp/progress.err" || status=$?
        want="pmubench stat: warning: bad PMUBENCH_PROGRESS_AFTER_MS '$bad' (expected a number: decimal or 0x hex, 0 to 86400000); the progress line waits a second"
        if [ "$status" = 0 ] && grep -qxF "$want" "$tmp/progress.err" &&
            cmp -s "$tmp/progress.want" "$tmp/progress.got"; then pass
        else fail "PMUBENCH_PROGRESS_AFTER_MS='$bad': status $status, '$(cat "$tmp/progress.err")'"; fi
    done
fi
