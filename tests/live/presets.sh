# SPDX-License-Identifier: BSD-2-Clause
# Live: --probe's presets against private servers in the test's temporary
# folder (Unix sockets there only, no TCP), as tests/live/postgres.sh and
# mariadb.sh start them.  `--probe postgres:CONNINFO` beside a pgbench sweep
# with --target comm:postgres, and `--probe mariadb:OPTIONS` beside a
# sysbench OLTP sweep with --target comm:mariadbd and performance_schema ON:
# their lines carry TIDs, and the labels join the target's threads
# (steps[].probe_join).  With performance_schema OFF, or its consumer off,
# one event says how to turn it on; a server that cannot be reached is one
# event; the steps go on either way.  Only what holds on a busy machine is
# asserted: that lines came and joined, never a share or that a step is ok.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/live/live.sh"

PGBIN=
for d in /usr/lib/postgresql/*/bin; do
	[ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ] && [ -x "$d/pgbench" ] &&
		PGBIN=$d
done
[ -n "$PGBIN" ] ||
	bail_out "no initdb, pg_ctl, postgres and pgbench in /usr/lib/postgresql/*/bin: install postgresql"
command -v psql >/dev/null 2>&1 || bail_out "no psql in PATH: install postgresql-client"
MARIADBD=
for p in mariadbd /usr/sbin/mariadbd /usr/libexec/mariadbd; do
	if command -v "$p" >/dev/null 2>&1; then
		MARIADBD=$(command -v "$p")
		break
	fi
done
[ -n "$MARIADBD" ] || bail_out "no mariadbd: install mariadb-server"
command -v mariadb-install-db >/dev/null 2>&1 || bail_out "no mariadb-install-db: install mariadb-server"
command -v mariadb >/dev/null 2>&1 || bail_out "no mariadb client: install mariadb-client"
command -v sysbench >/dev/null 2>&1 || bail_out "no sysbench: install sysbench"
unset PGHOST PGHOSTADDR PGPORT PGUSER PGDATABASE PGSERVICE PGSERVICEFILE PGOPTIONS PGPASSFILE \
	PGSYSCONFDIR PGDATA MYSQL_HOST MYSQL_TCP_PORT MYSQL_UNIX_PORT MYSQL_PWD

tap_tmpdir
T=$TAP_TMP
PG=$T/pg
PGDATA_DIR=$PG/data
PGSOCK=$PG/run
PORT=55441 # only names the socket file: there is no TCP
DB=scaletop_live
MDATA=$T/mdb
MSOCK=$T/msock
MPIDF=$T/mariadbd.pid
WARMUP=1
DURATION=4
server_pid=

# Every exit: stop both servers, kill what is left in the folder, remove it.
presets_cleanup() {
	trap '' HUP INT TERM
	if [ -f "$PGDATA_DIR/postmaster.pid" ]; then
		as_user postgres "$PGBIN/pg_ctl" -D "$PGDATA_DIR" -m immediate -w -t 30 stop \
			>/dev/null 2>&1
		live_kill_pidfile "$PGDATA_DIR/postmaster.pid"
	fi
	live_kill_pidfile "$MPIDF"
	if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
		kill -KILL "$server_pid" 2>/dev/null
		wait "$server_pid" 2>/dev/null
	fi
	live_kill_rest "$T"
	rm -rf "$T"
}
trap presets_cleanup EXIT
trap 'exit 1' HUP INT TERM

live_setup
live_server_user postgres postgresql
chmod 755 "$T" || bail_out "cannot open $T to the servers' users"

# fail WHAT LOG: the log in the TAP stream as comments, then bail out.
fail() {
	[ -f "$2" ] && diag "$(tail -n 20 "$2")"
	bail_out "$1"
}

