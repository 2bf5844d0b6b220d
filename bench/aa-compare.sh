#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# How often compare claims a difference that is not there, and how often it
# finds one that is: the A/A and power benches of issue 25.
#
# A/A: PAIRS pairs of sweeps of the same workload (cpu for odd pairs, mutex
# for even ones; -n 1,2,4 and --trials TRIALS each), the two sweeps of a pair
# one after the other, as a user reruns them.  Each pair is compared with
# the defaults and with --noise 0 --run-noise 0 (Welch's t on the trials
# alone, without the floor or the allowance for a run's own noise), and the
# bench counts the summary lines that claim a difference ("B is ...
# slower/faster", "B differs at", "B is faster at ... and slower at") and
# the per-N lines that do ("N=2: B -12.3% (95% CI -16.0% to -8.4%)").  Goal (a 95%
# test promises no more): at most 1 summary in 20 pairs, at most 5% of the
# per-N lines (3 of 60), under both conditions below.
#
# Power (POWER=1): PAIRS triples of cpu work=1000 (A) against work=1100 (B,
# 10% more work a operation: about -9% ops/s) and work=2000 (C, about -50%).
# Goal: C is found slower in the summary in every pair; the rate for B is
# reported.
#
# INTERLEAVE=1 makes each side of a pair TRIALS sweeps of one trial, taken
# in turns (A B A B A B), and compares them as sides of files
# (compare a1 a2 a3 -- b1 b2 b3): what the machine does over the minutes a
# pair takes is then shared by both sides, as asv interleaves its rounds.
#
# LOAD=1 runs everything beside the come-and-go load of the issue: one CPU
# loop, on for 1-4 s, off for 0-3 s (drawn each time), for the whole bench.
#
# The figures are counts, never times.  Each comparison's text is kept in
# OUT (default a fresh folder under $TMPDIR) for a look afterwards.
#
# RECOMPARE=1 with the OUT of an earlier run sweeps nothing: it judges that
# run's sweeps again with this binary's compare, so that a change to the
# test is measured on the very sweeps the old one judged (the settings must
# be the earlier run's: PAIRS, TRIALS, POWER, INTERLEAVE).
#
# usage: top_builddir=BUILD sh bench/aa-compare.sh
#        env: PAIRS (default 20), TRIALS (default 3), DURATION (-d of each
#        step, default 2), WARMUP (default 0.5), NLIST (default 1,2,4),
#        LOAD (0/1), POWER (0/1), INTERLEAVE (0/1), NOISE (extra compare
#        options, default none), RECOMPARE (0/1, needs OUT),
#        OUT (a folder for the sweeps and comparisons)
: "${top_builddir:=.}"
bin=$top_builddir/scaletop
pairs=${PAIRS:-20}
trials=${TRIALS:-3}
dur=${DURATION:-2}
warm=${WARMUP:-0.5}
nlist=${NLIST:-1,2,4}
load=${LOAD:-0}
power=${POWER:-0}
inter=${INTERLEAVE:-0}
again=${RECOMPARE:-0}
out=${OUT:-}

if [ ! -x "$bin" ]; then
	echo "aa-compare: no binary at $bin: run 'make scaletop' in the build directory" >&2
	exit 2
fi
if [ "$again" = 1 ] && [ ! -d "$out" ]; then
	echo "aa-compare: RECOMPARE=1 needs OUT, the folder of an earlier run's sweeps" >&2
	exit 2
fi
if [ -z "$out" ]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/aa-compare.XXXXXX") || exit 1
fi
mkdir -p "$out" || exit 1

hog=
stop_hog() {
	[ -n "$hog" ] && kill "$hog" 2>/dev/null
	hog=
}
trap 'stop_hog' EXIT
trap 'stop_hog; exit 130' INT TERM

# The come-and-go load: one CPU busy for 1-4 s, then idle for 0-3 s, again.
start_hog() {
	awk 'BEGIN {
		srand();
		for (;;) {
			on = 1 + int(rand() * 4); off = int(rand() * 4);
			t = systime() + on;
			while (systime() < t)
				for (i = 0; i < 100000; i++) x += i;
			system("sleep " off);
		}
	}' >/dev/null 2>&1 &
	hog=$!
}

# say_load WHEN: the load average, the sweeps' context; RECOMPARE sweeps nothing, so has none.
say_load() {
	[ "$again" = 1 ] && return
	echo "aa-compare: load average at the $1: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null ||
		uptime | sed 's/.*load average[s]*: //')"
}

# sweep NAME WORKLOAD [PARAM [K]]: one sweep of K (default TRIALS) trials into $out/NAME.json.
sweep() {
	if [ "$again" = 1 ]; then
		[ -f "$out/$1.json" ] || echo "aa-compare: $out/$1.json is missing: not the earlier run's settings?" >&2
		return
	fi
	_p=
	[ -n "$3" ] && _p="-p $3"
	# shellcheck disable=SC2086
	"$bin" run -q -w "$2" $_p -n "$nlist" -d "$dur" --warmup "$warm" --trials "${4:-$trials}" \
		-o "$out/$1.json" --force >/dev/null 2>"$out/$1.err" ||
		echo "aa-compare: sweep $1 failed: $(tail -n 1 "$out/$1.err")" >&2
}

