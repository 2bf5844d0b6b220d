# SPDX-License-Identifier: BSD-2-Clause
# scaletop run and list, driven as a user would: real short sweeps of
# built-in workloads and of a real external command, faults in the workload,
# signals, argument errors, and nothing left behind.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
export TMPDIR="$T"
FAST="-d 0.6 --warmup 0.2 --interval 0.1 -q"
# STEADY: a step measures until its CI is within 50% of its mean (twice as
# tight as any ok step's), at least the 0.6 s of FAST and at most 10 s: a
# check that every step is ok then holds on a busy machine, where a 0.6 s
# step beside a CPU loop can come out wider than its mean.
STEADY="--warmup 0.2 --interval 0.1 -q --until-stable 50 --min-time 0.6 -d 10"

# no_leftovers PATTERN: no process of this test (own_procs: TMPDIR=$T is
# exported above) whose command line matches is left; another suite's on the
# machine are not looked at.
no_leftovers() {
	no_own_procs "$T" "$1"
}

# --- progress on stderr, as the terminal allows -------------------------------
# pty_run COLS TERM OUT CMD...: CMD with stderr on a pseudo-terminal COLS wide
# (stdout to OUT.stdout), its raw bytes to OUT.  Output post-processing is off,
# so a '\r' in OUT is the program's own, not the terminal's newline.
cat >"$T/pty_run.py" <<'PY'
import fcntl, os, struct, subprocess, sys, termios
cols, term, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
master, slave = os.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
attrs = termios.tcgetattr(slave)
attrs[1] &= ~termios.OPOST
termios.tcsetattr(slave, termios.TCSANOW, attrs)
env = dict(os.environ, TERM=term)
if term == "-":
    del env["TERM"]
with open(out + ".stdout", "wb") as so:
    p = subprocess.Popen(sys.argv[4:], stdin=subprocess.DEVNULL, stdout=so, stderr=slave, env=env)
os.close(slave)
data = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    data += chunk
open(out, "wb").write(data)
sys.exit(p.wait())
PY
# progress_check FILE: "STEPS REDRAWS WIDEST": the step lines, the lines
# redrawn in place (after '\r', no newline), and the widest of those.
cat >"$T/progress_check.py" <<'PY'
import sys
data = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
steps = redraws = widest = 0
for seg in data.split("\r"):
    seg = seg.replace("\x1b[K", "")
    if "\n" in seg:
        steps += sum(1 for l in seg.split("\n") if l.startswith("["))
    elif seg.startswith("["):
        redraws += 1
        widest = max(widest, len(seg))
print(steps, redraws, widest)
PY
PROG="-w cpu -n 1,2 -d 0.6 --warmup 0.2 --interval 0.1"
pty_progress() {
	"$PYTHON" "$T/pty_run.py" "$@" "$SCALETOP" run $PROG >/dev/null 2>&1
}
pty_progress 200 dumb "$T/dumb.tty"
is "$?" 0 "run on a TERM=dumb terminal exits 0"
is "$(tr -cd '\033\r' <"$T/dumb.tty" | wc -c | tr -d ' ')" 0 "TERM=dumb: no escape and no carriage return"
is "$("$PYTHON" "$T/progress_check.py" "$T/dumb.tty")" "2 0 0" "TERM=dumb: a plain line per step, none redrawn"
pty_progress 200 - "$T/noterm.tty"
is "$(tr -cd '\033\r' <"$T/noterm.tty" | wc -c | tr -d ' ')" 0 "no TERM at all: plain lines too"
pty_progress 200 xterm-256color "$T/xterm.tty"
set -- $("$PYTHON" "$T/progress_check.py" "$T/xterm.tty")
is "$1" 2 "xterm: the two step lines"
ok "xterm: the progress line is redrawn in place ($2 times)" test "$2" -gt 0
ok "200 columns: the widest progress line ($3) is whole" test "$3" -gt 40 -a "$3" -lt 199
pty_progress 40 xterm-256color "$T/narrow.tty"
is "$("$PYTHON" "$T/progress_check.py" "$T/narrow.tty" | cut -d' ' -f3)" 39 \
	"40 columns: the progress line is cut to 39"
COLUMNS=30 pty_progress 200 xterm-256color "$T/columns.tty"
is "$("$PYTHON" "$T/progress_check.py" "$T/columns.tty" | cut -d' ' -f3)" 29 \
	"COLUMNS=30 on a wider terminal: cut to 29"