# join_prop JSON FAMILY-CHECK: what the probe's join shows, printed per step:
# lines  - some step's probe_join has joined lines and threads, and more
#          lines joined than not in the sweep (a thread born since the last
#          find of the target's processes may not join);
# labels - where lines joined, the probe family has lines, summing to 1,
#          whose labels match the regex in $3.
join_prop() {
	"$PYTHON" - "$@" <<'EOF_PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
what = sys.argv[2]
good = False
joined = unjoined = 0
for s in d["steps"]:
    j = s.get("probe_join")
    probe = [w for w in s.get("waits") or [] if w["family"] == "probe"]
    print("N=%d %s: probe_join %s; probe waits %s" % (s["n"], s["status"], j,
          ", ".join("%s %.1f%%" % (w["channel"], 100 * w["share"]) for w in probe[:5])))
    if not j:
        continue
    joined += j["joined"]
    unjoined += j["unjoined"]
    if what == "lines":
        good = good or (j["joined"] > 0 and j["threads"] > 0 and j["thread_s"] > 0)
    elif what == "labels" and j["joined"] > 0:
        rx = re.compile(sys.argv[3])
        total = sum(w["share"] for w in probe)
        bad = [w["channel"] for w in probe if w["channel"] != "(rest)" and not rx.match(w["channel"] or "")]
        print("  shares sum to %.4f; labels not matching: %s" % (total, bad))
        good = bool(probe) and abs(total - 1) < 0.01 and not bad
        if not good:
            break
if what == "lines":
    print("lines joined %d, unjoined %d" % (joined, unjoined))
    good = good and joined > unjoined
sys.exit(0 if good else 1)
EOF_PY
}

# events JSON TEXT: how many of the run's warning events contain TEXT, and they are printed.
events() {
	json_get "$1" "sum('$2' in e['text'] for e in d['events'] if e['kind'] == 'warning')"
}
# preset_faults JSON: how many --probe events speak of a fault in the preset
# itself.  A run that ran over its time, a first run unfinished at the
# window's end, or a line from a backend born since the last find of the
# target are what a busy machine does, and are only logged (show_events).
preset_faults() {
	json_get "$1" "sum('--probe' in e['text'] and not any(x in e['text'] for x in
		('ran over', 'had not finished its first run', 'unjoined'))
		for e in d['events'] if e['kind'] == 'warning')"
}
show_events() {
	json_get "$1" "'\n'.join(e['text'] for e in d['events'] if e['kind'] == 'warning')" |
		while IFS= read -r l; do [ -z "$l" ] || diag "event: $l"; done
}

# joined_sweep NAME CMD PARSE [options]: live_sweep_until some line joined
# (a busy machine may leave a short sweep's few probe runs with no thread
# caught mid-query).
_joined() { join_prop "$1" lines; }
joined_sweep() {
	live_sweep_until _joined "no probe line joined yet" "$@"
}

# probe_only NAME PROBE: a two-step cpu sweep (2 s each) with only that probe, JSON in $T/NAME.json.
probe_only() {
	(cd "$T/work" && exec "$SCALETOP" run -w cpu -n 1,2 -d 2 --warmup 0.5 -q --json \
		--probe "$2") >"$T/$1.json" 2>"$T/$1.log" </dev/null &
	wait "$!"
}

# --- PostgreSQL -----------------------------------------------------------
mkdir "$PG" "$PGSOCK" && { [ "$(id -u)" -ne 0 ] || chown -R postgres "$PG"; } ||
	bail_out "cannot make $PG"
as_user postgres "$PGBIN/initdb" -D "$PGDATA_DIR" -U postgres -A trust --no-locale -E UTF8 \
	--no-sync >"$T/initdb.log" 2>&1 || fail "initdb failed in $PGDATA_DIR" "$T/initdb.log"
cat >>"$PGDATA_DIR/postgresql.conf" <<EOF
# scaletop's live test: a private, throw-away cluster
listen_addresses = ''
unix_socket_directories = '$PGSOCK'
port = $PORT
cluster_name = 'scaletop-presets'
max_connections = 20
shared_buffers = 16MB
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
as_user postgres "$PGBIN/pg_ctl" -D "$PGDATA_DIR" -l "$PG/server.log" -w -t 30 start \
	>"$T/pg_ctl.log" 2>&1 || fail "the private PostgreSQL server did not start" "$PG/server.log"
