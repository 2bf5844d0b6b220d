#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --refine against a step of one and powers of two, simulated on a 256-CPU
# machine (2 sockets x 2 nodes x 4 LLCs x 8 cores x 2 SMT) by bench/refine_sim:
# each curve answers an N with its X and seeded noise (NOISE, default 0.03,
# the sd as a fraction of X; a step's 95% CI is +-1.96 sd).  Curves: USL with
# peaks at 24, 40, 48, 60, 100 and 200; cliffs at 40, 96 and 160 (near-linear,
# then 60% at once); and the project's real curves (tests/fixtures/import/
# mysql-8cores.csv, both systems; collapse-reference.csv; snapshots/
# published.csv, which imported.json holds), a natural cubic spline through
# their points in log N, stretched along N so that their last point lands at
# 256 (they were measured on smaller machines).  The 2-CPU snapshots (N 1-6)
# are left out: they have no peak to find.  Each curve has 20 cases; in each,
# with noise of their own: N = 1..256 once each (step of one), the powers of
# two to 1024, and the topology's list (its boundaries merged with the powers
# of two: here the same 11 N) then refine_next's picks until it says 0 or 64
# steps are spent in all.
# The same peak: the refiner's peak N (the highest mean it measured) is
# within one N of the step of one's, or both lie on the curve's plateau, the N
# whose true X is within 1.96 x sqrt(2) sd of the best: one measurement each
# cannot tell those apart at 95%, so no sweep of single steps can do better,
# and asking for the step of one's exact N would judge its noise, not the
# refiner (on a USL top, 26-130 N are that flat at 3%).
# Goal: the same peak in at least 19 of 20 cases on every curve, with at most
# 64 steps (a quarter of the step of one's 256).  Exit 1 when missed.
# Usage: bench/refine.sh (env SEED=S to repeat a run, NOISE=F).
: "${top_builddir:=.}"
: "${top_srcdir:=$(dirname "$0")/..}"
SIM=$top_builddir/bench/refine_sim
FIX=$top_srcdir/tests/fixtures
[ -x "$SIM" ] || { echo "no $SIM: make bench/refine_sim (or make bench-refine)"; exit 1; }
SEED=${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
NOISE=${NOISE:-0.03}

# curve NAME FILE COLUMN: NAME=N:X,... from a CSV's first column and COLUMN.
curve() {
	awk -F, -v name="$1" -v col="$3" '
		/^#/ || $1 !~ /^[0-9]+$/ { next }
		$col ~ /^[0-9.]+$/ { s = s (s == "" ? "" : ",") $1 ":" $col }
		END { if (s == "") exit 1; print name "=" s }' "$2" ||
		{ echo "refine.sh: $2: no N,X rows in column $3" >&2; exit 1; }
}

set -- \
	"$(curve mysql-linux "$FIX/import/mysql-8cores.csv" 2)" \
	"$(curve mysql-freebsd "$FIX/import/mysql-8cores.csv" 4)" \
	"$(curve published "$FIX/snapshots/published.csv" 2)" \
	"$(curve collapse-ref "$FIX/import/collapse-reference.csv" 2)"
for c in "$@"; do
	[ -n "$c" ] || exit 1
done

"$SIM" "$SEED" "$NOISE" "$@"
rc=$?
if [ "$rc" -eq 0 ]; then
	echo PASS
else
	echo "FAIL (SEED=$SEED to repeat)"
fi
exit "$rc"
