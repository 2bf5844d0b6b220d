#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The why, named, against perf and bpftrace on the same run.
#
# Two programs of known shape, built here with `cc -O2 -g -pthread` from
# bench/why/ (PIE, not stripped, no frame pointers, as a user builds them):
#  - twohot: N threads spending about 3/4 of their CPU in heavy_work and 1/4
#    in light_work.  Its peer is perf: `perf record -e cpu-clock -F 99 -g -p
#    PID` over part of scaletop's window, then `perf report --sort sym
#    --no-children`, whose top lines are the leaf functions' self shares.
#    scaletop's are the step's hot self shares where the snapshot has them
#    (hot.self), else its hot paths summed by leaf frame; both are of the
#    process's samples.
#  - twolocks: 8 threads on two global mutexes in .bss, lock_a (6 threads)
#    and lock_b (2).  Its peer is bpftrace: the process's futex time in
#    FUTEX_WAIT and FUTEX_WAIT_BITSET (the op masked with 127, which drops
#    the private and realtime-clock flags), from sys_enter_futex to
#    sys_exit_futex, summed per futex address; an address is named by the
#    binary's symbols (nm) through the process's maps.  Compared: each
#    lock's part of the two locks' futex wait, against the census's
#    share_a / (share_a + share_b).
# Each program is measured twice, each time in ONE run that scaletop and the
# peer watch together: as the workload (`run --cmd 'PROG {n} {duration}'
# --parse-regex ...`; the script finds the program by its unique name with
# pgrep and attaches the peer once the warm-up is over), and started by the
# script and given as `--target pid:PID` (the sweep itself is a `sleep`).
# For each, the top two functions or locks as scaletop and as the peer name
# them, their shares and the difference in points.  Raw frames and locks
# (`twohot+0x13c4`) are also resolved here with nm and printed as
# information, to tell a naming fault from a measuring one; that is not
# judged.
#
# Target: in every case the top two functions and the top two locks named as
# the peer names them, and each share within 5 points of the peer's.
#
# Needs root (perf -p, bpftrace), cc, perf, bpftrace, nm, readelf, pgrep,
# python3; mounts tracefs on /sys/kernel/tracing when it is not (bpftrace's
# syscall tracepoints need it) and leaves it mounted, saying so.
# SCALETOP=path measures another binary; KEEP=1 keeps the folder (JSON,
# perf and bpftrace reports, maps), named at the end.  HOT_N (default 2) and
# LOCK_N (default 8) are the programs' threads.
#
# usage: make bench-why   or
#        top_builddir=BUILD [SCALETOP=BIN] sh bench/why-accuracy.sh [D]
: "${top_builddir:=.}"
: "${top_srcdir:=$(dirname "$0")/..}"
bin=${SCALETOP:-$top_builddir/scaletop}
dur=${1:-20}
hot_n=${HOT_N:-2}
lock_n=${LOCK_N:-8}
tolerance=5
regex='ops/s: ([0-9.]+)'

for tool in cc perf bpftrace nm readelf pgrep python3; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "why-accuracy: $tool not found: install it (perf is in linux-perf)" >&2
		exit 2
	fi
done
if [ "$(id -u)" != 0 ]; then
	echo "why-accuracy: run it as root (perf -p, bpftrace and the census need it)" >&2
	exit 2
fi
if [ ! -x "$bin" ]; then
	echo "why-accuracy: no binary at $bin: build it or give SCALETOP=path" >&2
	exit 2
fi
for v in "D=$dur" "HOT_N=$hot_n" "LOCK_N=$lock_n"; do
	case ${v#*=} in
	'' | *[!0-9]* | 0)
		echo "why-accuracy: $v: give a whole number >= 1" >&2
		exit 2
		;;
	esac
done
if [ "$dur" -lt 8 ] || [ "$lock_n" -lt 4 ]; then
	echo "why-accuracy: give D >= 8 (the peers attach inside the window) and LOCK_N >= 4" >&2
	exit 2
