#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What scaletop names as the why of a real server: a sysbench
# sweep to 32 clients against a private MariaDB, watched with --target
# comm:mariadbd, and for its largest N the server's hot paths and its
# locks, each with the name scaletop gives it, read from the sweep's --json
# output (with the functions' own shares, hot.self, and the user-space spin
# where the snapshot has them).  It judges nothing: it is there to read
# the names a user would read, and to quote them (a closing note does).
#
# The server is private: mariadb-install-db into a folder under /tmp,
# mariadbd as the mysql user on a Unix socket in that folder with
# skip-networking, stopped (TERM, then KILL) and the folder removed on
# every exit.  The system's own server, port 3306 and /run/mysqld are never
# touched.  sysbench runs as `--cmd` (so its clients are the workload) on 4
# tables of TABLE_SIZE rows (default 10000).
#
# Run by hand as root (the server runs as mysql; the census and the on-CPU
# sampling need root), never as a test.  SCALETOP=path measures another
# binary; KEEP=DIR keeps the JSON there as mariadb-why.json.
# usage: (from a build directory, or with top_builddir or SCALETOP)
#        top_builddir=BUILD [SCALETOP=BIN] sh bench/mariadb-why.sh [N-LIST]
#        env DURATION (default 5 s a step), TEST (default oltp_read_write)
: "${top_builddir:=.}"
ST=${SCALETOP:-$top_builddir/scaletop}
NS=${1:-1,2,4,8,16,32}
DURATION=${DURATION:-5}
TEST=${TEST:-oltp_read_write}
TABLE_SIZE=${TABLE_SIZE:-10000}
KEEP=${KEEP:-}

[ -x "$ST" ] || { echo "mariadb-why: no scaletop at $ST: build it or give SCALETOP=path" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "mariadb-why: run it as root (the server runs as mysql)" >&2; exit 2; }
MARIADBD=$(command -v mariadbd || command -v /usr/sbin/mariadbd) || {
	echo "mariadb-why: no mariadbd: apt-get install mariadb-server" >&2
	exit 2
}
for tool in mariadb-install-db mariadb sysbench python3 runuser; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "mariadb-why: no $tool: apt-get install mariadb-server sysbench python3" >&2
		exit 2
	}
done
id mysql >/dev/null 2>&1 || { echo "mariadb-why: no user mysql: apt-get install mariadb-server" >&2; exit 2; }
unset MYSQL_HOST MYSQL_TCP_PORT MYSQL_UNIX_PORT MYSQL_PWD

T=$(mktemp -d /tmp/scaletop-mdbwhy.XXXXXX) || exit 1
chown mysql "$T"
SOCK=$T/sock
PIDF=$T/mariadbd.pid
server=
run=
# Every exit: scaletop and the server stopped (TERM, then KILL after 30 s),
# the folder removed.
cleanup() {
	trap '' HUP INT TERM
	[ -n "$run" ] && kill "$run" 2>/dev/null
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
	--auth-root-authentication-method=normal --skip-test-db >"$T/install.log" 2>&1 || {
	tail "$T/install.log" >&2
	exit 1
}
runuser -u mysql -- "$MARIADBD" --no-defaults --datadir="$T/data" --socket="$SOCK" \
	--skip-networking --pid-file="$PIDF" --log-error="$T/error.log" --skip-log-bin \
	--innodb-buffer-pool-size=128M --innodb-log-file-size=64M --max-connections=100 \
	>/dev/null 2>&1 &
server=$!
i=0
until sql 'SELECT 1' >/dev/null 2>&1; do
	i=$((i + 1))
	if [ $i -gt 60 ] || ! kill -0 "$server" 2>/dev/null; then
		echo "mariadb-why: the private server did not start:" >&2
		tail "$T/error.log" >&2
		exit 1
	fi
	sleep 0.5
done
sql "CREATE DATABASE sbtest" || exit 1
SB="--db-driver=mysql --mysql-socket=$SOCK --mysql-user=root --mysql-db=sbtest --tables=4 --table-size=$TABLE_SIZE"
(cd "$T" && sysbench "$TEST" $SB prepare) >"$T/prepare.log" 2>&1 || {
	tail "$T/prepare.log" >&2
	exit 1
}

echo "== $ST"
echo "== $TEST -n $NS -d $DURATION, --target comm:mariadbd, load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
"$ST" run --cmd "sysbench $TEST $SB --threads={n} --time={duration} --report-interval=1 run" \
	--parse sysbench -n "$NS" -d "$DURATION" --target comm:mariadbd --json -q \
	>"$T/sweep.json" 2>"$T/run.err" &
run=$!
wait "$run"
rc=$?
run=
echo "== scaletop exit $rc, load $(cut -d' ' -f1-3 /proc/loadavg)"
[ -s "$T/run.err" ] && sed 's/^/  stderr: /' "$T/run.err"
if [ -n "$KEEP" ]; then
	mkdir -p "$KEEP" && cp "$T/sweep.json" "$KEEP/mariadb-why.json" &&
		echo "== JSON kept as $KEEP/mariadb-why.json"
fi
[ "$rc" = 0 ] || exit 1

python3 - "$T/sweep.json" <<'PY'
import json, sys

steps = json.load(open(sys.argv[1])).get("steps") or []
if not steps:
    sys.exit("mariadb-why: the sweep has no steps")
print("%4s %12s %8s" % ("N", "trans/s", "speedup"))
for s in steps:
    sp = s.get("speedup")
    print("%4d %12.1f %8s" % (s["n"], s.get("ops_s") or 0, "%.2f" % sp if sp is not None else "-"))
last = max(steps, key=lambda s: s["n"])
print("\n== N=%d: where the server's CPUs went (hot paths, family target)" % last["n"])
hot = last.get("hot")
if not hot:
    print("  no hot section (no perf_event sampling)")
else:
    fam = lambda d: (d or {}).get("target")
    print("  %s samples, spin share %s (user space %s)" % (fam(hot.get("samples")),
          fam(hot.get("spin_share")), fam(hot.get("user_spin_share"))))
    for r in [r for r in hot.get("self") or [] if r.get("family") == "target"][:8]:
        print("  self %5.1f%%  %s%s" % (100 * r["share"], r.get("function"),
              " (kernel)" if r.get("kernel") else ""))
    for p in [p for p in hot.get("paths") or [] if p.get("family") == "target"][:8]:
        print("  path %5.1f%%  %s" % (100 * p["share"], " < ".join(p["frames"])))
    for p in [p for p in hot.get("spin") or [] if p.get("family") == "target"][:5]:
        print("  spin %5.1f%%  %s, taken by %s%s" % (100 * p["share"], p["spin"], p.get("caller"),
              " (user space)" if p.get("user") else ""))
print("\n== N=%d: the locks the server's blocked threads waited on (census, family target)" % last["n"])
locks = last.get("locks")
if not locks:
    print("  no locks section (no census)")
else:
    print("  blocked thread-seconds %s" % locks.get("blocked_s"))
    for l in [l for l in locks.get("top") or [] if l.get("family") == "target"]:
        extra = {k: v for k, v in l.items() if k not in ("family", "pid", "comm", "name", "how",
                 "kind", "share", "max_waiters", "threads", "readings", "owner", "owner_state")}
        print("  %5.1f%%  %s  (%s, %s, %d waiting threads, at most %d at once, owner %s %s)%s" % (
            100 * l["share"], l["name"], l.get("how"), l.get("kind"), l.get("threads", 0),
            l.get("max_waiters", 0), l.get("owner"), l.get("owner_state") or "",
            " " + json.dumps(extra) if extra else ""))
PY
