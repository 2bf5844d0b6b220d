# SPDX-License-Identifier: BSD-2-Clause
# The TUI's screens, read from tmux: panels, one CPU row per CPU, the grid
# and heatmap for many CPUs (--fake-cpus, a test hook), a sweep that ends
# with a verdict, a sweep of two trials, and ASCII when asked or when the
# locale is not UTF-8.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"

# --- monitoring: one bar per online CPU, ids as the OS numbers them ---------
ncpu=$(online_cpus | wc -l | tr -d ' ')
tm_start 120 40 "$ST" --monitor --refresh 0.2
tm_wait_for "CPU \\($ncpu\\)" && tm_wait_for '^ +avg \[.*%'
ok "the CPU panel names $ncpu CPUs" tm_wait_for "CPU \\($ncpu\\)" 10
tm_keys 2
tm_wait_for 'busy % per CPU over time' 50
rows=$(tm_screen | grep -Eo ' [0-9]+ \[' | wc -l | tr -d ' ')
is "$rows" "$ncpu" "cpus view: one bar row per CPU"
is "$(tm_screen | grep -Eo ' [0-9]+ \[' | tr -dc '0-9\n' | sort -n | tr '\n' ' ')" \
	"$(online_cpus | sort -n | tr '\n' ' ')" "the rows carry the OS's CPU ids"
like "$(tm_screen | sed -n 1p)" "$(uname -s) $(uname -r)" "header: OS name and release"
like "$(tm_screen | sed -n 1p)" "$ncpu CPUs +refresh 0.2s" "header: CPU count and refresh interval"
tm_keys q
tm_wait_exit

# --- many CPUs (synthetic figures) --------------------------------------------
tm_start 120 40 "$ST" --fake-cpus 64 --refresh 0.1
tm_wait_for 'CPU \(64\)'
tm_keys 2
tm_wait_for '^ +63 \[' 50
is "$(tm_screen | grep -Eo ' [0-9]+ \[' | wc -l | tr -d ' ')" 64 "64 CPUs: 64 bars on 120x40"
tm_keys q
tm_wait_exit
for n in 256 1024; do
	tm_start 120 40 "$ST" --fake-cpus $n --refresh 0.1
	tm_wait_for "CPU \\($n\\)"
	sleep 1
	scr=$(tm_screen)
	like "$scr" "busy: " "$n CPUs: a shaded grid instead of bars"
	is "$(printf '%s\n' "$scr" | grep -c ' \[.*%$')" 0 "$n CPUs: no bars in the overview"
	like "$scr" "busy % per CPU over time" "$n CPUs: the heatmap is drawn"
	tm_keys 2
	sleep 0.5
	last=$(tm_screen | awk '/busy % per CPU over time/ { h = 1; next } / verdict: / { h = 0 } h && /^ +[0-9]+ / { l = $1 } END { print l }')
	like "$last" '^[0-9]+$' "$n CPUs: heatmap rows are labelled with CPU ids"
	[ -n "$last" ] && [ "$last" -lt "$n" ] && [ $((n - last)) -le $((n / 8)) ]
	tap_result $? "$n CPUs: the heatmap's last row ($last) covers the last CPUs"
	tm_keys q
	tm_wait_exit
done

# --- a short sweep ends with a verdict ------------------------------------------
# Each step until its CI is within 50% of its mean (0.5 s to 10 s), so that
# it is ok on a busy machine too, or noisy (wider than 25%), never unstable.
tm_start 120 40 "$ST" -w cpu -n 1,2 --until-stable 50 --min-time 0.5 -d 10 --warmup 0.2 --refresh 0.2
ok "the sweep runs: step 1/2 appears" tm_wait_for 'step [12]/2 N=[12]'
ok "the sweep finishes" tm_wait_for 'sweep done: 2 steps' 300
scr=$(tm_screen)
like "$scr" ' verdict: (scales|does not scale|collapse)' "the verdict line is shown, headed by the curve's shape"
like "$scr" 'throughput \(ops/s\) against N' "the chart is drawn"
like "$scr" 'contention: N=2' "contention shows the last step"
like "$scr" 'N=2: .* ops/s \((ok|noisy)\)' "the event log has the step"
tm_keys 4
sleep 0.3
like "$(tm_screen)" '^ +N +ops/s +.CI +(p50 +)?(p99 +)?speedup +eff +CPU% +sys% +vcsw/kop' "steps view: run's columns"
like "$(tm_screen)" '^ +2 +[0-9.]+[kMG]? .* (ok|noisy)' "steps view: the N=2 row"
tm_keys q
tm_wait_exit
is "$(tm_status)" 0 "q exits 0"

