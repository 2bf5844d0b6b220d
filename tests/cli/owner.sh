# SPDX-License-Identifier: BSD-2-Clause
# The lock census's owner and names, on a C program this test builds: a holder
# thread takes a lock, announces its TID (gettid, into a file) and sleeps 2 s
# inside it, again and again, while 3 threads wait for it.
#  - as --cmd and as --target pid:N: the census's owner of that mutex is the
#    announced TID (a TID not of the process, a dead word or a stale owner
#    is never given: lock_census.h);
#  - a process-shared mutex in MAP_SHARED memory (--target): named first by
#    the function its waiters wait in, shared_wait, then "(shared memory)",
#    with its mapping kept apart;
#  - a condition-variable pool (--target): 6 workers wait for tasks that
#    never come beside the held mutex's 3 waiters: the condvar is an idle
#    wait, kept after the mutex, which tops the lock list.
# Each case is tried again while the census saw no waiter of that lock, or
# its owner was not the holder (a waiter that took the lock in the holder's
# 20 ms away, preempted there on a busy machine, is as real an owner), at
# most 3 times, each try logged.  Where the machine cannot read /proc/PID/task/TID/syscall
# there is no census: the test says so and stops.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
CC=${CC:-cc}
need "$CC" gcc
tap_tmpdir
T=$TAP_TMP

if ! cat /proc/self/syscall >/dev/null 2>&1; then
	skip "this kernel or user cannot read /proc/PID/syscall (no lock census)" "the census's owner"
	done_testing
fi

cat >"$T/owner.c" <<'CEOF'
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t tasks_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t tasks_cond = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t *lock = &held_lock;
static volatile unsigned long ops;
static FILE *announce;
static int tasks;

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static void *holder(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_mutex_lock(lock);
		fprintf(announce, "holder %ld\n", (long)syscall(SYS_gettid));
		fflush(announce);
		nap(2000);
		pthread_mutex_unlock(lock);
		nap(20);
	}
	return NULL;
}

__attribute__((noinline)) void *shared_wait(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_mutex_lock(lock);
		ops++;
		pthread_mutex_unlock(lock);
		nap(1);
	}
	return NULL;
}

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&tasks_lock);
	for (;;) {
		while (tasks == 0)
			pthread_cond_wait(&tasks_cond, &tasks_lock);
		tasks--;
	}
	return NULL;
}

static pthread_mutex_t *shared_mutex(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED || pthread_mutexattr_init(&a) != 0 ||
	    pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED) != 0 ||
	    pthread_mutex_init(m, &a) != 0)
		return NULL;
	return m;
}

/* owner global|shared|pool SECONDS ANNOUNCE-FILE */
int main(int argc, char **argv)
{
	unsigned long last = 0, now;
	pthread_t t;
	double secs;
	int i, ticks;

	if (argc != 4 || (secs = atof(argv[2])) <= 0 || (announce = fopen(argv[3], "a")) == NULL)
		return 2;
	if (strcmp(argv[1], "shared") == 0 && (lock = shared_mutex()) == NULL)
		return 1;
	pthread_create(&t, NULL, holder, NULL);
	nap(50);
	for (i = 0; i < 3; i++)
		pthread_create(&t, NULL, shared_wait, NULL);
	for (i = 0; strcmp(argv[1], "pool") == 0 && i < 6; i++)
		pthread_create(&t, NULL, worker, NULL);
	for (ticks = 0; ticks < secs * 4; ticks++) {
		nap(250);
		now = ops;
		printf("rate: %lu\n", now - last + 1);
		fflush(stdout);
		last = now;
	}
	return 0;
}
CEOF
"$CC" -O2 -g -pthread -o "$T/owner" "$T/owner.c" 2>"$T/cc.err" ||
	bail_out "$CC cannot build the test's program: $(head -n 3 "$T/cc.err")"

# announced FILE: the TIDs the holder announced, one a line, each once.
announced() {
	sed -n 's/^holder \([0-9][0-9]*\)$/\1/p' "$1" | sort -u
}

# mutex_of JSON FAMILY: the family's first mutex lock as "owner owner_why name", or nothing.
mutex_of() {
	json_get "$1" '" ".join(str(v) for v in ([(x["owner"], x["owner_why"], x["name"]) for s in d["steps"] for x in s.get("locks", {}).get("top", []) if x["family"] == "'"$2"'" and x["kind"] == "mutex"][:1] or [()])[0])'
}

# held_by GOT ANNOUNCE-FILE: succeeds when GOT (mutex_of's) names the one TID announced.
held_by() {
	[ -n "$1" ] && [ "${1%% *}" = "$(announced "$2")" ]
}

# --- --cmd: the workload's lock -------------------------------------------------------
try=0
got=
while [ $try -lt 3 ] && ! held_by "$got" "$T/cmd.ann"; do
	try=$((try + 1))
	rm -f "$T/cmd.ann"
	"$SCALETOP" run --cmd "$T/owner global {duration} $T/cmd.ann" --parse-regex 'rate: ([0-9]+)' \
		-n 1 -d 3 --warmup 0.5 -q -o "$T/cmd.json" --force >"$T/cmd.out" 2>"$T/cmd.err"
	crc=$?
	got=$(mutex_of "$T/cmd.json" workload 2>/dev/null)
	diag "try $try: exit $crc; announced $(announced "$T/cmd.ann" | tr '\n' ' '); the census's mutex (owner, why not, name): ${got:-none}"
