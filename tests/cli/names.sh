# SPDX-License-Identifier: BSD-2-Clause
# Every user frame and lock named, whatever started the program: small C
# programs built here with the C compiler, each run as the sweep's --cmd
# (whose process has often exited when its window is named) and watched as
# a --target (a copy started by the test, by pid:N or comm:NAME).
#  - hot: heavy_work takes about 3/4 of the CPU and light_work 1/4; the hot
#    paths name both, heavy_work above light_work;
#  - locks: 6 threads contend for the global mutex lock_a and 2 for lock_b
#    (.bss), 3 for lock_s, a shared library's; built PIE, non-PIE, stripped
#    with a .gnu_debuglink file beside it, and stripped with its debug file
#    found by build ID under SCALETOP_DEBUG_DIR.  The census names all three
#    (prog:lock_a, prog:lock_b, libx.so:lock_s), lock_a's share above lock_b's;
#  - the same hot program built as C++ (its functions' names mangled,
#    _ZL10heavy_workv): named as perf names them, heavy_work, when the build
#    has a demangler (configure's HAVE_LIBIBERTY);
#  - a stripped program with no debug file: its frames are offsets, and one
#    event says why.
# Live figures: each case is tried at most 3 times, each try logged.  The
# hot paths need perf_event_open (root, or perf_event_paranoid <= 1): without
# it their checks are skipped, saying so; the lock census needs no permission.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
CC=${CC:-cc}
CXX=${CXX:-c++}

if ! command -v "$CC" >/dev/null 2>&1; then
	skip "no C compiler ($CC) to build the programs" "programs named"
	done_testing
fi
for tool in objcopy strip readelf; do
	command -v "$tool" >/dev/null 2>&1 || bail_out "$tool is missing: install binutils"
done
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 3)
can_sample=1
[ "$(id -u)" -ne 0 ] && [ "$paranoid" -gt 1 ] && can_sample=0

