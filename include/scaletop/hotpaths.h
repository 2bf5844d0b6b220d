/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where the CPUs went: a step's on-CPU samples by call path and by function
 * (its own samples), and the share that spun in a lock.
 */
#ifndef SCALETOP_HOTPATHS_H
#define SCALETOP_HOTPATHS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "scaletop/waits.h"

#define HOT_FRAMES 8 /* frames that name a path, innermost first */
#define HOT_KEY_FRAMES                                                             \
	16 /* frames tallied: the path's, and room above a spin to find its caller \
	    */
#define HOT_NAME_LEN 64
#define HOT_MAX_CHAINS 8192 /* distinct chains a window tallies; the rest count as "(other)" */

/*
 * A collapse with the threads "running" is often a spinning lock, a kernel
 * one (the fd table's in the seed study) or one in user space (InnoDB's, a
 * spinlock), which only the call chain names: the spin frame
 * (native_queued_spin_lock_slowpath, _raw_spin_lock, pthread_spin_lock,
 * s_lock ...) and, above it, the caller that took the lock (alloc_fd,
 * file_close_fd ...).
 *
 * While a window runs the samples are tallied by raw address chain, which
 * costs a hash and no lookup; names are given once at the window's end, by
 * a namer the caller supplies (the symboliser), so each distinct address is
 * named once.  Pure code: no I/O.
 */

/* A path and its share of a family's samples. */
struct hot_path {
	enum wait_family family; /* WAIT_WORKLOAD or WAIT_TARGET */
	int nframes;
	int nkernel;                          /* frame[0 .. nkernel) are kernel frames */
	char frame[HOT_FRAMES][HOT_NAME_LEN]; /* innermost first */
	double share;                         /* of the family's samples, 0..1 */
	uint64_t samples;
};

/* Time spun in locks, by the caller that names the lock. */
struct hot_spin {
	enum wait_family family;
	char spin[HOT_NAME_LEN];   /* the lock code's outermost spin frame: _raw_spin_lock */
	char caller[HOT_NAME_LEN]; /* the first frame above the lock's own, e.g. alloc_fd; "" if
				      none */
	double share;              /* of the family's samples, 0..1 */
	uint64_t samples;
	bool user; /* spun in user space (hotspin.c's table), not in a kernel lock */
};

/*
 * A function's own samples (perf's "self"): the samples whose innermost
 * frame it is, whatever called it.  Unlike a path's, this share does not
 * depend on how well the callers were unwound.
 */
struct hot_self {
	enum wait_family family;
	char func[HOT_NAME_LEN]; /* the innermost frame's name */
	bool kernel;             /* a kernel function */
	double share;            /* of the family's samples, 0..1 */
	uint64_t samples;
};

/* A tally named (hot_tally_name): each list malloc'ed, NULL when empty. */
struct hot_named {
	struct hot_path *paths;
	int npaths;
	struct hot_spin *spins;
	int nspins;
	struct hot_self *selfs;
	int nselfs;
	double spin_share[WAIT_NFAMILIES];      /* spun in any lock, kernel or user */
	double user_spin_share[WAIT_NFAMILIES]; /* ... of which in user space */
};

struct hot_chain; /* private to hotpaths.c */

/* The samples of a window, being tallied. */
struct hot_tally {
	struct hot_chain *chain;
	int nchains, cap;
	int *slot; /* open-addressing index into chain, -1 empty */
	int nslots;
	uint64_t *ips; /* the chains' frames, each chain's in a run */
	size_t nips, capips;
	uint64_t samples[WAIT_NFAMILIES];
	uint64_t other[WAIT_NFAMILIES]; /* samples past HOT_MAX_CHAINS distinct chains */
};

void hot_tally_init(struct hot_tally *t);
void hot_tally_free(struct hot_tally *t);
/* Empties it, keeping the memory. */
void hot_tally_reset(struct hot_tally *t);

/*
 * Counts one sample of a thread of process pid in family f: ip[0 .. nkernel)
 * kernel addresses, then user ones up to nframes, innermost first (only the
 * first HOT_KEY_FRAMES are kept).  0, or -1 with ENOMEM (the sample then
 * counts as "(other)").
 */
int hot_tally_add(struct hot_tally *t, enum wait_family f, pid_t pid, const uint64_t *ip,
		  int nkernel, int nframes);

/*
 * Chain i whole, for naming it elsewhere (hotstacks.h) or its kernel frames
 * in one batch: its frames are the tally's.
 */
struct hot_chain_view {
	enum wait_family family;
	pid_t pid;
	int nkernel, nframes; /* ip[0 .. nkernel) kernel, then user, innermost first */
	uint64_t count;
	const uint64_t *ip;
};
void hot_chain_view(const struct hot_tally *t, int i, struct hot_chain_view *v);

/*
 * Names ip of process pid (kernel: a kernel address) into out, len bytes,
 * NUL-terminated: a symbol alone, with no offset ("alloc_fd"), so that the
 * samples of one function merge, else "libc.so.6+0x9a1f0".  Returns 0; -1
 * when it has no name (the frame is then printed as its address); -2 when a
 * user address lies in no executable mapping (unmapped, or data).  Code
 * built without frame pointers leaves such garbage as its "callers", so -2
 * ends the chain: that frame and every outer one are dropped.  The
 * innermost user frame is the sampled address itself, which ran: it is kept,
 * as its address, when the maps at hand do not hold it.
 */
typedef int (*hot_namer)(void *arg, pid_t pid, uint64_t ip, bool kernel, char *out, size_t len);

/*
 * The tally named into *out: each family's paths, most samples first, at
 * most max_per_family of them; its functions by their own samples, as
 * many; and its lock spin by caller, as many.  Chains whose names are the
 * same path are one path.  A sample spun when a kernel spin frame is near
 * its innermost end (hot_frame_is_spin), else when its user leaf is lock
 * code (hot_chain_user_spin).  spin_share[f] is the share of family f's
 * samples that spun, the kept callers and the rest; user_spin_share[f] the
 * part of it in user space.  0, or -1 (ENOMEM; out empty).
 */
int hot_tally_name(const struct hot_tally *t, hot_namer namer, void *arg, int max_per_family,
		   struct hot_named *out);
/* Frees out's lists and empties it. */
void hot_named_free(struct hot_named *out);

/*
 * Whether a frame's name is a kernel lock's spin (a queued or raw
 * spinlock's slow path, an optimistic spin of a mutex or rwsem), after
 * dropping a compiler suffix such as ".part.0".
 */
bool hot_frame_is_spin(const char *name);

/*
 * User-space spin (hotspin.c, one table): whether a function's name is
 * lock-acquire or spin code that runs in user space (pthread_spin_lock, a
 * glibc mutex on CPU, sched_yield, the built-ins' spin loops, InnoDB's
 * ut_delay, PostgreSQL's s_lock ...).
 */
bool hot_frame_is_user_spin(const char *name);

/*
 * Whether a chain of names, innermost first, name[0 .. nkernel) kernel
 * frames, spun in user space: in user mode, with one of its innermost
 * three user frames lock code; or in the kernel for sched_yield, under a
 * user frame.  out gets the outermost lock frame as spin and the first
 * frame above it as caller ("" when none), with user set.
 */
bool hot_chain_user_spin(const char (*name)[HOT_NAME_LEN], int n, int nkernel,
			 struct hot_spin *out);

#endif
