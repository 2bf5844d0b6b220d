/* Host identity: what a snapshot needs to say which machine and OS it came from. */
#ifndef SCALETOP_HOST_H
#define SCALETOP_HOST_H

#include <stddef.h>
#include <stdint.h>

struct host_info {
	char os_name[64];     /* "Linux", "FreeBSD" */
	char os_release[128]; /* "6.1.0-18-amd64", "14.0-RELEASE" */
	char os_version[256]; /* kernel build string */
	char platform[64];    /* "x86_64", "amd64" */
	char hostname[256];
	char cpu_model[256];
	int ncpus;          /* CPUs configured */
	uint64_t mem_total; /* bytes */
};

/* Fills h from libstatgrab plus the platform's CPU model; 0, or -1 with a message. */
int host_info_read(struct host_info *h, char *err, size_t errlen);

#endif
