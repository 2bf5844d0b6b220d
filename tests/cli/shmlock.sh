# SPDX-License-Identifier: BSD-2-Clause
# Locks shared by processes, on a C program this test builds (PIE and not,
# stripped and not): N processes take one PTHREAD_PROCESS_SHARED mutex and
# sleep 2 ms inside it, the holder announcing its PID.
#  - shm: a shm_open object, each child exec'd, so each maps it at its own
#    address; anon: MAP_SHARED|MAP_ANONYMOUS before fork, one address;
#  - as --cmd and as --target comm:NAME, the census shows one lock, shared,
#    waited on by the N processes, held by an announced PID;
#  - private: each process's own .bss mutex, at one address in every
#    process, stays one lock a process.
# A command's lock is named by its waiters' call site while they wait, since its
# processes are gone when the window ends.
# Each case is tried again while it does not hold, at most 3 times, each try logged.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
CC=${CC:-cc}
need "$CC" gcc
tap_tmpdir
T=$TAP_TMP

if ! cat /proc/self/syscall >/dev/null 2>&1; then
	skip "this kernel or user cannot read /proc/PID/syscall (no lock census)" "shared locks"
	done_testing
fi

cat >"$T/shmlock.c" <<'CEOF'
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;
struct shared {
	pthread_mutex_t m;
	volatile unsigned long ops;
	volatile int stop;
};
pthread_mutex_t private_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *announce;

static void nap(long us)
{
	struct timespec t = { us / 1000000, (us % 1000000) * 1000L };
	nanosleep(&t, NULL);
}

/* Takes m and sleeps 2 ms in it, again and again, saying who held it. */
__attribute__((noinline)) static void shared_work(struct shared *s, pthread_mutex_t *m)
{
	while (!s->stop) {
		pthread_mutex_lock(m);
		fprintf(announce, "holder %d\n", (int)getpid());
		fflush(announce);
		nap(2000);
		pthread_mutex_unlock(m);
		__atomic_add_fetch(&s->ops, 1, __ATOMIC_RELAXED);
		nap(20);
	}
}

static struct shared *map_object(const char *name, int create)
{
	int fd = shm_open(name, create ? O_CREAT | O_EXCL | O_RDWR : O_RDWR, 0600);
	struct shared *s;

	if (fd < 0 || (create && ftruncate(fd, 4096) != 0))
		exit(3);
	s = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (s == MAP_FAILED)
		exit(3);
	return s;
}

static void *private_thread(void *arg)
{
	shared_work(arg, &private_lock);
	return NULL;
}

/* private: two threads of this process on its own .bss mutex (s is private memory here). */
static void private_child(struct shared *s)
{
	pthread_t t;

	pthread_create(&t, NULL, private_thread, s);
	shared_work(s, &private_lock);
}

