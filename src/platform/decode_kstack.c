/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A blocked thread's kernel stack as function names, from the text each
 * kernel gives: Linux's /proc/PID/task/TID/stack ("[<0>] futex_wait_queue+0x6a/0xa0")
 * and FreeBSD's kern.proc.kstack records (struct kinfo_kstack, whose trace
 * reads "#0 0xffffffff80bb9f3e at mi_switch+0xbe").
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/decode_proc.h"
#include "scaletop/error.h"
#include "decode_bsd.h"
#include "decode_line.h"

/*
 * The offsets go, since a histogram of stacks counts the same path as one
 * whatever the return address inside each function.  Pure code over a buffer
 * (decode_proc.h, decode_bsd.h), built on every OS so that recorded and
 * synthetic text is tested here.
 */

/* Appends the frame named [p, e) (cut to fit); frames past KSTACK_FRAMES are dropped. */
static void
kstack_push(struct kstack *out, const char *p, const char *e)
{
	size_t n = (size_t)(e - p);

	if (out->nframes >= KSTACK_FRAMES)
		return;
	if (n > KSTACK_NAME_LEN - 1)
		n = KSTACK_NAME_LEN - 1;
	memcpy(out->frame[out->nframes], p, n);
	out->frame[out->nframes][n] = '\0';
	out->nframes++;
}

/*
 * The end of a function's name at p: its "+0x" offset, a blank or any other
 * control byte (a NUL, a '\r'), or the line's end.
 */
static const char *
kstack_name_end(const char *p, const char *end)
{
	while (p < end && *p != '+' && (unsigned char)*p > ' ' && *p != 0x7f)
		p++;
	return p;
}

/* One Linux line "[<ADDR>] NAME+0xOFF/0xLEN [MODULE]" into out: 0, or -1 (EINVAL). */
static int
kstack_text_line(struct line *l, struct kstack *out)
{
	const char *p = l->p, *q;

	if (l->end - p < 4 || p[0] != '[' || p[1] != '<')
		return decode_fail(EINVAL);
	for (p += 2; p < l->end && *p != '>'; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') ||
		      (*p >= 'A' && *p <= 'F')))
			return decode_fail(EINVAL);
	if (p == l->p + 2 || l->end - p < 2 || p[1] != ']')
		return decode_fail(EINVAL);
	l->p = p + 2;
	line_skip_blanks(l);
	q = kstack_name_end(l->p, l->end);
	if (q == l->p)
		return decode_fail(EINVAL); /* no name, or a bare offset */
	kstack_push(out, l->p, q);
	return 0;
}

int
kstack_text_decode(const char *buf, size_t len, struct kstack *out)
{
	const char *pos = buf, *end = buf + len;
	struct line l;
	int r;

	memset(out, 0, sizeof(*out));
	while ((r = line_next(&pos, end, &l)) == 1) {
		if (line_at_end(&l))
			continue;
		if (kstack_text_line(&l, out) != 0) {
			memset(out, 0, sizeof(*out));
			return -1;
		}
	}
	if (r < 0) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	if (out->nframes == 0)
		out->flags |= KSTACK_RUNNING;
	return 0;
}

/* --- FreeBSD kinfo_kstack ------------------------------------------------ */

static const char *const kk_names[BSD_KK_NFIELDS] = { "kkst_tid", "kkst_state", "kkst_trace" };

/* A number field of 4 or 8 bytes in the host's order. */
static int64_t
kk_number(const unsigned char *rec, const struct bsd_field *f)
{
	int32_t v4;
	int64_t v8;

	if (f->len == 4) {
		memcpy(&v4, rec + f->off, 4);
		return v4;
	}
	memcpy(&v8, rec + f->off, 8);
	return v8;
}

static int
kk_layout_check(const struct bsd_kstack_layout *lay, char *err, size_t errlen)
{
	int i;

	for (i = 0; i < BSD_KK_NFIELDS; i++) {
		if (lay->f[i].len == 0 || lay->f[i].off + lay->f[i].len > lay->size ||
		    (i != BSD_KK_TRACE && lay->f[i].len != 4 && lay->f[i].len != 8))
			return st_error(err, errlen,
					"kinfo_kstack layout: %s at %zu (%zu bytes) does not fit "
					"a %zu-byte record",
					kk_names[i], lay->f[i].off, lay->f[i].len, lay->size);
	}
	return 0;
}

