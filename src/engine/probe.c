/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The --probe runner (probe.h): one command per probe, started on the
 * window's ticks, read through the loop's fd callbacks, reaped without
 * waiting, and bounded in time and output.
 */
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "scaletop/cmdline.h"
#include "scaletop/error.h"
#include "scaletop/pgroup.h"
#include "scaletop/probe_join.h"
#include "scaletop/spawn.h"
#include "probe.h"
#include "probe_preset.h"

/*
 * A run's labels are gathered in a tally of its own and join the window's
 * only when the run exits with status 0 (or was cut off at the cap): what a
 * failing command printed is an error message more often than a wait label.
 */

/* The kinds of trouble, each said once per probe in a step. */
enum probe_trouble { PT_START, PT_EXIT, PT_TIMEOUT, PT_CAP, PT_EMPTY, PT_OFF, PT_UNJOINED };

struct probes;

struct probe {
	struct probes *set;
	const char *text; /* as given, in s->set.probe[] */
	char **argv;      /* NULL when the text cannot be split: why is in split_err */
	char split_err[ST_ERRLEN];
	enum probe_preset preset; /* postgres[:CONNINFO], mariadb[:OPTIONS], or none */

	struct spawn_proc proc;
	bool running;
	bool killed;    /* SIGKILL sent (time-out, cap, end): reap on the tick */
	bool timed_out; /* killed for its time */
	bool capped;    /* past the output cap: the rest was discarded */
	uint64_t started_ns, next_ns;
	struct wait_tally run;            /* this run's labels without a TID */
	struct probe_tid_line *tid_lines; /* ... and its TID<TAB>label lines */
	int ntid;
	char off_msg[240];      /* this run's status line said the instrumentation is off */
	uint64_t last_clean_ns; /* when the window's last clean run started; 0: none yet */
	size_t bytes;
	int lines;
	char last_err[160]; /* its last stderr line (a preset's first), for messages */

	unsigned said;   /* 1 << enum probe_trouble, this step */
	int runs, clean; /* runs ended in this window; with status 0 (or capped) */
	double labels;   /* labels added to the window */
};

struct probes {
	struct session *s;
	struct loop *loop;
	struct wait_tally *out;
	int step;
	int n;
	probe_threads_fn threads; /* which TIDs are the target's threads (probes_set_threads) */
	void *threads_arg;
	struct probe_join_acc join; /* this window's TID lines */
	struct probe p[SESSION_MAX_PROBES];
};

static void probe_on_output(struct loop *l, int fd, short revents, void *arg);

/*
 * The command as given, cut to fit an event's line and quoted with the quote
 * it does not use itself: 'psql -Atc "select ..."'.
 */
static void
probe_name(const struct probe *pr, char *buf, size_t len)
{
	char q = strchr(pr->text, '\'') != NULL && strchr(pr->text, '"') == NULL ? '"' : '\'';
	int max = 60;

	if (pr->preset != PRESET_NONE) {
		/* A preset by its name: the message says how to turn things on, and needs the room.
		 */
		snprintf(buf, len, "%s", probe_preset_name(pr->preset));
		return;
	}
	if (strlen(pr->text) <= (size_t)max)
		snprintf(buf, len, "%c%s%c", q, pr->text, q);
	else
		snprintf(buf, len, "%c%.*s...%c", q, max, pr->text, q);
	st_printable(buf);
}

