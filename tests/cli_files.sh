# No output over an input, in every command that writes a file
# (util/file_identity.h; README, "Commands"), and the atomic writer's
# links and modes (util/atomic_file.h), sourced by run_tests.sh after
# tests/cli_tests.sh (its helpers, and $tmp/small.trace).  Files are
# compared by identity: the same path spelt twice, a symbolic or a hard
# link, standard input.  Each refusal is exit status 2 and one line, and
# leaves every file as it was.

f=$tmp/files
mkdir -p "$f"
cp tests/bench/demo.pmu "$f/s.pmu"
cp "$f/s.pmu" "$f/s.keep"
ln -sf "$f/s.pmu" "$f/s-link"
cp "$tmp/small.trace" "$f/t.trace"
cp "$f/t.trace" "$f/t.keep"
cp tests/traces/small.lackey "$f/g.lk"
cp tests/traces/small.din "$f/g.din"
ln -f "$f/g.din" "$f/g-hard"
cp /bin/true "$f/victim"
ln -sf victim "$f/victim-link"

# unchanged FILE KEPT WHAT: FILE still has KEPT's content.
unchanged() {
    if cmp -s "$1" "$2"; then pass; else fail "$3: $1 was overwritten"; fi
}

# absent FILE WHAT: a refused command created nothing.
absent() {
    if [ -e "$1" ] || [ -L "$1" ]; then fail "$2: $1 was created"; else pass; fi
}

# ---- run: the script, the --msr-device stand-in, the other output.
expect 2 "pmubench run: --vcd '$f/s.pmu' and SCRIPT '$f/s.pmu' are the same file" -- \
    run "$f/s.pmu" --vcd "$f/s.pmu"
unchanged "$f/s.pmu" "$f/s.keep" "run --vcd over the script"
expect 2 "pmubench run: --record '$f/s-link' and SCRIPT '$f/s.pmu' are the same file" -- \
    run "$f/s.pmu" --record "$f/s-link"
unchanged "$f/s.pmu" "$f/s.keep" "run --record through a link to the script"
expect 2 "pmubench run: --vcd '$f/s.pmu' and SCRIPT '-' are the same file" -- \
    run - --vcd "$f/s.pmu" <"$f/s.pmu"
unchanged "$f/s.pmu" "$f/s.keep" "run - --vcd over standard input"
# X and ./X name one file, though as strings they differ.
expect 2 "pmubench run: --vcd '$f/X' and --record '$f/./X' are the same file" -- \
    run "$f/s.pmu" --vcd "$f/X" --record "$f/./X"
absent "$f/X" "run --vcd X --record ./X"
head -c 4096 /dev/zero >"$f/msr"
cp "$f/msr" "$f/msr.keep"
printf 'cpu netburst\nrdmsr MSR_IQ_CCCR0\n' >"$f/rd.pmu"
expect 2 "pmubench run: --record '$f/msr' and --msr-device '$f/msr' are the same file" -- \
    run "$f/rd.pmu" --msr-device "$f/msr" --record "$f/msr"
unchanged "$f/msr" "$f/msr.keep" "run --record over the msr stand-in"

# ---- record: the program (as found, links followed) is not its trace.
expect 2 "pmubench record: -o '$f/victim' and PROGRAM '$f/victim' are the same file" -- \
    record -o "$f/victim" -- "$f/victim"
unchanged "$f/victim" /bin/true "record -o PROGRAM"
expect 2 "pmubench record: -o '$f/victim-link' and PROGRAM '$f/victim' are the same file" -- \
    record -o "$f/victim-link" -- "$f/victim"
unchanged "$f/victim" /bin/true "record -o a link to PROGRAM"

# ---- trace import: the lackey or Dinero input, a file or standard input.
expect 2 "pmubench trace import: -o '$f/g.lk' and --lackey '$f/g.lk' are the same file" -- \
    trace import --lackey "$f/g.lk" -o "$f/g.lk"
unchanged "$f/g.lk" tests/traces/small.lackey "trace import -o over --lackey"
expect 2 "pmubench trace import: -o '$f/g.lk' and --lackey '-' are the same file" -- \
    trace import --lackey - -o "$f/g.lk" <"$f/g.lk"
