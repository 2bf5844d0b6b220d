/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host fingerprint's decoders (decode_host.h) on recorded and
 * hand-written text: sysfs values, the SMT switch, /proc/cpuinfo's
 * topology, hypervisor flag and frequency, the sorted mitigations, and the
 * BSDs' frequency levels and SMT state.  Each input is an exact-size copy,
 * so a read past its end is caught under ASan.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "scaletop/decode_host.h"
#include "../tap.h"

static int
text_of(const char *s, char *out, size_t outlen)
{
	char *p = exact_copy(s, strlen(s));
	int r = host_text_decode(p, strlen(s), out, outlen);

	free(p);
	return r;
}

static int
int_of(const char *s, int *v)
{
	char *p = exact_copy(s, strlen(s));
	int r = host_int_decode(p, strlen(s), v);

	free(p);
	return r;
}

static void
test_text(void)
{
	char out[16];
	int v = 7;

	is_int(text_of("performance\n", out, sizeof(out)), 0, "text: a sysfs value");
	is_str(out, "performance", "  without its newline");
	text_of("tsc  \t\n", out, sizeof(out));
	is_str(out, "tsc", "text: trailing blanks dropped");
	text_of("a\033[2Jb\n", out, sizeof(out));
	is_str(out, "a?[2Jb", "text: an escape byte becomes '?'");
	text_of("0123456789abcdefghij", out, sizeof(out));
	is_str(out, "0123456789abcde", "text: cut to the buffer");
	is_int(text_of("\n", out, sizeof(out)), -1, "text: a lone newline is nothing");
	is_int(text_of("", out, sizeof(out)), -1, "text: empty refused");

	is_int(int_of("2601000\n", &v), 0, "int: kHz with a newline");
	is_int(v, 2601000, "  value");
	is_int(int_of("42", &v), 0, "int: without a newline");
	is_int(int_of("-1\n", &v), -1, "int: a sign refused");
	is_int(int_of("12ab\n", &v), -1, "int: trailing garbage refused");
	is_int(int_of("99999999999\n", &v), -1, "int: past INT_MAX refused");
	is_int(errno, ERANGE, "  as ERANGE");
	is_int(int_of("", &v), -1, "int: empty refused");
}

static enum host_smt
smt_of(const char *control, const char *active)
{
	return host_smt_decode(control, control ? strlen(control) : 0, active,
			       active ? strlen(active) : 0);
}

static void
test_smt(void)
{
	is_int(smt_of("on\n", "1\n"), HOST_SMT_ON, "smt: on and active");
	is_int(smt_of("on\n", "0\n"), HOST_SMT_OFF, "smt: allowed, every sibling offline");
	is_int(smt_of("on\n", NULL), HOST_SMT_ON, "smt: on, no active file");
	is_int(smt_of("off\n", "0\n"), HOST_SMT_OFF, "smt: off");
	is_int(smt_of("forceoff\n", "0\n"), HOST_SMT_OFF, "smt: forceoff");
	is_int(smt_of("notsupported\n", "0\n"), HOST_SMT_UNSUPPORTED,
	       "smt: notsupported (recorded here)");
	is_int(smt_of("notimplemented\n", NULL), HOST_SMT_UNSUPPORTED, "smt: notimplemented");
	is_int(smt_of("maybe\n", "1\n"), HOST_SMT_UNKNOWN, "smt: a word it does not know");
	is_int(smt_of(NULL, NULL), HOST_SMT_UNKNOWN, "smt: no switch at all");
	is_str(host_smt_names[HOST_SMT_UNSUPPORTED], "unsupported", "smt: its name");
}

static int
cpuinfo_of(const char *fixture, struct cpuinfo_host *ci)
{
	size_t len;
	char *text = fixture_read(fixture, &len), *p = exact_copy(text, len);
	int r = cpuinfo_host_decode(p, len, ci);

	free(p);
	free(text);
	return r;
}

