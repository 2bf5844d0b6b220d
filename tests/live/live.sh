# SPDX-License-Identifier: BSD-2-Clause
# Helpers for the live tests, which run real servers and benchmark tools
# under scaletop.  Sourced after tests/cli/lib.sh, not run.
#
# Each live test keeps everything under its own $TAP_TMP: the server's data,
# socket and logs, and the working folder ($T/work) that scaletop and the tool
# run in.  That is how the tests find what they started: a process belongs to
# the test when its command line names the folder or its working directory is
# in it (PostgreSQL's and MariaDB's servers chdir to their data folder;
# postgres rewrites its children's command lines, but not their cwd).

# live_setup: absolute paths (the tests cd into their temp folder), python,
# pgrep/ps, and the wrapper that copies the tool's output.
live_setup() {
	have_python || bail_out "python3 is needed to read JSON: install python3"
	if ! command -v pgrep >/dev/null 2>&1 || ! command -v ps >/dev/null 2>&1; then
		bail_out "pgrep and ps are needed to check for leftover processes: install procps"
	fi
	[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
	SCALETOP=$(cd "$(dirname "$SCALETOP")" && pwd)/$(basename "$SCALETOP")
	LIVE_SRC=$(cd "$top_srcdir/tests/live" && pwd)
	TEE_TOOL=$LIVE_SRC/tee-tool.sh
	[ -r "$TEE_TOOL" ] || bail_out "no $TEE_TOOL"
	# Unix socket paths are limited to 107 bytes; ".s.PGSQL.NNNNN" and "sock" fit after this.
	[ "${#TAP_TMP}" -le 60 ] ||
		bail_out "temporary folder $TAP_TMP is too long for a Unix socket path: set TMPDIR=/tmp"
	T=$TAP_TMP
	mkdir "$T/work" || bail_out "cannot make $T/work"
	# The tools' own temporary files stay in the test's folder too.
	TMPDIR=$T
	export TMPDIR
}

# as_user USER COMMAND [ARG...]: runs the command as USER when the test runs
# as root (servers refuse root), else as the current user.
as_user() {
	_u=$1
	shift
	if [ "$(id -u)" -ne 0 ]; then
		"$@"
	elif command -v runuser >/dev/null 2>&1; then
		runuser -u "$_u" -- "$@"
	else
		setpriv --reuid="$_u" --regid="$_u" --init-groups -- "$@"
	fi
}

# live_server_user USER PACKAGE: as root, the server's account must exist and
# be able to reach $T; the folder is then given to it.
live_server_user() {
	[ "$(id -u)" -eq 0 ] || return 0
	command -v runuser >/dev/null 2>&1 || command -v setpriv >/dev/null 2>&1 ||
		bail_out "runuser or setpriv is needed to start the server as $1: install util-linux"
	id "$1" >/dev/null 2>&1 || bail_out "no user $1 to run the server as: install $2"
	chown "$1" "$T" || bail_out "cannot give $T to $1"
	as_user "$1" test -w "$T" ||
		bail_out "user $1 cannot write $T (a parent folder is closed to it): set TMPDIR=/tmp"
}

# live_procs DIR: the processes that belong to DIR, one "PID ARGS" a line:
# their command line names DIR, or their working directory is in it.
live_procs() {
	# An empty or short DIR would name every process on the machine.
	case "$1" in
	/*/scaletop-test.*) ;;
	*) bail_out "live_procs: '$1' is not a test's temporary folder" ;;
	esac
	ps -e -o pid=,args= | while read -r _pid _args; do
		[ "$_pid" = "$$" ] && continue
		case "$_args" in
		*"$1"*)
			printf '%s %s\n' "$_pid" "$_args"
			continue
			;;
		esac
		_cwd=$(readlink "/proc/$_pid/cwd" 2>/dev/null) || continue
		case "$_cwd/" in
		"$1"/*) printf '%s %s (cwd %s)\n' "$_pid" "$_args" "$_cwd" ;;
		esac
	done
}

# live_none DIR: succeeds when no process belongs to DIR; else lists them.
live_none() {
	_left=$(live_procs "$1")
	[ -z "$_left" ] && return 0
	printf 'still running:\n%s\n' "$_left"
	return 1
}

# live_wait_gone PID: waits (at most about 30 s) until PID has exited.
live_wait_gone() {
	_i=0
	while [ "$_i" -lt 300 ] && kill -0 "$1" 2>/dev/null; do
		sleep 0.1
		_i=$((_i + 1))
	done
	! kill -0 "$1" 2>/dev/null
}

# live_kill_pidfile FILE: kills the process whose pid is on FILE's first line
# (SIGTERM, then SIGKILL), and waits for it.
live_kill_pidfile() {
	[ -r "$1" ] || return 0
	_p=$(sed -n 1p "$1" 2>/dev/null)
	case "$_p" in '' | *[!0-9]*) return 0 ;; esac
	kill -0 "$_p" 2>/dev/null || return 0
	kill -TERM "$_p" 2>/dev/null
	_i=0
	while [ "$_i" -lt 100 ] && kill -0 "$_p" 2>/dev/null; do
		sleep 0.1
		_i=$((_i + 1))
	done
	kill -KILL "$_p" 2>/dev/null
	live_wait_gone "$_p"
}

# live_kill_rest DIR: the last resort of every cleanup, for whatever still
# belongs to DIR (pids found by live_procs, never by name): TERM, so scaletop
# can end its command's group, then KILL after about 3 s.
live_kill_rest() {
	_left=$(live_procs "$1" | while read -r _pid _rest; do echo "$_pid"; done)
	[ -n "$_left" ] || return 0
	for _pid in $_left; do kill -TERM "$_pid" 2>/dev/null; done
	_i=0
	while [ "$_i" -lt 30 ] && [ -n "$(live_procs "$1")" ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	live_procs "$1" | while read -r _pid _rest; do
		kill -KILL "$_pid" 2>/dev/null
	done
}

# live_wait_for SECONDS COMMAND [ARG...]: retries COMMAND every 0.2 s until it
# succeeds (0), gives up (status 2: what it waits for has died), or about
# SECONDS have passed.  This only paces the test.
live_wait_for() {
	_n=$(($1 * 5))
	shift
	_i=0
	while [ "$_i" -lt "$_n" ]; do
		"$@" >/dev/null 2>&1
		case $? in
		0) return 0 ;;
		2) return 1 ;;
		esac
		sleep 0.2
		_i=$((_i + 1))
	done
	return 1
}

# LIVE_BIG_N: the largest N of the --target sweeps, 4 a CPU (at least 8), so
# that the target's threads wait for a CPU at that N on any machine.
LIVE_BIG_N=$(($(online_cpus | wc -l) * 4))
[ "$LIVE_BIG_N" -ge 8 ] || LIVE_BIG_N=8

# live_sweep NAME CMD PARSE [scaletop run options]: scaletop run --json from
# $T/work, the command wrapped in tee-tool.sh so each step's output is kept as
# $T/work/NAME-N.out and .err.  The JSON goes to $T/NAME.json, scaletop's
# stderr to $T/NAME.log; returns scaletop's status.
live_sweep() {
	_name=$1
	_cmd=$2
	_parse=$3
	shift 3
	# In the background and waited for, so that a signal to the test runs
	# its trap at once rather than after the sweep.
	(cd "$T/work" && exec "$SCALETOP" run \
		--cmd "sh '$TEE_TOOL' '$T/work/$_name-{n}' $_cmd" --parse "$_parse" -q --json "$@") \
		>"$T/$_name.json" 2>"$T/$_name.log" </dev/null &
	wait "$!"
}

# live_sweep_steady NAME CMD PARSE [scaletop run options]: live_sweep, tried
# again (tries_steady, up to $LIVE_TRIES times, default 5) while a step comes
# out unstable: a tool's 1 s intervals over a few seconds beside other load on
# the machine can swing wider than their mean, and an external command's step
# cannot be measured on.  The tests' windows are 6 s (4 intervals leave the
# autocorrelation's effective size at its floor of 2, whose t is 12.7), but
# no length makes a step steady beside a load that comes and goes: with a
# CPU loop on 1-4 s and off 0-3 s and a load average of 15, 3 of 8 sysbench
# cpu sweeps of 4 s steps had an unstable step, 1 of 8 of 6 s steps, 2 of 3
# of 10 s steps.  The last try's JSON stays as $T/NAME.json, each earlier
# one as $T/NAME.tryK.json.
live_sweep_steady() {
	_lss_name=$1
	tries_steady "${LIVE_TRIES:-5}" "$T/$1.json" "$1" _live_try_aside live_sweep "$@"
}

# live_sweep_until CHECK WHY NAME CMD PARSE [options]: live_sweep, tried
# again, up to 3 times and each try logged with WHY and CHECK's last line,
# while `CHECK $T/NAME.json` fails.  The last try's status.
live_sweep_until() {
	_lsu_check=$1 _lsu_why=$2 _lsu_try=1
	shift 2
	while :; do
		live_sweep "$@"
		_lsu_st=$?
		"$_lsu_check" "$T/$1.json" >"$T/$1.check$_lsu_try" 2>&1 && return "$_lsu_st"
		diag "try $_lsu_try of the $1 sweep: $_lsu_why: $(tail -n 1 "$T/$1.check$_lsu_try")"
		[ "$_lsu_try" -lt 3 ] || return "$_lsu_st"
		_lsu_try=$((_lsu_try + 1))
		rm -f "$T/work/$1"-*.out "$T/work/$1"-*.err
	done
}

# live_sweep_moving NAME CMD PARSE [options]: a --target's sweep, tried again
# while the target's profile does not move (target_prop moves): another job's
# load at the small N raises its run delay too, and can leave the rise at the
# large N just short of 5 points.
_live_moves() { target_prop "$1" moves; }
live_sweep_moving() {
	live_sweep_until _live_moves "the target's profile did not move enough" "$@"
}

# _live_try_aside K: a try's own output must not mix with the next one's.
_live_try_aside() {
	cp "$T/$_lss_name.json" "$T/$_lss_name.try$1.json" 2>/dev/null
	rm -f "$T/work/$_lss_name"-*.out "$T/work/$_lss_name"-*.err
}

# sweep_checks STATUS NAME LABEL KIND UNIT: what every live sweep must show,
# of live_sweep_steady's last try: it exited 0 (STATUS), one step per N in
# order, every step ok (at one of the tries), UNIT as the unit, each step's
# throughput the mean of the tool's own lines in the window (tool_check KIND),
# and a verdict about the curve.  LABEL prefixes the test names.
sweep_checks() {
	_st=$1 _n=$2 _l=$3 _kind=$4 _unit=$5
	is "$_st" 0 "$_l: the sweep exits 0"
	[ "$_st" -eq 0 ] || diag "$(cat "$T/$_n.log")"
	is "$(json_get "$T/$_n.json" '[s["n"] for s in d["steps"]]')" "[1, 2]" "$_l: one step per N, in order"
	ok_shown "$_l: every step ok, within ${LIVE_TRIES:-5} tries of the sweep" steps_ok "$T/$_n.json"
	is "$(json_get "$T/$_n.json" 'd["workload"]["unit"]')" "$_unit" "$_l: the unit is $_unit"
	ok_shown "$_l: each step's throughput is the mean of the tool's own lines in the window" \
		tool_check "$_n" "$_kind" "$WARMUP" "$DURATION" "$T/$_n.json"
	ok_shown "$_l: the verdict is a sentence about the curve" verdict_check "$T/$_n.json"
}

# tool_check NAME KIND WARMUP DURATION JSON: compares every step of the sweep
# in JSON with what the tool printed in $T/work/NAME-N.{out,err}, on its
# own: the mean of the interval rates the tool stamped, over the intervals
# scaletop is meant to count (one whose middle, by the tool's stamps, lies
# between WARMUP and WARMUP + DURATION), each weighed by the seconds it
# covers.  KIND says which lines: pgbench (stderr "progress: T s, X tps"),
# sysbench-tps, sysbench-eps (stdout "[ Ts ] ... tps: X" / "eps: X"),
# sysbench-writes:BLOCK (fileio "writes: X MiB/s", as writes/s of BLOCK
# bytes).  Prints one line per step; exits 1 when a step is off by more than
# 0.5%, counted another number of intervals, or has nothing to compare.
tool_check() {
	"$PYTHON" - "$@" <<'EOF'
import json, os, re, sys

name, kind, warmup, duration, path = (sys.argv[1], sys.argv[2], float(sys.argv[3]),
                                      float(sys.argv[4]), sys.argv[5])
work = os.path.join(os.path.dirname(path), "work")
if kind == "pgbench":
    stream, rx = "err", re.compile(r"^progress: ([0-9.]+) s, ([0-9.]+) tps")
elif kind in ("sysbench-tps", "sysbench-eps"):
    word = kind.split("-")[1]
    stream, rx = "out", re.compile(r"^\[ ([0-9.]+)s \] .*\b" + word + r": ([0-9.]+)")
elif kind.startswith("sysbench-writes:"):
    block = float(kind.split(":")[1])
    stream, rx = "out", re.compile(r"^\[ ([0-9.]+)s \] reads: [0-9.]+ MiB/s writes: ([0-9.]+) MiB/s")
else:
    sys.exit("unknown kind " + kind)
steps = json.load(open(path))["steps"]
bad = 0
if not steps:
    print("no steps in the JSON")
    bad = 1
for s in steps:
    n = s["n"]
    rates, secs, prev = [], [], 0.0
    with open(os.path.join(work, "%s-%d.%s" % (name, n, stream))) as f:
        for line in f:
            m = rx.match(line)
            if not m:
                continue
            t, r = float(m.group(1)), float(m.group(2))
            mid = (prev + t) / 2
            if t > prev and warmup - 1e-9 <= mid <= warmup + duration + 1e-9:
                if kind.startswith("sysbench-writes:"):
                    r = r * 1048576.0 / block
                rates.append(r)
                secs.append(t - prev)
            prev = max(prev, t)
    if not rates:
        print("N=%d: the tool printed no interval after the warm-up" % n)
        bad = 1
        continue
    # Each rate weighs by the seconds its line covers, by the tool's own
    # stamps: the rate over the window.  With -P 1 or --report-interval=1
    # every line covers a second, and this is the plain mean; under a heavy
    # load a late pgbench report covers more.
    mean = sum(r * dt for r, dt in zip(rates, secs)) / sum(secs)
    plain = sum(rates) / len(rates)
    got = s["ops_s"]
    count = s["intervals"]["count"]
    off = got is None or abs(got - mean) > 0.005 * mean
    print("N=%d: tool %.6g/s over %d intervals (%g s, plain mean %.6g), scaletop %s over %s%s%s" % (
        n, mean, len(rates), sum(secs), plain, got, count, " OFF BY MORE THAN 0.5%" if off else "",
        " DIFFERENT COUNT" if count != len(rates) else ""))
    bad |= off or count != len(rates)
sys.exit(bad)
EOF
}

# verdict_check JSON: the verdict is a sentence about the curve: not empty,
# not an error, not about a single point, and it names what N counts (the
# JSON's workload.n_unit, "clients" or "threads", or its singular).
verdict_check() {
	_v=$(json_get "$1" 'd["analysis"]["verdict"]')
	_u=$(json_get "$1" 'd["workload"]["n_unit"]')
	printf 'verdict: %s\n' "$_v"
	printf 'n_unit: %s\n' "$_u"
	case "$_v" in
	'' | None | *rror* | *fail* | *"no usable"* | *"one point only"*) return 1 ;;
	esac
	case "$_u" in '' | None) return 1 ;; esac
	printf '%s\n' "$_v" | grep -Eq "(^|[^A-Za-z])${_u%s}s?([^A-Za-z]|\$)"
}

# target_prop FILE WHAT: one property of a --target sweep's JSON, with the
# figures it read printed for the log.  Every step that measured a window
# (ok, or unstable: the throughput's CI is about the tool's intervals, not
# about the target's sampling) is checked, and there must be one.  WHAT is
# threads (at every N >= 2 the target has more threads than N, and used some
# CPU), sums (each family's waits sum to 1 within 0.01 at every step), delay
# (the target's run delay is a finite number at every step) or moves (the
# target's wait profile at the largest N with a target profile differs from
# the smallest such N's by at least 10 points in all, and its CPU wait,
# runnable, is at least 5 points larger there: the sweep's largest N is
# LIVE_BIG_N, 4 clients a CPU, so that this stands out whatever else runs:
# 4.0% at N=1 and 43.8% at N=8 for PostgreSQL on 2 CPUs beside a CPU loop).
target_prop() {
	"$PYTHON" - "$1" "$2" <<'EOF_PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
what = sys.argv[2]
steps = [s for s in d["steps"] if s["status"] in ("ok", "unstable")]
for s in d["steps"]:
    if s not in steps:
        print("N=%d: %s%s, not checked" % (s["n"], s["status"], ": " + s["reason"] if s.get("reason") else ""))
def tg(s):
    return s.get("target") or {}
def fam(s, f):
    return {(w["state"], w.get("channel")): w["share"] for w in s.get("waits") or [] if w["family"] == f}
good = bool(steps)
for s in steps:
    t = tg(s)
    if what == "threads":
        print("N=%d (%s): %s processes, %s threads, %s CPUs" % (s["n"], s["status"], t.get("procs"), t.get("threads"), t.get("cpu_used")))
        if s["n"] >= 2 and not ((t.get("threads") or 0) > s["n"] and (t.get("cpu_used") or 0) > 0):
            good = False
    elif what == "sums":
        for f in sorted({w["family"] for w in s.get("waits") or []}):
            total = sum(fam(s, f).values())
            print("N=%d (%s) %s: shares sum to %.4f" % (s["n"], s["status"], f, total))
            good = good and abs(total - 1) <= 0.01
        good = good and "target" in {w["family"] for w in s.get("waits") or []}
    elif what == "delay":
        v = t.get("run_delay_pct")
        print("N=%d (%s): target run delay %s%%" % (s["n"], s["status"], v))
        good = good and isinstance(v, (int, float)) and math.isfinite(v)
if what == "moves":
    usable = sorted((s for s in steps if fam(s, "target")), key=lambda s: s["n"])
    if len(usable) < 2 or usable[0]["n"] == usable[-1]["n"]:
        print("fewer than two N have a target profile: %s" % [s["n"] for s in usable])
        sys.exit(1)
    lo, hi = usable[0], usable[-1]
    a, b = fam(lo, "target"), fam(hi, "target")
    moved = sum(abs(a.get(k, 0) - b.get(k, 0)) for k in set(a) | set(b))
    for s in (lo, hi):
        print("N=%d (%s): %s" % (s["n"], s["status"], ", ".join("%s %s %.1f%%" % (k[0], k[1] or "", 100 * v)
              for k, v in sorted(fam(s, "target").items(), key=lambda kv: -kv[1])[:5])))
    def runnable(p):
        return sum(v for k, v in p.items() if k[0] == "runnable")
    print("moved %.1f points in all; runnable %.1f%% at N=%d, %.1f%% at N=%d" % (
        100 * moved, 100 * runnable(a), lo["n"], 100 * runnable(b), hi["n"]))
    good = moved >= 0.10 and runnable(b) >= runnable(a) + 0.05
sys.exit(0 if good else 1)
EOF_PY
}

# target_checks NAME LABEL: the four properties of $T/NAME.json.
target_checks() {
	ok_shown "$2: at every N >= 2 the target has more threads than N, and used CPU" \
		target_prop "$T/$1.json" threads
	ok_shown "$2: every family's waits sum to 1 at every step" target_prop "$T/$1.json" sums
	ok_shown "$2: the target's run delay is finite at every step" target_prop "$T/$1.json" delay
	ok_shown "$2: the target's wait profile moves with N, its CPU wait up" target_prop "$T/$1.json" moves
}
