# SPDX-License-Identifier: BSD-2-Clause
# Live: a short pgbench sweep under scaletop against a private PostgreSQL
# cluster in the test's temporary folder (Unix socket there only, no TCP).
# scaletop's figures are checked against what pgbench itself printed, read
# from copies of its output that scaletop never sees.  The system's own
# cluster, port and /var/run/postgresql are never touched.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/live/live.sh"

# The newest server whose tools are all there, not the /usr/bin wrappers.
PGBIN=
for d in /usr/lib/postgresql/*/bin; do
	[ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ] && [ -x "$d/pgbench" ] &&
		PGBIN=$d
done
[ -n "$PGBIN" ] ||
	bail_out "no initdb, pg_ctl, postgres and pgbench in /usr/lib/postgresql/*/bin: install postgresql"
unset PGHOST PGHOSTADDR PGPORT PGUSER PGDATABASE PGSERVICE PGSERVICEFILE PGOPTIONS PGPASSFILE \
	PGSYSCONFDIR PGDATA

tap_tmpdir
T=$TAP_TMP
PG=$T/pg
DATA=$PG/data
SOCK=$PG/run
PORT=55439 # only names the socket file: there is no TCP
DB=scaletop_live
WARMUP=1
DURATION=6

# Every exit: stop the server (immediate), kill it by its pid file if that
# failed, kill whatever else still runs in the folder, remove the folder.
pg_cleanup() {
	trap '' HUP INT TERM
	if [ -f "$DATA/postmaster.pid" ]; then
		as_user postgres "$PGBIN/pg_ctl" -D "$DATA" -m immediate -w -t 30 stop >/dev/null 2>&1
		live_kill_pidfile "$DATA/postmaster.pid"
	fi
	live_kill_rest "$T"
	rm -rf "$T"
}
trap pg_cleanup EXIT
trap 'exit 1' HUP INT TERM

live_setup
live_server_user postgres postgresql
mkdir "$PG" "$SOCK" && { [ "$(id -u)" -ne 0 ] || chown -R postgres "$PG"; } ||
	bail_out "cannot make $PG"

# pg_fail WHAT LOG: the log in the TAP stream as comments, then bail out.
pg_fail() {
	[ -f "$2" ] && diag "$(tail -n 20 "$2")"
	bail_out "$1"
}

as_user postgres "$PGBIN/initdb" -D "$DATA" -U postgres -A trust --no-locale -E UTF8 --no-sync \
	>"$T/initdb.log" 2>&1 || pg_fail "initdb failed in $DATA" "$T/initdb.log"
cat >>"$DATA/postgresql.conf" <<EOF
# scaletop's live test: a private, throw-away cluster
listen_addresses = ''
unix_socket_directories = '$SOCK'
port = $PORT
cluster_name = 'scaletop-live'
max_connections = $((LIVE_BIG_N + 10))
shared_buffers = 16MB
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
as_user postgres "$PGBIN/pg_ctl" -D "$DATA" -l "$PG/server.log" -w -t 30 start \
	>"$T/pg_ctl.log" 2>&1 || pg_fail "the private PostgreSQL server did not start" "$PG/server.log"

is "$(sed -n 5p "$DATA/postmaster.pid")" "$SOCK" "the server's socket is in the test's folder"
is "$(sed -n 6p "$DATA/postmaster.pid")" "" "the server listens on no TCP address"

"$PGBIN/createdb" -h "$SOCK" -p "$PORT" -U postgres "$DB" >"$T/createdb.log" 2>&1 ||
	pg_fail "createdb $DB failed" "$T/createdb.log"
"$PGBIN/pgbench" -i -s 1 -q -h "$SOCK" -p "$PORT" -U postgres "$DB" >"$T/init.log" 2>&1 ||
	pg_fail "pgbench -i failed" "$T/init.log"

# -S: select only, the fastest; -n: no vacuum before each run.
live_sweep_steady pg "'$PGBIN/pgbench' -h '$SOCK' -p $PORT -U postgres -n -S -c {n} -j {n} -T {duration} -P 1 $DB" \
	pgbench -n 1,2 -d "$DURATION" --warmup "$WARMUP"
sweep_checks $? pg "pgbench" pgbench transactions
ok "no pgbench or wrapper left after the sweep" live_none "$T/work"

# The server's side: its backends (one per client) and their waits.
live_sweep_moving pgt "'$PGBIN/pgbench' -h '$SOCK' -p $PORT -U postgres -n -S -c {n} -j {n} -T {duration} -P 1 $DB" \
	pgbench -n "1,2,$LIVE_BIG_N" -d "$DURATION" --warmup "$WARMUP" --target comm:postgres
is "$?" 0 "pgbench --target comm:postgres: the sweep exits 0"
target_checks pgt "pgbench --target comm:postgres"
ok "no pgbench or wrapper left after the target sweep" live_none "$T/work"

