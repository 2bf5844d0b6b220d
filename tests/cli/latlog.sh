# SPDX-License-Identifier: BSD-2-Clause
# A command's own latency through the binary.  {latlog}: a fake pgbench
# writes a --log to the prefix it is given, in two files as with -j 2, with
# transactions stamped before, inside and after the step's window, and
# skipped and failed ones; the step's latency is exact, of the window's
# transactions alone, and the files and their folder are gone after it.
# --parse-lat: a latency group beside the rate; its usage errors.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP

# fakepg PREFIX: stamps relative to its own start; the window is 1 to 4 s after it.
cat >"$T/fakepg.sh" <<'SHEOF'
prefix=$1 keep=$2
echo "$prefix" >>"$keep"
now=$(date +%s.%N)
awk -v t0="$now" -v p="$prefix" 'function line(f, c, lat, off,   t, s, us) {
		t = t0 + off; s = int(t); us = int((t - s) * 1e6)
		printf "%d %d %s 0 %d %d\n", c, NR, lat, s, us >> f
	}
	BEGIN {
		a = p ".4242"; b = p ".4242.1"
		line(a, 0, 50000, 0.2)   # in the warm-up: out
		line(a, 0, 1000, 1.8)
		line(b, 1, 2000, 2.5)
		line(a, 0, "skipped", 2.6)
		line(b, 1, "failed", 2.7)
		line(b, 1, 3000, 3.0)
		line(a, 0, 60000, 5.5)   # past the window: out
	}'
i=0
while [ $i -lt 10 ]; do
	sleep 0.5
	echo "rate: 100"
	i=$((i + 1))
done
SHEOF

"$SCALETOP" run --cmd "sh $T/fakepg.sh {latlog} $T/prefixes" --parse-regex 'rate: ([0-9.]+)' \
	-n 1,2 -d 3 --warmup 1 --no-hot --no-locks -q -o "$T/r.json" >"$T/run.out" 2>&1
is "$?" 0 "a sweep whose command writes a pgbench log to {latlog}"
is "$(json_get "$T/r.json" '[(s["latency"]["method"], s["latency"]["span"], s["latency"]["count"]) for s in d["steps"]]')" \
	"[('exact', 'window', 3), ('exact', 'window', 3)]" \
	"each step: exact, over the window, its 3 transactions in it"
is "$(json_get "$T/r.json" '[(s["latency"]["max_ms"] < 10, s["latency"]["p50_ms"] >= 1) for s in d["steps"]]')" \
	"[(True, True), (True, True)]" \
	"the warm-up's 50 ms and the 60 ms past the window are left out; p50 is of 1-3 ms"
like "$(json_get "$T/r.json" '[e["text"] for e in d["events"] if "skipped" in e["text"]]')" \
	"1 skipped and 1 failed transactions" "skipped and failed transactions are counted apart"
is "$(wc -l <"$T/prefixes" | tr -d ' ')" 2 "one prefix a step"
left=
while read -r p; do
	for f in "$p"*; do [ -e "$f" ] && left="$left $f"; done
	[ -e "$(dirname "$p")" ] && left="$left $(dirname "$p")"
done <"$T/prefixes"
is "$left" "" "the log files and their folder are removed after each step"
like "$(head -1 "$T/prefixes")" '/scaletop-latlog\.[^/]+/log$' "{latlog} is a file prefix in a private folder"

# An aggregate log (--aggregate-interval=1): the means of the intervals in the window.
cat >"$T/fakeagg.sh" <<'SHEOF'
now=$(date +%s)
awk -v t0="$now" -v f="$1.99" 'BEGIN {
		# 1 ms means at 2 and 3 s, 40 ms elsewhere: the window (1 to 4 s, the start
		# within the second t0) takes one 40 ms interval at an edge, so 1 ms is the
		# median unless intervals outside it are taken too.
		for (i = 0; i < 7; i++)
			printf "%d 100 %d 0 500 %d 0 0 0 0 0 0 0 0 0\n", t0 + i,
				(i >= 2 && i <= 3) ? 100000 : 4000000, (i >= 2 && i <= 3) ? 3000 : 90000 >> f
	}'
