/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The decoder of a thread's /proc/PID/task/TID/syscall line, and which
 * futex wait it is.  A thread blocked in a futex shows the call, the futex
 * address (exactly &mutex for a pthread mutex), the op and its user SP and
 * PC; reading the line does not stop the thread.
 */
#include <stddef.h>

#include "scaletop/decode_proc.h"
#include "decode_line.h"

/*
 * The numbers are per architecture, so the calls are named from a table of
 * the decoding arch's (the build's own by default, any for a fixture).
 * Pure; decode_proc.h.
 */

/* futex(2)'s ops and flags (linux/futex.h), kept here so any OS decodes them. */
#define FOP_WAIT 0
#define FOP_LOCK_PI 6
#define FOP_WAIT_BITSET 9
#define FOP_WAIT_REQUEUE_PI 11
#define FOP_LOCK_PI2 13
#define FOP_PRIVATE 128
#define FOP_CLOCK_REALTIME 256

struct sysname {
	long nr;
	const char *name;
};

/* Calls a blocked thread is often found in (arch/x86/entry/syscalls/syscall_64.tbl). */
static const struct sysname x86_64_calls[] = {
	{ 0, "read" },
	{ 1, "write" },
	{ 2, "open" },
	{ 3, "close" },
	{ 4, "stat" },
	{ 5, "fstat" },
	{ 7, "poll" },
	{ 8, "lseek" },
	{ 9, "mmap" },
	{ 10, "mprotect" },
	{ 11, "munmap" },
	{ 12, "brk" },
	{ 16, "ioctl" },
	{ 17, "pread64" },
	{ 18, "pwrite64" },
	{ 19, "readv" },
	{ 20, "writev" },
	{ 23, "select" },
	{ 24, "sched_yield" },
	{ 25, "mremap" },
	{ 26, "msync" },
	{ 28, "madvise" },
	{ 34, "pause" },
	{ 35, "nanosleep" },
	{ 40, "sendfile" },
	{ 41, "socket" },
	{ 42, "connect" },
	{ 43, "accept" },
	{ 44, "sendto" },
	{ 45, "recvfrom" },
	{ 46, "sendmsg" },
	{ 47, "recvmsg" },
	{ 56, "clone" },
	{ 57, "fork" },
	{ 59, "execve" },
	{ 60, "exit" },
	{ 61, "wait4" },
	{ 65, "semop" },
	{ 70, "msgrcv" },
	{ 72, "fcntl" },
	{ 73, "flock" },
	{ 74, "fsync" },
	{ 75, "fdatasync" },
	{ 128, "rt_sigtimedwait" },
	{ 130, "rt_sigsuspend" },
	{ 202, "futex" },
	{ 208, "io_getevents" },
	{ 217, "getdents64" },
	{ 220, "semtimedop" },
	{ 230, "clock_nanosleep" },
	{ 231, "exit_group" },
	{ 232, "epoll_wait" },
	{ 233, "epoll_ctl" },
	{ 247, "waitid" },
	{ 257, "openat" },
	{ 262, "newfstatat" },
	{ 270, "pselect6" },
	{ 271, "ppoll" },
	{ 281, "epoll_pwait" },
	{ 288, "accept4" },
	{ 426, "io_uring_enter" },
	{ 441, "epoll_pwait2" },
	{ 449, "futex_waitv" },
	{ 454, "futex_wait" },
};

/* The same on arm64, the generic table (include/uapi/asm-generic/unistd.h). */
static const struct sysname arm64_calls[] = {
	{ 4, "io_getevents" },
	{ 21, "epoll_ctl" },
	{ 22, "epoll_pwait" },
	{ 25, "fcntl" },
	{ 29, "ioctl" },
	{ 32, "flock" },
	{ 56, "openat" },
	{ 57, "close" },
	{ 61, "getdents64" },
	{ 62, "lseek" },
	{ 63, "read" },
	{ 64, "write" },
	{ 65, "readv" },
	{ 66, "writev" },
	{ 67, "pread64" },
	{ 68, "pwrite64" },
	{ 72, "pselect6" },
	{ 73, "ppoll" },
	{ 79, "newfstatat" },
	{ 80, "fstat" },
	{ 82, "fsync" },
	{ 83, "fdatasync" },
	{ 93, "exit" },
	{ 94, "exit_group" },
	{ 95, "waitid" },
	{ 98, "futex" },
	{ 101, "nanosleep" },
	{ 115, "clock_nanosleep" },
	{ 124, "sched_yield" },
	{ 133, "rt_sigsuspend" },
	{ 137, "rt_sigtimedwait" },
	{ 188, "msgrcv" },
	{ 192, "semtimedop" },
	{ 198, "socket" },
	{ 202, "accept" },
	{ 203, "connect" },
	{ 206, "sendto" },
	{ 207, "recvfrom" },
	{ 211, "sendmsg" },
	{ 212, "recvmsg" },
	{ 214, "brk" },
	{ 215, "munmap" },
	{ 216, "mremap" },
	{ 220, "clone" },
	{ 221, "execve" },
	{ 222, "mmap" },
	{ 226, "mprotect" },
	{ 227, "msync" },
	{ 233, "madvise" },
	{ 242, "accept4" },
	{ 260, "wait4" },
	{ 426, "io_uring_enter" },
	{ 441, "epoll_pwait2" },
	{ 449, "futex_waitv" },
	{ 454, "futex_wait" },
};