unchanged "$f/g.lk" tests/traces/small.lackey "trace import -o over --lackey -"
expect 2 "pmubench trace import: -o '$f/g-hard' and --dinero '$f/g.din' are the same file" -- \
    trace import --dinero "$f/g.din" -o "$f/g-hard"
unchanged "$f/g.din" tests/traces/small.din "trace import -o over a hard link of --dinero"

# ---- stat: the traces, the program, the msr stand-in; nothing runs.
expect 2 "pmubench stat: -o '$f/t.trace' and --trace '$f/t.trace' are the same file" -- \
    stat -e data_read -o "$f/t.trace" --trace "$f/t.trace"
unchanged "$f/t.trace" "$f/t.keep" "stat -o over --trace"
expect 2 "pmubench stat: -o '$f/t.trace' and --trace '$f/t.trace' are the same file" -- \
    stat -m netburst -e uops_retired:NBOGUS -o "$f/t.trace" --trace "$tmp/small.trace" --trace "$f/t.trace"
unchanged "$f/t.trace" "$f/t.keep" "stat -o over the second --trace"
expect 2 "pmubench stat: -o '$f/victim-link' and PROGRAM '$f/victim' are the same file" -- \
    stat -e data_read -x , -o "$f/victim-link" -- "$f/victim"
unchanged "$f/victim" /bin/true "stat -o over PROGRAM"
expect 2 "pmubench stat: -o '$f/msr' and --msr-device '$f/msr' are the same file" -- \
    stat --backend msr --msr-device "$f/msr" -e data_read -o "$f/msr" -- "$f/victim"
unchanged "$f/msr" "$f/msr.keep" "stat -o over the msr stand-in"

# ---- sample: the trace, --symbols, and the program the trace names.
expect 2 "pmubench sample: -o '$f/t.trace' and --trace '$f/t.trace' are the same file" -- \
    sample -e global_power_events:RUNNING --period 9 --trace "$f/t.trace" -o "$f/t.trace"
unchanged "$f/t.trace" "$f/t.keep" "sample -o over --trace"
expect 2 "pmubench sample: -o '$f/victim-link' and --symbols '$f/victim' are the same file" -- \
    sample -e global_power_events:RUNNING --period 9 --symbols "$f/victim" --trace "$f/t.trace" \
    -o "$f/victim-link"
unchanged "$f/victim" /bin/true "sample -o over --symbols"
if [ -f "$tmp/regions64.trace" ]; then
    ln -sf "$tmp/regions64" "$f/traced-link"
    expect 2 "pmubench sample: -o '$f/traced-link' and the traced program '$tmp/regions64' are the same file" -- \
        sample -e global_power_events:RUNNING --period 9 --trace "$tmp/regions64.trace" -o "$f/traced-link"
    if [ -L "$f/traced-link" ] && [ -x "$tmp/regions64" ]; then pass; else fail "sample -o over the traced program"; fi
fi

# ---- p5mon: PARMS, the trace, the command's program and redirections.
printf '(p5mon\ntrace = %s;\ndata_read = yes;\noutput_file = %s;\nend)\n' "$f/t.trace" "$f/self.parms" \
    >"$f/self.parms"
cp "$f/self.parms" "$f/self.keep"
expect 2 "pmubench p5mon: output_file '$f/self.parms' and PARMS '$f/self.parms' are the same file" -- \
    p5mon "$f/self.parms"
unchanged "$f/self.parms" "$f/self.keep" "p5mon output_file over PARMS"
expect 2 "pmubench p5mon: output_file '$f/t.trace' and trace '$f/t.trace' are the same file" -- \
    p5mon -Ftrace="$f/t.trace" -Fdata_read=yes -Foutput_file="$f/t.trace"
unchanged "$f/t.trace" "$f/t.keep" "p5mon output_file over the trace"
printf '(p5mon\ncommand = %s > %s;\ndata_read = yes;\nend)\n' "$f/victim" "$f/cmd.parms" >"$f/cmd.parms"
cp "$f/cmd.parms" "$f/cmd.keep"
expect 2 "pmubench p5mon: command > '$f/cmd.parms' and PARMS '$f/cmd.parms' are the same file" -- \
    p5mon "$f/cmd.parms"
