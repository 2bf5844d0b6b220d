#!/bin/sh
# What --until-stable saves, and what it costs in accuracy.
#
# Target: on the cpu and mutex workloads, a 1-8 sweep with `--until-stable 2`
# (stop a step once the 95% CI of its interval samples is within 2% of the
# mean; never before --min-time 2 s, never after the 20 s cap) takes under
# half the wall time of the same sweep with fixed 10-second steps, and the two
# curves agree: every N within 5% (the tolerance this bench sets; the per-N
# CIs are printed next to it).
#
# Each sweep is timed from outside (wall clock of the whole scaletop run,
# start-up and warm-ups included).  For every N it prints ops/s, the CI in %
# of the mean, the measured window, the step's status (unstable = the cap was
# reached before the CI was tight enough), the relative difference between
# the curves, and the run delay of the workers (% of wall time spent
# runnable but not running: other load on the machine, or N > CPUs).
# The order of the two sweeps alternates between the workloads.
#
# usage: make bench-stable   or   top_builddir=BUILD sh bench/until-stable.sh
#        env: WORKLOADS (default "cpu mutex"), FIXED (seconds, default 10),
#        STABLE_PCT (default 2), NLIST (default 1-8), AGREE_PCT (default 5)
: "${top_builddir:=.}"
bin=$top_builddir/scaletop
workloads=${WORKLOADS:-cpu mutex}
fixed=${FIXED:-10}
pct=${STABLE_PCT:-2}
nlist=${NLIST:-1-8}
agree=${AGREE_PCT:-5}

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

# sweep NAME WORKLOAD ARGS...: one timed sweep into $tmp/NAME.
sweep() {
	name=$1 wl=$2
	shift 2
	echo "until-stable: $wl $*" >&2
	python3 -c "$timed_py" "$tmp/$name" "$bin" run -q -w "$wl" -n "$nlist" --json "$@" \
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
i=0
for wl in $workloads; do
	if [ $((i % 2)) -eq 0 ]; then
		sweep "$wl.stable" "$wl" --until-stable "$pct"
		sweep "$wl.fixed" "$wl" -d "$fixed"
	else
		sweep "$wl.fixed" "$wl" -d "$fixed"
		sweep "$wl.stable" "$wl" --until-stable "$pct"
	fi
	i=$((i + 1))
done
echo "until-stable: load average after $(uptime | sed 's/.*load average: *//')"

# shellcheck disable=SC2086 # one argument per workload
python3 - "$tmp" "$agree" "$pct" "$fixed" $workloads <<'PY'
import json, sys

tmp, agree, pct, fixed, wls = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]
status = 0
summary = []
busy = []
for wl in wls:
    runs = {}
    for kind in ("stable", "fixed"):
        d = json.load(open("%s/%s.%s" % (tmp, wl, kind)))
        wall = float(open("%s/%s.%s.wall" % (tmp, wl, kind)).read())
        runs[kind] = (d, wall)
    ds, ws = runs["stable"]
    df, wf = runs["fixed"]
    if ds["settings"]["stable_pct"] is None or float(ds["settings"]["stable_pct"]) != float(pct):
        sys.exit("until-stable: FAIL: the --until-stable run has stable_pct %r, not %s"
                 % (ds["settings"]["stable_pct"], pct))
    print()
    print("== %s: --until-stable %s (cap %g s) vs -d %s; wall time of each whole sweep ==" %
          (wl, pct, ds["settings"]["duration_s"], fixed))
    print("%2s | %12s %6s %7s %-8s %6s | %12s %6s %7s %6s | %7s" % (
        "N", "stable ops/s", "CI%", "window", "status", "rdly%", "fixed ops/s", "CI%", "window",
        "rdly%", "diff%"))
    fixed_by_n = {s["n"]: s for s in df["steps"]}
    for kind, d in (("until-stable", ds), ("fixed", df)):
        first = min(d["steps"], key=lambda st: st["n"])
        if first["n"] == 1 and (first["contention"]["run_delay_pct"] or 0.0) > 10.0:
            busy.append("%s %s" % (wl, kind))
    worst, unstable, failed = 0.0, 0, []
    for s in ds["steps"]:
        f = fixed_by_n.get(s["n"])
        if s["status"] == "failed" or f is None or f["status"] == "failed":
            failed.append(s["n"])
            continue
        unstable += s["status"] == "unstable"
        diff = 100.0 * (s["ops_s"] - f["ops_s"]) / f["ops_s"]
        worst = max(worst, abs(diff))
        ci = lambda st: 100.0 * st["intervals"]["ci95"] / st["intervals"]["mean"]
        print("%2d | %12.0f %6.2f %7.2f %-8s %6.1f | %12.0f %6.2f %7.2f %6.1f | %+7.2f" % (
            s["n"], s["ops_s"], ci(s), s["window_s"], s["status"],
            s["contention"]["run_delay_pct"] or 0.0, f["ops_s"], ci(f), f["window_s"],
            f["contention"]["run_delay_pct"] or 0.0, diff))
    ratio = ws / wf
    t_ok = ratio < 0.5
    c_ok = worst <= agree and not failed
    status |= not (t_ok and c_ok)
    win_s = sum(s["window_s"] for s in ds["steps"])
    win_f = sum(s["window_s"] for s in df["steps"])
    print("wall: until-stable %.1f s, fixed %.1f s: ratio %.3f (measured windows: %.1f s and "
          "%.1f s; %d of %d steps hit the cap unstable)" % (ws, wf, ratio, win_s, win_f,
          unstable, len(ds["steps"])))
    if failed:
        print("failed steps: N=%s" % ",".join(map(str, failed)))
    line = ("until-stable %s: time %s (ratio %.3f %s 0.5), curves %s (max |diff| %.2f%% %s %g%%)"
            % (wl, "PASS" if t_ok else "FAIL", ratio, "<" if t_ok else ">=",
               "PASS" if c_ok else "FAIL", worst, "<=" if worst <= agree else ">", agree))
    print(line)
    summary.append(line)
if busy:
    print()
    print("until-stable: warning: other load on the machine during %s (run delay of the "
          "workers above 10%% at N=1, where nothing of the sweep's own competes for a CPU): "
          "times and curves then measure that load as much as scaletop" % ", ".join(busy))
print()
for line in summary:
    print(line)
print("until-stable: %s" % ("PASS" if status == 0 else "FAIL"))
sys.exit(status)
PY
