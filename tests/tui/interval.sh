# SPDX-License-Identifier: BSD-2-Clause
# The TUI's throughput interval: without --interval it follows the refresh,
# at most an eighth of a step's window, from 0.25 s to 1 s, so a long step
# watched at a 1 s refresh is read once a second rather than four times;
# --interval wins, and a short step keeps 0.25 s.  Each sweep's -o file at q
# says what it used, and its step's intervals are that long.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
# T and the trap that kills the tmux server on exit are tmux.sh's: a tap_tmpdir here
# would replace that trap, and leave the last server running.

# sweep NAME ARGS...: one 1-thread step in the TUI, to its end, then q; NAME.json is its -o.
sweep() {
	_name=$1
	shift
	TM_DATA="$T/data"
	tm_start 120 40 "$ST" -w cpu -n 1 --warmup 0.1 -o "$T/$_name.json" "$@"
	tm_wait_for 'sweep done: 1 step' 600 || diag "  ($_name: no 'sweep done' after 60 s)"
	tm_keys q
	tm_wait_exit 100 || tm_keys q
	tm_wait_exit 100
	is "$(tm_status)" 0 "$_name: the TUI exits 0"
}

# fits NAME INTERVAL: whether NAME.json's step has as many intervals of that length as fit in
# its window, give or take one at each edge.  A tick a loaded machine delays past its deadline
# ends no interval, so a starved TUI has fewer: such a sweep is run again (case_run).
fits() {
	json_get "$T/$1.json" "abs(d['steps'][0]['intervals']['count'] * $2 - d['steps'][0]['window_s']) <= 2 * $2"
}

# case_run NAME INTERVAL WHAT ARGS...: the sweep, tried at most 3 times (each logged) until its
# intervals fit; then NAME.json's interval, and its step's intervals that long.
case_run() {
	_name=$1 _iv=$2 _what=$3
	shift 3
	_try=0
	while [ $_try -lt 3 ]; do
		_try=$((_try + 1))
		rm -f "$T/$_name.json" # -o never replaces a file
		sweep "$_name" "$@"
		diag "  $_name try $_try: $(json_get "$T/$_name.json" \
			"'%d intervals in %.2f s' % (d['steps'][0]['intervals']['count'], d['steps'][0]['window_s'])")"
		[ "$(fits "$_name" "$_iv")" = True ] && break
	done
	is "$(json_get "$T/$_name.json" 'd["settings"]["interval_s"]')" "$_iv" "$_what"
	is "$(fits "$_name" "$_iv")" True "  its step's intervals are $_iv s long"
}

case_run follows 0.5 "a 4 s step at a 0.5 s refresh: intervals of 0.5 s" -d 4 --refresh 0.5
case_run given 0.25 "--interval 0.25 wins over the refresh" -d 4 --refresh 0.5 --interval 0.25
case_run short 0.25 "a 1 s step keeps 0.25 s (an eighth of it is less)" -d 1 --refresh 1

done_testing
