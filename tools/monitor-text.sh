#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Writes src/monitor.ld: the functions a TUI session runs, which the link
# places together at the head of .text (docs/design-notes.md, "What a
# running monitor maps of its own binary").  A running monitor then maps a
# few 64 kB fault-around windows of code instead of one for every stretch
# of the binary its ticks happen to call into.
#
# The list comes from callgrind, run over TUI sessions a user has: built-in
# sweeps at 1-2 and 64-256 threads with step ends, the views opened in
# turn, an external command, and --monitor (three tiers: see below).  A
# function missing from the list still runs, from the rest of the text; a
# name the code no longer has matches nothing (tests/lint/monitor_text.sh
# finds those).
#
# Usage: top_builddir=_build/w sh tools/monitor-text.sh [OUT]
# (default OUT: src/monitor.ld beside this script).  Needs valgrind, tmux.
: "${top_builddir:=.}"
LC_ALL=C # one collation for sort and comm
export LC_ALL
HERE=$(cd "$(dirname "$0")/.." && pwd)
ST=$(cd "$top_builddir" && pwd)/scaletop
OUT=${1:-$HERE/src/monitor.ld}
SOCK="scaletop-text-$$"
for t in valgrind callgrind_annotate callgrind_control tmux nm; do
	command -v "$t" >/dev/null || { echo "monitor-text.sh: $t is needed" >&2; exit 1; }
done
[ -x "$ST" ] || { echo "monitor-text.sh: no $ST: build first (make)" >&2; exit 1; }
T=$(mktemp -d) || exit 1
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM

# session NAME SECONDS KEYS ARGS...: the TUI under callgrind for SECONDS,
# each of KEYS (space-separated, tmux key names) sent 3 s apart from the
# 15th second; then a dump of what it ran so far, q, and its exit, whose
# profile is what quitting runs: cg.NAME.run and cg.NAME.quit.  The pane's
# process is the TUI's (env execs valgrind); a built-in step's forked child
# runs under callgrind too, into a file of its own pid, unread.  The TUI
# gets a UTF-8 locale, as most terminals have (the C one above is for sort).
session() {
	name=$1 secs=$2 keys=$3
	shift 3
	tm new-session -d -s "$name" -x 120 -y 40 env TERM=xterm-256color LC_ALL=C.UTF-8 \
		XDG_DATA_HOME="$T/data" valgrind -q --tool=callgrind \
		--callgrind-out-file="$T/cg.$name.%p" "$ST" --refresh 1 "$@"
	pid=$(tm display-message -p -t "$name" '#{pane_pid}')
	sleep 15
	for k in $keys; do
		tm send-keys -t "$name" "$k"
		sleep 3
	done
	sleep "$secs"
	callgrind_control -d "$pid" >/dev/null 2>&1
	sleep 3
	tm send-keys -t "$name" q
	i=0
	while tm has-session -t "$name" 2>/dev/null && [ $i -lt 180 ]; do
		sleep 1
		i=$((i + 1))
	done
	[ -s "$T/cg.$name.$pid.1" ] && [ -s "$T/cg.$name.$pid" ] ||
		{ echo "monitor-text.sh: session $name (pid $pid) wrote no profile" >&2; exit 1; }
	mv "$T/cg.$name.$pid.1" "$T/cg.$name.run"
	mv "$T/cg.$name.$pid" "$T/cg.$name.quit"
	echo "monitor-text.sh: $name done" >&2
}

session plain1 30 "" -w cpu -n 1,2 -d 2
session plain2 40 "" -w mutex -n 64,256 -d 3
session views 10 "2 3 4 5 6 1 v ? ? Enter Escape t" -w cpu -n 1,2 -d 2
session cmd 15 "" --cmd 'sleep 0.2' --parse elapsed -n 1,2 -d 1
session idle 5 "" --monitor

# ran FILE...: our functions the profiles name (clones keep their suffix).
nm --defined-only "$ST" | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u >"$T/ours"
ran() {
	for f in "$@"; do
		callgrind_annotate --threshold=100 "$f" 2>/dev/null
	done | awk -v bin="[$ST]" 'index($0, bin) { sub(/ \[.*$/, ""); sub(/^.*:/, ""); print }' |
		sort -u | comm -12 "$T/ours" - | grep -v -e '^main$' -e '^_start$'
}
# In three runs, each without what came before: what the plain sweeps ran
# while they ran (a session with no keys pressed, the benches' too), dense
# at the head; what the views, an external command and --monitor add; and
# what quitting adds.  A session then maps the windows of its own tier.
ran "$T/cg.plain1.run" "$T/cg.plain2.run" >"$T/t1"
ran "$T/cg.views.run" "$T/cg.cmd.run" "$T/cg.idle.run" | comm -23 - "$T/t1" >"$T/t2"
sort -u "$T/t1" "$T/t2" >"$T/t12"
ran "$T"/cg.*.quit | comm -23 - "$T/t12" >"$T/t3"
cat "$T/t1" "$T/t2" "$T/t3" >"$T/list"
echo "monitor-text.sh: $(wc -l <"$T/t1") + $(wc -l <"$T/t2") + $(wc -l <"$T/t3") functions" >&2
n=$(wc -l <"$T/list")
[ "$n" -gt 100 ] || { echo "monitor-text.sh: only $n functions ran: not writing $OUT" >&2; exit 1; }
{
	echo "/* Made by tools/monitor-text.sh: the $n functions a TUI session ran,"
	echo "   which configure's link script includes at the head of .text"
	echo "   (docs/design-notes.md). */"
	sed 's/.*/    *(.text.& .text.&.*)/' "$T/t1"
	echo "    /* main and the C runtime's start: run once by every session */"
	echo "    *(.text.startup*)"
	echo "    *crt1.o(.text) *crti.o(.text) *crtbegin*.o(.text)"
	sed 's/.*/    *(.text.& .text.&.*)/' "$T/t2" "$T/t3"
} >"$T/out" && mv "$T/out" "$OUT"
echo "monitor-text.sh: $n functions into $OUT"
