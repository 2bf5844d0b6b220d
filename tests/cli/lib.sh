# SPDX-License-Identifier: BSD-2-Clause
# TAP helpers for the shell tests that drive the real binary.  Sourced, not
# run: each test does `. "$top_srcdir/tests/cli/lib.sh"`, makes assertions,
# and ends with `done_testing`, which prints the plan (automake's TAP driver
# accepts it last) and sets the exit status.
#
# The harness exports top_srcdir and top_builddir; by hand, run from the build
# directory as  top_srcdir=/path/to/src top_builddir=. sh tests/cli/x.sh

: "${top_srcdir:=.}"
: "${top_builddir:=.}"
SCALETOP=${SCALETOP:-$top_builddir/scaletop}

tap_count=0
tap_failed=0

# tap_result STATUS NAME: one numbered result; STATUS 0 passes.
tap_result() {
	tap_count=$((tap_count + 1))
	if [ "$1" -eq 0 ]; then
		printf 'ok %d - %s\n' "$tap_count" "$2"
	else
		printf 'not ok %d - %s\n' "$tap_count" "$2"
		tap_failed=$((tap_failed + 1))
	fi
}

# diag TEXT...: a comment line, shown in the log.
diag() {
	printf '%s\n' "$*" | sed 's/^/# /'
}

# ok NAME COMMAND [ARG...]: passes when the command succeeds.  The command's
# output must not reach the TAP stream, so it goes to the log as comments
# when it fails.  ok_shown: the same, with the output in the log either way
# (the figures compared, the verdict).
ok() {
	ok_run failed "$@"
}

ok_shown() {
	ok_run always "$@"
}

# ok_run WHEN NAME COMMAND [ARG...]: ok and ok_shown; WHEN is failed or always.
ok_run() {
	_when=$1 _name=$2
	shift 2
	_out=$("$@" 2>&1)
	_st=$?
	tap_result "$_st" "$_name"
	if [ -n "$_out" ] && { [ "$_when" = always ] || [ "$_st" -ne 0 ]; }; then
		diag "$_out"
	fi
	return "$_st"
}

# is GOT WANT NAME: passes when the two strings are equal.
is() {
	if [ "$1" = "$2" ]; then
		tap_result 0 "$3"
		return 0
	fi
	tap_result 1 "$3"
	diag "got:  '$1'"
	diag "want: '$2'"
	return 1
}

# like TEXT PATTERN NAME: passes when TEXT matches the extended regex PATTERN.
like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		tap_result 0 "$3"
		return 0
	fi
	tap_result 1 "$3"
	diag "got:  '$1'"
	diag "want a match for /$2/"
	return 1
}

# skip REASON NAME: counts as a pass, with the reason shown.
skip() {
	tap_count=$((tap_count + 1))
	printf 'ok %d - %s # SKIP %s\n' "$tap_count" "$2" "$1"
}

# bail_out REASON: stops the whole test; the driver reports it as an error.
bail_out() {
	printf 'Bail out! %s\n' "$*"
	exit 1
}

# done_testing: the plan, then exit 1 when anything failed or nothing ran.
done_testing() {
	printf '1..%d\n' "$tap_count"
	[ "$tap_failed" -eq 0 ] && [ "$tap_count" -gt 0 ] && exit 0
	exit 1
}

# tap_tmpdir: makes $TAP_TMP, a private folder removed on every exit path.
# Once only: a second call would replace an EXIT trap set since (tmux.sh's,
# which kills the test's tmux server) and orphan the first folder.
tap_tmpdir() {
	[ -n "${TAP_TMP:-}" ] && [ -d "$TAP_TMP" ] && return 0
	TAP_TMP=$(mktemp -d "${TMPDIR:-/tmp}/scaletop-test.XXXXXX") ||
		bail_out "cannot make a temporary folder"
	trap 'rm -rf "$TAP_TMP"' EXIT
	trap 'exit 1' HUP INT TERM
}

# online_cpus: the ids of the online CPUs, one per line, from sysfs where it
# exists ("0-3,6,8-9"), else 0..n-1 from getconf or nproc.
online_cpus() {
	if [ -r /sys/devices/system/cpu/online ]; then
		tr ',' '\n' </sys/devices/system/cpu/online | awk -F- '
			NF == 1 && $1 != "" { print $1 }
			NF == 2 { for (i = $1; i <= $2; i++) print i }'
		return
	fi
	_n=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
	awk -v n="$_n" 'BEGIN { for (i = 0; i < n; i++) print i }'
}

# PYTHON: how the tests read JSON.  Debian's own python3 comes first, since
# the schema module the suite needs is Debian's (python3-jsonschema) and a
# python3 earlier on PATH (pyenv, a venv) may not have it.
if [ -z "${PYTHON:-}" ]; then
	if [ -x /usr/bin/python3 ]; then
		PYTHON=/usr/bin/python3
	else
		PYTHON=$(command -v python3 2>/dev/null) || PYTHON=python3
	fi
