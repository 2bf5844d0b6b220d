# The only code that knows JSON.
libscaletop_a_SOURCES += \
	src/store/sample_json.c
noinst_HEADERS += include/scaletop/sample_json.h
libscaletop_a_SOURCES += src/store/session_json.c
noinst_HEADERS += include/scaletop/session_json.h
