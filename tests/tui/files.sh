# SPDX-License-Identifier: BSD-2-Clause
# Every file the TUI writes loads again.  Random key sequences (n with longer
# and shorter N lists, r, w, x, space, s, o, a live N with + and x, a kept
# run opened from the runs view, q) over short sweeps, and every
# file written on the way (the kept runs, the s files, -o at q, the --record
# stream) is read by show, compare and the runs view: none may be refused.
# The first case is issue 21's: a sweep after a shorter N list once saved
# ticks that named the earlier sweep's steps, and all three copies were lost.
#
# Seeded: the seed and each case's keys are printed, and
#   FILES_SEED=S make check TESTS=tests/tui/files.sh
# replays them (FILES_CASES=K runs K random cases; default 5).  Nothing here
# asserts on time: each key waits for the screen it leads to, within a bound,
# and a bound that runs out is logged and the case goes on to its files.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"
FAST="-w cpu -d 0.3 --warmup 0.1 --refresh 0.2"
FX=$(cd "$top_srcdir/tests/fixtures/snapshots" && pwd) # the cases cd about
SEED=${FILES_SEED:-$(date +%s)}
CASES=${FILES_CASES:-5}
diag "seed $SEED (FILES_SEED=$SEED replays these cases)"

# wait_or_log REGEX TENTHS WHAT: waits for the screen; a bound that runs out is logged.
wait_or_log() {
	tm_wait_for "$1" "$2" && return 0
	diag "  (no '$3' on screen after $(($2 / 10)) s; going on)"
	return 1
}

# running: a step is under way (its header says step K/T).
started() {
	wait_or_log 'step [0-9]+/[0-9]+ N=' 150 "a step"
}

# finished: the sweep has ended (nothing runs).
finished() {
	wait_or_log 'sweep (done|stopped): [0-9]+ step|idle: r runs' 400 "the sweep's end"
}

# key_s: s, then enter on the offered name (and y if it exists).
key_s() {
	tm_keys s
	wait_or_log 'as snapshot:|nothing to save' 50 "the save prompt" || return 0
	tm_screen | grep -q 'nothing to save' && return 0
	tm_keys Enter
	wait_or_log 'saved [^ ]+: [0-9]+ step|overwrite\? \(y/N\)|not saved|cannot' 50 "saved"
	if tm_screen | grep -q 'overwrite? (y/N)'; then
		tm_keys y
		wait_or_log 'saved [^ ]+: [0-9]+ step' 50 "saved"
	fi
	if tm_screen | grep -Eq 'not saved|cannot'; then
		tap_result 1 "s saves ($(tm_screen | grep -E 'not saved|cannot' | head -n 1))"
	fi
}

