# SPDX-License-Identifier: BSD-2-Clause
# libFuzzer targets (clang only), kept out of `make check`: they run for minutes.
#   make fuzz                       builds tests/fuzz/fuzz_stream, fuzz_snapshot, the table
#                                   importer's fuzz_import, the output parsers'
#                                   fuzz_sysbench, fuzz_pgbench, fuzz_regex, and the theme
#                                   and config parsers' fuzz_theme, fuzz_prefs, and the
#                                   lock census's decoders' fuzz_syscall, fuzz_maps,
#                                   fuzz_kallsyms, the kernel stacks' fuzz_kstack, and
#                                   pgbench --log's reader fuzz_pglog, FreeBSD's and
#                                   DragonFly's topology decoders' fuzz_topology, and the
#                                   quiet check's names read back, fuzz_names
#   make fuzz-run FUZZ_SECONDS=600  runs each in turn, corpus in tests/fuzz/corpus/
#   make fuzz-smoke                 runs each once over its seeds and regressions
# The library is built by $(CC) without sanitizers, so its sources are compiled
# again here with clang's fuzzer, address and undefined-behaviour instrumentation.
FUZZ_CC = clang
FUZZ_SECONDS = 600
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS = -std=c11 -g -O1 $(FUZZ_SAN) -I$(top_srcdir)/include \
	-I$(top_builddir) $(ST_OS_CPPFLAGS) $(JANSSON_CFLAGS) $(STATGRAB_CFLAGS) \
	$(NCURSESW_CFLAGS) $(LIBELF_CFLAGS) $(PTHREAD_CFLAGS)
FUZZ_LIBS = $(JANSSON_LIBS) $(STATGRAB_LIBS) $(NCURSESW_LIBS) $(LIBELF_LIBS) $(DEMANGLE_LIBS) \
	$(OS_LIBS) $(LIBS) \
	-lm $(PTHREAD_CFLAGS)
FUZZ_PARSER_TARGETS = tests/fuzz/fuzz_sysbench tests/fuzz/fuzz_pgbench tests/fuzz/fuzz_regex
FUZZ_FILE_TARGETS = tests/fuzz/fuzz_theme tests/fuzz/fuzz_prefs tests/fuzz/fuzz_syscall \
	tests/fuzz/fuzz_maps tests/fuzz/fuzz_kallsyms tests/fuzz/fuzz_kstack tests/fuzz/fuzz_pglog \
	tests/fuzz/fuzz_topology tests/fuzz/fuzz_names
FUZZ_TARGETS = tests/fuzz/fuzz_stream tests/fuzz/fuzz_snapshot tests/fuzz/fuzz_import \
	$(FUZZ_PARSER_TARGETS) $(FUZZ_FILE_TARGETS)

EXTRA_DIST += tests/fuzz/fuzz_stream.c tests/fuzz/fuzz_snapshot.c tests/fuzz/stream.dict \
	tests/fuzz/snapshot.dict tests/fuzz/seeds tests/fuzz/regressions tests/fuzz/fuzz_parser.h \
	tests/fuzz/fuzz_sysbench.c tests/fuzz/fuzz_pgbench.c tests/fuzz/fuzz_regex.c \
	tests/fuzz/parse.dict tests/fuzz/fuzz_import.c tests/fuzz/import.dict \
	tests/fuzz/fuzz_theme.c tests/fuzz/fuzz_prefs.c tests/fuzz/theme.dict \
	tests/fuzz/fuzz_syscall.c tests/fuzz/fuzz_maps.c tests/fuzz/fuzz_kallsyms.c \
	tests/fuzz/fuzz_kstack.c tests/fuzz/fuzz_pglog.c tests/fuzz/fuzz_topology.c \
	tests/fuzz/fuzz_names.c
