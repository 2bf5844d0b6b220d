/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Who else was on the CPUs over a window (struct step_others, session.h):
 * a book of every process's CPU time from scans of the process table, and
 * the figures made of it.  Pure: the engine does the scans and gives the
 * CPU counters' totals.
 */
#ifndef SCALETOP_OTHERS_H
#define SCALETOP_OTHERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "scaletop/sample_types.h"
#include "scaletop/session.h"

/*
 * Above this many CPUs used by others before the first step, the machine is
 * called busy (run's quiet check, --wait-quiet): a quarter of a CPU.
 */
#define OTHERS_QUIET_CPUS 0.25

/* One process, told apart by (pid, start): its CPU time at the first and last scans it was in. */
struct others_proc {
	pid_t pid, ppid;
	uint64_t start;
	uint64_t cpu0, cpu1; /* ns; cpu0 is 0 for a process born after the first scan */
	char comm[32];
	bool measured; /* the workload's or the target's: its CPU is counted exactly elsewhere */
};

struct others_book {
	struct others_proc *p; /* sorted by (pid, start) */
	size_t n, cap;
	int scans;
};

void others_book_init(struct others_book *b);
void others_book_free(struct others_book *b);
/* Forgets every process: the next scan is a window's first. */
void others_book_reset(struct others_book *b);
/*
 * A scan into the book.  The first scan is the baseline; a process first
 * met in a later one was born since and counts from 0.  A pid in
 * measured[] (any order) is marked so.  0, or -1 on ENOMEM (the book keeps
 * what it had).
 */
int others_book_add(struct others_book *b, const struct proc_cpu *scan, size_t n,
		    const pid_t *measured, size_t nmeasured);

/* What the CPU counters say of the window, for the exact total. */
struct others_totals {
	double seconds;       /* the window's length */
	double busy_cpus;     /* the machine's busy CPUs over it (not idle, iowait or steal) */
	double measured_cpus; /* the workload's and the target's from their own counters; < 0: the
				 scans' */
	pid_t self;           /* scaletop: it and its descendants are not others */
};

/*
 * The book's figures into out: the exact total, the busiest commands (a
 * group per comm, its busiest pids first) and how much the names cover.
 * own_cpus (may be NULL) gets what scaletop and its children that are not
 * measured used, from the scans.  known is false with fewer than 2 scans or
 * no time.
 */
void others_book_figures(const struct others_book *b, const struct others_totals *t,
			 struct step_others *out, double *own_cpus);

/* "cc1 x3 0.70, make 0.20" into buf (at most n, "" when none are named); the length wanted. */
int others_names_text(const struct step_others *o, int n, char *buf, size_t len);
/*
 * The CPUs comm used in such a text, read back (it may end at a ')'), as
 * the quiet check's event says them; -1 when the text does not name it.
 */
double others_names_cpus(const char *text, const char *comm);

#endif
