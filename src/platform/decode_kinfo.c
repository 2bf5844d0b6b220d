/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kern.proc's struct kinfo_proc records, FreeBSD's and DragonFly's, turned
 * into thread samples (a state and a wait channel per thread) and into the
 * pids of a command name.  Pure code over a buffer and a layout of offsets
 * (decode_bsd.h), so synthetic records are tested on every OS; the backends
 * only make the sysctl calls.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "decode_bsd.h"

/* What one record says, in the kernel's own terms. */
struct kinfo_rec {
	int64_t structsize, pid, tid, pstat, tstat, oncpu, kiflag, tdflags, lwpflags, ppid;
	uint64_t cpu_us, start_us;
	const char *wmesg, *lockname; /* NUL-terminated inside the buffer, or "" */
};

/* The field names each kernel gives, for the messages. */
static const char *const kinfo_names[2][BSD_KI_NFIELDS] = {
	[BSD_FREEBSD] = { "ki_structsize", "ki_pid", "ki_tid", "ki_stat", "", "ki_oncpu",
			  "ki_kiflag", "ki_tdflags", "", "ki_wmesg", "ki_lockname", "ki_comm",
			  "ki_runtime", "", "", "ki_ppid", "ki_start.tv_sec", "ki_start.tv_usec" },
	[BSD_DRAGONFLY] = { "", "kp_pid", "kl_tid", "kp_stat", "kl_stat", "", "", "kl_tdflags",
			    "kl_flags", "kl_wmesg", "", "kp_comm", "kl_uticks", "kl_sticks",
			    "kl_iticks", "kp_ppid", "kp_start.tv_sec", "kp_start.tv_usec" },
};

static const char *
kinfo_os_name(const struct bsd_kinfo_layout *lay)
{
	return lay->os == BSD_DRAGONFLY ? "DragonFly" : "FreeBSD";
}

static bool
kinfo_is_string(int i)
{
	return i == BSD_KI_WMESG || i == BSD_KI_LOCKNAME || i == BSD_KI_COMM;
}

static bool
kinfo_is_number_len(size_t len)
{
	return len == 1 || len == 2 || len == 4 || len == 8;
}

/* A layout whose fields leave the record, or numbers of odd sizes, is the backend's bug. */
static int
kinfo_layout_check(const struct bsd_kinfo_layout *lay, char *err, size_t errlen)
{
	int i;

	if (lay->os != BSD_FREEBSD && lay->os != BSD_DRAGONFLY)
		return st_error(err, errlen,
				"kinfo_proc layout: OS %d is neither FreeBSD nor "
				"DragonFly; report this as a bug",
				(int)lay->os);
	if (lay->size == 0 || lay->f[BSD_KI_PID].len == 0)
		return st_error(err, errlen,
				"kinfo_proc layout: no record size or no pid field; "
				"report this as a bug");
	for (i = 0; i < BSD_KI_NFIELDS; i++) {
		const struct bsd_field *f = &lay->f[i];

		if (f->len == 0)
			continue;
		if (f->off > lay->size || f->len > lay->size - f->off ||
		    (!kinfo_is_string(i) && !kinfo_is_number_len(f->len)))
			return st_error(
				err, errlen,
				"kinfo_proc layout: field %d (%zu bytes at %zu) does not fit "
				"a %zu-byte record; report this as a bug",
				i, f->len, f->off, lay->size);
	}
	return 0;
}

/* A signed number of f->len bytes, by memcpy: the buffer has no promise of alignment. */
static int64_t
kinfo_number(const unsigned char *rec, const struct bsd_field *f)
{
	int8_t v8;
	int16_t v16;
	int32_t v32;
	int64_t v64;

	switch (f->len) {
	case 1:
		memcpy(&v8, rec + f->off, 1);
		return v8;
	case 2:
		memcpy(&v16, rec + f->off, 2);
		return v16;
	case 4:
		memcpy(&v32, rec + f->off, 4);
		return v32;
	case 8:
		memcpy(&v64, rec + f->off, 8);
		return v64;
	default:
		return 0;
	}
}

/* The string field i of rec, or NULL when it has no NUL inside its field. */
static const char *
kinfo_string(const struct bsd_kinfo_layout *lay, const unsigned char *rec, int i)
{
	const struct bsd_field *f = &lay->f[i];

	if (f->len == 0)
		return "";
	if (memchr(rec + f->off, '\0', f->len) == NULL)
		return NULL;
	return (const char *)rec + f->off;
}

