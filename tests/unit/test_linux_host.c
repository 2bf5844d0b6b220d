/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Linux fingerprint reader (linux_host.c) over whole /proc and /sys
 * trees: one recorded on the development VM (host_vm) and three written in
 * the kernel's format for what this machine cannot show (host_metal: two
 * sockets, SMT, intel_pstate, two NUMA nodes, sched_ext; host_arm: no
 * topology in cpuinfo, no cpufreq; host_guest: a KVM guest's DMI, SMT
 * allowed but every sibling offline).  Then the reader on this machine: it
 * must agree with what the kernel says here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/decode_host.h"
#include "../../src/platform/linux_host.h"
#include "../tap.h"

static int
open_tree(const char *rel)
{
	int fd = open(fixture_path(rel), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		diag("cannot open %s: %s", fixture_path(rel), strerror(errno));
	return fd;
}

/* h read from the tree rel (zeroed first, as host_info_read leaves it). */
static int
read_tree(const char *rel, struct host_info *h)
{
	int fd = open_tree(rel);

	memset(h, 0, sizeof(*h));
	if (fd < 0)
		return -1;
	linux_host_read_at(fd, h);
	close(fd);
	return 0;
}

static void
test_vm(struct host_info *h)
{
	double mhz = 0;
	int fd;

	if (!is_int(read_tree("linux/host_vm", h), 0, "vm: the recorded tree opens"))
		return;
	ok(strncmp(h->kernel_cmdline, "mitigations=auto,no_guest_host", 30) == 0,
	   "vm: the command line (%.40s...)", h->kernel_cmdline);
	ok(h->sockets == 1 && h->cores == 2 && h->threads == 2,
	   "vm: 1 socket, 2 cores, 2 threads (%d, %d, %d)", h->sockets, h->cores, h->threads);
	is_int(h->smt, HOST_SMT_UNSUPPORTED, "vm: SMT notsupported");
	is_int(h->numa_nodes, 1, "vm: one NUMA node");
	ok(h->freq_driver[0] == '\0' && h->governor[0] == '\0' && h->freq_min_mhz == 0 &&
		   h->freq_max_mhz == 0,
	   "vm: no cpufreq: driver, governor and limits unknown");
	is_str(h->hypervisor, "unknown", "vm: the flag says a hypervisor, nothing names it");
	is_str(h->clocksource, "tsc", "vm: the clocksource");
	is_str(h->boot_id, "34673e70-3f48-40bb-930c-2fa84aaf27c4", "vm: the boot id");
	is_str(h->scheduler, "", "vm: no sched_ext: the scheduler is not named");
	is_int(h->nmitigations, 19, "vm: every vulnerabilities file");
	is_str(h->mitigations[0].name, "gather_data_sampling", "vm: sorted, the first");
	is_str(h->mitigations[18].name, "vmscape", "vm: sorted, the last");
	is_str(host_mitigation_find(h, "retbleed"),
	       "Mitigation: untrained return thunk; SMT disabled", "vm: retbleed's text");
	fd = open_tree("linux/host_vm");
	is_int(linux_cpu_freq_at(fd, &mhz), 0, "vm: no cpufreq: the frequency from cpuinfo");
	is_double(mhz, 1996.249, 1e-9, "  its cpu MHz");
	close(fd);
}

static void
test_metal(struct host_info *h)
{
	double mhz = 0;
	int fd;

	if (!is_int(read_tree("linux/host_metal", h), 0, "metal: the tree opens"))
		return;
	ok(h->sockets == 2 && h->cores == 8 && h->threads == 16,
	   "metal: 2 sockets, 8 cores, 16 threads (%d, %d, %d)", h->sockets, h->cores, h->threads);
	is_int(h->smt, HOST_SMT_ON, "metal: SMT on");
	is_int(h->numa_nodes, 2, "metal: two NUMA nodes");
	is_str(h->freq_driver, "intel_pstate", "metal: the cpufreq driver");
	is_str(h->governor, "performance", "metal: the governor");
	ok(h->freq_min_mhz == 800 && h->freq_max_mhz == 3900, "metal: limits 800..3900 MHz");
	is_str(h->hypervisor, "none", "metal: flags without the hypervisor flag: none");
	is_str(h->scheduler, "sched_ext:rusty", "metal: a sched_ext scheduler by name");
	is_int(h->nmitigations, 3, "metal: three vulnerabilities");
	is_str(h->mitigations[0].name, "mds", "  sorted");
	fd = open_tree("linux/host_metal");
	is_int(linux_cpu_freq_at(fd, &mhz), 0, "metal: the frequency from scaling_cur_freq");
	is_double(mhz, 3150, 1e-9, "  the mean of 16 CPUs, in MHz");
	close(fd);
}

static void
test_arm_and_guest(struct host_info *h)
{
	double mhz = 0;
	int fd;

	if (read_tree("linux/host_arm", h) == 0) {
		ok(h->sockets == 1 && h->cores == 4 && h->threads == 4,
		   "arm: the topology from sysfs (%d, %d, %d)", h->sockets, h->cores, h->threads);
		is_str(h->hypervisor, "", "arm: no flags, no hypervisor file: unknown");
		is_str(h->kernel_cmdline, "", "arm: no cmdline file: unknown");
		is_str(h->clocksource, "arch_sys_counter", "arm: the clocksource");
	}
	fd = open_tree("linux/host_arm");
	errno = 0;
	is_int(linux_cpu_freq_at(fd, &mhz), -1, "arm: neither cpufreq nor cpu MHz");
	is_int(errno, ENOENT, "  ENOENT: this machine does not say");
	close(fd);
	if (read_tree("linux/host_guest", h) == 0) {
		is_str(h->hypervisor, "QEMU Standard PC (Q35 + ICH9, 2009)",
		       "guest: the hypervisor named by DMI");
		is_int(h->smt, HOST_SMT_OFF, "guest: SMT allowed, every sibling offline: off");
		is_str(h->clocksource, "kvm-clock", "guest: kvm-clock");
	}
}

/* The reader on this machine agrees with the files it reads. */
static void
test_live(struct host_info *h)
{
	double mhz = -1;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	memset(h, 0, sizeof(*h));
	host_fingerprint_read(h);
	is_int(h->threads, online, "live: threads are the online CPUs");
	ok(h->nmitigations > 0 || access("/sys/devices/system/cpu/vulnerabilities", F_OK) != 0,
	   "live: the vulnerabilities, where sysfs has them (%d)", h->nmitigations);
	ok(h->clocksource[0] != '\0' ||
		   access("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			  R_OK) != 0,
	   "live: the clocksource (%s)", h->clocksource);
	ok(strlen(h->boot_id) == 36 || access("/proc/sys/kernel/random/boot_id", R_OK) != 0,
	   "live: the boot id, a UUID (%s)", h->boot_id);
	if (host_cpu_freq_mhz(&mhz) == 0)
		ok(mhz > 1 && mhz < 20000, "live: a plausible current frequency (%.0f MHz)", mhz);
	else
		skip("this machine exposes neither scaling_cur_freq nor cpu MHz",
		     "live: the current frequency");
}

int
main(void)
{
	struct host_info *h = malloc(sizeof(*h));

	test_vm(h);
	test_metal(h);
	test_arm_and_guest(h);
	test_live(h);
	free(h);
	return done_testing();
}