is "$(sed -n 6p "$PGDATA_DIR/postmaster.pid")" "" "postgres: the server listens on no TCP address"
"$PGBIN/createdb" -h "$PGSOCK" -p "$PORT" -U postgres "$DB" >"$T/createdb.log" 2>&1 ||
	fail "createdb $DB failed" "$T/createdb.log"
"$PGBIN/pgbench" -i -s 1 -q -h "$PGSOCK" -p "$PORT" -U postgres "$DB" >"$T/init.log" 2>&1 ||
	fail "pgbench -i failed" "$T/init.log"

# TPC-B-like updates at scale 1: the clients collide on the branches' rows,
# so their backends are active and wait (Lock:transactionid, LWLock:...).
CONNINFO="host=$PGSOCK port=$PORT user=postgres dbname=$DB"
joined_sweep pgp "'$PGBIN/pgbench' -h '$PGSOCK' -p $PORT -U postgres -n -c {n} -j {n} -T {duration} -P 1 $DB" \
	pgbench -n 2,4 -d "$DURATION" --warmup "$WARMUP" --target comm:postgres \
	--probe "postgres:$CONNINFO"
is "$?" 0 "postgres: pgbench with --probe postgres:CONNINFO exits 0"
show_events "$T/pgp.json"
is "$(preset_faults "$T/pgp.json")" 0 "postgres: no event says the preset's probe is at fault"
ok_shown "postgres: its lines carry TIDs that join the target's backends" \
	join_prop "$T/pgp.json" lines
ok_shown "postgres: where they join, the probe family's labels are wait events or CPU" \
	join_prop "$T/pgp.json" labels '^([A-Za-z]+:[A-Za-z0-9_]+|CPU)$'

probe_only pgdown "postgres:host=$T/nowhere port=$PORT user=postgres dbname=$DB"
is "$?" 0 "postgres: a server that cannot be reached: the sweep exits 0"
show_events "$T/pgdown.json"
is "$(json_get "$T/pgdown.json" '[s["status"] != "failed" for s in d["steps"]]')" "[True, True]" \
	"postgres: no step fails for it"
is "$(events "$T/pgdown.json" 'N=1: --probe postgres exited with status')" 1 \
	"postgres: one event at N=1 says the probe failed"
like "$(json_get "$T/pgdown.json" '[e["text"] for e in d["events"] if "--probe" in e["text"]][0]')" \
	"psql: error: .*$T/nowhere" "postgres: ... with psql's own reason, naming the socket"

as_user postgres "$PGBIN/pg_ctl" -D "$PGDATA_DIR" -m fast -w -t 30 stop >"$T/stop.log" 2>&1
is "$?" 0 "postgres: the private server stops"

# --- MariaDB ----------------------------------------------------------------
live_server_user mysql mariadb-server
chmod 755 "$T" || bail_out "cannot open $T to the servers' users"
as_user mysql mariadb-install-db --no-defaults --datadir="$MDATA" \
	--auth-root-authentication-method=normal --skip-test-db >"$T/install.log" 2>&1 ||
	fail "mariadb-install-db failed in $MDATA" "$T/install.log"

# mdb_start [OPTIONS]: the private server, with its socket in the folder and no networking.
mdb_start() {
	as_user mysql "$MARIADBD" --no-defaults --datadir="$MDATA" --socket="$MSOCK" \
		--skip-networking --pid-file="$MPIDF" --log-error="$T/error.log" --skip-log-bin \
		--innodb-buffer-pool-size=32M --innodb-log-file-size=16M \
		--innodb-flush-log-at-trx-commit=0 "$@" >/dev/null 2>&1 &
	server_pid=$!
	live_wait_for 30 mdb_up || fail "the private MariaDB server did not start" "$T/error.log"
}
# mdb_stop: SIGTERM, and it must be gone within about 30 s; the server's status.
mdb_stop() {
	_p=$(cat "$MPIDF" 2>/dev/null)
	kill -TERM "$_p" 2>/dev/null
	live_wait_gone "$_p" || kill -KILL "$_p" 2>/dev/null
	wait "$server_pid"
}
mdb_sql() {
	mariadb --no-defaults --socket="$MSOCK" --user=root --connect-timeout=5 --batch \
		--skip-column-names -e "$1"
}
mdb_up() {
	kill -0 "$server_pid" 2>/dev/null || return 2
	[ -S "$MSOCK" ] && mdb_sql 'SELECT 1' >/dev/null 2>&1 || return 1
}
MOPTS="mariadb:--no-defaults --socket=$MSOCK --user=root"

