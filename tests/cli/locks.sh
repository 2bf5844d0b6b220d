# The lock census through the real binary.
#  - mutex at N=4 with a long hold contends on the workload's one global
#    lock: a lock of kind mutex is found with more than one waiter at once
#    and an owner (tried again, at most 3 times with each try logged, since
#    how many wait at once on a tick depends on the machine's load);
#  - show prints the locks: section; the snapshot passes the schema;
#  - --no-locks takes no census.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP

try=0
found=
while [ $try -lt 3 ] && [ "$found" != "True" ]; do
	try=$((try + 1))
	"$SCALETOP" run -w mutex -n 4 -p hold=20000 -d 1.5 --warmup 0.3 -q -o "$T/m.json" \
		--force >"$T/m.out" 2>"$T/m.err" || break
	found=$(json_get "$T/m.json" 'any(x["kind"] == "mutex" and x["max_waiters"] > 1 and x["owner"] is not None for s in d["steps"] for x in s.get("locks", {}).get("top", []))')
	diag "try $try: $(json_get "$T/m.json" '[(s["locks"]["syscall_reads"], [(x["name"], x["kind"], round(x["share"], 3), x["max_waiters"], x["threads"], x["owner"], x["owner_state"]) for x in s["locks"]["top"]]) for s in d["steps"] if "locks" in s]')"
done
is "$found" "True" "mutex at N=4: a mutex with more than one waiter at once and an owner"
is "$(json_get "$T/m.json" 'all(0 <= x["share"] <= 1 and x["threads"] <= 4 and x["family"] == "workload" for s in d["steps"] for x in s["locks"]["top"])')" \
	"True" "every lock's share is in 0..1, of at most the 4 workers"
is "$(json_get "$T/m.json" 'all(x["owner"] is None or x["owner"] != s_pid for s in d["steps"] for x in s["locks"]["top"] for s_pid in [x["pid"]])')" \
	"True" "the owner is a worker, not the controller"
if "$PYTHON" -c 'import jsonschema' 2>/dev/null; then
	ok "the snapshot passes the schema" "$PYTHON" -c '
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
' "$T/m.json" "$top_srcdir/docs/snapshot.schema.json"
else
	bail_out "python3-jsonschema is missing: install python3-jsonschema (./bootstrap check does)"
fi
"$SCALETOP" show "$T/m.json" >"$T/m.show" 2>&1
like "$(cat "$T/m.show")" "^     4 workload +[0-9.]+% .* mutex, [0-9]+ waiters? at once" \
	"show prints the locks: section"

"$SCALETOP" run -w mutex -n 4 -p hold=20000 -d 0.5 --warmup 0.1 -q --json --no-locks \
	>"$T/nolocks.json" 2>&1
is "$(json_get "$T/nolocks.json" '[("locks" in s) for s in d["steps"]]')" "[False]" \
	"--no-locks takes none"
done_testing
