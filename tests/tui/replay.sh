# SPDX-License-Identifier: BSD-2-Clause
# Record and replay: `run --record` streams a real sweep as JSON Lines, and
# the TUI shows it again from a file (replay) or live from a pipe (view -),
# as it would over ssh.  A stream cut mid-line still replays, with a note.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
# Each step measures until its CI is within 50% of its mean, at least 0.6 s
# and at most 10 s: the checks below that a replay shows the recorded steps as
# ok then hold on a busy machine, where a 0.6 s step beside a CPU loop can come
# out unstable.
FAST="-w cpu -n 1,2 --warmup 0.2 --interval 0.1 -q --until-stable 50 --min-time 0.6 -d 10"

# --- the stream ----------------------------------------------------------------
"$ST" run $FAST --record "$T/run.jsonl" >"$T/run.out" 2>"$T/run.err"
is "$?" 0 "run --record exits 0"
like "$(cat "$T/run.out")" '^verdict: ' "the table still goes to stdout"
# Named after nothing in the standard library: python puts the script's own
# folder first on sys.path, so a "types.py" there would shadow the real one.
cat >"$T/stream_kinds_check.py" <<'PY'
import json, sys
types = [json.loads(l)["type"] for l in open(sys.argv[1])]
print(types[0], types[-1], types.count("step"), types.count("tick") > 5, types.count("analysis"))
PY
is "$("$PYTHON" "$T/stream_kinds_check.py" "$T/run.jsonl")" "header end 2 True 2" \
	"header first, end last, a line per step and analysis update, ticks between"
"$ST" run $FAST --record "$T/run.jsonl" >/dev/null 2>"$T/again.err"
is "$?" 2 "an existing stream is not overwritten"
like "$(cat "$T/again.err")" 'exists; give --force' "and the message says what to do"
"$ST" run $FAST --record "$T/run.jsonl" --force >/dev/null 2>&1
is "$?" 0 "--force replaces it"
"$ST" run $FAST --record - >"$T/stdout.jsonl" 2>"$T/stdout.err"
is "$(head -c 17 "$T/stdout.jsonl")" '{"type":"header",' "--record - streams to stdout"
like "$(cat "$T/stdout.err")" '^verdict: ' "and the table moves to stderr"
"$ST" run $FAST --record /dev/full --force >/dev/null 2>"$T/full.err"
is "$?" 0 "a stream that cannot be written does not stop the sweep"
is "$(grep -c 'record' "$T/full.err")" 1 "the write error is reported once"