/* shmlock shm|anon|private N SECONDS ANNOUNCE; a child: shmlock child NAME ANNOUNCE */
int main(int argc, char **argv)
{
	char name[64], self[4096];
	struct shared *s, *counter;
	pthread_mutexattr_t a;
	unsigned long last = 0;
	pid_t *kid;
	double secs;
	ssize_t sl;
	int n, i, t;

	if (argc == 4 && strcmp(argv[1], "child") == 0) {
		if ((announce = fopen(argv[3], "a")) == NULL)
			return 2;
		s = map_object(argv[2], 0);
		shared_work(s, &s->m);
		return 0;
	}
	if (argc != 5 || (n = atoi(argv[2])) < 1 || (secs = atof(argv[3])) <= 0 ||
	    (announce = fopen(argv[4], "a")) == NULL)
		return 2;
	snprintf(name, sizeof name, "/scaletop-shmlock.%d", (int)getpid());
	if (strcmp(argv[1], "shm") == 0)
		s = map_object(name, 1);
	else
		s = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	if (s == MAP_FAILED || pthread_mutex_init(&s->m, &a) != 0 ||
	    (kid = calloc(n, sizeof *kid)) == NULL ||
	    (sl = readlink("/proc/self/exe", self, sizeof self - 1)) < 0)
		return 1;
	self[sl] = '\0';
	counter = s;
	for (i = 0; i < n; i++) {
		char *av[] = { self, "child", name, argv[4], NULL };

		if (strcmp(argv[1], "shm") == 0) {
			if (posix_spawn(&kid[i], self, NULL, NULL, av, environ) != 0)
				return 1;
		} else if ((kid[i] = fork()) == 0) {
			if (strcmp(argv[1], "private") == 0)
				private_child(s);
			else
				shared_work(s, &s->m);
			_exit(0);
		}
	}
	for (t = 0; t < secs * 4; t++) {
		nap(250000);
		printf("rate: %lu\n", counter->ops - last + 1);
		fflush(stdout);
		last = counter->ops;
	}
	s->stop = 1;
	for (i = 0; i < n; i++) {
		if (strcmp(argv[1], "private") == 0)
			kill(kid[i], SIGTERM);
		waitpid(kid[i], NULL, 0);
	}
	if (strcmp(argv[1], "shm") == 0)
		shm_unlink(name);
	return 0;
}
CEOF
"$CC" -O2 -g -pthread -o "$T/shmlock" "$T/shmlock.c" 2>"$T/cc.err" &&
	"$CC" -O2 -no-pie -fno-pie -pthread -o "$T/shmlock-nopie" "$T/shmlock.c" 2>>"$T/cc.err" &&
	strip "$T/shmlock-nopie" 2>>"$T/cc.err" ||
	bail_out "$CC cannot build the test's program: $(head -n 3 "$T/cc.err")"
trap 'pkill -KILL -f "$T/[s][ht][ml]lock" 2>/dev/null; rm -rf "$TAP_TMP"' EXIT

# announced FILE: the PIDs that announced they held the lock, one a line, each once.
announced() {
	sed -n 's/^holder \([0-9][0-9]*\)$/\1/p' "$1" | sort -u
}

# verdict_of JSON FAMILY N ANNOUNCE: "ok" when the family's top mutex is one shared lock
# waited on by N processes and held by an announced PID of its own process; else what it saw.
verdict_of() {
	"$PYTHON" - "$@" <<'EOF'
import json, sys
path, fam, n, ann = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
try:
    d = json.load(open(path))
    holders = {int(l.split()[1]) for l in open(ann) if l.startswith("holder ")}
except (OSError, ValueError) as e:
    print("unreadable: %s" % e); sys.exit()
locks = [x for s in d["steps"] for x in s.get("locks", {}).get("top", [])
         if x["family"] == fam and x["kind"] == "mutex" and not x["idle"]]
if not locks:
    print("no mutex in the %s's census" % fam); sys.exit()
top = locks[0]
seen = "%s: shared %s, %d processes, %d threads, owner %s of %s (%s), %d mutexes" % (
    top["name"], top.get("shared"), top.get("processes", 1), top["threads"], top["owner"],
    top.get("owner_pid"), top["owner_why"], len(locks))
if not top.get("shared") or top.get("processes") != n or len(locks) != 1:
    print("not one shared lock of %d processes: %s" % (n, seen))
elif top["owner"] is None or top["owner"] not in holders or top["owner_pid"] != top["owner"]:
    print("no announced holder (%s): %s" % (sorted(holders)[:8], seen))
else:
    print("ok " + seen)
EOF
}

# sweep_cmd MODE BINARY: a sweep of 3 processes as --cmd into $T/MODE.json
sweep_cmd() {
	rm -f "$T/$1.ann"
	"$SCALETOP" run --cmd "$2 $1 {n} {duration} $T/$1.ann" --parse-regex 'rate: ([0-9]+)' \
		-n 3 -d 3 --warmup 0.5 -q -o "$T/$1.json" --force >"$T/$1.out" 2>"$T/$1.err"
}

