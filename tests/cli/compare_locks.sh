# SPDX-License-Identifier: BSD-2-Clause
# compare's locks: section through the real binary, on snapshots whose lock
# census is written by hand (tests/fixtures/snapshots/locks-a.json and
# locks-b.json: mutex-linux.json's steps with steps[].locks added), so no
# figure depends on timing:
#  - both sides: the same lock (name and process) on one line with each
#    side's share and most waiters, A's two repeats at N=4 pooled (87% and
#    77%: 82%, 7 waiters the most);
#  - a lock on one side only shows '-' on the other; each side's top 3 only;
#    the same name in another process is another lock; kinds that differ
#    are both named;
#  - a step without a census, a side without a step at an N;
#  - one side without a census at all (an older file), either side; a third
#    side; neither side (nothing); censuses that saw no futex waiter;
#  - --markdown's table of the same.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
FX="$top_srcdir/tests/fixtures/snapshots"
A="$FX/locks-a.json"
B="$FX/locks-b.json"
OLD="$FX/mutex-linux.json"

# section FILE: compare's text from its "locks:" line on.
section() {
	sed -n '/^locks: /,$p' "$1"
}

# group FILE N FAMILY: the lines of one N and family of the section.
group() {
	section "$1" | awk -v h="N=$2 $3" '$0 == h { on = 1; next } /^N=/ { on = 0 } on'
}

# --- both sides ------------------------------------------------------------------------------
"$SCALETOP" compare "$A" "$B" >"$T/ab.out" 2>"$T/ab.err"
is "$?" 0 "compare of two snapshots with a census exits 0"
is "$(cat "$T/ab.err")" "" "and warns of nothing"
like "$(section "$T/ab.out" | head -n 1)" "^locks: each side's top 3 futexes at each N" \
	"compare prints a locks: section"
G4=$(group "$T/ab.out" 4 workload)
like "$G4" "^  mutex: big_lock \(mutex\) +A +82\.0% +7w +B +12\.0% +2w$" \
	"the same lock on both sides is one line; A's repeats pool (mean 82%, most waiters 7)"
like "$(printf '%s\n' "$G4" | head -n 1)" "big_lock" "the largest share comes first"
like "$(printf '%s\n' "$G4" | sed -n 2p)" "^  mutex: sem_lock \(bitset\) +A +- +B +40\.0% +3w$" \
	"a lock only B's census saw shows '-' for A, second by its share"
like "$G4" "^  mutex: \[heap\]\+0x40, waited on from worker_loop \(bitset\) +A +2\.5% +1w +B +-$" \
	"a lock only A's census saw shows '-' for B"
like "$G4" "^  mutex: stats_lock \(mutex/bitset\) +A +3\.0% +1w +B +5\.0% +1w$" \
	"a lock whose kind differs between the sides names both kinds"
is "$(printf '%s\n' "$G4" | grep -c tiny_lock)" 0 "a lock below each side's top 3 is left out"
is "$(printf '%s\n' "$G4" | wc -l | tr -d ' ')" 4 "N=4 shows the union of the sides' top 3: 4 locks"
G3=$(group "$T/ab.out" 3 workload)
like "$G3" "^  mutex: big_lock \(mutex\) +A +70\.0% +2w +B +-$" \
	"at N=3, A's big_lock of process mutex..."
like "$G3" "^  helper: big_lock \(mutex\) +A +- +B +30\.0% +1w$" \
	"...is not B's big_lock of process helper"
like "$(group "$T/ab.out" 2 workload)" "^  mutex: big_lock \(mutex\) +A +60\.0% +1w +B +no census$" \
	"a step that ran no census says so"
like "$(group "$T/ab.out" 6 workload)" "^  mutex: big_lock \(mutex\) +A +90\.0% +5w +B +no step$" \
	"a side with no usable step at an N says so"
like "$(group "$T/ab.out" 6 target)" "^  mariadbd: lock_sys\+64 \(mutex\) +A +40\.0% +3w +B +no step$" \
	"the target's locks are a group of their own"
