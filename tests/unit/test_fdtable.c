/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fdtable beyond what test_workloads checks for every workload: the files
 * each step makes and cleanup() removes (also after a step that was killed),
 * that each worker opens its own file, that no kind leaks a descriptor, and
 * the one-line error for a directory that cannot be made.  Nothing here
 * asserts on timing.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
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
#include "../tap.h"

#define NW 2
#define WANT_OPS 2000 /* per worker, before stopping: enough to show a leak */

static char base[] = "/tmp/scaletop-fdtabletest.XXXXXX";
static struct wl_slot slots[NW];
static atomic_int stop_flag;

struct fixture {
	const struct workload *wl;
	struct wl_args args;
	struct wl_sweep sw;
	struct wl_worker w[NW];
	int rc[NW];
	atomic_int done[NW];
};

static struct fixture *running; /* what worker_main runs */

/* Defaults plus one key=value; prepare() under base. 0 when prepared. */
static int
fixture_init(struct fixture *f, const char *kv, char *err, size_t errlen)
{
	int i;

	memset(f, 0, sizeof(*f));
	f->wl = workload_find("fdtable");
	if (f->wl == NULL)
		return st_error(err, errlen, "no fdtable workload");
	wl_args_defaults(&f->args, f->wl);
	if (kv != NULL && wl_args_set(&f->args, kv, err, errlen) == -1)
		return -1;
	f->sw.args = &f->args;
	atomic_store(&stop_flag, 0);
	for (i = 0; i < NW; i++) {
		slot_publish(&slots[i], i, 0, 0, 0);
		f->w[i] = (struct wl_worker){ .index = i,
					      .nworkers = NW,
					      .slot = &slots[i],
					      .stop = &stop_flag,
					      .args = &f->args,
					      .sweep = &f->sw,
					      .seed = (uint64_t)i + 1 };
	}
	return f->wl->prepare(&f->sw, err, errlen);
}

static bool
exists(const char *dir, const char *name)
{
	char path[WL_PATH_MAX + 16];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0;
}

/* Descriptors open in this process, below a bound far above what the tests use. */
static int
open_fds(void)
{
	int fd;
	int n = 0;

	for (fd = 0; fd < 1024; fd++)
		n += fcntl(fd, F_GETFD) != -1;
	return n;
}

static void *
worker_main(void *arg)
{
	struct wl_worker *w = arg;

	running->rc[w->index] = running->wl->work(w);
	atomic_store(&running->done[w->index], 1);
	return NULL;
}

/* Both workers as threads until each has published WANT_OPS (or a generous bound). */
static void
run_threads(struct fixture *f)
{
	int i;
	int waited;
	pthread_t tid[NW];
	struct slot_view v;

	running = f;
	for (i = 0; i < NW; i++) {
		if (pthread_create(&tid[i], NULL, worker_main, &f->w[i]) != 0) {
			printf("Bail out! pthread_create failed\n");
			exit(1);
		}
	}
	/* A loaded machine may be slow to run them: wait, up to a generous bound. */
	for (i = 0; i < NW; i++) {
		for (waited = 0; waited < 15000 && !atomic_load(&f->done[i]); waited += 10) {
			if (slot_read(&slots[i], i, &v) && v.ops >= WANT_OPS)
				break;
			sleep_ms(10);
		}
	}
	atomic_store(&stop_flag, 1);
	for (i = 0; i < NW; i++)
		pthread_join(tid[i], NULL);
}

