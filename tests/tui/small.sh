#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Small terminals drop detail in a fixed order and never leave a titled
# panel empty: at 60x16 the chart panel still plots its points (or says the
# peak in one line), at 80x24 the USL legend is whole, on a second line or
# in shorter words, and a message too long for its line ends at a word
# with an ellipsis.  A kept run (a fixture) is opened, so the figures are
# the same on any machine.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"
need python3 python3
RUNS="$T/data/scaletop/runs"
mkdir -p "$RUNS" && chmod 700 "$RUNS"
cp "$top_srcdir/tests/fixtures/snapshots/mutex-linux.json" "$RUNS/scaletop-mutex-h-20250101-000000.json"

# panel TITLE: the rows of the panel whose title holds TITLE, up to the next title.
panel() {
	tm_screen | python3 -c '
import sys
rows, inside = [], False
for line in sys.stdin.read().split("\n"):
    if line.startswith("\u2500 ") or line.startswith("- "):
        if inside:
            break
        inside = sys.argv[1] in line
        continue
    if inside:
        rows.append(line)
print("\n".join(rows))' "$1"
}

# plotted TEXT: true when TEXT holds a plotted dot or mark, or the one-line summary.
plotted() {
	printf '%s\n' "$1" | python3 -c '
import sys
t = sys.stdin.read()
sys.exit(0 if any(0x2801 <= ord(c) <= 0x28ff or c in "\u25cf\u25b2" for c in t) or "peak " in t else 1)'
}

# open_run W H: the TUI at W x H with the kept run opened.
open_run() {
	tm_start "$1" "$2" "$ST" --monitor --refresh 0.2
	tm_wait_for '^ scaletop ' 100
	tm_keys R
	tm_wait_for 'runs kept: 1' 50
	tm_keys Enter
	tm_wait_for 'opened ' 50
}

# --- 60x16: the chart panel plots -------------------------------------------------------
open_run 60 16
tm_keys 1
ok "60x16: the overview shows the chart panel" tm_wait_for '─ throughput' 50
p=$(panel throughput)
ok "60x16 overview: the chart panel has its points or the peak" plotted "$p" || diag "$(tm_screen)"
tm_keys 3
tm_wait_for '─ contention' 50
p=$(panel throughput)
ok "60x16 chart view: the chart has its points" plotted "$p" || diag "$(tm_screen)"
tm_keys q
tm_wait_exit 100

# --- 80x24: the legend whole, and the message ends at a word ---------------------------------
open_run 80 24
msg=$(tm_screen | tail -n 1 | sed 's/ *$//')
like "$msg" '(N=[0-9,]+|…)$' "80x24: the message is whole, or ends with an ellipsis" 
tm_keys 3
tm_wait_for '─ contention' 50
p=$(panel throughput)
like "$p" 'USL s=[^ ]+ k=[^ ]+ .*(contention|coherency|linear)' "80x24 chart view: the legend has the fit" ||
	diag "$(tm_screen)"
like "$p" '\(few points\)' "and its caveat, whole"
like "$(printf '%s\n' "$p" | grep -c '(few')" '^1$' "once"
tm_keys 1
tm_wait_for '─ contention' 50
p=$(panel throughput)
like "$p" '\(few points\)' "80x24 overview: the legend's caveat is whole" || diag "$(tm_screen)"
ok "and the curve is plotted" plotted "$p"
tm_keys q
tm_wait_exit 100

# --- 160x50: all of it, on one legend line ----------------------------------------------
open_run 160 50
tm_keys 3
tm_wait_for '─ contention' 50
p=$(panel throughput)
like "$(printf '%s\n' "$p" | head -n 1)" '● this run .. ideal ─ USL s=.* \(few points\)' \
	"160x50: the whole legend on its first line" || diag "$(tm_screen)"
ok "and the curve is plotted" plotted "$p"
tm_keys q
tm_wait_exit 100

done_testing