# performance_schema OFF, as MariaDB ships: one event says how to turn it on.
mdb_start --performance-schema=OFF
is "$(mdb_sql 'SELECT @@skip_networking, @@performance_schema')" "$(printf '1\t0')" \
	"mariadb: no networking, performance_schema OFF"
probe_only mdboff "$MOPTS"
is "$?" 0 "mariadb: --probe mariadb with performance_schema OFF: the sweep exits 0"
show_events "$T/mdboff.json"
is "$(events "$T/mdboff.json" 'found performance_schema OFF')" 2 \
	"mariadb: one event per step says performance_schema is OFF"
like "$(json_get "$T/mdboff.json" '[e["text"] for e in d["events"] if "OFF" in e["text"]][0]')" \
	"--performance-schema=ON.*performance_schema=ON.*events-waits-current=ON.*wait/synch/%=ON" \
	"mariadb: ... and how to turn it, its consumer and its instruments on"
is "$(events "$T/mdboff.json" 'printed no wait label')" 0 "mariadb: and nothing more about it"
mdb_stop

# ON, with what the preset reads: the events_waits_current consumer, the wait/synch instruments.
mdb_start --performance-schema=ON --performance-schema-consumer-events-waits-current=ON \
	"--performance-schema-instrument=wait/synch/%=ON"
mdb_sql "CREATE DATABASE sbtest" || bail_out "cannot create database sbtest"
SB="--db-driver=mysql --mysql-socket=$MSOCK --mysql-user=root --mysql-db=sbtest --tables=1 --table-size=1000"
(cd "$T/work" && sysbench oltp_read_write $SB prepare) >"$T/prepare.log" 2>&1 ||
	fail "sysbench oltp_read_write prepare failed" "$T/prepare.log"
joined_sweep mdbp "sysbench oltp_read_write $SB --threads={n} --time={duration} --report-interval=1 run" \
	sysbench -n 2,4 -d "$DURATION" --warmup "$WARMUP" --target comm:mariadbd --probe "$MOPTS"
is "$?" 0 "mariadb: sysbench with --probe mariadb:OPTIONS exits 0"
show_events "$T/mdbp.json"
is "$(preset_faults "$T/mdbp.json")" 0 "mariadb: no event says the preset's probe is at fault"
ok_shown "mariadb: its lines carry THREAD_OS_IDs that join mariadbd's threads" \
	join_prop "$T/mdbp.json" lines
ok_shown "mariadb: where they join, the probe family's labels are wait events or CPU" \
	join_prop "$T/mdbp.json" labels '^(wait/[a-z]+/.+|idle|CPU)$'

# The consumer turned off at run time: the event names it.
mdb_sql "UPDATE performance_schema.setup_consumers SET ENABLED = 'NO' WHERE NAME = 'events_waits_current'" ||
	bail_out "cannot turn the consumer off"
probe_only mdbcons "$MOPTS"
show_events "$T/mdbcons.json"
is "$(events "$T/mdbcons.json" 'found the events_waits_current consumer off')" 2 \
	"mariadb: with its consumer off, one event per step says how to turn it on"
mdb_stop
is "$?" 0 "mariadb: the private server shuts down on SIGTERM, status 0"

ok "nothing left running in the test's folder" live_none "$T"
done_testing
