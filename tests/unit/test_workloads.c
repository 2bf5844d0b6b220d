/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Every built-in workload, run for real: a tiny harness that does what the
 * runner does (shared slots and state in MAP_SHARED memory, prepare,
 * step_init, two workers as threads and then as processes, stop, join,
 * step_fini, cleanup) and checks what the monitor will rely on.  Nothing
 * here asserts on timing or throughput.
 */
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/slot.h"
#include "scaletop/workload.h"
#include "../../src/workload/builtin.h"
#include "../tap.h"

/* Declared by the list in src/workload/registry.c; fileio's hooks are called directly. */
extern const struct workload wl_fileio;

#define NWORKERS 2
#define RUN_MS 150

enum mode { THREADS, PROCESSES };

/* What the runner keeps in MAP_SHARED memory: the slots, the stop flag, worker results. */
struct arena {
	struct wl_slot slot[NWORKERS];
	atomic_int stop;
	int rc[NWORKERS];
};

struct run;
struct thread_arg {
	struct run *r;
	int i;
};

struct run {
	const struct workload *wl;
	struct wl_args args;
	struct wl_sweep sw;
	struct arena *arena;
	void *shared;
	struct wl_worker w[NWORKERS];
	struct thread_arg targ[NWORKERS];
	char label[160];
};

static char base[] = "/tmp/scaletop-wltest.XXXXXX";

static void *
thread_main(void *arg)
{
	struct thread_arg *t = arg;

	t->r->arena->rc[t->i] = t->r->wl->work(&t->r->w[t->i]);
	return NULL;
}

/* Starts the workers, lets them run, stops them; 0 if every one came back. */
static int
run_workers(struct run *r, enum mode mode)
{
	int i;
	pthread_t tid[NWORKERS];
	pid_t pid[NWORKERS];
	int status, failed = 0;
	uint64_t t0;

	for (i = 0; i < NWORKERS; i++) {
		slot_publish(&r->arena->slot[i], i, 0, 0, 0);
		r->targ[i] = (struct thread_arg){ r, i };
		if (mode == THREADS) {
			if (pthread_create(&tid[i], NULL, thread_main, &r->targ[i]) != 0) {
				printf("Bail out! pthread_create failed\n");
				exit(1);
			}
		} else if ((pid[i] = fork()) == 0) {
			_exit(r->wl->work(&r->w[i]) & 0xff);
		} else if (pid[i] == -1) {
			printf("Bail out! fork: %s\n", strerror(errno));
			exit(1);
		}
	}
	sleep_ms(RUN_MS);
	/*
	 * Published while running, not only at the end: the stall detector needs
	 * that.  A loaded machine may not have run a worker yet, so this waits
	 * (up to a generous bound) rather than asserting on timing.
	 */
	for (i = 0; i < NWORKERS; i++) {
		struct slot_view v = { 0 };
		int waited = 0;

		while (!(slot_read(&r->arena->slot[i], i, &v) && v.ops > 0) && waited < 15000) {
			sleep_ms(10);
			waited += 10;
		}
		ok(v.ops > 0, "%s: worker %d published ops while running", r->label, i);
		if (waited > 0)
			diag("  worker %d needed %d ms more to publish", i, waited);
	}
	t0 = wl_now_ns();
	atomic_store(&r->arena->stop, 1);
	for (i = 0; i < NWORKERS; i++) {
		if (mode == THREADS) {
			pthread_join(tid[i], NULL);
		} else if (waitpid(pid[i], &status, 0) == -1 || !WIFEXITED(status)) {
			failed = 1;
		} else {
			r->arena->rc[i] = WEXITSTATUS(status);
		}
	}
	diag("%s: all workers back %.2f ms after stop", r->label, (wl_now_ns() - t0) / 1e6);
	return failed ? -1 : 0;
}

/*
 * A lock workload's wait figures: busy is the worker's wall-clock time, so
 * it is there from the first publish on; wait (contended acquisitions only)
 * may be 0 on a machine that never ran the two workers at once.  The timing
 * itself is tested deterministically in test_lockwait.c.
 */
static void
check_lockwait(struct run *r, const struct slot_view *v)
{
	if (r->args.v[wl_param_index(r->wl, "waitsample")].i == 0) {
		ok(v->wait_ns == 0 && v->busy_ns == 0, "  waitsample=0 measures nothing");
		return;
	}
	ok(v->wait_ns <= v->busy_ns, "  wait_ns <= busy_ns");
	ok(v->busy_ns > 0, "  the worker's time was measured (%llu ops)",
	   (unsigned long long)v->ops);
}

