# SPDX-License-Identifier: BSD-2-Clause
# Where the CPUs went: the on-CPU samples through the real binary.
#  - spinlock at N=4 spins in user space: its top path holds more than half
#    of the samples (the chains of one leaf add up: no garbage callers), and
#    the user spin share is not 0 (tried again, at most 3 times with each
#    try logged, since another load on the machine spreads the samples);
#  - fdtable kind=open at N=2 in threads mode spins in the fd table's lock:
#    a spin whose caller is alloc_fd or file_close_fd is found (its presence,
#    not its share; tried again likewise, since two threads contend only
#    while both are on a CPU, which other load spoils);
#  - the paths' frames are named (kernel symbols, not addresses);
#  - --no-hot takes none; a step's "hot" passes the schema.
# Sampling needs root or CAP_PERFMON, which is probed on the machine itself
# (oncpu_denied): without it the one event that says why is checked and the
# rest skipped; with it, an empty result is a failure.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP

denied=$(oncpu_denied)
"$SCALETOP" run -w cpu -n 1 -d 0.5 --warmup 0.1 -q --json >"$T/probe.json" 2>"$T/probe.err"
is "$?" 0 "a short sweep runs"
if [ -n "$denied" ]; then
	why=$(json_get "$T/probe.json" '"".join(e["text"] for e in d["events"] if "on-CPU" in e["text"])')
	like "$why" "needs root or CAP_PERFMON|perf" "without the permission one event says why"
	is "$(json_get "$T/probe.json" '[("hot" in s) for s in d["steps"]]')" "[False]" \
		"and the step has no hot paths"
	skip "on-CPU sampling is not allowed here: $denied" "the spins and paths"
	done_testing
fi
is "$(json_get "$T/probe.json" '[s.get("hot", {}).get("samples", {}).get("workload", 0) > 0 for s in d["steps"]]')" \
	"[True]" "a busy thread is sampled"

# spinlock N=4: the top path's share and the user spin share
try=0
good=
while [ $try -lt 3 ] && [ -z "$good" ]; do
	try=$((try + 1))
	"$SCALETOP" run -w spinlock -n 4 -d 2 --warmup 0.3 -q --json >"$T/spin.json" \
		2>"$T/spin.err" || break
	diag "spinlock N=4, try $try: $(json_get "$T/spin.json" '[(h.get("samples"), h.get("user_spin_share"), [(p["share"], p["frames"][:3]) for p in h.get("paths", [])][:2], [(x["spin"], x["caller"], x.get("user")) for x in h.get("spin", [])][:2]) for h in (s.get("hot", {}) for s in d["steps"])]')"
	good=$(json_get "$T/spin.json" '"yes" if all(h["samples"]["workload"] > 0 and max([p["share"] for p in h["paths"] if p["family"] == "workload"] or [0]) > 0.5 and (h["user_spin_share"]["workload"] or 0) > 0 for h in (s.get("hot", {"samples": {"workload": 0}}) for s in d["steps"])) else ""')
done
is "$good" "yes" "spinlock N=4: the top path holds more than half the samples, and user spin is counted"
is "$(json_get "$T/spin.json" '[x["caller"] for s in d["steps"] for x in s["hot"]["spin"] if x.get("user")][:1]')" \
	"['spinlock_work']" "its user spin is spinlock_work's, the caller of the spin loop"

try=0
found=
while [ $try -lt 3 ] && [ -z "$found" ]; do
	try=$((try + 1))
	"$SCALETOP" run -w fdtable -p kind=open -n 2 -d 2 --warmup 0.3 -q --json \
		>"$T/fd.json" 2>"$T/fd.err" || break
	found=$(json_get "$T/fd.json" '" ".join(sorted(set(x["caller"] for s in d["steps"] for x in s["hot"]["spin"] if x["caller"] in ("alloc_fd", "file_close_fd"))))')
	diag "try $try: $(json_get "$T/fd.json" '[(s["hot"]["samples"]["workload"], round(s["hot"]["spin_share"]["workload"] or 0, 3), [(x["spin"], x["caller"]) for x in s["hot"]["spin"]][:3]) for s in d["steps"]]')"
done
like "$found" "alloc_fd|file_close_fd" "fdtable kind=open at N=2: the CPUs spun in the fd table's lock (callers: $found)"
is "$(json_get "$T/fd.json" 'any(f in ("alloc_fd", "file_close_fd", "do_sys_openat2", "__x64_sys_close") for s in d["steps"] for p in s["hot"]["paths"] for f in p["frames"][:p["kernel_frames"]])')" \
	"True" "the paths' kernel frames are named by their symbols"
is "$(json_get "$T/fd.json" 'all(0 < p["share"] <= 1 and len(p["frames"]) <= 8 for s in d["steps"] for p in s["hot"]["paths"])')" \
	"True" "every path's share is in 0..1, with at most 8 frames"
"$SCALETOP" run -w fdtable -p kind=open -n 2 -d 2 --warmup 0.3 -q -o "$T/fd-snap.json" \
	>/dev/null 2>&1
if "$PYTHON" -c 'import jsonschema' 2>/dev/null; then
	ok "the snapshot passes the schema" "$PYTHON" -c '
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
' "$T/fd-snap.json" "$top_srcdir/docs/snapshot.schema.json"
else
	bail_out "python3-jsonschema is missing: install python3-jsonschema (./bootstrap check does)"
fi
"$SCALETOP" show "$T/fd-snap.json" >"$T/fd.show" 2>&1
like "$(cat "$T/fd.show")" "^hot: on-CPU samples" "show prints the hot: section"

"$SCALETOP" compare "$T/fd-snap.json" "$T/fd-snap.json" >"$T/cmp.out" 2>&1
like "$(cat "$T/cmp.out")" "^hot: the CPU that spun in locks" "compare puts the hot paths side by side"
like "$(sed -n '/^hot:/,$p' "$T/cmp.out" | grep -E '^  B spin')" "^  B spin +[0-9.]+%" \
	"with each snapshot's spin share at an N"
"$SCALETOP" run -w cpu -n 1 -d 0.5 --warmup 0.1 -q --json --no-hot >"$T/nohot.json" 2>&1
is "$(json_get "$T/nohot.json" '[("hot" in s) for s in d["steps"]]')" "[False]" "--no-hot takes none"
done_testing
