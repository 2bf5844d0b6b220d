/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The system under test (target.h): specs, finding its processes, and the
 * window's book of their counters.  A process that exits while it is read
 * is normal: it keeps its last counters in the book.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/contention.h"
#include "scaletop/error.h"
#include "scaletop/platform.h"
#include "scaletop/procbook.h"
#include "target.h"

/* Passes read for at most 1/TARGET_PASS_DIVISOR of a CPU, and come at most once a second. */
#define TARGET_PASS_DIVISOR 800
#define TARGET_PASS_MIN_NS UINT64_C(1000000000)

/* Linux keeps 15 bytes of a command name, the BSDs 19 (MAXCOMLEN). */
#define TARGET_COMM_MAX 19

struct target {
	struct target_spec spec[SESSION_MAX_TARGETS];
	int nspec;
	bool cgroup_only, have_cgroup;
	pid_t *pids; /* the processes found last */
	size_t npids;
	struct procbook book;
	struct cgroup_cpu cg0; /* the groups' counters at the window's start */
	bool have_cg0;
	uint64_t pass_ns, pass_cost_ns; /* the last pass: when, and how long it took */
};

static int
target_bad(const char *text, char *err, size_t errlen, const char *what)
{
	return st_error(err, errlen, "--target '%s': %s", text, what);
}

static int
target_parse_pid(const char *text, const char *v, struct target_spec *sp, char *err, size_t errlen)
{
	char *end;
	long pid;

	errno = 0;
	pid = strtol(v, &end, 10);
	if (end == v || *end != '\0' || errno != 0 || pid < 1 || pid > INT_MAX)
		return target_bad(text, err, errlen,
				  "give pid:N with N a process id, e.g. pid:1234");
	sp->kind = TARGET_PID;
	sp->pid = (pid_t)pid;
	return 0;
}

static int
target_parse_cgroup(const char *text, const char *v, struct target_spec *sp, char *err,
		    size_t errlen)
{
	if (*v == '\0')
		return target_bad(text, err, errlen,
				  "give cgroup:PATH, a group under /sys/fs/cgroup or an absolute "
				  "path");
	if (cgroup_dir(v, sp->arg, sizeof(sp->arg)) == 0) {
		sp->kind = TARGET_CGROUP;
		return 0;
	}
	if (errno == ENOSYS)
		return target_bad(
			text, err, errlen,
			"cgroup targets are Linux's (cgroup v2); give pid:N or comm:NAME");
	if (errno == EINVAL)
		return st_error(
			err, errlen,
			"--target '%s': %s is not a cgroup v2 group (no cgroup.controllers); "
			"give one of the unified hierarchy",
			text, sp->arg);
	return st_error(err, errlen,
			"--target '%s': no cgroup v2 group %s (%s); give a path under "
			"/sys/fs/cgroup or an absolute one",
			text, v, strerror(errno));
}

int
target_spec_parse(const char *text, struct target_spec *sp, char *err, size_t errlen)
{
	memset(sp, 0, sizeof(*sp));
	if (strncmp(text, "pid:", 4) == 0)
		return target_parse_pid(text, text + 4, sp, err, errlen);
	if (strncmp(text, "cgroup:", 7) == 0)
		return target_parse_cgroup(text, text + 7, sp, err, errlen);
	if (strncmp(text, "comm:", 5) != 0)
		return target_bad(text, err, errlen,
				  "give pid:N, comm:NAME or cgroup:PATH, e.g. --target "
				  "comm:postgres");
	if (text[5] == '\0' || strlen(text + 5) > TARGET_COMM_MAX || strchr(text + 5, '/'))
		return target_bad(text, err, errlen,
				  "give comm:NAME with the command name as ps -o comm shows it "
				  "(1 to 19 characters, no '/'), e.g. comm:postgres");
	sp->kind = TARGET_COMM;
	snprintf(sp->arg, sizeof(sp->arg), "%s", text + 5);
	return 0;
}

/* --- the process tree ------------------------------------------------------ */

static int
pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* Whether pid is in the ascending list v[0..n). */
static bool
pid_in(const pid_t *v, size_t n, pid_t pid)
{
	return n > 0 && bsearch(&pid, v, n, sizeof(*v), pid_cmp) != NULL;
}

/* Adds to v (sorted, room for cap) every child of a member, until nothing more is added. */
static size_t
proc_tree_grow(const struct proc_link *t, size_t nt, pid_t *v, size_t n)
{
	size_t i, before;

	do {
		before = n;
		for (i = 0; i < nt; i++) {
			if (!t[i].zombie && pid_in(v, before, t[i].ppid) &&
			    !pid_in(v, before, t[i].pid))
				v[n++] = t[i].pid;
		}
		qsort(v, n, sizeof(*v), pid_cmp);
		/* a child found in this round and its own child can both be in it */
		for (i = 1; i < n; i++) {
			if (v[i] == v[i - 1]) {
				memmove(&v[i], &v[i + 1], (n - i - 1) * sizeof(*v));
				n--;
				i--;
			}
		}
	} while (n > before);
	return n;
}

