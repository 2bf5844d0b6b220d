# SPDX-License-Identifier: BSD-2-Clause
# The monitor's own priority (pgroup.h): where the system allows it (root),
# the monitor lowers its nice value by 20, so that its ticks are not left
# waiting for a CPU behind a thousand runnable workers; what it measures
# runs at the nice value the user started it with.  With --realtime the
# monitor's thread runs at SCHED_FIFO while a step measures, and nothing it
# starts does.  Read from the processes themselves: an external command
# prints its own nice value (or policy) and its parent's (the monitor), and
# a built-in step's worker threads are read from /proc while they run.
# Nothing here depends on timing.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
tap_tmpdir
T=$TAP_TMP
base=$(nice)
if [ "$(id -u)" = 0 ]; then
	want=$((base - 20))
	[ "$want" -lt -20 ] && want=-20
else
	want=$base
fi

"$SCALETOP" run --cmd "sh -c 'nice >$T/cmd.{n}; cut -d\" \" -f19 /proc/\$PPID/stat >$T/mon.{n}'" \
	--parse elapsed -n 1 -d 1 -q >"$T/out" 2>"$T/err"
is "$?" 0 "an external command's sweep runs"
is "$(cat "$T/cmd.1" 2>/dev/null)" "$base" "the command runs at the user's nice value ($base)"
is "$(tr -d ' ' <"$T/mon.1" 2>/dev/null)" "$want" \
	"the monitor runs at nice $want ($(id -u) is the uid; the user's is $base)"

# A built-in step's workers: every thread of the step's child, read mid-step.
"$SCALETOP" run -w cpu -n 2 -d 4 --warmup 1 -q >"$T/b.out" 2>"$T/b.err" &
mon=$!
nis=""
tries=0
while [ -z "$nis" ] && [ $tries -lt 50 ]; do
	sleep 0.2
	tries=$((tries + 1))
	for c in $(cat /proc/$mon/task/$mon/children 2>/dev/null); do
		for t in /proc/$c/task/*; do
			nis="$nis $(cut -d' ' -f19 "$t/stat" 2>/dev/null)"
		done
	done
done
wait $mon
is "$?" 0 "a built-in sweep runs"
diag "the step's threads' nice values:$nis (after $tries looks)"
ok "the step's worker threads were read while it ran" test -n "$nis"
is "$(printf '%s\n' $nis | grep -vx -- "$base" | wc -l)" 0 \
	"every thread of the built-in step runs at the user's nice value"

# --realtime, where this machine grants SCHED_FIFO at all (asked of chrt, not of scaletop).
# /proc/PID/stat's field 41 is the policy: 0 the ordinary one, 1 SCHED_FIFO.
if ! chrt -f 1 true 2>/dev/null; then
	skip "this machine grants no SCHED_FIFO (chrt -f 1 true fails)" "--realtime's policies"
	done_testing
fi
"$SCALETOP" run --realtime --cmd "sh -c 'cut -d\" \" -f41 /proc/self/stat >$T/rtcmd.{n}; cut -d\" \" -f41 /proc/\$PPID/stat >$T/rtmon.{n}'" \
	--parse elapsed -n 1 -d 1 -q >"$T/rt.out" 2>"$T/rt.err"
is "$?" 0 "an external command's sweep runs with --realtime"
is "$(cat "$T/rtmon.1" 2>/dev/null)" 1 "the monitor runs at SCHED_FIFO while its command runs"
is "$(cat "$T/rtcmd.1" 2>/dev/null)" 0 "the command it starts runs at the ordinary policy"
"$SCALETOP" run --no-realtime --cmd "sh -c 'cut -d\" \" -f41 /proc/\$PPID/stat >$T/otmon.{n}'" \
	--parse elapsed -n 1 -d 1 -q >"$T/ot.out" 2>"$T/ot.err"
is "$(cat "$T/otmon.1" 2>/dev/null)" 0 "with --no-realtime the monitor runs at the ordinary policy"

# A built-in step: the monitor read while its workers run, and every worker thread.
"$SCALETOP" run -w cpu -n 2 -d 3 --warmup 1 --realtime -q >"$T/r.out" 2>"$T/r.err" &
mon=$!
mpol="" wpol=""
tries=0
while [ $tries -lt 60 ] && kill -0 $mon 2>/dev/null; do
	sleep 0.1
	tries=$((tries + 1))
	for c in $(cat /proc/$mon/task/$mon/children 2>/dev/null); do
		mpol="$mpol $(cut -d' ' -f41 /proc/$mon/stat 2>/dev/null)"
		for t in /proc/$c/task/*; do
			wpol="$wpol $(cut -d' ' -f41 "$t/stat" 2>/dev/null)"
		done
	done
done
wait $mon
is "$?" 0 "a built-in sweep runs with --realtime"
diag "the monitor's policy while its step ran:$mpol; the workers':$wpol (after $tries looks)"
ok "the step's worker threads were read while it ran" test -n "$wpol"
ok "the monitor ran at SCHED_FIFO while its step's workers ran" \
	sh -c "printf '%s\n' $mpol | grep -qx 1"
is "$(printf '%s\n' $wpol | grep -vx 0 | wc -l)" 0 \
	"every thread of the built-in step runs at the ordinary policy"

# Without the privilege (nobody, no capabilities, which chrt is asked to confirm):
# --realtime says why on stderr and the sweep goes on; by default the JSON alone says it.
ST=$(cd "$(dirname "$SCALETOP")" && pwd)/$(basename "$SCALETOP")
nobody() { (cd / && setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"); }
if ! command -v setpriv >/dev/null || [ "$(id -u)" != 0 ] || nobody chrt -f 1 true 2>/dev/null; then
	skip "no unprivileged user to run as here (root, setpriv, and chrt refused to nobody)" \
		"--realtime without the privilege"
	done_testing
fi
nobody "$ST" run --realtime --cmd "sh -c 'true {n}'" --parse elapsed -n 1 -d 1 \
	>"$T/np.out" 2>"$T/np.err"
is "$?" 0 "without the privilege, a sweep with --realtime runs"
is "$(grep -c 'warning: --realtime: .*cannot run at SCHED_FIFO (Operation not permitted)' "$T/np.err")" 1 \
	"  and one line on stderr says why"
nobody "$ST" run --cmd "sh -c 'true {n}'" --parse elapsed -n 1 -d 1 --json \
	>"$T/nd.json" 2>"$T/nd.err"
is "$?" 0 "without the privilege, a sweep with the default runs"
is "$(grep -c 'SCHED_FIFO' "$T/nd.err")" 0 "  with nothing on stderr about it"
is "$(json_get "$T/nd.json" 'sum("cannot run at SCHED_FIFO" in e["text"] for e in d["events"] if e["kind"] == "info")')" 1 \
	"  and one info event in the JSON"
done_testing
