# SPDX-License-Identifier: BSD-2-Clause
# scaletop sample, driven as a user would: its text and JSON Lines output
# checked against the machine's own CPU list, its argument errors, and how it
# ends on ^C, on SIGTERM and when its reader goes away.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
online_cpus >"$T/online"
NCPU=$(wc -l <"$T/online" | tr -d ' ')
ONLINE=$(tr '\n' ' ' <"$T/online")
diag "online CPUs: $ONLINE"

# --- text output ------------------------------------------------------------

"$SCALETOP" sample -c 2 -i 0.1 >"$T/text" 2>"$T/text.err"
is "$?" 0 "text: -c 2 -i 0.1 exits 0"
like "$(head -n 1 "$T/text")" "^$(uname -s) .+ \\(.+\\) [0-9]{4}-[0-9]{2}-[0-9]{2} .+ \\([0-9]+ CPU\\)\$" \
	"text: first line names OS, host, date and CPU count"

# Interval rows: not the Average block, second field "all", a CPU id or "sys".
awk '$1 != "Average:" && $2 == "CPU"' "$T/text" >"$T/heads"
awk '$1 != "Average:" && $2 ~ /^[0-9]+$/ { print $2 }' "$T/text" >"$T/ids"
is "$(wc -l <"$T/heads" | tr -d ' ')" 2 "text: one header per interval"
is "$(awk '$1 != "Average:" && $2 == "all"' "$T/text" | wc -l | tr -d ' ')" 2 \
	"text: one all line per interval"
is "$(wc -l <"$T/ids" | tr -d ' ')" $((2 * NCPU)) "text: one line per online CPU per interval"
is "$(head -n "$NCPU" "$T/ids" | tr '\n' ' ')" "$ONLINE" "text: CPU ids are the online CPUs, in order"
is "$(awk '$1 != "Average:" && $2 == "sys"' "$T/text" | wc -l | tr -d ' ')" 2 \
	"text: one system line per interval"
like "$(head -n 1 "$T/heads")" '^[0-9]{2}:[0-9]{2}:[0-9]{2} +CPU +%usr +%nice +%sys +%irq +%soft +%iowait +%steal +%idle$' \
	"text: header has the time and the eight state columns"
like "$(awk '$2 == "sys"' "$T/text" | head -n 1)" \
	'ctxsw/s [0-9.]+ +intr/s [0-9.]+ +soft/s [0-9.-]+ .*fork/s [0-9.-]+ +run/blk [0-9-]' \
	"text: system line has ctxsw/s, intr/s, soft/s, fork/s and run queue"
is "$(awk '$1 == "Average:" && $2 ~ /^[0-9]+$/' "$T/text" | wc -l | tr -d ' ')" "$NCPU" \
	"text: Average block has every CPU"

# Every row with figures: eight values in [0,100] summing to 100 (each is
# rounded to 0.01, so the sum may be off by 0.04).
awk '($2 == "all" || $2 ~ /^[0-9]+$/) && NF >= 10 {
	sum = 0
	for (i = 3; i <= 10; i++) {
		if ($i !~ /^[0-9]+\.[0-9][0-9]$/ || $i + 0 > 100) { print "bad value: " $0; bad++ }
		sum += $i
	}
	if (sum < 99.95 || sum > 100.05) { print "sum " sum ": " $0; bad++ }
	rows++
}
END { if (rows == 0) print "no rows"; exit (bad > 0 || rows == 0) }' "$T/text" >"$T/sums"
is "$?" 0 "text: each CPU line's percentages are in [0,100] and sum to ~100"
[ -s "$T/sums" ] && diag "$(cat "$T/sums")"

# --- JSON Lines ---------------------------------------------------------------

"$SCALETOP" sample -c 2 -i 0.1 --json >"$T/json" 2>"$T/json.err"
is "$?" 0 "json: exits 0"
is "$(wc -l <"$T/json" | tr -d ' ')" 2 "json: one line per interval"
is "$(wc -c <"$T/json.err" | tr -d ' ')" 0 "json: nothing on stderr"

# Checks every line; prints one complaint per problem, nothing when all is well.
cat >"$T/check.py" <<'EOF'
import json, math, re, sys

