/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The file helpers (src/util/files.c): capped reads, the marker beside the
 * binary, and mkdir -p saying why a folder could not be made.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/files.h"
#include "../tap.h"

static char tmpdir[] = "/tmp/test_files.XXXXXX";

static void
test_read(void)
{
	char path[600], *buf = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/f", tmpdir);
	write_file(path, "hello\n");
	is_int(file_read_all(path, 64, &buf, &len), 0, "a small file reads");
	ok(len == 6 && strcmp(buf, "hello\n") == 0, "... whole, NUL-terminated");
	free(buf);
	errno = 0;
	is_int(file_read_all(path, 5, &buf, &len), -1, "over the cap fails");
	is_int(errno, EFBIG, "... with EFBIG");
	is_int(file_read_all(tmpdir, 64, &buf, &len), -1, "a directory fails");
	is_int(errno, EISDIR, "... with EISDIR");
	snprintf(path, sizeof(path), "%s/none", tmpdir);
	is_int(file_read_all(path, 64, &buf, &len), -1, "a missing file fails");
	is_int(errno, ENOENT, "... with ENOENT");
	ok(file_is_dir(tmpdir) && !file_is_dir(path), "file_is_dir");
}

static void
test_beside_self(void)
{
	char bin[600], marker[600], got[256];

	snprintf(bin, sizeof(bin), "%s/scaletop", tmpdir);
	snprintf(marker, sizeof(marker), "%s/marker", tmpdir);
	is_int(file_beside_self("marker", got, sizeof(got)), -1, "no argv[0]: no marker");
	file_set_argv0(bin);
	is_int(file_beside_self("marker", got, sizeof(got)), -1, "no marker file");
	write_file(marker, "/src/tree\nmore\n");
	is_int(file_beside_self("marker", got, sizeof(got)), 0, "the marker beside argv[0]");
	is_str(got, "/src/tree", "... its first line");
	is_int(file_beside_self("marker", got, 5), -1, "a line too long for the buffer");
	file_set_argv0("scaletop");
	is_int(file_beside_self("marker", got, sizeof(got)), -1,
	       "argv[0] without a '/' (found through PATH) names no directory");
	file_set_argv0(bin);
	write_file(marker, "\n");
	is_int(file_beside_self("marker", got, sizeof(got)), -1, "an empty line is no marker");
	file_set_argv0(NULL);
}

/*
 * In the child: mkdir -p under ro (a folder the child may not write in) must
 * fail with the mkdir's own errno, naming the folder it could not make.  The
 * exit status is that errno, 100 for a wrong folder, 77 when root stays root.
 */
static int
mkdirs_child(const char *ro)
{
	char dir[700], failed[700], want[700];
	int rc, e;

	if (geteuid() == 0 && (setgid(65534) == -1 || setuid(65534) == -1))
		return 77;
	snprintf(dir, sizeof(dir), "%s/scaletop/runs", ro);
	snprintf(want, sizeof(want), "%s/scaletop", ro);
	rc = file_mkdirs(dir, 0700, failed, sizeof(failed));
	e = errno;
	if (rc == 0)
		return 0;
	if (strcmp(failed, want) != 0) {
		printf("# failed at '%s', not '%s'\n", failed, want);
		return 100;
	}
	return e;
}

static void
test_mkdirs_errno(void)
{
	char ro[600], sysdir[64];
	int status, e;
	pid_t pid;

	/* A folder of root's (or, not root, one without write permission), as nobody. */
	snprintf(ro, sizeof(ro), "%s/ro", tmpdir);
	mkdir(ro, 0755);
	chmod(tmpdir, 0711);
	if (geteuid() != 0)
		chmod(ro, 0555);
	fflush(stdout);
	if ((pid = fork()) == 0)
		_exit(mkdirs_child(ro));
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
		skip("root cannot become nobody here", "mkdir -p: EACCES");
	else
		is_str(strerror(WIFEXITED(status) ? WEXITSTATUS(status) : 0), strerror(EACCES),
		       "mkdir -p in a folder not ours: Permission denied");
	/* A folder the kernel keeps (sysfs): the errno a plain mkdir gets there. */
	snprintf(sysdir, sizeof(sysdir), "/sys/scaletop-test-%ld", (long)getpid());
	if (!file_is_dir("/sys") || mkdir(sysdir, 0700) == 0 || errno == ENOENT) {
		rmdir(sysdir);
		skip("no /sys refusing a new folder here", "mkdir -p: the mkdir's errno");
		return;
	}
	e = errno;
	strcat(sysdir, "/x");
	errno = 0;
	is_int(file_mkdirs(sysdir, 0700, NULL, 0), -1, "mkdir -p under /sys fails");
	is_str(strerror(errno), strerror(e), "... with the mkdir's errno, not a later call's");
}

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	test_read();
	test_beside_self();
	test_mkdirs_errno();
	remove_tree(tmpdir);
	return done_testing();
}
