/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A crash of the monitor itself (SIGSEGV, SIGABRT ...) must not leave a
 * workload running: the guard kills every process group (pgroup.h), runs
 * the one hook (the TUI gives the terminal back), then dies of the signal.
 */
#ifndef SCALETOP_CRASH_GUARD_H
#define SCALETOP_CRASH_GUARD_H

/* Installs the handlers, and ignores SIGPIPE (a closed stdout is a write error). */
void crash_guard_install(void);

/* Run on a crash after the groups are killed; NULL if none.  Set and cleared by its owner. */
extern void (*crash_guard_hook)(void);

#endif