/* Microseconds in an unsigned field; a negative one (none should be) counts as 0. */
static uint64_t
kinfo_us(const unsigned char *rec, const struct bsd_field *f)
{
	int64_t v;

	if (f->len == 0)
		return 0;
	v = kinfo_number(rec, f);
	return v > 0 ? (uint64_t)v : 0;
}

static int
kinfo_refuse(const struct bsd_kinfo_layout *lay, size_t i, size_t n, int field, const char *what,
	     char *err, size_t errlen)
{
	errno = EINVAL;
	return st_error(err, errlen,
			"%s kern.proc: record %zu of %zu: %s %s; the kernel's kinfo_proc is not "
			"the one scaletop was built for, rebuild scaletop on this release",
			kinfo_os_name(lay), i + 1, n, kinfo_names[lay->os][field], what);
}

/* Reads record i and checks it: its size, and its strings ending inside their fields. */
static int
kinfo_read(const struct bsd_kinfo_layout *lay, const unsigned char *buf, size_t i, size_t n,
	   struct kinfo_rec *r, char *err, size_t errlen)
{
	const unsigned char *rec = buf + i * lay->size;
	const struct bsd_field *f = lay->f;
	char what[64];
	int s;

	memset(r, 0, sizeof(*r));
	if (f[BSD_KI_STRUCTSIZE].len != 0) {
		r->structsize = kinfo_number(rec, &f[BSD_KI_STRUCTSIZE]);
		if (r->structsize != (int64_t)lay->size) {
			snprintf(what, sizeof(what), "is %lld bytes, this build reads %zu",
				 (long long)r->structsize, lay->size);
			return kinfo_refuse(lay, i, n, BSD_KI_STRUCTSIZE, what, err, errlen);
		}
	}
	r->pid = kinfo_number(rec, &f[BSD_KI_PID]);
	r->tid = f[BSD_KI_TID].len != 0 ? kinfo_number(rec, &f[BSD_KI_TID]) : 0;
	r->pstat = f[BSD_KI_PSTAT].len != 0 ? kinfo_number(rec, &f[BSD_KI_PSTAT]) : 0;
	r->tstat = f[BSD_KI_TSTAT].len != 0 ? kinfo_number(rec, &f[BSD_KI_TSTAT]) : 0;
	r->oncpu = f[BSD_KI_ONCPU].len != 0 ? kinfo_number(rec, &f[BSD_KI_ONCPU]) : BSD_FB_NOCPU;
	r->kiflag = f[BSD_KI_KIFLAG].len != 0 ? kinfo_number(rec, &f[BSD_KI_KIFLAG]) : 0;
	r->tdflags = f[BSD_KI_TDFLAGS].len != 0 ? kinfo_number(rec, &f[BSD_KI_TDFLAGS]) : 0;
	r->lwpflags = f[BSD_KI_LWPFLAGS].len != 0 ? kinfo_number(rec, &f[BSD_KI_LWPFLAGS]) : 0;
	r->cpu_us = kinfo_us(rec, &f[BSD_KI_CPU_US]) + kinfo_us(rec, &f[BSD_KI_CPU_US2]) +
		    kinfo_us(rec, &f[BSD_KI_CPU_US3]);
	r->ppid = f[BSD_KI_PPID].len != 0 ? kinfo_number(rec, &f[BSD_KI_PPID]) : 0;
	r->start_us =
		kinfo_us(rec, &f[BSD_KI_START]) * 1000000u + kinfo_us(rec, &f[BSD_KI_START_US]);
	r->wmesg = kinfo_string(lay, rec, BSD_KI_WMESG);
	r->lockname = kinfo_string(lay, rec, BSD_KI_LOCKNAME);
	for (s = BSD_KI_WMESG; s <= BSD_KI_COMM; s++) {
		if (kinfo_string(lay, rec, s) == NULL)
			return kinfo_refuse(lay, i, n, s, "has no terminating NUL", err, errlen);
	}
	return 0;
}

/* The buffer must be whole records of a layout that fits them. */
static int
kinfo_count(const struct bsd_kinfo_layout *lay, size_t len, size_t *n, char *err, size_t errlen)
{
	if (kinfo_layout_check(lay, err, errlen) != 0) {
		errno = EINVAL;
		return -1;
	}
	if (len % lay->size != 0) {
		errno = EINVAL;
		return st_error(err, errlen,
				"%s kern.proc: %zu bytes are not whole kinfo_proc records of %zu "
				"(%zu left over); rebuild scaletop on this release",
				kinfo_os_name(lay), len, lay->size, len % lay->size);
	}
	*n = len / lay->size;
	return 0;
}