unset COLUMNS
TERM=xterm-256color "$SCALETOP" run $PROG >/dev/null 2>"$T/file.err"
is "$(tr -cd '\033\r' <"$T/file.err" | wc -c | tr -d ' ')" 0 "stderr to a file: plain lines, as before"
# A step on a busy machine may end unstable ("N=1 unstable: ..."): still its line.
is "$(grep -cE '^\[[12]/2\] N=[12]( unstable)?: ' "$T/file.err")" 2 "and a line per step" ||
	diag "$(cat "$T/file.err")"

# --- list -------------------------------------------------------------------
"$SCALETOP" list >"$T/list"
is "$?" 0 "list exits 0"
for w in cpu memory mutex spinlock fileio fdshare fdtable unixsock pagefault; do
	like "$(cat "$T/list")" "^$w " "list names $w"
done

# --- a built-in sweep, JSON -------------------------------------------------
# Each try's windows are logged; a step still wider than its mean at 10 s is
# tried again (one was, beside the suite-under-load bench's CPU loop, at 64a7ffe).
run_steady 3 "$T/cpu.json" -w cpu -n 1,2 $STEADY
is "$?" 0 "run cpu -n 1,2 exits 0"
is "$(json_get "$T/cpu.json" 'd["format"]')" "scaletop-snapshot" "JSON names its format"
is "$(json_get "$T/cpu.json" '[s["n"] for s in d["steps"]]')" "[1, 2]" "one step per N, in order"
is "$(json_get "$T/cpu.json" 'all(s["status"] == "ok" for s in d["steps"])')" "True" "every step ok"
is "$(json_get "$T/cpu.json" 'all(s["ops_s"] > 0 and s["ops"] > 0 for s in d["steps"])')" "True" \
	"every step counted operations"
is "$(json_get "$T/cpu.json" 'all(abs(s["ops_s"] - s["ops"] / s["window_s"]) < 1e-6 * s["ops_s"] for s in d["steps"])')" \
	"True" "headline ops/s is ops over the measured window"
is "$(json_get "$T/cpu.json" 'all(s["warmup_s"] >= 0.2 for s in d["steps"])')" "True" \
	"warm-up lasted at least what was asked, and is not counted"
is "$(json_get "$T/cpu.json" 'd["steps"][0]["speedup"]')" "1.0" "speedup at N=1 is 1"
is "$(json_get "$T/cpu.json" 'len(d["steps"][0]["cpu"]["per_cpu"]) == d["host"]["ncpus"]')" "True" \
	"each step has a per-CPU breakdown"
is "$(json_get "$T/cpu.json" 'd["steps"][1]["contention"]["ops_per_cpu_s"] > 0')" "True" \
	"contention: operations per CPU-second measured"
is "$(json_get "$T/cpu.json" 'd["steps"][1]["intervals"]["count"] >= 3')" "True" \
	"interval samples were taken"

# --- repeats and until-stable -------------------------------------------------
"$SCALETOP" run -w cpu -n 1,2 $FAST --repeat 2 --json >"$T/rep.json" 2>/dev/null
is "$?" 0 "--repeat 2 exits 0"
is "$(json_get "$T/rep.json" '[(s["n"], s["rep"]) for s in d["steps"]]')" "[(1, 0), (1, 1), (2, 0), (2, 1)]" \
	"--repeat 2 runs every N twice, in order"
"$SCALETOP" run -w cpu -n 1 --warmup 0.2 --interval 0.1 --until-stable=0.0001 --min-time 0.3 -d 0.8 -q \
	--json >"$T/unst.json" 2>/dev/null
is "$(json_get "$T/unst.json" 'd["steps"][0]["status"]')" "unstable" \
	"a step that never reaches its CI target is marked unstable, not averaged silently"
like "$(json_get "$T/unst.json" 'd["steps"][0]["reason"]')" 'CI .* target 0\.0' "and says how far it got"
is "$(json_get "$T/unst.json" 'd["settings"]["stable_pct"]')" "0.0001" "the target is recorded"
run_steady 3 "$T/stab.json" -w cpu -n 1 --warmup 0.2 --interval 0.1 --until-stable 50 \
	--min-time 0.5 -d 20 -q
is "$(json_get "$T/stab.json" 'd["steps"][0]["status"]')" "ok" "a loose CI target is reached"
is "$(json_get "$T/stab.json" 'd["steps"][0]["window_s"] < 20')" "True" \
	"until-stable stops before the -d cap once the CI is tight enough"

