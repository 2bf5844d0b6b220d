# SPDX-License-Identifier: BSD-2-Clause
# tmux helpers for the TUI tests.  Sourced after tests/cli/lib.sh.  Every
# test gets a private tmux server (-L scaletop-test-PID) that is killed on
# every exit path, so no test can leave a session or a workload behind.

# The check run installs these; a missing one fails the test rather than let
# a helper pass unchecked (a missing pgrep "finds" no process).
need tmux tmux pgrep procps ps procps

TMUX_SOCK="scaletop-test-$$"
tm_n=0
unset TMUX
export LANG="${TUI_LANG:-C.UTF-8}" LC_ALL="${TUI_LANG:-C.UTF-8}"

tm() {
	tmux -L "$TMUX_SOCK" -f /dev/null "$@"
}

tm_cleanup() {
	tm kill-server >/dev/null 2>&1
	rm -rf "$TAP_TMP"
}

# tm_start W H COMMAND...: a detached session running COMMAND in a W x H
# window.  The pane stays after the command exits, so its last screen can be
# read.  The kept runs go to $TM_DATA (default $TAP_TMP/data), never the
# user's own.  A small sh waits for the command and writes its exit status to a
# file: the tmux here does not always reap a pane's process, so neither its
# status nor its pid's disappearance can be read from tmux.  The sh ignores
# the terminal's signals (the command sets its own handlers) so that it is
# always there to write the status.
tm_start() {
	_w=$1 _h=$2
	shift 2
	tm kill-server >/dev/null 2>&1
	# A fresh server (and socket) each time: a dying one can linger on its socket.
	tm_n=$((tm_n + 1))
	TMUX_SOCK="scaletop-test-$$-$tm_n"
	TM_STATUS="$TAP_TMP/pane-status.$tm_n"
	rm -f "$TM_STATUS"
	# remain-on-exit is set before the command starts, so even an instant exit is kept.
	tm start-server \; set-option -g remain-on-exit on \; \
		new-session -d -s t -x "$_w" -y "$_h" \
		sh -c 'f=$1; shift; trap "" HUP INT TERM; "$@"; echo $? >"$f.tmp"; mv "$f.tmp" "$f"' \
		sh "$TM_STATUS" \
		env "TERM=${TUI_TERM:-tmux-256color}" "LANG=$LANG" "LC_ALL=$LC_ALL" \
		"XDG_CONFIG_HOME=$TAP_TMP/config" "XDG_DATA_HOME=${TM_DATA:-$TAP_TMP/data}" \
		"TMPDIR=$TAP_TMP" "$@" || return 1
	tm set-option -w -t t window-size manual >/dev/null 2>&1
}

tm_screen() {
	tm capture-pane -pJ -t t 2>/dev/null
}

# tm_wait_for REGEX [TENTHS]: waits until the screen matches (default 20 s).
tm_wait_for() {
	_i=0
	_max=${2:-200}
	while [ "$_i" -lt "$_max" ]; do
		tm_screen | grep -Eq -- "$1" && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	diag "no line matched '$1' in $_max tenths of a second; the screen:" "$(tm_screen)"
	return 1
}

tm_keys() {
	tm send-keys -t t "$@"
}

# tm_pane_pid: the pid of the command running in the pane (the wrapper's
# child; the wrapper's own pid once the command has gone).
tm_pane_pid() {
	_sh=$(tm display-message -p -t t '#{pane_pid}')
	_cmd=$(pgrep -P "$_sh" 2>/dev/null | head -n 1)
	echo "${_cmd:-$_sh}"
}

# tm_dead: 1 once the command has exited and its status is known.
tm_dead() {
	if [ -f "$TM_STATUS" ]; then echo 1; else echo 0; fi
}

tm_wait_exit() {
	_i=0
	while [ "$_i" -lt "${1:-100}" ]; do
		[ "$(tm_dead)" = 1 ] && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# tm_status: the command's exit status (128+N when a signal ended it).
tm_status() {
	cat "$TM_STATUS" 2>/dev/null
}

tm_resize() {
	tm resize-window -t t -x "$1" -y "$2"
}

# st_procs REGEX: how many of this test's scaletop processes (the TUI, its
# step children and worker processes: tm_start gives them TMPDIR=$TAP_TMP,
# see own_procs) have REGEX in their command line.  By name too, since the
# tmux server's own command line holds the same words.  Another suite's TUI
# on the same machine is never counted.
st_procs() {
	own_procs -c scaletop "$TAP_TMP" "$1" | wc -l | tr -d ' '
}

# st_gone REGEX: waits (at most 5 s) until no such process is left.
st_gone() {
	_i=0
	while [ "$_i" -lt 50 ]; do
		[ "$(st_procs "$1")" -eq 0 ] && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# Every TUI test starts alike: a private directory (T), cleaned up with the
# tmux server on every exit path, and the binary by absolute path (ST), since
# the tests cd about.
tap_tmpdir
T=$TAP_TMP
trap tm_cleanup EXIT
[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP"
ST=$(cd "$(dirname "$SCALETOP")" && pwd)/$(basename "$SCALETOP")