online = [int(x) for x in open(sys.argv[2]).read().split()]
states = ["usr", "nice", "sys", "irq", "soft", "iowait", "steal", "idle"]
sys_keys = ["ctxsw_s", "intr_s", "softirq_s", "syscall_s", "fork_s",
            "running", "blocked", "psi_some_pct", "psi_full_pct"]
problems = []

def pct_row(where, row):
    for k in states + ["busy", "flags"]:
        if k not in row:
            problems.append("%s: no %s" % (where, k))
            return
    if row["flags"] and any(f in row["flags"] for f in ("new", "gone", "offline", "no_ticks")):
        if any(row[k] is not None for k in states + ["busy"]):
            problems.append("%s: figures despite flags %s" % (where, row["flags"]))
        return
    vals = [row[k] for k in states]
    for k, v in zip(states + ["busy"], vals + [row["busy"]]):
        if not isinstance(v, (int, float)) or not 0 <= v <= 100:
            problems.append("%s: %s=%r outside [0,100]" % (where, k, v))
            return
    if abs(sum(vals) - 100) > 0.05:
        problems.append("%s: states sum to %g" % (where, sum(vals)))
    if abs(row["busy"] - (100 - row["idle"] - row["iowait"])) > 0.03:
        problems.append("%s: busy %g is not 100 - idle - iowait" % (where, row["busy"]))

last_mono = None
for n, line in enumerate(open(sys.argv[1]), 1):
    if not line.endswith("\n"):
        problems.append("line %d: not newline-terminated" % n)
    try:
        o = json.loads(line, parse_constant=lambda c: problems.append("line %d: %s" % (n, c)))
    except ValueError as e:
        problems.append("line %d: not JSON: %s" % (n, e))
        continue
    want = ["type", "time", "mono", "interval", "cpus", "all", "sys", "note"]
    if sorted(o) != sorted(want):
        problems.append("line %d: keys %s, want %s" % (n, sorted(o), sorted(want)))
        continue
    if o["type"] != "sample":
        problems.append("line %d: type %r" % (n, o["type"]))
    if not re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$", o["time"] or ""):
        problems.append("line %d: time %r is not ISO-8601 UTC" % (n, o["time"]))
    if not o["interval"] > 0:
        problems.append("line %d: interval %r" % (n, o["interval"]))
    if last_mono is not None and not o["mono"] > last_mono:
        problems.append("line %d: mono did not advance" % n)
    last_mono = o["mono"]
    ids = [c.get("cpu") for c in o["cpus"]]
    if ids != online:
        problems.append("line %d: cpu ids %s, online %s" % (n, ids, online))
    for c in o["cpus"]:
        pct_row("line %d cpu %s" % (n, c.get("cpu")), c)
    pct_row("line %d all" % n, o["all"])
    # all is of the CPUs with data: one whose ticks did not move in a short interval on a
    # loaded VM (its vCPU descheduled) has a null busy and is left out
    with_data = len([c for c in o["cpus"] if c.get("busy") is not None])
    if o["all"].get("ncpu") != with_data or with_data == 0:
        problems.append("line %d: all.ncpu %r, CPUs with data %d" % (n, o["all"].get("ncpu"), with_data))
    for k in sys_keys:
        if k not in o["sys"]:
            problems.append("line %d: sys has no %s" % (n, k))
        elif o["sys"][k] is not None and not (isinstance(o["sys"][k], (int, float)) and o["sys"][k] >= 0):
            problems.append("line %d: sys.%s=%r" % (n, k, o["sys"][k]))
    for k in ("psi_some_pct", "psi_full_pct"):
        v = o["sys"].get(k)
        if v is not None and v > 100:
            problems.append("line %d: sys.%s=%r above 100" % (n, k, v))
    if not isinstance(o["sys"].get("ctxsw_s"), (int, float)):
        problems.append("line %d: no context switch rate" % n)
print("\n".join(problems))
EOF

"$PYTHON" "$T/check.py" "$T/json" "$T/online" >"$T/json.problems" 2>&1
is "$(cat "$T/json.problems")" "" "json: keys, ids, values in [0,100], sums and types all check"

# --- usage errors: exit 2, one line on stderr naming the value, nothing on stdout

