/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * External commands (sysbench, pgbench, a --setup script): argv expansion,
 * start with execvp (never a shell), output read through non-blocking pipes
 * by the engine's loop, and exit status decoded into one line.  Each command
 * leads its own process group, registered in pgroup.h.
 */
#ifndef SCALETOP_SPAWN_H
#define SCALETOP_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SPAWN_LINE_MAX 1024 /* longer lines are delivered in pieces of this size */

/* Collects bytes from one pipe into lines. */
struct spawn_lines {
	char buf[SPAWN_LINE_MAX];
	size_t len;
};

/* Called once per complete line, without its newline (a trailing \r is dropped too). */
typedef void (*spawn_line_cb)(void *arg, int stream, const char *line);

enum { SPAWN_STDOUT, SPAWN_STDERR };

struct spawn_proc {
	pid_t pid;  /* the command, leader of its process group; -1 once reaped */
	int fd[2];  /* [SPAWN_STDOUT], [SPAWN_STDERR]: non-blocking read ends; -1 after EOF */
	int status; /* wait status, valid once reaped */
	bool reaped;
	struct spawn_lines lines[2];
};

/*
 * Copies the NULL-terminated template, replacing {n} with n and {duration}
 * with duration (seconds) inside every word, e.g. "--threads={n}".  A brace
 * not followed by a name and } is kept as is ("{}", "{1..3}"), and so is the
 * shell's "${NAME}".  An unknown {name} ("{N}", "{threads}"), or {duration}
 * when duration < 0 (not fixed), is an error naming the word and the known
 * placeholders.  *out is malloc'd: free it with spawn_argv_free.
 */
int spawn_argv_expand(const char *const *tmpl, long n, long duration, char ***out, char *err,
		      size_t errlen);
/*
 * The same with every placeholder's value: latlog, the path prefix {latlog}
 * becomes (pgbench --log-prefix={latlog}); NULL when there is none, which
 * makes {latlog} unknown.
 */
struct spawn_vars {
	long n;
	long duration;
	const char *latlog;
};
int spawn_argv_fill(const char *const *tmpl, const struct spawn_vars *vars, char ***out, char *err,
		    size_t errlen);
/* Whether a word of the template holds {name}. */
bool spawn_argv_uses(const char *const *tmpl, const char *name);
/* The template's placeholders checked before any step: 0 (uses_n: {n} is in it), or -1. */
int spawn_argv_check(const char *const *tmpl, bool *uses_n, char *err, size_t errlen);
void spawn_argv_free(char **argv);

/*
 * Starts argv[0] (searched in PATH) with stdin from /dev/null and stdout,
 * stderr to pipes.  A command that cannot be run fails here, with one line
 * such as "sysbench: command not found; install it or give its full path".
 */
int spawn_start(char *const argv[], struct spawn_proc *p, char *err, size_t errlen);

/*
 * Reads whatever both pipes hold now, without blocking, calling cb per
 * line; at EOF a last unterminated line is delivered too.  cb may be NULL
 * (output discarded).  Returns how many pipes are still open.
 */
int spawn_read(struct spawn_proc *p, spawn_line_cb cb, void *arg);

/*
 * Non-blocking: true once the command has exited and been reaped.  Anything
 * it left running in its group is killed first, so nothing outlives a step.
 */
bool spawn_poll(struct spawn_proc *p);
/* Sends sig to the command's whole group (no-op once reaped). */
void spawn_kill(struct spawn_proc *p, int sig);
/* Waits up to timeout_ns for the command to exit (spawn_poll in a loop). */
bool spawn_wait(struct spawn_proc *p, uint64_t timeout_ns);
/* Kills and reaps the command if it is still running, and closes the pipes. */
void spawn_close(struct spawn_proc *p);

/* "exited with status 3", "killed by signal 9 (Killed)". */
void spawn_reason(int status, char *buf, size_t len);

/*
 * Runs a --setup/--teardown command to completion, killing its group if it
 * takes longer than timeout_ns.  out (if not NULL) receives the end of its
 * combined output.  Processes it left behind (a server it started) are left
 * alone once it exits in time.  0 when it exited with status 0; otherwise
 * -1 and one line naming the command, what happened and its last output.
 */
int spawn_run(char *const argv[], uint64_t timeout_ns, char *out, size_t outlen, char *err,
	      size_t errlen);

/*
 * A pipe whose ends are close-on-exec and above 2 (so dup2 onto 0..2 in a
 * child never collides), the read end non-blocking.  0 or -1 (errno).
 */
int spawn_pipe(int fds[2]);
/* spawn_read for one fd: drains it into lb, calling cb; closes it and sets -1 at EOF. */
void spawn_drain(int *fd, struct spawn_lines *lb, int stream, spawn_line_cb cb, void *arg);

#endif
