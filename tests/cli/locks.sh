# SPDX-License-Identifier: BSD-2-Clause
# The lock census through the real binary.
#  - mutex at N=4 with a long hold contends on the workload's one global
#    lock: a lock of kind mutex is found with more than one waiter at once
#    and an owner (tried again, at most 3 times with each try logged, since
#    how many wait at once on a tick depends on the machine's load); the
#    owner is a thread of the lock's process, as the test saw its threads
#    itself while the run ran (every 50 ms, in /proc), and the lock, in
#    shared memory, is named by the function its waiters wait in;
#  - show prints the locks: section; the snapshot passes the schema;
#  - --no-locks takes no census.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
export TMPDIR="$T"

if ! cat /proc/self/syscall >/dev/null 2>&1; then
	skip "this kernel or user cannot read /proc/PID/syscall (no lock census)" "the lock census"
	done_testing
fi

# threads_while PID: "PID TID" of every thread of this test's processes (TMPDIR is $T), seen
# every 50 ms until PID ends.
threads_while() {
	"$PYTHON" - "$T" "$1" <<'EOF_TH'
import os, sys, time
want, run, seen = b"TMPDIR=" + os.fsencode(sys.argv[1]), sys.argv[2], set()
while os.path.exists("/proc/" + run):
    for p in (d for d in os.listdir("/proc") if d.isdigit()):
        try:
            if want in open("/proc/%s/environ" % p, "rb").read().split(b"\0"):
                seen.update((int(p), int(t)) for t in os.listdir("/proc/%s/task" % p))
        except (OSError, ValueError):
            pass
    time.sleep(0.05)
for p, t in sorted(seen):
    print(p, t)
EOF_TH
}

try=0
found=
while [ $try -lt 3 ] && [ "$found" != "True" ]; do
	try=$((try + 1))
	"$SCALETOP" run -w mutex -n 4 -p hold=20000 -d 1.5 --warmup 0.3 -q -o "$T/m.json" \
		--force >"$T/m.out" 2>"$T/m.err" &
	threads_while $! >"$T/tids"
	wait $! || break
	found=$(json_get "$T/m.json" 'any(x["kind"] == "mutex" and x["max_waiters"] > 1 and x["owner"] is not None for s in d["steps"] for x in s.get("locks", {}).get("top", []))')
	diag "try $try: $(json_get "$T/m.json" '[(s["locks"]["syscall_reads"], [(x["name"], x["kind"], round(x["share"], 3), x["max_waiters"], x["threads"], x["owner"], x["owner_state"]) for x in s["locks"]["top"]]) for s in d["steps"] if "locks" in s]')"
done
is "$found" "True" "mutex at N=4: a mutex with more than one waiter at once and an owner"
is "$(json_get "$T/m.json" 'all(0 <= x["share"] <= 1 and x["threads"] <= 4 and x["family"] == "workload" for s in d["steps"] for x in s["locks"]["top"])')" \
	"True" "every lock's share is in 0..1, of at most the 4 workers"
is "$(json_get "$T/m.json" 'all(x["owner"] is None or x["owner"] != s_pid for s in d["steps"] for x in s["locks"]["top"] for s_pid in [x["pid"]])')" \
	"True" "the owner is a worker, not the controller"
# Every owner given is one of the threads the test saw in the lock's process.
owners=$(json_get "$T/m.json" '" ".join("%d:%d" % (x["pid"], x["owner"]) for s in d["steps"] for x in s["locks"]["top"] if x["owner"] is not None)')
diag "owners (pid:tid): $owners; threads seen: $(wc -l <"$T/tids") in $(cut -d' ' -f1 "$T/tids" | sort -u | wc -l) processes"
bad=
for o in $owners; do
	grep -qx "${o%%:*} ${o#*:}" "$T/tids" || bad="$bad $o"
done
ok "every owner is a thread the test saw in the lock's process (${owners:-none})" \
	test -n "$owners" -a -z "$bad"
like "$(json_get "$T/m.json" '[x["name"] for s in d["steps"] for x in s["locks"]["top"] if x["kind"] == "mutex"][0]')" \
	'^mutex_work \(shared memory\)$' \
	"the workload's lock, in shared memory, is named by its waiters' function first"
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
