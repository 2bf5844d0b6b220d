# SPDX-License-Identifier: BSD-2-Clause
# The waits view's locks (the lock census): each N's row ends with its
# family's top contended lock ("big_lock 87% 7w"), '-' where the census saw
# none and nothing where none ran; and a panel lists the selected step's
# locks, how they were named (a stack scan says it is a heuristic), who held
# them or why that is not known, and idle waits after them, marked so.
#  - a kept run (tests/fixtures/snapshots/mutex-locks.json: mutex-waits.json
#    with made-up locks; at N=4 the target's idle condvar is twice its
#    mutex's share) read from the runs view, at 80x24 and 160x50, and
#    resized below the minimum and back: nothing here depends on timing;
#  - the same run with its last step's locks made shared: their processes and the holder's;
#  - the same in a replay of a recorded stream (tests/fixtures/streams/mutex-locks.jsonl);
#  - an older file without a census: no lock column, no panel;
#  - a live mutex sweep with a long hold: the lock its kept run names is on
#    screen with the owner the kept run verified, never "owner unknown"
#    (tried again, at most 3 times with each try logged, while no step's top
#    lock had a verified owner: how many wait on a tick depends on the
#    machine's load).  Never a share.  Where the machine cannot read
#    /proc/PID/syscall there is no census: the live part says so and stops.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
FX="$top_srcdir/tests/fixtures/snapshots"

# open_kept FILE W H: the TUI with FILE as its one kept run, opened (at 120x40, where the
# header and the runs view say what the checks wait for), on the waits view at W x H; the
# status in $opened (tm_start sets the socket's name, so it runs in this shell).
open_kept() {
	opened=1
	TM_DATA="$T/kept.$2x$3"
	mkdir -p "$TM_DATA/scaletop/runs"
	cp "$1" "$TM_DATA/scaletop/runs/scaletop-mutex-vm-20261129-233853.json"
	tm_start 120 40 "$ST" --monitor --refresh 0.2 || return
	tm_wait_for 'refresh 0.2s' 50 || return
	tm_keys R
	tm_wait_for 'runs kept: 1' 50 || return
	tm_keys Enter
	tm_wait_for 'sweep done: 5 steps' 50 || return
	tm_keys 5
	tm_resize "$2" "$3"
	opened=0
}

# --- a kept run with locks, 80x24 ------------------------------------------------
open_kept "$FX/mutex-locks.json" 80 24
is "$opened" 0 "the kept run opens on the waits view (80x24)"
ok "  the bars have a lock column" tm_wait_for ' top lock % waiters' 30
ok "  the workload's row at N=6 ends with its top lock, share and waiters" \
	tm_wait_for 'N=6 .*% running +big_lock 87% 7w' 30
ok "  the target's at N=4 too, its name cut to the column (not the larger idle wait)" \
	tm_wait_for 'N=4 .*% do_epoll_wait +mutexd:wal_[a-z]* 30% 2w' 30
ok "  the locks panel shows the last step's" \
	tm_wait_for '^─ locks at N=6 \(step 5, the last; up/down\)' 30
ok "  a lock, its kind, most waiters and threads" \
	tm_wait_for '^ workload +87\.0% +big_lock \(scaletop\) +mutex, 7 at once, 6 threads' 30
ok "  its holder on the next row" \
	tm_wait_for '^ +held by thread 4711 \(scaletop\), running; named by symbol' 30
ok "  a lock whose owner is not known says so, and why" \
	tm_wait_for '^ +owner unknown: not a mutex; named by symbol' 30
tm_keys Down Down Down Down
ok "down selects a step: N=4's locks" tm_wait_for '^─ locks at N=4 \(step 4; up/down\)' 30
ok "  a name from a stack scan is marked a heuristic" \
	tm_wait_for 'owner unknown; named by stack scan \(a heuristic\)' 30
tm_keys Enter
ok "enter: the step's detail below the view" tm_wait_for '^─ step 4: N=4 run 1, ok' 30
ok "  and the locks panel stays whole above it" \
	tm_wait_for '^ workload +60\.0% +big_lock \(scaletop\) +mutex, 3 at once, 4 threads' 30
