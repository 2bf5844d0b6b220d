/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel-stack decoders (decode_kstack.c): Linux's
 * /proc/PID/task/TID/stack text, recorded (tests/fixtures/proc/stack_*) and
 * hand-written odd lines, and FreeBSD's kern.proc.kstack records, built
 * here in the amd64 layout decode_bsd.h gives (kstack_freebsd.c asserts
 * it is the header's), whole, cut short and malformed.  Each decoder gets an
 * exact-size heap copy, so a read past len is caught by the sanitizer build.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_proc.h"
#include "../../src/platform/decode_bsd.h"
#include "../tap.h"

/* --- Linux --------------------------------------------------------------- */

static int
text_str(const char *text, struct kstack *k)
{
	size_t len = strlen(text);
	char *p = exact_copy(text, len);
	int r = kstack_text_decode(p, len, k);

	free(p);
	return r;
}

static int
text_fixture(const char *name, struct kstack *k)
{
	size_t len;
	char *text = fixture_read(name, &len);
	char *p = exact_copy(text, len);
	int r = kstack_text_decode(p, len, k);

	free(p);
	free(text);
	return r;
}

static void
test_text_fixtures(void)
{
	struct kstack k;

	is_int(text_fixture("proc/stack_futex_wait", &k), 0, "futex waiter: decoded");
	is_int(k.nframes, 7, "futex waiter: 7 frames");
	is_str(k.frame[0], "futex_do_wait", "futex waiter: innermost futex_do_wait, no offset");
	is_str(k.frame[1], "__futex_wait", "futex waiter: then __futex_wait");
	is_str(k.frame[6], "entry_SYSCALL_64_after_hwframe", "futex waiter: outermost the entry");
	is_int(k.flags, 0, "futex waiter: no flags");

	is_int(text_fixture("proc/stack_pipe_read", &k), 0, "pipe reader: decoded");
	is_str(k.frame[0], "anon_pipe_read", "pipe reader: anon_pipe_read");
	is_str(k.frame[2], "ksys_read", "pipe reader: ksys_read third");

	is_int(text_fixture("proc/stack_nanosleep", &k), 0, "sleeper: decoded");
	is_str(k.frame[0], "hrtimer_nanosleep", "sleeper: hrtimer_nanosleep");
}

static void
test_text_odd(void)
{
	struct kstack k;
	char big[4096], name[200];
	size_t i, off = 0;

	is_int(text_str("", &k), 0, "empty: decoded");
	is_int(k.nframes, 0, "empty: no frames");
	is_int(k.flags, KSTACK_RUNNING, "empty: the thread was on a CPU");

	is_int(text_str("[<0>] ext4_sync_file+0x1a/0x3c0 [ext4]\n\n[<ffffffff8112a3b0>] "
			"do_fsync+0x38/0x70\n",
			&k),
	       0, "a module's frame, a blank line and a visible address: decoded");
	is_int(k.nframes, 2, "the blank line is no frame");
	is_str(k.frame[0], "ext4_sync_file", "the module is dropped");
	is_str(k.frame[1], "do_fsync", "an address inside [<>] is skipped");

	is_int(text_str("[<0>] 0xffffffffc0a01234\n", &k), 0, "an unnamed frame: decoded");
	is_str(k.frame[0], "0xffffffffc0a01234", "an unnamed frame is its address");

	is_int(text_str("[<0>]   schedule_timeout+0x10/0x20\r\n", &k), 0, "extra blanks: decoded");
	is_str(k.frame[0], "schedule_timeout", "extra blanks are skipped");

	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(big, sizeof(big), "[<0>] %s+0x1/0x2\n", name);
	is_int(text_str(big, &k), 0, "a 199-byte name: decoded");
	is_int((long long)strlen(k.frame[0]), KSTACK_NAME_LEN - 1, "a long name is cut to fit");

	for (i = 0; i < KSTACK_FRAMES + 5; i++)
		off += (size_t)snprintf(big + off, sizeof(big) - off, "[<0>] f%zu+0x1/0x2\n", i);
	is_int(text_str(big, &k), 0, "more frames than kept: decoded");
	is_int(k.nframes, KSTACK_FRAMES, "frames past KSTACK_FRAMES are dropped");
	is_str(k.frame[KSTACK_FRAMES - 1], "f23", "the innermost are kept");

	errno = 0;
	is_int(text_str("[<0>] futex_wait+0x1/0x2", &k), -1, "a last line without \\n: refused");
	is_int(errno, EINVAL, "cut short: EINVAL");
	is_int(k.nframes, 0, "a refused text leaves no frames");
	errno = 0;
	is_int(text_str("futex_wait+0x1/0x2\n", &k), -1, "no [<ADDR>]: refused");
	is_int(errno, EINVAL, "no [<ADDR>]: EINVAL");
	is_int(text_str("[<0>]\n", &k), -1, "no name: refused");
	is_int(text_str("[<0>] +0x10/0x20\n", &k), -1, "a bare offset: refused");
	is_int(text_str("[<0x12>] f+0x1/0x2\n", &k), -1, "a non-hex address: refused");
	is_int(text_str("[<> f+0x1\n", &k), -1, "no ']': refused");
	is_int(text_str("[<0>] a+0x1/0x2\n[<", &k), -1, "a cut second line: refused");
}

/* --- FreeBSD ------------------------------------------------------------- */

#define KK_SIZE BSD_FREEBSD14_KSTACK_AMD64_SIZE
#define KK_TRACE_LEN 1024

static const struct bsd_kstack_layout kk_layout = {
	.size = KK_SIZE,
	.f = { [BSD_KK_TID] = { 0, 4 }, [BSD_KK_STATE] = { 4, 4 }, [BSD_KK_TRACE] = { 8, 1024 } },
};

/* Record i of buf: tid, state and trace (copied whole; the caller ends it with NUL). */
static void
kk_rec(unsigned char *buf, size_t i, int32_t tid, int32_t state, const char *trace)
{
	unsigned char *r = buf + i * KK_SIZE;

	memset(r, 0, KK_SIZE);
	memcpy(r, &tid, 4);
	memcpy(r + 4, &state, 4);
	memcpy(r + 8, trace, strlen(trace) < KK_TRACE_LEN ? strlen(trace) : KK_TRACE_LEN);
}

static int
kk_decode(const unsigned char *buf, size_t len, pid_t tid, struct kstack *k, char *err,
	  size_t errlen)
{
	char *p = exact_copy((const char *)buf, len);
	int r;

	err[0] = '\0';
	r = bsd_kstack_decode(&kk_layout, p, len, tid, k, err, errlen);
	free(p);
	return r;
}

static const char kk_umtx[] = "#0 0xffffffff80bb9f3e at mi_switch+0xbe\n"
			      "#1 0xffffffff80c0b5ad at sleepq_catch_signals+0x40d\n"
			      "#2 0xffffffff80c0b6c9 at sleepq_wait_sig+0x9\n"
			      "#3 0xffffffff80bb9450 at _sleep+0x1d0\n"
			      "#4 0xffffffff80bcd7e2 at umtxq_sleep+0x132\n"
			      "#5 0xffffffff80bd2f0b at do_lock_umutex+0x6ab\n"
			      "#6 0xffffffff80bd0a8e at __umtx_op_wait_umutex+0x4e\n"
			      "#7 0xffffffff810b4db5 at amd64_syscall+0x115\n"
			      "#8 0xffffffff8108a7eb at fast_syscall_common+0xf8\n";

static void
test_kk_whole(void)
{
	unsigned char buf[4 * KK_SIZE];
	struct kstack k;
	char err[200];

	kk_rec(buf, 0, 100101, BSD_KKST_STACKOK,
	       "#0 0xffffffff80bb9f3e at mi_switch+0xbe\n#1 0xffffffff80c0b6c9 at "
	       "sleepq_timedwait+0x2f\n");
	kk_rec(buf, 1, 100102, BSD_KKST_STACKOK, kk_umtx);
	kk_rec(buf, 2, 100103, BSD_KKST_RUNNING, "");
	kk_rec(buf, 3, 100104, BSD_KKST_SWAPPED, "");

	is_int(kk_decode(buf, sizeof(buf), 100102, &k, err, sizeof(err)), 1,
	       "four records: thread 100102 found");
	is_int(k.nframes, 9, "its 9 frames");
	is_str(k.frame[0], "mi_switch", "innermost mi_switch, no offset");
	is_str(k.frame[5], "do_lock_umutex", "a umutex's lock");
	is_str(k.frame[8], "fast_syscall_common", "outermost the syscall entry");
	is_int(k.flags, 0, "stack read: no flags");

	is_int(kk_decode(buf, sizeof(buf), 100101, &k, err, sizeof(err)), 1, "the first record");
	is_int(k.nframes, 2, "the first record's 2 frames, not the second's");
	is_str(k.frame[1], "sleepq_timedwait", "its second frame");

	is_int(kk_decode(buf, sizeof(buf), 100103, &k, err, sizeof(err)), 1, "a running thread");
	is_int(k.nframes, 0, "running: no frames");
	is_int(k.flags, KSTACK_RUNNING, "running: KSTACK_RUNNING");
	is_int(kk_decode(buf, sizeof(buf), 100104, &k, err, sizeof(err)), 1, "a swapped thread");
	is_int(k.flags, KSTACK_SWAPPED, "swapped: KSTACK_SWAPPED");

	is_int(kk_decode(buf, sizeof(buf), 100199, &k, err, sizeof(err)), 0,
	       "a tid not among them: 0");
	is_int(kk_decode(buf, 0, 100102, &k, err, sizeof(err)), 0, "no records: 0");
}

static void
test_kk_odd(void)
{
	unsigned char buf[2 * KK_SIZE];
	char trace[KK_TRACE_LEN + 1], err[200];
	struct kstack k;
	size_t off = 0;
	int i;

	kk_rec(buf, 0, 7, BSD_KKST_STACKOK,
	       "#0 0xffffffff80bb9f3e at ???\n#1 0xffffffff80bb9f40\n#2 0xffffffff80bb9f50 at "
	       "turnstile_wait+0x2d6\n");
	is_int(kk_decode(buf, KK_SIZE, 7, &k, err, sizeof(err)), 1, "unnamed frames: found");
	is_int(k.nframes, 3, "unnamed frames: 3");
	is_str(k.frame[0], "0xffffffff80bb9f3e", "at ?\?\? is the address");
	is_str(k.frame[1], "0xffffffff80bb9f40", "no 'at' is the address");
	is_str(k.frame[2], "turnstile_wait", "a named one after them");

	/* a trace the kernel cut at KKST_MAXLEN, mid-line: the cut line is dropped */
	for (i = 0; off < KK_TRACE_LEN - 1; i++)
		off += (size_t)snprintf(trace + off, sizeof(trace) - off,
					"#%d 0xffffffff80bb9f3e at frame_%d+0x1\n", i, i);
	trace[KK_TRACE_LEN - 1] = '\0';
	kk_rec(buf, 0, 7, BSD_KKST_STACKOK, trace);
	is_int(kk_decode(buf, KK_SIZE, 7, &k, err, sizeof(err)), 1, "a full trace: found");
	is_int(k.nframes, KSTACK_FRAMES, "a full trace: the first KSTACK_FRAMES frames");
	is_str(k.frame[0], "frame_0", "a full trace: innermost first");

	kk_rec(buf, 0, 7, BSD_KKST_STACKOK, kk_umtx);
	kk_rec(buf, 1, 8, BSD_KKST_STACKOK, kk_umtx);
	errno = 0;
	is_int(kk_decode(buf, 2 * KK_SIZE - 1, 7, &k, err, sizeof(err)), -1,
	       "a buffer cut short by a byte: refused");
	is_int(errno, EINVAL, "cut short: EINVAL");
	ok(strstr(err, "not whole") != NULL, "cut short: the message says so (%s)", err);
	is_int(kk_decode(buf, KK_SIZE + 8, 7, &k, err, sizeof(err)), -1,
	       "a second record of 8 bytes: refused");
	is_int(kk_decode(buf, 4, 7, &k, err, sizeof(err)), -1, "less than a record: refused");

	memset(buf + KK_SIZE + 8, 'a', KK_TRACE_LEN);
	errno = 0;
	is_int(kk_decode(buf, sizeof(buf), 7, &k, err, sizeof(err)), -1,
	       "record 2's trace has no NUL: refused, though record 1 is asked");
	is_int(errno, EINVAL, "no NUL: EINVAL");
	ok(strstr(err, "record 2 of 2") != NULL && strstr(err, "kkst_trace") != NULL,
	   "no NUL: the message names the record and the field (%s)", err);

	kk_rec(buf, 1, 8, 9, "");
	is_int(kk_decode(buf, sizeof(buf), 7, &k, err, sizeof(err)), -1, "state 9: refused");
	ok(strstr(err, "kkst_state 9") != NULL, "state 9: named (%s)", err);

	kk_rec(buf, 1, 8, BSD_KKST_STACKOK, "garbage\n");
	is_int(kk_decode(buf, sizeof(buf), 7, &k, err, sizeof(err)), -1,
	       "a line not '#N PC at NAME': refused");
	kk_rec(buf, 1, 8, BSD_KKST_STACKOK, "#3\n");
	is_int(kk_decode(buf, sizeof(buf), 7, &k, err, sizeof(err)), -1, "a bare '#3': refused");
	kk_rec(buf, 1, 8, BSD_KKST_RUNNING, "garbage\n");
	is_int(kk_decode(buf, sizeof(buf), 8, &k, err, sizeof(err)), 1,
	       "a running thread's trace is not read");
}

int
main(void)
{
	test_text_fixtures();
	test_text_odd();
	test_kk_whole();
	test_kk_odd();
	return done_testing();
}