cat >"$T/hot.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static volatile unsigned long sink;
static unsigned long ops[64];
__attribute__((noinline)) static void heavy_work(void)
{
	unsigned long i, x = sink;
	for (i = 0; i < 300000; i++)
		x = x * 2862933555777941757UL + i;
	sink = x;
}
__attribute__((noinline)) static void light_work(void)
{
	unsigned long i, x = sink;
	for (i = 0; i < 100000; i++)
		x = x * 3202034522624059733UL + i;
	sink = x;
}
static void *worker(void *a)
{
	for (;;) {
		heavy_work();
		light_work();
		__atomic_add_fetch((unsigned long *)a, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1, i;
	double d = argc > 2 ? atof(argv[2]) : 1, t0 = now();
	unsigned long last = 0, sum;
	struct timespec q = { 0, 250000000 };
	pthread_t th;
	if (n < 1 || n > 64)
		n = 1;
	for (i = 0; i < n; i++)
		pthread_create(&th, NULL, worker, &ops[i]);
	while (now() - t0 < d) {
		nanosleep(&q, NULL);
		for (sum = 0, i = 0; i < n; i++)
			sum += __atomic_load_n(&ops[i], __ATOMIC_RELAXED);
		printf("ops/s: %lu\n", (sum - last) * 4);
		fflush(stdout);
		last = sum;
	}
	return 0;
}
EOF
# Each holder sleeps with its lock held, so the waiters wait in futex whatever the load.
cat >"$T/locks.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
void x_work(void (*hold)(void));
static unsigned long ops;
static void hold(void)
{
	struct timespec q = { 0, 500000 };
	nanosleep(&q, NULL);
	__atomic_add_fetch(&ops, 1, __ATOMIC_RELAXED);
}
static void *worker(void *a)
{
	for (;;) {
		if (a == NULL) {
			x_work(hold);
			continue;
		}
		pthread_mutex_lock(a);
		hold();
		pthread_mutex_unlock(a);
	}
	return NULL;
}
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
int main(int argc, char **argv)
{
	double d = argc > 2 ? atof(argv[2]) : 1, t0 = now();
	unsigned long last = 0, sum;
	struct timespec q = { 0, 250000000 };
	pthread_t th;
	int i;
	for (i = 0; i < 6; i++)
		pthread_create(&th, NULL, worker, &lock_a);
	for (i = 0; i < 2; i++)
		pthread_create(&th, NULL, worker, &lock_b);
	for (i = 0; i < 3; i++)
		pthread_create(&th, NULL, worker, NULL);
	while (now() - t0 < d) {
		nanosleep(&q, NULL);
		sum = __atomic_load_n(&ops, __ATOMIC_RELAXED);
		printf("ops/s: %lu\n", (sum - last) * 4);
		fflush(stdout);
		last = sum;
	}
	return 0;
}
EOF
# The library takes its own lock, so lock_s stays in its .bss (no copy into the program's).
cat >"$T/libx.c" <<'EOF'
#include <pthread.h>
pthread_mutex_t lock_s = PTHREAD_MUTEX_INITIALIZER;
void x_work(void (*hold)(void))
{
	pthread_mutex_lock(&lock_s);
	hold();
	pthread_mutex_unlock(&lock_s);
}
EOF

# keep_debug PROG: PROG stripped, its symbols in PROG.debug (kept for a debuglink or moved).
keep_debug() {
	objcopy --only-keep-debug "$1" "$1.debug" && strip "$1"
}

(
	cd "$T" || exit 1
	mkdir -p nodebug debug &&
		"$CC" -O2 -g -pthread -o hotprog hot.c &&
		cp hotprog hotstrip && strip hotstrip &&
		"$CC" -O2 -g -shared -fPIC -o libx.so libx.c &&
		"$CC" -O2 -g -pthread -o lkpie locks.c -L. -lx -Wl,-rpath,"$T" &&
		"$CC" -O2 -g -pthread -fno-pie -no-pie -o lknopie locks.c -L. -lx -Wl,-rpath,"$T" &&
		cp lkpie lkdlink && keep_debug lkdlink &&
		objcopy --add-gnu-debuglink=lkdlink.debug lkdlink &&
		cp lkpie lkbid && keep_debug lkbid &&
		id=$(readelf -n lkbid | awk '/Build ID:/ { print $3 }') && [ -n "$id" ] &&
		mkdir -p "debug/.build-id/${id%"${id#??}"}" &&
		mv lkbid.debug "debug/.build-id/${id%"${id#??}"}/${id#??}.debug"
) >"$T/build.log" 2>&1
ok "the programs were built with $CC (PIE, non-PIE, stripped with debug files)" test -x "$T/lkbid" ||
	{
		diag "$(cat "$T/build.log")"
		done_testing
	}
ok "the stripped copies have no symbol of their own" sh -c \
	"! nm '$T/lkdlink' 2>/dev/null | grep -q lock_a && ! nm '$T/lkbid' 2>/dev/null | grep -q lock_a"

# run_sweep OUT ARGS...: one sweep as JSON into OUT, its events in the log on a failure.
run_sweep() {
	_out=$1
	shift
	SCALETOP_DEBUG_DIR=${DEBUG_DIR:-$T/nodebug} "$SCALETOP" run "$@" -d 2 --warmup 0.3 -q \
		--json >"$_out" 2>"$_out.err"
}

# start_copy PROG: a copy of PROG running for 60 s (killed on exit), its pid in $COPY.
COPIES=
start_copy() {
	"$T/$1" 1 60 >/dev/null &
	COPY=$!
	COPIES="$COPIES $COPY"
	sleep 0.3
}
trap 'for p in $COPIES; do kill "$p" 2>/dev/null; done; rm -rf "$T"' EXIT

# hot_order JSON FAMILY: the family's named frames of the two functions, by share.
hot_order() {
	json_get "$1" '" > ".join(f for f, _ in sorted(((p["frames"][0], p["share"]) for s in d["steps"] for p in s.get("hot", {}).get("paths", []) if p["family"] == "'"$2"'" and p["frames"] and p["frames"][0] in ("heavy_work", "light_work")), key=lambda x: -x[1]))'
}

# hot_case NAME FAMILY ARGS...: heavy_work above light_work, at most 3 tries.
hot_case() {
	_name=$1 _fam=$2
	shift 2
	_try=0 _got=
	while [ $_try -lt 3 ] && [ "$_got" != "heavy_work > light_work" ]; do
		_try=$((_try + 1))
		run_sweep "$T/hot.json" "$@"
		_got=$(hot_order "$T/hot.json" "$_fam")
		diag "$_name try $_try: $(json_get "$T/hot.json" '[(p["family"], round(p["share"], 3), p["frames"][0]) for s in d["steps"] for p in s.get("hot", {}).get("paths", [])[:4]]' 2>&1)"
	done
	is "$_got" "heavy_work > light_work" "$_name: the hot paths name heavy_work above light_work"
}

if [ "$can_sample" -eq 1 ]; then
	hot_case "--cmd" workload --cmd "$T/hotprog {n} {duration}" \
		--parse-regex 'ops/s: ([0-9]+)' -n 2
	start_copy hotprog
	hot_case "--target comm:hotprog" target -w cpu -n 1 --target comm:hotprog
	if ! command -v "$CXX" >/dev/null 2>&1; then
		skip "no C++ compiler ($CXX)" "C++ frames demangled"
	elif ! grep -q '^#define HAVE_LIBIBERTY 1' "$top_builddir/config.h"; then
		skip "built without libiberty: names stay mangled" "C++ frames demangled"
	elif ok "the hot program built as C++" "$CXX" -O2 -g -pthread -x c++ -o "$T/hotcxx" \
		"$T/hot.c"; then
		hot_case "C++ --cmd" workload --cmd "$T/hotcxx {n} {duration}" \
			--parse-regex 'ops/s: ([0-9]+)' -n 2
	fi
	run_sweep "$T/strip.json" --cmd "$T/hotstrip {n} {duration}" --parse-regex 'ops/s: ([0-9]+)' -n 1
	is "$(json_get "$T/strip.json" 'sum(1 for e in d["events"] if e["text"].startswith("hotstrip: ") and "(stripped, no debug file found by build ID or debuglink" in e["text"])')" \
		1 "a stripped program without a debug file: one event says why"
	like "$(json_get "$T/strip.json" '[p["frames"][0] for s in d["steps"] for p in s["hot"]["paths"] if p["family"] == "workload"][:1]')" \
		"hotstrip\\+0x" "and its frames are offsets"
else
	skip "perf_event_open is not allowed here (uid $(id -u), perf_event_paranoid $paranoid)" \
		"hot paths named"
fi

# lock_names JSON FAMILY: the family's locks named in the census, by share.
lock_names() {
	json_get "$1" '" ".join(l["name"] for s in d["steps"] for l in sorted(s.get("locks", {}).get("top", []), key=lambda l: -l["share"]) if l["family"] == "'"$2"'")'
}

# lock_case NAME PROG FAMILY ARGS...: PROG:lock_a above PROG:lock_b, and libx.so:lock_s.
lock_case() {
	_name=$1 _prog=$2 _fam=$3
	shift 3
	_try=0 _ok=1
	while [ $_try -lt 3 ] && [ $_ok -ne 0 ]; do
		_try=$((_try + 1))
		run_sweep "$T/locks.json" "$@"
		_got=$(lock_names "$T/locks.json" "$_fam")
		diag "$_name try $_try: $(json_get "$T/locks.json" '[(l["family"], round(l["share"], 3), l["name"]) for s in d["steps"] for l in s.get("locks", {}).get("top", [])]' 2>&1)"
		printf '%s\n' "$_got" | grep -Eq "(^| )$_prog:lock_a( .*)? $_prog:lock_b( |$)" &&
			printf '%s\n' "$_got" | grep -Eq "(^| )libx\\.so:lock_s( |$)"
		_ok=$?
	done
	like "$_got" "(^| )$_prog:lock_a( .*)? $_prog:lock_b( |$)" \
		"$_name: $_prog:lock_a and $_prog:lock_b named, lock_a's share above"
	like "$_got" "(^| )libx\\.so:lock_s( |$)" "$_name: the shared library's libx.so:lock_s named"
}

for prog in lkpie lknopie lkdlink lkbid; do
	DEBUG_DIR=$T/nodebug
	[ "$prog" = lkbid ] && DEBUG_DIR=$T/debug
	lock_case "$prog --cmd" "$prog" workload --cmd "$T/$prog {n} {duration}" \
		--parse-regex 'ops/s: ([0-9]+)' -n 8
	start_copy "$prog"
	lock_case "$prog --target pid:$COPY" "$prog" target -w cpu -n 1 --target "pid:$COPY"
done
DEBUG_DIR=
done_testing
