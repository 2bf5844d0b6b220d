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
DURATION=4

sb_cleanup() {
	trap '' HUP INT TERM
	live_kill_rest "$T"
	rm -rf "$T"
}
trap sb_cleanup EXIT
trap 'exit 1' HUP INT TERM

live_setup

# --- cpu ------------------------------------------------------------------------
live_sweep cpu "sysbench cpu --threads={n} --time={duration} --report-interval=1 run" \
	sysbench -n 1,2 -d "$DURATION" --warmup "$WARMUP"
st=$?
is "$st" 0 "sysbench cpu sweep exits 0"
[ "$st" -eq 0 ] || diag "$(cat "$T/cpu.log")"
is "$(json_get "$T/cpu.json" '[s["n"] for s in d["steps"]]')" "[1, 2]" "cpu: one step per N, in order"
ok_shown "cpu: every step ok" steps_ok "$T/cpu.json"
is "$(json_get "$T/cpu.json" 'd["workload"]["unit"]')" "events" "cpu: unit from sysbench's eps"
ok_shown "cpu: each step's throughput is the mean of sysbench's own interval lines after the warm-up" \
	tool_check cpu sysbench-eps "$WARMUP" "$DURATION" "$T/cpu.json"
ok_shown "cpu: the verdict is a sentence about the curve" verdict_check "$T/cpu.json"
ok "cpu: no sysbench or wrapper left after the sweep" live_none "$T"

# --- fileio, random writes ---------------------------------------------------------
# 16 MiB in 4 files of the test's folder; the block size is given so that the
# test converts sysbench's MiB/s to writes/s on its own.  No fsync: the
# folder may be on a disk, where an fsync that waits on other I/O turns one
# interval into a stall, and the test checks scaletop's figures, not the disk.
FIO="sysbench fileio --file-total-size=16M --file-num=4 --file-block-size=16384 --file-fsync-freq=0"
live_sweep fio "$FIO --file-test-mode=rndwr --threads={n} --time={duration} --report-interval=1 run" \
	sysbench -n 1,2 -d "$DURATION" --warmup "$WARMUP" --setup "$FIO prepare" --teardown "$FIO cleanup"
st=$?
is "$st" 0 "sysbench fileio sweep exits 0"
[ "$st" -eq 0 ] || diag "$(cat "$T/fio.log")"
is "$(json_get "$T/fio.json" '[s["n"] for s in d["steps"]]')" "[1, 2]" "fileio: one step per N, in order"
ok_shown "fileio: every step ok (so --setup made the files)" steps_ok "$T/fio.json"
is "$(json_get "$T/fio.json" 'd["workload"]["unit"]')" "writes" \
	"fileio: unit is writes, from the random-write mode"
ok_shown "fileio: each step's writes/s is the mean of sysbench's own MiB/s lines after the warm-up" \
	tool_check fio sysbench-writes:16384 "$WARMUP" "$DURATION" "$T/fio.json"
ok_shown "fileio: the verdict is a sentence about the curve" verdict_check "$T/fio.json"
is "$(cd "$T/work" && ls | grep -c '^test_file\.')" 0 "fileio: --teardown removed sysbench's files"
ok "nothing left running in the test's folder" live_none "$T"

done_testing
