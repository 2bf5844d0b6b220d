# SPDX-License-Identifier: BSD-2-Clause
# The host's fingerprint through the real binary: a short run's snapshot
# carries what this machine's kernel says (checked against /proc and /sys
# here, and against the schema), show prints it, and compare warns of a copy
# whose JSON says fewer CPUs or SMT off, naming the field and both values,
# and still compares (exit 0); another kernel is a note, not a warning.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
SCHEMA="$top_srcdir/docs/snapshot.schema.json"

"$SCALETOP" run -w cpu -n 1 -d 0.4 --warmup 0.1 --interval 0.1 -q -o "$T/a.json" \
	>"$T/run.out" 2>"$T/run.err"
is "$?" 0 "run -o saves a snapshot"

# What the kernel says here, read by the test itself, against the snapshot's host.
online=$(getconf _NPROCESSORS_ONLN)
is "$(json_get "$T/a.json" 'd["host"]["threads"]')" "$online" "host.threads: the online CPUs"
if [ -r /sys/devices/system/clocksource/clocksource0/current_clocksource ]; then
	is "$(json_get "$T/a.json" 'd["host"]["clocksource"]')" \
		"$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)" \
		"host.clocksource: as sysfs says"
else
	skip "this kernel shows no current_clocksource" "host.clocksource"
fi
if [ -d /sys/devices/system/cpu/vulnerabilities ]; then
	is "$(json_get "$T/a.json" 'len(d["host"]["mitigations"])')" \
		"$(ls /sys/devices/system/cpu/vulnerabilities | wc -l | tr -d ' ')" \
		"host.mitigations: one per vulnerabilities file"
else
	skip "this kernel has no vulnerabilities directory" "host.mitigations"
fi
is "$(json_get "$T/a.json" 'all(s["freq_mhz"] is None or s["freq_mhz"] > 0 for s in d["steps"])')" \
	"True" "steps[].freq_mhz: a frequency or null"
if "$PYTHON" -c 'import jsonschema' 2>/dev/null; then
	"$PYTHON" - "$SCHEMA" "$T/a.json" >"$T/schema.out" 2>&1 <<'EOF'
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
EOF
	is "$?" 0 "the snapshot with its fingerprint matches the schema"
else
	tap_result 1 "the snapshot matches the schema"
	diag "$PYTHON has no jsonschema module: install python3-jsonschema"
fi

"$SCALETOP" show "$T/a.json" >"$T/show.out" 2>&1
is "$?" 0 "show exits 0"
is "$(grep -c "^cpus: .*$online thread" "$T/show.out")" 1 "show prints the CPUs line"

# edit KEY VALUE OUT: a copy of a.json with host[KEY] set to the JSON VALUE.
edit() {
	"$PYTHON" - "$T/a.json" "$1" "$2" "$3" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["host"][sys.argv[2]] = json.loads(sys.argv[3])
json.dump(d, open(sys.argv[4], "w"), indent=2)
EOF
}

ncpus=$(json_get "$T/a.json" 'd["host"]["ncpus"]')
edit ncpus $((ncpus * 2)) "$T/more.json"
"$SCALETOP" compare "$T/a.json" "$T/more.json" >"$T/c1.out" 2>&1
is "$?" 0 "compare of a copy with twice the CPUs still compares (exit 0)"
is "$(grep -c "^warning: B differs from A in CPUs (host.ncpus): A $ncpus, B $((ncpus * 2))$" \
	"$T/c1.out")" 1 "  one warning naming host.ncpus and both counts"
# Above the first table (the throughput's; the built-in's latency has one too).
ok "  above the table" [ "$(grep -n '^warning: B differs' "$T/c1.out" | head -n 1 | cut -d: -f1)" -lt \
	"$(grep -n 'B/A' "$T/c1.out" | head -n 1 | cut -d: -f1)" ]

smt=$(json_get "$T/a.json" 'd["host"]["smt"]')
if [ "$smt" = on ]; then other=off; else other=on; fi
if [ "$smt" = None ]; then
	skip "this kernel does not say its SMT state" "compare warns of SMT"
else
	edit smt "\"$other\"" "$T/smt.json"
	"$SCALETOP" compare --csv "$T/a.json" "$T/smt.json" >"$T/c2.out" 2>"$T/c2.err"
	is "$?" 0 "compare --csv of a copy with SMT $other exits 0"
	is "$(cat "$T/c2.err")" "warning: B differs from A in SMT (host.smt): A $smt, B $other" \
		"  the one warning, on stderr, naming host.smt and both states"
fi

edit os_release '"1.0.0-other"' "$T/kernel.json"
"$SCALETOP" compare "$T/a.json" "$T/kernel.json" >"$T/c3.out" 2>&1
is "$(grep -c '^warning:' "$T/c3.out")" 0 "another kernel is no warning"
is "$(grep -c '^note: B differs from A in kernel (A .*, B 1.0.0-other)' "$T/c3.out")" 1 \
	"  but a note naming both"

done_testing
