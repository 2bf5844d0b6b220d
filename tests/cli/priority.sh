# The monitor's own priority (pgroup.h): where the system allows it (root),
# the monitor lowers its nice value by 20, so that its ticks are not left
# waiting for a CPU behind a thousand runnable workers; what it measures
# runs at the nice value the user started it with.  Read from the
# processes themselves: an external command prints its own nice value and
# its parent's (the monitor), and a built-in step's worker threads are
# read from /proc while they run.  Nothing here depends on timing.
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
done_testing
