/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared futexes' keys (shm_key.c): a word's key from maps text, and live,
 * one shm_open object mapped twice at two addresses gives one key, as the
 * kernel's futex key does; a private mapping gives none.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "scaletop/decode_proc.h"
#include "scaletop/platform.h"
#include "../../src/engine/shm_key.h"
#include "../tap.h"

static const char maps_text[] =
	"55d0c0000000-55d0c0001000 r--p 00000000 08:01 131 /usr/bin/app\n"
	"7f0000000000-7f0000002000 rw-s 00003000 00:01 4242 /dev/shm/pool\n"
	"7f0000002000-7f0000003000 rw-s 00000000 00:01 4343 /dev/zero (deleted)\n"
	"7f0000003000-7f0000004000 rw-p 00000000 00:00 0 \n"
	"7f0000004000-7f0000005000 rw-p 00001000 08:01 132 /var/data.bin\n";

static void
test_from_text(void)
{
	struct map_list l = { 0 };
	struct census_shared w;

	if (maps_decode(maps_text, strlen(maps_text), &l) != 0) {
		ok(0, "maps text decoded");
		return;
	}
	is_int(shm_key_in(&l, 0x7f0000001010, &w), 1,
	       "text: a word in a shm_open object is shared");
	ok(w.dev == 1 && w.ino == 4242 && w.off == 0x3000 + 0x1010,
	   "text: its device, inode and offset in the object (0x%llx)", (unsigned long long)w.off);
	ok(shm_key_in(&l, 0x7f0000002008, &w) == 1 && w.ino == 4343 && w.off == 8,
	   "text: MAP_SHARED|MAP_ANONYMOUS (/dev/zero, deleted) is shared memory too");
	is_int(shm_key_in(&l, 0x7f0000003000, &w), 0, "text: anonymous private memory: none");
	is_int(shm_key_in(&l, 0x7f0000004000, &w), 0, "text: a file mapped private: none");
	is_int(shm_key_in(&l, 0x1000, &w), 0, "text: an address mapped nowhere: none");
	map_list_free(&l);
}

static void *
thread_tgid(void *arg)
{
	*(pid_t *)arg = proc_thread_group(gettid());
	return NULL;
}

/* One object mapped at two addresses in this process, and a private page beside. */
static void
test_live(void)
{
	struct shm_keys *k = shm_keys_new();
	struct census_shared a, b, none = { 0, 0, 0 };
	char name[64];
	char *m1, *m2, *priv;
	pthread_t th;
	pid_t tg = 0;
	int fd;

	snprintf(name, sizeof name, "/scaletop-test-shm.%d", (int)getpid());
	fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
	if (fd < 0 || ftruncate(fd, 8192) != 0) {
		ok(0, "live: shm_open %s: %s", name, strerror(errno));
		return;
	}
	shm_unlink(name);
	m1 = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	m2 = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 4096);
	priv = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	close(fd);
	ok(k != NULL && m1 != MAP_FAILED && m2 != MAP_FAILED && priv != MAP_FAILED,
	   "live: the object mapped twice, and a private page");
	is_int(shm_key_of(k, getpid(), (uint64_t)(uintptr_t)(m1 + 4096 + 64), &a), 1,
	       "live: a word of the first mapping is shared");
	is_int(shm_key_of(k, getpid(), (uint64_t)(uintptr_t)(m2 + 64), &b), 1,
	       "live: the same word through the second is shared");
	ok(memcmp(&a, &b, sizeof a) == 0 && a.off == 4096 + 64,
	   "live: both addresses give one key (inode %llu, offset %llu)", (unsigned long long)a.ino,
	   (unsigned long long)a.off);
	is_int(shm_key_of(k, getpid(), (uint64_t)(uintptr_t)priv, &b), 0,
	       "live: a private page has no shared key");
	is_int(shm_keys_maps(k, getpid(), &a), 1, "live: this process maps the object");
	none.ino = a.ino + 1;
	is_int(shm_keys_maps(k, getpid(), &none), 0, "live: and no other inode");
	if (pthread_create(&th, NULL, thread_tgid, &tg) == 0)
		pthread_join(th, NULL);
	ok(tg == getpid(), "live: a thread's process is this one (%d)", (int)tg);
	ok(proc_thread_group(999999999) < 0 && errno == ESRCH, "live: no such thread: ESRCH");
	munmap(m1, 8192);
	munmap(m2, 4096);
	munmap(priv, 4096);
	shm_keys_free(k);
}

int
main(void)
{
	test_from_text();
	test_live();
	return done_testing();
}
