/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the kernel-stack decoders (decode_kstack.c): any
 * bytes as Linux's /proc/PID/task/TID/stack text, and the same bytes as
 * FreeBSD kern.proc.kstack records in the amd64 layout, asked for the tid
 * of the first record.  An accepted stack has at most KSTACK_FRAMES frames,
 * each NUL-terminated and non-empty; a refused one sets EINVAL and leaves
 * no frames.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_proc.h"
#include "../../src/platform/decode_bsd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct bsd_kstack_layout kk_layout = {
	.size = BSD_FREEBSD14_KSTACK_AMD64_SIZE,
	.f = { [BSD_KK_TID] = { 0, 4 }, [BSD_KK_STATE] = { 4, 4 }, [BSD_KK_TRACE] = { 8, 1024 } },
};

static void
check(int r, const struct kstack *k, int found)
{
	int i;

	if (r < 0) {
		if (errno != EINVAL || k->nframes != 0)
			abort();
		return;
	}
	if (r != 0 && r != found)
		abort();
	if (k->nframes < 0 || k->nframes > KSTACK_FRAMES)
		abort();
	for (i = 0; i < k->nframes; i++)
		if (memchr(k->frame[i], '\0', KSTACK_NAME_LEN) == NULL || k->frame[i][0] == '\0')
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kstack k;
	char *p = malloc(size ? size : 1), err[200];
	int32_t tid = 0;
	int r;

	if (p == NULL)
		return 0;
	memcpy(p, data, size);
	errno = 0;
	r = kstack_text_decode(p, size, &k);
	check(r, &k, 0);
	if (size >= 4)
		memcpy(&tid, p, 4);
	errno = 0;
	r = bsd_kstack_decode(&kk_layout, p, size, (pid_t)tid, &k, err, sizeof(err));
	check(r, &k, 1);
	free(p);
	return 0;
}