is "$(section "$T/ab.out" | grep -c '^N=1 ')" 0 "an N where no census saw a waiter is left out"
is "$(section "$T/ab.out" | grep -c 'no census on')" 0 "both sides ran a census: no side is named for lacking one"

# --- one side without a census (a file from before it) ----------------------------------------
"$SCALETOP" compare "$A" "$OLD" >"$T/aold.out" 2>&1
is "$?" 0 "compare with an older file exits 0"
like "$(section "$T/aold.out" | sed -n 2p)" "^  no census on B \(--no-locks, not Linux, or a file from before the census\)$" \
	"a side without a census is named once, with why"
like "$(group "$T/aold.out" 4 workload)" "^  mutex: big_lock \(mutex\) +A +82\.0% +7w +B +no census$" \
	"and its cells say no census"
"$SCALETOP" compare "$OLD" "$B" >"$T/oldb.out" 2>&1
like "$(section "$T/oldb.out")" "no census on A " "the first side without one is named too"
like "$(group "$T/oldb.out" 4 workload)" "^  mutex: sem_lock \(bitset\) +A +no census +B +40\.0% +3w$" \
	"with B's locks beside"

# --- three sides ----------------------------------------------------------------------------
"$SCALETOP" compare "$A" "$B" "$OLD" >"$T/abc.out" 2>&1
like "$(group "$T/abc.out" 4 workload)" "^  mutex: big_lock \(mutex\) +A +82\.0% +7w +B +12\.0% +2w +C +no census$" \
	"a third side gets a column of its own"

# --- neither side -----------------------------------------------------------------------------
"$SCALETOP" compare "$OLD" "$FX/mutex-waits.json" >"$T/old2.out" 2>&1
is "$?" 0 "compare of two older files exits 0"
is "$(grep -c '^locks: ' "$T/old2.out")" 0 "and prints no locks: section"

# --- censuses that saw no futex waiter --------------------------------------------------------
"$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["steps"]:
    if "locks" in s:
        s["locks"]["top"] = []
json.dump(d, open(sys.argv[2], "w"))
' "$A" "$T/empty.json"
"$SCALETOP" compare "$T/empty.json" "$OLD" >"$T/empty.out" 2>&1
is "$(section "$T/empty.out" | tail -n 1)" "  no census saw a thread wait on a futex" \
	"censuses with no lock say so in one line"

# --- --markdown -------------------------------------------------------------------------------
"$SCALETOP" compare --markdown "$A" "$B" >"$T/ab.md" 2>&1
is "$?" 0 "compare --markdown exits 0"
MD=$(sed -n '/^Locks: /,$p' "$T/ab.md")
like "$MD" "^\| N \| family \| lock \| A \| B \|$" "--markdown has a locks table"
like "$MD" "^\| 4 \| workload \| mutex: big\\\\_lock \(mutex\) \| 82\.0% 7w \| 12\.0% 2w \|$" \
	"its row of the lock both sides saw"
like "$MD" "^\| 4 \| workload \| mutex: sem\\\\_lock \(bitset\) \| - \| 40\.0% 3w \|$" \
	"a lock on one side only has '-' on the other"
like "$MD" "^\| 2 \| workload \| mutex: big\\\\_lock \(mutex\) \| 60\.0% 1w \| no census \|$" \
	"a step without a census says so"
"$SCALETOP" compare --markdown "$OLD" "$B" >"$T/oldb.md" 2>&1
like "$(cat "$T/oldb.md")" "^No census on A \(--no-locks, not Linux, or a file from before the census\)\.$" \
	"--markdown names a side without a census"
"$SCALETOP" compare --markdown "$OLD" "$FX/mutex-waits.json" >"$T/old2.md" 2>&1
is "$(grep -c '^Locks' "$T/old2.md")" 0 "--markdown of two older files has no locks table"

done_testing
