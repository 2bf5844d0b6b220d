/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * External commands, run for real: printf, false, sleep, cat, yes, ls.
 * No shell is involved here either.
 */
#include "config.h"

#include <errno.h>
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
#include "../tap.h"

#define SEC UINT64_C(1000000000)

/* Generous: only a hang would hit it, never a slow machine. */
#define PATIENCE (60 * SEC)

struct collected {
	char text[2][2048]; /* per stream, lines joined with '|' */
	int lines[2];
};

static void
collect(void *arg, int stream, const char *line)
{
	struct collected *c = arg;
	size_t used = strlen(c->text[stream]);

	snprintf(c->text[stream] + used, sizeof(c->text[stream]) - used, "%s%s",
		 c->lines[stream] > 0 ? "|" : "", line);
	c->lines[stream]++;
}

/* Reads both pipes to EOF and reaps, as the engine's loop would over many ticks. */
static bool
run_to_end(struct spawn_proc *p, struct collected *c)
{
	int spins = 0;

	while (spawn_read(p, collect, c) > 0 || !spawn_poll(p)) {
		struct timespec ts = { 0, 2000000 };

		nanosleep(&ts, NULL);
		if (++spins > 30000)
			return false;
	}
	return true;
}

static bool
group_gone(pid_t pgid)
{
	return kill(-pgid, 0) == -1 && errno == ESRCH;
}

static bool
no_children(void)
{
	return waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD;
}

static void
test_expand(void)
{
	const char *tmpl[] = { "sysbench",
			       "--threads={n}",
			       "--time={duration}",
			       "x{n}y{n}z",
			       "{",
			       "{}",
			       "${HOME}",
			       "${N}",
			       "{n",
			       "a{{n}}b",
			       NULL };
	const char *unknown[] = { "pgbench", "-c", "{clients}", NULL };
	const char *empty[] = { "", NULL };
	char err[ST_ERRLEN], **v;

	is_int(spawn_argv_expand(tmpl, 8, 30, &v, err, sizeof(err)), 0, "expand: a good template");
	is_str(v[0], "sysbench", "expand: a word without braces is copied");
	is_str(v[1], "--threads=8", "expand: {n} inside a word");
	is_str(v[2], "--time=30", "expand: {duration} inside a word");
	is_str(v[3], "x8y8z", "expand: {n} twice in one word");
	is_str(v[4], "{", "expand: a lone brace is kept");
	is_str(v[5], "{}", "expand: {} is kept");
	is_str(v[6], "${HOME}", "expand: the shell's ${HOME} is not a placeholder");
	is_str(v[7], "${N}", "expand: nor is ${N}");
	is_str(v[8], "{n", "expand: an unclosed brace is kept");
	is_str(v[9], "a{8}b", "expand: only the inner {n} of {{n}} is replaced");
	ok(v[10] == NULL, "expand: the result is NULL-terminated");
	spawn_argv_free(v);

	is_int(spawn_argv_expand(tmpl, 1, -1, &v, err, sizeof(err)), -1,
	       "expand: {duration} with no fixed duration fails");
	ok(v == NULL && strstr(err, "--time={duration}") != NULL && strstr(err, "--duration"),
	   "expand: and the message names the word and what to do (%s)", err);

	is_int(spawn_argv_expand(unknown, 4, 10, &v, err, sizeof(err)), -1,
	       "expand: an unknown placeholder fails");
	ok(strstr(err, "{clients}") != NULL && strstr(err, "{n}") != NULL &&
		   strchr(err, '\n') == NULL,
	   "expand: one line naming the placeholder and the known ones (%s)", err);

	is_int(spawn_argv_expand(empty, 4, 10, &v, err, sizeof(err)), -1,
	       "expand: an empty command fails");
}

