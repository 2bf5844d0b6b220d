# SPDX-License-Identifier: BSD-2-Clause
# --target and the wait sampler, through `run`'s table.  A built-in mutex
# sweep past the CPU count, with a long critical section (hold=5000): at N=1
# the one worker never waits for the lock, and with more workers most of
# them sleep on it, so the workload's futex share of thread-time must be
# larger at 4x the CPUs than at 1 (only that loose form is asserted:
# outside load moves the middle).  With the default short section the
# waiters are woken at once and mostly wait for a CPU instead: runnable.
# Then a sleeper with threads watched as --target pid:N: the target's row
# counts its threads and its waits name the futex four of them sleep in
# (the fifth, its main thread, sleeps in time.sleep).
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP

P=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
case "$P" in '' | *[!0-9]*) bail_out "cannot tell the CPU count (getconf _NPROCESSORS_ONLN)" ;; esac

# futex_share N: the workload's futex share (%) at N in the table's waits section, 0 if none.
futex_share() {
	awk -v n="$1" '
	/^waits:/ { on = 1; next }
	/^verdict:/ { on = 0 }
	on && $1 == n && $2 == "workload" {
		for (i = 3; i < NF; i++)
			if ($i ~ /futex/) { sub("%", "", $(i + 1)); s += $(i + 1) }
	}
	END { printf "%.1f\n", s + 0 }' "$T/mutex.txt"
}

# A sweep with a failed step, or whose N=1 worker was not seen running, is run again (at
# most 3 times, each try logged).
try=0
while :; do
	try=$((try + 1))
	"$SCALETOP" run -w mutex -p hold=5000 -n "1,$P,$((4 * P))" -d 1 --warmup 0.3 -q \
		>"$T/mutex.txt" 2>"$T/mutex.err"
	st=$?
	# the N=1 worker must be seen running; a loaded machine's 1 s window can read it too
	# rarely (one reading, 'sleeping 100.0%?' in a fresh chroot at load 30): tried again
	n1=$(awk '/^waits:/{on=1;next} /^verdict:/{on=0} on && $2=="workload"' "$T/mutex.txt" |
		head -n 1)
	if [ "$st" -eq 0 ] && printf '%s\n' "$n1" | grep -Eq 'running [0-9.]+%'; then
		break
	fi
	[ "$try" -ge 3 ] && break
	diag "try $try: exit $st; N=1: $n1; $(tail -n 2 "$T/mutex.err")"
done
is "$st" 0 "a mutex sweep over 1, $P, $((4 * P)) threads exits 0"
[ "$st" -eq 0 ] || diag "$(tail -n 5 "$T/mutex.err")"
like "$(cat "$T/mutex.txt")" '^waits: shares of thread-time' "the table has a waits section"
f1=$(futex_share 1)
f4=$(futex_share $((4 * P)))
diag "workload futex share at 1, $((4 * P)): $f1% $f4%"
ok "the futex share rises from N=1 to N=$((4 * P))" \
	"$PYTHON" -c 'import sys; sys.exit(0 if float(sys.argv[2]) > float(sys.argv[1]) else 1)' \
	"$f1" "$f4"
# every step's workload shares sum to about 100 (the table rounds to 0.1 and shows the top 4)
like "$(awk '/^waits:/{on=1;next} /^verdict:/{on=0} on && $2=="workload"' "$T/mutex.txt" | head -n 1)" \
	'running [0-9.]+%' "N=1: the worker is seen running"

# A sleeper of five threads, watched.
"$PYTHON" -c '
import threading, time
e = threading.Event()
for _ in range(4):
    threading.Thread(target=e.wait, daemon=True).start()
