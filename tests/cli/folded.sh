# SPDX-License-Identifier: BSD-2-Clause
# export --folded through the real binary: flame-graph input from a sweep.
#  - spinlock at N=1,2: every line is "frame;frame;... count" (a reader splits at the last
#    space), rooted at N=<n> then the family; each N's counts add up to the samples of its
#    steps in the JSON; -n 2 gives the same stacks without the N frame; the run's stream
#    gives the same lines as its snapshot;
#  - a reader of the format (python, as flamegraph.pl reads it) builds one tree of it;
#  - -o never replaces a file without --force; the snapshot passes the schema;
#  - an older file (no "stacks") still loads and export says it has none; a bad index, counts
#    that do not add up, and a ';' in a name (written as ':') through hand-edited copies;
#  - refusals of bad options;
#  - --off-cpu of mutex with a long hold: a stack through the kernel's futex wait (tried
#    again, at most 3 times with each try logged: how many threads are read blocked depends
#    on the machine's load).
# On-CPU samples need root or perf_event_paranoid <= 0; the kernel stacks need root's read of
# /proc/self/stack.  Both are probed on the machine, and what it lacks is skipped, saying so.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP

# --- refusals, on no file at all --------------------------------------------------------------
refused() { # WANT_STATUS PATTERN NAME ARGS...
	_want=$1 _pat=$2 _name=$3
	shift 3
	"$SCALETOP" export "$@" >"$T/r.out" 2>"$T/r.err"
	_st=$?
	is "$_st" "$_want" "$_name: exit $_want"
	like "$(cat "$T/r.err")" "$_pat" "  one line saying what to give"
}
refused 2 "give one format" "--folded with --gnuplot" --folded --gnuplot -o x "$T/none.json"
refused 2 "give the snapshot" "--folded without a snapshot" --folded
refused 2 "--folded takes one" "--folded with two snapshots" --folded "$T/a.json" "$T/b.json"
refused 2 "-n '0': out of range" "-n 0" --folded -n 0 "$T/a.json"
refused 2 "-n 'x': not a whole number" "-n x" --folded -n x "$T/a.json"
refused 2 "--off-cpu is --folded's" "--off-cpu without --folded" --gnuplot --off-cpu -o x "$T/a.json"
refused 2 "--svg and --normalise are --gnuplot's" "--svg with --folded" --folded --svg "$T/a.json"

# --- on-CPU --------------------------------------------------------------------------------------
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
if [ -z "$paranoid" ]; then
	skip "no /proc/sys/kernel/perf_event_paranoid: this kernel has no perf_event" "on-CPU stacks"
	done_testing
fi
if [ "$(id -u)" -ne 0 ] && [ "$paranoid" -gt 0 ]; then
	skip "not root and perf_event_paranoid is $paranoid: CPU-wide sampling is not allowed" \
		"on-CPU stacks"
	done_testing
fi

"$SCALETOP" run -w spinlock -n 1,2 -d 1 --warmup 0.3 -q -o "$T/s.json" --record "$T/s.jsonl" \
	>"$T/run.out" 2>&1
is "$?" 0 "spinlock at N=1,2 runs"
"$SCALETOP" export --folded "$T/s.json" >"$T/all.folded" 2>"$T/all.err"
is "$?" 0 "export --folded exits 0"

