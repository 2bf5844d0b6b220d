#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What --until-stable saves, and what it costs in accuracy.
#
# Target: on the cpu and mutex workloads, N = 1..8 with `--until-stable 2`
# (stop a step once the 95% CI of its interval samples, widened for
# autocorrelation, is within 2% of the mean; never before --min-time 2 s,
# never after the same 10 s the fixed steps measure) takes under half the
# wall time of fixed 10-second steps, and the two curves agree.
#
# Agreement is judged against the fixed method's own reproducibility.  This
# VM's speed wanders by up to 10% over seconds to minutes (sysbench cpu shows
# it too), so two whole sweeps minutes apart differ by that much whatever
# stops their steps.  The methods therefore take turns N by N: for each N a
# fixed step, the until-stable step, another fixed step (F1 S F2), each a
# `scaletop run -n N` of its own, so the compared figures are seconds apart.
# At every N the until-stable figure must lie within AGREE_PCT (5%) of the
# fixed mean or, where F1 and F2 disagree with each other by more, within
# that disagreement: no method can agree with a reference better than the
# reference agrees with itself.  Which bound applied is printed per N.
#
# Each run is timed from outside (wall clock of the whole scaletop run,
# start-up and warm-up included); the time ratio is the until-stable runs'
# sum over the mean of the two fixed sums.  Per N it prints ops/s, the CI in
# % of the mean, the measured window, the step's status (unstable = the cap
# was reached before the CI was tight enough), the workers' run delay (% of
# wall time spent runnable but not running: other load, or N > CPUs), and
# the differences.
#
# usage: make bench-stable   or   top_builddir=BUILD sh bench/until-stable.sh
#        env: WORKLOADS (default "cpu mutex"), FIXED (seconds, default 10),
#        STABLE_PCT (default 2), NLIST (default "1 2 3 4 5 6 7 8"), AGREE_PCT
#        (default 5),
#        CAP (the until-stable cap in seconds, default FIXED)
: "${top_builddir:=.}"
bin=$top_builddir/scaletop
workloads=${WORKLOADS:-cpu mutex}
fixed=${FIXED:-10}
pct=${STABLE_PCT:-2}
nlist=${NLIST:-1 2 3 4 5 6 7 8}
agree=${AGREE_PCT:-5}
cap=${CAP:-$fixed}

if ! command -v python3 >/dev/null 2>&1; then
	echo "until-stable: python3 not found: install it (apt-get install python3)" >&2
	exit 2
fi
if [ ! -x "$bin" ]; then
	echo "until-stable: no binary at $bin: run 'make scaletop' in the build directory" >&2
	exit 2
fi

# timed OUT COMMAND...: runs COMMAND with stdout to OUT and writes its wall
# time (CLOCK_MONOTONIC seconds) to OUT.wall; signals are passed on.
timed_py='
import os, signal, sys, time
out, argv = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    try:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd, 1)
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
for s in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM):
    signal.signal(s, lambda sig, frame: os.kill(pid, sig))
_, status = os.waitpid(pid, 0)
with open(out + ".wall", "w") as f:
    f.write("%.3f\n" % (time.monotonic() - t0))
sys.exit(os.waitstatus_to_exitcode(status) & 255)
'

tmp=$(mktemp -d "${TMPDIR:-/tmp}/scaletop-stable.XXXXXX") || exit 1
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null && wait "$child" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# step NAME WORKLOAD N ARGS...: one timed single-step run into $tmp/NAME.
step() {
	name=$1 wl=$2 n=$3
	shift 3
	echo "until-stable: $wl -n $n $*" >&2
	python3 -c "$timed_py" "$tmp/$name" "$bin" run -q -w "$wl" -n "$n" --json "$@" \
		2>"$tmp/$name.err" &
	child=$!
	wait "$child"
	rc=$?
	child=
	if [ "$rc" -ne 0 ]; then
		echo "until-stable: scaletop run -w $wl $* failed (exit $rc):"
		cat "$tmp/$name.err"
		exit 1
	fi
}

echo "until-stable: $(nproc) CPUs, $(uname -sr); load average $(uptime | sed 's/.*load average: *//')"
for wl in $workloads; do
	for n in $(echo "$nlist" | tr , ' '); do
		step "$wl.$n.fixed1" "$wl" "$n" -d "$fixed"
		step "$wl.$n.stable" "$wl" "$n" --until-stable "$pct" -d "$cap"
		step "$wl.$n.fixed2" "$wl" "$n" -d "$fixed"
	done
done
echo "until-stable: load average after $(uptime | sed 's/.*load average: *//')"

# shellcheck disable=SC2086 # one argument per workload
python3 - "$tmp" "$agree" "$pct" "$fixed" "$nlist" $workloads <<'PY'
import json, sys

tmp, agree, pct, fixed = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
ns, wls = [int(x) for x in sys.argv[5].replace(",", " ").split()], sys.argv[6:]
status = 0
summary = []
busy = []


