#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# r re-runs what is on screen: after a kept run is opened (R, Enter), r
# sweeps that run's workload, parameters, N list and settings, not the ones
# the TUI started with; a run that cannot run again (an imported table, a
# command whose binary is gone) is said on the message line, and r asks
# before it runs the current settings instead.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"
need python3 python3
RUNS="$T/data/scaletop/runs"
mkdir -p "$RUNS" && chmod 700 "$RUNS"

# newest_kept: the file of the run kept last.
newest_kept() {
	ls -t "$RUNS"/*.json | head -n 1
}

# --- a spinlock run, kept; a TUI set to mutex opens it, and r sweeps spinlock --------------
"$ST" run -w spinlock -p kind=ticket -n 1,3 -d 0.4 --warmup 0.1 --stall 7 \
	-o "$RUNS/scaletop-spinlock-h-20250101-000000.json" >"$T/run.out" 2>&1
is "$?" 0 "run keeps a spinlock sweep" || diag "$(cat "$T/run.out")"
tm_start 120 40 "$ST" -w mutex -p hold=300 -p think=30 -n 2 --monitor --refresh 0.2
tm_wait_for 'refresh 0.2s' 100
tm_keys R
ok "R lists the kept run" tm_wait_for 'runs kept: 1, newest first' 50
tm_keys Enter
ok "Enter opens it, and says what r runs" tm_wait_for 'opened .*: r runs spinlock' 50
tm_keys r
ok "r starts a sweep of the opened run's N list" tm_wait_for 'step 1/2 N=1 ' 100
head=$(tm_screen | head -n 3)
like "$head" 'spinlock' "the header names the opened run's workload" || diag "$head"
like "$head" 'kind=ticket' "with its parameters"
ok "its second N is 3" tm_wait_for 'step 2/2 N=3 ' 300
ok "and it finishes" tm_wait_for 'sweep (finished|done)' 300
tm_keys q
tm_wait_exit 100
new=$(newest_kept)
is "$(json_get "$new" 'd["workload"]["name"]')" spinlock "the new kept run is a spinlock sweep"
is "$(json_get "$new" '[s["n"] for s in d["steps"]]')" "[1, 3]" "at N=1,3"
is "$(json_get "$new" 'd["settings"]["duration_s"], d["settings"]["stall_s"]')" "(0.4, 7.0)" \
	"with the run's duration and stall"

# --- an imported table cannot run again: r says so, and runs the current settings at a second r --
rm -f "$RUNS"/*.json
"$ST" import --csv "$top_srcdir/tests/fixtures/import/collapse-reference.csv" --label ref \
	-o "$RUNS/scaletop-imported-h-20250101-000000.json" >"$T/imp.out" 2>&1
is "$?" 0 "a table imports into the runs directory" || diag "$(cat "$T/imp.out")"
tm_start 120 40 "$ST" -w cpu -n 2 -d 0.3 --warmup 0.1 --monitor --refresh 0.2
tm_wait_for 'refresh 0.2s' 100
tm_keys R
tm_wait_for 'runs kept: 1, newest first' 50
tm_keys Enter
ok "the imported run opens" tm_wait_for 'opened ' 50
tm_keys r
ok "r says it cannot run an imported table again, and what a second r does" \
	tm_wait_for 'cannot run .*imported.*r again runs cpu' 50
sleep 1
is "$(tm_screen | grep -c 'step 1/1')" 0 "and starts nothing"
tm_keys r
ok "a second r runs the current settings" tm_wait_for 'step 1/1 N=2 ' 100
tm_keys q
tm_wait_exit 100

# --- a command's run: r runs the command again ---------------------------------------------
rm -f "$RUNS"/*.json
printf '#!/bin/sh\nexit 0\n' >"$T/my cmd.sh"
chmod +x "$T/my cmd.sh"
"$ST" run --cmd "'$T/my cmd.sh' {n}" --parse elapsed -n 1,2 -d 0.3 \
	-o "$RUNS/scaletop-external-h-20250101-000000.json" >"$T/ext.out" 2>&1
is "$?" 0 "a command's sweep is kept" || diag "$(cat "$T/ext.out")"
tm_start 120 40 "$ST" -w cpu -n 4 -d 0.3 --warmup 0.1 --monitor --refresh 0.2
tm_wait_for 'refresh 0.2s' 100
tm_keys R
tm_wait_for 'runs kept: 1, newest first' 50
tm_keys Enter
ok "the opened run says r runs its command" tm_wait_for 'opened .*: r runs .*my\\ cmd[.]sh \{n\}' 50
tm_keys r
# Its steps take a few ms: the new run is seen kept, a second file, rather than on the screen.
i=0
while [ "$(ls "$RUNS" | grep -c '[.]json$')" -lt 2 ] && [ "$i" -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
is "$(ls "$RUNS" | grep -c '[.]json$')" 2 "r runs it, and its end is kept" || diag "$(tm_screen)"
tm_keys q
tm_wait_exit 100
new=$(newest_kept)
is "$(json_get "$new" 'd["workload"]["argv"], [s["n"] for s in d["steps"]]')" \
	"(['$T/my cmd.sh', '{n}'], [1, 2])" "the new kept run ran the command (a blank in one word) at N=1,2"

# --- a command whose binary is gone -------------------------------------------------
rm -f "$RUNS"/*.json
printf '#!/bin/sh\nexit 0\n' >"$T/gone.sh"
chmod +x "$T/gone.sh"
"$ST" run --cmd "$T/gone.sh {n}" --parse elapsed -n 1 -d 0.3 \
	-o "$RUNS/scaletop-external-h-20250101-000000.json" >"$T/ext.out" 2>&1
is "$?" 0 "a command's sweep is kept" || diag "$(cat "$T/ext.out")"
rm -f "$T/gone.sh"
tm_start 120 40 "$ST" -w cpu -n 2 -d 0.3 --warmup 0.1 --monitor --refresh 0.2
tm_wait_for 'refresh 0.2s' 100
tm_keys R
tm_wait_for 'runs kept: 1, newest first' 50
tm_keys Enter
tm_wait_for 'opened ' 50
tm_keys r
ok "r says the command's binary is gone" tm_wait_for 'gone[.]sh.*(not found|No such file)' 50
tm_keys q
tm_wait_exit 100

done_testing