i=0
while [ $i -lt 10 ]; do sleep 0.5; echo "rate: 100"; i=$((i + 1)); done
SHEOF
"$SCALETOP" run --cmd "sh $T/fakeagg.sh {latlog}" --parse-regex 'rate: ([0-9.]+)' \
	-n 1 -d 3 --warmup 1 --no-hot --no-locks -q -o "$T/a.json" >"$T/a.out" 2>&1
is "$?" 0 "a sweep whose command writes an aggregate log"
is "$(json_get "$T/a.json" '[(s["latency"]["method"], s["latency"]["pct"], s["latency"]["pct_ms"]) for s in d["steps"]]')" \
	"[('interval', 0, 1.0)]" "its step: the median of the window's intervals' means, 1 ms"

# A log with a bad line and no transaction in the window: a warning, the step keeps its rate.
cat >"$T/badlog.sh" <<'SHEOF'
printf '0 1 garbage 0 1 2\n' >"$1.77"
i=0
while [ $i -lt 6 ]; do sleep 0.5; echo "rate: 50"; i=$((i + 1)); done
SHEOF
"$SCALETOP" run --cmd "sh $T/badlog.sh {latlog}" --parse-regex 'rate: ([0-9.]+)' \
	-n 1 -d 1 --warmup 0.5 --no-hot --no-locks -q -o "$T/b.json" >"$T/b.out" 2>&1
is "$?" 0 "a bad log: the sweep still exits 0"
is "$(json_get "$T/b.json" '[(s["status"], s["ops_s"] > 0, "latency" in s) for s in d["steps"]]')" \
	"[('ok', True, False)]" "the step is ok with its throughput and no latency"
like "$(json_get "$T/b.json" '[e["text"] for e in d["events"]]')" \
	'log\.77: line 1 is no pgbench --log line' "an event names the file and the line"

# --parse-lat: the latency on the rate's line, in us, as a p99.
cat >"$T/latline.sh" <<'SHEOF'
i=0
while [ $i -lt 8 ]; do sleep 0.5; echo "rate: 200 p99: 2500"; i=$((i + 1)); done
SHEOF
"$SCALETOP" run --cmd "sh $T/latline.sh" --parse-regex 'rate: ([0-9.]+)' \
	--parse-lat 'p99: ([0-9.]+):us:p99' -n 1 -d 2 --warmup 0.5 --no-hot --no-locks -q \
	-o "$T/l.json" >"$T/l.out" 2>&1
is "$?" 0 "a sweep with --parse-lat"
is "$(json_get "$T/l.json" '[(s["latency"]["method"], s["latency"]["pct"], s["latency"]["pct_ms"]) for s in d["steps"]]')" \
	"[('interval', 99, 2.5)]" "its step: the intervals' p99, 2500 us as 2.5 ms"

# usage ARGS... : one line naming the problem, exit 2.
usage() {
	_want=$1
	shift
	"$SCALETOP" run "$@" >"$T/u.out" 2>&1
	is "$?" 2 "usage: $*"
	like "$(cat "$T/u.out")" "$_want" "usage: $* says so"
	is "$(wc -l <"$T/u.out" | tr -d ' ')" 1 "usage: $* in one line"
}
usage '--parse-lat goes with --parse-regex' --cmd 'sysbench cpu run' --parse sysbench \
	--parse-lat 'lat ([0-9.]+)'
usage "--parse-lat 'lat \\[0-9\\]:ms': has no group" --cmd 'x {n}' --parse-regex 'r ([0-9]+)' \
	--parse-lat 'lat [0-9]:ms'
usage "--parse-lat '\\(:ms': .*fix the POSIX extended regex" --cmd 'x {n}' \
	--parse-regex 'r ([0-9]+)' --parse-lat '(:ms'
usage "--parse-lat ':us:p99': the regex is empty" --cmd 'x {n}' --parse-regex 'r ([0-9]+)' \
	--parse-lat ':us:p99'
done_testing
