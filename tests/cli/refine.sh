# SPDX-License-Identifier: BSD-2-Clause
# --refine on real sweeps.  spinlock over -n topo, past the CPUs: whatever
# the load (on a busy machine it may collapse above 1, leaving no gap), the
# peak ends located, each added N is new, marked refined and announced with
# why, the budget is kept and the refinement says why it ended.  cpu over
# 1 and 8 always leaves a gap below its highest point: there N are added,
# every trial runs the same ones, and the tables mark them.  Alone (make
# check-alone): it loads the machine.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is needed to read JSON"
tap_tmpdir
T=$TAP_TMP
export TMPDIR="$T"

# think=200: twice the work outside the lock, so that on an idle machine it
# scales to the CPUs and collapses past them, leaving a gap to refine.
"$SCALETOP" run -w spinlock -p think=200 -n topo --refine 3 -d 0.6 --warmup 0.2 --interval 0.1 \
	-o "$T/r.json" >"$T/r.out" 2>"$T/r.err"
st=$?
[ "$st" -eq 0 ] || diag "its stderr: $(head -c 600 "$T/r.err")"
is "$st" 0 "run -w spinlock -p think=200 -n topo --refine 3 exits 0"
diag "steps: $(json_get "$T/r.json" '[(s["n"], s["status"], s.get("refined"), s["ops_s"]) for s in d["steps"]]')"
diag "events: $(json_get "$T/r.json" '[e["text"] for e in d["events"] if e["text"].startswith("refine")]')"
diag "verdict: $(json_get "$T/r.json" 'd["analysis"]["verdict"]')"

is "$(json_get "$T/r.json" 'd["settings"]["refine"]')" 3 "the snapshot keeps the budget"
is "$(json_get "$T/r.json" 'sum(1 for s in d["steps"] if s.get("refined")) <= 3')" True \
	"at most three steps were added: the budget"
is "$(json_get "$T/r.json" 'all(s["n"] not in d["settings"]["n"] for s in d["steps"] if s.get("refined"))')" \
	True "every refined N is one the list did not have"
is "$(json_get "$T/r.json" '[s.get("refined", False) for s in d["steps"]] == sorted([s.get("refined", False) for s in d["steps"]])')" \
	True "the refined steps come after the list"
is "$(json_get "$T/r.json" 'sorted(int(e["text"].split("N=")[1].split(",")[0]) for e in d["events"] if e["text"].startswith("refine: N=")) == sorted(s["n"] for s in d["steps"] if s.get("refined"))')" \
	True "an event says why each refined N was chosen"
like "$(json_get "$T/r.json" '[e["text"] for e in d["events"] if e["text"].startswith("refine")][-1]')" \
	'refine: (nothing left to learn|the budget of 3 N is spent)' \
	"the refinement ends by saying why"
# Located: the peak's measured neighbours are one N away, or the refiner
# said nothing was left (their CIs overlap): both say where the peak is.
located() {
	"$PYTHON" - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ns = sorted({s["n"] for s in d["steps"] if s["status"] in ("ok", "unstable")})
p = d["analysis"]["peak"]["n"]
lo = [k for k in ns if k < p]
hi = [k for k in ns if k > p]
near = (not lo or p - lo[-1] <= 1) and (not hi or hi[0] - p <= 1)
last = [e["text"] for e in d["events"] if e["text"].startswith("refine")][-1]
print("peak", p, "measured", ns, "last:", last)
sys.exit(0 if near or "nothing left" in last else 1)
EOF
}
ok_shown "the peak is located: its neighbours are one N away, or the refiner had nothing left" \
	located "$T/r.json"
# cpu over 1 and 8, twice: the gap between them is always open.
"$SCALETOP" run -w cpu -n 1,8 --refine 2 --trials 2 -d 0.4 --warmup 0.1 --interval 0.1 \
	-o "$T/t.json" >"$T/t.out" 2>"$T/t.err"
is "$?" 0 "cpu -n 1,8 --refine 2 --trials 2 exits 0"
diag "steps: $(json_get "$T/t.json" '[(s["n"], s["trial"], s.get("refined"), s["ops_s"]) for s in d["steps"]]')"
is "$(json_get "$T/t.json" '1 <= len({s["n"] for s in d["steps"] if s.get("refined")}) <= 2')" True \
	"one or two N were added between 1 and 8, within the budget"
is "$(json_get "$T/t.json" 'all(1 < s["n"] < 8 for s in d["steps"] if s.get("refined"))')" True \
	"  inside the gap"
is "$(json_get "$T/t.json" 'sorted(s["n"] for s in d["steps"] if s.get("refined") and s["trial"] == 0) == sorted(s["n"] for s in d["steps"] if s.get("refined") and s["trial"] == 1)')" \
	True "  each trial runs the same refined N"
like "$(cat "$T/t.out")" '\(trial [12], refined\)' "run's table marks a refined step"
"$SCALETOP" show "$T/t.json" >"$T/show.out" 2>&1
like "$(cat "$T/show.out")" '\(trial [12], refined\)' "show marks it too, from the file"

# Too few usable N: no claim that anything was located.
"$SCALETOP" run -w cpu -n 2 --refine 2 -d 0.4 --warmup 0.1 -o "$T/one.json" >/dev/null 2>&1
is "$(json_get "$T/one.json" '[e["text"] for e in d["events"] if e["text"].startswith("refine:")]')" \
	"[\"refine: only one N gave a usable figure, and refining needs two; see each step's status\"]" \
	"one N: refine says it needs two"
"$SCALETOP" run --cmd false --parse elapsed -n 1,2 --refine 2 -d 0.4 -o "$T/none.json" \
	>/dev/null 2>&1
like "$(json_get "$T/none.json" '[e["text"] for e in d["events"] if e["text"].startswith("refine:")]')" \
	'refine: no step gave a usable figure' "no usable step: refine says so, not 'located'"

"$SCALETOP" run -w cpu -n 1 --refine=0 >"$T/bad.out" 2>&1
is "$?" 2 "--refine=0 is refused"
like "$(cat "$T/bad.out")" '--refine' "  naming the option"

done_testing