def load(wl, kind):
    """The steps of one method, N by N, as one sweep, and their summed wall time."""
    d, wall = None, 0.0
    for n in ns:
        one = json.load(open("%s/%s.%d.%s" % (tmp, wl, n, kind)))
        wall += float(open("%s/%s.%d.%s.wall" % (tmp, wl, n, kind)).read())
        if d is None:
            d = one
        else:
            d["steps"] += one["steps"]
    first = min(d["steps"], key=lambda st: st["n"])
    if first["n"] == 1 and (first["contention"]["run_delay_pct"] or 0.0) > 10.0:
        busy.append("%s %s" % (wl, kind))
    return d, wall


def ci(st):
    """The CI stability is judged by (widened for autocorrelation), in % of the mean."""
    iv = st["intervals"]
    return 100.0 * iv.get("ci95_ac", iv["ci95"]) / iv["mean"]


for wl in wls:
    ds, ws = load(wl, "stable")
    f1, w1 = load(wl, "fixed1")
    f2, w2 = load(wl, "fixed2")
    if ds["settings"]["stable_pct"] is None or float(ds["settings"]["stable_pct"]) != float(pct):
        sys.exit("until-stable: FAIL: the --until-stable run has stable_pct %r, not %s"
                 % (ds["settings"]["stable_pct"], pct))
    print()
    print("== %s: --until-stable %s (cap %g s) between two steps of -d %s, N by N ==" %
          (wl, pct, ds["settings"]["duration_s"], fixed))
    print("%2s | %12s %6s %6s %-8s %5s | %12s %12s %5s | %7s %7s %s" % (
        "N", "stable ops/s", "CI%", "window", "status", "rdly%", "fixed1 ops/s", "fixed2 ops/s",
        "rdly%", "diff%", "F1-F2%", "bound"))
    by_n1 = {s["n"]: s for s in f1["steps"]}
    by_n2 = {s["n"]: s for s in f2["steps"]}
    worst, unstable, failed, beyond, relaxed = 0.0, 0, [], [], []
    for s in ds["steps"]:
        a, b = by_n1.get(s["n"]), by_n2.get(s["n"])
        if s["status"] == "failed" or None in (a, b) or "failed" in (a["status"], b["status"]):
            failed.append(s["n"])
            continue
        unstable += s["status"] == "unstable"
        fmean = (a["ops_s"] + b["ops_s"]) / 2
        diff = 100.0 * (s["ops_s"] - fmean) / fmean
        repro = 100.0 * abs(a["ops_s"] - b["ops_s"]) / fmean
        bound = max(agree, repro)
        worst = max(worst, abs(diff))
        if abs(diff) > bound:
            beyond.append(s["n"])
        elif abs(diff) > agree:
            relaxed.append(s["n"])
        print("%2d | %12.0f %6.2f %6.2f %-8s %5.1f | %12.0f %12.0f %5.1f | %+7.2f %7.2f %s" % (
            s["n"], s["ops_s"], ci(s), s["window_s"], s["status"],
            s["contention"]["run_delay_pct"] or 0.0, a["ops_s"], b["ops_s"],
            max(a["contention"]["run_delay_pct"] or 0.0, b["contention"]["run_delay_pct"] or 0.0),
            diff, repro, "F1-F2" if bound > agree else "%g%%" % agree))
    wf = (w1 + w2) / 2
    ratio = ws / wf
    t_ok = ratio < 0.5
    c_ok = not beyond and not failed
    status |= not (t_ok and c_ok)
    win_s = sum(s["window_s"] for s in ds["steps"])
    win_f = sum(s["window_s"] for s in f1["steps"])
    print("wall, summed over N: until-stable %.1f s, fixed %.1f s and %.1f s: ratio %.3f (measured windows: "
          "%.1f s and %.1f s; %d of %d steps hit the cap unstable)" % (ws, w1, w2, ratio, win_s,
          win_f, unstable, len(ds["steps"])))
    if failed:
        print("failed steps: N=%s" % ",".join(map(str, failed)))
    how = "max |diff| %.2f%%" % worst
    if relaxed:
        how += "; N=%s beyond %g%% but within the fixed steps' own spread" % (
            ",".join(map(str, relaxed)), agree)
    if beyond:
        how += "; N=%s beyond both bounds" % ",".join(map(str, beyond))
    line = "until-stable %s: time %s (ratio %.3f %s 0.5), curves %s (%s)" % (
        wl, "PASS" if t_ok else "FAIL", ratio, "<" if t_ok else ">=",
        "PASS" if c_ok else "FAIL", how)
    print(line)
    summary.append(line)
if busy:
    print()
    print("until-stable: warning: other load on the machine during %s (run delay of the "
          "workers above 10%% at N=1, where nothing of the run's own competes for a CPU): "
          "times and curves then measure that load as much as scaletop" % ", ".join(busy))
print()
for line in summary:
    print(line)
print("until-stable: %s" % ("PASS" if status == 0 else "FAIL"))
sys.exit(status)
PY