time.sleep(60)
' &
SLEEPER=$!
sleep 0.5
# 3 s, so the five threads' shares rest on some 60 readings: in 1 s (about 20) a loaded machine
# gave 72.5% for the four futex waiters, marked uncertain
"$SCALETOP" run -w cpu -n 1 -d 3 --warmup 0.3 -q --target "pid:$SLEEPER" >"$T/pid.txt" 2>"$T/pid.err"
is "$?" 0 "run --target pid:$SLEEPER exits 0"
# The stream's tick lines carry the window so far: the target's figures, and the waits with the
# target's and the probe's families.  Each refresh comes on a pass (about once a second, less
# often when a pass is dear: a sanitizer build on a loaded machine had none in three 2.5 s
# windows, and a distcheck beside another suite none in 2.5, 5 and 8 s, when a pass's cost
# still counted the find), so the tries' windows grow, 2.5, 5, 8 and 15 s, each try logged.
tick_window() {
	"$PYTHON" - "$T/win.jsonl" <<'EOF'
import json, sys
ticks = [d for d in map(json.loads, open(sys.argv[1])) if d["type"] == "tick"]
tg = [d["target"] for d in ticks if "target" in d]
fams = set(w["family"] for d in ticks for w in d.get("waits", []))
probe = set(w["channel"] for d in ticks for w in d.get("waits", []) if w["family"] == "probe")
print(bool(tg) and all(t["procs"] == 1 and t["threads"] == 5 for t in tg),
      sorted(fams), sorted(probe))
EOF
}
try=1
while :; do
	rm -f "$T/win.jsonl"
	case $try in 1) wd=2.5 ;; 2) wd=5 ;; 3) wd=8 ;; *) wd=15 ;; esac
	"$SCALETOP" run -w cpu -n 1 -d "$wd" --warmup 0.3 -q --target "pid:$SLEEPER" \
		--probe 'printf "Lock:a\nIO:b\n"' --record "$T/win.jsonl" >/dev/null 2>"$T/win.err"
	win=$(tick_window)
	diag "try $try (-d $wd): target figures in ticks, wait families, probe labels: $win"
	[ "$win" = "True ['probe', 'target', 'workload'] ['IO:b', 'Lock:a']" ] || [ "$try" -ge 4 ] &&
		break
	try=$((try + 1))
done
is "$win" "True ['probe', 'target', 'workload'] ['IO:b', 'Lock:a']" \
	"--record: tick lines carry the target's figures (1 process, 5 threads) and the probe's waits"
"$SCALETOP" show "$T/win.jsonl" >/dev/null 2>&1
is "$?" 0 "  and the recording reads back"
kill "$SLEEPER" 2>/dev/null
wait "$SLEEPER" 2>/dev/null
like "$(cat "$T/pid.txt")" "^target: pid:$SLEEPER " "the table names the target"
row=$(awk '/^target:/{getline; getline; print; exit}' "$T/pid.txt")
is "$(echo "$row" | awk '{print $2 "/" $3}')" "1/5" "its row: one process, five threads"
like "$(awk '/^waits:/{on=1;next} /^verdict:/{on=0} on && $1=="target"' "$T/pid.txt")" \
	'futex[a-z_]* (7[5-9]|8[0-5])\.[0-9]%' "four of its five threads wait in a futex (80%)"

"$SCALETOP" run -w cpu -n 1 --target nonsense >"$T/bad.out" 2>"$T/bad.err"
is "$?/$(wc -l <"$T/bad.err" | tr -d ' ')" "2/1" "a bad --target: usage error, one line"
like "$(cat "$T/bad.err")" "'nonsense'.*pid:N, comm:NAME or cgroup:PATH" "  naming it and what to write"

# A target found nowhere is said, once a step, and the sweep still runs.
"$SCALETOP" run -w cpu -n 1,2 -d 0.3 --warmup 0 --target comm:no-such-server >/dev/null 2>"$T/none.err"
is "$?" 0 "a target found nowhere: the sweep still exits 0"
is "$(grep -c 'warning: N=[12]: --target found no process' "$T/none.err")" 2 \
	"  with one warning a step on stderr"

like "$(cat "$T/none.err")" 'no process in the window: is the server running, and is its name as ps -o comm shows it\?' \
	"  asking about the name for a comm: target"

# A pid that does not exist when the run starts is refused at once (a pid one past the
# kernel's maximum can never exist); one that exits later is asked about as a pid.
PIDMAX=$(cat /proc/sys/kernel/pid_max 2>/dev/null || echo 4194304)
"$SCALETOP" run -w cpu -n 1,2 -d 0.3 --warmup 0 --target "pid:$PIDMAX" >"$T/nopid.out" 2>"$T/nopid.err"
is "$?:$(cat "$T/nopid.out")" "2:" "--target pid:N with no such process: a usage error, before any step"
is "$(cat "$T/nopid.err")" "scaletop run: --target 'pid:$PIDMAX': no process $PIDMAX is running; give the pid of the running server (pgrep NAME), or comm:NAME" \
	"  one line saying so, with what to give"