int
proc_tree(pid_t root, pid_t **out, size_t *n)
{
	struct proc_link *t;
	size_t nt, i;
	pid_t *v;
	bool alive = false;

	*out = NULL;
	*n = 0;
	if (proc_table_read(&t, &nt) != 0)
		return -1;
	for (i = 0; i < nt; i++)
		alive = alive || (t[i].pid == root && !t[i].zombie);
	if (!alive) {
		free(t);
		return 0;
	}
	if ((v = malloc((nt + 1) * sizeof(*v))) == NULL) {
		free(t);
		errno = ENOMEM;
		return -1;
	}
	v[0] = root;
	*n = proc_tree_grow(t, nt, v, 1);
	*out = v;
	free(t);
	return 0;
}

/* --- the target ------------------------------------------------------------ */

struct target *
target_new(const struct sweep_settings *set, char *err, size_t errlen)
{
	struct target *t;
	int i;

	if ((t = calloc(1, sizeof(*t))) == NULL) {
		st_error(err, errlen, "--target: out of memory");
		return NULL;
	}
	procbook_init(&t->book);
	t->cgroup_only = set->ntargets > 0;
	for (i = 0; i < set->ntargets && i < SESSION_MAX_TARGETS; i++) {
		if (target_spec_parse(set->target[i], &t->spec[i], err, errlen) != 0) {
			target_free(t);
			return NULL;
		}
		t->have_cgroup = t->have_cgroup || t->spec[i].kind == TARGET_CGROUP;
		t->cgroup_only = t->cgroup_only && t->spec[i].kind == TARGET_CGROUP;
		t->nspec++;
	}
	return t;
}

int
target_spec_present(const struct target_spec *sp, char *err, size_t errlen)
{
	struct task_counters tc;
	char why[ST_ERRLEN];

	if (sp->kind != TARGET_PID || task_counters_read(sp->pid, &tc, why, sizeof(why)) == 0 ||
	    errno != ESRCH)
		return 0; /* a backend that cannot read tasks cannot tell: the steps will say */
	return st_error(
		err, errlen,
		"--target 'pid:%ld': no process %ld is running; give the pid of the running "
		"server (pgrep NAME), or comm:NAME",
		(long)sp->pid, (long)sp->pid);
}

void
target_missing_hint(const struct target *t, char *buf, size_t len)
{
	bool comm = false, group = false;
	char pid[64] = "";
	int i, npid = 0;

	for (i = 0; i < t->nspec; i++) {
		if (t->spec[i].kind == TARGET_PID && npid++ == 0)
			snprintf(pid, sizeof(pid), "has process %ld", (long)t->spec[i].pid);
		comm = comm || t->spec[i].kind == TARGET_COMM;
		group = group || t->spec[i].kind == TARGET_CGROUP;
	}
	if (npid > 0)
		snprintf(pid + strlen(pid), sizeof(pid) - strlen(pid), "%s exited",
			 npid > 1 ? " (or another pid:N)" : "");
	snprintf(buf, len, "%s%s%s%s%s", pid, pid[0] && (comm || group) ? "; " : "",
		 comm ? "is the server running, and is its name as ps -o comm shows it" : "",
		 comm && group ? "; " : "", group ? "has the group any process" : "");
}

void
target_free(struct target *t)
{
	if (t == NULL)
		return;
	procbook_free(&t->book);
	free(t->pids);
	free(t);
}

/* One spec's processes now; none when they cannot be found (the process or group is gone). */
static void
target_spec_pids(const struct target_spec *sp, pid_t **v, size_t *n)
{
	int r;

	if (sp->kind == TARGET_PID)
		r = proc_tree(sp->pid, v, n);
	else if (sp->kind == TARGET_COMM)
		r = proc_find_comm(sp->arg, v, n);
	else
		r = cgroup_procs_read(sp->arg, v, n);
	if (r != 0) {
		*v = NULL;
		*n = 0;
	}
}

/* Appends src to *dst (of *n), freeing src; false without memory (src is dropped). */
static bool
target_append(pid_t **dst, size_t *n, pid_t *src, size_t m)
{
	pid_t *p;

	if (m == 0) {
		free(src);
		return true;
	}
	if ((p = realloc(*dst, (*n + m) * sizeof(*p))) == NULL) {
		free(src);
		return false;
	}
	memcpy(p + *n, src, m * sizeof(*p));
	*dst = p;
	*n += m;
	free(src);
	return true;
}

