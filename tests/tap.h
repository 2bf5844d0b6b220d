/* SPDX-License-Identifier: BSD-2-Clause */
/* A small TAP producer for the C unit tests (read by automake's tap-driver.sh). */
#ifndef SCALETOP_TAP_H
#define SCALETOP_TAP_H

#include <stddef.h>
#include <stdint.h>

int ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int is_int(long long got, long long want, const char *name);
int is_u64(uint64_t got, uint64_t want, const char *name);
/* Passes when |got - want| <= tol. */
int is_double(double got, double want, double tol, const char *name);
int is_str(const char *got, const char *want, const char *name);
void skip(const char *why, const char *name);
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the plan; returns the exit status for main(). */
int done_testing(void);

/*
 * Reads tests/fixtures/<rel> (found through $top_srcdir, which the harness
 * exports) into a NUL-terminated malloc'd buffer; aborts the test on failure.
 */
char *fixture_read(const char *rel, size_t *len);
/* The full path of a fixture, in a static buffer. */
const char *fixture_path(const char *rel);

/*
 * A malloc'd copy of exactly len bytes, with nothing after the last one, so
 * a decoder that reads past its length is caught by ASan and valgrind.
 */
char *exact_copy(const char *text, size_t len);
/* Writes text to path, replacing it; bails out if it cannot. */
void write_file(const char *path, const char *text);
/* Removes a test's temporary tree (rm -rf, run without a shell). */
void remove_tree(const char *dir);
/* Sleeps ms milliseconds, through signals: only paces a test, never timed. */
void sleep_ms(long ms);
/* len bytes of anonymous MAP_SHARED memory, as workers' slots live in; bails out on failure. */
void *map_shared(size_t len);

#ifdef __linux__
/*
 * In a mount namespace of the caller's own, a tmpfs on dir (mount flags and
 * options as mount(2) takes them): 0, or -1 after a TAP comment naming the
 * call and its error (not root: EPERM; / not a mount point, as in a bare
 * chroot: EINVAL), so the skip that follows says why.  Call it in a child.
 */
int private_tmpfs(const char *dir, unsigned long flags, const char *opts);
#endif

#endif
