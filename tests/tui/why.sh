# SPDX-License-Identifier: BSD-2-Clause
# The waits view's why panel: at each N, the CPU that spun in a lock, in the
# kernel and in user space, and by whose caller, from the on-CPU samples
# (fdtable kind=open spins in the fd table's lock from two threads up), and
# without them (--no-hot) no panel.  Each check waits on the screen's
# content, never on how long a step takes.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"

# Sampling needs root or CAP_PERFMON: probed on the machine itself, so that
# where it is allowed a missing panel is a failure.
denied=$(oncpu_denied)
if [ -n "$denied" ]; then
	skip "on-CPU sampling is not allowed here: $denied" "the why panel"
	done_testing
fi

tm_start 120 40 "$ST" -w fdtable -p kind=open -n 1,2 -d 1 --warmup 0.2 --refresh 0.2
ok "the sweep finishes" tm_wait_for 'sweep done: 2 steps' 300
tm_keys 5
ok "the waits view has a why panel" tm_wait_for "why: the workload's CPU at each N" 30
ok "a row for N=1 with its spin share, kernel and user apart" \
	tm_wait_for 'N=1 +spin +[0-9.]+% \(kernel [0-9.]+%, user [0-9.]+%\)' 30
ok "and one for N=2" tm_wait_for 'N=2 +spin +[0-9.]+%' 30
ok "with the hottest path" tm_wait_for 'N=2 +spin .* hot +[0-9.]+% ' 30
tm_keys q
tm_wait_exit 50 >/dev/null

tm_start 120 40 "$ST" -w cpu -n 1 -d 0.5 --warmup 0.1 --refresh 0.2 --no-hot
ok "a sweep with --no-hot finishes" tm_wait_for 'sweep done: 1 step' 300
tm_keys 5
ok "its waits view has the families' bars" tm_wait_for "waits: the workload's thread-time" 30
unlike_screen() {
	! tm_screen | grep -q "why: the"
}
ok "and no why panel" unlike_screen
tm_keys q
tm_wait_exit 50 >/dev/null
done_testing