# folded_check FOLDED JSON PREFIXED: the lines' shape and each N's sum against the JSON.
folded_check() {
	"$PYTHON" - "$@" <<'EOF'
import json, re, sys
folded, snap, prefixed = sys.argv[1], sys.argv[2], sys.argv[3] == "yes"
d = json.load(open(snap))
want = {}
for s in d["steps"]:
    if "hot" in s and "stacks" in s["hot"]:
        want[s["n"]] = want.get(s["n"], 0) + s["hot"]["samples"]["workload"] + s["hot"]["samples"]["target"]
got, bad, lines = {}, [], 0
for line in open(folded):
    lines += 1
    line = line.rstrip("\n")
    stack, _, count = line.rpartition(" ")
    frames = stack.split(";")
    if not re.fullmatch(r"[0-9]+", count) or "" in frames or any(ord(c) < 32 for c in stack):
        bad.append(line)
        continue
    n = None
    if prefixed:
        m = re.fullmatch(r"N=([0-9]+)", frames.pop(0))
        n = int(m.group(1)) if m else None
    if not frames or frames[0] not in ("workload", "target"):
        bad.append(line)
        continue
    got[n] = got.get(n, 0) + int(count)
if not prefixed:
    got = {int(sys.argv[4]): got.get(None, 0)}
    want = {k: v for k, v in want.items() if k == int(sys.argv[4])}
print("lines %d, bad %d %s, counts by N %s, samples by N %s" % (lines, len(bad), bad[:2], sorted(got.items()), sorted(want.items())))
sys.exit(0 if lines > 0 and not bad and got == want and all(v > 0 for v in want.values()) else 1)
EOF
}
ok_shown "every line is frames joined by ';' and a count, rooted at N= and the family; each N's counts add up to its samples" \
	folded_check "$T/all.folded" "$T/s.json" yes
"$SCALETOP" export --folded -n 2 "$T/s.json" >"$T/n2.folded" 2>"$T/n2.err"
is "$?" 0 "export --folded -n 2 exits 0"
ok_shown "-n 2: no N frame, and its counts add up to N=2's samples" \
	folded_check "$T/n2.folded" "$T/s.json" no 2
is "$(sed -n 's/^N=2;//p' "$T/all.folded" | sort)" "$(sort "$T/n2.folded")" \
	"-n 2 holds the same lines as N=2's of every N"

"$SCALETOP" export --folded "$T/s.jsonl" >"$T/stream.folded" 2>"$T/stream.err"
is "$?" 0 "export --folded reads the run's stream too"
is "$(cat "$T/stream.folded")" "$(cat "$T/all.folded")" "  with the same lines as its snapshot"

# A reader as flamegraph.pl's: each line adds its count along its path from one root.
ok_shown "a flame-graph reader builds one tree whose root holds every sample" "$PYTHON" - "$T/all.folded" <<'EOF'
import sys
root = {"n": 0, "kids": {}}
total = 0
for line in open(sys.argv[1]):
    stack, count = line.rstrip("\n").rsplit(" ", 1)
    node = root
    node["n"] += int(count)
    for f in stack.split(";"):
        node = node["kids"].setdefault(f, {"n": 0, "kids": {}})
        node["n"] += int(count)
    total += int(count)
def check(node):
    return sum(k["n"] for k in node["kids"].values()) <= node["n"] and all(check(k) for k in node["kids"].values())
print("root %d, total %d, N frames %s" % (root["n"], total, sorted(root["kids"])))
sys.exit(0 if root["n"] == total > 0 and check(root) and len(root["kids"]) == 2 else 1)
EOF

if "$PYTHON" -c 'import jsonschema' 2>/dev/null; then
	ok "the snapshot with its stacks passes the schema" "$PYTHON" -c '
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
' "$T/s.json" "$top_srcdir/docs/snapshot.schema.json"
else
	bail_out "python3-jsonschema is missing: install python3-jsonschema (./bootstrap check does)"
fi

# -o: a file, never replaced without --force.
"$SCALETOP" export --folded -n 1 -o "$T/n1.folded" "$T/s.json" 2>"$T/o.err"
is "$?" 0 "-o FILE writes it"
ok "  with -n 1's lines" test -s "$T/n1.folded"
echo keep >"$T/kept"
"$SCALETOP" export --folded -o "$T/kept" "$T/s.json" 2>"$T/o.err"
is "$?" 1 "an existing file is not replaced: exit 1"
like "$(cat "$T/o.err")" "kept.*--force" "  the message names it and --force"
is "$(cat "$T/kept")" "keep" "  the file is as it was"
"$SCALETOP" export --folded -o "$T/kept" --force "$T/s.json" 2>"$T/o.err"
is "$?" 0 "--force replaces it"
is "$(cat "$T/kept")" "$(cat "$T/all.folded")" "  with the same lines as standard output"