static void
test_files_and_cleanup(void)
{
	char err[ST_ERRLEN] = "", dir[WL_PATH_MAX];
	struct fixture f;
	struct stat st;
	int rc;

	if (!ok(fixture_init(&f, NULL, err, sizeof(err)) == 0, "fdtable: prepare"))
		diag("%s", err);
	snprintf(dir, sizeof(dir), "%s", f.sw.dir);
	ok(strncmp(dir, base, strlen(base)) == 0 && strstr(dir, "/scaletop-fdtable.") != NULL &&
		   f.sw.own_dir,
	   "  made a private directory under $TMPDIR: %s", dir);
	rc = f.wl->step_init(NULL, &f.args, &f.sw, 3, err, sizeof(err));
	ok(rc == 0 && exists(dir, "fd.0") && exists(dir, "fd.2") && !exists(dir, "fd.3"),
	   "  step_init made one file per worker");
	/* A smaller step after it, then a "killed" one: cleanup must find every name. */
	f.wl->step_init(NULL, &f.args, &f.sw, 1, err, sizeof(err));
	f.wl->step_init(NULL, &f.args, &f.sw, 12, err, sizeof(err));
	f.wl->cleanup(&f.sw);
	ok(stat(dir, &st) == -1 && errno == ENOENT, "  cleanup removed the files and %s", dir);
	ok(f.sw.dir[0] == '\0' && !f.sw.own_dir, "  and forgot it");
}

/* Worker 1 whose file is gone fails with ENOENT, while worker 0 (own file) does not. */
static void
test_own_files(void)
{
	char err[ST_ERRLEN] = "", path[WL_PATH_MAX + 8];
	struct fixture f;

	fixture_init(&f, "kind=open", err, sizeof(err));
	f.wl->step_init(NULL, &f.args, &f.sw, NW, err, sizeof(err));
	snprintf(path, sizeof(path), "%s/fd.1", f.sw.dir);
	unlink(path);
	atomic_store(&stop_flag, 1); /* one operation each, then stop */
	is_int(f.wl->work(&f.w[0]), 0, "fdtable open: worker 0 opens its own fd.0");
	is_int(f.wl->work(&f.w[1]), ENOENT, "  worker 1 opens fd.1, not another's file");
	f.wl->cleanup(&f.sw);
}

static void
test_no_leak(const char *kv)
{
	int i;
	char err[ST_ERRLEN] = "";
	struct fixture f;
	struct slot_view v;
	uint64_t ops = 0;
	int before;

	fixture_init(&f, kv, err, sizeof(err));
	f.wl->step_init(NULL, &f.args, &f.sw, NW, err, sizeof(err));
	before = open_fds();
	run_threads(&f);
	for (i = 0; i < NW; i++) {
		ok(f.rc[i] == 0, "fdtable %s: worker %d returned 0 (%s)", kv, i, strerror(f.rc[i]));
		if (slot_read(&slots[i], i, &v))
			ops += v.ops;
	}
	ok(ops >= NW * WANT_OPS, "  counted %llu ops", (unsigned long long)ops);
	is_int(open_fds(), before, "  no descriptor leaked");
	f.wl->cleanup(&f.sw);
}

static void
test_missing_dir(void)
{
	char err[ST_ERRLEN] = "", kv[300], want[600], missing[260];
	struct fixture f;

	snprintf(missing, sizeof(missing), "%s/no/such", base);
	snprintf(kv, sizeof(kv), "dir=%s", missing);
	ok(fixture_init(&f, kv, err, sizeof(err)) == -1, "fdtable: prepare fails in a missing dir");
	snprintf(want, sizeof(want),
		 "workload fdtable: cannot make a work directory in %s: %s: create that directory "
		 "or give another with -p dir=",
		 missing, strerror(ENOENT));
	is_str(err, want, "  one line naming the path and what to do");
	ok(f.sw.dir[0] == '\0' && !f.sw.own_dir, "  and leaves nothing to clean up");
}

int
main(void)
{
	if (mkdtemp(base) == NULL) {
		printf("Bail out! mkdtemp %s: %s\n", base, strerror(errno));
		return 1;
	}
	setenv("TMPDIR", base, 1);
	test_files_and_cleanup();
	test_own_files();
	test_no_leak("kind=open");
	test_no_leak("kind=dup");
	test_no_leak("kind=socketpair");
	test_missing_dir();
	ok(rmdir(base) == 0, "nothing left behind in %s", base);
	return done_testing();
}
