#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A real MariaDB sweep to 32 clients, as the seed study ran it (issue 24's
# acceptance): sysbench OLTP against a private mariadbd in a folder of its
# own (Unix socket there, no networking, performance_schema ON with the wait
# instruments the mariadb probe preset reads), watched with --target
# comm:mariadbd and --probe mariadb.  It prints, for the largest N, what
# scaletop names: the server's locks (the futex census), its hottest on-CPU
# paths and lock spin, the probe's wait labels joined to the server's
# threads, and the verdict.  Run by hand as root (the server runs as mysql;
# the census and the on-CPU sampling need root), never as a test.
# Usage: bench/mariadb-sweep.sh [N-LIST] (default 1,2,4,8,16,32); DURATION
# (default 8 s a step), TEST (default oltp_read_write), KEEP=DIR keeps the
# snapshot there.
: "${top_builddir:=.}"
ST=$(cd "$top_builddir" && pwd)/scaletop
NS=${1:-1,2,4,8,16,32}
DURATION=${DURATION:-8}
TEST=${TEST:-oltp_read_write}
[ -x "$ST" ] || { echo "no scaletop at $ST: build it first"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "run it as root: the server runs as mysql, the census needs root"; exit 1; }
MARIADBD=$(command -v mariadbd || command -v /usr/sbin/mariadbd) ||
	{ echo "no mariadbd: apt-get install mariadb-server"; exit 1; }
command -v sysbench >/dev/null || { echo "no sysbench: apt-get install sysbench"; exit 1; }
command -v mariadb-install-db >/dev/null || { echo "no mariadb-install-db: apt-get install mariadb-server"; exit 1; }
id mysql >/dev/null 2>&1 || { echo "no user mysql: apt-get install mariadb-server"; exit 1; }
unset MYSQL_HOST MYSQL_TCP_PORT MYSQL_UNIX_PORT MYSQL_PWD

T=$(mktemp -d /tmp/scaletop-mdb.XXXXXX) || exit 1
chown mysql "$T"
SOCK=$T/sock
PIDF=$T/mariadbd.pid
server=
# Every exit: the server stopped (TERM, then KILL), the folder removed.
cleanup() {
	trap '' HUP INT TERM
	p=$(cat "$PIDF" 2>/dev/null)
	[ -n "$p" ] && kill -TERM "$p" 2>/dev/null
	i=0
	while [ -n "$p" ] && kill -0 "$p" 2>/dev/null && [ $i -lt 60 ]; do
		sleep 0.5
		i=$((i + 1))
	done
	[ -n "$server" ] && kill -KILL "$server" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
sql() {
	mariadb --no-defaults --socket="$SOCK" --user=root --connect-timeout=5 --batch \
		--skip-column-names -e "$1"
}

runuser -u mysql -- mariadb-install-db --no-defaults --datadir="$T/data" \
	--auth-root-authentication-method=normal --skip-test-db >"$T/install.log" 2>&1 ||
	{ tail "$T/install.log"; exit 1; }
runuser -u mysql -- "$MARIADBD" --no-defaults --datadir="$T/data" --socket="$SOCK" \
	--skip-networking --pid-file="$PIDF" --log-error="$T/error.log" --skip-log-bin \
	--innodb-buffer-pool-size=128M --innodb-log-file-size=64M --max-connections=100 \
	--performance-schema=ON --performance-schema-consumer-events-waits-current=ON \
	"--performance-schema-instrument=wait/synch/%=ON" >/dev/null 2>&1 &
server=$!
i=0
until sql 'SELECT 1' >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -gt 60 ] && { tail "$T/error.log"; exit 1; }
	sleep 0.5
done
sql "CREATE DATABASE sbtest" || exit 1
SB="--db-driver=mysql --mysql-socket=$SOCK --mysql-user=root --mysql-db=sbtest --tables=4 --table-size=10000"
(cd "$T" && sysbench "$TEST" $SB prepare) >"$T/prepare.log" 2>&1 || { tail "$T/prepare.log"; exit 1; }

echo "== $TEST -n $NS -d $DURATION, load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
"$ST" run --cmd "sysbench $TEST $SB --threads={n} --time={duration} --report-interval=1 run" \
	--parse sysbench -n "$NS" -d "$DURATION" --warmup 2 --target comm:mariadbd \
	--probe "mariadb:--no-defaults --socket=$SOCK --user=root" -o "$T/sweep.json" >"$T/run.txt" 2>&1
rc=$?
cat "$T/run.txt"
echo "== exit $rc"
if [ -n "$KEEP" ]; then
	mkdir -p "$KEEP" && cp "$T/sweep.json" "$KEEP/mariadb-sweep.json" &&
		echo "snapshot kept as $KEEP/mariadb-sweep.json"
fi
[ "$rc" = 0 ]