/* --- the states ----------------------------------------------------------- */

/*
 * FreeBSD: ki_stat is the thread's own state.  SRUN is on a CPU when
 * ki_oncpu names one; a sleep without TDF_SINTR cannot be interrupted by a
 * signal (a disk wait, or an sx lock such as the file-descriptor table's,
 * whose wmesg is the lock's name); SLOCK is a turnstile lock (a mutex, a
 * rwlock), named by ki_lockname when KI_LOCKBLOCK says so.
 */
static enum thread_state
freebsd_state(const struct kinfo_rec *r, const char **channel)
{
	*channel = "";
	switch (r->pstat) {
	case BSD_FB_SRUN:
		return r->oncpu != BSD_FB_NOCPU && r->oncpu >= 0 ? THREAD_RUNNING : THREAD_RUNNABLE;
	case BSD_FB_SSLEEP:
		*channel = r->wmesg;
		return (r->tdflags & BSD_FB_TDF_SINTR) ? THREAD_SLEEPING : THREAD_DISK;
	case BSD_FB_SLOCK:
		*channel = (r->kiflag & BSD_FB_KI_LOCKBLOCK) && r->lockname[0] != '\0' ? r->lockname
										       : r->wmesg;
		return THREAD_LOCK;
	case BSD_FB_SSTOP:
		return THREAD_STOPPED;
	case BSD_FB_SZOMB:
		return THREAD_ZOMBIE;
	case BSD_FB_SIDL:
	case BSD_FB_SWAIT:
		return THREAD_IDLE;
	default:
		return THREAD_OTHER;
	}
}

/*
 * DragonFly: kp_stat is the process's state and kl_stat the lwp's.  LSRUN
 * is both running and waiting for a CPU; TDF_RUNNING says the thread is
 * switched in.  An interruptible sleep has LWP_SINTR (a tsleep with PCATCH)
 * or TDF_SINTR (an LWKT wait); any other sleep is uninterruptible.
 */
static enum thread_state
dragonfly_state(const struct kinfo_rec *r, const char **channel)
{
	*channel = "";
	switch (r->pstat) {
	case BSD_DF_SACTIVE:
		break;
	case BSD_DF_SSTOP:
		return THREAD_STOPPED;
	case BSD_DF_SZOMB:
		return THREAD_ZOMBIE;
	case BSD_DF_SIDL:
		return THREAD_IDLE;
	default:
		return THREAD_OTHER; /* SCORE: dumping core */
	}
	switch (r->tstat) {
	case BSD_DF_LSRUN:
		return (r->tdflags & BSD_DF_TDF_RUNNING) ? THREAD_RUNNING : THREAD_RUNNABLE;
	case BSD_DF_LSSLEEP:
		*channel = r->wmesg;
		return (r->lwpflags & BSD_DF_LWP_SINTR) || (r->tdflags & BSD_DF_TDF_SINTR)
			       ? THREAD_SLEEPING
			       : THREAD_DISK;
	case BSD_DF_LSSTOP:
		return THREAD_STOPPED;
	default:
		return THREAD_OTHER;
	}
}

static void
kinfo_sample(const struct bsd_kinfo_layout *lay, const struct kinfo_rec *r, struct thread_sample *t)
{
	const char *channel;

	memset(t, 0, sizeof(*t));
	t->pid = (pid_t)r->pid;
	t->tid = (pid_t)r->tid;
	t->state = lay->os == BSD_DRAGONFLY ? dragonfly_state(r, &channel)
					    : freebsd_state(r, &channel);
	snprintf(t->channel, sizeof(t->channel), "%s", channel);
	t->cpu_ns = r->cpu_us > UINT64_MAX / 1000 ? UINT64_MAX : r->cpu_us * 1000;
	t->have = 0; /* no run delay on either kernel */
}

