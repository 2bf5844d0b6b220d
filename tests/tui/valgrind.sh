# SPDX-License-Identifier: BSD-2-Clause
# A short TUI session under valgrind, as a user would run it: a sweep, the
# help, the other views, the theme picker, a resize, a snapshot saved, a
# second sweep, the runs view (the two kept sweeps: one overlaid, one
# opened), then q.
# valgrind's exit status says whether it saw a memory error or a leak
# (definitely or indirectly lost; ncurses keeps its screen reachable on
# purpose).  The step children are forked copies of the monitor that end in
# _exit, so only the monitor itself is judged (--child-silent-after-fork).
# Not built into a sanitizer build: valgrind cannot run AddressSanitizer.
. "$top_srcdir/tests/cli/lib.sh"
need valgrind valgrind
. "$top_srcdir/tests/tui/tmux.sh"
LOG=$T/valgrind.log
FAST="-d 0.5 --warmup 0.2 --interval 0.1"

# shellcheck disable=SC2086 # FAST splits into options
tm_start 120 40 valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect \
	--error-exitcode=99 --child-silent-after-fork=yes --log-file="$LOG" \
	"$ST" -w cpu -n 1,2 $FAST
ok "a sweep runs to its end under valgrind" tm_wait_for 'sweep done: 2 steps' 1200
tm_keys '?'
ok "the help opens" tm_wait_for 'press any key to close' 100
tm_keys x
tm_keys 2
ok "the cpus view" tm_wait_for 'busy % per CPU over time' 100
tm_keys 3
ok "the chart view" tm_wait_for '^─ throughput' 100
tm_keys T
ok "the theme picker opens" tm_wait_for 'enter: keep' 100
tm_keys Down Down Escape
ok "... and closes" tm_wait_for 'theme default kept' 100
tm_resize 60 15
sleep 1
tm_resize 120 40
tm_keys s C-u "$T/vg.json" Enter
ok "a snapshot is saved" tm_wait_for "saved $T/vg.json" 300
tm_keys n C-u '1' Enter
ok "a second sweep runs" tm_wait_for 'sweep done: 1 step' 1200
tm_keys R
ok "the runs view lists the two kept sweeps" tm_wait_for 'runs kept: 2' 300
tm_keys Down o
ok "one is overlaid" tm_wait_for 'overlay scaletop-cpu-' 300
tm_keys Enter
ok "and opened" tm_wait_for 'sweep done: 2 steps.*kept run' 300
tm_keys q
ok "q ends the session" tm_wait_exit 600
st=$(tm_status)
is "$st" 0 "valgrind: no memory error and no leak (exit status 0, 99 if any)"
if [ "$st" != 0 ]; then
	grep -E 'lost|ERROR SUMMARY|Invalid|uninitialised' "$LOG" | head -n 20 | while read -r l; do
		diag "$l"
	done
fi
like "$(cat "$LOG")" 'ERROR SUMMARY: 0 errors' "valgrind's own summary: 0 errors"
done_testing