# Latency from pgbench's own log: {latlog} is its --log-prefix.  The wrapper
# notes the wall-clock time it starts (the step's start, to a few ms) and
# keeps a copy of the log files, from which the test works out each step's
# p99 itself: every transaction that ended between warm-up and warm-up + -d.
# The wrapper's clock reading lags the step's start by its own start-up,
# which on a loaded machine moves the test's window against scaletop's by
# tens of ms: the sweep is tried again, up to 3 times, each try logged.
cat >"$T/pglog-wrap.sh" <<'SHEOF'
# pglog-wrap.sh DIR N PREFIX COMMAND...: COMMAND, its start time and a copy of PREFIX.*
dir=$1 n=$2 prefix=$3
shift 3
date +%s.%N >"$dir/go-$n"
"$@"
st=$?
mkdir -p "$dir/logs-$n" && cp "$prefix".* "$dir/logs-$n/"
exit $st
SHEOF
cat >"$T/pgl-check.py" <<'PYEOF'
import glob, json, math, sys
d = json.load(open(sys.argv[1]))
w, dur = d["settings"]["warmup_s"], d["settings"]["duration_s"]
bad = 0
for st in d["steps"]:
    n = st["n"]
    go = float(open("%s/go-%d" % (sys.argv[2], n)).read())
    lat = []
    for f in glob.glob("%s/logs-%d/*" % (sys.argv[2], n)):
        for line in open(f):
            x = line.split()
            if len(x) >= 6 and x[2].isdigit():
                end = int(x[4]) + int(x[5]) / 1e6
                if go + w <= end <= go + w + dur:
                    lat.append(int(x[2]) / 1000.0)
    lat.sort()
    mine = lat[math.ceil(0.99 * len(lat)) - 1] if lat else float("nan")
    l = st.get("latency") or {}
    got = l.get("p99_ms", float("nan"))
    off = abs(got / mine - 1) if lat and got == got else float("inf")
    print("N=%d: scaletop p99 %.3f ms over %s transactions (%s), the log's own %.3f ms over %d: %+.2f%%"
          % (n, got, l.get("count"), l.get("method"), mine, len(lat), 100 * (got / mine - 1) if lat else 0))
    if l.get("method") != "exact" or off > 0.02:
        bad += 1
sys.exit(1 if bad or not d["steps"] else 0)
PYEOF
# pgl_sweep: the sweep into $T/pgl.json, the wrapper's copies in $T/pgl; scaletop's status.
pgl_sweep() {
	rm -rf "$T/pgl" && mkdir "$T/pgl" || bail_out "cannot make $T/pgl"
	(cd "$T/work" && exec "$SCALETOP" run -n 1,2 -d "$DURATION" --warmup "$WARMUP" --parse pgbench \
		-q --json --cmd "sh '$T/pglog-wrap.sh' '$T/pgl' {n} {latlog} '$PGBIN/pgbench' -h '$SOCK' -p $PORT -U postgres -n -S -c {n} -j {n} -T {duration} -P 1 --log --log-prefix={latlog} $DB") \
		>"$T/pgl.json" 2>"$T/pgl.log" </dev/null &
	wait "$!"
}
try=1
while :; do
	pgl_sweep
	pgl_st=$?
	"$PYTHON" "$T/pgl-check.py" "$T/pgl.json" "$T/pgl" >"$T/pgl.check" 2>&1
	chk=$?
	# The server's backends are not the workload's, yet serve it: no busy machine, postgres
	# named serving; else tried again (others may have made a shared machine busy).
	pgl_verdict=$(json_get "$T/pgl.json" 'd["analysis"]["verdict"]' 2>&1)
	case $pgl_verdict in *"busy machine"*) pgl_busy=1 ;; *) pgl_busy=0 ;; esac
	others_left "$T/pgl.json" postgres >"$T/pgl.left" 2>&1
	pgl_left=$(sed -n 's/^left //p' "$T/pgl.left")
	case $pgl_verdict in *"postgres served"*) ;; *) pgl_busy=1 ;; esac
	[ "$pgl_st" -eq 0 ] && [ "$chk" -eq 0 ] && [ "$pgl_busy" -eq 0 ] && break
	diag "try $try of the {latlog} sweep: status $pgl_st, $(tr '\n' ';' <"$T/pgl.check")" \
		"$(cat "$T/pgl.left")"
	[ "$try" -lt 3 ] && [ "$pgl_st" -eq 0 ] || break
	try=$((try + 1))
done
is "$pgl_st" 0 "a pgbench sweep with --log --log-prefix={latlog}: exits 0"
[ -s "$T/pgl.log" ] && diag "$(cat "$T/pgl.log")"
is "$chk" 0 "every step's p99 is exact, within 2% of the one the log itself gives"
diag "$(cat "$T/pgl.check")"
if "$PYTHON" -c "import sys; sys.exit(0 if float('${pgl_left:-9}') < 0.5 else 1)"; then
	ok "the {latlog} sweep's verdict says no busy machine: the server served it" \
		sh -c "! printf '%s' \"\$1\" | grep -q 'busy machine'" - "$pgl_verdict"
else
	diag "others than postgres used ${pgl_left:-?} CPUs in every try: the machine was busy without it"
	ok "the {latlog} sweep's busy machine leaves postgres out" \
		sh -c "! printf '%s' \"\$1\" | grep -Eq 'busy machine[^;]*postgres'" - "$pgl_verdict"
fi
like "$pgl_verdict" 'postgres served the workload' "the {latlog} sweep's verdict names postgres serving"
diag "verdict: $pgl_verdict"
is "$(ls "$TMPDIR" | grep -c '^scaletop-latlog')" 0 "no {latlog} folder is left behind"

as_user postgres "$PGBIN/pg_ctl" -D "$DATA" -m fast -w -t 30 stop >"$T/stop.log" 2>&1
is "$?" 0 "the private server stops"
ok "nothing left running in the test's folder" live_none "$T"

done_testing