CLEANFILES += $(FUZZ_TARGETS) tests/fuzz/libfuzz.a tests/fuzz/obj/*.o

# Every library source, each compiled once; the archive lets a target pull only what it uses.
tests/fuzz/libfuzz.a: $(libscaletop_a_SOURCES) $(noinst_HEADERS) config.h
	@$(MKDIR_P) tests/fuzz/obj
	@rm -f tests/fuzz/obj/*.o $@
	@for f in $(libscaletop_a_SOURCES); do \
		case $$f in *.c) ;; *) continue ;; esac; \
		echo "  FUZZCC   $$f"; \
		$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c \
			-o tests/fuzz/obj/`echo $$f | tr / _`.o $(top_srcdir)/$$f || exit 1; \
	done
	@$(AR) cr $@ tests/fuzz/obj/*.o && $(RANLIB) $@

tests/fuzz/fuzz_stream: $(top_srcdir)/tests/fuzz/fuzz_stream.c tests/fuzz/libfuzz.a
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ \
		$(top_srcdir)/tests/fuzz/fuzz_stream.c tests/fuzz/libfuzz.a $(FUZZ_LIBS)

tests/fuzz/fuzz_snapshot: $(top_srcdir)/tests/fuzz/fuzz_snapshot.c tests/fuzz/libfuzz.a
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ \
		$(top_srcdir)/tests/fuzz/fuzz_snapshot.c tests/fuzz/libfuzz.a $(FUZZ_LIBS)

tests/fuzz/fuzz_import: $(top_srcdir)/tests/fuzz/fuzz_import.c tests/fuzz/libfuzz.a
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ \
		$(top_srcdir)/tests/fuzz/fuzz_import.c tests/fuzz/libfuzz.a $(FUZZ_LIBS)

# The parsers' targets differ only in their source file.
$(FUZZ_PARSER_TARGETS): %: $(top_srcdir)/%.c $(top_srcdir)/tests/fuzz/fuzz_parser.h \
		tests/fuzz/libfuzz.a
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $(top_srcdir)/$@.c \
		tests/fuzz/libfuzz.a $(FUZZ_LIBS)

# The theme and config parsers' and the census decoders' targets: one source file each, no
# header of their own.
$(FUZZ_FILE_TARGETS): %: $(top_srcdir)/%.c tests/fuzz/libfuzz.a
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $(top_srcdir)/$@.c \
		tests/fuzz/libfuzz.a $(FUZZ_LIBS)

fuzz: $(FUZZ_TARGETS)

# The first folder is the working corpus (libFuzzer adds to it); the seeds are only read.
# A crash leaves its input in tests/fuzz/crash-NAME-*; rerun it with tests/fuzz/fuzz_NAME FILE.
FUZZ_RUN = -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -max_len=65536 -timeout=10 \
	-print_final_stats=1
FUZZ_SEEDS_STREAM = $(top_srcdir)/tests/fuzz/seeds/stream $(top_srcdir)/tests/fixtures/streams
FUZZ_SEEDS_SNAPSHOT = $(top_srcdir)/tests/fuzz/seeds/snapshot
FUZZ_SEEDS_IMPORT = $(top_srcdir)/tests/fuzz/seeds/import $(top_srcdir)/tests/fixtures/import
FUZZ_SEEDS_SYSBENCH = $(top_srcdir)/tests/fixtures/sysbench
FUZZ_SEEDS_PGBENCH = $(top_srcdir)/tests/fixtures/pgbench
FUZZ_SEEDS_REGEX = $(top_srcdir)/tests/fuzz/seeds/regex
FUZZ_SEEDS_THEME = $(top_srcdir)/tests/fuzz/seeds/theme $(top_srcdir)/tests/fixtures/themes \
	$(top_srcdir)/themes
FUZZ_SEEDS_PREFS = $(top_srcdir)/tests/fuzz/seeds/prefs
# The census decoders' seeds are copies of tests/fixtures/proc's, one folder a decoder.
FUZZ_SEEDS_SYSCALL = $(top_srcdir)/tests/fuzz/seeds/syscall
FUZZ_SEEDS_MAPS = $(top_srcdir)/tests/fuzz/seeds/maps
FUZZ_SEEDS_KALLSYMS = $(top_srcdir)/tests/fuzz/seeds/kallsyms
FUZZ_SEEDS_KSTACK = $(top_srcdir)/tests/fuzz/seeds/kstack
FUZZ_SEEDS_TOPOLOGY = $(top_srcdir)/tests/fuzz/seeds/topology
# The quiet check's event texts, a command asked for on the first line.
FUZZ_SEEDS_NAMES = $(top_srcdir)/tests/fuzz/seeds/names
# pgbench --log's seeds are the recorded logs among the pgbench fixtures.
FUZZ_SEEDS_PGLOG = $(top_srcdir)/tests/fixtures/pgbench
FUZZ_REGRESSIONS = $(top_srcdir)/tests/fuzz/regressions

# One parser target: make fuzz-run-parser P=sysbench (corpus in tests/fuzz/corpus/P).
fuzz-run-parser: fuzz
	$(MKDIR_P) tests/fuzz/corpus/$(P)
	tests/fuzz/fuzz_$(P) $(FUZZ_RUN) -dict=$(top_srcdir)/tests/fuzz/parse.dict \
		-artifact_prefix=tests/fuzz/crash-$(P)- tests/fuzz/corpus/$(P) \
		`for d in fuzz/seeds/$(P) fixtures/$(P) fuzz/regressions/$(P); do \
			test -d $(top_srcdir)/tests/$$d && echo $(top_srcdir)/tests/$$d; done`

fuzz-run: fuzz
	$(MKDIR_P) tests/fuzz/corpus/stream tests/fuzz/corpus/snapshot tests/fuzz/corpus/import
	tests/fuzz/fuzz_stream $(FUZZ_RUN) -dict=$(top_srcdir)/tests/fuzz/stream.dict \
		-artifact_prefix=tests/fuzz/crash-stream- tests/fuzz/corpus/stream $(FUZZ_SEEDS_STREAM)
	tests/fuzz/fuzz_snapshot $(FUZZ_RUN) -dict=$(top_srcdir)/tests/fuzz/snapshot.dict \
		-artifact_prefix=tests/fuzz/crash-snapshot- tests/fuzz/corpus/snapshot \
		$(FUZZ_SEEDS_SNAPSHOT)
	tests/fuzz/fuzz_import $(FUZZ_RUN) -dict=$(top_srcdir)/tests/fuzz/import.dict \
		-artifact_prefix=tests/fuzz/crash-import- tests/fuzz/corpus/import $(FUZZ_SEEDS_IMPORT)
	for p in sysbench pgbench regex; do $(MAKE) fuzz-run-parser P=$$p || exit 1; done
	$(MKDIR_P) tests/fuzz/corpus/theme tests/fuzz/corpus/prefs
	tests/fuzz/fuzz_theme $(FUZZ_RUN) -dict=$(top_srcdir)/tests/fuzz/theme.dict \
		-artifact_prefix=tests/fuzz/crash-theme- tests/fuzz/corpus/theme $(FUZZ_SEEDS_THEME)
	tests/fuzz/fuzz_prefs $(FUZZ_RUN) -dict=$(top_srcdir)/tests/fuzz/theme.dict \
		-artifact_prefix=tests/fuzz/crash-prefs- tests/fuzz/corpus/prefs $(FUZZ_SEEDS_PREFS)
	for d in syscall maps kallsyms kstack topology names; do \
		$(MKDIR_P) tests/fuzz/corpus/$$d && \
		tests/fuzz/fuzz_$$d $(FUZZ_RUN) -artifact_prefix=tests/fuzz/crash-$$d- \
			tests/fuzz/corpus/$$d $(top_srcdir)/tests/fuzz/seeds/$$d || exit 1; \
	done
	$(MKDIR_P) tests/fuzz/corpus/pglog
	tests/fuzz/fuzz_pglog $(FUZZ_RUN) -artifact_prefix=tests/fuzz/crash-pglog- \
		tests/fuzz/corpus/pglog $(FUZZ_SEEDS_PGLOG)

# Seeds, plus inputs that once failed (tests/fuzz/regressions/NAME/), run once each.
fuzz-smoke: fuzz
	tests/fuzz/fuzz_stream -runs=0 $(FUZZ_SEEDS_STREAM)
	tests/fuzz/fuzz_snapshot -runs=0 $(FUZZ_SEEDS_SNAPSHOT) \
		$(top_srcdir)/tests/fuzz/regressions/snapshot
	tests/fuzz/fuzz_import -runs=0 $(FUZZ_SEEDS_IMPORT) $(FUZZ_REGRESSIONS)/import
	tests/fuzz/fuzz_sysbench -runs=0 $(FUZZ_SEEDS_SYSBENCH) $(FUZZ_REGRESSIONS)/sysbench
	tests/fuzz/fuzz_pgbench -runs=0 $(FUZZ_SEEDS_PGBENCH) $(FUZZ_REGRESSIONS)/pgbench
	tests/fuzz/fuzz_regex -runs=0 $(FUZZ_SEEDS_REGEX) $(FUZZ_REGRESSIONS)/regex
	tests/fuzz/fuzz_theme -runs=0 $(FUZZ_SEEDS_THEME)
	tests/fuzz/fuzz_prefs -runs=0 $(FUZZ_SEEDS_PREFS)
	tests/fuzz/fuzz_syscall -runs=0 $(FUZZ_SEEDS_SYSCALL)
	tests/fuzz/fuzz_maps -runs=0 $(FUZZ_SEEDS_MAPS)
	tests/fuzz/fuzz_kallsyms -runs=0 $(FUZZ_SEEDS_KALLSYMS)
	tests/fuzz/fuzz_kstack -runs=0 $(FUZZ_SEEDS_KSTACK)
	tests/fuzz/fuzz_topology -runs=0 $(FUZZ_SEEDS_TOPOLOGY)
	tests/fuzz/fuzz_names -runs=0 $(FUZZ_SEEDS_NAMES)
	tests/fuzz/fuzz_pglog -runs=0 $(FUZZ_SEEDS_PGLOG)

fuzz-clean:
	rm -rf tests/fuzz/obj tests/fuzz/corpus
	rm -f $(FUZZ_TARGETS) tests/fuzz/libfuzz.a

.PHONY: fuzz fuzz-run fuzz-run-parser fuzz-smoke fuzz-clean