# --- --trials: the header says which trial runs; N comes down in the second ------
tm_start 120 40 "$ST" -w cpu -n 1,2 -d 0.5 --warmup 0.2 --refresh 0.2 --trials 2
ok "--trials 2: the header names the first trial" tm_wait_for 'step [12]/4 N=[12] trial 1/2' 300
ok "  then the second, N=2 first" tm_wait_for 'step 3/4 N=2 trial 2/2' 300
ok "  and the sweep finishes" tm_wait_for 'sweep done: 4 steps' 300
tm_keys q
tm_wait_exit

# --- 80x24: the verdict leads with the collapse, then the busy machine -------------
# mutex-collapse.jsonl: a recorded mutex sweep whose N=6 step was scaled to a
# quarter (tests/fixtures/streams), so it collapses above 4 every time; its
# workers waited for a CPU 63% of the time at N=1, so the verdict says the
# machine was busy, and it is longer than 80 columns.
CF="$top_srcdir/tests/fixtures/streams/mutex-collapse.jsonl"
tm_start 80 24 "$ST" replay "$CF"
tm_wait_for ' verdict: ' 50
tm_keys End
ok "80x24: the verdict line starts with the collapse, then the busy machine" \
	tm_wait_for '^ verdict: collapse above 4: 26% of peak at 6; on a busy machine: the' 50
tm_keys q
tm_wait_exit
tm_start 280 30 "$ST" replay "$CF"
tm_wait_for ' verdict: ' 50
like "$(tm_screen | grep ' verdict: ')" \
	'verdict: collapse above 4: 26% of peak at 6; on a busy machine: .* at N=1; ratios to N=1 are unreliable; low confidence: steps at N=1,2 are noisy \(CI up to \+-39%\); scales sub-linearly \(efficiency < 90% at 2 processes\) *$' \
	"280 columns: the whole sentence in its own order, its noisy steps named"
tm_keys q
tm_wait_exit

# --- glyphs ----------------------------------------------------------------------
tm_start 100 30 "$ST" --fake-cpus 300 --ascii --refresh 0.1
tm_wait_for 'CPU \(300\)'
sleep 0.5
is "$(tm_screen | LC_ALL=C grep -c '[^ -~]')" 0 "--ascii: only ASCII on screen"
tm_keys q
tm_wait_exit
LANG=C LC_ALL=C tm_start 100 30 "$ST" --fake-cpus 300 --refresh 0.1
tm_wait_for 'CPU \(300\)'
sleep 0.5
is "$(tm_screen | LC_ALL=C grep -c '[^ -~]')" 0 "LANG=C: ASCII without being asked"
tm_keys q
tm_wait_exit
# The Linux text console has a UTF-8 locale but no braille in its font.
TUI_TERM=linux
tm_start 100 30 "$ST" --fake-cpus 300 --refresh 0.1
unset TUI_TERM
tm_wait_for 'CPU \(300\)'
sleep 0.5
is "$(tm_screen | LC_ALL=C grep -c '[^ -~]')" 0 "TERM=linux: ASCII under a UTF-8 locale"
tm_keys q
tm_wait_exit
tm_start 100 30 "$ST" --fake-cpus 300 --refresh 0.1
tm_wait_for 'CPU \(300\)'
sleep 0.5
ok "and xterm under the same locale: the glyphs" test "$(tm_screen | LC_ALL=C grep -c '[^ -~]')" -gt 0
tm_keys q

done_testing
