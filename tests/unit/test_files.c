/* SPDX-License-Identifier: BSD-2-Clause */
/* The file helpers (src/util/files.c): capped reads and the marker beside the binary. */
#include <sys/stat.h>

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

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	test_read();
	test_beside_self();
	remove_tree(tmpdir);
	return done_testing();
}
