/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where a process-shared futex lies (engine): a waiter's futex address in its
 * process turned into the object it maps shared and the offset in it, as the
 * kernel keys the futex, from each process's maps read once and kept.
 */
#ifndef SCALETOP_SHM_KEY_H
#define SCALETOP_SHM_KEY_H

#include <stdint.h>
#include <sys/types.h>

#include "scaletop/census.h"
#include "scaletop/decode_proc.h"

struct shm_keys;

struct shm_keys *shm_keys_new(void);
/* A step's keys are made at its start and freed at its end: its processes may be others. */
void shm_keys_free(struct shm_keys *k);
/* A new tick: a process whose kept maps miss an address may be read again, once a tick. */
void shm_keys_round(struct shm_keys *k);
/*
 * Where addr lies in pid's shared mappings: 1 with *where set; 0 when it
 * is in none (a private mapping: the kernel keys such a futex by the
 * process and address); -1 with errno when pid's maps could not be read.
 */
int shm_key_of(struct shm_keys *k, pid_t pid, uint64_t addr, struct census_shared *where);
/* Whether pid maps the object of where shared: 1, 0, or -1 with errno. */
int shm_keys_maps(struct shm_keys *k, pid_t pid, const struct census_shared *where);
/* The shared mapping of l holding addr, as a key (pure, for the tests): 1, or 0 if none. */
int shm_key_in(const struct map_list *l, uint64_t addr, struct census_shared *where);

#endif
