# The JSON Lines stream: the recorder behind `run --record`, and the reader
# behind replay and live viewing.
libscaletop_a_SOURCES += \
	src/store/stream_write.c \
	src/store/stream_read.c
noinst_HEADERS += include/scaletop/stream.h

check_PROGRAMS += tests/unit/test_stream
TESTS += tests/unit/test_stream
tests_unit_test_stream_LDADD = $(TEST_LIBS)

EXTRA_DIST += docs/stream-format.md