"$SCALETOP" export --folded -n 3 "$T/s.json" >/dev/null 2>"$T/o.err"
is "$?" 1 "an N the sweep lacks: exit 1"
like "$(cat "$T/o.err")" "no step at N=3" "  naming it"

# Hand-edited copies: edit FILE OUT PYTHON (d is the snapshot; the first step with stacks is st).
edit() {
	"$PYTHON" - "$1" "$2" "$3" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
st = next(s for s in d["steps"] if "stacks" in s.get("hot", {}))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
EOF
}
edit "$T/s.json" "$T/old.json" 'for s in d["steps"]: s.get("hot", {}).pop("stacks", None); (s.get("kstacks") or {}).pop("stacks", None)'
"$SCALETOP" show "$T/old.json" >/dev/null 2>&1
is "$?" 0 "a file from before flame graphs loads"
"$SCALETOP" export --folded "$T/old.json" >"$T/old.out" 2>"$T/old.err"
is "$?" 1 "  export --folded says it has no stacks: exit 1"
like "$(cat "$T/old.err")" "no on-CPU stacks" "  in one line"
is "$(cat "$T/old.out")" "" "  and writes nothing"

edit "$T/s.json" "$T/idx.json" 'st["hot"]["stacks"]["workload"][0].append(len(st["hot"]["stacks"]["names"]))'
"$SCALETOP" export --folded "$T/idx.json" >/dev/null 2>"$T/idx.err"
is "$?" 1 "an index past the names is refused"
like "$(cat "$T/idx.err")" "hot\.stacks\.workload\[0\]\[[0-9]+\].*out of range" "  naming the field"

edit "$T/s.json" "$T/sum.json" 'st["hot"]["stacks"]["other"]["workload"] += 1'
"$SCALETOP" export --folded "$T/sum.json" >/dev/null 2>"$T/sum.err"
is "$?" 1 "counts that do not add up to the samples are refused"
like "$(cat "$T/sum.err")" "stacks count [0-9]+ samples and the step [0-9]+" "  saying both"

edit "$T/s.json" "$T/semi.json" 'st["hot"]["stacks"]["names"][st["hot"]["stacks"]["workload"][0][-1]] = "a;b\tc"'
"$SCALETOP" export --folded "$T/semi.json" >"$T/semi.out" 2>&1
like "$(cat "$T/semi.out")" ";a:b\?c [0-9]+$" "a ';' in a name is written as ':', a control byte as '?'"

# --- off-CPU -------------------------------------------------------------------------------------
if ! cat /proc/self/stack >/dev/null 2>"$T/perm.err"; then
	skip "this user cannot read /proc/self/stack: $(cat "$T/perm.err")" "--off-cpu of mutex"
	done_testing
fi
try=0
found=
while [ $try -lt 3 ] && [ -z "$found" ]; do
	try=$((try + 1))
	"$SCALETOP" run -w mutex -n 4 -p hold=20000 -d 1.5 --warmup 0.3 -q -o "$T/m.json" \
		--force >"$T/m.out" 2>&1 || break
	"$SCALETOP" export --folded --off-cpu "$T/m.json" >"$T/off.folded" 2>"$T/off.err"
	found=$(grep -E '^N=4;workload;.*futex.* [0-9]+$' "$T/off.folded" | head -n 1)
	diag "try $try: $(wc -l <"$T/off.folded") lines; $(head -n 2 "$T/off.folded") $(cat "$T/off.err")"
done
like "$found" "futex" "--off-cpu of mutex at N=4: a stack through the kernel's futex wait"
ok_shown "  every line is kernel frames and a count of milliseconds, which add up to a positive total" \
	"$PYTHON" - "$T/off.folded" <<'EOF'
import re, sys
total, bad = 0, []
for line in open(sys.argv[1]):
    stack, _, count = line.rstrip("\n").rpartition(" ")
    if not re.fullmatch(r"N=4;workload(;[^;]+)+", stack) or not count.isdigit():
        bad.append(line)
    else:
        total += int(count)
print("blocked ms %d, bad %s" % (total, bad[:2]))
sys.exit(0 if total > 0 and not bad else 1)
EOF

done_testing
