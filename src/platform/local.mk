# Portable code: the sample container, the delta arithmetic and every OS's
# decoders, built on every OS so recorded fixtures from all of them are tested
# everywhere.  Only the thin file that makes the OS calls is chosen per OS.
libscaletop_a_SOURCES += \
	src/util/error.c \
	src/util/format.c \
	src/util/cmdline.c \
	src/platform/sample.c \
	src/platform/delta.c \
	src/platform/host.c \
	src/platform/decode_procstat.c \
	src/platform/decode_task.c \
	src/platform/decode_cptimes.c \
	src/platform/decode_cputime.c \
	src/platform/decode_statgrab.c

if OS_LINUX
libscaletop_a_SOURCES += src/platform/linux.c
endif
if OS_FREEBSD
libscaletop_a_SOURCES += src/platform/freebsd.c
endif
if OS_DRAGONFLY
libscaletop_a_SOURCES += src/platform/dragonfly.c
endif
if OS_GENERIC
libscaletop_a_SOURCES += src/platform/generic.c
endif
# The ENOSYS answers of every backend but Linux's, in one place.
if !OS_LINUX
libscaletop_a_SOURCES += src/platform/unsupported.c
endif

# /proc/lock_stat decoder (portable, like the other decoders).
libscaletop_a_SOURCES += src/platform/decode_lockstat.c