# key_o: o, then the newest file written so far (a kept run or an s file) as an overlay.
key_o() {
	_f=$(ls -t ./*.json data/scaletop/runs/*.json 2>/dev/null | head -n 1)
	tm_keys o
	wait_or_log 'open snapshot as overlay:' 50 "the overlay prompt" || return 0
	if [ -z "$_f" ]; then
		tm_keys Escape
		return 0
	fi
	tm_keys -l "$_f"
	tm_keys Enter
	if ! wait_or_log "overlay [^:]*: [0-9]+ points" 50 "the overlay"; then
		tap_result 1 "o overlays $_f"
		diag "$(tm_screen | tail -n 3)"
	fi
}

# play KEY...: each key, and the screen it leads to.
play() {
	for _k in "$@"; do
		case $_k in
		n:*)
			tm_keys n
			wait_or_log 'N list' 50 "the N prompt"
			tm_keys C-u
			tm_keys -l "${_k#n:}"
			tm_keys Enter
			started
			;;
		r)
			tm_keys r
			started
			;;
		w)
			tm_keys w
			tm_keys Enter
			wait_or_log 'parameters \(enter runs\)' 50 "the parameters prompt"
			tm_keys Enter
			started
			;;
		x)
			tm_keys x
			finished
			;;
		sp) # pause, look, go on: a paused sweep would never end
			tm_keys Space
			wait_or_log 'paused|PAUSED' 20 "paused"
			tm_keys Space
			;;
		live) # a live N outside the sweep, and back: the tick ring goes to it and returns
			tm_keys x
			finished
			tm_keys +
			wait_or_log 'live N=[0-9]+ measuring' 100 "the live N"
			tm_keys x
			finished
			;;
		open) # the history view's enter: a kept run becomes the session on screen
			tm_keys x
			finished
			tm_keys R
			wait_or_log 'runs kept: [0-9]+' 50 "the runs view"
			if tm_screen | grep -q 'runs kept: 0'; then
				tm_keys Escape
			else
				tm_keys Enter
				wait_or_log 'opened .*[.]json' 50 "the opened run"
			fi
			;;
		s) key_s ;;
		o) key_o ;;
		wait) finished ;;
		q) # a second q where the first only warned (a run that could not be kept)
			tm_keys q
			tm_wait_exit 50 || tm_keys q
			tm_wait_exit 200 || diag "  (q: still running after 25 s)"
			;;
		esac
	done
}

# check_files DIR: every file scaletop wrote in DIR loads in show, compare and the runs view.
check_files() {
	_d=$1
	_n=0
	mkdir -p "$_d/all/scaletop/runs"
	for _f in "$_d"/*.json "$_d"/data/scaletop/runs/*.json "$_d"/rec.jsonl; do
		[ -f "$_f" ] || continue
		_n=$((_n + 1))
		_b=$(basename "$_f")
		cp "$_f" "$_d/all/scaletop/runs/$_n-${_b%.*}.json"
		"$ST" show "$_f" >"$_d/show.out" 2>"$_d/show.err"
		_st=$?
		tap_result "$_st" "show reads $_b"
		[ "$_st" -eq 0 ] || diag "$(cat "$_d/show.err")"
		if grep -q 'named a step' "$_d/show.err"; then
			tap_result 1 "$_b holds only its own ticks and events"
			diag "$(cat "$_d/show.err")"
		fi
		"$ST" compare "$_f" "$_f" >"$_d/cmp.out" 2>"$_d/cmp.err"
		_st=$?
		tap_result "$_st" "compare reads $_b"
		[ "$_st" -eq 0 ] || diag "$(cat "$_d/cmp.err")"
	done
	XDG_DATA_HOME="$_d/all" "$ST" runs >"$_d/runs.out" 2>&1
	is "$?" 0 "the runs view lists the case's $_n files"
	is "$(grep -c 'cannot read' "$_d/runs.out")" 0 "and reads every one"
	grep 'cannot read' "$_d/runs.out" | while read -r _l; do diag "$_l"; done
	is "$(grep -c '^  /' "$_d/runs.out")" "$_n" "each a row with its file"
}

# run_case K KEY...: a TUI at 120x40 with -o and --record, the keys, then its files.
run_case() {
	_c=$1
	shift
	diag "case $_c: keys: $*"
	mkdir -p "$T/case$_c"
	cd "$T/case$_c" || bail_out "cannot cd to $T/case$_c"
	TM_DATA="$T/case$_c/data"
	tm_start 120 40 "$ST" $FAST -n 1,2,4 -o atquit.json --record rec.jsonl
	started
	play "$@"
	[ "$(tm_dead)" = 1 ] || play q
	is "$(tm_status)" 0 "case $_c: q exits 0"
	check_files "$T/case$_c"
	cd "$T" || exit 1
}

# --- issue 21: a sweep after a shorter N list ---------------------------------
run_case 0 wait n:1,2 wait s q
is "$(json_get "$T/case0/atquit.json" '[s["n"] for s in d["steps"]]')" "[1, 2]" \
	"-o holds the sweep at q, N=1,2"
is "$(json_get "$T/case0/atquit.json" \
	'sorted(set(t[1] for t in d["series"]["ticks"] if t[1] is not None))')" "[0, 1]" \
	"and ticks of its own two steps only"
is "$(ls "$T/case0/data/scaletop/runs" | grep -c '[.]json$')" 2 "both sweeps were kept"

# --- s in a replay, at a moment mid-step ---------------------------------------
# The steps finished by then are saved; the ticks and events of the step under
# way named a step the file did not hold, and show refused the file.
mkdir -p "$T/replay"
cd "$T/replay" || exit 1
"$ST" run -w cpu -n 1,2 -d 2.5 --warmup 0.2 --interval 0.25 -q --record rec.jsonl >/dev/null 2>&1
is "$?" 0 "a recording of two steps"
TM_DATA="$T/replay/data"
tm_start 120 40 "$ST" replay rec.jsonl
ok "the replay plays" tm_wait_for 'replaying rec[.]jsonl|paused at rec' 100
i=0
while [ "$i" -lt 5 ] && ! tm_screen | grep -q 'paused at rec'; do
	tm_keys Space # space toggles: pressed again only once the screen shows it did not pause
	tm_wait_for 'paused at rec' 20
	i=$((i + 1))
done
ok "space pauses it" tm_wait_for 'paused at rec' 10
tm_keys g
i=0
while [ "$i" -lt 40 ] && ! tm_screen | grep -q 'step 2/2 N=2 measuring'; do
	tm_keys Right
	sleep 0.1
	i=$((i + 1))
done
ok "the replay is at its second step's window" tm_wait_for 'step 2/2 N=2 measuring' 10
tm_keys s
ok "s offers the step finished by then" tm_wait_for "save the replay's 1 step" 30
tm_keys C-u "$T/replay/mid.json" Enter
ok "and saves it" tm_wait_for 'saved .*mid[.]json: 1 step' 30
play q
is "$(json_get "$T/replay/mid.json" '[s["n"] for s in d["steps"]]')" "[1]" "the file holds N=1"
is "$(json_get "$T/replay/mid.json" \
	'sum(1 for t in d["series"]["ticks"] if t[1] is None and t[2] == "measuring") > 0')" \
	"True" "and the ticks of N=2's window, as no step's"
check_files "$T/replay"
cd "$T" || exit 1

# --- the history view reads a file the old TUI wrote, and says it was repaired --------
mkdir -p "$T/stale/scaletop/runs"
cp "$FX/stale-ticks.json" "$T/stale/scaletop/runs/scaletop-cpu-vm-20261201-224424.json"
TM_DATA="$T/stale"
tm_start 120 40 "$ST" --monitor --refresh 0.2
wait_or_log 'refresh 0.2s' 50 "the monitor"
tm_keys R
ok "R lists the old TUI's file" tm_wait_for 'runs kept: 1' 50
ok "  read, with its steps and a mark" tm_wait_for ' 1-2 +2  [(]read with a warning[)] ' 50
tm_keys Enter
ok "  and enter opens it" tm_wait_for 'sweep done: 2 steps' 50
play q
cd "$T" || exit 1

# --- random key sequences -------------------------------------------------------
# One line of keys per case: 4 to 7 keys from the alphabet, q last.
awk -v seed="$SEED" -v cases="$CASES" 'BEGIN {
	srand(seed)
	split("n n r w x sp s s o wait wait live open", keys, " ")
	split("1 1,2 1,2,4 2,3 1-3 4", lists, " ")
	for (c = 1; c <= cases; c++) {
		line = ""
		len = 4 + int(rand() * 4)
		for (i = 0; i < len; i++) {
			k = keys[1 + int(rand() * 13)]
			if (k == "n")
				k = "n:" lists[1 + int(rand() * 6)]
			line = line " " k
		}
		if (rand() < 0.5)
			line = line " wait s"
		print line " q"
	}
}' >"$T/cases"
c=0
while read -r keys; do
	c=$((c + 1))
	# shellcheck disable=SC2086 # the keys are words
	run_case "$c" $keys </dev/null
done <"$T/cases"

done_testing
