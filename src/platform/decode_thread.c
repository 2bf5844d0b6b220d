/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decoders for what a --target and the wait sampler read of a Linux thread
 * or process: stat's state, parent, threads and start time, the wait
 * channel, and the command name.  Pure and portable; see decode_linux.h.
 */
#include <string.h>

#include "scaletop/decode_linux.h"
#include "decode_line.h"

/* stat's fields after the comm, from field 3 (the state) on, that are read. */
#define STAT_PPID 4
#define STAT_NTHREADS 20
#define STAT_START 22

/* The last ')' in [p, end): the comm before it may itself hold ')'. */
static const char *
stat_after_comm(const char *p, const char *end)
{
	const char *q = end;

	while (q > p) {
		q--;
		if (*q == ')')
			return q + 1;
	}
	return NULL;
}

/* The next ' '-separated token of [*pp, end) as [*tok, *pp); numbers may be negative. */
static int
stat_token(const char **pp, const char *end, const char **tok)
{
	const char *p = *pp;

	if (p == end || *p != ' ')
		return decode_fail(EINVAL);
	p++;
	*tok = p;
	while (p < end && *p != ' ')
		p++;
	if (p == *tok)
		return decode_fail(EINVAL);
	*pp = p;
	return 0;
}

static int
stat_number(const char *tok, const char *end, uint64_t *v)
{
	const char *p = tok;

	if (digits_u64(&p, end, v) != 0)
		return -1;
	return p == end || *p == ' ' ? 0 : decode_fail(EINVAL);
}

int
thread_stat_decode(const char *buf, size_t len, struct thread_stat *st)
{
	const char *p, *end, *tok;
	int field;

	memset(st, 0, sizeof(*st));
	if (len == 0 || buf[len - 1] != '\n' || !is_digit(buf[0]))
		return decode_fail(EINVAL);
	end = buf + len - 1;
	if ((p = stat_after_comm(buf, end)) == NULL)
		return decode_fail(EINVAL);
	for (field = 3; field <= STAT_START; field++) {
		if (stat_token(&p, end, &tok) != 0)
			return -1;
		if (field == 3) {
			if (p - tok != 1)
				return decode_fail(EINVAL);
			st->state = *tok;
		} else if ((field == STAT_PPID && stat_number(tok, end, &st->ppid) != 0) ||
			   (field == STAT_NTHREADS && stat_number(tok, end, &st->nthreads) != 0) ||
			   (field == STAT_START && stat_number(tok, end, &st->start_ticks) != 0))
			return -1;
	}
	return 0;
}

enum thread_state
thread_state_of(char letter)
{
	switch (letter) {
	case 'R':
		return THREAD_RUNNABLE;
	case 'S':
		return THREAD_SLEEPING;
	case 'D':
		return THREAD_DISK;
	case 'T':
	case 't':
		return THREAD_STOPPED;
	case 'Z':
	case 'X':
		return THREAD_ZOMBIE;
	case 'I':
		return THREAD_IDLE;
	default:
		return THREAD_OTHER;
	}
}

/* A byte of a kernel symbol: letters, digits, '_' and '.' (e.g. "foo.isra.0"). */
static bool
wchan_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' ||
	       c == '.';
}

bool
wchan_is_futex_wait(const char *channel)
{
	/* futex_wait_queue (6.x), futex_wait_queue_me (older), futex_do_wait, futex_wait... */
	return strncmp(channel, "futex_", 6) == 0 && strstr(channel, "wake") == NULL;
}

int
wchan_decode(const char *buf, size_t len, char *out, size_t outlen)
{
	size_t i, n;

	if (outlen == 0)
		return decode_fail(EINVAL);
	out[0] = '\0';
	if (len > 0 && buf[len - 1] == '\n')
		len--;
	if (len == 0)
		return decode_fail(EINVAL);
	for (i = 0; i < len; i++) {
		if (!wchan_byte(buf[i]))
			return decode_fail(EINVAL);
	}
	if (len == 1 && buf[0] == '0')
		return 0;
	n = len < outlen - 1 ? len : outlen - 1;
	memcpy(out, buf, n);
	out[n] = '\0';
	return 0;
}

int
comm_decode(const char *buf, size_t len, char *out, size_t outlen)
{
	size_t i;

	if (outlen == 0 || len < 2 || buf[len - 1] != '\n' || len - 1 >= outlen)
		return decode_fail(EINVAL);
	for (i = 0; i + 1 < len; i++) {
		if (buf[i] == '\n' || buf[i] == '\0')
			return decode_fail(EINVAL);
	}
	memcpy(out, buf, len - 1);
	out[len - 1] = '\0';
	return 0;
}