for c in "shm $T/shmlock" "anon $T/shmlock-nopie"; do
	mode=${c%% *}
	bin=${c#* }
	try=0
	got=
	while [ $try -lt 3 ] && [ "${got%% *}" != ok ]; do
		try=$((try + 1))
		sweep_cmd "$mode" "$bin"
		got=$(verdict_of "$T/$mode.json" workload 3 "$T/$mode.ann")
		diag "$mode, try $try: exit $?; $got"
	done
	is "${got%% *}" ok "--cmd $mode ($(basename "$bin")): one shared lock of the 3 processes, held by an announced one (in at most 3 tries)"
done
# named while its waiters waited: the command's processes are gone when the window ends
like "$(cat "$T/shm.out")" ' workload +[0-9.]+% shared_work \(shared memory\) \(shmlock\) mutex, [0-9]+ waiters? at once, 3 threads in 3 processes \(shared\), at [^,]+, held by ([0-9]+) of process \1' \
	"--cmd shm: run's locks: line names its call site and process, its processes and its holder's"

# --- private .bss mutexes, one a process, at one address in each ------------------------
try=0
got=
while [ $try -lt 3 ] && [ "$got" != "2 2" ] && [ "$got" != "3 3" ]; do
	try=$((try + 1))
	sweep_cmd private "$T/shmlock"
	got=$(json_get "$T/private.json" '"%d %d" % (len([x for s in d["steps"] for x in s.get("locks", {}).get("top", []) if x["family"] == "workload" and x["name"].endswith("private_lock") and not x.get("shared") and x.get("processes", 1) == 1]), len({x["pid"] for s in d["steps"] for x in s.get("locks", {}).get("top", []) if x["name"].endswith("private_lock")}))' 2>/dev/null)
	diag "private, try $try: (private_lock entries not shared, their processes): ${got:-none}; $(json_get "$T/private.json" '[(x["name"], x["pid"], x.get("shared"), x["threads"]) for s in d["steps"] for x in s.get("locks", {}).get("top", [])]' 2>/dev/null)"
done
# 3 processes; the top 5 a family are kept, and a process whose two threads never met in a
# reading may be missing: at least 2 distinct, each its own.
ok "private: each process's own .bss mutex is a lock of its own, not shared (in at most 3 tries)" \
	test "$got" = "2 2" -o "$got" = "3 3"

# --- --target comm:NAME ------------------------------------------------------------------
# target_sweep: 3 processes of the program run for 60 s beside a cpu sweep that targets them
# by name, into $T/target.json; they are stopped after.
target_sweep() {
	rm -f "$T/target.ann"
	cp "$T/shmlock" "$T/stlock"
	"$T/stlock" shm 3 60 "$T/target.ann" >/dev/null &
	tpid=$!
	wait_for_lines "$T/target.ann" 3 || diag "target: the lock was not taken 3 times in 10 s"
	"$SCALETOP" run -w cpu -n 1 -d 3 --warmup 0.5 -q --target comm:stlock \
		-o "$T/target.json" --force >"$T/target.out" 2>"$T/target.err"
	trc=$?
	kill "$tpid" 2>/dev/null
	wait "$tpid" 2>/dev/null
	pkill -KILL -f "$T/stlock" 2>/dev/null
	return $trc
}
try=0
got=
while [ $try -lt 3 ] && [ "${got%% *}" != ok ]; do
	try=$((try + 1))
	target_sweep
	got=$(verdict_of "$T/target.json" target 3 "$T/target.ann")
	diag "target, try $try: exit $trc; $got"
done
is "${got%% *}" ok "--target comm:stlock: one shared lock of its 3 processes, held by an announced one (in at most 3 tries)"
like "$(json_get "$T/target.json" '[x["name"] for s in d["steps"] for x in s.get("locks", {}).get("top", []) if x["family"] == "target"][0]' 2>/dev/null)" \
	'^shared_work \(shared memory\)$' "--target: named by the function its waiters wait in"
"$SCALETOP" show "$T/target.json" >"$T/target.show" 2>&1
like "$(cat "$T/target.show")" ' target +[0-9.]+% shared_work \(shared memory\) \(stlock\) mutex, .* in 3 processes \(shared\)' \
	"show: the shared lock, its processes"
ok "no test program is left running" no_own_procs "$T" 'shmlock|stlock'
done_testing