# It lives until the sweep's --setup (after the options are checked) tells it to go.
"$SCALETOP" -w cpu --target "pid:$PIDMAX" >"$T/tuipid.out" 2>"$T/tuipid.err" </dev/null
is "$?:$(cat "$T/tuipid.err")" "2:scaletop tui: --target 'pid:$PIDMAX': no process $PIDMAX is running; give the pid of the running server (pgrep NAME), or comm:NAME" \
	"the TUI refuses it too, before it needs a terminal"
sh -c 'while [ ! -e "$1" ]; do sleep 0.02; done' sh "$T/go" &
GONE=$!
"$SCALETOP" run -w cpu -n 1,2,3 -d 0.5 --warmup 0.2 --target "pid:$GONE" --setup "touch $T/go" \
	>/dev/null 2>"$T/gone.err"
wait "$GONE" 2>/dev/null
like "$(cat "$T/gone.err")" "warning: N=[23]: --target found no process in the window: has process $GONE exited\?" \
	"a pid target that exits: the warning asks about the process, not its name"
is "$(grep -c 'ps -o comm' "$T/gone.err")" 0 "  and says nothing of names"

# cgroup:PATH on a group of the test's own, where the machine lets it make one.
CG2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
G=${CG2:+$CG2/scaletop-test-$$}
cg_why=
if [ "$(id -u)" -ne 0 ]; then
	cg_why="making a cgroup needs root (uid $(id -u))"
elif [ -z "$G" ]; then
	cg_why="no cgroup2 file system is mounted (none in /proc/mounts)"
elif ! mkdir "$G" 2>"$T/cg-mkdir.err"; then
	cg_why="mkdir $G: $(cat "$T/cg-mkdir.err")"
fi
if [ -z "$cg_why" ]; then
	"$PYTHON" -c 'import threading, time
for _ in range(2): threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
time.sleep(60)' &
	CGP=$!
	# On any exit the sleeper goes, then its group (a group can only be removed empty).
	trap 'kill "$CGP" 2>/dev/null; wait "$CGP" 2>/dev/null; rmdir "$G" 2>/dev/null; rm -rf "$TAP_TMP"' EXIT
	echo "$CGP" >"$G/cgroup.procs"
	sleep 0.5
	"$SCALETOP" run -w cpu -n 1 -d 1 --warmup 0.3 -q --target "cgroup:$G" >"$T/cg.txt" 2>"$T/cg.err"
	st=$?
	kill "$CGP" 2>/dev/null
	wait "$CGP" 2>/dev/null
	rmdir "$G" 2>/dev/null
	is "$st" 0 "run --target cgroup:PATH exits 0"
	row=$(awk '/^target:/{getline; getline; print; exit}' "$T/cg.txt")
	is "$(echo "$row" | awk '{print $2 "/" $3}')" "1/3" "the group's one process and its three threads"
else
	skip "no cgroup v2 group can be made here: $cg_why" "run --target cgroup:PATH exits 0"
	skip "no cgroup v2 group can be made here: $cg_why" "the group's one process and its three threads"
fi

# The hint: a database benchmark without --target is told it measures the client only.
PG_LINE='printf "progress: 1.0 s, 10.0 tps, lat 1.0 ms stddev 0.1\n"'
"$SCALETOP" run --cmd "sh -c '$PG_LINE'" --parse pgbench -n 1 -d 0.5 --warmup 0 >/dev/null 2>"$T/hint.err"
like "$(cat "$T/hint.err")" 'hint: this measures the client only; add --target comm:postgres' \
	"pgbench without --target: a hint names comm:postgres"
"$SCALETOP" run --cmd "sh -c '$PG_LINE'" --parse pgbench -n 1 -d 0.5 --warmup 0 \
	--target comm:postgres >/dev/null 2>"$T/nohint.err"
is "$(grep -c 'hint:' "$T/nohint.err")" 0 "with --target, no hint"
"$SCALETOP" run --cmd "sh -c 'echo sysbench --db-driver=mysql'" --parse sysbench -n 1 -d 0.5 \
	--warmup 0 >/dev/null 2>"$T/hint2.err"
like "$(cat "$T/hint2.err")" 'add --target comm:mariadbd' "sysbench's mysql driver: a hint names comm:mariadbd"
done_testing