# --- replay from a file ------------------------------------------------------------
# N=2's status as recorded: the replay must show what the run saw.  --until-stable
# makes it ok (or noisy) nearly always, but beside a load that comes and goes a step can
# still end unstable at its 10 s bound; the replay then shows that, as it must.
# An ok step whose CI is wide is shown "noisy" (its "noisy" field).
ST2=$("$PYTHON" -c 'import json,sys
s = [d for d in map(json.loads, open(sys.argv[1])) if d["type"] == "step" and d["n"] == 2][-1]
print("noisy" if s["status"] == "ok" and s.get("noisy") else s["status"])' "$T/run.jsonl")
diag "N=2 was recorded $ST2"
if [ "$ST2" = unstable ]; then
	EV2='N=2 unstable: '
else
	EV2="N=2: .* ops/s \\($ST2\\)"
fi
tm_start 120 40 "$ST" replay "$T/run.jsonl"
ok "replay shows the recorded run" tm_wait_for 'replaying .*run\.jsonl' 50
tm_keys End
ok "End jumps to the end: the sweep and its verdict" tm_wait_for 'verdict: ' 50
ok "the recorded steps are in the events ($ST2 at N=2)" tm_wait_for "$EV2" 50 ||
	diag "$(tm_screen | grep -E 'N=[12]' | head -n 6)"
# Selecting a recorded step reads the replay's steps (it once read the
# sweep's session, which a replay has none of, and crashed).
tm_keys 4 Down Down Enter
ok "down and enter in the steps view select a recorded step" \
	tm_wait_for "step 2: N=2 run 1, $ST2" 50 || diag "$(tm_screen | grep -E 'step [12]' | head -n 4)"
ok "the replay is still running" test "$(tm_dead)" = 0
tm_keys q
ok "q ends the replay" tm_wait_exit 50
is "$(tm_status)" 0 "replay exits 0"

# --- figures per operation without operations counted: '-', never 0 ----------------------
# sysbench's summary alone (recorded), after a loop of short sleeps: the window's
# switches and CPU are measured, but no operation was counted in it.  The sleeps are
# switches in any window, where a busy loop of 300000 turns had none when it outlasted
# the window (the older recording's 0 then was a true 0, shown as 0.00).  The last sleep
# makes the run outlast the 2 s its summary claims, so the replay reaches the step's end.
SBSUM="$top_srcdir/tests/fixtures/sysbench/cpu-summary.txt"
"$ST" run --cmd "sh -c 'i=0; while [ \$i -lt 30 ]; do i=\$((i + 1)); sleep 0.05; done; sleep 2.5; cat \"\$0\"' $SBSUM" \
	--parse sysbench -n 1 -d 1 --warmup 0.2 -q --record "$T/sbsum.jsonl" >/dev/null 2>&1
is "$?" 0 "a summary-only sysbench run is recorded"
tm_start 120 40 "$ST" replay "$T/sbsum.jsonl"
tm_wait_for 'replaying ' 50
tm_keys End
ok "the contention panel: vcsw/kop is '-'" tm_wait_for '^ vcsw/kop +-( |$)' 50
ok "  ivcsw/kop too" tm_wait_for '^ ivcsw/kop +-( |$)' 20
ok "  and ops/CPU-s" tm_wait_for '^ ops/CPU-s +-( |$)' 20
tm_keys 4 Down Enter
ok "the step's detail: ops/CPU-s '-'" tm_wait_for 'switches/s: voluntary .*ops/CPU-s - *$' 50
ok "  and who else was on the CPUs over its window" tm_wait_for '^ others used [0-9.]+ CPUs over the window.*names cover [0-9]+%' 20
tm_keys q
tm_wait_exit 50
# The same run as an older scaletop recorded it, with 0 where nothing was counted: '-' too.
old_steps=$("$PYTHON" - "$T/sbsum.jsonl" "$T/sbsum-old.jsonl" <<'PY'
import json, sys
out = open(sys.argv[2], "w")
n = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    c = r.get("contention")  # a tick's live figures, a step's own
    if isinstance(c, dict) and c.get("vcsw_s") is not None:
        c.update(vcsw_per_kop=0.0, ivcsw_per_kop=0.0, ops_per_cpu_s=0.0)
        n += r["type"] == "step"
    out.write(json.dumps(r, separators=(",", ":")) + "\n")
print(n)
PY
)
is "$old_steps" 1 "the older recording has a 0 for its step's per-op figures"
tm_start 120 40 "$ST" replay "$T/sbsum-old.jsonl"
tm_wait_for 'replaying ' 50
tm_keys End
ok "an older recording's 0 per 1000 ops beside switches counted: '-'" tm_wait_for '^ vcsw/kop +-( |$)' 50
ok "  and its 0 ops/CPU-s" tm_wait_for '^ ops/CPU-s +-( |$)' 20
tm_keys q
tm_wait_exit 50

# --- the waits view: stacked shares against N ------------------------------------
# mutex-waits.jsonl: a recorded mutex sweep with made-up target figures and
# waits (tests/fixtures/streams): the target's epoll share falls as N grows.
WF="$top_srcdir/tests/fixtures/streams/mutex-waits.jsonl"
tm_start 120 40 "$ST" replay "$WF"
tm_wait_for 'replaying ' 50
tm_keys End 5
ok "5 shows the target's waits by N" tm_wait_for "waits: the target's thread-time at each N" 50
ok "with the largest category in the legend" tm_wait_for 'do_epoll_wait' 20
ok "a row per N with its largest share" tm_wait_for 'N=1 .* 65% do_epoll_wait' 20
ok "the largest N's row shows the share has fallen" tm_wait_for 'N=6 .* 40% do_epoll_wait' 20
ok "the workload has its own panel below" tm_wait_for "waits: the workload's thread-time at each N" 20
ok "and its rows: running falls to 57% at N=6" tm_wait_for 'N=6 .* 57% running' 20
tm_keys q
tm_wait_exit 50

# --- the USL in the chart's legend: with standard errors -----------------------
# cpu-1-5.jsonl: `run -w cpu -n 1,2,3,4,5 -d 0.4` recorded on the loaded 2-CPU VM;
# its fit has sigma 0.26 +-0.46 and kappa 0.018 +-0.077, N* 6.4 (within 2x 5).
SF="$top_srcdir/tests/fixtures/streams/cpu-1-5.jsonl"
tm_start 120 40 "$ST" replay "$SF"
tm_wait_for 'replaying ' 50
tm_keys End 1
ok "the legend gives sigma and kappa with their standard errors" \
	tm_wait_for 'USL s=0\.259±0\.46 k=0\.018±0\.077 N\*=6, contention-' 50
is "$(tm_screen | grep -c extrapolated)" 0 "  N* 6.4 within 2x the largest N 5 is not extrapolated"
tm_keys q
tm_wait_exit 50
tm_start 120 40 env LC_ALL=C "$ST" replay "$SF"
tm_wait_for 'replaying ' 50
tm_keys End 1
ok "  and as +- on an ASCII terminal" tm_wait_for 'USL s=0\.259\+-0\.46 k=0\.018\+-0\.077' 50
tm_keys q
tm_wait_exit 50

# --- a stream cut mid-line -------------------------------------------------------
head -c $(($(wc -c <"$T/run.jsonl") - 40)) "$T/run.jsonl" >"$T/cut.jsonl"
tm_start 120 40 "$ST" replay "$T/cut.jsonl"
ok "a truncated stream replays" tm_wait_for 'replaying .*cut\.jsonl' 50
ok "with a note about the cut line" tm_wait_for 'truncated' 50
tm_keys q
tm_wait_exit 50

# --- live from a pipe, as over ssh ------------------------------------------------
tm_start 120 40 sh -c "\"$ST\" run -w cpu -n 1,2 -d 1 --warmup 0.2 -q --record - 2>/dev/null | \"$ST\" view -"
ok "view - shows a live run from standard input" tm_wait_for 'viewing standard input' 50
ok "and follows it to its end" tm_wait_for 'the run ended' 100
ok "with the final verdict" tm_wait_for 'verdict: ' 10
tm_keys q
tm_wait_exit 50
is "$(tm_status)" 0 "view exits 0"

# --- replay - : a recording piped in, read whole, then played ------------------------
# st_rows FILE: the N column of show's results table (not of the waits below it),
# and show's warnings on stderr.
st_rows() {
	"$ST" show "$1" | awk '/^waits:/ { exit } $1 ~ /^[0-9]+$/ { printf "%s ", $1 }'
}
NCPU=$(head -n 1 "$T/run.jsonl" | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["host"]["ncpus"])')
tm_start 120 40 sh -c "cat \"$T/run.jsonl\" | \"$ST\" replay -"
ok "replay - plays a recording from a pipe" tm_wait_for 'replaying standard input' 50
ok "with the recorded CPUs" tm_wait_for " $NCPU CPUs " 20
tm_keys G
ok "and its steps" tm_wait_for 'sweep done: 2 steps' 50
ok "  in the events" tm_wait_for "$EV2" 20 || diag "$(tm_screen | grep -E 'N=[12]' | head -n 6)"

tm_keys q
tm_wait_exit 50
tm_start 120 40 sh -c "cat \"$T/run.jsonl\" | \"$ST\" view -"
ok "view - of a finished recording follows it to its end" tm_wait_for 'the run ended' 50
ok "  with its steps" tm_wait_for 'sweep done: 2 steps' 20
tm_keys q
tm_wait_exit 50
tm_start 120 40 sh -c "cat \"$T/run.jsonl\" | \"$ST\" replay -"
tm_wait_for 'replaying standard input' 50

# --- s in a replay: the recording up to the moment on screen ----------------------
tm_keys g s
ok "s at the start has no finished step to save" tm_wait_for 'no recorded step has finished' 30
tm_keys G s
ok "s at the end offers the replay's steps" tm_wait_for "save the replay's 2 steps" 30
tm_keys C-u "$T/from-replay.json" Enter
ok "and saves them" tm_wait_for 'saved .*from-replay\.json: 2 steps' 30
tm_keys q
tm_wait_exit 50
is "$(tm_status)" 0 "replay - exits 0"
is "$(st_rows "$T/from-replay.json")" "1 2 " \
	"show loads the snapshot s wrote in the replay"

# --- the TUI records while you watch: --record, -o at q ------------------------------
TFAST="-w cpu -n 1,2 -d 0.6 --warmup 0.2 --interval 0.1"
tm_start 120 40 sh -c "\"$ST\" $TFAST --record \"$T/tui.jsonl\" -o \"$T/tui.json\" 2>\"$T/tui.err\""
ok "--record shows REC in the header" tm_wait_for 'refresh [0-9.]+s +REC' 50
ok "through the sweep" tm_wait_for 'sweep finished' 150
tm_keys q
ok "q ends it" tm_wait_exit 50
is "$(tm_status)" 0 "  with status 0"
like "$(cat "$T/tui.err")" 'recorded .*tui\.jsonl: 2 steps' "it says what it recorded"
like "$(cat "$T/tui.err")" 'saved .*tui\.json: 2 steps' "-o saves the sweep at q"
is "$(tail -n 1 "$T/tui.jsonl" | cut -c 1-14)" '{"type":"end",' "the recording ends with its end line"
is "$(st_rows "$T/tui.jsonl" 2>&1)" "1 2 " \
	"show loads the TUI's recording, without a warning"
is "$(st_rows "$T/tui.json")" "1 2 " \
	"and -o's snapshot"
tm_start 120 40 "$ST" replay "$T/tui.jsonl"
ok "replay plays the TUI's recording" tm_wait_for 'replaying .*tui\.jsonl' 50
tm_keys G
ok "  to its end" tm_wait_for 'sweep done: 2 steps' 50
tm_keys q
tm_wait_exit 50

# --- W: recording mid-session, and a name that is taken --------------------------
echo 'an older file' >"$T/w.jsonl"
tm_start 120 40 sh -c "\"$ST\" $TFAST --monitor 2>\"$T/w.err\""
tm_wait_for 'idle: r runs the sweep' 50
tm_keys W
ok "W asks for a name" tm_wait_for 'record the next sweep to: scaletop-cpu-' 30
tm_keys C-u "$T/tui.jsonl" Enter
ok "a name that is taken asks first" tm_wait_for 'tui\.jsonl exists: overwrite\? \(y/N\)' 30
tm_keys n
ok "  and n keeps the file" tm_wait_for 'not recording: .*tui\.jsonl exists' 30
tm_keys W C-u "$T/w.jsonl" Enter
ok "  and y replaces it" tm_wait_for 'w\.jsonl exists: overwrite' 30
tm_keys y
ok "W with no sweep waits for the next one" tm_wait_for 'recording to .*w\.jsonl from the next sweep' 30
tm_keys r
ok "r starts the sweep it records" tm_wait_for 'sweep finished' 150
tm_keys W
ok "W stops and says what it recorded" tm_wait_for 'recorded .*w\.jsonl: 2 steps' 30
is "$(tm_screen | grep -c ' REC ')" 0 "  and REC leaves the header"
tm_keys q
tm_wait_exit 50
is "$(st_rows "$T/w.jsonl" 2>&1)" "1 2 " \
	"show loads what W recorded"

# --- SIGTERM while recording: the stream is closed, not lost -----------------------
tm_start 120 40 "$ST" -w cpu -n 1,2 --until-stable 50 --min-time 3 -d 10 --warmup 0.2 \
	--record "$T/term.jsonl"
tm_wait_for 'step 2/2' 150
kill -TERM "$(tm_pane_pid)"
ok "SIGTERM ends the TUI" tm_wait_exit 50
is "$(tail -n 1 "$T/term.jsonl" | cut -c 1-14)" '{"type":"end",' "  and its recording ends with the end line"
# finished: ok, or unstable when a loaded machine swung its intervals past --until-stable
# for all 10 s (a CI run beside another: "unstable: 95% CI 92.2% of mean"); not interrupted
like "$("$ST" show "$T/term.jsonl" 2>&1)" '^ +1 .* (ok|noisy|unstable: 95% CI .*)$' "  with the finished step in it"

# --- bad input -------------------------------------------------------------------------
printf 'not json\n' >"$T/bad.jsonl"
"$ST" replay "$T/bad.jsonl" >"$T/bad.out" 2>"$T/bad.err"
st=$?
ok "a stream that is not JSON Lines fails" test "$st" -ne 0
like "$(cat "$T/bad.err")" 'bad\.jsonl.*line 1' "naming the file and line"
"$ST" replay "$T/missing.jsonl" >/dev/null 2>"$T/miss.err"
ok "a missing file fails" test $? -ne 0
like "$(cat "$T/miss.err")" 'missing\.jsonl' "naming it"

done_testing
