# SPDX-License-Identifier: BSD-2-Clause
# A blocked thread's syscall beside its wait channel (issue 24): a channel
# names a kernel function many calls share, so a thread blocked anywhere but
# in a futex has its /proc/PID/task/TID/syscall read with its wchan, and its
# channel reads "hrtimer_nanosleep (clock_nanosleep)"; a futex waiter's stays
# plain (its call is the lock census's).  The target, tests/unit/lock_holders,
# has threads that sleep where they are for good (7 in a futex, the holder in
# nanosleep, the main thread in pause), so every reading of them is blocked
# by construction.  (A socket ping-pong is not: its readers wake between the
# state's read and the channel's, and a distcheck read none of them blocked
# in three tries.)  Up to three tries, each logged, for a machine too loaded
# to give a step its ticks.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is needed to read JSON"
tap_tmpdir
T=$TAP_TMP

if ! cat /proc/self/syscall >/dev/null 2>&1; then
	skip "this kernel or user cannot read /proc/PID/syscall" "a sleeper's channel names its call"
	done_testing
fi
LH=$top_builddir/tests/unit/lock_holders
[ -x "$LH" ] || bail_out "no $LH: build the checks first (make check builds it)"
"$LH" mutex >"$T/lh.out" 2>&1 &
lh=$!
# every exit stops it too
trap 'kill "$lh" 2>/dev/null; rm -rf "$TAP_TMP"' EXIT
wait_for_lines "$T/lh.out" 2 || diag "lock_holders: $(cat "$T/lh.out")"
try=0
got=
want="['(clock_nanosleep)', '(pause)']"
while [ $try -lt 3 ] && [ "$got" != "$want" ]; do
	try=$((try + 1))
	"$SCALETOP" run -w cpu -n 1 -d 2 --warmup 0.3 -q --target "pid:$lh" -o "$T/t.json" --force \
		>"$T/t.out" 2>"$T/t.err" || break
	got=$(json_get "$T/t.json" 'sorted(set(c for s in d["steps"] for w in s["waits"] if w["family"] == "target" for c in ("(clock_nanosleep)", "(nanosleep)", "(pause)") if (w["channel"] or "").endswith(" " + c)))')
	diag "try $try: $(json_get "$T/t.json" '[(w["family"], w["state"], w["channel"], round(w["share"], 3)) for s in d["steps"] for w in s["waits"]]')"
done
is "$got" "$want" "the target's sleepers' channels name their calls: ... (clock_nanosleep), ... (pause)"
is "$(json_get "$T/t.json" 'any(w["channel"] == "futex_do_wait" or (w["channel"] or "").startswith("futex_wait") for s in d["steps"] for w in s["waits"] if w["family"] == "target")')" \
	"True" "its futex waiters' channel stays plain"
kill "$lh" 2>/dev/null
wait "$lh" 2>/dev/null

"$SCALETOP" run -w mutex -n 4 -p hold=20000 -d 1 --warmup 0.3 -q -o "$T/m.json" --force \
	>"$T/m.out" 2>"$T/m.err"
is "$?" 0 "a mutex sweep runs"
is "$(json_get "$T/m.json" 'all(not (w["channel"] or "").startswith("futex_") or " (" not in w["channel"] for s in d["steps"] for w in s["waits"])')" \
	"True" "its futex waiters' channels stay plain"
done_testing
