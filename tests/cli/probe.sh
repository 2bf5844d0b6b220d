# SPDX-License-Identifier: BSD-2-Clause
# --probe with the real binary: a probe that prints labels leaves the step
# ok and says nothing; TID<TAB>label lines join --target's threads or are
# kept unjoined and said; one that prints none, cannot start, or hangs is one
# event and never a failed step; a hung one leaves nothing behind; bad
# probes are refused before the sweep.  The labels' shares are in the step
# (steps[].waits, family "probe").
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
# What the runs start inherits TMPDIR, which is how own_procs tells this test's
# processes from another suite's on the same machine.
export TMPDIR="$T"

# probe_run NAME PROBE [S]: a one-step cpu sweep of S s with that probe, JSON in
# $T/NAME.json.  Without S, the step measures 2 s and on while its CI is wider
# than 50% of its mean (up to 10 s), tried up to 3 times, each try logged
# (run_steady), so that whether the probe leaves it ok does not hang on what
# else runs on the machine.
probe_run() {
	_pn=$1 _pp=$2
	if [ -n "${3:-}" ]; then
		"$SCALETOP" run -w cpu -n 1 -d "$3" --probe "$_pp" --json >"$T/$_pn.json" \
			2>"$T/$_pn.json.err"
	else
		run_steady 3 "$T/$_pn.json" -w cpu -n 1 --until-stable 50 --min-time 2 -d 10 \
			--probe "$_pp"
	fi
}

# events NAME TEXT: how many of the run's events contain TEXT.
events() {
	json_get "$T/$1.json" "sum('$2' in e['text'] for e in d['events'])"
}

probe_run labels 'printf "a\nb\na\n"'
is "$?" 0 "run -w cpu -n 1 --probe 'printf ...' exits 0"
is "$(json_get "$T/labels.json" 'd["steps"][0]["status"]')" "ok" "its step is ok"
is "$(events labels '--probe')" "0" "a probe that prints labels is not an event"
is "$(json_get "$T/labels.json" 'sorted((w["channel"], round(w["share"], 6)) for w in d["steps"][0].get("waits", []) if w["family"] == "probe")')" \
	"[('a', 0.666667), ('b', 0.333333)]" "the step's probe shares: a 2/3, b 1/3"

probe_run none true
is "$?" 0 "a probe that prints nothing: exits 0"
is "$(events none 'printed no wait label')" "1" "and is said once"

probe_run nostart /nonexistent/scaletop-probe
is "$?" 0 "a probe that cannot start: exits 0"
is "$(json_get "$T/nostart.json" 'd["steps"][0]["status"]')" "ok" "the step still succeeds"
is "$(events nostart 'cannot start: /nonexistent/scaletop-probe')" "1" "one event says why"

probe_run hang "sh -c 'sleep 60.25 & exec sleep 61.25'" 3.5
is "$?" 0 "a hanging probe, in a 3.5 s window: exits 0"
is "$(events hang 'ran over 2 s and was killed')" "1" "it is cut off at the time-out, said once"
ok "nothing of the hung probe is left running" no_own_procs "$T" 'sleep 6[01]\.25'

# TID lines: one naming a thread of the target (a sleep's pid is its thread), one naming none.
sleep 30 &
SLEEP_PID=$!
"$SCALETOP" run -w cpu -n 1 -d 2 --target "pid:$SLEEP_PID" \
	--probe "printf '$SLEEP_PID\tLock:tuple\n999999999\tLock:other\nCPU\n'" --json \
	>"$T/tid.json" 2>"$T/tid.err"
is "$?" 0 "a probe printing TID<TAB>label lines with --target exits 0"
kill "$SLEEP_PID" 2>/dev/null
wait "$SLEEP_PID" 2>/dev/null
is "$(json_get "$T/tid.json" '(lambda j: (j["lines"] == 2 * j["joined"], j["joined"] == j["unjoined"], j["threads"]))(d["steps"][0]["probe_join"])')" \
	"(True, True, 1)" "the step's probe_join: half the TID lines joined, one thread"
is "$(json_get "$T/tid.json" 'sorted(w["channel"] for w in d["steps"][0]["waits"] if w["family"] == "probe")')" \
	"['CPU', 'Lock:other', 'Lock:tuple']" "joined, unjoined and old-style labels are all kept"
is "$(events tid 'with a TID that is no thread of --target (999999999, say)')" "1" \
	"the unjoined TID is said once"

"$SCALETOP" run -w cpu -n 1 -d 1 -q --probe "mariadb:--socket='x" >/dev/null 2>"$T/preset.err"
is "$?" 2 "a preset whose options cannot be split is a usage error"
like "$(cat "$T/preset.err")" "--probe mariadb:--socket='x: .*unterminated ' quote" \
	"naming the probe and the fault"

"$SCALETOP" run -w cpu -n 1 -d 1 --probe "psql -c 'select" -q >/dev/null 2>"$T/quote.err"
is "$?" 2 "an unterminated quote in --probe is a usage error"
like "$(cat "$T/quote.err")" "--probe: .*unterminated ' quote" "naming the option and the fault"
"$SCALETOP" run -w cpu -n 1 -d 1 -q --probe a --probe b --probe c --probe d --probe e \
	>/dev/null 2>"$T/five.err"
is "$?" 2 "a fifth --probe is a usage error"

done_testing