/* Checks every slot; returns the summed ops. */
static uint64_t
check_slots(struct run *r)
{
	int i;
	uint64_t sum = 0;

	for (i = 0; i < NWORKERS; i++) {
		struct slot_view v = { 0 };
		bool valid = slot_read(&r->arena->slot[i], i, &v);

		ok(valid, "%s: worker %d slot reads back with a valid check word", r->label, i);
		is_int(r->arena->rc[i], 0, "  work() returned 0");
		ok(valid && v.ops > 0, "  counted %s", r->wl->unit);
		diag("  worker %d: %llu %s, wait %llu ns of %llu ns", i, (unsigned long long)v.ops,
		     r->wl->unit, (unsigned long long)v.wait_ns, (unsigned long long)v.busy_ns);
		if (r->wl->flags & WL_LOCK_WAIT)
			check_lockwait(r, &v);
		sum += v.ops;
	}
	return sum;
}

/* A lock that excludes has bumped its plain counter exactly once per counted op. */
static void
check_exclusion(struct run *r, uint64_t sum)
{
	uint64_t entries;

	if (strcmp(r->wl->name, "mutex") == 0)
		entries = ((struct mutex_shared *)r->shared)->entries;
	else if (strcmp(r->wl->name, "spinlock") == 0)
		entries = ((struct spinlock_shared *)r->shared)->entries;
	else
		return;
	is_u64(entries, sum, "  the lock excluded: entries inside it == ops counted");
}

static void
check_fileio_prepared(struct run *r)
{
	char path[WL_PATH_MAX + 32];
	long long files = r->args.v[wl_param_index(r->wl, "files")].i;
	long long total = r->args.v[wl_param_index(r->wl, "total")].i;
	long long block = r->args.v[wl_param_index(r->wl, "block")].i;
	struct stat st;

	snprintf(path, sizeof(path), "%s/file.%lld", r->sw.dir, files - 1);
	ok(stat(path, &st) == 0 && st.st_size == total / files / block * block,
	   "%s: prepare made the last file at full size", r->label);
}

static void
check_fileio_cleaned(struct run *r, const char *dir)
{
	struct stat st;

	ok(stat(dir, &st) == -1 && errno == ENOENT, "%s: cleanup removed %s", r->label, dir);
	ok(r->sw.dir[0] == '\0' && !r->sw.own_dir, "  and forgot it");
	r->wl->cleanup(&r->sw);
	ok(stat(dir, &st) == -1, "  a second cleanup is harmless");
}

static void
run_one(const char *name, const char *const params[], enum mode mode)
{
	int i;
	char err[ST_ERRLEN] = "", dir[WL_PATH_MAX] = "";
	struct run r;
	int rc;

	memset(&r, 0, sizeof(r));
	r.wl = workload_find(name);
	snprintf(r.label, sizeof(r.label), "%s", name);
	for (i = 0; params != NULL && params[i] != NULL; i++)
		snprintf(r.label + strlen(r.label), sizeof(r.label) - strlen(r.label), " %s",
			 params[i]);
	snprintf(r.label + strlen(r.label), sizeof(r.label) - strlen(r.label), " (%s)",
		 mode == THREADS ? "threads" : "processes");
	if (!ok(r.wl != NULL, "%s: found", r.label))
		return;
	wl_args_defaults(&r.args, r.wl);
	for (i = 0; params != NULL && params[i] != NULL; i++) {
		if (wl_args_set(&r.args, params[i], err, sizeof(err)) == -1)
			diag("%s", err);
	}
	r.sw.args = &r.args;
	r.arena = map_shared(sizeof(*r.arena));
	r.shared = r.wl->shared_size ? map_shared(r.wl->shared_size) : NULL;
	for (i = 0; i < NWORKERS; i++) {
		r.w[i] = (struct wl_worker){ .index = i,
					     .nworkers = NWORKERS,
					     .slot = &r.arena->slot[i],
					     .stop = &r.arena->stop,
					     .shared = r.shared,
					     .args = &r.args,
					     .sweep = &r.sw,
					     .seed = 0x1234567ULL * (uint64_t)(i + 1) };
	}

	if (r.wl->prepare) {
		rc = r.wl->prepare(&r.sw, err, sizeof(err));
		if (!ok(rc == 0, "%s: prepare", r.label))
			diag("%s", err);
		snprintf(dir, sizeof(dir), "%s", r.sw.dir);
		if (rc == 0 && strcmp(name, "fileio") == 0)
			check_fileio_prepared(&r);
	}
	rc = r.wl->step_init ? r.wl->step_init(r.shared, &r.args, &r.sw, NWORKERS, err, sizeof(err))
			     : 0;
	if (ok(rc == 0, "%s: step_init", r.label)) {
		if (ok(run_workers(&r, mode) == 0, "%s: workers ran and exited", r.label))
			check_exclusion(&r, check_slots(&r));
		if (r.wl->step_fini)
			r.wl->step_fini(r.shared, &r.args);
	} else {
		diag("%s", err);
	}
	if (r.wl->cleanup) {
		r.wl->cleanup(&r.sw);
		if (dir[0] != '\0')
			check_fileio_cleaned(&r, dir);
	}
	munmap(r.arena, sizeof(*r.arena));
	if (r.shared)
		munmap(r.shared, r.wl->shared_size);
}