/* What run and the TUI check before any step: {N} is not run literally at every step. */
static void
test_check(void)
{
	const char *upper[] = { "sysbench", "cpu", "--threads={N}", "run", NULL };
	const char *no_n[] = { "sysbench", "cpu", "--time={duration}", "{1..3}", "${n}", NULL };
	const char *with_n[] = { "make", "-j{n}", NULL };
	char err[ST_ERRLEN];
	bool uses_n = true;

	is_int(spawn_argv_check(upper, &uses_n, err, sizeof(err)), -1, "check: {N} is refused");
	ok(strstr(err, "{N}") != NULL && strstr(err, "word 3") != NULL &&
		   strstr(err, "{n}") != NULL && strstr(err, "{duration}") != NULL,
	   "check: naming it, its word and the known ones (%s)", err);
	is_int(spawn_argv_check(no_n, &uses_n, err, sizeof(err)), 0,
	       "check: {duration}, {1..3} and ${n} pass");
	ok(!uses_n, "check: ... and the shell's ${n} is not {n}");
	is_int(spawn_argv_check(with_n, &uses_n, err, sizeof(err)), 0, "check: make -j{n}");
	ok(uses_n, "check: ... uses {n}");
}

static void
test_output(void)
{
	char *argv[] = { "printf", "alpha\\nbeta\\r\\nno newline", NULL };
	struct collected c;
	struct spawn_proc p;
	char err[ST_ERRLEN], why[64];

	memset(&c, 0, sizeof(c));
	is_int(spawn_start(argv, &p, err, sizeof(err)), 0, "printf: starts");
	ok(getpgid(p.pid) == p.pid, "printf: leads its own process group");
	ok(run_to_end(&p, &c), "printf: output read to EOF and the command reaped");
	is_str(c.text[SPAWN_STDOUT], "alpha|beta|no newline",
	       "printf: lines split, \\r dropped, the unterminated tail delivered at EOF");
	is_int(c.lines[SPAWN_STDERR], 0, "printf: nothing on stderr");
	spawn_reason(p.status, why, sizeof(why));
	is_str(why, "exited with status 0", "printf: status decoded");
	spawn_close(&p);
}

static void
test_stderr_and_status(void)
{
	char *ls[] = { "ls", "/nonexistent-scaletop-test-path", NULL };
	char *fls[] = { "false", NULL };
	char *cat[] = { "cat", NULL };
	struct collected c;
	struct spawn_proc p;
	char err[ST_ERRLEN], why[64];

	memset(&c, 0, sizeof(c));
	is_int(spawn_start(ls, &p, err, sizeof(err)), 0, "ls: starts");
	ok(run_to_end(&p, &c), "ls: read to EOF and reaped");
	ok(strstr(c.text[SPAWN_STDERR], "nonexistent-scaletop-test-path") != NULL,
	   "ls: its complaint arrives on the stderr pipe (%s)", c.text[SPAWN_STDERR]);
	ok(WIFEXITED(p.status) && WEXITSTATUS(p.status) != 0, "ls: a non-zero exit status");
	spawn_close(&p);

	memset(&c, 0, sizeof(c));
	is_int(spawn_start(fls, &p, err, sizeof(err)), 0, "false: starts");
	ok(run_to_end(&p, &c), "false: reaped");
	spawn_reason(p.status, why, sizeof(why));
	is_str(why, "exited with status 1", "false: exit status 1 decoded");
	spawn_close(&p);

	/* cat with no arguments reads stdin: it only ends because stdin is /dev/null. */
	memset(&c, 0, sizeof(c));
	is_int(spawn_start(cat, &p, err, sizeof(err)), 0, "cat: starts");
	ok(spawn_wait(&p, PATIENCE), "cat: ends at once, so stdin is /dev/null");
	ok(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0, "cat: exit status 0");
	spawn_close(&p);
}