/* Each arch's table and its futex calls' numbers (-1: none). */
static const struct arch_calls {
	const struct sysname *calls;
	size_t n;
	long futex, futex_wait, futex_waitv;
} arches[] = {
	[SYSCALL_ARCH_UNKNOWN] = { NULL, 0, -1, -1, -1 },
	[SYSCALL_ARCH_X86_64] = { x86_64_calls, sizeof x86_64_calls / sizeof x86_64_calls[0], 202,
				  454, 449 },
	[SYSCALL_ARCH_ARM64] = { arm64_calls, sizeof arm64_calls / sizeof arm64_calls[0], 98, 454,
				 449 },
};

enum syscall_arch
syscall_arch_native(void)
{
#if defined(__x86_64__)
	return SYSCALL_ARCH_X86_64;
#elif defined(__aarch64__)
	return SYSCALL_ARCH_ARM64;
#else
	return SYSCALL_ARCH_UNKNOWN;
#endif
}

static const struct arch_calls *
arch_calls(enum syscall_arch arch)
{
	if ((size_t)arch >= sizeof arches / sizeof arches[0])
		return &arches[SYSCALL_ARCH_UNKNOWN];
	return &arches[arch];
}

const char *
syscall_name(enum syscall_arch arch, long nr)
{
	const struct arch_calls *a = arch_calls(arch);
	size_t lo = 0, hi = a->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (a->calls[mid].nr == nr)
			return a->calls[mid].name;
		if (a->calls[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *
futex_kind_name(enum futex_kind k)
{
	static const char *const names[FUTEX_KINDS] = { "none", "mutex", "bitset", "pi", "futex2" };

	return (unsigned)k < FUTEX_KINDS ? names[k] : "none";
}

/* A "0x"-prefixed hex number of at most 64 bits, up to a blank or the line's end. */
static int
hex_u64(struct line *l, uint64_t *v)
{
	const char *p;
	uint64_t x = 0;
	int nd = 0, d;

	if (l->p == l->end || *l->p != ' ')
		return decode_fail(EINVAL);
	p = l->p + 1;
	if (l->end - p < 3 || p[0] != '0' || p[1] != 'x')
		return decode_fail(EINVAL);
	for (p += 2; p < l->end && *p != ' '; p++) {
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else
			return decode_fail(EINVAL);
		if (++nd > 16)
			return decode_fail(ERANGE);
		x = x << 4 | (uint64_t)d;
	}
	if (nd == 0)
		return decode_fail(EINVAL);
	l->p = p;
	*v = x;
	return 0;
}

/* The futex fields of a call that waits on a futex; the rest stay NONE. */
static void
syscall_futex(const struct arch_calls *a, struct syscall_line *s)
{
	int op;

	if (s->nr == a->futex) {
		op = (int)(s->arg[1] & ~(uint64_t)(FOP_PRIVATE | FOP_CLOCK_REALTIME));
		s->futex_op = op;
		s->futex_private = (s->arg[1] & FOP_PRIVATE) != 0;
		if (op == FOP_WAIT)
			s->futex = FUTEX_KIND_MUTEX;
		else if (op == FOP_WAIT_BITSET)
			s->futex = FUTEX_KIND_BITSET;
		else if (op == FOP_LOCK_PI || op == FOP_LOCK_PI2 || op == FOP_WAIT_REQUEUE_PI)
			s->futex = FUTEX_KIND_PI;
		else
			return;
		s->futex_addr = s->arg[0];
		s->futex_val = (uint32_t)s->arg[2];
	} else if (s->nr == a->futex_wait) {
		/* futex_wait(uaddr, val, mask, flags, timeout, clockid); FUTEX2_PRIVATE is 128 too
		 */
		s->futex = FUTEX_KIND_FUTEX2;
		s->futex_addr = s->arg[0];
		s->futex_val = (uint32_t)s->arg[1];
		s->futex_private = (s->arg[3] & FOP_PRIVATE) != 0;
	} else if (s->nr == a->futex_waitv) {
		/* futex_waitv(waiters, nr_futexes, flags, timeout, clockid) */
		s->futex = FUTEX_KIND_FUTEX2;
		s->futex_addr = s->arg[0];
		s->futex_vector = 1;
	}
}

/* The call's number: "running" gives 1 and no number. */
static int
syscall_nr(struct line *l, struct syscall_line *out)
{
	const char *p = l->p;
	uint64_t v;
	int neg = 0;

	if (key_is(p, (size_t)(l->end - p), "running")) {
		out->state = SYSCALL_RUNNING;
		l->p = l->end;
		return 1;
	}
	if (p < l->end && *p == '-') {
		neg = 1;
		p++;
	}
	if (!(p < l->end && is_digit(*p)) || digits_u64(&p, l->end, &v) < 0)
		return decode_fail(EINVAL);
	if (v > 0x7fffffff)
		return decode_fail(ERANGE);
	l->p = p;
	out->nr = neg ? -(long)v : (long)v;
	out->state = neg ? SYSCALL_NONE : SYSCALL_IN;
	return 0;
}

int
syscall_line_decode(const char *buf, size_t len, enum syscall_arch arch, struct syscall_line *out)
{
	const struct arch_calls *a = arch_calls(arch);
	const char *pos = buf, *end = buf + len;
	struct line l;
	int i, r;

	memset(out, 0, sizeof *out);
	out->nr = -1;
	r = line_next(&pos, end, &l);
	if (r <= 0)
		return r < 0 ? -1 : decode_fail(EINVAL);
	if (pos != end)
		return decode_fail(EINVAL);
	r = syscall_nr(&l, out);
	if (r != 0)
		return r > 0 ? 0 : -1;
	if (out->state == SYSCALL_IN) {
		for (i = 0; i < 6; i++)
			if (hex_u64(&l, &out->arg[i]) < 0)
				return -1;
	}
	if (hex_u64(&l, &out->sp) < 0 || hex_u64(&l, &out->pc) < 0)
		return -1;
	if (l.p != l.end)
		return decode_fail(EINVAL);
	if (out->state == SYSCALL_NONE) {
		out->nr = -1;
		return 0;
	}
	out->name = syscall_name(arch, out->nr);
	syscall_futex(a, out);
	return 0;
}

enum mutex_owner
mutex_owner_decode(const struct syscall_line *line, const unsigned char *buf, size_t len,
		   pid_t *owner)
{
	uint32_t word;
	int32_t tid;

	*owner = 0;
	if (len < sizeof word)
		return MUTEX_OWNER_UNKNOWN;
	memcpy(&word, buf, sizeof word);
	if (line->futex == FUTEX_KIND_PI) {
		if ((word & FUTEX_TID_BITS) == 0)
			return MUTEX_OWNER_FREE;
		*owner = (pid_t)(word & FUTEX_TID_BITS);
		return MUTEX_OWNER_KNOWN;
	}
	if (line->futex != FUTEX_KIND_MUTEX || line->futex_val != 2 || len < MUTEX_WORDS)
		return MUTEX_OWNER_UNKNOWN;
	if (word == 0)
		return MUTEX_OWNER_FREE;
	if (word != 1 && word != 2)
		return MUTEX_OWNER_UNKNOWN;
	memcpy(&tid, buf + MUTEX_OWNER_OFFSET, sizeof tid);
	if (tid <= 0)
		return MUTEX_OWNER_UNKNOWN;
	*owner = (pid_t)tid;
	return MUTEX_OWNER_KNOWN;
}

int
futex_waitv_first(struct syscall_line *line, const unsigned char *buf, size_t len)
{
	uint64_t val, uaddr;
	uint32_t flags;

	if (line->futex != FUTEX_KIND_FUTEX2 || !line->futex_vector || len < FUTEX_WAITV_ENTRY)
		return decode_fail(EINVAL);
	/* struct futex_waitv: u64 val, u64 uaddr, u32 flags, u32 reserved */
	memcpy(&val, buf, sizeof val);
	memcpy(&uaddr, buf + 8, sizeof uaddr);
	memcpy(&flags, buf + 16, sizeof flags);
	line->futex_addr = uaddr;
	line->futex_val = (uint32_t)val;
	line->futex_private = (flags & FOP_PRIVATE) != 0;
	return 0;
}