static void probe_say(struct probe *pr, enum probe_trouble kind, uint64_t now, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* One event per probe and kind of trouble in a step: "N=4: --probe 'cmd' timed out ...". */
static void
probe_say(struct probe *pr, enum probe_trouble kind, uint64_t now, const char *fmt, ...)
{
	struct probes *set = pr->set;
	char name[80], what[256];
	va_list ap;

	if (pr->said & (1u << kind))
		return;
	pr->said |= 1u << kind;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	probe_name(pr, name, sizeof(name));
	session_add_event(set->s, set->step, EV_WARNING, session_time(set->s, now),
			  "N=%d: --probe %s %s", set->s->steps[set->step].n, name, what);
}

static void
probe_say_timeout(struct probe *pr, uint64_t now)
{
	probe_say(pr, PT_TIMEOUT, now,
		  "ran over %.0f s and was killed with its process group; such runs' labels are "
		  "dropped",
		  PROBE_TIMEOUT_NS / 1e9);
}

struct probes *
probes_new(struct session *s, struct loop *l)
{
	struct probes *p;
	struct probe *pr;
	int i;

	if (s->set.nprobes <= 0 || (p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	p->s = s;
	p->loop = l;
	p->n = s->set.nprobes < SESSION_MAX_PROBES ? s->set.nprobes : SESSION_MAX_PROBES;
	for (i = 0; i < p->n; i++) {
		pr = &p->p[i];
		pr->set = p;
		pr->text = s->set.probe[i];
		pr->proc.pid = -1;
		pr->proc.fd[0] = pr->proc.fd[1] = -1;
		wait_tally_init(&pr->run);
		if (probe_preset_argv(pr->text, &pr->preset, &pr->argv, pr->split_err,
				      sizeof(pr->split_err)) != 0)
			pr->argv = NULL;
		else if (pr->preset == PRESET_NONE &&
			 cmdline_split(pr->text, &pr->argv, pr->split_err, sizeof(pr->split_err)) !=
				 0)
			pr->argv = NULL;
	}
	probe_join_init(&p->join);
	return p;
}

static void
probe_watch(struct probe *pr, bool on)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (pr->proc.fd[i] < 0)
			continue;
		if (on)
			loop_add_fd(pr->set->loop, pr->proc.fd[i], POLLIN, probe_on_output, pr);
		else
			loop_del_fd(pr->set->loop, pr->proc.fd[i]);
	}
}

/* The run is over for us: its pipes are closed and it is reaped (or killed and reaped now). */
static void
probe_close(struct probe *pr)
{
	if (!pr->running)
		return;
	probe_watch(pr, false);
	spawn_close(&pr->proc);
	pr->running = false;
}

/* Kills the run's whole group; it is reaped on a later tick. */
static void
probe_kill(struct probe *pr)
{
	if (pr->running && !pr->killed) {
		spawn_kill(&pr->proc, SIGKILL);
		pr->killed = true;
	}
}

/* Past the cap: what follows is discarded, and the run is ended. */
static void
probe_cap(struct probe *pr)
{
	pr->capped = true;
	probe_kill(pr);
}

/* A preset's status line: whether the server's instrumentation is on. */
static void
probe_status(struct probe *pr, const char *line)
{
	char msg[sizeof(pr->off_msg)];

	if (probe_preset_status(pr->preset, line + strlen(PRESET_STATUS), msg, sizeof(msg)) == 1)
		snprintf(pr->off_msg, sizeof(pr->off_msg), "%s", msg);
}

/* A TID line, kept until the run ends, when the engine says whose thread it is. */
static void
probe_tid_label(struct probe *pr, pid_t tid, const char *label)
{
	struct probe_tid_line *l;

	if (pr->tid_lines == NULL &&
	    (pr->tid_lines = calloc(PROBE_MAX_LINES, sizeof(*pr->tid_lines))) == NULL)
		return; /* without memory the label is lost; the step keeps the rest */
	l = &pr->tid_lines[pr->ntid++];
	l->tid = tid;
	l->target = false;
	snprintf(l->label, sizeof(l->label), "%.*s", WAIT_CHANNEL_LEN - 1, label);
}

/*
 * A label, TID<TAB>label or the label alone: trimmed, made printable, cut to
 * a channel's length.
 */
static void
probe_label(struct probe *pr, const char *line)
{
	char buf[SPAWN_LINE_MAX];
	pid_t tid;
	int kind;

	if (pr->preset != PRESET_NONE && strncmp(line, PRESET_STATUS, strlen(PRESET_STATUS)) == 0) {
		probe_status(pr, line);
		return;
	}
	if ((kind = probe_line_parse(line, &tid, buf, WAIT_CHANNEL_LEN)) == 0)
		return;
	if (pr->lines == PROBE_MAX_LINES) {
		probe_cap(pr);
		return;
	}
	st_printable(buf);
	pr->lines++;
	if (kind == 2)
		probe_tid_label(pr, tid, buf);
	else
		/* Without memory the label is lost; the step keeps the rest. */
		(void)wait_tally_add(&pr->run, WAIT_PROBE, WS_REPORTED, buf, 1);
}

static void
probe_line(void *arg, int stream, const char *line)
{
	struct probe *pr = arg;

	if (pr->capped)
		return;
	pr->bytes += strlen(line) + 1;
	if (pr->bytes > PROBE_MAX_BYTES) {
		probe_cap(pr);
		return;
	}
	if (stream == SPAWN_STDOUT) {
		probe_label(pr, line);
	} else if (line[0] != '\0' && (pr->preset == PRESET_NONE || pr->last_err[0] == '\0')) {
		/* A preset's client says what failed first, then hints (psql's "Is the server...").
		 */
		snprintf(pr->last_err, sizeof(pr->last_err), "%s", line);
		st_printable(pr->last_err);
	}
}

static void
probe_on_output(struct loop *l, int fd, short revents, void *arg)
{
	struct probe *pr = arg;

	(void)l;
	(void)fd;
	(void)revents;
	probe_watch(pr, false);
	spawn_read(&pr->proc, probe_line, pr);
	probe_watch(pr, true);
}

/*
 * Which of the run's TIDs are the target's threads, asked of the engine in
 * one call; the count of those that are not.  Without a --target, or when
 * the question cannot be answered, none is.
 */
static int
probe_join_ask(struct probe *pr)
{
	struct probes *set = pr->set;
	pid_t tids[PROBE_MAX_LINES];
	bool is[PROBE_MAX_LINES];
	int i, unjoined = 0;

	for (i = 0; i < pr->ntid; i++) {
		tids[i] = pr->tid_lines[i].tid;
		is[i] = false;
	}
	if (set->threads != NULL && set->threads(set->threads_arg, tids, (size_t)pr->ntid, is) != 0)
		memset(is, 0, sizeof(is));
	for (i = 0; i < pr->ntid; i++) {
		pr->tid_lines[i].target = is[i];
		unjoined += !is[i];
	}
	return unjoined;
}

/* The run's TID lines, joined and weighed (probe_join.h), into the window's tally. */
static void
probe_commit_tids(struct probe *pr, uint64_t now)
{
	struct probes *set = pr->set;
	double seconds;
	pid_t first = 0;
	int unjoined, i;

	seconds = pr->last_clean_ns != 0 ? (double)(pr->started_ns - pr->last_clean_ns) / 1e9
					 : PROBE_PERIOD_NS / 1e9;
	pr->last_clean_ns = pr->started_ns;
	if (pr->ntid == 0)
		return;
	unjoined = probe_join_ask(pr);
	(void)probe_join_commit(&set->join, pr->tid_lines, pr->ntid, seconds, set->out);
	pr->labels += pr->ntid;
	for (i = 0; i < pr->ntid && first == 0; i++)
		first = pr->tid_lines[i].target ? 0 : pr->tid_lines[i].tid;
	if (unjoined > 0 && set->threads == NULL)
		probe_say(pr, PT_UNJOINED, now,
			  "printed thread ids, but without --target they join no thread: "
			  "their labels are kept unjoined");
	else if (unjoined > 0)
		probe_say(pr, PT_UNJOINED, now,
			  "printed %d of %d lines in one run with a TID that is no thread of "
			  "--target (%d, say): kept as labels, unjoined",
			  unjoined, pr->ntid, (int)first);
}

/* The run's labels into the window's tally. */
static void
probe_commit(struct probe *pr, uint64_t now)
{
	const struct wait_share *e;
	int i;

	for (i = 0; i < pr->run.n; i++) {
		e = &pr->run.e[i];
		if (wait_tally_add(pr->set->out, e->family, e->state, e->channel, e->share) == 0)
			pr->labels += e->share;
	}
	probe_commit_tids(pr, now);
	if (pr->off_msg[0] != '\0')
		probe_say(pr, PT_OFF, now, "%s", pr->off_msg);
}

/* A reaped run: its last output, then its labels kept or dropped, and what went wrong said. */
static void
probe_done(struct probe *pr, uint64_t now)
{
	int status = pr->proc.status, i;
	char why[96];

	for (i = 0; i < 4 && spawn_read(&pr->proc, probe_line, pr) > 0; i++)
		;
	probe_close(pr);
	pr->runs++;
	if (pr->timed_out) {
		probe_say_timeout(pr, now);
	} else if (pr->capped) {
		pr->clean++;
		probe_commit(pr, now);
		probe_say(pr, PT_CAP, now,
			  "printed more than %d labels or %d KiB in one run; the rest was "
			  "discarded",
			  PROBE_MAX_LINES, PROBE_MAX_BYTES / 1024);
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		pr->clean++;
		probe_commit(pr, now);
	} else {
		spawn_reason(status, why, sizeof(why));
		probe_say(pr, PT_EXIT, now, "%s%s%s; its labels of such runs are dropped", why,
			  pr->last_err[0] != '\0' ? ": " : "", pr->last_err);
	}
}

/* A new run, if the probe can start at all. */
static void
probe_start(struct probe *pr, uint64_t now)
{
	char err[ST_ERRLEN];

	pr->next_ns = now + PROBE_PERIOD_NS;
	if (pr->argv == NULL) {
		probe_say(pr, PT_START, now, "cannot start: %s", pr->split_err);
		return;
	}
	wait_tally_reset(&pr->run);
	pr->ntid = 0;
	pr->off_msg[0] = '\0';
	pr->bytes = 0;
	pr->lines = 0;
	pr->killed = pr->timed_out = pr->capped = false;
	pr->last_err[0] = '\0';
	if (spawn_start(pr->argv, &pr->proc, err, sizeof(err)) != 0) {
		probe_say(pr, PT_START, now, "cannot start: %s", err);
		return;
	}
	pgroup_set_side(pr->proc.pid);
	pr->running = true;
	pr->started_ns = now;
	probe_watch(pr, true);
}

static void
probe_tick(struct probe *pr, uint64_t now)
{
	if (pr->running) {
		if (!pr->killed && now - pr->started_ns >= PROBE_TIMEOUT_NS) {
			pr->timed_out = true;
			probe_kill(pr);
		}
		if (spawn_poll(&pr->proc))
			probe_done(pr, now);
	}
	if (!pr->running && now >= pr->next_ns)
		probe_start(pr, now);
}

void
probes_begin(struct probes *p, int step, struct wait_tally *out, uint64_t now)
{
	struct probe *pr;
	int i;

	if (p == NULL)
		return;
	probes_stop(p);
	for (i = 0; i < p->n; i++) {
		pr = &p->p[i];
		/* Said once a step: a held step's window opens again without a word more. */
		if (step != p->step)
			pr->said = 0;
		pr->runs = pr->clean = 0;
		pr->labels = 0;
		pr->last_clean_ns = 0;
		pr->next_ns = now;
	}
	probe_join_reset(&p->join);
	p->step = step;
	p->out = out;
	probes_tick(p, now);
}

void
probes_tick(struct probes *p, uint64_t now)
{
	int i;

	if (p == NULL || p->out == NULL)
		return;
	for (i = 0; i < p->n; i++)
		probe_tick(&p->p[i], now);
}

/* At the window's end: a run still going that is past its time, or one that never finished. */
static void
probe_end_unfinished(struct probe *pr, uint64_t now)
{
	if (!pr->running)
		return;
	if (now - pr->started_ns >= PROBE_TIMEOUT_NS)
		probe_say_timeout(pr, now);
	else if (pr->runs == 0)
		probe_say(pr, PT_EMPTY, now,
			  "had not finished its first run when the window closed; a probe should "
			  "answer within a second");
}

void
probes_end(struct probes *p, uint64_t now)
{
	struct probe *pr;
	int i;

	if (p == NULL || p->out == NULL)
		return;
	for (i = 0; i < p->n; i++) {
		pr = &p->p[i];
		probe_end_unfinished(pr, now);
		/* An instrumentation that is off was said; saying it printed nothing adds nothing.
		 */
		if (pr->clean > 0 && pr->labels == 0 && !(pr->said & (1u << PT_OFF)))
			probe_say(pr, PT_EMPTY, now,
				  "ran %d time%s in the window and printed no wait label; its "
				  "lines are labels, one per waiting thing",
				  pr->clean, pr->clean == 1 ? "" : "s");
	}
	if (p->step >= 0 && p->step < p->s->nsteps)
		p->s->steps[p->step].pjoin = p->join.fig;
	probes_stop(p);
}

void
probes_stop(struct probes *p)
{
	int i;

	if (p == NULL)
		return;
	for (i = 0; i < p->n; i++)
		probe_close(&p->p[i]);
	p->out = NULL;
}

void
probes_free(struct probes *p)
{
	int i;

	if (p == NULL)
		return;
	probes_stop(p);
	for (i = 0; i < p->n; i++) {
		cmdline_free(p->p[i].argv);
		wait_tally_free(&p->p[i].run);
		free(p->p[i].tid_lines);
	}
	probe_join_free(&p->join);
	free(p);
}

void
probes_set_threads(struct probes *p, probe_threads_fn fn, void *arg)
{
	if (p == NULL)
		return;
	p->threads = fn;
	p->threads_arg = arg;
}

int
probes_runs(const struct probes *p, int i)
{
	return p != NULL && i >= 0 && i < p->n ? p->p[i].runs : 0;
}

int
probes_clean_runs(const struct probes *p, int i)
{
	return p != NULL && i >= 0 && i < p->n ? p->p[i].clean : 0;
}

pid_t
probes_running_pid(const struct probes *p, int i)
{
	return p != NULL && i >= 0 && i < p->n && p->p[i].running ? p->p[i].proc.pid : -1;
}