# --- lock workload in process mode reports lock wait -------------------------
"$SCALETOP" run -w mutex -n 2 $FAST --mode processes --json >"$T/mutex.json" 2>"$T/mutex.err"
is "$?" 0 "run mutex in process mode exits 0"
is "$(json_get "$T/mutex.json" 'd["workload"]["mode"]')" "processes" "mode is recorded"
is "$(json_get "$T/mutex.json" 'd["steps"][0]["contention"]["lock_wait_pct"] is not None')" "True" \
	"mutex reports lock-wait %"

# --- table output --------------------------------------------------------------
"$SCALETOP" run -w cpu -n 1 $FAST >"$T/table" 2>&1
is "$?" 0 "table run exits 0"
like "$(sed -n 2p "$T/table")" '^ +N +ops/s +±CI +p50 +p99 +speedup +eff +CPU% +sys% +vcsw/kop +ivcsw/kop' \
	"table header has the documented columns"
# The row's layout is what is checked: a step this short may come out
# unstable on a busy machine, which the status column then says.
like "$(sed -n 3p "$T/table")" '^ +1 +[0-9.]+[kMG]? +[0-9.]+% +[0-9.]+[nu]?s +[0-9.]+[num]?s +1\.00 +100% .* (ok|noisy|unstable: .*)$' \
	"table row for N=1: the operations' p50 and p99 after the CI"

# --- external command -------------------------------------------------------
# Live sysbench, pgbench and MariaDB runs are tests/live/*.sh.
# pgbench reports progress on stderr and its summary on stdout: both are read.
# A recorded run, replayed stream by stream, a progress line every 0.1 s;
# the replay's first argument is its exit status.
# Its stamps say 3 s: a window of 0 to 3 s counts the three.
pgrec=$top_srcdir/tests/fixtures/pgbench/streams-c2
pg_replay() {
	{
		echo "while IFS= read -r line; do printf '%s\\n' \"\$line\" >&2; sleep 0.1; done <'$1.stderr'"
		echo "cat '$1.stdout'"
		echo "exit \$1"
	} >"$2"
}
pg_replay "$pgrec" "$T/pgbench-replay"
PGWIN="-d 3 --warmup 0 --interval 0.1 -q"
"$SCALETOP" run --cmd "sh $T/pgbench-replay 0" --parse pgbench -n 1 $PGWIN --json >"$T/pg.json" 2>/dev/null
is "$?" 0 "pgbench through --cmd (recorded streams) exits 0"
is "$(json_get "$T/pg.json" 'd["steps"][0]["intervals"]["count"]')" "3" \
	"pgbench's three progress lines on stderr are its intervals"
is "$(json_get "$T/pg.json" '"%.1f %s" % (d["steps"][0]["ops_s"], d["steps"][0]["no_intervals"])')" \
	"1751.6 False" "throughput is their mean (1744.8, 1780.0, 1730.0 tps), not the summary's"
is "$(json_get "$T/pg.json" 'd["workload"]["unit"]')" "transactions" "unit from pgbench's tps"
"$SCALETOP" run --cmd "sh $T/pgbench-replay 2" --parse pgbench -n 1 $PGWIN --json \
	>"$T/pgfail.json" 2>/dev/null
is "$(json_get "$T/pgfail.json" 'd["steps"][0]["reason"]')" \
	"exited with status 2: starting vacuum...end." \
	"a failure names the last stderr line that was not a progress report"
# --progress-timestamp stamps lines with Unix time (1796124048.528 s, ...): the
# first sets the origin, the next two (0.999 s and 1.028 s) are the intervals.
pg_replay "$top_srcdir/tests/fixtures/pgbench/streams-ts-c2" "$T/pgbench-ts"
"$SCALETOP" run --cmd "sh $T/pgbench-ts 0" --parse pgbench -n 1 $PGWIN --json >"$T/pgts.json" 2>/dev/null
is "$(json_get "$T/pgts.json" '"%d %.1f %.3f" % (d["steps"][0]["intervals"]["count"], d["steps"][0]["ops_s"], d["steps"][0]["window_s"])')" \
	"2 176.6 2.027" "epoch stamps: rebased, two intervals over 2.027 s, not one of 1.8e9 s"

# --- lines without a stamp: timed by their arrival ------------------------------
# One line a second for 6 s, -d 4 after the 1 s warm-up: the four whose middles
# lie in 1..5 s are counted, over their arrival times (each gap is a sleep 1).
persec="sh -c 'i=0; while [ \$i -lt 6 ]; do sleep 1; echo \"1000 ops\"; i=\$((i + 1)); done'"
"$SCALETOP" run --cmd "$persec" --parse-regex '([0-9]+) ops' -n 1 -d 4 -q --json \
	>"$T/persec.json" 2>/dev/null
