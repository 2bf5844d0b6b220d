#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# How soon a key is answered while a sweep runs, against htop in the same run
# and the same tmux geometry: ms from tmux send-keys until the screen shows
# the help (scaletop '?' with a 1 s refresh and a cpu sweep on both CPUs;
# htop 'h' with -d 10, so neither is helped by its own redraw), best and
# median of ROUNDS (default 7).  tmux's own round trips are in both figures.
# Target: scaletop's best under 100 ms, and no slower than htop's by more
# than 1.5x.  Usage: bench/tui-latency.sh [ROUNDS]
: "${top_builddir:=.}"
ST=$(cd "$top_builddir" && pwd)/scaletop
ROUNDS=${1:-7}
case "$ROUNDS" in
'' | *[!0-9]*) echo "tui-latency: ROUNDS '$ROUNDS' is not a count: give a whole number such as 7" >&2; exit 2 ;;
esac
for tool in tmux htop; do
	command -v "$tool" >/dev/null || { echo "tui-latency: $tool is needed (apt-get install $tool)" >&2; exit 1; }
done
[ -x "$ST" ] || { echo "tui-latency: no binary at $ST: build it first" >&2; exit 1; }
SOCK="scaletop-bench-$$"
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
# The TUI keeps each sweep it runs; here in a folder of the bench's own.
DATA=$(mktemp -d) || exit 1
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$DATA"' EXIT
trap 'exit 1' INT TERM

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# latency KEY REGEX CLOSE: ms from KEY until the screen matches, polled with
# no sleep; 9999 after 2 s.  CLOSE then closes what KEY opened.
latency() {
	t0=$(now_ms)
	tm send-keys -t b "$1"
	while ! tm capture-pane -p -t b 2>/dev/null | grep -Eq -- "$2"; do
		[ $(($(now_ms) - t0)) -gt 2000 ] && { echo 9999; return; }
	done
	echo $(($(now_ms) - t0))
	tm send-keys -t b "$3"
	sleep 0.5
}

# rounds NAME KEY REGEX CLOSE READY CMD...: one line "NAME best median".
rounds() {
	name=$1 key=$2 re=$3 close=$4 ready=$5
	shift 5
	tm kill-server >/dev/null 2>&1
	SOCK="scaletop-bench-$$-$name"
	tm new-session -d -s b -x 120 -y 40 env TERM=xterm-256color LANG=C.UTF-8 XDG_DATA_HOME="$DATA" "$@"
	i=0
	until tm capture-pane -p -t b 2>/dev/null | grep -Eq -- "$ready"; do
		i=$((i + 1))
		[ "$i" -gt 300 ] && { echo "tui-latency: $name never showed /$ready/" >&2; exit 1; }
		sleep 0.1
	done
	r=0
	while [ "$r" -lt "$ROUNDS" ]; do
		latency "$key" "$re" "$close"
		r=$((r + 1))
	done | sort -n | awk -v n="$name" '{ v[NR] = $1 } END { printf "%s %d %d\n", n, v[1], v[int((NR + 1) / 2)] }'
}

out=$(mktemp)
trap 'tm kill-server >/dev/null 2>&1; rm -f "$out"; rm -rf "$DATA"' EXIT
ncpu=$(getconf _NPROCESSORS_ONLN)
rounds scaletop '?' 'press any key to close' x "N=$ncpu measuring" \
	"$ST" -w cpu -n "$ncpu" -d 600 --warmup 0.2 --refresh 1 >>"$out" || exit 1
tm kill-server >/dev/null 2>&1
"$ST" run -q -w cpu -n "$(getconf _NPROCESSORS_ONLN)" -d 600 --warmup 0.2 >/dev/null 2>&1 &
load=$!
trap 'tm kill-server >/dev/null 2>&1; kill "$load" 2>/dev/null; rm -f "$out"; rm -rf "$DATA"' EXIT
rounds htop h 'htop .* - \(C\)' q 'Load average' htop -d 10 >>"$out" || exit 1
kill "$load"
wait "$load" 2>/dev/null
awk '
	{ best[$1] = $2; med[$1] = $3; printf "%-9s best %4d ms, median %4d ms\n", $1, $2, $3 }
	END {
		r = best["htop"] > 0 ? best["scaletop"] / best["htop"] : 0
		printf "best-of ratio scaletop/htop: %.2f (target: scaletop under 100 ms, ratio <= 1.5)\n", r
		print (best["scaletop"] < 100 && r <= 1.5) ? "PASS" : "FAIL"
	}' "$out"
