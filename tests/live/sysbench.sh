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

# --- cpu ------------------------------------------------------------------------
live_sweep_steady cpu "sysbench cpu --threads={n} --time={duration} --report-interval=1 run" \
	sysbench -n 1,2 -d "$DURATION" --warmup "$WARMUP"
sweep_checks $? cpu "sysbench cpu" sysbench-eps events
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
