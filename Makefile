# lattop: a top-like monitor of load latency, snoop/HITM and offcore latency
# on Intel CPUs.  `make run` and `make check` are the quick start.

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
PKGS_RUN  := libcpuid-dev libncurses-dev pkg-config msr-tools libmicrohttpd-dev libzstd-dev \
	     zlib1g-dev libelf-dev libdw-dev
PKGS_TEST := libpfm4-dev libcmocka-dev libfuse3-dev fuse3 tmux mandoc jq clang libclang-rt-14-dev \
	     valgrind prometheus prometheus-node-exporter python3 python3-prometheus-client curl linux-perf \
	     systemd

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	   -Wformat=2 -Wno-format-nonliteral
CFLAGS  ?= -O2 -g
CPPFLAGS += -I. -D_GNU_SOURCE
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) -MMD -MP
LDLIBS_CORE := -lcpuid -lzstd -lz -lm -lpthread -lelf

# The layers, bottom to top (HACKING.md): what a folder may include is
# checked by tests/e2e_headers.sh.  app/ and ui/ make the program; the
# layers under them are the core every test links.
CORE_DIRS := cpu cpu/events sim engine output export record safety
CPU_SRC  := $(sort $(wildcard cpu/*.c))
SIM_SRC  := $(sort $(wildcard sim/*.c))
CORE_SRC := $(sort $(foreach d,$(CORE_DIRS),$(wildcard $(d)/*.c)))
APP_SRC  := $(sort $(wildcard app/*.c))
UI_SRC   := $(sort $(wildcard ui/*.c))
CORE_OBJ := $(CORE_SRC:.c=.o)
APP_OBJ  := $(APP_SRC:.c=.o)
UI_OBJ   := $(UI_SRC:.c=.o)
SIM_OBJ  := $(filter-out sim/msrdev_sim.o,$(SIM_SRC:.c=.o))

TEST_SRC := $(sort $(wildcard tests/test_*.c))
TEST_BIN := $(TEST_SRC:.c=)
MSRFS    := tests/msrfs/msrfs
MSRFS_SRC := $(sort $(wildcard tests/msrfs/*.c))

.PHONY: all run check unit check-sanitize soak bench deps deps-test tests clean install uninstall
all: lattop

%.o: %.c
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

# The core as an archive: a test links only the modules it uses.
liblattop.a: $(CORE_OBJ)
	rm -f $@ && $(AR) rcs $@ $^

lattop: $(APP_OBJ) $(UI_OBJ) liblattop.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_CORE) -lncursesw -lmicrohttpd -lpthread

tests/test_%: tests/test_%.o liblattop.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_CORE) -lpfm -lcmocka

$(MSRFS): $(MSRFS_SRC:.c=.o) $(SIM_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $$(pkg-config --libs fuse3) -lm -lpthread

tests/msrfs/%.o: tests/msrfs/%.c
	$(CC) $(CPPFLAGS) $$(pkg-config --cflags fuse3) $(ALL_CFLAGS) -c -o $@ $<

tests/tools/msrpeek: tests/tools/msrpeek.c
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

# A recording with contended lines, through the recorder (tests/e2e_lines_screen.sh).
tests/tools/sharerec: tests/tools/sharerec.o liblattop.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_CORE)

tests: lattop $(TEST_BIN) $(MSRFS) tests/tools/msrpeek tests/tools/sharerec tests/fuzz/fuzz_cpuid \
	tests/fuzz/fuzz_profile tests/fuzz/fuzz_listen tests/fuzz/fuzz_record tests/fuzz/fuzz_ring \
	bench/export_bench bench/perf_bench bench/sharing_bench

# Install what is missing when root; otherwise print the exact command.
deps:
	@sh scripts/deps.sh $(PKGS_RUN)
deps-test:
	@sh scripts/deps.sh $(PKGS_RUN) $(PKGS_TEST)

run: deps
	@$(MAKE) --no-print-directory lattop
	@sh scripts/run-monitor.sh

check: deps-test
	@$(MAKE) --no-print-directory tests
	@sh tests/run.sh

# The cmocka unit tests alone, in seconds: no root, no FUSE, no installs
# (the libraries they link must be there: make deps-test once).
unit: $(TEST_BIN)
	@sh tests/run.sh $(TEST_BIN)

# Hundreds of runs on the FUSE stand-in under CPU load, each ended by a
# random signal with a random fault injected: every register back, no
# journal left (tests/soak.sh; `make check` runs a short one).  Root (FUSE).
SOAK_RUNS ?= 400
soak: deps-test
	@$(MAKE) --no-print-directory tests
	@sh tests/soak.sh $(SOAK_RUNS)

# The whole suite again with AddressSanitizer and UndefinedBehaviorSanitizer:
# any report fails the test that triggered it.  Builds in place, then cleans,
# so the sanitized objects never mix with the normal ones.
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
check-sanitize: deps-test
	@$(MAKE) --no-print-directory clean
	@$(MAKE) --no-print-directory CFLAGS="$(SAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" tests
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		LATTOP_SANITIZED=1 sh tests/run.sh; rc=$$?; $(MAKE) --no-print-directory clean; exit $$rc

# What lattop costs (BENCHMARKS.md): MSR operations against the floor, CPU
# time and instructions per tick at 8-1024 simulated CPUs, terminal bytes
# and CPU share beside top and htop, the Prometheus exposition's cost per
# interval and per scrape.  Root (FUSE).
PKGS_BENCH := strace valgrind htop time linux-perf
bench: deps-test
	@sh scripts/deps.sh $(PKGS_BENCH)
	@$(MAKE) --no-print-directory tests
	@sh bench/bench.sh

bench/export_bench: bench/export_bench.o liblattop.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_CORE)

bench/perf_bench: bench/perf_bench.o liblattop.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_CORE)

bench/sharing_bench: bench/sharing_bench.o liblattop.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_CORE)

# The binary is installed stripped; `make install STRIP=` keeps its symbols.
STRIP ?= strip
install: lattop
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(if $(STRIP),-s --strip-program=$(STRIP)) lattop $(DESTDIR)$(PREFIX)/bin/lattop
	install -m 0644 man/lattop.1 $(DESTDIR)$(PREFIX)/share/man/man1/lattop.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/lattop $(DESTDIR)$(PREFIX)/share/man/man1/lattop.1

# PNG pictures of the screen from real runs on the simulator (Xvfb, xterm,
# ImageMagick: scripts/screenshots.sh installs them through scripts/deps.sh).
.PHONY: screenshots
screenshots: lattop
	sh scripts/screenshots.sh

clean:
	rm -f lattop liblattop.a $(TEST_BIN) $(MSRFS) tests/tools/msrpeek tests/tools/sharerec \
		bench/export_bench bench/perf_bench bench/sharing_bench */*.o */*.d cpu/events/*.o \
		cpu/events/*.d tests/*/*.o tests/*/*.d \
		tests/fuzz/fuzz_cpuid tests/fuzz/fuzz_profile tests/fuzz/fuzz_listen tests/fuzz/fuzz_record \
		tests/fuzz/fuzz_ring tests/fuzz/obj/*.o \
		tests/fuzz/obj/*.d

-include $(wildcard */*.d cpu/events/*.d tests/*/*.d)

# ---- fuzzing: begin (tests/fuzz/, tests/e2e_fuzz.sh) ----
# libFuzzer harnesses of the input parsers (CPUID dumps, profiles, --listen, recordings, perf rings), built with clang from their
# own objects in tests/fuzz/obj/ (not the gcc ones).  `make check` runs them
# over tests/fuzz/regress/ and fuzzes 15 s each; `make fuzz` is the long run
# (FUZZ_SECONDS per harness; `make -j4 fuzz` runs them at once), new units in
# tests/fuzz/work/, crashes in tests/fuzz/crashes/ (neither committed).
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 600
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS  := -std=gnu11 $(WARN) -O1 -g -fno-omit-frame-pointer $(FUZZ_SAN) \
		-fsanitize=fuzzer-no-link -MMD -MP
FUZZ_CPUID_OBJ   := $(patsubst cpu/%.c,tests/fuzz/obj/%.o,cpu/cpuid.c cpu/cpuid_all.c cpu/uarch.c \
		    $(sort cpu/events.c $(wildcard cpu/events/*.c))) tests/fuzz/obj/fuzz_cpuid.o
FUZZ_PROFILE_OBJ := $(patsubst sim/%.c,tests/fuzz/obj/%.o,sim/sim.c sim/sim_hw.c \
		    sim/sim_profile.c) tests/fuzz/obj/fuzz_profile.o
FUZZ_LISTEN_OBJ  := tests/fuzz/obj/listen.o tests/fuzz/obj/fuzz_listen.o
# The recording reader, and the writers it feeds (report.c needs the plan's tables).
FUZZ_RECORD_OBJ  := $(patsubst %.c,tests/fuzz/obj/%.o,$(notdir record/record.c record/rotate.c record/record_sharing.c engine/metrics.c \
		    output/report.c output/numfmt.c output/columns.c output/sharecols.c engine/plan.c cpu/uarch.c cpu/cpuid.c cpu/cpuid_all.c cpu/perf_attr.c \
		    $(sort cpu/events.c $(wildcard cpu/events/*.c)))) tests/fuzz/obj/fuzz_record.o

# The perf ring reader and the line table it feeds.
FUZZ_RING_OBJ    := tests/fuzz/obj/perf_ring.o tests/fuzz/obj/lines.o tests/fuzz/obj/fuzz_ring.o

# Ask clang for its libFuzzer runtime only when a goal may need it.
ifneq ($(filter tests check fuzz fuzz-% tests/fuzz/%,$(MAKECMDGOALS)),)
FUZZ_RT := $(wildcard $(shell $(FUZZ_CC) -print-runtime-dir 2>/dev/null)/libclang_rt.fuzzer*.a)
endif

.PHONY: fuzz fuzz-cpuid fuzz-profile fuzz-listen fuzz-record fuzz-ring
ifneq ($(FUZZ_RT),)
tests/fuzz/obj/%.o: cpu/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

tests/fuzz/obj/%.o: cpu/events/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

tests/fuzz/obj/%.o: sim/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

tests/fuzz/obj/listen.o: export/listen.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

tests/fuzz/obj/%.o: engine/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

tests/fuzz/obj/%.o: output/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

tests/fuzz/obj/%.o: record/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

tests/fuzz/obj/%.o: tests/fuzz/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

tests/fuzz/fuzz_cpuid: $(FUZZ_CPUID_OBJ)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ -lcpuid -lm

tests/fuzz/fuzz_profile: $(FUZZ_PROFILE_OBJ)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ -lm -lpthread

tests/fuzz/fuzz_listen: $(FUZZ_LISTEN_OBJ)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^

tests/fuzz/fuzz_record: $(FUZZ_RECORD_OBJ)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ -lcpuid -lzstd -lz -lm

tests/fuzz/fuzz_ring: $(FUZZ_RING_OBJ)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ -lm
else
# No clang or no libFuzzer runtime: say so; tests/e2e_fuzz.sh skips.
tests/fuzz/fuzz_cpuid tests/fuzz/fuzz_profile tests/fuzz/fuzz_listen tests/fuzz/fuzz_record tests/fuzz/fuzz_ring:
	@echo "lattop: $@ not built: no $(FUZZ_CC) with libFuzzer (apt-get install clang libclang-rt-14-dev)" >&2
endif

fuzz: deps-test
	@$(MAKE) --no-print-directory fuzz-cpuid fuzz-profile fuzz-listen fuzz-record fuzz-ring

fuzz-cpuid fuzz-profile fuzz-listen fuzz-record fuzz-ring: fuzz-%: tests/fuzz/fuzz_%
	@test -x tests/fuzz/fuzz_$*
	@mkdir -p tests/fuzz/crashes tests/fuzz/work/$*
	tests/fuzz/fuzz_$* -max_total_time=$(FUZZ_SECONDS) -timeout=5 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix=tests/fuzz/crashes/$*- \
		tests/fuzz/work/$* tests/fuzz/corpus/$* tests/fuzz/regress

-include $(wildcard tests/fuzz/obj/*.d tests/fuzz/obj/*/*.d)
# ---- fuzzing: end ----