/* Each workload with its defaults, plus the variants whose code paths differ. */
static const struct variant {
	const char *name;
	const char *params[6];
} variants[] = {
	{ "cpu", { NULL } },
	{ "memory", { NULL } },
	{ "memory", { "size=8K" } },
	{ "mutex", { NULL } },
	{ "mutex", { "waitsample=1", "hold=0" } },
	{ "mutex", { "waitsample=0" } },
	{ "spinlock", { "kind=tas" } },
	{ "spinlock", { "kind=ttas" } },
	{ "spinlock", { "kind=ticket" } },
	{ "fileio", { "total=4M" } },
	{ "fileio", { "total=1M", "files=3", "block=4K", "sync=fsync", "fsync_every=4" } },
	{ "fileio", { "total=1M", "files=2", "block=4K", "sync=osync" } },
	{ "fdshare", { "op=dup" } },
	{ "fdshare", { "op=pread" } },
	{ "fdshare", { "op=fstat" } },
	{ "fdshare", { "op=mix" } },
	{ "fdtable", { "kind=open" } },
	{ "fdtable", { "kind=dup" } },
	{ "fdtable", { "kind=socketpair" } },
	{ "unixsock", { NULL } },
	{ "unixsock", { "msg=64K" } },
	{ "unixsock", { "peer=self", "msg=1" } },
	{ "unixsock", { "peer=self", "msg=64K" } },
	{ "pagefault", { NULL } },
	{ "pagefault", { "size=4K" } },
};

static void
test_all_run(void)
{
	int k;
	size_t i;
	size_t n = sizeof(variants) / sizeof(variants[0]);

	/* Every workload in the registry has at least one variant here. */
	for (k = 0; workloads[k] != NULL; k++) {
		bool found = false;

		for (i = 0; i < n; i++)
			found |= strcmp(variants[i].name, workloads[k]->name) == 0;
		ok(found, "%s is exercised", workloads[k]->name);
	}
	for (i = 0; i < n; i++) {
		run_one(variants[i].name, variants[i].params, THREADS);
		run_one(variants[i].name, variants[i].params, PROCESSES);
	}
}

/* prepare() against dir=path; returns its result with the message in err. */
static int
fileio_prepare_in(const char *path, struct wl_sweep *sw, struct wl_args *a, char *err,
		  size_t errlen)
{
	char kv[WL_PATH_MAX + 8];

	wl_args_defaults(a, &wl_fileio);
	snprintf(kv, sizeof(kv), "dir=%s", path);
	if (wl_args_set(a, kv, err, errlen) == -1)
		return -2;
	memset(sw, 0, sizeof(*sw));
	sw->args = a;
	return wl_fileio.prepare(sw, err, errlen);
}

static void
test_fileio_missing_dir(void)
{
	char missing[256], err[ST_ERRLEN] = "", want[512];
	struct wl_sweep sw;
	struct wl_args a;

	snprintf(missing, sizeof(missing), "%s/no/such/dir", base);
	ok(fileio_prepare_in(missing, &sw, &a, err, sizeof(err)) == -1,
	   "fileio: prepare fails for a missing dir");
	snprintf(want, sizeof(want),
		 "workload fileio: cannot make a work directory in %s: %s: create that "
		 "directory or give another with -p dir=",
		 missing, strerror(ENOENT));
	is_str(err, want, "  naming the path and what to do");
	ok(sw.dir[0] == '\0' && !sw.own_dir, "  and leaves nothing to clean up");
	wl_fileio.cleanup(&sw);

	/* Through $TMPDIR, the message says where the path came from. */
	setenv("TMPDIR", missing, 1);
	fileio_prepare_in("", &sw, &a, err, sizeof(err));
	ok(strstr(err, missing) != NULL && strstr(err, "(from $TMPDIR)") != NULL,
	   "  a missing $TMPDIR is named as such");
	unsetenv("TMPDIR");
}

