# What the TUI says is what happened (issue 21, section 4): the header of a
# paused or stopped sweep, the summary at q, and what the panels show at
# 80x24 and other sizes.  Each check waits on the screen's content, never on
# how long something takes.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"

# header_field REGEX: the first match of REGEX (grep -E -o) on the header's second line.
header_field() {
	tm_screen | sed -n 2p | grep -Eo -- "$1" | head -n 1
}

# field_moves REGEX WAS [TENTHS]: waits until the header's REGEX reads other than WAS.
field_moves() {
	_i=0
	while [ "$_i" -lt "${3:-300}" ]; do
		[ "$(header_field "$1")" != "$2" ] && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# --- space: a paused step's clock stands still --------------------------------------
tm_start 120 40 "$ST" -w cpu -n 2 -d 29.5 --warmup 0.2 --refresh 0.2
tm_wait_for 'step 1/1 N=2 measuring' 100
tm_keys ' '
ok "space pauses the sweep" tm_wait_for 'PAUSED' 20
ok "the header says the step is paused, not measuring" \
	tm_wait_for 'step 1/1 N=2 paused after measuring [0-9.]+s' 20
held=$(header_field 'N=2 [a-z -]+ [0-9.]+s')
el=$(header_field 'elapsed [0-9:]+')
# The session's clock goes on (elapsed), twice, while the step's stands still.
ok "the session's clock goes on while paused" field_moves 'elapsed [0-9:]+' "$el"
el=$(header_field 'elapsed [0-9:]+')
field_moves 'elapsed [0-9:]+' "$el"
is "$(header_field 'N=2 [a-z -]+ [0-9.]+s')" "$held" \
	"the paused step's seconds do not count on"
tm_keys ' '
ok "space resumes: the step warms up and measures again" \
	tm_wait_for 'step 1/1 N=2 (warm-up|measuring) [0-9.]+s' 50
tm_keys q
tm_wait_exit 100

done_testing
