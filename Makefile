# lattop: a top-like monitor of load latency, snoop/HITM and offcore latency
# on Intel CPUs.  `make run` and `make check` are the quick start.

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
PKGS_RUN  := libcpuid-dev libncurses-dev pkg-config msr-tools
PKGS_TEST := libpfm4-dev libcmocka-dev libfuse3-dev fuse3 tmux mandoc jq

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	   -Wformat=2 -Wno-format-nonliteral
CFLAGS  ?= -O2 -g
CPPFLAGS += -I. -D_GNU_SOURCE
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) -MMD -MP
LDLIBS_CORE := -lcpuid -lm

CPU_SRC  := $(sort $(wildcard cpu/*.c))
SRC_SRC  := $(filter-out src/main.c,$(sort $(wildcard src/*.c)))
UI_SRC   := $(sort $(wildcard ui/*.c))
CORE_OBJ := $(CPU_SRC:.c=.o) $(SRC_SRC:.c=.o)
UI_OBJ   := $(UI_SRC:.c=.o)
SIM_OBJ  := $(filter cpu/sim%.o,$(CORE_OBJ))

TEST_SRC := $(sort $(wildcard tests/test_*.c))
TEST_BIN := $(TEST_SRC:.c=)
MSRFS    := tests/msrfs/msrfs
MSRFS_SRC := $(sort $(wildcard tests/msrfs/*.c))

.PHONY: all run check deps deps-test tests clean install uninstall
all: lattop

%.o: %.c
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

# The core as an archive: a test links only the modules it uses.
liblattop.a: $(CORE_OBJ)
	rm -f $@ && $(AR) rcs $@ $^

lattop: src/main.o $(UI_OBJ) liblattop.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_CORE) -lncursesw

tests/test_%: tests/test_%.o liblattop.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_CORE) -lpfm -lcmocka

$(MSRFS): $(MSRFS_SRC:.c=.o) $(SIM_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $$(pkg-config --libs fuse3) -lm -lpthread

tests/msrfs/%.o: tests/msrfs/%.c
	$(CC) $(CPPFLAGS) $$(pkg-config --cflags fuse3) $(ALL_CFLAGS) -c -o $@ $<

tests/tools/msrpeek: tests/tools/msrpeek.c
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

tests: lattop $(TEST_BIN) $(MSRFS) tests/tools/msrpeek

# Install what is missing when root; otherwise print the exact command.
deps:
	@sh tests/deps.sh $(PKGS_RUN)
deps-test:
	@sh tests/deps.sh $(PKGS_RUN) $(PKGS_TEST)

run: deps
	@$(MAKE) --no-print-directory lattop
	@sh tests/run-monitor.sh

check: deps-test
	@$(MAKE) --no-print-directory tests
	@sh tests/run.sh

install: lattop
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 lattop $(DESTDIR)$(PREFIX)/bin/lattop
	install -m 0644 man/lattop.1 $(DESTDIR)$(PREFIX)/share/man/man1/lattop.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/lattop $(DESTDIR)$(PREFIX)/share/man/man1/lattop.1

clean:
	rm -f lattop liblattop.a $(TEST_BIN) $(MSRFS) tests/tools/msrpeek */*.o */*.d tests/*/*.o tests/*/*.d

-include $(wildcard */*.d tests/*/*.d)