static void
test_kill(void)
{
	char *argv[] = { "sleep", "30", NULL };
	char *yes[] = { "yes", NULL };
	struct spawn_proc p;
	char err[ST_ERRLEN], why[64];
	pid_t pgid;

	is_int(spawn_start(argv, &p, err, sizeof(err)), 0, "sleep 30: starts");
	pgid = p.pid;
	ok(!spawn_poll(&p), "sleep 30: still running");
	spawn_kill(&p, SIGKILL);
	ok(spawn_wait(&p, PATIENCE), "sleep 30: reaped after a kill of its group");
	spawn_reason(p.status, why, sizeof(why));
	ok(strstr(why, "killed by signal 9") != NULL, "sleep 30: reason names SIGKILL (%s)", why);
	ok(group_gone(pgid), "sleep 30: nothing is left in its group");
	spawn_close(&p);

	/*
	 * We ignore SIGPIPE, as a monitor might; the command must not inherit
	 * that, so yes dies of SIGPIPE once its reader goes away.
	 */
	signal(SIGPIPE, SIG_IGN);
	is_int(spawn_start(yes, &p, err, sizeof(err)), 0, "yes: starts");
	close(p.fd[SPAWN_STDOUT]);
	p.fd[SPAWN_STDOUT] = -1;
	ok(spawn_wait(&p, PATIENCE), "yes: ends once its stdout has no reader");
	ok(WIFSIGNALED(p.status) && WTERMSIG(p.status) == SIGPIPE,
	   "yes: killed by SIGPIPE, so the default disposition was restored");
	spawn_close(&p);
	signal(SIGPIPE, SIG_DFL);

	/* spawn_close on a running command kills and reaps it. */
	is_int(spawn_start(argv, &p, err, sizeof(err)), 0, "sleep 30 again: starts");
	pgid = p.pid;
	spawn_close(&p);
	ok(p.reaped && group_gone(pgid), "spawn_close: killed, reaped, group gone");
}

static void
test_exec_errors(void)
{
	char *missing[] = { "scaletop-no-such-command", "--threads=4", NULL };
	char *noexec[] = { "/etc/passwd", NULL };
	struct spawn_proc p;
	char err[ST_ERRLEN];

	is_int(spawn_start(missing, &p, err, sizeof(err)), -1, "missing command: fails to start");
	ok(strstr(err, "scaletop-no-such-command") != NULL && strstr(err, "not found") != NULL &&
		   strchr(err, '\n') == NULL,
	   "missing command: one line naming it (%s)", err);
	ok(p.pid == -1 && p.fd[0] == -1 && p.fd[1] == -1, "missing command: nothing left open");
	ok(no_children(), "missing command: its child was reaped");

	is_int(spawn_start(noexec, &p, err, sizeof(err)), -1, "non-executable file: fails");
	ok(strstr(err, "/etc/passwd") != NULL && strstr(err, strerror(EACCES)) != NULL,
	   "non-executable file: says why (%s)", err);
	ok(no_children(), "non-executable file: its child was reaped");
}

static void
test_run(void)
{
	char *good[] = { "printf", "creating tables\\nsetup ok\\n", NULL };
	char *bad[] = { "ls", "/nonexistent-scaletop-setup", NULL };
	char *slow[] = { "sleep", "30", NULL };
	char *missing[] = { "scaletop-no-such-setup", NULL };
	char *chatty[] = { "printf", "first line\nsecond line\nthird line\nlast line\n", NULL };
	char out[32], err[ST_ERRLEN];

	is_int(spawn_run(good, PATIENCE, out, sizeof(out), err, sizeof(err)), 0,
	       "run: a setup command that succeeds");
	is_str(out, "creating tables\nsetup ok\n", "run: its output is captured");

	is_int(spawn_run(bad, PATIENCE, out, sizeof(out), err, sizeof(err)), -1,
	       "run: a failing command is an error");
	ok(strstr(err, "ls: exited with status") != NULL &&
		   strstr(err, "nonexistent-scaletop-setup") != NULL && strchr(err, '\n') == NULL,
	   "run: one line with the status and its last output (%s)", err);

	is_int(spawn_run(chatty, PATIENCE, out, sizeof(out), err, sizeof(err)), 0,
	       "run: a command with more output than the buffer");
	ok(strlen(out) == sizeof(out) - 1 && strcmp(out + strlen(out) - 10, "last line\n") == 0,
	   "run: long output keeps its end");

	is_int(spawn_run(slow, SEC / 5, NULL, 0, err, sizeof(err)), -1,
	       "run: a command past its timeout is an error");
	ok(strstr(err, "did not finish within 0.2 s") != NULL, "run: and says so (%s)", err);
	ok(no_children(), "run: the timed-out command was killed and reaped");

	is_int(spawn_run(missing, PATIENCE, NULL, 0, err, sizeof(err)), -1,
	       "run: a missing command is an error");
	ok(strstr(err, "not found") != NULL, "run: command not found (%s)", err);
}