unchanged "$f/cmd.parms" "$f/cmd.keep" "p5mon command > over PARMS"
expect 2 "pmubench p5mon: output_file '$f/victim-link' and command '$f/victim' are the same file" -- \
    p5mon -Fcommand="$f/victim" -Fdata_read=yes -Foutput_file="$f/victim-link"
unchanged "$f/victim" /bin/true "p5mon output_file over the command's program"
expect 2 "pmubench p5mon: output_file '$f/g.lk' and command < '$f/g.lk' are the same file" -- \
    p5mon -Fcommand="$f/victim < $f/g.lk" -Fdata_read=yes -Foutput_file="$f/g.lk"
expect 2 "pmubench p5mon: output_file '$f/./Y' and command > '$f/Y' are the same file" -- \
    p5mon -Fcommand="$f/victim > $f/Y" -Fdata_read=yes -Foutput_file="$f/./Y"
absent "$f/Y" "p5mon output_file and command > the same new file"

# ---- The atomic writer: through a link to its target, the target's mode
# kept; a new file gets the umask's.
printf 'old\n' >"$f/target"
chmod 600 "$f/target"
ln -sf target "$f/out-link"
expect 0 "" -- stat -e data_read -x , -o "$f/out-link" --trace "$f/t.trace"
if [ -L "$f/out-link" ] && [ "$(cat "$f/target")" = "5,,data_read,," ] &&
    [ "$(stat -c %a "$f/target")" = 600 ]; then
    pass
else
    fail "stat -o through a link: $(ls -l "$f/out-link" "$f/target") $(cat "$f/target")"
fi
(umask 027 && pmubench stat -e data_read -x , -o "$f/new.csv" --trace "$f/t.trace" 2>/dev/null)
if [ "$(stat -c %a "$f/new.csv")" = 640 ]; then pass; else fail "stat -o under umask 027: $(stat -c %a "$f/new.csv")"; fi

# ---- The atomic writer: standard output (a pipe) as -o, through
# /dev/stdout's and /dev/fd/1's links (/proc's link to a pipe reads
# "pipe:[N]", no path): written directly, as without -o; stderr's too.
# (The traces' warnings, docs/stat.md, are set aside.)
warnings='^pmubench stat: warning: '
pmubench stat -e data_read -x , --trace "$f/t.trace" >"$f/plain.csv" 2>/dev/null
for out in /dev/stdout /dev/fd/1; do
    status=$( (pmubench stat -e data_read -x , -o "$out" --trace "$f/t.trace" 2>"$f/pipe.err"; echo $? >"$f/pipe.status") |
        cat >"$f/pipe.csv"; cat "$f/pipe.status")
    if [ "$status" = 0 ] && ! grep -v "$warnings" "$f/pipe.err" && cmp -s "$f/plain.csv" "$f/pipe.csv"; then
        pass; else fail "stat -o $out | cat: status $status, '$(cat "$f/pipe.err")', '$(cat "$f/pipe.csv")'"; fi
done
status=$( (pmubench stat -e data_read -x , -o /dev/stderr --trace "$f/t.trace" 2>&1 >/dev/null; echo $? >"$f/pipe.status") |
    grep -v "$warnings" >"$f/pipe.csv"; cat "$f/pipe.status")
if [ "$status" = 0 ] && cmp -s "$f/plain.csv" "$f/pipe.csv"; then
    pass; else fail "stat -o /dev/stderr 2>&1 | cat: status $status, '$(cat "$f/pipe.csv")'"; fi

# A name of 250 bytes (NAME_MAX is 255): the temporary name beside it is
# short (".pmubench-XXXXXX"), not the name and a suffix.
name=$(printf '%0250d' 0 | tr 0 x)
mkdir -p "$f/names"
expect 0 "" -- stat -e data_read -x , -o "$f/names/$name" --trace "$f/t.trace"
if [ "$(ls -A "$f/names")" = "$name" ] && cmp -s "$f/plain.csv" "$f/names/$name"; then
    pass; else fail "stat -o a 250-byte name: $(ls -A "$f/names")"; fi

