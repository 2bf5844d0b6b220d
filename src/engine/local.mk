# SPDX-License-Identifier: BSD-2-Clause
# The step runner (built-in workloads), external commands, and the registry
# of process groups every exit path kills (and what escapes them).
libscaletop_a_SOURCES += src/engine/pgroup.c src/engine/orphan_plan.c src/engine/spawn.c \
	src/engine/runner_priv.h src/engine/runner.c src/engine/startline.c \
	src/engine/lock_census.c src/engine/shm_key.c src/engine/runner_child.c
noinst_HEADERS += include/scaletop/pgroup.h include/scaletop/spawn.h src/engine/lock_census.h \
	src/engine/shm_key.h \
	src/engine/orphan_plan.h src/engine/runner.h src/engine/startline.h

ENGINE_TESTS = tests/unit/test_orphan_plan tests/unit/test_runner tests/unit/test_startline \
	tests/unit/test_fairness tests/unit/test_spawn
check_PROGRAMS += $(ENGINE_TESTS)
TESTS += $(ENGINE_TESTS)

# The event loop.
libscaletop_a_SOURCES += src/engine/loop.c
noinst_HEADERS += include/scaletop/loop.h include/scaletop/slot.h include/scaletop/workload.h
UNIT_TESTS += tests/unit/test_loop
# The same test over the poll-deadline fallback alone (DragonFly's clock), so
# it is checked here too; its own loop.o comes before the library's.
UNIT_TESTS += tests/unit/test_loop_poll
tests_unit_test_loop_poll_SOURCES = tests/unit/test_loop.c src/engine/loop.c
tests_unit_test_loop_poll_CPPFLAGS = $(AM_CPPFLAGS) -DLOOP_POLL_ONLY

# The sweep controller, the step context it shares with the kinds of step,
# and the two kinds (a table of operations each, step_ctx.h).
libscaletop_a_SOURCES += src/engine/sweep.c src/engine/sweep_quiet.h src/engine/sweep_quiet.c \
	src/engine/sweep_refine.h src/engine/sweep_refine.c \
	src/engine/step_ctx.h src/engine/step_ctx.c src/engine/step_hot.c \
	src/engine/step_lockprof.c src/engine/step_others.c src/engine/step_builtin.c \
	src/engine/step_external.c src/engine/ext_timing.c src/engine/ext_window.h \
	src/engine/ext_window.c src/engine/target.h src/engine/target.c src/engine/wait_sampler.h \
	src/engine/wait_sampler.c src/engine/wait_census.c src/engine/wait_list.c \
	src/engine/wait_kstack.c src/engine/step_kstacks.c src/engine/step_census.c \
	src/engine/hot_sampler.h src/engine/hot_sampler.c src/engine/freq_sampler.h \
	src/engine/freq_sampler.c src/engine/ext_latlog.h src/engine/ext_latlog.c
noinst_HEADERS += src/engine/ext_timing.h
UNIT_TESTS += tests/unit/test_ext_timing
UNIT_TESTS += tests/unit/test_ext_window
UNIT_TESTS += tests/unit/test_step_ctx

# A step's mean CPU frequency: reads at most once a second, within 0.5% of the time.
UNIT_TESTS += tests/unit/test_freq_sampler

# --probe: database-level waits, a command run about once a second in the window.
libscaletop_a_SOURCES += src/engine/probe.h src/engine/probe.c \
	src/engine/probe_preset.h src/engine/probe_preset.c
UNIT_TESTS += tests/unit/test_probe

# The run-style options that `scaletop run` and the TUI share (parsed, then
# applied to a session and a sweep config), and the crash handlers that kill
# every group before the monitor dies.
libscaletop_a_SOURCES += src/engine/run_args.c src/engine/run_apply.c src/engine/crash_guard.c
noinst_HEADERS += include/scaletop/run_args.h include/scaletop/crash_guard.h
UNIT_TESTS += tests/unit/test_run_args

# --target and the wait sampler: the model's book and figures, the specs,
# and the Linux reader and the sampler live on the test's own threads.
if OS_LINUX
UNIT_TESTS += tests/unit/test_target
endif
TESTS += tests/cli/target.sh tests/cli/waits_wide.sh tests/cli/priority.sh tests/cli/waitcall.sh \
	tests/cli/waits_kernel.sh
EXTRA_DIST += tests/cli/target.sh tests/cli/waits_wide.sh tests/cli/priority.sh tests/cli/waitcall.sh \
	tests/cli/waits_kernel.sh

# The lock census end to end (Linux): tests/unit/lock_holders's threads wait
# on a global mutex, condvar and semaphore; the census names each lock, counts
# its waiters and reads the mutex's owner.
if OS_LINUX
check_PROGRAMS += tests/unit/lock_holders tests/unit/test_lock_census tests/unit/test_shm_key
TESTS += tests/unit/test_lock_census tests/unit/test_shm_key
endif

# The built-ins' pace with latency on: one operation timed a batch (builtin.h).
UNIT_TESTS += tests/unit/test_pace tests/unit/test_runner_latency
