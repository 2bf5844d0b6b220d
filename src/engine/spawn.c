/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * External commands: expanded argv, execvp in a child that leads its own
 * process group, output through non-blocking pipes, and a one-line account
 * of how the command ended.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/pgroup.h"
#include "scaletop/platform.h"
#include "scaletop/spawn.h"

/* What the child reports on its error pipe when it cannot exec. */
enum spawn_stage { SPAWN_STAGE_STDIN, SPAWN_STAGE_DUP, SPAWN_STAGE_EXEC };
struct spawn_fail {
	int stage;
	int error;
};

static void
spawn_free_words(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
spawn_argv_free(char **argv)
{
	size_t n = 0;

	if (argv == NULL)
		return;
	while (argv[n] != NULL)
		n++;
	spawn_free_words(argv, n);
}

/*
 * Length of a placeholder name at w + i + 1, where w[i] is '{' ("{n}" gives
 * 1), or 0 when none starts there: a name is a letter or '_', then letters,
 * digits and '_', then '}'.  "${NAME}" is the shell's, in an sh -c script.
 */
static size_t
spawn_placeholder(const char *w, size_t i)
{
	const char *s = w + i + 1;
	size_t j = 0;

	if (w[i] != '{' || (i > 0 && w[i - 1] == '$'))
		return 0;
	if (!isalpha((unsigned char)s[0]) && s[0] != '_')
		return 0;
	while (isalnum((unsigned char)s[j]) || s[j] == '_')
		j++;
	return s[j] == '}' ? j : 0;
}

static char *
spawn_word_expand(const char *w, int idx, const struct spawn_vars *v, char *err, size_t errlen)
{
	/* A 3-byte {n} becomes at most 20 digits, and each 8-byte {latlog} its path. */
	size_t L = v->latlog != NULL ? strlen(v->latlog) : 0;
	size_t cap = strlen(w) * 8 + (strlen(w) / 8 + 1) * L + 1, o = 0, len, i;
	char *out = malloc(cap);

	if (out == NULL) {
		st_error(err, errlen, "out of memory expanding the command");
		return NULL;
	}
	for (i = 0; w[i] != '\0';) {
		if ((len = spawn_placeholder(w, i)) == 0) {
			out[o++] = w[i++];
			continue;
		}
		if (len == 1 && w[i + 1] == 'n') {
			o += (size_t)snprintf(out + o, cap - o, "%ld", v->n);
		} else if (len == 8 && strncmp(w + i + 1, "duration", 8) == 0) {
			if (v->duration < 0) {
				st_error(err, errlen,
					 "command word %d \"%s\" uses {duration}, but the steps "
					 "have no fixed length; give --duration or drop {duration}",
					 idx + 1, w);
				free(out);
				return NULL;
			}
			o += (size_t)snprintf(out + o, cap - o, "%ld", v->duration);
		} else if (len == 6 && strncmp(w + i + 1, "latlog", 6) == 0 && v->latlog != NULL) {
			o += (size_t)snprintf(out + o, cap - o, "%s", v->latlog);
		} else {
			st_error(err, errlen,
				 "unknown placeholder {%.*s} in command word %d \"%s\"; the "
				 "known ones are {n} (the step's N), {duration} (seconds) and "
				 "{latlog} (pgbench --log-prefix)",
				 (int)len, w + i + 1, idx + 1, w);
			free(out);
			return NULL;
		}
		i += len + 2;
	}
	out[o] = '\0';
	return out;
}

int
spawn_argv_fill(const char *const *tmpl, const struct spawn_vars *vars, char ***out, char *err,
		size_t errlen)
{
	size_t count = 0, i;
	char **v;

	*out = NULL;
	if (tmpl == NULL || tmpl[0] == NULL || tmpl[0][0] == '\0')
		return st_error(err, errlen, "no command given; put it after --");
	while (tmpl[count] != NULL)
		count++;
	if ((v = calloc(count + 1, sizeof(*v))) == NULL)
		return st_error(err, errlen, "out of memory expanding the command");
	for (i = 0; i < count; i++) {
		if ((v[i] = spawn_word_expand(tmpl[i], (int)i, vars, err, errlen)) == NULL) {
			spawn_free_words(v, i);
			return -1;
		}
	}
	*out = v;
	return 0;
}

int
spawn_argv_expand(const char *const *tmpl, long n, long duration, char ***out, char *err,
		  size_t errlen)
{
	struct spawn_vars v = { n, duration, NULL };

	return spawn_argv_fill(tmpl, &v, out, err, errlen);
}

bool
spawn_argv_uses(const char *const *tmpl, const char *name)
{
	size_t i, k, len, nlen = strlen(name);

	for (i = 0; tmpl != NULL && tmpl[i] != NULL; i++) {
		for (k = 0; tmpl[i][k] != '\0'; k++) {
			len = spawn_placeholder(tmpl[i], k);
			if (len == nlen && strncmp(tmpl[i] + k + 1, name, len) == 0)
				return true;
		}
	}
	return false;
}

int
spawn_argv_check(const char *const *tmpl, bool *uses_n, char *err, size_t errlen)
{
	struct spawn_vars vars = { 1, 1, "latlog" };
	char **v;

	if (spawn_argv_fill(tmpl, &vars, &v, err, errlen) != 0)
		return -1;
	spawn_argv_free(v);
	*uses_n = spawn_argv_uses(tmpl, "n");
	return 0;
}

/* Moves fd above 2 and marks it close-on-exec. */
static int
spawn_fd_high(int *fd)
{
	int nfd;

	if (*fd > 2)
		return fcntl(*fd, F_SETFD, FD_CLOEXEC);
	if ((nfd = fcntl(*fd, F_DUPFD_CLOEXEC, 3)) == -1)
		return -1;
	close(*fd);
	*fd = nfd;
	return 0;
}

static int
spawn_pipe_make(int fds[2], bool nonblock)
{
	int p[2], fl, saved;

	if (pipe(p) == -1)
		return -1;
	if (spawn_fd_high(&p[0]) == -1 || spawn_fd_high(&p[1]) == -1)
		goto fail;
	if (nonblock &&
	    ((fl = fcntl(p[0], F_GETFL)) == -1 || fcntl(p[0], F_SETFL, fl | O_NONBLOCK) == -1))
		goto fail;
	fds[0] = p[0];
	fds[1] = p[1];
	return 0;
fail:
	saved = errno;
	close(p[0]);
	close(p[1]);
	errno = saved;
	return -1;
}

int
spawn_pipe(int fds[2])
{
	return spawn_pipe_make(fds, true);
}

static void
spawn_close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

static void
spawn_emit(struct spawn_lines *lb, int stream, spawn_line_cb cb, void *arg)
{
	if (lb->len > 0 && lb->buf[lb->len - 1] == '\r')
		lb->len--;
	lb->buf[lb->len] = '\0';
	if (cb != NULL)
		cb(arg, stream, lb->buf);
	lb->len = 0;
}

static void
spawn_feed(struct spawn_lines *lb, const char *p, size_t n, int stream, spawn_line_cb cb, void *arg)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] == '\n') {
			spawn_emit(lb, stream, cb, arg);
			continue;
		}
		if (lb->len == sizeof(lb->buf) - 1)
			spawn_emit(lb, stream, cb, arg);
		lb->buf[lb->len++] = p[i];
	}
}

