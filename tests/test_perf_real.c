/*
 * test_perf_real.c: the contended-line path end to end on this machine's
 * real kernel: real ring buffers, real data addresses, threads, CPUs and
 * instructions, no PEBS needed.
 *
 * Two threads of this process write adjacent 8-byte words of one cache
 * line, each in a function of its own.  The samples come from hardware
 * data watchpoints (PERF_TYPE_BREAKPOINT, HW_BREAKPOINT_W, period 1: one
 * sample a write, pmu-facts 10.8) where the kernel's watchpoints fire;
 * where they never do (a hypervisor that does not pass the debug
 * registers through: this machine's, where a watchpoint opens and counts
 * 0), from page faults (PERF_COUNT_SW_PAGE_FAULTS, period 1), each thread
 * dropping the page after its write so that the next one faults again:
 * the fault's address, thread, CPU and instruction are the write's.
 * Either way the events are opened and mapped through cpu/perfdev's real
 * implementation, the rings read by the sharing sampler's own reader into
 * the line table, and the symbols read from this test's binary.  What
 * comes out must be the one line at the words' address, two words, each
 * written by its own thread (exactly as often as it wrote, with
 * watchpoints), false sharing, and each word's code named after the
 * function that wrote it.
 */
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "cpu/perfdev.h"
#include "engine/sharing_sampler.h"

#define WRITES 2000
#define RING_LEN ((1 + 64) * PERFDEV_PAGE)

static volatile uint64_t *line;         /* a page of its own, so that it can fault */
static volatile int tid[2], go;
static bool faults;                     /* page faults, not watchpoints */

void writer_left(int n);
void writer_right(int n);

__attribute__((noinline)) void writer_left(int n)
{
	for (int i = 0; i < n; i++) {
		line[0] = (uint64_t)i;
		if (faults)
			madvise((void *)line, PERFDEV_PAGE, MADV_DONTNEED);
	}
}

__attribute__((noinline)) void writer_right(int n)
{
	for (int i = 0; i < n; i++) {
		line[1] = (uint64_t)i;
		if (faults)
			madvise((void *)line, PERFDEV_PAGE, MADV_DONTNEED);
	}
}

static void *thread(void *arg)
{
	int me = (int)(intptr_t)arg;

	tid[me] = (int)gettid();
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		sched_yield();
	if (me == 0)
		writer_left(WRITES);
	else
		writer_right(WRITES);
	return NULL;
}

#define TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	      PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_PHYS_ADDR)

static struct perf_event_attr watchpoint(int w)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_BREAKPOINT, .size = sizeof(a), .bp_type = HW_BREAKPOINT_W,
		.bp_addr = (uintptr_t)&line[w], .bp_len = HW_BREAKPOINT_LEN_8,
		.sample_period = 1, .sample_type = TYPE, .exclude_kernel = 1, .exclude_hv = 1,
	};

	return a;
}

/* Do this kernel's watchpoints fire?  One on this thread, one write, its count. */
static int watchpoints_fire(struct perfdev *dev)
{
	struct perf_event_attr a = watchpoint(0);
	struct perfdev_counts c;
	int fd = perfdev_open_event(dev, &a, 0, -1, -1, 0);

	if (fd < 0)
		return fd;
	line[0] = 1;
	perfdev_read_counts(dev, fd, 0, &c);
	perfdev_close_event(dev, fd);
	return c.value[0] == 1;
}