is "$(json_get "$T/persec.json" 'd["steps"][0]["intervals"]["count"]')" "4" \
	"regex lines once a second, -d 4: four intervals counted"
is "$(json_get "$T/persec.json" '3.9 <= d["steps"][0]["window_s"] < 8')" "True" \
	"and the window is their arrival times' span (about 4 s, not 4 ticks)"
is "$(json_get "$T/persec.json" '[abs(s["ops"] - 1000 * s["window_s"]) <= 1 and abs(s["ops_s"] - 1000) < 1e-6 for s in d["steps"]]')" \
	"[True]" "the ops go with that window: 1000/s over it"
"$SCALETOP" run --cmd "sh -c 'sleep 2; echo rate 1234'" --parse-regex 'rate ([0-9]+)' -n 1 -d 1 -q \
	--json >"$T/final.json" 2>/dev/null
is "$?" 0 "a command printing one final line: exit 0"
is "$(json_get "$T/final.json" '"%s %.1f" % (d["steps"][0]["status"], d["steps"][0]["ops_s"])')" \
	"ok 1234.0" "its one figure is its rate over its run"
"$SCALETOP" run --cmd "sh -c 'echo rate 55'" --parse-regex 'rate ([0-9]+)' -n 1 -q \
	--json >"$T/final0.json" 2>/dev/null
is "$(json_get "$T/final0.json" '"%s %.1f %s" % (d["steps"][0]["status"], d["steps"][0]["ops_s"], d["steps"][0]["no_intervals"])')" \
	"ok 55.0 True" "a figure printed within the warm-up is still the run's, with no intervals"

# --- --parse elapsed: each run timed to its exit -------------------------------
"$SCALETOP" run --cmd "sh -c 'sleep 0.5'" --parse elapsed -n 1,2 -q --json >"$T/el.json" 2>/dev/null
is "$?" 0 "--parse elapsed: exit 0"
is "$(json_get "$T/el.json" '[s["status"] for s in d["steps"]]')" "['ok', 'ok']" "every run ok"
is "$(json_get "$T/el.json" 'd["workload"]["unit"] + " " + d["workload"]["parser"]')" "runs elapsed" \
	"the unit is runs, the parser elapsed"
is "$(json_get "$T/el.json" '[(s["ops"], s["window_s"] >= 0.5, abs(s["ops_s"] * s["window_s"] - 1) < 1e-9, s["no_intervals"]) for s in d["steps"]]')" \
	"[(1, True, True, True), (1, True, True, True)]" \
	"a run is one operation over its wall time (at least the 0.5 s it sleeps)"
"$SCALETOP" run --cmd "sh -c 'sleep 0.2'" --parse elapsed --ops 64:MiB --repeat 2 -n 1 -q --json \
	>"$T/elk.json" 2>/dev/null
is "$(json_get "$T/elk.json" '"%s %d %s" % (d["workload"]["unit"], len(d["steps"]), all(s["ops"] == 64 and abs(s["ops_s"] * s["window_s"] - 64) < 1e-6 for s in d["steps"]))')" \
	"MiB 2 True" "--ops 64:MiB: K operations per run, in that unit; --repeat runs it again"
is "$(json_get "$T/elk.json" 'd["workload"]["params"]["ops"]')" "64:MiB" "and K is recorded"
# The work is in a child: a bounded busy loop in an inner shell the outer one waits for.
busy="sh -c 'sh -c \"i=0; while [ \\\$i -lt 100000 ]; do i=\\\$((i + 1)); done\"; true'"
# A 1 s tick: the run (a quarter second or so) ends before the first, so no
# two tick marks bound it, and its tree's counters must stand on their own.
"$SCALETOP" run --cmd "$busy" --parse elapsed -n 1 --interval 1 -q --json >"$T/eltree.json" 2>/dev/null
is "$(json_get "$T/eltree.json" 'd["steps"][0]["contention"]["cpu_used"] * d["steps"][0]["window_s"] > 0.02')" \
	"True" "a timed run's CPU time includes the processes it started"
"$SCALETOP" run --cmd "sh -c 'exit 3'" --parse elapsed -n 1 -q --json >"$T/elf.json" 2>/dev/null
is "$(json_get "$T/elf.json" 'd["steps"][0]["status"] + ": " + d["steps"][0]["reason"]')" \
	"failed: exited with status 3" "a timed run that fails is a failed step"
"$SCALETOP" run --cmd "sleep 20" --parse elapsed -n 1 -d 0.3 -q --json >"$T/ell.json" 2>/dev/null
like "$(json_get "$T/ell.json" 'd["steps"][0]["reason"]')" 'still running after 0.3 s \(-d\); killed' \
	"-d limits a timed run"

