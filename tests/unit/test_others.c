/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Who else was on the CPUs (others.c) over synthetic scans: a reused pid is
 * a new process, an exited one keeps its last CPU time, one born in the
 * window counts from 0, measured pids and scaletop's descendants are left
 * out, commands are grouped and ordered, and the exact total is clamped at
 * 0.  Also /proc/PID/stat into a process's CPU line, and a live scan.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/decode_linux.h"
#include "scaletop/others.h"
#include "../tap.h"

#define S 1000000000ull /* a CPU second in ns */

static struct proc_cpu
pc(pid_t pid, pid_t ppid, uint64_t start, uint64_t cpu_ns, const char *comm)
{
	struct proc_cpu p;

	memset(&p, 0, sizeof(p));
	p.pid = pid;
	p.ppid = ppid;
	p.start = start;
	p.cpu_ns = cpu_ns;
	snprintf(p.comm, sizeof(p.comm), "%s", comm);
	return p;
}

static void
test_book(void)
{
	/* 100 is scaletop, 101 its workload (measured), 102 its probe; 7 is pid 1's sshd */
	struct proc_cpu a[] = {
		pc(1, 0, 1, 5 * S, "init"),       pc(7, 1, 2, 10 * S, "sshd"),
		pc(100, 1, 3, 1 * S, "scaletop"), pc(101, 100, 4, 0, "worker"),
		pc(200, 1, 5, 3 * S, "cc1"),      pc(300, 1, 6, 1 * S, "make"),
	};
	struct proc_cpu b[] = {
		pc(1, 0, 1, 5 * S, "init"),
		pc(7, 1, 2, 10 * S, "sshd"),
		pc(100, 1, 3, 1 * S + S / 2, "scaletop"),
		pc(101, 100, 4, 4 * S, "worker"),
		pc(102, 100, 9, S / 2, "probe"),
		pc(200, 1, 5, 3 * S + S / 2, "cc1"), /* +0.5 s */
		pc(201, 1, 10, S, "cc1"),            /* born in the window: 1 s */
		pc(300, 1, 11, S / 4, "cc1"),        /* pid 300 reused: a new cc1 from 0 */
		pc(400, 1, 12, S / 2, "make"),       /* +0.5 s */
	};
	/* 300 (the new cc1) and 400 exit before the last scan; 201 runs on */
	struct proc_cpu c[] = {
		pc(1, 0, 1, 5 * S, "init"),        pc(100, 1, 3, 2 * S, "scaletop"),
		pc(101, 100, 4, 8 * S, "worker"),  pc(201, 1, 10, 2 * S, "cc1"),
		pc(500, 102, 13, 3 * S / 4, "sh"), /* the probe's child */
	};
	pid_t measured[] = { 101 };
	struct others_book bk;
	struct others_totals t = { 2.0, 2.0, 1.0, 100 };
	struct step_others o;
	double own;
	char text[128];

	others_book_init(&bk);
	ok(others_book_add(&bk, a, 6, measured, 1) == 0 &&
		   others_book_add(&bk, b, 9, measured, 1) == 0 &&
		   others_book_add(&bk, c, 5, measured, 1) == 0,
	   "three scans into the book");
	others_book_figures(&bk, &t, &o, &own);
	ok(o.known, "two scans or more: known");
	/* cc1: 200 +0.5, 201 2.0, new 300 0.25 = 2.75 s over 2 s; make: 400 0.5 s */
	is_int(o.ntop, 2, "two commands used CPU (init and sshd did not)");
	is_str(o.top[0].comm, "cc1", "the busiest command first");
	is_int(o.top[0].procs, 3, "cc1: three processes, a reused pid among them");
	is_double(o.top[0].cpus, 2.75 / 2, 1e-9, "cc1: its CPU seconds over the window's");
	ok(o.top[0].npid == 3 && o.top[0].pid[0] == 201 && o.top[0].pid[1] == 200 &&
		   o.top[0].pid[2] == 300,
	   "cc1: its busiest pids first");
	is_str(o.top[1].comm, "make", "then make (exited: its last CPU time kept)");
	is_double(o.top[1].cpus, 0.25, 1e-9, "make: counted from 0, born in the window");
	is_double(o.named_cpus, 3.25 / 2, 1e-9, "named: the scans' sum");
	/* own: scaletop 1 s + probe 0.5 + its child 0.75 = 2.25 s over 2 s */
	is_double(own, 2.25 / 2, 1e-9, "scaletop and its unmeasured descendants are its own");
	is_double(o.cpus, 0, 1e-12, "the exact total is clamped at 0 when the rest is more");
	t.busy_cpus = 4.0;
	others_book_figures(&bk, &t, &o, NULL);
	is_double(o.cpus, 4.0 - 1.0 - 1.125, 1e-9, "busy less measured less own");
	t.measured_cpus = -1;
	t.busy_cpus = 6.0;
	others_book_figures(&bk, &t, &o, NULL);
	is_double(o.cpus, 6.0 - 4.0 - 1.125, 1e-9,
		  "not measured: the scans' CPU of the measured pids");
	t.measured_cpus = 1.0;
	ok(others_names_text(&o, 3, text, sizeof(text)) > 0 &&
		   strcmp(text, "cc1 x3 1.38, make 0.25") == 0,
	   "the names as text: %s", text);

	/* a window in which no other process used CPU: known, none named, nothing sorted */
	others_book_reset(&bk);
	ok(others_book_add(&bk, a, 6, NULL, 0) == 0 && others_book_add(&bk, a, 6, NULL, 0) == 0,
	   "two scans with no CPU used between them");
	others_book_figures(&bk, &t, &o, NULL);
	ok(o.known && o.ntop == 0 && o.named_cpus == 0, "a quiet window: known, no command named");

	others_book_reset(&bk);
	ok(others_book_add(&bk, a, 6, NULL, 0) == 0, "a new window");
	others_book_figures(&bk, &t, &o, NULL);
	ok(!o.known && o.ntop == 0, "one scan is not a window: not known");
	others_book_free(&bk);
}

static void
test_stat(void)
{
	static const char line[] =
		"4242 (cc1 (x) y) R 4200 4242 1 0 -1 4194304 100 0 0 0 150 50 0 0 20 0 1 0 "
		"987654 1000 200 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
	struct proc_cpu p;

	ok(proc_cpu_stat_decode(line, strlen(line), 100, &p) == 0, "a stat line decodes");
	ok(p.pid == 4242 && p.ppid == 4200, "pid and parent");
	is_str(p.comm, "cc1 (x) y", "the comm up to the last ')'");
	ok(p.start == 987654, "the start time in ticks");
	ok(p.cpu_ns == 2 * S, "utime + stime at 100 Hz: 2 s");
	ok(proc_cpu_stat_decode(line, strlen(line) - 1, 100, &p) == -1,
	   "a line cut short is refused");
	ok(proc_cpu_stat_decode("x\n", 2, 100, &p) == -1, "garbage is refused");
}

static void
test_live(void)
{
	struct proc_cpu *t;
	size_t n, i;
	int found = 0;

	if (proc_cpu_read(&t, &n) != 0) {
		skip("this OS lists no processes' CPU time", "a live scan");
		return;
	}
	for (i = 0; i < n; i++)
		found += t[i].pid == getpid() && t[i].ppid == getppid() && t[i].start > 0;
	ok(found == 1, "a live scan lists this process once, with its parent (%zu processes)", n);
	free(t);
}

int
main(void)
{
	test_book();
	test_stat();
	test_live();
	return done_testing();
}