/* One trace line "#N 0xPC at NAME+0xOFF" into out: 0, or -1 (EINVAL). */
static int
kk_trace_line(struct line *l, struct kstack *out)
{
	const char *pc, *pce, *q;

	line_skip_blanks(l);
	if (l->p == l->end || *l->p != '#')
		return decode_fail(EINVAL);
	for (l->p++; l->p < l->end && is_digit(*l->p); l->p++)
		;
	line_skip_blanks(l);
	pc = l->p;
	pce = kstack_name_end(pc, l->end);
	if (pce == pc)
		return decode_fail(EINVAL);
	l->p = pce;
	line_skip_blanks(l);
	if (l->end - l->p < 3 || memcmp(l->p, "at", 2) != 0 || !is_blank(l->p[2])) {
		kstack_push(out, pc, pce); /* no name: the address */
		return 0;
	}
	l->p += 3;
	line_skip_blanks(l);
	q = kstack_name_end(l->p, l->end);
	if (q == l->p || (q - l->p >= 2 && l->p[0] == '?' && l->p[1] == '?'))
		kstack_push(out, pc, pce);
	else
		kstack_push(out, l->p, q);
	return 0;
}

/* A record's trace (NUL within its n bytes) into out: 0, or -1 (EINVAL). */
static int
kk_trace(const char *t, size_t n, struct kstack *out)
{
	const char *nul = memchr(t, '\0', n), *pos = t, *end = nul != NULL ? nul : t + n;
	struct line l;
	int r;

	while ((r = line_next(&pos, end, &l)) == 1) {
		if (line_at_end(&l))
			continue;
		if (kk_trace_line(&l, out) != 0)
			return -1;
	}
	/* r < 0: the last line has no '\n', cut at the field's end: dropped */
	return 0;
}

/* Checks record i (of n); the message names it and the field. */
static int
kk_check(const struct bsd_kstack_layout *lay, const unsigned char *rec, size_t i, size_t n,
	 char *err, size_t errlen)
{
	const struct bsd_field *tr = &lay->f[BSD_KK_TRACE];
	struct kstack scratch;
	int64_t st = kk_number(rec, &lay->f[BSD_KK_STATE]);

	if (st != BSD_KKST_STACKOK && st != BSD_KKST_SWAPPED && st != BSD_KKST_RUNNING)
		return st_error(err, errlen,
				"kern.proc.kstack: record %zu of %zu: kkst_state %lld is not "
				"one of STACKOK, SWAPPED, RUNNING",
				i + 1, n, (long long)st);
	if (memchr(rec + tr->off, '\0', tr->len) == NULL)
		return st_error(err, errlen,
				"kern.proc.kstack: record %zu of %zu: kkst_trace has no NUL "
				"within its %zu bytes",
				i + 1, n, tr->len);
	memset(&scratch, 0, sizeof(scratch));
	if (st == BSD_KKST_STACKOK && kk_trace((const char *)rec + tr->off, tr->len, &scratch) != 0)
		return st_error(err, errlen,
				"kern.proc.kstack: record %zu of %zu: kkst_trace has a line not "
				"of the form '#N 0xPC at NAME+0xOFF'",
				i + 1, n);
	return 0;
}

int
bsd_kstack_decode(const struct bsd_kstack_layout *lay, const void *buf, size_t len, pid_t tid,
		  struct kstack *out, char *err, size_t errlen)
{
	const unsigned char *b = buf, *rec;
	size_t n, i, found = SIZE_MAX;
	int64_t st;

	memset(out, 0, sizeof(*out));
	if (kk_layout_check(lay, err, errlen) != 0 || len % lay->size != 0) {
		if (len % lay->size != 0)
			st_error(err, errlen,
				 "kern.proc.kstack: %zu bytes are not whole %zu-byte records", len,
				 lay->size);
		errno = EINVAL;
		return -1;
	}
	n = len / lay->size;
	for (i = 0; i < n; i++) {
		rec = b + i * lay->size;
		if (kk_check(lay, rec, i, n, err, errlen) != 0) {
			errno = EINVAL;
			return -1;
		}
		if (found == SIZE_MAX && kk_number(rec, &lay->f[BSD_KK_TID]) == (int64_t)tid)
			found = i;
	}
	if (found == SIZE_MAX)
		return 0;
	rec = b + found * lay->size;
	st = kk_number(rec, &lay->f[BSD_KK_STATE]);
	if (st == BSD_KKST_RUNNING)
		out->flags |= KSTACK_RUNNING;
	else if (st == BSD_KKST_SWAPPED)
		out->flags |= KSTACK_SWAPPED;
	else
		(void)kk_trace((const char *)rec + lay->f[BSD_KK_TRACE].off,
			       lay->f[BSD_KK_TRACE].len, out);
	return 1;
}