static int
cpuinfo_str(const char *s, struct cpuinfo_host *ci)
{
	char *p = exact_copy(s, strlen(s));
	int r = cpuinfo_host_decode(p, strlen(s), ci);

	free(p);
	return r;
}

static void
test_cpuinfo(void)
{
	struct cpuinfo_host ci;
	const char *arm =
		"processor\t: 0\nCPU part\t: 0xd0c\n\nprocessor\t: 1\nCPU part\t: 0xd0c\n";

	is_int(cpuinfo_of("linux/host_vm/proc/cpuinfo", &ci), 0, "cpuinfo: this VM decodes");
	is_int(ci.processors, 2, "  2 processors");
	is_int(ci.sockets, 1, "  1 socket");
	is_int(ci.cores, 2, "  2 cores");
	is_int(ci.hypervisor, 1, "  the hypervisor flag");
	is_double(ci.mhz_mean, 1996.249, 1e-9, "  cpu MHz, read whatever the locale");

	is_int(cpuinfo_of("linux/host_metal/proc/cpuinfo", &ci), 0, "cpuinfo: 2 sockets, SMT");
	is_int(ci.processors, 16, "  16 processors");
	is_int(ci.sockets, 2, "  2 sockets");
	is_int(ci.cores, 8, "  8 cores: siblings share a (physical id, core id)");
	is_int(ci.hypervisor, 0, "  flags without the hypervisor flag: bare metal");
	is_double(ci.mhz_mean, 2175.5, 1e-9, "  the mean cpu MHz");

	is_int(cpuinfo_of("linux/cpuinfo_arm64_server", &ci), 0, "cpuinfo: arm64");
	is_int(ci.sockets, 0, "  no physical id: sockets unknown");
	is_int(ci.cores, 0, "  cores unknown");
	is_int(ci.hypervisor, -1, "  no flags line: the flag says nothing");
	is_double(ci.mhz_mean, 0, 0, "  no cpu MHz: unknown");

	is_int(cpuinfo_str(arm, &ci), 0, "cpuinfo: two arm64 blocks");
	is_int(ci.processors, 2, "  2 processors");
	is_int(cpuinfo_str("processor\t: 0\nphysical id\t: 0\ncore id\t: 0\n\nprocessor\t: 1\n",
			   &ci),
	       0, "cpuinfo: one CPU without its ids");
	is_int(ci.sockets, 0, "  then no topology is invented");
	is_int(cpuinfo_str("vendor_id\t: x\n", &ci), -1, "cpuinfo: no processor line refused");
	is_int(cpuinfo_str("processor\t: 0\ncpu MHz\t: 12,5\n", &ci), 0,
	       "cpuinfo: a cpu MHz that is not a number");
	is_double(ci.mhz_mean, 0, 0, "  is not counted");
}

static void
test_topology(void)
{
	static const int pkg[] = { 1, 0, 1, 0, 1, 0 }, core[] = { 3, 3, 3, 5, 4, 3 };
	int s = -5, c = -5;

	host_topology_count(pkg, core, 6, &s, &c);
	is_int(s, 2, "topology: distinct packages");
	is_int(c, 4, "topology: distinct (package, core) pairs");
	host_topology_count(pkg, core, 0, &s, &c);
	ok(s == 0 && c == 0, "topology: no CPU is unknown");
}