done
ok "--cmd: the census saw the held mutex (in at most 3 tries)" test -n "$got"
is "$(announced "$T/cmd.ann" | wc -l | tr -d ' ')" 1 "--cmd: one holder thread announced its TID"
is "${got%% *}" "$(announced "$T/cmd.ann")" "--cmd: the census's owner is the announced TID"

# --- --target pid:N ---------------------------------------------------------------------
# target MODE: runs the program in MODE for 60 s as --target pid:N of a cpu run, into
# $T/MODE.json and $T/MODE.ann; the program is stopped after.
target() {
	rm -f "$T/$1.ann"
	"$T/owner" "$1" 60 "$T/$1.ann" >/dev/null &
	tpid=$!
	wait_for_lines "$T/$1.ann" 1 || diag "$1: no holder announced itself in 10 s"
	"$SCALETOP" run -w cpu -n 1 -d 3 --warmup 0.5 -q --target "pid:$tpid" -o "$T/$1.json" \
		--force >"$T/$1.out" 2>"$T/$1.err"
	trc=$?
	kill "$tpid" 2>/dev/null
	wait "$tpid" 2>/dev/null
	return $trc
}

try=0
got=
while [ $try -lt 3 ] && ! held_by "$got" "$T/global.ann"; do
	try=$((try + 1))
	target global
	got=$(mutex_of "$T/global.json" target 2>/dev/null)
	diag "try $try: exit $trc; announced $(announced "$T/global.ann" | tr '\n' ' '); the census's mutex (owner, why not, name): ${got:-none}"
done
ok "--target: the census saw the held mutex (in at most 3 tries)" test -n "$got"
is "${got%% *}" "$(announced "$T/global.ann")" "--target: the census's owner is the announced TID"

# --- a mutex in MAP_SHARED memory ---------------------------------------------------------
try=0
got=
while [ $try -lt 3 ] && ! held_by "$got" "$T/shared.ann"; do
	try=$((try + 1))
	target shared
	got=$(mutex_of "$T/shared.json" target 2>/dev/null)
	diag "try $try: exit $trc; announced $(announced "$T/shared.ann" | tr '\n' ' '); the census's mutex (owner, why not, name): ${got:-none}"
done
ok "shared: the census saw the shared mutex (in at most 3 tries)" test -n "$got"
is "${got%% *}" "$(announced "$T/shared.ann")" "shared: its owner is the announced TID"
name=$(json_get "$T/shared.json" '[x["name"] for s in d["steps"] for x in s.get("locks", {}).get("top", []) if x["kind"] == "mutex"][0]' 2>/dev/null)
is "$name" 'shared_wait (shared memory)' \
	"shared: named first by the function its waiters wait in, then shared memory"
is "$(json_get "$T/shared.json" '[x["mapping"] is not None and x["how"] for s in d["steps"] for x in s.get("locks", {}).get("top", []) if x["kind"] == "mutex"][0]' 2>/dev/null)" \
	"stack scan" "shared: its mapping kept apart, named by a stack scan"
like "$(cat "$T/shared.out")" ' target +[0-9.]+% shared_wait \(shared memory\) \(owner\) mutex, .*, at [^,]+, held by [0-9]+' \
	"shared: run's locks: section names it, where it lies and its holder"

# --- a condition-variable pool beside a held mutex -------------------------------------------
try=0
got=
while [ $try -lt 3 ] && { [ -z "$got" ] || ! held_by "$(mutex_of "$T/pool.json" target)" "$T/pool.ann"; }; do
	try=$((try + 1))
	target pool
	# both seen: the held mutex and an idle wait
	got=$(json_get "$T/pool.json" '"yes" if any(x["idle"] for s in d["steps"] for x in s.get("locks", {}).get("top", [])) and any(x["kind"] == "mutex" for s in d["steps"] for x in s.get("locks", {}).get("top", [])) else ""' 2>/dev/null)
	diag "try $try: exit $trc; the target's locks (name, kind, share, idle, owner): $(json_get "$T/pool.json" '[(x["name"], x["kind"], round(x["share"], 3), x["idle"], x["owner"]) for s in d["steps"] for x in s.get("locks", {}).get("top", [])]' 2>/dev/null)"
done
ok "pool: the census saw the held mutex and an idle wait (in at most 3 tries)" test -n "$got"
is "$(json_get "$T/pool.json" '[(x["kind"], x["idle"]) for s in d["steps"] for x in s.get("locks", {}).get("top", []) if x["family"] == "target"][0]' 2>/dev/null)" \
	"('mutex', False)" "pool: the held mutex tops the lock list, not the idle condvar"
is "$(json_get "$T/pool.json" '[(x["kind"], x["owner"], x["owner_why"]) for s in d["steps"] for x in s.get("locks", {}).get("top", []) if x["idle"]][0]' 2>/dev/null)" \
	"('bitset', None, 'not a mutex')" "pool: the idle wait is the condvar's bitset wait, with no owner, saying why"
is "$(mutex_of "$T/pool.json" target | cut -d' ' -f1)" "$(announced "$T/pool.ann")" \
	"pool: the mutex's owner is the announced TID"
"$SCALETOP" show "$T/pool.json" >"$T/pool.show" 2>&1
like "$(cat "$T/pool.show")" ' target +[0-9.]+% idle wait: .* bitset, ' \
	"pool: show lists the idle wait apart, marked so"
done_testing
