# SPDX-License-Identifier: BSD-2-Clause
# The only code that knows JSON.
libscaletop_a_SOURCES += \
	src/store/sample_json.c
noinst_HEADERS += include/scaletop/sample_json.h
libscaletop_a_SOURCES += src/store/session_json.c src/store/session_json_target.c \
	src/store/session_json_host.c src/store/session_json_hot.c
noinst_HEADERS += include/scaletop/session_json.h
# Snapshots: save and load.
noinst_HEADERS += include/scaletop/snapshot.h src/store/snapshot_priv.h src/store/session_read.h
libscaletop_a_SOURCES += src/store/snapshot_text.c src/store/snapshot_analysis.c \
	src/store/snapshot_fairness.c src/store/snapshot_write.c
# Reading a snapshot back.
libscaletop_a_SOURCES += src/store/session_read.c src/store/session_read_step.c \
	src/store/session_read_target.c src/store/session_read_host.c src/store/session_read_hot.c \
	src/store/snapshot_read.c src/store/snapshot_load.c

# The JSON Lines stream: the recorder behind `run --record`, and the reader
# behind replay and live viewing.
libscaletop_a_SOURCES += src/store/stream_write.c src/store/stream_tick.c \
	src/store/stream_reader.c src/store/stream_records.c src/store/stream_read.c \
	src/store/stream_snapshot.c
noinst_HEADERS += include/scaletop/stream.h src/store/stream_priv.h

# The tests of the JSON readers edit a good file one member at a time
# (json_edit.c); those of a step's sections also build the steps (json_steps.c).
JSON_EDIT_SOURCES = tests/unit/json_edit.c tests/unit/json_edit.h
JSON_STEPS_SOURCES = $(JSON_EDIT_SOURCES) tests/unit/json_steps.c tests/unit/json_steps.h
UNIT_TESTS += tests/unit/test_stream
tests_unit_test_stream_SOURCES = tests/unit/test_stream.c $(JSON_EDIT_SOURCES)

# A step's target and waits, the settings' specs: both files, refusals, compare.
UNIT_TESTS += tests/unit/test_target_json
tests_unit_test_target_json_SOURCES = tests/unit/test_target_json.c $(JSON_EDIT_SOURCES)

# A step's on-CPU paths and lock spin: both files, refusals.
UNIT_TESTS += tests/unit/test_hot_json
tests_unit_test_hot_json_SOURCES = tests/unit/test_hot_json.c $(JSON_STEPS_SOURCES)

# A step's lock census: both files, refusals, the table's lines.
UNIT_TESTS += tests/unit/test_locks_json
tests_unit_test_locks_json_SOURCES = tests/unit/test_locks_json.c $(JSON_STEPS_SOURCES)

# A step's kernel stacks: both files, refusals, older files, the table's lines.
UNIT_TESTS += tests/unit/test_kstacks_json
tests_unit_test_kstacks_json_SOURCES = tests/unit/test_kstacks_json.c $(JSON_STEPS_SOURCES)

EXTRA_DIST += docs/stream-format.md

# The kept runs: the runs directory the TUI keeps every sweep in, its
# listing and pruning, for the history view and `scaletop runs`.
libscaletop_a_SOURCES += src/store/runs.c
noinst_HEADERS += include/scaletop/runs.h
UNIT_TESTS += tests/unit/test_runs

# The host's fingerprint and a step's frequency: round trips through a
# snapshot and a stream, refusals alike, older files, show's lines and
# compare's warnings on copies that differ in one field.
UNIT_TESTS += tests/unit/test_host_json
tests_unit_test_host_json_SOURCES = tests/unit/test_host_json.c $(JSON_EDIT_SOURCES)
