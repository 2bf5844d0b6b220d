/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the Linux backend and its test: the host fingerprint and the
 * CPUs' frequency read under a root directory (rootfd: "/" for the
 * machine, a recorded tree under tests/fixtures/linux/ for the test), so
 * the whole reader runs on recorded files as well as on the machine.
 */
#ifndef SCALETOP_PLATFORM_LINUX_HOST_H
#define SCALETOP_PLATFORM_LINUX_HOST_H

#include "scaletop/host.h"

/* The fingerprint's fields from rootfd's proc/ and sys/ (host_fingerprint_read's). */
void linux_host_read_at(int rootfd, struct host_info *h);
/* The mean of every online CPU's scaling_cur_freq, else of cpuinfo's "cpu MHz" (host.h). */
int linux_cpu_freq_at(int rootfd, double *mhz);
/* The CPU topology from rootfd's sys/devices/system (linux_topology.c); t zeroed first. */
void linux_topology_read_at(int rootfd, struct topology *t);

#endif