static void test_two_writers(void **state)
{
	struct sharing_ev ev[4];
	static struct sharing_sampler s;
	const struct sharing_frame *f;
	pthread_t th[2];
	char err[256];
	struct perfdev *dev = perfdev_sys_open(err, sizeof(err));
	int n = 0, fire;

	(void)state;
	assert_non_null(dev);
	line = mmap(NULL, PERFDEV_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(line != MAP_FAILED);
	fire = watchpoints_fire(dev);
	if (fire < 0 && fire != -ENOENT && fire != -EOPNOTSUPP && fire != -ENOSPC) {
		print_message("perf_event_open refused: %s\n", strerror(-fire));
		skip();
	}
	faults = fire != 1;
	print_message("# samples from %s\n", faults ? "page faults (watchpoints never fire here)" :
		      "hardware watchpoints");
	assert_int_equal(sharing_sampler_init(&s, TYPE), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, thread, (void *)(intptr_t)i), 0);
	while (!tid[0] || !tid[1])
		sched_yield();
	/* watchpoints: each word, each thread (4, the x86 limit); faults: each thread */
	for (int t = 0; t < 2; t++)
		for (int w = 0; w < (faults ? 1 : 2); w++) {
			struct perf_event_attr a = watchpoint(w);
			int fd;

			if (faults)
				a = (struct perf_event_attr){
					.type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
					.config = PERF_COUNT_SW_PAGE_FAULTS, .sample_period = 1,
					.sample_type = TYPE, .exclude_kernel = 1, .exclude_hv = 1,
				};
			fd = perfdev_open_event(dev, &a, tid[t], -1, -1, 0);
			assert_true(fd >= 0);
			memset(&ev[n], 0, sizeof(ev[n]));
			ev[n].fd = fd;
			ev[n].period = 1;
			ev[n].scale = 1;
			assert_int_equal(perfdev_mmap(dev, fd, RING_LEN, &ev[n].map), 0);
			ev[n].ring = calloc(1, sizeof(*ev[n].ring));
			assert_non_null(ev[n].ring);
			assert_int_equal(perf_ring_init(ev[n].ring, ev[n].map, RING_LEN, PERFDEV_PAGE), 0);
			n++;
		}
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	/* every sample is a write */
	for (int i = 0; i < n; i++)
		sharing_sampler_drain(&s, &ev[i], SHARING_EV_STORES);
	f = sharing_sampler_end(&s, 1.0);
	assert_int_equal(f->lost, 0);
	if (!faults)
		assert_int_equal(f->samples, 2 * WRITES);
	/* the writers' line on top; page faults elsewhere (stacks, libc) may come after it */
	assert_true(faults ? f->nlines >= 1 : f->nlines == 1);
	assert_int_equal(f->line[0].addr, (uintptr_t)line);
	/* the kernel's physical address (a mapped page's only: none before a fault) */
	if (!faults)
		assert_int_equal(f->line[0].phys & 0xfff, (uintptr_t)line & 0xfff);
	assert_int_equal(f->line[0].verdict, SHARING_FALSE);
	assert_int_equal(f->line[0].nthreads, 2);
	assert_true(f->line[0].ncpus >= 1 && f->line[0].ncpus <= sysconf(_SC_NPROCESSORS_CONF));
	assert_int_equal(f->line[0].nprocs, 1);
	assert_int_equal(f->line[0].procs[0].pid, getpid());
	assert_int_equal(f->line[0].nwords, 2);
	for (int w = 0; w < 2; w++) {
		const struct sharing_word *sw = &f->line[0].words[w];
		uintptr_t fn = w ? (uintptr_t)writer_right : (uintptr_t)writer_left;
		char want[32];

		assert_int_equal(sw->offset, 8 * w);
		assert_int_equal(sw->ntids, 1);
		assert_int_equal(sw->tids[0], tid[w]);
		/* a write can fault again when the other thread drops the page under it */
		if (faults)
			assert_true(sw->writes >= 1);
		else
			assert_float_equal(sw->writes, WRITES, 1e-9);
		assert_float_equal(sw->reads, 0, 1e-9);
		/* in the writer's body: the store itself, or (watchpoint) the one after it */
		assert_true(sw->top_ip >= fn && sw->top_ip < fn + 256);
		snprintf(want, sizeof(want), "%s+0x%llx", w ? "writer_right" : "writer_left",
			 (unsigned long long)(sw->top_ip - fn));
		assert_string_equal(sw->symbol, want);
	}
	for (int i = 0; i < n; i++) {
		perfdev_munmap(dev, ev[i].fd, ev[i].map, RING_LEN);
		perfdev_close_event(dev, ev[i].fd);
		free(ev[i].ring);
	}
	sharing_sampler_free(&s);
	perfdev_close(dev);
	munmap((void *)line, PERFDEV_PAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_writers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