tm_keys Enter
tm_resize 50 12
ok "a terminal too small says so" tm_wait_for 'terminal too small' 30
tm_resize 160 50
ok "  and back at 160x50, a lock a row with its holder" \
	tm_wait_for '^ workload +60\.0% +big_lock \(scaletop\) +mutex, 3 at once, 4 threads; held by thread 4712 \(scaletop\), runnable; named by symbol' 30
ok "  the stack scan's name whole" \
	tm_wait_for 'mutex_work \(heap\) \(scaletop\) at \[heap\]\+0x40 +mutex, 1 at once, 2 threads; owner unknown; named by stack scan \(a heuristic\)' 30
ok "  an idle wait after the contended locks, marked so" \
	tm_wait_for '^ target +idle +60\.0% +mutexd:tasks_cond\+0x28 \(mutexd\) +bitset, 6 at once, 6 threads; idle: waits for work' 30
ok "  N=2's census saw no lock: '-'" tm_wait_for 'N=2 .*% running +- *$' 30
ok "  N=1 took none: no lock" tm_wait_for 'N=1 .*92% running *$' 30
ok "  the running TUI is still there" test "$(tm_dead)" = 0
tm_keys q
ok "q ends it" tm_wait_exit 50
is "$(tm_status)" 0 "and it exits 0"

# --- the same at 160x50 without a resize between --------------------------------------------------
open_kept "$FX/mutex-locks.json" 160 50
is "$opened" 0 "the kept run opens on the waits view (160x50)"
ok "  the last step's locks, one a row" \
	tm_wait_for '^ target +50\.0% +mutexd:wal_lock \(mutexd\) +bitset, 4 at once, 8 threads; owner unknown: not a mutex' 30
ok "  the target's N=6 row ends with its lock" tm_wait_for 'N=6 .*% do_epoll_wait +mutexd:wal_lock 50% 4w' 30
tm_keys q
tm_wait_exit 50 >/dev/null

# --- a lock shared by processes: the same run, its last step's locks made shared ---------
"$PYTHON" - "$FX/mutex-locks.json" "$T/shared-locks.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for x in d["steps"][-1]["locks"]["top"]:
    x["shared"], x["processes"] = True, 3
    if x["owner"]:
        x["owner_pid"] = 4700
json.dump(d, open(sys.argv[2], "w"))
EOF
open_kept "$T/shared-locks.json" 160 50
is "$opened" 0 "a kept run with shared locks opens on the waits view (160x50)"
ok "  a shared lock's processes" \
	tm_wait_for '^ target +50\.0% +mutexd:wal_lock \(mutexd\) +bitset, 4 at once, 8 threads in 3 processes; owner unknown' 30
ok "  and its holder's process" tm_wait_for 'big_lock .* in 3 processes; held by thread 4711 of process 4700' 30
tm_keys q
tm_wait_exit 50 >/dev/null

# --- a replay: mutex-locks.jsonl is mutex-waits.jsonl with the same locks ------------
tm_start 80 24 "$ST" replay "$top_srcdir/tests/fixtures/streams/mutex-locks.jsonl"
tm_wait_for 'replaying ' 50
tm_keys End 5
ok "a replay's waits view: the last step's locks" \
	tm_wait_for '^─ locks at N=6 \(step 5, the last; up/down\)' 50
ok "  with the holder" tm_wait_for '^ +held by thread 4711 \(scaletop\), running' 30
ok "  and N=6's row its top lock" tm_wait_for 'N=6 .*% running +big_lock 87% 7w' 30
tm_keys q
tm_wait_exit 50 >/dev/null

# --- an older file: no census, no locks ---------------------------------------------------
open_kept "$FX/mutex-waits.json" 80 24
is "$opened" 0 "a kept run without a census opens on the waits view"
ok "  its bars are there" tm_wait_for "waits: the workload's thread-time" 30
no_locks() {
	! tm_screen | grep -Eq 'top lock|locks at N='
}
ok "  with no lock column and no locks panel" no_locks
tm_keys q
tm_wait_exit 50 >/dev/null

