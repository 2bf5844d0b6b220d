/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host identity: what a snapshot needs to say which machine and OS it came
 * from, and the fingerprint that decides whether two snapshots measured the
 * same thing (SMT, the frequency policy, mitigations, the hypervisor, the
 * clocksource ...).  Read once at start.
 */
#ifndef SCALETOP_HOST_H
#define SCALETOP_HOST_H

#include <stddef.h>

#include "scaletop/sample_types.h"

/*
 * What the OS does not say is "" or 0 here (as ncpus has always been: no
 * count or frequency is ever 0, and a session zeroed by session_init then
 * knows nothing) and null in the JSON: never a guess.
 */

/* "on", "off", "unsupported", indexed by enum host_smt; [HOST_SMT_UNKNOWN] is "". */
extern const char *const host_smt_names[HOST_SMT_NSTATES];

/* Fills h from libstatgrab plus the platform's CPU model and fingerprint; 0, or -1 with a message.
 */
int host_info_read(struct host_info *h, char *err, size_t errlen);
/*
 * The same without the fingerprint, whose fields stay unknown: for a
 * monitor that reads it only when it first runs a sweep.
 */
int host_info_read_id(struct host_info *h, char *err, size_t errlen);

/*
 * The platform's part of the fingerprint into h, whose fields start
 * unknown: each one the OS answers is set, the rest stay as they are.
 * Never fails: a field it cannot read is simply not known.
 */
void host_fingerprint_read(struct host_info *h);

/*
 * The machine's CPU topology (topology.h) into t, which starts zeroed: a
 * level the OS does not say stays unknown.  Linux reads sysfs, FreeBSD
 * kern.sched.topology_spec, DragonFly hw.cpu_topology; elsewhere only the
 * online CPUs are known.  host_fingerprint_read fills h->topo with it.
 */
void host_topology_read(struct topology *t);
/*
 * The same from a recorded Linux sysfs tree under the directory root
 * (root/sys/devices/system/...): 0, or -1 with a one-line message naming
 * root (ENOSYS off Linux).
 */
int host_topology_read_root(const char *root, struct topology *t, char *err, size_t errlen);

/*
 * The CPUs' mean current frequency in MHz now (Linux scaling_cur_freq of
 * every CPU, else /proc/cpuinfo's "cpu MHz"; FreeBSD dev.cpu.0.freq), for a
 * step's mean.  0, or -1 with errno (ENOENT: this machine does not say;
 * ENOSYS: not on this OS).
 */
int host_cpu_freq_mhz(double *mhz);

#endif