/*
 * A read-only directory.  Root writes anywhere, so as root the attempt is
 * made by a child that has given up root; the child reports over a pipe.
 */
static void
test_fileio_readonly_dir(void)
{
	char ro[256], err[ST_ERRLEN] = "", want[512], buf[ST_ERRLEN + 16] = "";
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	snprintf(ro, sizeof(ro), "%s/ro", base);
	if (mkdir(ro, 0555) == -1 || chmod(ro, 0555) == -1 || pipe(fds) == -1) {
		ok(0, "fileio: made a read-only dir %s: %s", ro, strerror(errno));
		return;
	}
	if ((pid = fork()) == 0) {
		struct wl_sweep sw;
		struct wl_args a;
		int rc;

		if (geteuid() == 0 && (setgid(65534) == -1 || setuid(65534) == -1))
			_exit(3);
		rc = fileio_prepare_in(ro, &sw, &a, err, sizeof(err));
		wl_fileio.cleanup(&sw);
		if (write(fds[1], err, strlen(err)) == -1)
			_exit(4);
		_exit(rc == -1 ? 0 : 2);
	}
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
		skip("cannot drop root to test permissions", "fileio: read-only dir");
		return;
	}
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "fileio: prepare fails for a read-only dir");
	snprintf(want, sizeof(want),
		 "workload fileio: cannot make a work directory in %s: %s: give a writable "
		 "directory with -p dir=",
		 ro, strerror(EACCES));
	is_str(buf, want, "  naming the path and what to do");
	rmdir(ro);
}

static void
test_fileio_geometry(void)
{
	char err[ST_ERRLEN] = "";
	struct wl_sweep sw = { 0 };
	struct wl_args a;

	wl_args_defaults(&a, &wl_fileio);
	wl_args_set(&a, "total=64K", err, sizeof(err));
	wl_args_set(&a, "files=16", err, sizeof(err));
	sw.args = &a;
	ok(wl_fileio.prepare(&sw, err, sizeof(err)) == -1, "fileio: files smaller than a block");
	is_str(err,
	       "workload fileio: total=64K over files=16 leaves each file smaller than "
	       "block=16K: raise total= or lower files= or block=",
	       "  rejected before anything is made");
	ok(sw.dir[0] == '\0', "  no directory made");
}

/* With no dir= and $TMPDIR set, the private dir goes there, and is gone afterwards. */
static void
test_fileio_tmpdir(void)
{
	char err[ST_ERRLEN] = "", prefix[300], made[WL_PATH_MAX];
	struct wl_sweep sw;
	struct wl_args a;
	struct stat st;

	setenv("TMPDIR", base, 1);
	ok(fileio_prepare_in("", &sw, &a, err, sizeof(err)) == 0, "fileio: prepare under $TMPDIR");
	unsetenv("TMPDIR");
	snprintf(prefix, sizeof(prefix), "%s/scaletop-fileio.", base);
	ok(strncmp(sw.dir, prefix, strlen(prefix)) == 0 && sw.own_dir, "  made %s", sw.dir);
	snprintf(made, sizeof(made), "%s", sw.dir);
	wl_fileio.cleanup(&sw);
	ok(stat(made, &st) == -1 && errno == ENOENT, "  and removed it");
}

int
main(void)
{
	if (mkdtemp(base) == NULL || chmod(base, 0755) == -1) {
		printf("Bail out! mkdtemp %s: %s\n", base, strerror(errno));
		return 1;
	}
	/* Everything the workloads make goes under base, so the last test sees leftovers. */
	setenv("TMPDIR", base, 1);
	test_all_run();
	unsetenv("TMPDIR");
	test_fileio_missing_dir();
	test_fileio_readonly_dir();
	test_fileio_geometry();
	test_fileio_tmpdir();
	ok(rmdir(base) == 0, "nothing left behind in %s", base);
	return done_testing();
}