void
spawn_drain(int *fd, struct spawn_lines *lb, int stream, spawn_line_cb cb, void *arg)
{
	char chunk[4096];
	ssize_t n;
	int rounds;

	/* Bounded, so a command that writes without pause cannot starve the loop. */
	for (rounds = 0; *fd >= 0 && rounds < 16; rounds++) {
		n = read(*fd, chunk, sizeof(chunk));
		if (n > 0) {
			spawn_feed(lb, chunk, (size_t)n, stream, cb, arg);
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		/* EOF, or a read error: either way no more output will come. */
		if (lb->len > 0)
			spawn_emit(lb, stream, cb, arg);
		spawn_close_fd(fd);
	}
}

int
spawn_read(struct spawn_proc *p, spawn_line_cb cb, void *arg)
{
	int open = 0, i;

	for (i = 0; i < 2; i++) {
		if (p->fd[i] >= 0)
			spawn_drain(&p->fd[i], &p->lines[i], i, cb, arg);
		if (p->fd[i] >= 0)
			open++;
	}
	return open;
}

static void
spawn_child(char *const argv[], int out, int errfd, int errpipe)
{
	struct spawn_fail f = { SPAWN_STAGE_STDIN, 0 };
	int null;

	/* The pipes are above 2 and close-on-exec, so the dup2s cannot collide with them. */
	if ((null = open("/dev/null", O_RDONLY)) == -1 || dup2(null, 0) == -1)
		goto fail;
	if (null > 2)
		close(null);
	f.stage = SPAWN_STAGE_DUP;
	if (dup2(out, 1) == -1 || dup2(errfd, 2) == -1)
		goto fail;
	f.stage = SPAWN_STAGE_EXEC;
	execvp(argv[0], argv);
fail:
	f.error = errno;
	(void)!write(errpipe, &f, sizeof(f));
	_exit(127);
}

static int
spawn_exec_error(const char *cmd, const struct spawn_fail *f, char *err, size_t errlen)
{
	if (f->stage == SPAWN_STAGE_EXEC && f->error == ENOENT && strchr(cmd, '/') == NULL)
		return st_error(err, errlen,
				"%s: command not found in PATH; install it or give its full path",
				cmd);
	if (f->stage == SPAWN_STAGE_EXEC)
		return st_error(err, errlen, "%s: cannot run it: %s", cmd, strerror(f->error));
	return st_error(err, errlen, "%s: cannot start it: %s: %s", cmd,
			f->stage == SPAWN_STAGE_STDIN ? "cannot open /dev/null" : "dup2",
			strerror(f->error));
}

/* Blocks until the child has exec'd (EOF) or reported why it could not; 1 if it reported. */
static int
spawn_exec_result(int fd, struct spawn_fail *f)
{
	size_t got = 0;
	ssize_t n;

	while (got < sizeof(*f)) {
		n = read(fd, (char *)f + got, sizeof(*f) - got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got == sizeof(*f);
}

int
spawn_start(char *const argv[], struct spawn_proc *p, char *err, size_t errlen)
{
	int out[2] = { -1, -1 }, errp[2] = { -1, -1 }, ep[2] = { -1, -1 }, saved;
	struct spawn_fail f;
	pid_t pid;

	memset(p, 0, sizeof(*p));
	p->pid = -1;
	p->fd[0] = p->fd[1] = -1;
	if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0')
		return st_error(err, errlen, "no command given; put it after --");
	if (spawn_pipe_make(out, true) == -1 || spawn_pipe_make(errp, true) == -1 ||
	    spawn_pipe_make(ep, false) == -1) {
		saved = errno;
		spawn_close_fd(&out[0]);
		spawn_close_fd(&out[1]);
		spawn_close_fd(&errp[0]);
		spawn_close_fd(&errp[1]);
		return st_error(err, errlen, "%s: cannot make a pipe: %s", argv[0],
				strerror(saved));
	}
	if ((pid = pgroup_fork(err, errlen)) == 0)
		spawn_child(argv, out[1], errp[1], ep[1]);
	spawn_close_fd(&out[1]);
	spawn_close_fd(&errp[1]);
	spawn_close_fd(&ep[1]);
	if (pid != -1 && spawn_exec_result(ep[0], &f)) {
		(void)pgroup_reap(pid, true, true, NULL);
		spawn_exec_error(argv[0], &f, err, errlen);
		pid = -1;
	}
	spawn_close_fd(&ep[0]);
	if (pid == -1) {
		spawn_close_fd(&out[0]);
		spawn_close_fd(&errp[0]);
		return -1;
	}
	p->pid = pid;
	p->fd[SPAWN_STDOUT] = out[0];
	p->fd[SPAWN_STDERR] = errp[0];
	return 0;
}

static bool
spawn_reap(struct spawn_proc *p, bool sweep, bool block)
{
	int r;

	if (p->reaped || p->pid <= 0)
		return true;
	if ((r = pgroup_reap(p->pid, sweep, block, &p->status)) == 0)
		return false;
	if (r == -1)
		p->status = 0xff00; /* not our child any more: report "exited with status 255" */
	p->reaped = true;
	p->pid = -1;
	return true;
}

bool
spawn_poll(struct spawn_proc *p)
{
	return spawn_reap(p, true, false);
}

void
spawn_kill(struct spawn_proc *p, int sig)
{
	if (!p->reaped && p->pid > 0)
		(void)kill(-p->pid, sig);
}

static void
spawn_nap(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

bool
spawn_wait(struct spawn_proc *p, uint64_t timeout_ns)
{
	uint64_t deadline = mono_now_ns() + timeout_ns;

	while (!spawn_poll(p)) {
		if (mono_now_ns() >= deadline)
			return false;
		spawn_nap(2000000);
	}
	return true;
}

void
spawn_close(struct spawn_proc *p)
{
	if (!p->reaped && p->pid > 0) {
		spawn_kill(p, SIGKILL);
		(void)spawn_reap(p, true, true);
	}
	spawn_close_fd(&p->fd[0]);
	spawn_close_fd(&p->fd[1]);
}

void
spawn_reason(int status, char *buf, size_t len)
{
	const char *name;

	if (WIFEXITED(status)) {
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
	} else if (WIFSIGNALED(status)) {
		name = strsignal(WTERMSIG(status));
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 name != NULL ? name : "unknown");
	} else {
		snprintf(buf, len, "ended with wait status %#x", (unsigned)status);
	}
}

/* spawn_run's output: the tail of everything, plus the last non-empty line for messages. */
struct spawn_tail {
	char *out;
	size_t outlen, used;
	char last[160];
};

static void
spawn_tail_line(void *arg, int stream, const char *line)
{
	struct spawn_tail *t = arg;
	size_t n = strlen(line) + 1, drop;

	if (line[0] != '\0')
		snprintf(t->last, sizeof(t->last), "%s", line);
	if (t->out == NULL || t->outlen < 2)
		return;
	if (n > t->outlen - 1) {
		/* Longer than the whole buffer: keep its end. */
		line += n - t->outlen + 1;
		n = t->outlen - 1;
	}
	if (t->used + n > t->outlen - 1) {
		/* Keep the end: errors come last. */
		drop = t->used + n - (t->outlen - 1);
		memmove(t->out, t->out + drop, t->used - drop);
		t->used -= drop;
	}
	memcpy(t->out + t->used, line, n - 1);
	t->out[t->used + n - 1] = '\n';
	t->used += n;
	t->out[t->used] = '\0';
}

static int
spawn_run_error(const char *cmd, const char *what, const struct spawn_tail *t, char *err,
		size_t errlen)
{
	if (t->last[0] != '\0')
		return st_error(err, errlen, "%s: %s; its last output: \"%s\"", cmd, what, t->last);
	return st_error(err, errlen, "%s: %s, with no output", cmd, what);
}

int
spawn_run(char *const argv[], uint64_t timeout_ns, char *out, size_t outlen, char *err,
	  size_t errlen)
{
	struct spawn_tail t = { out, outlen, 0, "" };
	uint64_t deadline = mono_now_ns() + timeout_ns;
	struct spawn_proc p;
	struct pollfd pfd[2];
	char why[96];
	int n, i;

	if (out != NULL && outlen > 0)
		out[0] = '\0';
	if (spawn_start(argv, &p, err, errlen) == -1)
		return -1;
	/* Wait for the command itself, not for EOF: a server it started may keep the pipes. */
	while (!spawn_reap(&p, false, false)) {
		if (mono_now_ns() >= deadline) {
			spawn_close(&p);
			snprintf(why, sizeof(why), "did not finish within %.1f s and was killed",
				 (double)timeout_ns / 1e9);
			return spawn_run_error(argv[0], why, &t, err, errlen);
		}
		n = 0;
		for (i = 0; i < 2; i++) {
			if (p.fd[i] >= 0) {
				pfd[n].fd = p.fd[i];
				pfd[n++].events = POLLIN;
			}
		}
		if (n > 0)
			(void)poll(pfd, (nfds_t)n, 10);
		else
			spawn_nap(10000000);
		spawn_read(&p, spawn_tail_line, &t);
	}
	spawn_read(&p, spawn_tail_line, &t);
	for (i = 0; i < 2; i++) {
		/* Whatever is still unterminated in the buffers counts too. */
		if (p.lines[i].len > 0)
			spawn_emit(&p.lines[i], i, spawn_tail_line, &t);
	}
	spawn_close(&p);
	if (WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0)
		return 0;
	spawn_reason(p.status, why, sizeof(why));
	return spawn_run_error(argv[0], why, &t, err, errlen);
}