# --- figures per operation need operations counted: null and '-', never 0 ------
# sysbench without --report-interval prints only its summary (recorded): the
# window's switches and CPU are measured, but no operation was counted in it.
# The loop keeps the command busy in the window, the sleep alive through it on any machine.
# step_rows FILE: the rows of the results table (after its header, whose throughput is headed
# in the sweep's unit: events/s for sysbench), not the waits' lines.
step_rows() {
	awk '/^ +N +[^ ]+\/s/ { t = 1; next } t && $1 ~ /^[0-9]+$/ { print; next } { t = 0 }' "$1"
}
sbsum="sh -c 'i=0; while [ \$i -lt 300000 ]; do i=\$((i + 1)); done; sleep 1.5; cat \"\$0\"' $top_srcdir/tests/fixtures/sysbench/cpu-summary.txt"
"$SCALETOP" run --cmd "$sbsum" --parse sysbench -n 1 -d 1 --warmup 0.2 -q -o "$T/sbsum.json" \
	>"$T/sbsum.out" 2>&1
is "$?" 0 "sysbench's summary alone: exit 0"
is "$(json_get "$T/sbsum.json" '[(s["ops_s"] > 0, s["no_intervals"], c["vcsw_s"] is not None, c["vcsw_per_kop"], c["ivcsw_per_kop"], c["ops_per_cpu_s"]) for s in d["steps"] for c in [s["contention"]]]')" \
	"[(True, True, True, None, None, None)]" \
	"no operation counted in the window: switches/s measured, per 1000 ops and ops/CPU-s null"
row=$(step_rows "$T/sbsum.out")
is "$(echo "$row" | awk '{ print $8, $9, $10 }')" "- - -" "run's table: vcsw/kop ivcsw/kop ops/CPUs are '-' ($row)"
"$SCALETOP" show "$T/sbsum.json" >"$T/sbsum.show" 2>&1
is "$(step_rows "$T/sbsum.show" | awk '{ print $8, $9, $10 }')" "- - -" "and show's"
"$SCALETOP" run --cmd "sh -c 'sleep 0.3; exit 3'" --parse elapsed -n 1 -q -o "$T/elfail.json" \
	>"$T/elfail.out" 2>&1
is "$(json_get "$T/elfail.json" '[(s["status"], s["ops_s"], c["vcsw_s"] is not None, c["vcsw_per_kop"], c["ivcsw_per_kop"], c["ops_per_cpu_s"]) for s in d["steps"] for c in [s["contention"]]]')" \
	"[('failed', None, True, None, None, None)]" \
	"a failed step: no throughput, so nothing per operation either (not 1 run's 1000 switches)"
is "$(step_rows "$T/elfail.out" | awk '{ print $2, $8, $9, $10 }')" "- - - -" \
	"run's table: '-' beside ops/s '-'"
# Files an older scaletop wrote that way: read as unknown, shown as '-'.
"$PYTHON" - "$T/sbsum.json" "$T/old-perop.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ok = d["steps"][0]
ok["contention"].update(vcsw_s=0.5, ivcsw_s=246.9, vcsw_per_kop=0.0, ivcsw_per_kop=0.0,
                        kernel_pct=1.0, cpu_used=0.855, ops_per_cpu_s=0.0)
bad = json.loads(json.dumps(ok))
bad.update(n=2, status="failed", reason="exited with status 3", ops_s=None, speedup=None,
           efficiency=None)
bad["contention"].update(vcsw_per_kop=1000.0, ivcsw_per_kop=5.0, ops_per_cpu_s=1020.0)
d["steps"].append(bad)
d["settings"]["n"] = [1, 2]
json.dump(d, open(sys.argv[2], "w"))
PY
"$SCALETOP" show "$T/old-perop.json" >"$T/old-perop.show" 2>&1
is "$(step_rows "$T/old-perop.show" | awk '{ print $1, $8, $9, $10 }' | tr '\n' ';')" \
	"1 - - -;2 - - -;" "an older file's 0 per-op beside switches counted, and a failed step's, show '-'"