fi
if [ ! -d /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing || {
		echo "why-accuracy: cannot mount tracefs on /sys/kernel/tracing for bpftrace" >&2
		exit 2
	}
	echo "why-accuracy: mounted tracefs on /sys/kernel/tracing (bpftrace needs it; left mounted)"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/scaletop-why.XXXXXX") || exit 1
KEEP=${KEEP:-}
run=
prog=
peer=
trap 'for p in $peer $run $prog; do kill "$p" 2>/dev/null; done; wait 2>/dev/null
	if [ -n "$KEEP" ]; then echo "kept in $tmp"; else rm -rf "$tmp"; fi' EXIT
trap 'exit 1' HUP INT TERM

# Names unique on the machine (a comm is at most 15 bytes), so pgrep finds
# this run's program and no other.
hot=whyhot$$
lk=whylocks$$
cc -O2 -g -pthread -o "$tmp/$hot" "$top_srcdir/bench/why/twohot.c" &&
	cc -O2 -g -pthread -o "$tmp/$lk" "$top_srcdir/bench/why/twolocks.c" || {
	echo "why-accuracy: cannot build bench/why/*.c" >&2
	exit 2
}

# find_pid NAME: the pid of the process named NAME, waiting up to 10 s.
find_pid() {
	tries=0
	while [ $tries -lt 100 ]; do
		p=$(pgrep -n -x "$1") && {
			echo "$p"
			return 0
		}
		sleep 0.1
		tries=$((tries + 1))
	done
	return 1
}

# perf_peer PID CASE SECONDS: perf's samples of PID over SECONDS.  The
# window is perf's timer command, which checks at its end that the program
# still runs (perf's own wrapping up after it takes seconds).
perf_peer() {
	perf record -q -e cpu-clock -F 99 -g -p "$1" -o "$tmp/$2.data" -- sh -c \
		'sleep "$1"; kill -0 "$2" 2>/dev/null || echo "$3" >"$4"' sh "$3" "$1" \
		"the program exited before the peer's window ended" "$tmp/$2.late" \
		>"$tmp/$2.perf.log" 2>&1 &
	peer=$!
	wait "$peer"
	peer=
}

# perf_report CASE: the leaf functions' self shares, from perf_peer's samples.
perf_report() {
	perf report -i "$tmp/$1.data" --sort sym --stdio --no-children -g none \
		>"$tmp/$1.peer" 2>>"$tmp/$1.perf.log"
}

# bpf_peer PID CASE SECONDS: the futex wait time of PID per address, over
# SECONDS from the moment bpftrace has attached.
bpf_peer() {
	bpftrace -e "
BEGIN { @t0 = nsecs; }
tracepoint:syscalls:sys_enter_futex /pid == $1/ {
	\$op = args->op & 127;
	if (\$op == 0 || \$op == 9) { @start[tid] = nsecs; @addr[tid] = (uint64)args->uaddr; }
}
tracepoint:syscalls:sys_exit_futex /pid == $1 && @start[tid]/ {
	@wait[@addr[tid]] = sum(nsecs - @start[tid]);
	@calls[@addr[tid]] = count();
	delete(@start[tid]); delete(@addr[tid]);
}
interval:s:$3 { exit(); }
END { printf(\"window_ns %lld\n\", nsecs - @t0); clear(@start); clear(@addr); delete(@t0); }
" >"$tmp/$2.peer" 2>"$tmp/$2.bpf.log" &
	peer=$!
	wait "$peer"
	peer=
}

# measure CASE PEER PID WAIT: after WAIT s, the peer on PID for the window's
# middle; notes whether the program outlived the peer's window.
measure() {
	cp "/proc/$3/maps" "$tmp/$1.maps" 2>/dev/null
	sleep "$4"
	if [ "$2" = perf ]; then
		perf_peer "$3" "$1" $((dur - 4))
		perf_report "$1"
	else
		bpf_peer "$3" "$1" $((dur - 6))
		kill -0 "$3" 2>/dev/null ||
			echo "the program exited before the peer's window ended" >"$tmp/$1.late"
	fi
}

# as_cmd CASE PEER NAME N: scaletop runs the program; the script attaches the peer.
as_cmd() {
	"$bin" run --cmd "$tmp/$3 {n} {duration}" --parse-regex "$regex" -n "$4" -d "$dur" \
		--json -q >"$tmp/$1.json" 2>"$tmp/$1.err" &
	run=$!
	p=$(find_pid "$3") || {
		echo "why-accuracy: $1: $3 did not start under $bin within 10 s:" >&2
		cat "$tmp/$1.err" >&2
		return 1
	}
	measure "$1" "$2" "$p" 1.5
	wait "$run" || {
		echo "why-accuracy: $1: $bin failed:" >&2
		cat "$tmp/$1.err" >&2
		run=
		return 1
	}
	run=
}

# as_target CASE PEER NAME N: the script runs the program; scaletop watches
# it with --target while its own step is a sleep of D seconds.
as_target() {
	"$tmp/$3" "$4" $((dur + 4)) >"$tmp/$1.out" &
	prog=$!
	sleep 0.5
	"$bin" run --cmd "sleep $dur" --parse elapsed -n 1 --target "pid:$prog" \
		--json -q >"$tmp/$1.json" 2>"$tmp/$1.err" &
	run=$!
	measure "$1" "$2" "$prog" 1
	wait "$run" || {
		echo "why-accuracy: $1: $bin failed:" >&2
		cat "$tmp/$1.err" >&2
		run=
		return 1
	}
	run=
	kill "$prog" 2>/dev/null
	wait "$prog" 2>/dev/null
	prog=
}

echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg); $bin; D=$dur, twohot N=$hot_n, twolocks N=$lock_n"
as_cmd hot-cmd perf "$hot" "$hot_n" || exit 1
as_target hot-target perf "$hot" "$hot_n" || exit 1
as_cmd locks-cmd bpf "$lk" "$lock_n" || exit 1
as_target locks-target bpf "$lk" "$lock_n" || exit 1
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$tmp" "$hot" "$lk" "$tolerance" <<'PY'
import json, os, re, subprocess, sys

tmp, hot, lk, tol = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])