fi

# have_python: whether $PYTHON runs.
have_python() {
	command -v "$PYTHON" >/dev/null 2>&1
}

# json_get FILE EXPR: evaluates a Python expression over the parsed JSON as d.
json_get() {
	"$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# steps_ok JSON: succeeds when every step is ok; prints each step's N, status,
# CI and reason either way, so a failure says why.
steps_ok() {
	"$PYTHON" - "$1" <<'EOF'
import json, sys
steps = json.load(open(sys.argv[1]))["steps"]
for s in steps:
    iv = s.get("intervals") or {}
    ci = iv.get("ci95_ac") or iv.get("ci95") or 0
    mean = iv.get("mean") or 0
    print("N=%s %s, CI +-%.0f%% over %s intervals%s" % (
        s["n"], s["status"], 100 * ci / mean if mean else 0, iv.get("count"),
        ": " + s["reason"] if s.get("reason") else ""))
sys.exit(0 if steps and all(s["status"] == "ok" for s in steps) else 1)
EOF
}

# tries_steady TRIES JSON LABEL BETWEEN CMD...: runs CMD until JSON's steps
# are all ok, at most TRIES tries, each try's steps logged under LABEL with
# their CI and reason; BETWEEN (a function or :) is called with the try's
# number before the next one, to put the try's output aside.  On a busy
# machine a window of one try may stay wider than the mean whatever its
# length; the next try is another window.  A CMD that fails (not 0) is not
# tried again.  Returns the last try's status; STEADY_TRY is the tries taken.
tries_steady() {
	_ts_tries=$1 _ts_json=$2 _ts_label=$3 _ts_between=$4
	shift 4
	STEADY_TRY=0
	while :; do
		STEADY_TRY=$((STEADY_TRY + 1))
		"$@"
		_ts_st=$?
		_ts_steps=$(steps_ok "$_ts_json" 2>&1)
		_ts_ok=$?
		diag "$_ts_label, try $STEADY_TRY of $_ts_tries (status $_ts_st):" "$_ts_steps"
		if [ "$_ts_st" -ne 0 ] || [ "$_ts_ok" -eq 0 ] || [ "$STEADY_TRY" -ge "$_ts_tries" ]; then
			return "$_ts_st"
		fi
		"$_ts_between" "$STEADY_TRY"
	done
}

# run_steady TRIES OUT ARGS...: scaletop run ARGS --json >OUT (stderr to
# OUT.err), tried until every step is ok (tries_steady).  For a sweep that
# must be steady: a test that every step is ok.
run_steady() {
	_rs_tries=$1 _rs_out=$2
	shift 2
	tries_steady "$_rs_tries" "$_rs_out" "run $*" : _run_json "$_rs_out" "$@"
}

_run_json() {
	_rj_out=$1
	shift
	"$SCALETOP" run "$@" --json >"$_rj_out" 2>"$_rj_out.err"
}

# need COMMAND PACKAGE...: stops the test with a failure when a tool it relies
# on is missing, so that no check can pass for want of its tool.  Each
# COMMAND is paired with the Debian package that has it.
need() {
	while [ $# -ge 2 ]; do
		command -v "$1" >/dev/null 2>&1 ||
			bail_out "$1 is missing: install $2 (./bootstrap check does)"
		shift 2
	done
}

# others_left JSON COMM: each step's others and COMM's CPUs among them, then "left X": the
# most CPUs others than COMM used at an N up to the CPU count (half a CPU makes a busy
# machine), and the verdict.  A test of a server among the others tells by it whether
# someone else made the shared machine busy.
others_left() {
	"$PYTHON" - "$1" "$2" <<'EOF_LEFT'
import json, os, sys
d = json.load(open(sys.argv[1]))
ncpus = (d.get("host") or {}).get("ncpus") or os.cpu_count()
most = 0
for s in d["steps"]:
    o = s.get("others") or {}
    mine = sum(t.get("cpus", 0) for t in o.get("top", []) if t.get("comm") == sys.argv[2])
    print("N=%d %s%s: others %.2f CPUs, %s %.2f; top %s" % (s["n"], s["status"],
          " (" + s["reason"] + ")" if s.get("reason") else "", o.get("cpus", 0), sys.argv[2], mine,
          [(t.get("comm"), round(t.get("cpus", 0), 2)) for t in o.get("top", [])]))
    if s["n"] <= ncpus:
        most = max(most, o.get("cpus", 0) - mine)
print("left %.2f" % most)
print("verdict: %s" % d["analysis"]["verdict"])
EOF_LEFT
}

# own_procs [-c COMM] DIR [REGEX]: this test's processes, one "PID ARGS" a
# line: those whose environment has TMPDIR=DIR (export TMPDIR=DIR first: the
# binary, its workers and whatever they start inherit it, a daemon that left
# their process group and session included), or whose command line names DIR;
# REGEX (Python's re, searched) narrows them by command line, COMM by name.
# Never the caller itself or its parents.  Another suite's processes on the
# same machine have their own DIR, so they are never counted, as a pgrep -f
# or ps over the whole machine would.
own_procs() {
	have_python || bail_out "python3 is needed to find the test's own processes: install python3"
	"$PYTHON" - "$@" <<'EOF_OWN'
import os, re, sys
args = sys.argv[1:]
comm = None
if args[:1] == ["-c"]:
    comm, args = args[1], args[2:]
top, rx = args[0], re.compile(args[1] if len(args) > 1 else "")
if not top.startswith("/") or len(top) < 8:
    sys.exit("own_procs: '%s' is not a test's folder" % top)
mine, p = set(), os.getpid()
while p > 1:
    mine.add(p)
    try:
        p = int(open("/proc/%d/stat" % p).read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        break
want = b"TMPDIR=" + os.fsencode(top)
for pid in sorted(int(d) for d in os.listdir("/proc") if d.isdigit()):
    if pid in mine:
        continue
    try:
        argv = open("/proc/%d/cmdline" % pid, "rb").read().split(b"\0")
        env = open("/proc/%d/environ" % pid, "rb").read().split(b"\0")
        name = open("/proc/%d/comm" % pid).read().strip()
    except OSError:
        continue
    line = b" ".join(a for a in argv if a).decode("utf-8", "replace")
    if not line or (want not in env and top not in line):
        continue
    if (comm is None or name == comm) and rx.search(line):
        print(pid, line)
EOF_OWN
}

# no_own_procs DIR REGEX: succeeds when own_procs finds none; else lists them.
no_own_procs() {
	_left=$(own_procs "$@")
	[ -z "$_left" ] && return 0
	printf 'still running:\n%s\n' "$_left"
	return 1
}

# wait_for_lines FILE N: waits (at most about 10 s) until FILE has N lines.
# This only paces the test; nothing asserts on how long it took.
wait_for_lines() {
	_i=0
	while [ "$_i" -lt 200 ]; do
		if [ -f "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ]; then
			return 0
		fi
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}

# signal_and_wait PID SIGNAL: sends SIGNAL and waits for PID's exit status.  A
# process that ignores it is killed after about 10 s, so the test fails (status
# 137) instead of hanging; nothing asserts on how long it took.
signal_and_wait() {
	kill -s "$2" "$1"
	(
		_i=0
		while [ "$_i" -lt 100 ] && kill -0 "$1" 2>/dev/null; do
			sleep 0.1
			_i=$((_i + 1))
		done
		kill -s KILL "$1" 2>/dev/null
	) &
	_dog=$!
	wait "$1"
	_st=$?
	# SIGKILL: a subshell that has not yet reset the traps it inherited would
	# run ours on SIGTERM, and the EXIT trap removes the test's folder.
	kill -s KILL "$_dog" 2>/dev/null
	wait "$_dog" 2>/dev/null
	return "$_st"
}

# oncpu_denied: why this machine does not let a process sample every task on
# a CPU (a cpu-clock perf event for pid -1, as scaletop's on-CPU sampler
# opens), or nothing when it does.  Decided by trying perf_event_open(2)
# itself, never from scaletop's output: a test whose sampling is allowed
# fails on an empty result instead of skipping.
oncpu_denied() {
	"$PYTHON" - <<'PY'
import ctypes, errno, os, platform, struct
nr = {"x86_64": 298, "aarch64": 241, "i686": 336, "armv7l": 364}.get(platform.machine())
if os.uname().sysname != "Linux":
    print("no perf events: not Linux")
elif nr is None:
    print("perf_event_open's number on %s is not known to the probe" % platform.machine())
else:
    libc = ctypes.CDLL(None, use_errno=True)
    # perf_event_attr, its first 64 bytes: PERF_TYPE_SOFTWARE, cpu-clock, disabled
    attr = ctypes.create_string_buffer(struct.pack("IIQQQQQIIQ", 1, 64, 0, 10000000, 0, 0, 1, 0, 0, 0), 64)
    fd = libc.syscall(nr, attr, -1, 0, -1, 0)
    if fd < 0:
        e = ctypes.get_errno()
        print("perf_event_open of cpu-clock on CPU 0 for every task: %s (perf_event_paranoid %s, uid %d)" % (
            errno.errorcode.get(e, e), open("/proc/sys/kernel/perf_event_paranoid").read().strip()
            if os.path.exists("/proc/sys/kernel/perf_event_paranoid") else "absent", os.getuid()))
    else:
        os.close(fd)
PY
}
