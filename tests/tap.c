/* SPDX-License-Identifier: BSD-2-Clause */
#ifdef __linux__
#define _GNU_SOURCE /* unshare, for private_tmpfs */
#include <sched.h>
#include <sys/mount.h>
#endif
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

#include "tap.h"

static int test_count;
static int failures;

static int
report(int cond, const char *name)
{
	test_count++;
	printf("%sok %d - %s\n", cond ? "" : "not ", test_count, name);
	if (!cond)
		failures++;
	fflush(stdout);
	return cond;
}

int
ok(int cond, const char *fmt, ...)
{
	char name[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	return report(cond, name);
}

int
is_int(long long got, long long want, const char *name)
{
	if (!report(got == want, name))
		diag("  got %lld, want %lld", got, want);
	return got == want;
}

int
is_u64(uint64_t got, uint64_t want, const char *name)
{
	if (!report(got == want, name))
		diag("  got %llu, want %llu", (unsigned long long)got, (unsigned long long)want);
	return got == want;
}

int
is_double(double got, double want, double tol, const char *name)
{
	int pass = !isnan(got) && fabs(got - want) <= tol;

	if (!report(pass, name))
		diag("  got %.9g, want %.9g (tolerance %g)", got, want, tol);
	return pass;
}

int
is_str(const char *got, const char *want, const char *name)
{
	int pass = got != NULL && want != NULL && strcmp(got, want) == 0;

	if (!report(pass, name))
		diag("  got \"%s\", want \"%s\"", got ? got : "(null)", want ? want : "(null)");
	return pass;
}

void
skip(const char *why, const char *name)
{
	test_count++;
	printf("ok %d - %s # SKIP %s\n", test_count, name, why);
	fflush(stdout);
}

void
diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

int
done_testing(void)
{
	printf("1..%d\n", test_count);
	return failures == 0 && test_count > 0 ? 0 : 1;
}

const char *
fixture_path(const char *rel)
{
	static char path[4096];
	const char *top = getenv("top_srcdir");

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", top ? top : ".", rel);
	return path;
}

char *
fixture_read(const char *rel, size_t *len)
{
	const char *path = fixture_path(rel);
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (f == NULL) {
		printf("Bail out! cannot open fixture %s\n", path);
		exit(1);
	}
	do {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap + 1);
			if (buf == NULL)
				abort();
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = '\0';
	if (len != NULL)
		*len = n;
	return buf;
}

char *
exact_copy(const char *text, size_t len)
{
	char *p = malloc(len > 0 ? len : 1);

	if (p == NULL)
		abort();
	memcpy(p, text, len);
	return p;
}

void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fputs(text, f) == EOF || fclose(f) != 0) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

void
remove_tree(const char *dir)
{
	pid_t pid = fork();

	if (pid == 0) {
		char *argv[] = { "rm", "-rf", (char *)dir, NULL };

		execvp("rm", argv);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

void *
map_shared(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		exit(1);
	}
	return p;
}

#ifdef __linux__
int
private_tmpfs(const char *dir, unsigned long flags, const char *opts)
{
	const char *what = NULL;

	if (unshare(CLONE_NEWNS) != 0)
		what = "unshare(CLONE_NEWNS)";
	else if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		what = "making / private (mount MS_REC | MS_PRIVATE)";
	else if (mount("tmpfs", dir, "tmpfs", flags, opts) != 0)
		what = "mount -t tmpfs";
	if (what == NULL)
		return 0;
	printf("# cannot mount a tmpfs (%s) at %s: %s: %s\n", opts, dir, what, strerror(errno));
	fflush(stdout);
	return -1;
}
#endif
