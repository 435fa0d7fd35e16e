# A signal sent to pmubench alone (docs/exit-status.md, "Signals"): every
# child ends with it, every temporary file goes, and the status is 128 + the
# signal.  Sourced by run_tests.sh after tests/cli_tests.sh (its helpers).
# pmubench runs here without $wrapper: the signal goes to its process.
sig=$tmp/signals
mkdir -p "$sig"
# The program the children run: `sleep`, under a name no other process has,
# which their command lines (valgrind's, GNU parallel's jobs') show.
ln -sf "$(command -v sleep)" "$sig/sleeper"

# signal_check SIGNAL CHILDREN -- ARGS...: runs `pmubench ARGS` in the
# background with TMPDIR=$sig/tmp (empty) and SIGINT at its default action
# (a shell starts a background job with SIGINT ignored), waits until a
# process other than pmubench has $sig in its command line (the child at
# work: valgrind, the program, GNU parallel's job), sends SIGNAL to
# pmubench's process alone and waits for it: its status must be 128 +
# SIGNAL's number, no process with $sig in its command line and none of
# pmubench's children at the time of the signal may be left, nor anything
# in TMPDIR.  CHILDREN names the case in messages.
signal_check() {
    sc_signal=$1 sc_what=$2
    shift 3
    rm -rf "$sig/tmp" && mkdir "$sig/tmp"
    TMPDIR=$sig/tmp env --default-signal=INT "$build/pmubench" "$@" >/dev/null 2>"$sig/err" &
    sc_pid=$!
    # Bounded: 20 s for the child to start, then 20 s for pmubench to end.
    sc_tries=0
    while [ -z "$(pgrep -f "$sig/" | grep -vx "$sc_pid")" ] && [ $sc_tries -lt 200 ]; do
        sleep 0.1
        sc_tries=$((sc_tries + 1))
    done
    sc_children=$(pgrep -P "$sc_pid")
    kill "-$sc_signal" "$sc_pid"
    # Until it has ended (a zombie until `wait`: state Z).
    sc_tries=0
    while case $(ps -o stat= -p "$sc_pid") in "" | Z*) false ;; esac && [ $sc_tries -lt 200 ]; do
        sleep 0.1
        sc_tries=$((sc_tries + 1))
    done
    kill -KILL "$sc_pid" 2>/dev/null
    wait "$sc_pid" 2>/dev/null
    sc_status=$?
    sc_left=$(pgrep -f "$sig/")
    for sc_child in $sc_children; do
        kill -0 "$sc_child" 2>/dev/null && sc_left="$sc_left $sc_child"
    done
    sc_files=$(ls -A "$sig/tmp")
    case $sc_signal in HUP) sc_want=129 ;; INT) sc_want=130 ;; TERM) sc_want=143 ;; esac
    if [ -z "$sc_children" ]; then
        fail "$sc_what: no child ran before SIG$sc_signal ($(cat "$sig/err"))"
    elif [ "$sc_status" -eq "$sc_want" ] && [ -z "$sc_left" ] && [ -z "$sc_files" ]; then
        pass
    else
        fail "$sc_what, SIG$sc_signal: status $sc_status (expected $sc_want), processes left '$sc_left', in TMPDIR '$sc_files'"
    fi
    # Whatever a failure left, ended here (by their pids).
    for sc_child in $(pgrep -f "$sig/"); do kill -KILL "$sc_child" 2>/dev/null; done
}

if [ -x "$build/recorder/pmutrace-amd64-linux" ]; then
    # record: valgrind ends, the trace's temporary file goes; FILE is not made.
    signal_check TERM "record" -- record -o "$sig/tmp/out.trace" -- "$sig/sleeper" 30
    signal_check INT "record" -- record -o "$sig/tmp/out.trace" -- "$sig/sleeper" 30
    signal_check HUP "record" -- record -o "$sig/tmp/out.trace" -- "$sig/sleeper" 30
    # stat and p5mon record into a temporary trace in TMPDIR.
    signal_check TERM "stat -- PROGRAM" -- stat -- "$sig/sleeper" 30
    signal_check INT "stat -- PROGRAM" -- stat -- "$sig/sleeper" 30
    signal_check TERM "p5mon" -- p5mon -F "command=$sig/sleeper 30" -Fcount_clocks=yes
    # The terminal's interrupt (SIGINT to the whole foreground process
    # group, from a pseudo-terminal of `script`) is the program's, as under
    # system(): it ends the program, and the trace of its run is kept.  The
    # key is pressed once the program sleeps: valgrind's process is in
    # clock_nanosleep or nanosleep (syscall 230 or 35 in /proc/PID/syscall
    # on amd64; a key pressed while valgrind still starts, which takes
    # seconds on a loaded machine, ends it before anything is recorded), or
    # 3 s after valgrind has started where that file cannot be read; 20 s
    # at most.  script -e returns
    # pmubench's status (128 + N for a signal); the shell it starts execs
    # pmubench, since a shell left waiting gets the interrupt too, and dash
    # ends with it.
    rm -f "$sig/tty.trace"
    (sc_tries=0
        while [ -z "$(pgrep -f "pmutrace-program=$sig/sleeper")" ] && [ $sc_tries -lt 200 ]; do
            sleep 0.1
            sc_tries=$((sc_tries + 1))
        done
        sc_pid=$(pgrep -f "pmutrace-program=$sig/sleeper" | head -n 1)
        if [ -r "/proc/$sc_pid/syscall" ]; then
            while [ $sc_tries -lt 200 ]; do
                case $(cut -d' ' -f1 "/proc/$sc_pid/syscall" 2>/dev/null) in 230 | 35) break ;; esac
                sleep 0.1
                sc_tries=$((sc_tries + 1))
            done
        else
            sleep 3
        fi
        printf '\003' && sleep 1) |
        SHELL=/bin/sh script -qec "exec '$build/pmubench' record -o '$sig/tty.trace' -- '$sig/sleeper' 30" /dev/null >/dev/null 2>&1
    sc_status=$?
    if [ "$sc_status" -eq 130 ]; then
        trace_shows "$sig/tty.trace" '"end": "killed", "code": 2,' "record, the terminal's interrupt"
    else
        fail "record, the terminal's interrupt: status $sc_status (expected 130)"
    fi
fi
if command -v valgrind >/dev/null; then
    signal_check TERM "compare lackey:" -- compare lackey: tests/compare/small_sim.json -- "$sig/sleeper" 30
fi
signal_check TERM "compare measure:" -- compare measure: tests/compare/small_sim.json -- "$sig/sleeper" 30

# sweep: GNU parallel and its running job end.  The job reads a FIFO that
# nothing writes: it waits until it is ended.
if command -v parallel >/dev/null && parallel --version 2>/dev/null | grep -q '^GNU parallel'; then
    rm -f "$sig/fifo.trace"
    mkfifo "$sig/fifo.trace"
    printf 'trace fifo.trace\nmodel netburst-northwood\n' >"$sig/s.sweep"
    signal_check TERM "sweep" -- sweep --dir "$sig/results" --csv "$sig/out.csv" "$sig/s.sweep"
    signal_check INT "sweep" -- sweep --dir "$sig/results" --csv "$sig/out.csv" "$sig/s.sweep"
fi
