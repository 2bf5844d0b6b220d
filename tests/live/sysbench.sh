# SPDX-License-Identifier: BSD-2-Clause
# Live: short sysbench cpu and fileio sweeps under scaletop, each checked
# against what sysbench itself printed, read from copies of its output that
# scaletop never sees.  fileio's files are made by --setup and removed by
# --teardown, in the test's temporary folder.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/live/live.sh"

command -v sysbench >/dev/null 2>&1 || bail_out "no sysbench: install sysbench"

tap_tmpdir
T=$TAP_TMP
WARMUP=1
DURATION=6

sb_cleanup() {
	trap '' HUP INT TERM
	live_kill_rest "$T"
	rm -rf "$T"
}
trap sb_cleanup EXIT
trap 'exit 1' HUP INT TERM

live_setup

# sb_latency JSON NAME: each step's latency is sysbench's --histogram, its p99
# within one of sysbench's own buckets (about 1.8% apart, printed to 3
# decimals) of the "99th percentile" sysbench printed in $T/work/NAME-N.out.
sb_latency() {
	"$PYTHON" - "$1" "$T/work/$2" <<'EOF'
import json, re, sys
steps, bad = json.load(open(sys.argv[1]))["steps"], 0
for s in steps:
    lat = s.get("latency") or {}
    out = open("%s-%d.out" % (sys.argv[2], s["n"])).read()
    m = re.findall(r"99th percentile:\s+([0-9.]+)", out)
    if lat.get("method") != "histogram" or not m:
        print("N=%d: method %s, sysbench's p99 %s" % (s["n"], lat.get("method"), m))
        bad += 1
        continue
    theirs, ours = float(m[-1]), lat["p99_ms"]
    close = abs(ours - theirs) <= 0.019 * theirs + 0.001
    print("N=%d: p99 %.3f ms, sysbench's %.3f ms (%+.2f%%)%s" % (s["n"], ours, theirs,
          100 * (ours - theirs) / theirs, "" if close else ": more than one bucket apart"))
    bad += not close
sys.exit(1 if bad or not steps else 0)
EOF
}

# --- cpu ------------------------------------------------------------------------
# With its latency histogram, which scaletop reads into each step's p99.
SBCPU="sysbench cpu --threads={n} --time={duration} --report-interval=1 --histogram=on --percentile=99"
live_sweep_steady cpu "$SBCPU run" sysbench -n 1,2 -d "$DURATION" --warmup "$WARMUP"
sweep_checks $? cpu "sysbench cpu" sysbench-eps events
ok_shown "cpu: each step's p99 is sysbench's own, within one of its buckets" \
	sb_latency "$T/cpu.json" cpu
ok "cpu: no sysbench or wrapper left after the sweep" live_none "$T"

# --- fileio, random writes ---------------------------------------------------------
# 16 MiB in 4 files of the test's folder; the block size is given so that the
# test converts sysbench's MiB/s to writes/s on its own.  No fsync: the
# folder may be on a disk, where an fsync that waits on other I/O turns one
# interval into a stall, and the test checks scaletop's figures, not the disk.
FIO="sysbench fileio --file-total-size=16M --file-num=4 --file-block-size=16384 --file-fsync-freq=0"
live_sweep_steady fio "$FIO --file-test-mode=rndwr --threads={n} --time={duration} --report-interval=1 run" \
	sysbench -n 1,2 -d "$DURATION" --warmup "$WARMUP" --setup "$FIO prepare" --teardown "$FIO cleanup"
sweep_checks $? fio "sysbench fileio (its files made by --setup)" sysbench-writes:16384 writes
is "$(cd "$T/work" && ls | grep -c '^test_file\.')" 0 "fileio: --teardown removed sysbench's files"
ok "nothing left running in the test's folder" live_none "$T"

done_testing