static void
test_mitigations(void)
{
	struct host_info *h = calloc(1, sizeof(*h));
	char name[16];
	int i, full = 0;

	is_int(host_mitigation_add(h, "spectre_v2", "Mitigation: Retpolines\n", 23), 0,
	       "mitigations: one added");
	host_mitigation_add(h, "mds", "Not affected\n", 13);
	host_mitigation_add(h, "l1tf", "Not affected\n", 13);
	is_int(h->nmitigations, 3, "mitigations: three");
	ok(strcmp(h->mitigations[0].name, "l1tf") == 0 &&
		   strcmp(h->mitigations[1].name, "mds") == 0 &&
		   strcmp(h->mitigations[2].name, "spectre_v2") == 0,
	   "mitigations: sorted by name, whatever the directory's order");
	is_str(host_mitigation_find(h, "spectre_v2"), "Mitigation: Retpolines",
	       "mitigations: the text without its newline");
	ok(host_mitigation_find(h, "meltdown") == NULL, "mitigations: one not there is NULL");
	is_int(host_mitigation_add(h, "empty", "\n", 1), -1, "mitigations: an empty text refused");
	is_int(h->nmitigations, 3, "  and not added");
	for (i = 3; i < HOST_MAX_MITIGATIONS + 2; i++) {
		snprintf(name, sizeof(name), "v%02d", i);
		full += host_mitigation_add(h, name, "x", 1) != 0 && errno == ENOSPC;
	}
	is_int(h->nmitigations, HOST_MAX_MITIGATIONS, "mitigations: the list stops when full");
	is_int(full, 2, "  the rest are ENOSPC");
	free(h);
}

static int
levels_of(const char *s, int *lo, int *hi)
{
	char *p = exact_copy(s, strlen(s) + 1);
	int r = freq_levels_decode(p, strlen(s) + 1, lo, hi);

	free(p);
	return r;
}

/* kern.boottime as the kernel hands it over: a struct timeval of 64- or 32-bit words. */
static void
test_boottime(void)
{
	int64_t tv64[2] = { 1764590400, 123456 };
	int32_t tv32[2] = { 1764590400, 999999 };
	char out[64] = "";

	is_int(bsd_boottime_decode(tv64, sizeof(tv64), out, sizeof(out)), 0,
	       "boottime: amd64's timeval (16 bytes)");
	is_str(out, "boottime:1764590400", "  the seconds, not the microseconds");
	out[0] = '\0';
	is_int(bsd_boottime_decode(tv32, sizeof(tv32), out, sizeof(out)), 0,
	       "boottime: i386's timeval (8 bytes)");
	is_str(out, "boottime:1764590400", "  the same boot");
	is_int(bsd_boottime_decode(tv64, 12, out, sizeof(out)), -1, "boottime: 12 bytes refused");
	tv64[0] = 0;
	is_int(bsd_boottime_decode(tv64, sizeof(tv64), out, sizeof(out)), -1,
	       "boottime: a boot at 0 refused");
}

static void
test_bsd(void)
{
	int lo = 0, hi = 0;

	is_int(levels_of("2401/35000 2400/35000 2100/29575 1800/24151 1200/14570", &lo, &hi), 0,
	       "freq_levels: a FreeBSD answer (with its NUL)");
	ok(lo == 1200 && hi == 2401, "  lowest 1200 MHz, highest 2401 (turbo) (%d, %d)", lo, hi);
	is_int(levels_of("3000/-1", &lo, &hi), -1, "freq_levels: a negative power refused");
	is_int(levels_of("3000/100 x", &lo, &hi), -1, "freq_levels: garbage refused");
	is_int(levels_of("0/100", &lo, &hi), -1, "freq_levels: 0 MHz refused");
	is_int(levels_of("", &lo, &hi), -1, "freq_levels: empty refused");

	is_int(bsd_smt_state(2, -1), HOST_SMT_ON, "bsd smt: two threads a core");
	is_int(bsd_smt_state(2, 0), HOST_SMT_OFF, "bsd smt: hyperthreading not allowed");
	is_int(bsd_smt_state(1, 1), HOST_SMT_UNSUPPORTED, "bsd smt: one thread a core");
	is_int(bsd_smt_state(0, -1), HOST_SMT_UNKNOWN, "bsd smt: no answer");
	test_boottime();
}

int
main(void)
{
	test_text();
	test_smt();
	test_cpuinfo();
	test_topology();
	test_mitigations();
	test_bsd();
	return done_testing();
}
