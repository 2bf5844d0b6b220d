/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FreeBSD's kern.cp_times, and the counters both BSD backends read the same
 * way (vm.stats.*, per-thread rusage), turned into raw samples.
 * Pure code over buffers: it runs on every OS against recorded fixtures.
 */
#include <errno.h>
#include <string.h>

#include "decode_bsd.h"

const char *const bsd_vmstat_names[BSD_V_NSTATS] = {
	"vm.stats.sys.v_swtch",   "vm.stats.sys.v_intr", "vm.stats.sys.v_soft",
	"vm.stats.sys.v_syscall", "vm.stats.vm.v_forks", "vm.stats.vm.v_vforks",
	"vm.stats.vm.v_rforks",
};

/* Where each kern.cp_times state lands among ours. */
static const enum cpu_state cptimes_map[BSD_CPUSTATES] = {
	[BSD_CP_USER] = CPU_USER, [BSD_CP_NICE] = CPU_NICE, [BSD_CP_SYS] = CPU_SYS,
	[BSD_CP_INTR] = CPU_IRQ,  [BSD_CP_IDLE] = CPU_IDLE,
};

/*
 * One slot's states.  memcpy, because the buffer is bytes with no promise of
 * alignment; unsigned long, because a 32-bit kernel's long counter runs past
 * LONG_MAX after about 200 days at 127 Hz and must keep counting up, not
 * turn negative.
 */
static bool
cptimes_slot(const unsigned char *p, uint64_t tick[BSD_CPUSTATES])
{
	bool any = false;
	long v;
	int i;

	for (i = 0; i < BSD_CPUSTATES; i++) {
		memcpy(&v, p + (size_t)i * sizeof(v), sizeof(v));
		tick[i] = (uint64_t)(unsigned long)v;
		if (v != 0)
			any = true;
	}
	return any;
}

int
cptimes_decode(const void *buf, size_t len, struct raw_sample *s)
{
	const size_t slot_len = BSD_CPUSTATES * sizeof(long);
	const unsigned char *p = buf;
	uint64_t tick[BSD_CPUSTATES];
	size_t nslots, i;
	int j, n = 0;

	if (buf == NULL || len == 0 || len % slot_len != 0) {
		errno = EINVAL;
		return -1;
	}
	nslots = len / slot_len;
	if (nslots > BSD_CPU_SLOTS_MAX) {
		errno = ERANGE;
		return -1;
	}
	if (raw_sample_reserve(s, (int)nslots) != 0)
		return -1;
	for (i = 0; i < nslots; i++) {
		struct cpu_ticks *c;

		if (!cptimes_slot(p + i * slot_len, tick))
			continue;
		c = &s->cpu[n++];
		memset(c, 0, sizeof(*c));
		c->id = (int)i;
		for (j = 0; j < BSD_CPUSTATES; j++)
			c->tick[cptimes_map[j]] = tick[j];
	}
	s->ncpu = n;
	if (n == 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

void
bsd_vmstats_init(struct bsd_vmstats *vm)
{
	memset(vm, 0, sizeof(*vm));
}

void
bsd_vmstats_begin(struct bsd_vmstats *vm)
{
	vm->have = 0;
}

/*
 * The low 32 bits moved on by (raw - low) mod 2^32 since the last read;
 * unsigned arithmetic does the modulo, so a wrap from 4294967295 to 5 adds 6.
 */
static uint64_t
vmstats_widen(uint64_t prev, uint32_t raw)
{
	return prev + (uint32_t)(raw - (uint32_t)prev);
}

int
bsd_vmstats_fold(struct bsd_vmstats *vm, int i, const void *buf, size_t len)
{
	unsigned bit;
	uint64_t v64;
	uint32_t v32;

	if (i < 0 || i >= BSD_V_NSTATS || buf == NULL) {
		errno = EINVAL;
		return -1;
	}
	bit = 1u << i;
	if (len == sizeof(v64)) {
		memcpy(&v64, buf, sizeof(v64));
		vm->v[i] = v64;
	} else if (len == sizeof(v32)) {
		memcpy(&v32, buf, sizeof(v32));
		vm->v[i] = (vm->seen & bit) ? vmstats_widen(vm->v[i], v32) : v32;
	} else {
		errno = EINVAL;
		return -1;
	}
	vm->seen |= bit;
	vm->have |= bit;
	return 0;
}

static void
vmstats_put(struct sys_sample *sys, enum sys_counter c, uint64_t v)
{
	sys->count[c] = v;
	sys->have |= 1u << c;
}

void
bsd_vmstats_to_sys(const struct bsd_vmstats *vm, struct sys_sample *sys)
{
	static const enum sys_counter direct[] = {
		[BSD_V_SWTCH] = SYS_CTXSW,
		[BSD_V_INTR] = SYS_INTR,
		[BSD_V_SOFT] = SYS_SOFTIRQ,
		[BSD_V_SYSCALL] = SYS_SYSCALL,
	};
	uint64_t forks;
	int i;

	for (i = BSD_V_SWTCH; i <= BSD_V_SYSCALL; i++) {
		if (vm->have & (1u << i))
			vmstats_put(sys, direct[i], vm->v[i]);
	}
	if ((vm->have & (1u << BSD_V_FORKS)) == 0)
		return;
	forks = vm->v[BSD_V_FORKS];
	if (vm->have & (1u << BSD_V_VFORKS))
		forks += vm->v[BSD_V_VFORKS];
	if (vm->have & (1u << BSD_V_RFORKS))
		forks += vm->v[BSD_V_RFORKS];
	vmstats_put(sys, SYS_FORK, forks);
}

int64_t
bsd_timeval_us(int64_t sec, int64_t usec)
{
	if (sec < 0)
		sec = 0;
	if (usec < 0)
		usec = 0;
	if (sec > (INT64_MAX - usec) / 1000000)
		return INT64_MAX;
	return sec * 1000000 + usec;
}

static uint64_t
task_nonneg(int64_t v)
{
	return v > 0 ? (uint64_t)v : 0;
}

void
bsd_task_add(struct task_counters *out, const struct bsd_thread_usage *t)
{
	out->user_ns += task_nonneg(t->user_us) * 1000u;
	out->sys_ns += task_nonneg(t->sys_us) * 1000u;
	out->vol_csw += task_nonneg(t->nvcsw);
	out->invol_csw += task_nonneg(t->nivcsw);
	out->have |= TASK_HAVE_CSW | TASK_HAVE_CPU;
	out->nthreads++;
}
