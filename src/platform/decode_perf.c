/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_event ring records into samples (oncpu.h).  The record layout and
 * the context markers are the kernel's ABI (include/uapi/linux/perf_event.h),
 * spelled out here so the decoder builds and is tested on every OS.
 */
#include <errno.h>
#include <string.h>

#include "scaletop/oncpu.h"

#define REC_LOST 2
#define REC_SAMPLE 9
#define REC_HEADER 8 /* u32 type, u16 misc, u16 size */

/* The markers in a call chain: where the frames after them come from. */
#define CTX_HV ((uint64_t)-32)
#define CTX_KERNEL ((uint64_t)-128)
#define CTX_USER ((uint64_t)-512)
#define CTX_GUEST ((uint64_t)-2048)
#define CTX_GUEST_KERNEL ((uint64_t)-2176)
#define CTX_GUEST_USER ((uint64_t)-2560)
#define CTX_MAX ((uint64_t)-4095)

enum chain_part { PART_NONE, PART_KERNEL, PART_USER };

static uint64_t
get_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

static uint16_t
get_u16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

static uint32_t
get_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

/* The part of the chain that frames after marker belong to. */
static enum chain_part
marker_part(uint64_t marker)
{
	if (marker == CTX_KERNEL)
		return PART_KERNEL;
	if (marker == CTX_USER)
		return PART_USER;
	return PART_NONE; /* hypervisor and guest frames are not the workload's */
}

/*
 * Keeps a frame: kernel frames go before user ones, and the kernel always
 * lists its own part first, so appending in order keeps them so.  A kernel
 * frame after a user one (which no kernel writes) is dropped rather than
 * trusted.
 */
static void
sample_push(struct oncpu_sample *s, enum chain_part part, uint64_t ip)
{
	if (s->nframes >= ONCPU_MAX_FRAMES) {
		s->truncated = true;
		return;
	}
	if (part == PART_KERNEL) {
		if (s->nframes > s->nkernel)
			return;
		s->nkernel++;
	}
	s->ip[s->nframes++] = ip;
}

/* One PERF_RECORD_SAMPLE's body (after the header), body_len bytes. */
static int
sample_decode(const unsigned char *body, size_t body_len, struct oncpu_sample *s)
{
	uint64_t nr, i, ip;
	enum chain_part part = PART_NONE;

	if (body_len < 16)
		return -1;
	memset(s, 0, sizeof *s);
	s->pid = (pid_t)get_u32(body);
	s->tid = (pid_t)get_u32(body + 4);
	nr = get_u64(body + 8);
	if (nr > (body_len - 16) / 8)
		return -1;
	for (i = 0; i < nr; i++) {
		ip = get_u64(body + 16 + 8 * i);
		if (ip >= CTX_MAX) {
			part = marker_part(ip);
			continue;
		}
		if (part != PART_NONE)
			sample_push(s, part, ip);
	}
	return 0;
}

int
perf_records_decode(const unsigned char *buf, size_t len, oncpu_sample_cb cb, void *arg,
		    struct perf_decode_stats *st)
{
	struct oncpu_sample s;
	size_t off = 0, size;
	uint32_t type;

	while (off < len) {
		if (len - off < REC_HEADER)
			goto bad;
		type = get_u32(buf + off);
		size = get_u16(buf + off + 6);
		if (size < REC_HEADER || size % 8 != 0 || size > len - off)
			goto bad;
		if (type == REC_SAMPLE) {
			if (sample_decode(buf + off + REC_HEADER, size - REC_HEADER, &s) < 0)
				goto bad;
			st->samples++;
			if (cb != NULL)
				cb(&s, arg);
		} else if (type == REC_LOST && size >= REC_HEADER + 16) {
			st->lost += get_u64(buf + off + REC_HEADER + 8);
		} else {
			st->skipped++;
		}
		off += size;
	}
	return 0;
bad:
	errno = EINVAL;
	return -1;
}
