/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A thread read again and again, on Linux (thread_handle in platform.h):
 * its /proc/PID/task/TID files kept open, each read only when it can have
 * changed (docs/design-notes.md, "A thread's files are kept open and read
 * on conditions").
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/decode_linux.h"
#include "scaletop/decode_proc.h"
#include "scaletop/platform.h"
#include "linux_read.h"

/*
 * Each file is opened once and read with pread at offset 0, in the order of
 * the table below, each on its condition: schedstat always; stat and wchan
 * only when schedstat shows the thread ran or waited for a CPU since its last
 * reading.  A thread that ran since it was found blocked or runnable has its
 * wchan read first: back in the same channel, or in the one it was last
 * blocked in (the handle keeps its hash and state), it is in the state it
 * had there, since a kernel function sleeps in one state; with a trusted
 * wchan "0" it is runnable; either way stat, the dearest file, is not read.
 * A "0" is trusted only from a thread whose wchan has named a channel before
 * (a refused wchan reads "0") that is not its process's main thread (a
 * zombie's reads "0").  A thread blocked in a channel other than a futex's
 * has its syscall file read with its wchan, and the call goes beside the
 * channel, "rwsem_down_read_slowpath (munmap)": a channel alone names a
 * kernel function many calls share.  A futex waiter's syscall file is read
 * once to learn its call, then first and alone while the thread is runnable
 * or back in that call (tf_call_first), and the lock census takes that line
 * without a read of its own.  stat's own wchan field (35) is only a 0/1 flag
 * since Linux 5.16, so the channel's name needs the wchan file.  A kept file
 * of an exited thread reads ESRCH: the handle closes its files and opens the
 * path once more, in case the tid is a new thread's.  The files kept are
 * capped at half of RLIMIT_NOFILE's soft limit (less a reserve); past that a
 * file is opened, read and closed each time.  Decoding is in decode_thread.c.
 */

/* stat is about 300 bytes (the comm is at most 15); wchan and schedstat far less. */
#define TF_BUF 1024

/* What one reading knows while its files are read in turn. */
struct tf_reading {
	struct thread_sample *t;
	struct thread_handle *h;
	bool ran;           /* schedstat changed since the last reading (or cannot tell) */
	bool wchan_read;    /* the channel was read now, not kept from the last reading */
	bool stat_read;     /* the state was read now */
	bool wchan_zero;    /* the wchan read now said "0": not blocked */
	uint32_t chan_hash; /* of the wchan read now, before any call is put beside it */
	bool have_line;     /* the syscall file was read first, into line, and did not tell */
	struct syscall_line line;
};

/*
 * The syscall line the calling thread's last reading decoded, which the
 * lock census asks for right after it (thread_handle_syscall): read once,
 * not twice.  Per thread of the caller, so that readers on two threads
 * cannot hand each other a line.
 */
static _Thread_local struct {
	const struct thread_handle *h;
	pid_t tid;
	struct syscall_line line;
} tf_fresh;

static void
tf_fresh_keep(const struct thread_handle *h, const struct syscall_line *line)
{
	tf_fresh.h = h;
	tf_fresh.tid = h->tid;
	tf_fresh.line = *line;
}

/*
 * One kept file: its name under the task's directory, when it is read, and
 * what it gives.  take returns 0, or -1 when the file says nothing usable.
 * When due says no, keep copies what the last reading had (may be NULL).
 */
struct thread_file {
	const char *name;
	bool (*due)(const struct tf_reading *r);
	int (*take)(const char *buf, size_t n, struct tf_reading *r);
	void (*keep)(struct tf_reading *r);
};

static bool
tf_always(const struct tf_reading *r)
{
	(void)r;
	return true;
}

static int
tf_take_schedstat(const char *buf, size_t n, struct tf_reading *r)
{
	const struct thread_sample *last = &r->h->last;
	struct task_schedstat ss;

	if (task_schedstat_decode(buf, n, &ss) != 0 || ss.cpu_ns == 0)
		return -1;
	r->t->cpu_ns = ss.cpu_ns;
	r->t->run_delay_ns = ss.run_delay_ns;
	r->t->have |= THREAD_HAVE_TIMES;
	r->ran = !r->h->have_last || !(last->have & THREAD_HAVE_TIMES) ||
		 last->cpu_ns != ss.cpu_ns || last->run_delay_ns != ss.run_delay_ns;
	return 0;
}

static bool
tf_blocked(enum thread_state s)
{
	return s == THREAD_SLEEPING || s == THREAD_DISK;
}

static bool
tf_runnable(enum thread_state s)
{
	return s == THREAD_RUNNING || s == THREAD_RUNNABLE;
}

/* FNV-1a: a channel's name as a handle remembers it. */
static uint32_t
tf_chan_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/*
 * A "0" in the wchan can only mean runnable: the wchan has named a channel
 * before (a refused one reads "0" whatever the state), and it is not its
 * process's main thread (a zombie's wchan, its stack gone, reads "0" too).
 */
static bool
tf_zero_trusted(const struct thread_handle *h)
{
	return h->wchan_named && h->tid != h->pid;
}

/*
 * Whether the syscall file is read first, before the wchan and the stat:
 * the thread ran since a reading that found it runnable or in a futex wait,
 * and a futex call it was blocked in is known.  Its syscall file then
 * tells both cases apart in one read: "running" for a runnable thread
 * (TASK_RUNNING), and for a blocked one its call, which, the same as that
 * known one (number and op), is the same wait, in the same channel and
 * state; the lock census, which wants that line, then reads nothing more.
 */
static bool
tf_call_first(const struct tf_reading *r)
{
	const struct thread_handle *h = r->h;

	if (!r->ran || !h->have_last || !h->have_call || h->no_syscall)
		return false;
	if (tf_blocked(h->last.state))
		return wchan_is_futex_wait(h->last.channel);
	return tf_runnable(h->last.state);
}

/* The syscall file read first: whether it told the state and channel. */
static bool
tf_take_call_first(const char *buf, size_t n, struct tf_reading *r)
{
	const struct thread_handle *h = r->h;

	if (syscall_line_decode(buf, n, syscall_arch_native(), &r->line) != 0)
		return false;
	if (r->line.state == SYSCALL_RUNNING) {
		r->t->state = THREAD_RUNNABLE;
		return true;
	}
	if (r->line.state != SYSCALL_IN)
		return false;
	tf_fresh_keep(h, &r->line);
	if (r->line.nr != h->call_nr || r->line.arg[1] != h->call_op) {
		r->have_line = true; /* another call: the wchan says where it waits */
		return false;
	}
	r->t->state = h->call_state;
	snprintf(r->t->channel, sizeof(r->t->channel), "%s", h->call_chan);
	return true;
}

/*
 * Whether the wchan is read before the stat: the thread ran since its last
 * reading, which found it blocked in a channel, or runnable with a trusted
 * "0" or a channel it was blocked in before remembered.
 */
static bool
tf_channel_first(const struct tf_reading *r)
{
	const struct thread_handle *h = r->h;

	if (!r->ran || !h->have_last)
		return false;
	if (tf_blocked(h->last.state))
		return h->last.channel[0] != '\0';
	return tf_runnable(h->last.state) && (tf_zero_trusted(h) || h->have_chan);
}

/*
 * The state a wchan read first tells without the stat, or -1: a kernel
 * function sleeps in one state (futex_do_wait interruptibly, io_schedule
 * not), so a thread back in the channel of its last reading, or in the one
 * it was last read blocked in (a mutex worker back on its futex after it
 * ran), is in the state it was in there; a trusted "0" is runnable.
 */
static int
tf_state_known(const struct tf_reading *r)
{
	const struct thread_handle *h = r->h;
	const struct thread_sample *last = &h->last;
	size_t n = strlen(r->t->channel);

	if (!r->wchan_read || !tf_channel_first(r))
		return -1;
	if (r->wchan_zero)
		return tf_zero_trusted(h) ? (int)THREAD_RUNNABLE : -1;
	/* the last one's may have its call beside it, "anon_pipe_read (read)" */
	if (tf_blocked(last->state) && n > 0 && strncmp(r->t->channel, last->channel, n) == 0 &&
	    (last->channel[n] == '\0' || last->channel[n] == ' '))
		return (int)last->state;
	if (n > 0 && h->have_chan && h->chan_hash == r->chan_hash)
		return (int)h->chan_state;
	return -1;
}

static bool
tf_stat_due(const struct tf_reading *r)
{
	return r->ran && tf_state_known(r) < 0;
}

static int
tf_take_stat(const char *buf, size_t n, struct tf_reading *r)
{
	struct thread_stat st;

	if (thread_stat_decode(buf, n, &st) != 0)
		return -1;
	r->t->state = thread_state_of(st.state);
	r->t->nthreads = st.nthreads <= (uint64_t)INT_MAX ? (int)st.nthreads : 0;
	r->stat_read = true;
	if (!tf_blocked(r->t->state))
		r->t->channel[0] = '\0'; /* a channel read first, left since */
	return 0;
}

static void
tf_keep_stat(struct tf_reading *r)
{
	int s = tf_state_known(r);

	r->t->state = s >= 0 ? (enum thread_state)s : r->h->last.state;
}

/*
 * A blocked thread's channel, unless it is blocked where it was and has not
 * run since; read first (before the state) for one blocked before that ran.
 */
static bool
tf_wchan_due(const struct tf_reading *r)
{
	if (r->wchan_read)
		return false;
	if (!r->stat_read)
		return tf_channel_first(r);
	return tf_blocked(r->t->state) &&
	       (r->ran || !tf_blocked(r->h->last.state) || r->h->last.channel[0] == '\0');
}

static int
tf_take_wchan(const char *buf, size_t n, struct tf_reading *r)
{
	if (wchan_decode(buf, n, r->t->channel, sizeof(r->t->channel)) != 0)
		r->t->channel[0] = '\0';
	else if (r->t->channel[0] == '\0')
		r->wchan_zero = true;
	else
		r->h->wchan_named = true;
	r->chan_hash = tf_chan_hash(r->t->channel);
	r->wchan_read = true;
	return 0;
}

/* Its futex call is known, for the channel and state read now. */
static bool
tf_call_known(const struct tf_reading *r)
{
	const struct thread_handle *h = r->h;

	return h->have_call && h->call_state == r->t->state &&
	       strcmp(h->call_chan, r->t->channel) == 0;
}

/*
 * A channel read just now, of a thread whose syscall file may be read: not
 * a futex's, whose call goes beside it, or a futex's whose call is not
 * known yet (learnt once; later readings read the call first).
 */
static bool
tf_syscall_due(const struct tf_reading *r)
{
	if (!r->wchan_read || !tf_blocked(r->t->state) || r->t->channel[0] == '\0' ||
	    r->h->no_syscall || r->have_line)
		return false;
	return !wchan_is_futex_wait(r->t->channel) || !tf_call_known(r);
}

/* The call a blocked thread is in, read now: beside its channel, or learnt for a futex's. */
static int
tf_use_line(struct tf_reading *r, const struct syscall_line *line)
{
	struct thread_handle *h = r->h;
	char both[THREAD_CHANNEL_LEN];
	int w;

	if (line->state != SYSCALL_IN || line->name == NULL)
		return -1; /* not in a call (a fault, say): the channel alone */
	tf_fresh_keep(h, line);
	if (wchan_is_futex_wait(r->t->channel)) {
		h->have_call = strlen(r->t->channel) < sizeof(h->call_chan);
		h->call_state = r->t->state;
		h->call_nr = line->nr;
		h->call_op = line->arg[1];
		snprintf(h->call_chan, sizeof(h->call_chan), "%s", r->t->channel);
		return 0;
	}
	w = snprintf(both, sizeof(both), "%s (%s)", r->t->channel, line->name);
	if (w > 0 && (size_t)w < sizeof(both))
		memcpy(r->t->channel, both, (size_t)w + 1);
	return 0;
}

static int
tf_take_syscall(const char *buf, size_t n, struct tf_reading *r)
{
	struct syscall_line line;

	if (syscall_line_decode(buf, n, syscall_arch_native(), &line) != 0)
		return -1;
	return tf_use_line(r, &line);
}

static void
tf_keep_wchan(struct tf_reading *r)
{
	if (r->wchan_read)
		return;
	if (tf_blocked(r->t->state))
		snprintf(r->t->channel, sizeof(r->t->channel), "%s", r->h->last.channel);
}

/* In reading order; a file is read only when the ones above it were. */
static const struct thread_file thread_files[] = {
	{ "schedstat", tf_always, tf_take_schedstat, NULL },
	{ "stat", tf_stat_due, tf_take_stat, tf_keep_stat },
	{ "wchan", tf_wchan_due, tf_take_wchan, tf_keep_wchan },
	{ "syscall", tf_syscall_due, tf_take_syscall, NULL },
};
#define NFILES (sizeof(thread_files) / sizeof(thread_files[0]))
_Static_assert(NFILES <= THREAD_FILES, "thread_handle has a descriptor for each kept file");
/* The syscall file's slot, which the lock census reads too (thread_handle_syscall). */
#define TF_SYSCALL 3
#define TF_STAT 1
#define TF_WCHAN 2
/*
 * The order the files are read in: the table's, or for a thread blocked at
 * its last reading that ran since, its channel before its state.
 */
static const size_t tf_order_state_first[NFILES] = { 0, TF_STAT, TF_WCHAN, TF_SYSCALL };
static const size_t tf_order_channel_first[NFILES] = { 0, TF_WCHAN, TF_STAT, TF_SYSCALL };

void
thread_handle_close(struct thread_handle *h)
{
	size_t i;

	for (i = 0; i < THREAD_FILES; i++) {
		if (h->fd[i] >= 0) {
			close(h->fd[i]);
			kept_fd_drop();
		}
		h->fd[i] = -1;
	}
}

/* File i of the thread read whole into buf: its length, or -1 with errno. */
static ssize_t
tf_read(struct thread_handle *h, size_t i, char *buf, size_t cap)
{
	char path[64];
	ssize_t n;
	int fd = h->fd[i], e;

	if (fd < 0) {
		snprintf(path, sizeof(path), "/proc/%ld/task/%ld/%s", (long)h->pid, (long)h->tid,
			 thread_files[i].name);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			return -1;
		if (kept_fd_take())
			h->fd[i] = fd;
	}
	n = small_pread(fd, buf, cap);
	e = errno;
	if (h->fd[i] != fd)
		close(fd);
	errno = e;
	return n;
}

/*
 * The syscall file read first (tf_call_first): 1 when it told the state and
 * channel, 0 when the other files are to be read, -1 when the thread is
 * gone (errno set).
 */
static int
tf_read_call_first(struct thread_handle *h, struct tf_reading *r, char *buf, size_t cap)
{
	ssize_t n = tf_read(h, TF_SYSCALL, buf, cap);

	if (n < 0 && proc_gone(errno))
		return -1;
	if (n < 0 && (errno == EACCES || errno == EPERM))
		h->no_syscall = true;
	return n > 0 && tf_take_call_first(buf, (size_t)n, r) ? 1 : 0;
}

/* One pass over the table: 1 read, 0 gone or unreadable, 2 gone from kept files (retry). */
static int
tf_read_all(struct thread_handle *h, struct thread_sample *t)
{
	struct tf_reading r = { .t = t, .h = h, .ran = true };
	const size_t *order = tf_order_state_first;
	char buf[TF_BUF];
	bool kept;
	ssize_t n;
	size_t k, i;

	for (k = 0; k < NFILES; k++) {
		i = order[k];
		if (k == 1 && tf_call_first(&r)) {
			kept = h->fd[TF_SYSCALL] >= 0;
			if ((n = tf_read_call_first(h, &r, buf, sizeof(buf))) != 0)
				return n > 0 ? 1 : kept ? 2 : 0;
		}
		if (k == 1 && tf_channel_first(&r))
			i = (order = tf_order_channel_first)[k];
		if (!thread_files[i].due(&r)) {
			if (thread_files[i].keep != NULL)
				thread_files[i].keep(&r);
			continue;
		}
		kept = h->fd[i] >= 0;
		if ((n = tf_read(h, i, buf, sizeof(buf))) < 0 && proc_gone(errno))
			return kept ? 2 : 0;
		if (n < 0 && i == TF_SYSCALL && (errno == EACCES || errno == EPERM))
			h->no_syscall = true;
		if (n >= 0 && thread_files[i].take(buf, (size_t)n, &r) == 0)
			continue;
		if (i == 0)
			r.ran = true; /* no schedstat: every other file is read */
		else if (i == TF_STAT)
			return 0; /* no state: skipped, like a thread that exited */
	}
	if (r.have_line && r.wchan_read && tf_blocked(t->state) && t->channel[0] != '\0')
		(void)tf_use_line(&r, &r.line); /* the call read first, in another wait */
	if (r.stat_read && r.wchan_read && tf_blocked(t->state) && t->channel[0] != '\0') {
		h->have_chan = true; /* read blocked in a channel: remembered with its state */
		h->chan_hash = r.chan_hash;
		h->chan_state = t->state;
	}
	return 1;
}

int
thread_handle_read(struct thread_handle *h, struct thread_sample *t)
{
	int r;

	memset(t, 0, sizeof(*t));
	t->pid = h->pid;
	t->tid = h->tid;
	tf_fresh.h = NULL;
	if ((r = tf_read_all(h, t)) == 2) {
		/* the thread read before is gone; the tid may be a new one's */
		thread_handle_close(h);
		h->have_last = h->have_chan = h->have_call = false;
		tf_fresh.h = NULL;
		memset(t, 0, sizeof(*t));
		t->pid = h->pid;
		t->tid = h->tid;
		if ((r = tf_read_all(h, t)) == 1)
			t->have |= THREAD_HAVE_NEW;
	}
	if (r != 1) {
		thread_handle_close(h);
		h->have_last = h->have_chan = h->have_call = false;
		tf_fresh.h = NULL;
		return 0;
	}
	h->last = *t;
	h->have_last = true;
	return 1;
}

int
thread_handle_syscall(struct thread_handle *h, struct syscall_line *out)
{
	int fd = h->fd[TF_SYSCALL], r, e;

	if (tf_fresh.h == h && tf_fresh.tid == h->tid) {
		*out = tf_fresh.line; /* its reading just read it */
		tf_fresh.h = NULL;
		return 0;
	}
	if (fd < 0) {
		if ((fd = thread_syscall_open(h->pid, h->tid)) < 0)
			return -1;
		if (kept_fd_take())
			h->fd[TF_SYSCALL] = fd;
	}
	r = thread_syscall_read_fd(fd, out);
	e = errno;
	if (h->fd[TF_SYSCALL] != fd)
		close(fd);
	errno = e;
	return r;
}