# A step whose intervals swing from 100 to 5000 tps has a CI wider than its
# mean: it is not ok, and an external step cannot be measured on, so unstable.
{
	echo 'for t in 1 2 3 4 5 6; do'
	echo '  r=100; [ $((t % 2)) -eq 0 ] && r=5000'
	echo '  echo "progress: $t.0 s, $r.0 tps, lat 1.000 ms stddev 0.100, 0 failed" >&2; sleep 0.05'
	echo 'done'
} >"$T/pgbench-swing"
"$SCALETOP" run --cmd "sh $T/pgbench-swing" --parse pgbench -n 1 --warmup 0 -d 6 -q --json >"$T/swing.json" 2>/dev/null
is "$(json_get "$T/swing.json" 'd["steps"][0]["status"]')" "unstable" \
	"a step whose CI is wider than its mean is not ok"
like "$(json_get "$T/swing.json" 'd["steps"][0]["reason"]')" '^95% CI \+-[0-9]+% of the mean over .*: wider than the mean itself$' \
	"and its reason gives the width and the limit"

"$SCALETOP" run --cmd 'no-such-command-xyz {n}' --parse sysbench -n 1 -d 1 -q >"$T/nc" 2>&1
is "$?" 1 "a command that cannot run fails the step, exit 1"
like "$(cat "$T/nc")" 'no-such-command-xyz: command not found' "and says why"

# --- faults -------------------------------------------------------------------
"$SCALETOP" run --cmd 'false' --parse sysbench -n 1,2 -d 1 -q --json >"$T/false.json" 2>/dev/null
is "$?" 1 "a failing command: exit 1"
is "$(json_get "$T/false.json" '[s["status"] for s in d["steps"]]')" "['failed', 'failed']" \
	"every step failed, and the sweep went on"
like "$(json_get "$T/false.json" 'd["steps"][0]["reason"]')" 'exited with status 1' "the reason is kept"
is "$(json_get "$T/false.json" 'sum(e["kind"] == "failure" for e in d["events"])')" "2" \
	"each failure is an event"
"$SCALETOP" run --cmd 'false' --parse sysbench -n 1,2 -d 1 -q --stop-on-failure --json \
	>"$T/stop.json" 2>/dev/null
is "$(json_get "$T/stop.json" 'len(d["steps"])')" "1" "--stop-on-failure ends the sweep"

# --- a command that daemonises: outside its group, still never left behind -------
# setsid puts the sleep in a session and group of its own, where killing the
# command's group cannot reach it; the monitor adopts it and kills it.
daemon="sh -c 'setsid sleep 97.5 & for i in 1 2 3; do echo rate=100; sleep 0.2; done'"
"$SCALETOP" run --cmd "$daemon" --parse-regex 'rate=([0-9.]+)' -n 1,2 $FAST --json \
	>"$T/daemon.json" 2>/dev/null
is "$?" 0 "a command that leaves a daemon behind still completes"
ok "no daemon left after the sweep" no_leftovers 'sleep 97\.5'
is "$(json_get "$T/daemon.json" 'sum("left running outside its process group" in e["text"] for e in d["events"])')" \
	"2" "each step's leftover is killed and reported as an event"
"$SCALETOP" run --cmd "sh -c 'setsid sleep 97.6 & sleep 30'" --parse-regex 'rate=([0-9.]+)' \
	-n 1 -d 30 -q >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && [ -z "$(own_procs "$T" 'sleep 97\.6')" ]; do sleep 0.05; i=$((i + 1)); done
kill -TERM $pid
wait $pid
is "$?" $((128 + 15)) "SIGTERM during a daemonising command: status 143"
ok "no daemon left after SIGTERM" no_leftovers 'sleep 97\.6'
for p in $(own_procs "$T" 'sleep 97\.[56]' | cut -d' ' -f1); do kill "$p" 2>/dev/null; done

# --- signals: the whole group dies, files go -----------------------------------
"$SCALETOP" run -w fileio -n 2 -d 30 -q >"$T/sig.out" 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && ! ls "$T" | grep -q '^scaletop-fileio'; do sleep 0.05; i=$((i + 1)); done
# The step has begun once the monitor has forked its runner (the quiet check before it forks
# nothing).
i=0
while [ $i -lt 200 ] && ! "$PYTHON" -c '
import os, sys
for d in os.listdir("/proc"):
    try:
        if d.isdigit() and open("/proc/%s/stat" % d).read().rsplit(")", 1)[1].split()[1] == sys.argv[1]:
            sys.exit(0)
    except (OSError, IndexError):
        pass
sys.exit(1)
' "$pid"; do sleep 0.05; i=$((i + 1)); done
sleep 0.5
kill -TERM $pid
wait $pid
is "$?" $((128 + 15)) "SIGTERM ends run with status 143"
like "$(cat "$T/sig.out")" 'interrupted by SIGTERM' "the step is marked interrupted"
ok "no worker left after SIGTERM" no_leftovers "scaletop run -w fileio"
is "$(ls "$T" | grep -c '^scaletop-fileio')" 0 "fileio's files are removed"