bad_arg() {
	_want=$1
	shift
	"$SCALETOP" sample "$@" >"$T/bad.out" 2>"$T/bad.err"
	_st=$?
	is "$_st/$(wc -l <"$T/bad.err" | tr -d ' ')/$(wc -c <"$T/bad.out" | tr -d ' ')" "2/1/0" \
		"usage: '$*' exits 2 with one line on stderr and none on stdout"
	like "$(cat "$T/bad.err")" "$_want" "usage: '$*' names the value"
}
bad_arg "'0'" -i 0
bad_arg "'abc'" -i abc
bad_arg "'-1'" -i -1
bad_arg "'nan'" -i nan
bad_arg "'inf'" -i inf
bad_arg "'0'" -c 0
bad_arg "'x'" -c x
bad_arg "'-3'" -c -3
bad_arg "'--bogus'" --bogus
bad_arg "'-x'" -c 1 -x
bad_arg "'-i'" -i
bad_arg "'5'" -i 1 5
bad_arg "COUNT 'x'" 0.1 x
bad_arg "INTERVAL 'abc'" abc
bad_arg "'3'" 0.1 1 3
bad_arg "'3'" -c 2 0.1 3
bad_arg "-P '1-0': not a CPU list" -P 1-0
bad_arg "-P 'x'" -P x
bad_arg "-P ''" -P ''
bad_arg "-P '0,,1'" -P 0,,1
bad_arg "-P '1,0'" -P 1,0
bad_arg "-P '65000': there is no CPU 65000 here" -P 65000 -c 1

# --- mpstat's habits: INTERVAL [COUNT] and -P ----------------------------------

"$SCALETOP" sample 1 2 >"$T/pos" 2>"$T/pos.err"
is "$?" 0 "sample 1 2 exits 0"
is "$(awk '$1 != "Average:" && $2 == "CPU"' "$T/pos" | wc -l | tr -d ' ')" 2 \
	"sample 1 2 prints two reports, as mpstat 1 2"
is "$(grep -c '^Average: ' "$T/pos")" $((NCPU + 3)) "and the Average block (header, all, CPUs, sys)"
FIRST=$(head -n 1 "$T/online")
"$SCALETOP" sample -P "$FIRST" 0.1 2 >"$T/p0" 2>"$T/p0.err"
is "$?" 0 "-P $FIRST exits 0"
is "$(awk '$2 ~ /^[0-9]+$/ { print $2 }' "$T/p0" | sort -u | tr '\n' ' ')" "$FIRST " \
	"-P $FIRST: only CPU $FIRST's rows"
is "$(awk '$2 ~ /^[0-9]+$/' "$T/p0" | wc -l | tr -d ' ')" 3 "one in each report and the Average"
is "$(awk '$2 == "all"' "$T/p0" | wc -l | tr -d ' ')" 0 "and no all row, as mpstat -P shows"
is "$(awk '$2 == "sys"' "$T/p0" | wc -l | tr -d ' ')" 3 "the system line stays"
"$SCALETOP" sample -P "$FIRST" --json 0.1 1 >"$T/p0.json" 2>/dev/null
is "$(json_get "$T/p0.json" '[c["cpu"] for c in d["cpus"]]')" "[$FIRST]" "--json -P $FIRST: one CPU in cpus"
is "$(json_get "$T/p0.json" 'd["all"]["ncpu"]')" "$NCPU" "and all is still the whole machine"
"$SCALETOP" sample -P ALL 0.1 1 >"$T/pall" 2>&1
is "$(awk '$1 != "Average:" && ($2 == "all" || $2 ~ /^[0-9]+$/)' "$T/pall" | wc -l | tr -d ' ')" \
	$((NCPU + 1)) "-P ALL: the all row and every CPU"

"$SCALETOP" sample --help >"$T/help" 2>&1
is "$?" 0 "--help exits 0"
like "$(head -n 1 "$T/help")" '^usage: .*sample .*-i SECONDS.*-c COUNT.*--json' "--help shows usage"

# --- runtime error: /proc/stat unusable -----------------------------------------
# An empty file is bound over /proc/stat in a private mount namespace (as an
# unprivileged user where user namespaces are allowed, else as root).  The
# rest of /proc stays, which a sanitizer build's runtime needs.

