# SPDX-License-Identifier: BSD-2-Clause
# Latency in the TUI: L switches the chart to each N's p50 and p99 (log y
# when they span more than a decade), with a legend naming the percentiles,
# the unit and how they were measured; L again is throughput.  A step's
# detail shows its percentiles and its histogram as bars.  A sweep without
# latency says how to get it.  The sweep is a recorded sysbench --histogram
# sweep, opened from the runs view, so the figures are known.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
FIX="$top_srcdir/tests/fixtures/snapshots/sysbench-latency.json"

# The fixture's figures: how many N have a p99, N=1's p50 and p99, and the largest p99.
cat >"$T/lat_figs.py" <<'PY'
import json, sys
steps = [s for s in json.load(open(sys.argv[1]))["steps"] if s.get("latency")]
l = steps[0]["latency"]
print(len({s["n"] for s in steps}), "%.3g" % l["p50_ms"], "%.3g" % l["p99_ms"],
      max(s["latency"]["p99_ms"] for s in steps))
PY
set -- $("$PYTHON" "$T/lat_figs.py" "$FIX")
nlat=$1 p50=$2 p99=$3 p99max=$4
ok "the fixture has latency at several N" test "${nlat:-0}" -ge 3

# open_run DATADIR SNAPSHOT: a TUI at 80x24 on the snapshot, opened from the runs view (in
# this shell: tm_start sets the socket).
open_run() {
	mkdir -p "$1/scaletop/runs"
	cp "$2" "$1/scaletop/runs/"
	TM_DATA="$1"
	tm_start 80 24 "$ST" --monitor --refresh 0.2
	ok "the TUI starts" tm_wait_for ' R runs ' 50
	tm_keys R
	ok "R lists the kept run" tm_wait_for 'runs kept: 1' 50
	tm_keys Enter
}

# screen_count GLYPH: how many times GLYPH is on the screen.
screen_count() {
	tm_screen | grep -o -- "$1" | wc -l
}

# --- the chart: throughput, then L: latency -----------------------------------------
open_run "$T/lat" "$FIX"
ok "Enter opens the recorded sweep" tm_wait_for 'sysbench threads' 50
tm_keys 3
ok "the chart view shows throughput" tm_wait_for 'throughput \(events/s\) against N' 50
is "$(screen_count '◇')" 0 "with no p99 mark"
tm_keys L
ok "L switches the chart to latency, on a log y axis (1.4 to 31 ms)" \
	tm_wait_for '─ latency \(ms, log y\) against N \(threads\)' 50
ok "the legend names p50 and p99, the unit and how they were measured" \
	tm_wait_for '● p50 ◇ p99 +in ms, from a histogram' 20
is "$(screen_count '◇')" $((nlat + 1)) "a p99 mark at each N, besides the legend's"
is "$(screen_count '●')" $((nlat + 1)) "and a p50 mark at each N"
top=$(tm_screen | sed -n 's/^ *\([0-9.][0-9.]*\)│.*/\1/p' | head -n 1)
ok "the axis's top ($top ms) is above the largest p99 ($p99max ms)" \
	"$PYTHON" -c "import sys; sys.exit(not float('${top:-0}') > $p99max)"
ok "the message says what L did" tm_wait_for 'chart: latency against N' 20

# --- the mode holds across views; the overview's chart follows it ----------------------
tm_keys 1
ok "the overview's chart is latency too" tm_wait_for '─ latency \(ms, log y\) against N' 50

# --- a step's detail: its figures and its histogram's bars ------------------------------
tm_keys 4 j Enter
ok "the detail gives N=1's percentiles" \
	tm_wait_for "latency ms: p50 $p50 +p90 [0-9.]+ +p99 $p99 +p99.9 [0-9.]+ +max [0-9.]+ +\(histogram" 50
ok "the bars are labelled by their upper bounds in ms" \
	tm_wait_for '≤ms( +[0-9.]+(us|ns|s)?){8,}' 20
ok "the largest bin's bar is full" tm_wait_for '^ *[0-9.]+k? +████' 20
ok "the layout holds: the events panel is still on screen" tm_wait_for '─ events ' 20
tm_keys 3
ok "over the chart view, the detail gives the latency too" \
	tm_wait_for "latency ms: p50 $p50 +p90 [0-9.]+ +p99 $p99 " 50
ok "with the bars' labels" tm_wait_for '≤ms( +[0-9.]+(us|ns|s)?){8,}' 20

# --- L again: throughput --------------------------------------------------------------
tm_keys Escape 3 L
ok "L again switches back to throughput" tm_wait_for 'throughput \(events/s\) against N' 50
is "$(screen_count '◇')" 0 "and the p99 marks are gone"
tm_keys q
ok "q ends the TUI" tm_wait_exit 100

# --- a sweep without latency says how to get it ---------------------------------------
open_run "$T/none" "$top_srcdir/tests/fixtures/snapshots/cpu-linux.json"
ok "Enter opens a sweep without latency" tm_wait_for 'cpu work=' 50
tm_keys 3 L
ok "its latency chart says none was measured, and how to get it" \
	tm_wait_for 'no latency measured: sysbench --histogram=on' 50
tm_keys q
ok "q ends the TUI" tm_wait_exit 100
done_testing