"$SCALETOP" run -w fdtable -n 2 -d 30 -q >"$T/fdsig.out" 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && ! ls "$T"/scaletop-fdtable.*/fd.1 >/dev/null 2>&1; do
	sleep 0.05
	i=$((i + 1))
done
ok "fdtable made its workers' files" ls "$T"/scaletop-fdtable.*/fd.1
kill -TERM $pid
wait $pid
is "$?" $((128 + 15)) "SIGTERM ends an fdtable run with status 143"
is "$(ls "$T" | grep -c '^scaletop-fdtable')" 0 "fdtable's directory and files are removed"

"$SCALETOP" run -w cpu -n 2 -d 30 -q >"$T/int.out" 2>&1 &
pid=$!
# A job started with & ignores SIGINT until run catches it, which it does before
# its first worker: so ^C is sent once a worker runs (a loaded machine took over 0.5 s).
i=0
while [ $i -lt 200 ] && ! pgrep -P $pid >/dev/null 2>&1; do
	sleep 0.05
	i=$((i + 1))
done
diag "  ^C sent after $i waits of 50 ms for the first worker"
kill -INT $pid
wait $pid
is "$?" 130 "^C ends run with status 130"
ok "no worker left after ^C" no_leftovers "scaletop run -w cpu -n 2 -d 30"

# --- set-up and tear-down commands -------------------------------------------------
"$SCALETOP" run -w cpu -n 1 $FAST --setup "touch $T/setup-ran" --teardown "touch $T/teardown-ran" \
	>/dev/null 2>&1
is "$?" 0 "a sweep with --setup and --teardown exits 0"
ok "--setup ran" test -f "$T/setup-ran"
ok "--teardown ran" test -f "$T/teardown-ran"
"$SCALETOP" run -w cpu -n 1 $FAST --setup false >"$T/setup.out" 2>"$T/setup.err"
is "$?" 1 "a failing --setup stops before any step, exit 1"
like "$(cat "$T/setup.err")" '^scaletop run: --setup command failed: false: exited with status 1' \
	"and says which command and why"

# --- fileio on a full file system --------------------------------------------------
mkdir "$T/small"
if unshare --mount sh -c 'mount -t tmpfs -o size=256k none "$1"' sh "$T/small" 2>"$T/unshare.err"; then
	unshare --mount sh -c 'mount -t tmpfs -o size=256k none "$1" && shift && exec "$@"' sh \
		"$T/small" "$SCALETOP" run -w fileio -p dir="$T/small" -p total=4M -n 1 -d 0.5 -q \
		>/dev/null 2>"$T/enospc.err"
	is "$?" 1 "fileio on a full file system: exit 1"
	like "$(cat "$T/enospc.err")" 'No space left on device .*: free space there' \
		"ENOSPC: one line naming the file and what to do"
	is "$(wc -l <"$T/enospc.err" | tr -d ' ')" 1 "ENOSPC: exactly one line"
else
	# Not root, or a machine that refuses mount namespaces: said with unshare's own words.
	why="no private mount namespace with a tmpfs here (unshare --mount, as uid $(id -u)):"
	why="$why $(tr '\n' ' ' <"$T/unshare.err")"
	for t in "exit 1" "one line naming the file" "exactly one line"; do
		skip "$why" "fileio ENOSPC: $t"
	done
fi
"$SCALETOP" run -w fileio -p dir=/proc -n 1 -d 0.5 -q >/dev/null 2>"$T/ro.err"
is "$?" 1 "fileio in a directory it cannot write: exit 1"
like "$(cat "$T/ro.err")" 'cannot make a work directory in /proc' "and says where"

