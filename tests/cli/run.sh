# scaletop run and list, driven as a user would: real short sweeps of
# built-in workloads and of a real external command, faults in the workload,
# signals, argument errors, and nothing left behind.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
need pgrep procps
tap_tmpdir
T=$TAP_TMP
export TMPDIR="$T"
FAST="-d 0.6 --warmup 0.2 --interval 0.1 -q"

# json_get FILE EXPR: evaluates a Python expression over the parsed JSON as d.
json_get() {
	"$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# no_leftovers PATTERN: no process whose command line matches is left.
no_leftovers() {
	! pgrep -f "$1" >/dev/null 2>&1
}

# --- list -------------------------------------------------------------------
"$SCALETOP" list >"$T/list"
is "$?" 0 "list exits 0"
for w in cpu memory mutex spinlock fileio fdshare fdtable unixsock pagefault; do
	like "$(cat "$T/list")" "^$w " "list names $w"
done

# --- a built-in sweep, JSON -------------------------------------------------
"$SCALETOP" run -w cpu -n 1,2 $FAST --json >"$T/cpu.json" 2>"$T/cpu.err"
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
"$SCALETOP" run -w cpu -n 1 --warmup 0.2 --interval 0.1 --until-stable 50 --min-time 0.5 -d 20 -q \
	--json >"$T/stab.json" 2>/dev/null
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
like "$(sed -n 2p "$T/table")" '^ +N +ops/s +±CI +speedup +eff +CPU% +sys% +vcsw/kop +ivcsw/kop' \
	"table header has the documented columns"
like "$(sed -n 3p "$T/table")" '^ +1 +[0-9.]+[kMG]? +[0-9.]+% +1\.00 +100% .* ok$' "table row for N=1"

# --- external command -------------------------------------------------------
if command -v sysbench >/dev/null 2>&1; then
	"$SCALETOP" run --cmd 'sysbench cpu --threads={n} --time={duration} --report-interval=1 run' \
		--parse sysbench -n 1 -d 2 --warmup 1 -q --json >"$T/sb.json" 2>"$T/sb.err"
	is "$?" 0 "sysbench through --cmd exits 0"
	is "$(json_get "$T/sb.json" 'd["workload"]["unit"]')" "events" "unit comes from sysbench's eps"
	is "$(json_get "$T/sb.json" 'd["steps"][0]["ops_s"] > 0 and d["steps"][0]["intervals"]["count"] >= 1')" \
		"True" "throughput read from sysbench's interval lines"
else
	skip "sysbench is not installed" "sysbench through --cmd"
fi
# pgbench reports progress on stderr and its summary on stdout: both are read.
# A recorded run, replayed stream by stream, a progress line every 0.1 s;
# the replay's first argument is its exit status.
pgrec=$top_srcdir/tests/fixtures/pgbench/streams-c2
{
	echo "while IFS= read -r line; do printf '%s\\n' \"\$line\" >&2; sleep 0.1; done <'$pgrec.stderr'"
	echo "cat '$pgrec.stdout'"
	echo "exit \$1"
} >"$T/pgbench-replay"
"$SCALETOP" run --cmd "sh $T/pgbench-replay 0" --parse pgbench -n 1 $FAST --json >"$T/pg.json" 2>/dev/null
is "$?" 0 "pgbench through --cmd (recorded streams) exits 0"
is "$(json_get "$T/pg.json" 'd["steps"][0]["intervals"]["count"]')" "3" \
	"pgbench's three progress lines on stderr are its intervals"
is "$(json_get "$T/pg.json" '"%.1f %s" % (d["steps"][0]["ops_s"], d["steps"][0]["no_intervals"])')" \
	"1751.6 False" "throughput is their mean (1744.8, 1780.0, 1730.0 tps), not the summary's"
is "$(json_get "$T/pg.json" 'd["workload"]["unit"]')" "transactions" "unit from pgbench's tps"
"$SCALETOP" run --cmd "sh $T/pgbench-replay 2" --parse pgbench -n 1 $FAST --json \
	>"$T/pgfail.json" 2>/dev/null
is "$(json_get "$T/pgfail.json" 'd["steps"][0]["reason"]')" \
	"exited with status 2: starting vacuum...end." \
	"a failure names the last stderr line that was not a progress report"

# A step whose intervals swing from 100 to 5000 tps has a CI wider than its
# mean: it is not ok, and an external step cannot be measured on, so unstable.
{
	echo 'for t in 1 2 3 4 5 6; do'
	echo '  r=100; [ $((t % 2)) -eq 0 ] && r=5000'
	echo '  echo "progress: $t.0 s, $r.0 tps, lat 1.000 ms stddev 0.100, 0 failed" >&2; sleep 0.05'
	echo 'done'
} >"$T/pgbench-swing"
"$SCALETOP" run --cmd "sh $T/pgbench-swing" --parse pgbench -n 1 $FAST --json >"$T/swing.json" 2>/dev/null
is "$(json_get "$T/swing.json" 'd["steps"][0]["status"]')" "unstable" \
	"a step whose CI is wider than its mean is not ok"
like "$(json_get "$T/swing.json" 'd["steps"][0]["reason"]')" '^95% CI \+-[0-9]+% of the mean over .*, wider than 50%$' \
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
ok "no daemon left after the sweep" no_leftovers "sleep 97.5"
is "$(json_get "$T/daemon.json" 'sum("left running outside its process group" in e["text"] for e in d["events"])')" \
	"2" "each step's leftover is killed and reported as an event"
"$SCALETOP" run --cmd "sh -c 'setsid sleep 97.6 & sleep 30'" --parse-regex 'rate=([0-9.]+)' \
	-n 1 -d 30 -q >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && ! pgrep -f "sleep 97.6" >/dev/null; do sleep 0.05; i=$((i + 1)); done
kill -TERM $pid
wait $pid
is "$?" $((128 + 15)) "SIGTERM during a daemonising command: status 143"
ok "no daemon left after SIGTERM" no_leftovers "sleep 97.6"
pkill -f "sleep 97\.[56]" 2>/dev/null

# --- signals: the whole group dies, files go -----------------------------------
"$SCALETOP" run -w fileio -n 2 -d 30 -q >"$T/sig.out" 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && ! ls "$T" | grep -q '^scaletop-fileio'; do sleep 0.05; i=$((i + 1)); done
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
sleep 0.5
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
if unshare --mount sh -c 'mount -t tmpfs -o size=256k none "$1"' sh "$T/small" 2>/dev/null; then
	unshare --mount sh -c 'mount -t tmpfs -o size=256k none "$1" && shift && exec "$@"' sh \
		"$T/small" "$SCALETOP" run -w fileio -p dir="$T/small" -p total=4M -n 1 -d 0.5 -q \
		>/dev/null 2>"$T/enospc.err"
	is "$?" 1 "fileio on a full file system: exit 1"
	like "$(cat "$T/enospc.err")" 'No space left on device .*: free space there' \
		"ENOSPC: one line naming the file and what to do"
	is "$(wc -l <"$T/enospc.err" | tr -d ' ')" 1 "ENOSPC: exactly one line"
else
	for t in "exit 1" "one line naming the file" "exactly one line"; do
		skip "no private mount namespace here (unshare --mount)" "fileio ENOSPC: $t"
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
bad extra-argument
like "$(cat "$T/bad.err")" "extra-argument" "the message names the unexpected word"

done_testing
