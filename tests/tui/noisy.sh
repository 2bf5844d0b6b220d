# SPDX-License-Identifier: BSD-2-Clause
# The TUI says "noisy" where the table does: a replayed stream whose N=1 and
# N=2 steps have CIs of 38% and 39% of their means (wider than a quarter)
# shows them noisy in the steps view and in a step's detail, N=3 ok, and its
# verdict line says its confidence is low.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"

CF="$top_srcdir/tests/fixtures/streams/mutex-collapse.jsonl"
tm_start 280 40 "$ST" replay "$CF"
ok "the replay ends with a verdict" tm_wait_for ' verdict: ' 50
ok "  which says its confidence is low, and where" \
	tm_wait_for 'low confidence: steps at N=1,2 are noisy \(CI up to \+-39%\)' 20
tm_keys G 4
ok "the steps view: N=1 is noisy" tm_wait_for '^ +1 +1\.20M +3[0-9]\.[0-9]% .* noisy *$' 50
ok "  and N=2" tm_wait_for '^ +2 +1\.21M +3[0-9]\.[0-9]% .* noisy *$' 20
ok "  N=3 is ok" tm_wait_for '^ +3 +1\.40M .* ok *$' 20
tm_keys Home Enter
ok "the detail of N=1 says noisy" tm_wait_for '─ step 1: N=1 run 1, noisy' 20
tm_keys q
tm_wait_exit 50

done_testing