# --- usage errors ---------------------------------------------------------------
bad() {
	"$SCALETOP" run "$@" >"$T/bad.out" 2>"$T/bad.err"
	st=$?
	is "$st" 2 "run $* exits 2"
	is "$(wc -l <"$T/bad.err" | tr -d ' ')" 1 "run $*: one line on stderr"
}
bad -w nosuch
bad -n 0
bad -n 4-1
bad -d 0
bad -d abc
bad --mode fibers
bad -p hold=5
bad -w mutex -p hold=-1
bad -w fdtable -p kind=close
bad --cmd 'sysbench {n}'
bad --cmd "sysbench 'open" --parse sysbench
bad --cmd 'x' --parse-regex '('
bad --repeat 0
bad --until-stable=150
bad --cmd 'sysbench cpu run' --parse sysbench --until-stable
like "$(cat "$T/bad.err")" "until-stable stops built-in workloads only" "--until-stable with --cmd: refused, saying why"
bad --cmd 'make' --parse nosuch
bad --cmd 'make' --parse elapsed --ops 0
bad --cmd 'make' --parse elapsed --ops 1.5
bad --cmd 'make' --parse elapsed --ops '4:'
bad --cmd 'make' --parse sysbench --ops 4
bad --cmd 'make' --parse elapsed --warmup 1
bad --cmd 'sleep {duration}' --parse elapsed
bad extra-argument
like "$(cat "$T/bad.err")" "extra-argument" "the message names the unexpected word"
# An unknown placeholder is refused before any step, naming the known ones ({N} once ran
# literally at every step).
bad --cmd 'sysbench cpu --threads={N} --time=2 run' --parse sysbench
is "$(cat "$T/bad.err")" 'scaletop run: --cmd: unknown placeholder {N} in command word 3 "--threads={N}"; the known ones are {n} (the step'"'"'s N), {duration} (seconds) and {latlog} (pgbench --log-prefix)' \
	"--cmd with {N}: the placeholder, its word and the known ones"
bad --cmd 'pgbench -c {clients}' --parse pgbench
# --parse: every place that names the parsers names the same ones, and each one named runs.
bad --cmd 'x' --parse regex
is "$(cat "$T/bad.err")" "scaletop run: --parse regex: give the pattern as --parse-regex 'RE' instead" \
	"--parse regex: says to give --parse-regex, with one prefix"
bad --cmd 'x' --parse-regex ''
is "$(cat "$T/bad.err")" "scaletop run: --parse-regex: the regex is empty; give one whose first group is the rate, e.g. 'rate: ([0-9.]+)'" \
	"--parse-regex '': one prefix"
bad --cmd 'x'
needs=$(sed -n "s/^scaletop run: --cmd needs --parse \([a-z|]*\) or --parse-regex 'RE' to read its throughput\$/\1/p" "$T/bad.err")
bad --cmd 'x' --parse nosuch
unknown=$(sed -n "s/^scaletop run: --parse 'nosuch': give \(.*\), or --parse-regex 'RE'\$/\1/p" "$T/bad.err" |
	sed 's/, /|/g; s/ or /|/')
listed=$("$SCALETOP" list | sed -n 's/^external commands: .* with --parse \([a-z|]*\) or --parse-regex .*/\1/p')
synopsis=$("$SCALETOP" run --help | sed -n "s/^ *scaletop run --cmd 'COMMAND {n}' --parse \([a-z|]*\) \[options\]\$/\1/p")
helped=$("$SCALETOP" run --help | sed -n 's/^ *--parse NAME *read its throughput lines: \(.*\); or$/\1/p' | sed 's/, /|/g; s/ or /|/')
like "$needs" '^[a-z]+(\|[a-z]+)+\|elapsed$' "the 'needs --parse' error lists the parsers and elapsed ($needs)"
is "$unknown" "$needs" "  as the unknown --parse error does"
is "$listed|elapsed" "$needs" "  and list, with elapsed on its own ($listed)"
is "$synopsis" "$listed" "  and run --help's synopsis"
is "$helped" "$listed" "  and its --parse line"
for p in $(echo "$listed" | tr '|' ' '); do
	"$SCALETOP" run --cmd "sh -c 'echo'" --parse "$p" -n 1 -d 0.2 --warmup 0 -q >/dev/null 2>&1
	st=$?
	ok "--parse $p, as list names it, is accepted (exit $st: the step ran)" test "$st" -ne 2
done
# A command without {n} runs as given, with one note that N is not passed to it.
"$SCALETOP" run --cmd "sh -c 'echo rate=5'" --parse-regex 'rate=([0-9]+)' -n 1,2 -d 0.2 --warmup 0 \
	>/dev/null 2>"$T/non.err"
is "$?" 0 "--cmd without {n}: it runs"
is "$(grep -c 'note: ' "$T/non.err")" 1 "  with one note"
like "$(grep 'note: ' "$T/non.err")" '^scaletop run: note: --cmd has no \{n\}: every step runs it as given, and N is not passed to it$' \
	"  saying that N is not passed to it"
"$SCALETOP" run --cmd "sh -c 'echo rate={n}'" --parse-regex 'rate=([0-9]+)' -n 1 -d 0.2 --warmup 0 \
	>/dev/null 2>"$T/withn.err"
is "$(grep -c 'note: ' "$T/withn.err")" 0 "--cmd with {n}: no note"

done_testing