noproc_how=
noproc_why=
: >"$T/empty"
for how in "--user --map-root-user --mount" "--mount"; do
	# shellcheck disable=SC2086 # $how is a list of options
	if unshare $how sh -c 'mount --bind "$1" /proc/stat' sh "$T/empty" 2>"$T/unshare.err"; then
		noproc_how=$how
		break
	fi
	noproc_why="$noproc_why unshare $how: $(tr '\n' ' ' <"$T/unshare.err")"
done
noproc() {
	# shellcheck disable=SC2086
	unshare $noproc_how sh -c 'mount --bind "$1" /proc/stat && shift && exec "$@"' \
		sh "$T/empty" "$@"
}
if [ "$(uname -s)" = Linux ] && [ -n "$noproc_how" ]; then
	for mode in text json; do
		flag=
		[ $mode = json ] && flag=--json
		noproc "$SCALETOP" sample -c 1 -i 0.1 $flag >"$T/noproc.out" 2>"$T/noproc.err"
		is "$?/$(wc -l <"$T/noproc.err" | tr -d ' ')/$(wc -c <"$T/noproc.out" | tr -d ' ')" \
			"1/1/0" "runtime ($mode): unusable /proc/stat exits 1, one line on stderr, no output"
		like "$(cat "$T/noproc.err")" '^scaletop sample: .*/proc/stat' \
			"runtime ($mode): the message names the file"
	done
else
	[ "$(uname -s)" = Linux ] || noproc_why=" not Linux"
	for mode in text json; do
		skip "cannot bind-mount over /proc/stat here (uid $(id -u)):$noproc_why" \
			"runtime ($mode): unusable /proc/stat exits 1, one line on stderr, no output"
		skip "cannot bind-mount over /proc/stat here:$noproc_why" \
			"runtime ($mode): the message names the file"
	done
fi

# --- stopping: ^C and SIGTERM after some output; whole lines only -------------

"$SCALETOP" sample -i 0.05 --json >"$T/int.json" 2>"$T/int.err" &
pid=$!
wait_for_lines "$T/int.json" 3 || diag "no output yet; stopping anyway"
signal_and_wait "$pid" INT
is "$?" 0 "^C: json run exits 0"
is "$(wc -c <"$T/int.err" | tr -d ' ')" 0 "^C: nothing on stderr"
"$PYTHON" "$T/check.py" "$T/int.json" "$T/online" >"$T/int.problems" 2>&1
is "$(cat "$T/int.problems")" "" "^C: every json line is whole and valid"
is "$(tail -c 1 "$T/int.json" | od -An -c | tr -d ' ')" '\n' "^C: output ends with a newline"

"$SCALETOP" sample -i 0.05 >"$T/term.txt" 2>"$T/term.err" &
pid=$!
wait_for_lines "$T/term.txt" 12 || diag "little output yet; stopping anyway"
signal_and_wait "$pid" TERM
is "$?" 0 "SIGTERM: text run exits 0"
# Each block ends with its sys line, so whole blocks have as many "all" as "sys" lines.
is "$(awk '$2 == "all"' "$T/term.txt" | wc -l | tr -d ' ')" \
	"$(awk '$2 == "sys"' "$T/term.txt" | wc -l | tr -d ' ')" "SIGTERM: only whole blocks"
like "$(tail -n 1 "$T/term.txt")" '^Average: +sys ' "SIGTERM: ends with the Average block"

# --- a reader that goes away: head -1 ------------------------------------------

{
	"$SCALETOP" sample -i 0.05 --json 2>"$T/pipe.err"
	echo $? >"$T/pipe.st"
} | head -n 1 >"$T/pipe.out"
is "$(cat "$T/pipe.st")" 0 "head -1: json run exits 0 when the pipe closes"
is "$(wc -c <"$T/pipe.err" | tr -d ' ')" 0 "head -1: quietly"
"$PYTHON" "$T/check.py" "$T/pipe.out" "$T/online" >"$T/pipe.problems" 2>&1
is "$(cat "$T/pipe.problems")" "" "head -1: the line it got is whole JSON"

{
	"$SCALETOP" sample -i 0.05 2>"$T/pipe2.err"
	echo $? >"$T/pipe2.st"
} | head -n 1 >/dev/null
is "$(cat "$T/pipe2.st")/$(wc -c <"$T/pipe2.err" | tr -d ' ')" "0/0" \
	"head -1: text run exits 0 quietly"

done_testing