static void
test_registry(void)
{
	char *argv[] = { "sleep", "30", NULL };
	struct spawn_proc a, b;
	char err[ST_ERRLEN];

	is_int(spawn_start(argv, &a, err, sizeof(err)), 0, "registry: first group");
	is_int(spawn_start(argv, &b, err, sizeof(err)), 0, "registry: second group");
	pgroup_kill_all(SIGKILL);
	ok(spawn_wait(&a, PATIENCE) && spawn_wait(&b, PATIENCE),
	   "registry: pgroup_kill_all ends every live group");
	ok(WIFSIGNALED(a.status) && WTERMSIG(a.status) == SIGKILL && WIFSIGNALED(b.status),
	   "registry: both by the signal sent");
	spawn_close(&a);
	spawn_close(&b);
	ok(no_children(), "registry: no child left");
}

/* The pid in file, once the command has written it; 0 after PATIENCE. */
static pid_t
pid_from(const char *file)
{
	uint64_t waited = 0;
	long pid = 0;
	FILE *f;

	while (waited < PATIENCE) {
		if ((f = fopen(file, "r")) != NULL) {
			if (fscanf(f, "%ld\n", &pid) == 1 && pid > 0) {
				fclose(f);
				return (pid_t)pid;
			}
			fclose(f);
		}
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
		waited += 10000000;
	}
	return 0;
}

/*
 * A command that daemonises (a new session, so a group of its own) and
 * exits: killing its group misses the daemon; pgroup_kill_descendants,
 * after pgroup_adopt_orphans, does not.
 */
static void
test_orphans(void)
{
	char file[] = "/tmp/scaletop-orphan.XXXXXX", script[320], err[ST_ERRLEN];
	char *argv[] = { "sh", "-c", script, NULL };
	struct proc_link *t;
	struct spawn_proc p;
	size_t n;
	pid_t daemon;
	int fd;

	if (proc_table_read(&t, &n) != 0) {
		is_int(pgroup_kill_descendants(), 0,
		       "orphans: nothing adopted without a process table");
		return;
	}
	free(t);
	if (!ok((fd = mkstemp(file)) >= 0, "orphans: a temporary file"))
		return;
	close(fd);
	/*
	 * The command waits for its daemon's pid, so the group is not killed
	 * before setsid.  The daemon writes it with a builtin (one short write,
	 * so never seen half-written): a helper such as mv could still be alive
	 * when the count is taken and be counted as a second leftover.
	 */
	snprintf(script, sizeof(script),
		 "setsid sh -c 'echo $$ >%s; exec sleep 30' & "
		 "while [ ! -s %s ]; do sleep 0.01; done",
		 file, file);
	pgroup_adopt_orphans();
	is_int(spawn_start(argv, &p, err, sizeof(err)), 0, "orphans: a daemonising command");
	ok(spawn_wait(&p, PATIENCE), "orphans: the command itself exits");
	spawn_close(&p);
	daemon = pid_from(file);
	ok(daemon > 0 && kill(daemon, 0) == 0, "orphans: its daemon outlives the group");
	ok(getpgid(daemon) == daemon, "orphans: in a group of its own");
	is_int(pgroup_kill_descendants(), 1, "orphans: one process killed outside the groups");
	ok(kill(daemon, 0) == -1 && errno == ESRCH, "orphans: the daemon is gone, reaped too");
	ok(no_children(), "orphans: no child left");
	unlink(file);
}

int
main(void)
{
	test_expand();
	test_check();
	test_output();
	test_stderr_and_status();
	test_kill();
	test_exec_errors();
	test_run();
	test_registry();
	test_orphans();
	return done_testing();
}