def elf(binary):
    """The binary's type, PT_LOAD segments (offset, vaddr, memsz) and sized symbols."""
    hdr = subprocess.run(["readelf", "-hlW", binary], capture_output=True, text=True).stdout
    dyn = re.search(r"Type:\s+DYN", hdr) is not None
    loads = [(int(m.group(1), 16), int(m.group(2), 16), int(m.group(3), 16)) for m in re.finditer(
        r"LOAD\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+0x[0-9a-f]+\s+0x[0-9a-f]+\s+0x([0-9a-f]+)", hdr)]
    syms = []
    for line in subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True,
                               text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 4:
            syms.append((int(f[0], 16), int(f[1], 16), f[3]))
    return dyn, loads, syms

def symbol_at(syms, vaddr):
    for start, size, name in syms:
        if start <= vaddr < start + size:
            return name
    return None

def resolve_offset(binary, off):
    """A file offset in the binary (scaletop's `prog+0xOFF`) to its symbol."""
    dyn, loads, syms = elf(binary)
    for p_off, p_vaddr, memsz in loads:
        if p_off <= off < p_off + memsz:
            return symbol_at(syms, off - p_off + p_vaddr)
    return None

def norm(name, prog):
    """One spelling for scaletop's and the peer's names: no `object:` prefix, no
    offset after a symbol, no compiler clone suffix; `prog+0xOFF` kept as it is."""
    name = name.split()[0] if name.split() else name
    m = re.match(r"^([^:\[\s]+):([^:].*)$", name)
    if m:
        name = m.group(2)
    m = re.match(r"^(.*)\+0x[0-9a-f]+$", name)
    if m and m.group(1) != prog and ".so" not in m.group(1) and not m.group(1).startswith("["):
        name = m.group(1)
    return re.sub(r"\.(constprop|isra|part|cold)(\.\d+)?$", "", name)

