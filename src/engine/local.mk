# The step runner (built-in workloads), external commands, and the registry
# of process groups every exit path kills.  The event loop is in loop.mk.
libscaletop_a_SOURCES += \
	src/engine/pgroup.c \
	src/engine/orphans.c \
	src/engine/orphan_plan.c \
	src/engine/spawn.c \
	src/engine/runner.c \
	src/engine/startline.c
noinst_HEADERS += \
	include/scaletop/pgroup.h \
	include/scaletop/orphan_plan.h \
	include/scaletop/spawn.h \
	include/scaletop/runner.h \
	include/scaletop/startline.h

ENGINE_TESTS = \
	tests/unit/test_orphan_plan \
	tests/unit/test_runner \
	tests/unit/test_startline \
	tests/unit/test_fairness \
	tests/unit/test_spawn
check_PROGRAMS += $(ENGINE_TESTS)
TESTS += $(ENGINE_TESTS)
tests_unit_test_orphan_plan_LDADD = $(TEST_LIBS)
tests_unit_test_runner_LDADD = $(TEST_LIBS)
tests_unit_test_startline_LDADD = $(TEST_LIBS)
tests_unit_test_fairness_LDADD = $(TEST_LIBS)
tests_unit_test_spawn_LDADD = $(TEST_LIBS)
