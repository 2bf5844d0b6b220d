# SPDX-License-Identifier: BSD-2-Clause
# --refine in the TUI: once the list has run, the N the refiner picks is
# said in the events as it is chosen, with why, and the header marks its
# step refined while it runs.  cpu over 1 and 4 on any machine of 2 or
# more CPUs leaves a gap of untested N below its highest point.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"

tm_start 120 40 "$ST" -w cpu -n 1,4 --refine 1 -d 1.5 --warmup 0.1 --refresh 0.2 --no-autosave
ok "the sweep runs its list" tm_wait_for 'step 2/2 N=4' 300
ok "the refiner's pick is said in the events as it is chosen, with why" \
	tm_wait_for 'refine: N=[0-9]+, [a-z]' 300
ok "the header marks the refined step while it runs" tm_wait_for 'step 3/3 N=[0-9]+ refined' 100
ok "the sweep ends with the step it added" tm_wait_for 'sweep done: 3 steps' 300
ok "and the refinement says it ended" tm_wait_for 'refine: (the budget of 1 N is spent|nothing left)' 50
tm_keys q
ok "q ends the TUI" tm_wait_exit 50

done_testing