def step(case):
    steps = json.load(open("%s/%s.json" % (tmp, case))).get("steps") or []
    return steps[-1] if steps else {}

def scaletop_functions(case, family, prog):
    """The family's functions by share: hot.self where the snapshot has it, else
    the paths summed by their leaf frame."""
    h = step(case).get("hot")
    if not h:
        return None, []
    rows, how = [], "paths by leaf"
    for r in h.get("self") or []:
        if r.get("family", family) == family:
            how = "self"
            rows.append((next((r[k] for k in ("name", "function", "symbol", "frame") if k in r), "?"),
                         r["share"]))
    if not rows:
        rows = [(p["frames"][0], p["share"]) for p in h.get("paths") or []
                if p.get("family") == family and p.get("frames")]
    # One line a function: `heavy_work+0x24` and `heavy_work+0x2b` are one.
    out = {}
    for name, share in rows:
        key = norm(name, prog)
        first = out.get(key, (name, 0.0))[0]
        out[key] = (first, out.get(key, (name, 0.0))[1] + 100.0 * share)
    return how, sorted(out.values(), key=lambda kv: -kv[1])

def perf_functions(case):
    out = []
    for line in open("%s/%s.peer" % (tmp, case)):
        m = re.match(r"^\s*([0-9.]+)%\s+\[.\]\s+(\S+)", line)
        if m:
            out.append((m.group(2), float(m.group(1))))
    return out

def scaletop_locks(case, family):
    locks = step(case).get("locks")
    if not locks:
        return None
    # A lock marked idle (a pool's waiters, not contention) is not a contender.
    top = [(l["name"], l["share"]) for l in locks.get("top") or []
           if l.get("family") == family and not l.get("idle")]
    return sorted(top, key=lambda kv: -kv[1])[:2]

def bpf_locks(case, prog):
    """bpftrace's two longest-waited futex addresses, named through the maps."""
    waits = []
    for line in open("%s/%s.peer" % (tmp, case)):
        m = re.match(r"^@wait\[(\d+)\]:\s+(\d+)", line)
        if m:
            waits.append((int(m.group(1)), int(m.group(2))))
    waits.sort(key=lambda kv: -kv[1])
    calls = {}
    for line in open("%s/%s.peer" % (tmp, case)):
        m = re.match(r"^@calls\[(\d+)\]:\s+(\d+)", line)
        if m:
            calls[int(m.group(1))] = int(m.group(2))
    binary = "%s/%s" % (tmp, prog)
    dyn, loads, syms = elf(binary)
    base = None
    maps = "%s/%s.maps" % (tmp, case)
    for line in open(maps) if os.path.exists(maps) else []:
        f = line.split()
        if len(f) >= 6 and os.path.basename(f[5]) == prog and int(f[2], 16) == 0:
            base = int(f[0].split("-")[0], 16)
            break
    out = []
    for addr, ns in waits[:2]:
        name = None
        if base is not None:
            name = symbol_at(syms, addr - base if dyn else addr)
        out.append((name or hex(addr), ns))
        print("  bpftrace: %s waited %.1f s in %d futex waits" % (name or hex(addr), ns / 1e9,
              calls.get(addr, 0)))
    total = sum(ns for _, ns in out)
    return [(n, 100.0 * ns / total) for n, ns in out] if total else []