const pid_t *
target_find(struct target *t, size_t *n)
{
	pid_t *all = NULL, *one;
	size_t len = 0, m, i, k = 0;
	int s;

	for (s = 0; s < t->nspec; s++) {
		target_spec_pids(&t->spec[s], &one, &m);
		target_append(&all, &len, one, m);
	}
	if (len > 1)
		qsort(all, len, sizeof(*all), pid_cmp);
	for (i = 0; i < len; i++) {
		if (k == 0 || all[k - 1] != all[i])
			all[k++] = all[i];
	}
	free(t->pids);
	t->pids = all;
	t->npids = k;
	*n = k;
	return all;
}

const pid_t *
target_found(const struct target *t, size_t *n)
{
	*n = t->npids;
	return t->pids;
}

/* The groups' cpu.stat and cpu.pressure summed; have keeps what every group had. */
static bool
target_cgroups(const struct target *t, struct cgroup_cpu *sum)
{
	struct cgroup_cpu one;
	int s;

	memset(sum, 0, sizeof(*sum));
	sum->have = CGROUP_HAVE_CPU | CGROUP_HAVE_PSI;
	for (s = 0; s < t->nspec; s++) {
		if (t->spec[s].kind != TARGET_CGROUP)
			continue;
		if (cgroup_cpu_read(t->spec[s].arg, &one) != 0)
			return false;
		sum->usage_us += one.usage_us;
		sum->user_us += one.user_us;
		sum->system_us += one.system_us;
		sum->psi_some_us += one.psi_some_us;
		sum->have &= one.have;
	}
	return true;
}

void
target_window_pass(struct target *t, uint64_t now)
{
	struct task_counters c;
	char err[ST_ERRLEN];
	const pid_t *pids;
	uint64_t start;
	size_t n, i;
	uint64_t c0;

	pids = target_find(t, &n);
	c0 = self_cpu_ns();
	procbook_pass_begin(&t->book);
	for (i = 0; i < n; i++) {
		if (proc_start_ns(pids[i], &start) != 0) {
			if (errno == ESRCH)
				continue; /* gone since it was found */
			start = 0;
		}
		if (task_counters_read(pids[i], &c, err, sizeof(err)) != 0)
			continue;
		/* without memory the process is left out of the book: its figures run low */
		(void)procbook_see(&t->book, pids[i], start, &c);
	}
	procbook_pass_end(&t->book, now);
	t->pass_ns = now;
	/*
	 * What the pass adds, by its CPU time.  Not the find: a find comes every second,
	 * pass or not, and among 400 processes it is 5 ms, which spaced the passes (and the
	 * live target figures) 4-8 s apart.  Not the wall time: preemption on a busy
	 * machine, where a user watches a server, stretches it many times over.
	 */
	t->pass_cost_ns = self_cpu_ns() - c0;
}

bool
target_pass_due(const struct target *t, uint64_t now)
{
	uint64_t period = t->pass_cost_ns * TARGET_PASS_DIVISOR;

	if (period < TARGET_PASS_MIN_NS)
		period = TARGET_PASS_MIN_NS;
	return now >= t->pass_ns + period;
}

void
target_window_begin(struct target *t, uint64_t now)
{
	procbook_reset(&t->book, proc_clock_ns(), now);
	t->have_cg0 = t->have_cgroup && target_cgroups(t, &t->cg0);
	target_window_pass(t, now);
}

void
target_window_end(struct target *t, uint64_t now, double seconds, uint64_t ops,
		  const struct contention *ct, int ncpu, struct target_figures *tg)
{
	target_window_pass(t, now);
	target_window_figures(t, seconds, ops, ct, ncpu, tg);
}

void
target_window_figures(struct target *t, double seconds, uint64_t ops, const struct contention *ct,
		      int ncpu, struct target_figures *tg)
{
	struct target_edges e;

	memset(&e, 0, sizeof(e));
	e.seconds = seconds;
	e.ops = ops;
	procbook_sum(&t->book, &e.d, &e.procs);
	e.thread_s = t->book.thread_s;
	e.cg0 = t->cg0;
	e.have_cgroup = t->have_cg0 && target_cgroups(t, &e.cg1);
	e.cgroup_only = t->cgroup_only;
	e.ncpu = ncpu;
	e.workload_cpu_s =
		(ct->have & (CT_HAVE_OPS_CPU | CT_HAVE_KERNEL)) != 0 ? ct->cpu_used * seconds : -1;
	target_figures_compute(tg, &e);
}
