# A blocked thread's syscall beside its wait channel (issue 24): a channel
# names a kernel function many calls share, so a thread blocked anywhere but
# in a futex has its /proc/TID/task/TID/syscall read with its wchan, and its
# channel reads "unix_stream_read_generic (recvfrom)"; a futex waiter's stays
# plain (its call is the lock census's).  The unixsock workload's threads
# block reading a socket by construction; up to three tries, each logged,
# since a short step on a busy machine may read none of them blocked.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is needed to read JSON"
tap_tmpdir
T=$TAP_TMP

if ! cat /proc/self/syscall >/dev/null 2>&1; then
	skip "this kernel or user cannot read /proc/PID/syscall" "a socket reader's channel names its call"
	done_testing
fi
try=0
got=
while [ $try -lt 3 ] && [ "$got" != "True" ]; do
	try=$((try + 1))
	"$SCALETOP" run -w unixsock -n 2 -d 1 --warmup 0.3 -q -o "$T/u.json" --force \
		>"$T/u.out" 2>"$T/u.err" || break
	got=$(json_get "$T/u.json" 'any(__import__("re").match(r"^unix_stream_\w+ \((recvfrom|recvmsg|read|sendto|sendmsg|write)\)$", w["channel"] or "") for s in d["steps"] for w in s["waits"] if w["family"] == "workload")')
	diag "try $try: $(json_get "$T/u.json" '[(w["state"], w["channel"], round(w["share"], 3)) for s in d["steps"] for w in s["waits"]]')"
done
is "$got" "True" "a socket reader's channel names its call: unix_stream_... (recvfrom)"
is "$(json_get "$T/u.json" 'all(not __import__("re").search(r"\(futex\)", w["channel"] or "") for s in d["steps"] for w in s["waits"])')" \
	"True" "no channel names the futex call: a futex waiter's call is the census's"

"$SCALETOP" run -w mutex -n 4 -p hold=20000 -d 1 --warmup 0.3 -q -o "$T/m.json" --force \
	>"$T/m.out" 2>"$T/m.err"
is "$?" 0 "a mutex sweep runs"
is "$(json_get "$T/m.json" 'all(not (w["channel"] or "").startswith("futex_") or " (" not in w["channel"] for s in d["steps"] for w in s["waits"])')" \
	"True" "its futex waiters' channels stay plain"
done_testing