def judge(case, what, peer, ours, prog):
    """Prints the top two of each and their differences; returns the reasons it fails."""
    bad = []
    if len(peer) < 2:
        return ["%s: the peer found fewer than two %s" % (case, what)]
    if len(ours) < 2:
        bad.append("%s: scaletop gave fewer than two %s" % (case, what))
    print("  %-4s %-22s %7s | %-32s %7s | %6s" % ("rank", "peer", "share", "scaletop", "share", "diff"))
    for i in range(2):
        pname, pshare = peer[i]
        match = [o for o in ours if norm(o[0], prog) == norm(pname, prog)]
        o = match[0] if match else (ours[i] if i < len(ours) else None)
        if o is None:
            print("  %-4d %-22s %7.1f | %-32s %7s | %6s" % (i + 1, pname, pshare, "-", "-", "-"))
            continue
        diff = o[1] - pshare
        print("  %-4d %-22s %7.1f | %-32s %7.1f | %+6.1f%s" % (i + 1, pname, pshare, o[0][:32], o[1],
              diff, "" if match else "  (by rank)"))
        if i < len(ours) and norm(ours[i][0], prog) != norm(pname, prog):
            bad.append("%s: %s %d named %s, the peer's %s" % (case, what[:-1], i + 1, ours[i][0], pname))
        if abs(diff) > tol:
            bad.append("%s: %s's share %.1f points off the peer's" % (case, pname, diff))
    return bad

def raw_info(prog, named):
    """Scaletop's `prog+0xOFF` names resolved with nm: information, not judged."""
    out = {}
    for name, share in named:
        m = re.match(r"^%s\+0x([0-9a-f]+)$" % re.escape(prog), name)
        if not m:
            return None
        sym = resolve_offset("%s/%s" % (tmp, prog), int(m.group(1), 16)) or name
        out[sym] = out.get(sym, 0.0) + share
    return sorted(out.items(), key=lambda kv: -kv[1])

def peer_log(case, peer, log):
    """The peer's own messages, when it gave too little to compare."""
    path = "%s/%s.%s" % (tmp, case, log)
    if len(peer) < 2 and os.path.exists(path):
        for line in open(path).read().strip().splitlines()[-5:]:
            print("  %s: %s" % (log, line))

def late(case):
    path = "%s/%s.late" % (tmp, case)
    if os.path.exists(path):
        print("  warning: " + open(path).read().strip())

reasons = []
for case, family in (("hot-cmd", "workload"), ("hot-target", "target")):
    how, ours = scaletop_functions(case, family, hot)
    peer = perf_functions(case)
    print("%s: twohot's leaf functions, perf's self shares vs scaletop's (%s), %% of the process's samples"
          % (case, how or "no hot section"))
    late(case)
    peer_log(case, peer, "perf.log")
    reasons += judge(case, "functions", peer, ours, hot)
    info = raw_info(hot, [o for o in ours if o[0].startswith(hot + "+")])
    if info:
        print("  scaletop's raw frames resolved with nm (information): " +
              ", ".join("%s %.1f" % kv for kv in info[:3]))
for case, family in (("locks-cmd", "workload"), ("locks-target", "target")):
    print("%s: twolocks' two locks, each one's part (%%) of the two's futex wait, bpftrace vs the census"
          % case)
    ours = scaletop_locks(case, family)
    peer = bpf_locks(case, lk)
    late(case)
    peer_log(case, peer, "bpf.log")
    if ours is None:
        reasons.append("%s: no locks section" % case)
        ours = []
    total = sum(s for _, s in ours)
    print("  census shares: " + ", ".join("%s %.1f%%" % (n, 100 * s) for n, s in ours))
    parts = [(n, 100.0 * s / total) for n, s in ours] if total else []
    reasons += judge(case, "locks", peer, parts, lk)
    info = raw_info(lk, [p for p in parts if p[0].startswith(lk + "+")])
    if info:
        print("  scaletop's raw names resolved with nm (information): " +
              ", ".join("%s %.1f" % kv for kv in info))
for r in reasons:
    print("  FAIL " + r)
print("why-accuracy: %s: %s" % ("PASS" if not reasons else "FAIL",
      "top two functions and locks named, every share within %g points of the peer's" % tol
      if not reasons else "%d reason(s) above" % len(reasons)))
sys.exit(1 if reasons else 0)
PY