# --- live: a mutex sweep ------------------------------------------------------------------
# The census needs /proc/PID/task/TID/syscall: the machine is asked, not the census.
if ! cat /proc/self/syscall >/dev/null 2>&1; then
	skip "this kernel or user cannot read /proc/PID/syscall (no lock census)" \
		"a live mutex sweep's locks"
	done_testing
fi
try=0
name=
while [ $try -lt 3 ] && [ -z "$name" ]; do
	try=$((try + 1))
	TM_DATA="$T/live.$try"
	tm_start 80 24 "$ST" -w mutex -p hold=20000 -n 4 --repeat 2 -d 1.5 --warmup 0.3 --refresh 0.2
	tm_wait_for 'sweep done: 2 steps' 600 || diag "try $try: the sweep did not end"
	kept=$(ls "$TM_DATA"/scaletop/runs/*.json 2>/dev/null | head -n 1)
	# The last step whose top lock has a verified owner, that lock and its owner: the panel
	# shows them when the step is selected.
	got=$(json_get "${kept:-/dev/null}" '[(i + 1, s["locks"]["top"][0]["name"], s["locks"]["top"][0]["owner"]) for i, s in enumerate(d["steps"]) if s.get("locks", {}).get("top") and s["locks"]["top"][0]["owner"]][-1:]' 2>/dev/null)
	diag "try $try: kept ${kept:-nothing}; the last step whose top lock has an owner, the lock and its owner: ${got:-none}"
	case $got in
	"[(2, '"*) name=$(json_get "$kept" 'd["steps"][1]["locks"]["top"][0]["name"]')
		owner=$(json_get "$kept" 'd["steps"][1]["locks"]["top"][0]["owner"]')
		step=2 ;;
	"[(1, '"*) name=$(json_get "$kept" 'd["steps"][0]["locks"]["top"][0]["name"]')
		owner=$(json_get "$kept" 'd["steps"][0]["locks"]["top"][0]["owner"]')
		step=1 ;;
	*) tm_keys q
		tm_wait_exit 50 >/dev/null ;;
	esac
done
ok "a mutex sweep's census saw a lock and verified its owner (in at most 3 tries)" test -n "$name"
if [ -n "$name" ]; then
	# The name as a fixed string's start: cut to what the 80-column rows show (a cell of 22
	# columns keeps at least 11 of a name beside " 100%? 12w").
	short=$(printf '%s' "$name" | cut -c1-10 | sed 's/[][\.*^$+?(){}|]/\\&/g')
	# Down from no selection selects step 1; again, step 2.
	tm_keys 5 Down
	[ "$step" = 2 ] && tm_keys Down
	ok "  the waits view lists step $step's locks" \
		tm_wait_for "^─ locks at N=4 \(step $step; up/down\)" 30
	ok "  the lock the kept run names ($name), its kind and waiters" \
		tm_wait_for "^ workload +[0-9.]+%.? +$short.*mutex, [0-9]+ at once" 30
	ok "  its holder, the owner the kept run verified ($owner)" \
		tm_wait_for "^ +held by thread $owner \\(" 30
	# The row's lock: the largest share in any usable step at N=4, which may be another step's.
	top=$(json_get "$kept" 'max([x for s in d["steps"] if s["status"] in ("ok", "unstable") and s["ops_s"] > 0 for x in s.get("locks", {}).get("top", []) if x["family"] == "workload"] or [{"name": ""}], key=lambda x: x.get("share", 0))["name"]')
	diag "N=4's top lock over its steps: ${top:-none}"
	if [ -n "$top" ]; then
		tshort=$(printf '%s' "$top" | cut -c1-10 | sed 's/[][\.*^$+?(){}|]/\\&/g')
		ok "  N=4's row ends with its top lock" tm_wait_for "N=4 .*% .* $tshort" 30
	else
		skip "no usable step at N=4 saw a lock" "N=4's row ends with its top lock"
	fi
	tm_resize 160 50
	ok "  at 160x50, the lock and its holder on one row" \
		tm_wait_for "^ workload +[0-9.]+%.? +$short.*mutex, [0-9]+ at once, [0-9]+ threads?; held by thread $owner \\(" 30
	tm_keys q
	ok "  q ends it" tm_wait_exit 50
fi
done_testing