# An output that cannot be created fails before the run: the program is
# not recorded (nor run).
if [ -x "$build/recorder/pmutrace-amd64-linux" ]; then
    expect 1 "pmubench stat: $f/no-such-dir/out: cannot create: No such file or directory" -- \
        stat -e clocks -o "$f/no-such-dir/out" -- sh -c ": >'$f/ran'"
    absent "$f/ran" "stat -o into a missing folder"
fi

# stat_result N FILE: a `stat -I 1 --json` result of N intervals (clocks
# 1 and data_read 0 in each), as stat writes it.
stat_result() {
    awk -v n="$1" 'BEGIN {
        printf "{\"model\": \"p5\", \"trace\": \"t\", \"runs\": 1, \"passes\": 1, \"counting\": \"one\", "
        printf "\"counts\": {\"clocks\": %d, \"data_read\": 0}, ", n
        printf "\"interval\": {\"unit\": \"instructions\", \"every\": 1}, \"intervals\": ["
        for (i = 1; i <= n; i++)
            printf "%s{\"end\": %d, \"instructions\": 1, \"cycles\": 1, \"counts\": {\"clocks\": 1, \"data_read\": 0}}", (i > 1 ? ", " : ""), i
        printf "]}\n"
    }' >"$2"
}

# A regular file on a full file system (a tmpfs of 16 KB, in a mount
# namespace of its own where one can be made): errno's reason, and
# neither the file nor a temporary one left.
stat_result 2000 "$f/mid.json"
mkdir -p "$f/small-fs"
if command -v unshare >/dev/null 2>&1 &&
    unshare -m sh -c "mount -t tmpfs -o size=16k tmpfs '$f/small-fs'" 2>/dev/null; then
    unshare -m sh -c "mount -t tmpfs -o size=16k tmpfs '$f/small-fs' &&
        { $wrapper '$build/pmubench' plot -o '$f/small-fs/out.svg' '$f/mid.json' 2>'$f/full.err'
          status=\$?; ls -A '$f/small-fs'; exit \$status; }" >"$f/full.left"
    status=$?
    if [ $status -eq 1 ] && [ ! -s "$f/full.left" ] &&
        [ "$(cat "$f/full.err")" = "pmubench plot: $f/small-fs/out.svg: cannot write: No space left on device" ]; then
        pass; else fail "plot -o on a full tmpfs: status $status, '$(cat "$f/full.err")', left '$(cat "$f/full.left")'"; fi
    # record: the trace written as the program runs.
    if [ -x "$build/recorder/pmutrace-amd64-linux" ]; then
        unshare -m sh -c "mount -t tmpfs -o size=16k tmpfs '$f/small-fs' &&
            { $wrapper '$build/pmubench' record -o '$f/small-fs/t.trace' -- /bin/true 2>'$f/full.err'
              status=\$?; ls -A '$f/small-fs'; exit \$status; }" >"$f/full.left"
        status=$?
        if [ $status -eq 1 ] && [ ! -s "$f/full.left" ] &&
            [ "$(cat "$f/full.err")" = "pmubench record: recording failed: $f/small-fs/t.trace: cannot write: No space left on device" ]; then
            pass; else fail "record -o on a full tmpfs: status $status, '$(cat "$f/full.err")', left '$(cat "$f/full.left")'"; fi
    fi
fi

# Whatever stat writes, plot and compare read: a result of 800000
# intervals is 72 MB (a 64 MB limit refused it), from a file and from a
# pipe.
stat_result 800000 "$f/big.json"
expect 0 "" -- plot -o /dev/null "$f/big.json"
# shellcheck disable=SC2002 # standard input a pipe, not the file
cat "$f/big.json" | pmubench compare - "$f/big.json" >"$f/big.out" 2>"$f/big.err"
status=$?
if [ $status -eq 0 ] && [ ! -s "$f/big.err" ] && grep -q "^clocks  *800000  *800000  *0  *0.00%$" "$f/big.out"; then
    pass; else fail "compare of a 72 MB result: status $status, '$(cat "$f/big.err")'"; fi
rm -f "$f/big.json"
