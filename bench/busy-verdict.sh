#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Whether the verdict knows the machine was busy: sweeps of the built-ins
# with a come-and-go CPU load beside them, and with nothing beside them, in
# turns.  The load is one CPU loop run as `busyload` (a copy of dash, so that
# its command name is its own), on for 1-4 s and off for 0-3 s at random, as
# bench/suite-under-load.sh's.  pidstat, the peer, reads every process's CPU
# once a second beside each loaded sweep.
#
# For each sweep it prints the most CPUs the others used at a step whose N is
# at most the CPU count (steps[].others), what pidstat saw busyload use over
# the sweep, whether the verdict names a busy machine, and whether others
# named busyload.  Goals: every loaded sweep whose others reached half a CPU
# at such a step has a verdict that names the busy machine; no quiet sweep's
# verdict does.  It exits 1 when a goal is missed.
#
# usage: top_builddir=BUILD bash bench/busy-verdict.sh
#        env: PAIRS (default 4; each pair is one loaded and one quiet sweep),
#        NLIST (default 1,2,4), DURATION (default 2), WORKLOADS (default
#        "cpu mutex spinlock"), OUT (default a fresh folder under $TMPDIR).
# It takes about PAIRS x 2 x 20 s.
[ -n "${BASH_VERSION:-}" ] || { echo "busy-verdict: run it with bash" >&2; exit 2; }
set -u
here=$(cd "$(dirname "$0")" && pwd)
st=${top_builddir:-$here/../_build/w}/scaletop
[ -x "$st" ] || { echo "busy-verdict: no scaletop at $st: set top_builddir" >&2; exit 2; }
command -v pidstat >/dev/null 2>&1 || { echo "busy-verdict: no pidstat: apt-get install sysstat" >&2; exit 2; }
PAIRS=${PAIRS:-4} NLIST=${NLIST:-1,2,4} DURATION=${DURATION:-2}
read -r -a wls <<<"${WORKLOADS:-cpu mutex spinlock}"
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/busy-verdict.XXXXXX")} ||
	{ echo "busy-verdict: cannot make a folder" >&2; exit 1; }
mkdir -p "$OUT"
load_pid=
stat_pid=

stop_load() {
	[ -n "$stat_pid" ] && kill -INT "$stat_pid" 2>/dev/null && wait "$stat_pid" 2>/dev/null
	stat_pid=
	[ -n "$load_pid" ] && kill -TERM -- "-$load_pid" 2>/dev/null && wait "$load_pid" 2>/dev/null
	load_pid=
}
trap stop_load EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cp "$(command -v dash)" "$OUT/busyload" || { echo "busy-verdict: no dash to copy" >&2; exit 1; }

# start_load NAME: the come-and-go loop in a group of its own, pidstat beside it.
start_load() {
	setsid bash -c '
		while :; do
			on=$((RANDOM % 4 + 1)) off=$((RANDOM % 4))
			timeout --foreground "$on" "$1" -c "while :; do :; done"
			sleep "$off"
		done' sh "$OUT/busyload" >/dev/null 2>&1 </dev/null &
	load_pid=$!
	LC_ALL=C pidstat -u -h 1 >"$OUT/$1.pidstat" 2>/dev/null &
	stat_pid=$!
}

# judge JSON PIDSTAT: one line of figures, and "busy"/"quiet" and "named"/"-" for the counts.
judge() {
	python3 - "$@" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ncpu = d["host"].get("ncpus") or 1
verdict = d["analysis"].get("verdict") or ""
most, named = 0.0, False
for s in d["steps"]:
    o = s.get("others") or {}
    if s["n"] <= ncpu and "cpus" in o:
        most = max(most, o.get("cpus") or 0)
    named = named or any(t.get("comm") == "busyload" for t in o.get("top") or [])
peer = "-"
if len(sys.argv) > 2:
    # pidstat -h: Time UID PID %usr %system %guest %wait %CPU CPU Command, a
    # line a process a second it ran in; the mean is over all the seconds
    used, seconds = 0.0, set()
    for line in open(sys.argv[2]):
        f = line.split()
        if len(f) < 10 or not f[0].replace(":", "").isdigit():
            continue
        seconds.add(f[0])
        if f[9] == "busyload":
            used += float(f[7]) / 100
    peer = "%.2f" % (used / max(1, len(seconds)))
busy = "busy" if "busy" in verdict else "quiet"
print("others %.2f CPUs at N<=%d; pidstat busyload %s CPUs; verdict says %s; busyload %s; %s" % (
    most, ncpu, peer, busy, "named" if named else "not named", verdict))
EOF
}

loaded_due=0 loaded_said=0 quiet_said=0 quiet=0 named=0 loaded=0
for i in $(seq 1 "$PAIRS"); do
	wl=${wls[$(((i - 1) % ${#wls[@]}))]}
	for side in loaded quiet; do
		name=$side-$i-$wl
		[ "$side" = loaded ] && start_load "$name"
		"$st" run -w "$wl" -n "$NLIST" -d "$DURATION" --warmup 0.5 -q --json \
			>"$OUT/$name.json" 2>"$OUT/$name.log" </dev/null
		rc=$?
		stop_load
		if [ "$rc" -ne 0 ]; then
			echo "$name: scaletop exited $rc: $(tail -n 1 "$OUT/$name.log")"
			continue
		fi
		if [ "$side" = loaded ]; then
			line=$(judge "$OUT/$name.json" "$OUT/$name.pidstat")
		else
			line=$(judge "$OUT/$name.json")
		fi
		echo "$name: $line"
		most=$(printf '%s\n' "$line" | sed -n 's/^others \([0-9.]*\) CPUs.*/\1/p')
		case $side in
		loaded)
			loaded=$((loaded + 1))
			case $line in *"busyload named"*) named=$((named + 1)) ;; esac
			if awk -v m="$most" 'BEGIN { exit !(m >= 0.5) }'; then
				loaded_due=$((loaded_due + 1))
				case $line in *"verdict says busy"*) loaded_said=$((loaded_said + 1)) ;; esac
			fi
			;;
		quiet)
			quiet=$((quiet + 1))
			case $line in *"verdict says busy"*) quiet_said=$((quiet_said + 1)) ;; esac
			;;
		esac
	done
done
echo "loaded: $loaded_said of $loaded_due verdicts name the busy machine where others used >= 0.5 CPU" \
	"(goal: all); busyload named in $named of $loaded loaded sweeps"
echo "quiet: $quiet_said of $quiet verdicts name a busy machine (goal: none)"
echo "sweeps kept in $OUT"
[ "$loaded_said" -eq "$loaded_due" ] && [ "$quiet_said" -eq 0 ] && [ "$loaded_due" -gt 0 ]