# claims FILE: "S P T": a summary that claims a difference (0/1), the per-N
# lines that do, and the per-N lines with a test.
claims() {
	awk '
		/^[A-Z]: / || /^warning: / || /^note: / { next }
		!seen && NF > 0 {
			seen = 1
			if ($0 ~ /^[B-Z] is [0-9.]+% (slower|faster)/ || $0 ~ /differs at N=/ ||
			    $0 ~ /^[B-Z] is faster at /)
				s = 1
		}
		/^  N=[0-9]+: [B-Z] [-+]/ { p++ }
		/^  N=[0-9]+: / && !/no test/ { t++ }
		END { printf "%d %d %d\n", s, p, t }' "$1"
}

# found FILE: 1 when the summary says B is slower (a real fall found), else 0.
found() {
	awk '/^[A-Z]: / || /^warning: / || /^note: / { next }
		NF > 0 { print ($0 ~ /^[B-Z] is [0-9.]+% slower/) ? 1 : 0; exit }' "$1"
}

echo "aa-compare: $pairs pairs, --trials $trials, -n $nlist, -d $dur, load $load, power $power, interleave $inter, recompare $again"
echo "aa-compare: sweeps in $out"
say_load start
[ "$load" = 1 ] && [ "$again" != 1 ] && start_hog

if [ "$power" = 1 ]; then
	f10=0
	f50=0
	n10=0
	n50=0
	i=1
	while [ "$i" -le "$pairs" ]; do
		sweep "p$i-a" cpu work=1000
		sweep "p$i-b" cpu work=1100
		sweep "p$i-c" cpu work=2000
		# shellcheck disable=SC2086
		"$bin" compare $NOISE "$out/p$i-a.json" "$out/p$i-b.json" >"$out/p$i-ab.txt" 2>&1
		# shellcheck disable=SC2086
		"$bin" compare $NOISE "$out/p$i-a.json" "$out/p$i-c.json" >"$out/p$i-ac.txt" 2>&1
		f10=$((f10 + $(found "$out/p$i-ab.txt")))
		f50=$((f50 + $(found "$out/p$i-ac.txt")))
		n10=$((n10 + $(grep -cE '^  N=[0-9]+: B -' "$out/p$i-ab.txt")))
		n50=$((n50 + $(grep -cE '^  N=[0-9]+: B -' "$out/p$i-ac.txt")))
		echo "pair $i: work=1100 $(sed -n 's/^\(B is [0-9.]*% slower\).*/\1/p; /^no difference/p; /^one trial/p' "$out/p$i-ab.txt" | head -n 1 | cut -c1-60); work=2000 $(sed -n 's/^\(B is [0-9.]*% slower\).*/\1/p; /^no difference/p' "$out/p$i-ac.txt" | head -n 1 | cut -c1-60)"
		i=$((i + 1))
	done
	stop_hog
	say_load end
	echo "power: work=2000 (-50%) found slower in $f50 of $pairs summaries, $n50 per-N lines"
	echo "power: work=1100 (-9%) found slower in $f10 of $pairs summaries, $n10 per-N lines"
	if [ "$f50" -eq "$pairs" ]; then
		echo "PASS: the halving was found in every pair"
	else
		echo "FAIL: the halving was missed in $((pairs - f50)) of $pairs pairs"
	fi
	exit 0
fi

s_def=0
p_def=0
t_def=0
s_raw=0
p_raw=0
i=1
while [ "$i" -le "$pairs" ]; do
	if [ $((i % 2)) -eq 1 ]; then wl=cpu; else wl=mutex; fi
	if [ "$inter" = 1 ]; then
		sa=
		sb=
		j=1
		while [ "$j" -le "$trials" ]; do
			sweep "aa$i-a$j" "$wl" "" 1
			sweep "aa$i-b$j" "$wl" "" 1
			sa="$sa $out/aa$i-a$j.json"
			sb="$sb $out/aa$i-b$j.json"
			j=$((j + 1))
		done
	else
		sweep "aa$i-a" "$wl"
		sweep "aa$i-b" "$wl"
		sa="$out/aa$i-a.json"
		sb="$out/aa$i-b.json"
	fi
	# shellcheck disable=SC2086
	"$bin" compare $NOISE $sa -- $sb >"$out/aa$i.txt" 2>&1
	# shellcheck disable=SC2086
	"$bin" compare --noise 0 --run-noise 0 $sa -- $sb >"$out/aa$i-raw.txt" 2>&1
	# shellcheck disable=SC2046
	set -- $(claims "$out/aa$i.txt")
	s_def=$((s_def + $1))
	p_def=$((p_def + $2))
	t_def=$((t_def + $3))
	# shellcheck disable=SC2046
	set -- $(claims "$out/aa$i-raw.txt")
	s_raw=$((s_raw + $1))
	p_raw=$((p_raw + $2))
	echo "pair $i ($wl): $(awk '/^[A-Z]: / || /^warning: / || /^note: / { next } NF > 0 { print; exit }' "$out/aa$i.txt" | cut -c1-90)"
	grep -E '^  N=[0-9]+: ' "$out/aa$i.txt" | sed 's/^/    /'
	i=$((i + 1))
done
stop_hog
say_load end
echo "A/A, defaults:  $s_def of $pairs summaries and $p_def of $t_def per-N lines claim a difference"
echo "A/A, the trials alone (--noise 0 --run-noise 0): $s_raw of $pairs summaries and $p_raw per-N lines claim a difference"
lim_s=$(((pairs + 19) / 20))
lim_p=$(((t_def * 5 + 99) / 100))
if [ "$s_def" -le "$lim_s" ] && [ "$p_def" -le "$lim_p" ]; then
	echo "PASS: at most $lim_s summaries and $lim_p per-N lines (5%)"
else
	echo "FAIL: goal at most $lim_s summaries and $lim_p per-N lines (5%)"
fi
