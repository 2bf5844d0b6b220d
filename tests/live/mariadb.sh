# SPDX-License-Identifier: BSD-2-Clause
# Live: a short sysbench oltp_read_only sweep under scaletop against a
# private MariaDB server in the test's temporary folder (Unix socket there,
# no networking).  scaletop's figures are checked against what sysbench
# itself printed, read from copies of its output that scaletop never sees.
# The system's own server, port 3306 and /run/mysqld are never touched.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/live/live.sh"

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
sysbench --help 2>/dev/null | grep -q '^ *mysql - ' ||
	bail_out "this sysbench has no mysql driver: install Debian's sysbench"
unset MYSQL_HOST MYSQL_TCP_PORT MYSQL_UNIX_PORT MYSQL_PWD

tap_tmpdir
T=$TAP_TMP
DATA=$T/data
SOCK=$T/sock
PIDF=$T/mariadbd.pid
DB=sbtest
WARMUP=1
DURATION=6
server_pid=

# Every exit: kill the server by its pid file (or the pid it was started as)
# and wait, kill whatever else still runs in the folder, remove the folder.
mdb_cleanup() {
	trap '' HUP INT TERM
	live_kill_pidfile "$PIDF"
	if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
		kill -KILL "$server_pid" 2>/dev/null
		wait "$server_pid" 2>/dev/null
	fi
	live_kill_rest "$T"
	rm -rf "$T"
}
trap mdb_cleanup EXIT
trap 'exit 1' HUP INT TERM

live_setup
live_server_user mysql mariadb-server

# mdb_fail WHAT LOG: the log in the TAP stream as comments, then bail out.
mdb_fail() {
	[ -f "$2" ] && diag "$(tail -n 20 "$2")"
	bail_out "$1"
}

as_user mysql mariadb-install-db --no-defaults --datadir="$DATA" --auth-root-authentication-method=normal \
	--skip-test-db >"$T/install.log" 2>&1 || mdb_fail "mariadb-install-db failed in $DATA" "$T/install.log"
as_user mysql "$MARIADBD" --no-defaults --datadir="$DATA" --socket="$SOCK" --skip-networking \
	--pid-file="$PIDF" --log-error="$T/error.log" --skip-log-bin --innodb-buffer-pool-size=32M \
	--innodb-log-file-size=16M --innodb-flush-log-at-trx-commit=0 --max-connections=$((LIVE_BIG_N + 10)) >/dev/null 2>&1 &
server_pid=$!

# mdb_sql SQL: one statement as root over the private socket.
mdb_sql() {
	mariadb --no-defaults --socket="$SOCK" --user=root --connect-timeout=5 --batch \
		--skip-column-names -e "$1"
}

# mdb_up: the server still runs, and answers on its socket.
mdb_up() {
	kill -0 "$server_pid" 2>/dev/null || return 2
	[ -S "$SOCK" ] && mdb_sql 'SELECT 1' >/dev/null 2>&1 || return 1
}
live_wait_for 30 mdb_up || mdb_fail "the private MariaDB server did not start" "$T/error.log"

is "$(mdb_sql 'SELECT @@skip_networking, @@socket')" "$(printf '1\t%s' "$SOCK")" \
	"the server has no networking and its socket is in the test's folder"

mdb_sql "CREATE DATABASE $DB" || bail_out "cannot create database $DB"
SB="--db-driver=mysql --mysql-socket=$SOCK --mysql-user=root --mysql-db=$DB --tables=1 --table-size=1000"
(cd "$T/work" && sysbench oltp_read_only $SB prepare) >"$T/prepare.log" 2>&1 ||
	mdb_fail "sysbench oltp_read_only prepare failed" "$T/prepare.log"

live_sweep_steady oltp "sysbench oltp_read_only $SB --threads={n} --time={duration} --report-interval=1 run" \
	sysbench -n 1,2 -d "$DURATION" --warmup "$WARMUP"
sweep_checks $? oltp "sysbench oltp_read_only" sysbench-tps transactions
ok "no sysbench or wrapper left after the sweep" live_none "$T/work"

# The server's side: mariadbd's threads (one per connection, and its own) and their waits.
live_sweep_moving oltpt "sysbench oltp_read_only $SB --threads={n} --time={duration} --report-interval=1 run" \
	sysbench -n "1,2,$LIVE_BIG_N" -d "$DURATION" --warmup "$WARMUP" --target comm:mariadbd
is "$?" 0 "sysbench --target comm:mariadbd: the sweep exits 0"
target_checks oltpt "sysbench --target comm:mariadbd"
ok "no sysbench or wrapper left after the target sweep" live_none "$T/work"

# A clean shutdown: SIGTERM, and the server must be gone within about 30 s
# (else it is killed, and the status says so).
mpid=$(cat "$PIDF" 2>/dev/null)
kill -TERM "$mpid" 2>/dev/null
live_wait_gone "$mpid" || kill -KILL "$mpid" 2>/dev/null
wait "$server_pid"
is "$?" 0 "the private server shuts down on SIGTERM, status 0"
ok "nothing left running in the test's folder" live_none "$T"

done_testing