int
bsd_threads_decode(const struct bsd_kinfo_layout *lay, const void *buf, size_t len, pid_t pid,
		   thread_sample_cb cb, void *arg, char *err, size_t errlen)
{
	struct thread_sample t;
	struct kinfo_rec r;
	char what[64];
	size_t n, i;

	if (kinfo_count(lay, len, &n, err, errlen) != 0)
		return -1;
	if (n > 0 && buf == NULL) {
		errno = EINVAL;
		return st_error(err, errlen, "kern.proc: no buffer for %zu bytes", len);
	}
	/* every record first: a refused buffer gives no samples at all */
	for (i = 0; i < n; i++) {
		if (kinfo_read(lay, buf, i, n, &r, err, errlen) != 0)
			return -1;
		if (r.pid != (int64_t)pid) {
			snprintf(what, sizeof(what), "is %lld, not the %ld asked for",
				 (long long)r.pid, (long)pid);
			return kinfo_refuse(lay, i, n, BSD_KI_PID, what, err, errlen);
		}
	}
	for (i = 0; i < n; i++) {
		kinfo_read(lay, buf, i, n, &r, NULL, 0);
		kinfo_sample(lay, &r, &t);
		cb(&t, arg);
	}
	return (int)(n > INT32_MAX ? INT32_MAX : n);
}

/* --- processes by command name --------------------------------------------- */

/* comm as the kernel would keep it: at most the field's size less its NUL. */
static bool
kinfo_comm_is(const char *have, const char *want, size_t field_len)
{
	return strncmp(have, want, field_len - 1) == 0;
}

int
bsd_comm_find(const struct bsd_kinfo_layout *lay, const void *buf, size_t len, const char *comm,
	      pid_t **out, size_t *n, char *err, size_t errlen)
{
	struct kinfo_rec r;
	const char *name;
	size_t count, i, k = 0;
	pid_t *pids;

	*out = NULL;
	*n = 0;
	if (comm == NULL || comm[0] == '\0') {
		errno = EINVAL;
		return st_error(err, errlen,
				"comm: an empty command name matches nothing; "
				"give the name ps(1) shows");
	}
	if (kinfo_count(lay, len, &count, err, errlen) != 0)
		return -1;
	if (lay->f[BSD_KI_COMM].len == 0) {
		errno = EINVAL;
		return st_error(err, errlen,
				"kinfo_proc layout: no command name field; "
				"report this as a bug");
	}
	pids = malloc((count > 0 ? count : 1) * sizeof(*pids));
	if (pids == NULL)
		return -1;
	for (i = 0; i < count; i++) {
		if (kinfo_read(lay, buf, i, count, &r, err, errlen) != 0) {
			free(pids);
			return -1;
		}
		name = kinfo_string(lay, (const unsigned char *)buf + i * lay->size, BSD_KI_COMM);
		if (r.pid < 0 || !kinfo_comm_is(name, comm, lay->f[BSD_KI_COMM].len))
			continue;
		if (k > 0 && pids[k - 1] == (pid_t)r.pid)
			continue;
		pids[k++] = (pid_t)r.pid;
	}
	*out = pids;
	*n = k;
	return 0;
}

/* --- every process's CPU time ---------------------------------------------- */

int
bsd_proc_cpu_decode(const struct bsd_kinfo_layout *lay, const void *buf, size_t len,
		    struct proc_cpu **out, size_t *n, char *err, size_t errlen)
{
	struct kinfo_rec r;
	struct proc_cpu *t;
	size_t count, i, k = 0;

	*out = NULL;
	*n = 0;
	if (kinfo_count(lay, len, &count, err, errlen) != 0)
		return -1;
	if ((t = calloc(count > 0 ? count : 1, sizeof(*t))) == NULL)
		return -1;
	for (i = 0; i < count; i++) {
		if (kinfo_read(lay, buf, i, count, &r, err, errlen) != 0) {
			free(t);
			errno = EINVAL;
			return -1;
		}
		if (r.pid < 0 || r.pid > INT32_MAX || (k > 0 && t[k - 1].pid == (pid_t)r.pid))
			continue;
		t[k].pid = (pid_t)r.pid;
		t[k].ppid = r.ppid > 0 && r.ppid <= INT32_MAX ? (pid_t)r.ppid : 0;
		t[k].start = r.start_us;
		t[k].cpu_ns = r.cpu_us * 1000u;
		snprintf(
			t[k].comm, sizeof(t[k].comm), "%s",
			kinfo_string(lay, (const unsigned char *)buf + i * lay->size, BSD_KI_COMM));
		k++;
	}
	*out = t;
	*n = k;
	return 0;
}
