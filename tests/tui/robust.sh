# SPDX-License-Identifier: BSD-2-Clause
# The TUI under stress: no terminal, TERM=dumb, a tiny window, resize storms,
# signals, a closed terminal and a crashing workload.  Every exit path must
# give the terminal back and leave no workload process or file behind.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"

# --- no terminal ------------------------------------------------------------------
"$ST" </dev/null >"$T/out" 2>"$T/err"
is "$?" 1 "no terminal: exit 1"
is "$(wc -l <"$T/err" | tr -d ' ')" 1 "no terminal: one line"
like "$(cat "$T/err")" "scaletop run" "no terminal: suggests scaletop run"
TUI_TERM=dumb tm_start 100 30 "$ST" --monitor
tm_wait_exit 50
is "$(tm_status)" 1 "TERM=dumb: exit 1"
like "$(tm capture-pane -pJ -S - -t t)" "TERM=dumb .*scaletop run" "TERM=dumb: says so and suggests scaletop run"

# --- sizes ------------------------------------------------------------------------
tm_start 40 10 "$ST" --monitor
ok "a tiny terminal says what it needs" tm_wait_for 'terminal too small \(need 60x16\)' 50
tm_resize 100 30
ok "growing it draws the panels" tm_wait_for 'CPU \(' 50
i=0
while [ $i -lt 30 ]; do
	tm_resize $((60 + (i * 7) % 90)) $((16 + (i * 5) % 30))
	i=$((i + 1))
done
tm_resize 90 28
sleep 0.5
ok "after a resize storm the panels fit the new size" tm_wait_for '^ verdict: ' 50
wide=0
for n in $(tm_screen | while IFS= read -r l; do printf '%s' "$l" | wc -m; done); do
	[ "$n" -gt 90 ] && wide=$((wide + 1))
done
is "$wide" 0 "no line is wider than 90 columns"
is "$(tm_dead)" 0 "the TUI survived the storm"
tm_keys q
tm_wait_exit

# --- signals and a closed terminal: the workload goes too ------------------------
# workload_beside_tui REGEX: a step's process runs beside the TUI (2 or more
# of this test's scaletop processes have REGEX in their command line).
workload_beside_tui() {
	_n=$(st_procs "$1")
	diag "scaletop processes matching '$1': $_n"
	[ "$_n" -ge 2 ]
}

for sig in TERM:15 HUP:1 INT:2; do
	num=${sig#*:}
	sig=${sig%:*}
	tm_start 100 30 "$ST" -w fileio -n 2 -d 28.5 --warmup 0.2
	ok "SIG$sig: the step is measuring" tm_wait_for 'measuring' 150
	# What the signal must end has to exist first: the workload's processes
	# beside the TUI's own, and fileio's directory.
	ok "SIG$sig: the workload runs before the signal" workload_beside_tui 'd 28[.]5'
	ok "SIG$sig: fileio's files exist before the signal" sh -c "ls '$T' | grep -q '^scaletop-fileio'"
	kill -s $sig "$(tm_pane_pid)"
	ok "SIG$sig ends the TUI" tm_wait_exit 100
	is "$(tm_status)" $((128 + num)) "SIG$sig: exit status 128+$sig"
	ok "SIG$sig: no workload left" st_gone 'd 28[.]5'
	tm_screen | grep -q '1 overview'
	[ $? -ne 0 ]
	tap_result $? "SIG$sig: the terminal is given back (the TUI's screen is gone)"
	ok "SIG$sig: fileio's files are removed" sh -c "! ls '$T' | grep -q '^scaletop-fileio'"
done

tm_start 100 30 "$ST" -w cpu -n 2 -d 27.5 --warmup 0.2
ok "the step is measuring" tm_wait_for 'measuring' 150
ok "the workload runs beside the TUI" workload_beside_tui 'd 27[.]5'
tm kill-server
ok "a closed terminal ends the TUI and its workload" st_gone 'd 27[.]5' 

# --- a crashing workload is a failed step, not a dead monitor -----------------------
tm_start 120 40 "$ST" -w cpu -n 1,2 -d 3 --warmup 0.2 --refresh 0.2
tm_wait_for 'step 1/2 N=1 measuring' 150
child=$(pgrep -P "$(tm_pane_pid)" | head -1)
kill -s KILL "$child"
ok "a killed workload fails its step" tm_wait_for 'N=1 failed' 100
ok "and the sweep goes on" tm_wait_for 'sweep done: 2 steps' 200
is "$(tm_dead)" 0 "the TUI is still running"
tm_keys q
tm_wait_exit

done_testing
