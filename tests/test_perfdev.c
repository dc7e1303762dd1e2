/*
 * test_perfdev.c: the perf_event_open(2) device (cpu/perfdev.c) against
 * this machine's real kernel.
 *
 * Without an Intel PMU here, only software events count for real
 * (pmu-facts 10.8): they are enough for what the device owns.  Per-CPU
 * events on every CPU; groups read at once; TOTAL_TIME_ENABLED/RUNNING
 * and the kernel's refusal to reset them; the errors the backend must
 * tell apart (ENOENT for an event no PMU has, EINVAL, EBADF, ENOSPC,
 * EACCES as nobody, EMFILE); cgroup events; and perf stat, the oracle,
 * counting the same program's page faults.  The read parser is checked on
 * answers built by hand for every read_format.
 *
 * Run as root, the permission tests fork a child that becomes nobody.
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cpu/perfdev.h"
#include "tests/nobody.h"

#define TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static struct perfdev *dev;
static const char *self;           /* this binary, for the perf stat oracle */

static struct perf_event_attr sw(uint64_t config, uint64_t read_format)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.read_format = read_format;
	return a;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Touch @n fresh pages: n minor page faults, give or take the kernel's fault-around. */
static void touch_pages(int n)
{
	long pg = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)n * pg, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	for (int i = 0; i < n; i++)
		p[(long)i * pg] = 1;
	munmap((void *)p, (size_t)n * pg);
}

/* ---------- the read parser, on answers built by hand ---------- */

static void test_parse_single(void **state)
{
	uint64_t b[5] = { 1234, 2000, 1500, 77, 3 };
	struct perfdev_counts c;

	(void)state;
	assert_int_equal(perfdev_parse_counts(b, 8, 0, &c), 0);
	assert_int_equal(c.nr, 1);
	assert_int_equal(c.value[0], 1234);
	assert_int_equal(c.enabled, 0);
	assert_int_equal(perfdev_parse_counts(b, 24, TIMES, &c), 0);
	assert_int_equal(c.value[0], 1234);
	assert_int_equal(c.enabled, 2000);
	assert_int_equal(c.running, 1500);
	/* running alone comes straight after the value */
	assert_int_equal(perfdev_parse_counts(b, 16, PERF_FORMAT_TOTAL_TIME_RUNNING, &c), 0);
	assert_int_equal(c.running, 2000);
	assert_int_equal(c.enabled, 0);
	assert_int_equal(perfdev_parse_counts(b, 40, TIMES | PERF_FORMAT_ID | PERF_FORMAT_LOST,
					      &c), 0);
	assert_int_equal(c.id[0], 77);
	assert_int_equal(c.lost[0], 3);
	/* short, long, ragged, empty */
	assert_int_equal(perfdev_parse_counts(b, 16, TIMES, &c), -EIO);
	assert_int_equal(perfdev_parse_counts(b, 32, TIMES, &c), -EIO);
	assert_int_equal(perfdev_parse_counts(b, 12, 0, &c), -EIO);
	assert_int_equal(perfdev_parse_counts(b, 0, TIMES, &c), -ENODATA);
}

static void test_parse_group(void **state)
{
	/* nr, enabled, running, {value, id} x 3 */
	uint64_t b[9] = { 3, 900, 300, 10, 101, 20, 102, 30, 103 };
	uint64_t big[2] = { PERFDEV_GROUP_MAX + 1, 0 }, zero[1] = { 0 };
	struct perfdev_counts c;

	(void)state;
	assert_int_equal(perfdev_parse_counts(b, sizeof(b), PERF_FORMAT_GROUP | TIMES |
					      PERF_FORMAT_ID, &c), 0);
	assert_int_equal(c.nr, 3);
	assert_int_equal(c.enabled, 900);
	assert_int_equal(c.running, 300);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(c.value[i], 10 * (i + 1));
		assert_int_equal(c.id[i], 101 + i);
	}
	/* the same bytes without ID: six values for three members is too long */
	assert_int_equal(perfdev_parse_counts(b, sizeof(b), PERF_FORMAT_GROUP | TIMES, &c), -EIO);
	assert_int_equal(perfdev_parse_counts(b, 8 * 8, PERF_FORMAT_GROUP | TIMES | PERF_FORMAT_ID,
					      &c), -EIO);
	assert_int_equal(perfdev_parse_counts(big, sizeof(big), PERF_FORMAT_GROUP, &c), -EIO);
	assert_int_equal(perfdev_parse_counts(zero, sizeof(zero), PERF_FORMAT_GROUP, &c), -EIO);
}

/* ---------- the real kernel ---------- */

/*
 * One cpu-clock event per CPU, system-wide (pid -1): each counts the
 * nanoseconds it was enabled, which is wall time, and software events
 * never multiplex, so running equals enabled.  Each read gives deltas.
 */
static void test_per_cpu_events(void **state)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct perf_event_attr a = sw(PERF_COUNT_SW_CPU_CLOCK, TIMES);
	struct perfdev_counts c0[64], c1;
	int fd[64];

	(void)state;
	if (ncpu > 64)
		ncpu = 64;
	for (int i = 0; i < ncpu; i++) {
		fd[i] = perfdev_open_event(dev, &a, -1, i, -1, 0);
		if (fd[i] == -EACCES)
			skip();         /* not root, paranoid > 0 */
		assert_true(fd[i] >= 0);
	}
	for (int i = 0; i < ncpu; i++)
		assert_int_equal(perfdev_read_counts(dev, fd[i], TIMES, &c0[i]), 0);
	sleep_s(0.2);
	for (int i = 0; i < ncpu; i++) {
		double en, run, val;

		assert_int_equal(perfdev_read_counts(dev, fd[i], TIMES, &c1), 0);
		assert_int_equal(c1.nr, 1);
		en = (double)(c1.enabled - c0[i].enabled) / 1e9;
		run = (double)(c1.running - c0[i].running) / 1e9;
		val = (double)(c1.value[0] - c0[i].value[0]) / 1e9;
		assert_true(en > 0.19 && en < 0.5);
		assert_true(run == en);
		assert_true(val > 0.9 * en && val < 1.1 * en);
		assert_int_equal(perfdev_close_event(dev, fd[i]), 0);
	}
	/* a closed descriptor is no more */
	assert_int_equal(perfdev_read_counts(dev, fd[0], TIMES, &c1), -EBADF);
}

/*
 * A group of this task's events, read at once: the leader (task-clock,
 * disabled) and a page-fault member, started and stopped together with
 * PERF_IOC_FLAG_GROUP.  The page faults of 512 fresh pages are counted,
 * and nothing outside the enabled span.
 */
static void test_group(void **state)
{
	uint64_t fmt = PERF_FORMAT_GROUP | TIMES | PERF_FORMAT_ID;
	struct perf_event_attr lead = sw(PERF_COUNT_SW_TASK_CLOCK, fmt);
	struct perf_event_attr pf = sw(PERF_COUNT_SW_PAGE_FAULTS, fmt);
	struct perfdev_counts c;
	int l, m;

	(void)state;
	lead.disabled = 1;
	lead.exclude_kernel = pf.exclude_kernel = 1;    /* what paranoid 2 allows anyone */
	l = perfdev_open_event(dev, &lead, 0, -1, -1, 0);
	assert_true(l >= 0);
	m = perfdev_open_event(dev, &pf, 0, -1, l, 0);
	assert_true(m >= 0);
	touch_pages(256);                               /* not counted: disabled */
	assert_int_equal(perfdev_ioctl(dev, l, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0);
	touch_pages(512);
	assert_int_equal(perfdev_ioctl(dev, l, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP), 0);
	touch_pages(256);                               /* not counted either */
	assert_int_equal(perfdev_read_counts(dev, l, fmt, &c), 0);
	assert_int_equal(c.nr, 2);
	/* AddressSanitizer's shadow memory faults too: then the 512 are a floor only. */
	assert_true(c.value[1] >= 512 && (getenv("LATTOP_SANITIZED") || c.value[1] < 512 + 64));
	assert_true(c.value[0] > 0);                    /* task-clock ns */
	assert_true(c.enabled > 0 && c.running == c.enabled);
	assert_true(c.id[0] != c.id[1]);
	/* a member read with PERF_FORMAT_GROUP answers for the whole group */
	{
		struct perfdev_counts g;

		assert_int_equal(perfdev_read_counts(dev, m, fmt, &g), 0);
		assert_int_equal(g.nr, 2);
		assert_int_equal(g.value[1], c.value[1]);
		assert_int_equal(g.id[1], c.id[1]);
	}
	perfdev_close_event(dev, m);
	perfdev_close_event(dev, l);
}

/*
 * PERF_EVENT_IOC_RESET zeroes the value, never time_enabled or
 * time_running (pmu-facts 10.4): a reader that scaled by the times since
 * a reset would be wrong; it must take deltas of both.
 */
static void test_reset_keeps_times(void **state)
{
	struct perf_event_attr a = sw(PERF_COUNT_SW_PAGE_FAULTS, TIMES);
	struct perfdev_counts c0, c1;
	int fd;

	(void)state;
	a.exclude_kernel = 1;
	fd = perfdev_open_event(dev, &a, 0, -1, -1, 0);
	assert_true(fd >= 0);
	touch_pages(300);
	assert_int_equal(perfdev_read_counts(dev, fd, TIMES, &c0), 0);
	assert_true(c0.value[0] >= 300);
	assert_int_equal(perfdev_ioctl(dev, fd, PERF_EVENT_IOC_RESET, 0), 0);
	touch_pages(10);
	assert_int_equal(perfdev_read_counts(dev, fd, TIMES, &c1), 0);
	assert_true(c1.value[0] >= 10 && c1.value[0] < 100);
	assert_true(c1.enabled >= c0.enabled);
	assert_true(c1.running >= c0.running);
	perfdev_close_event(dev, fd);
}

/* The errors the backend tells apart, as this kernel gives them. */
static void test_errors(void **state)
{
	struct perf_event_attr a = sw(PERF_COUNT_SW_CPU_CLOCK, TIMES);
	struct perf_event_attr raw = a;
	struct perfdev_pmu pmu;
	uint64_t small;
	int fd;

	(void)state;
	a.exclude_kernel = raw.exclude_kernel = 1;      /* errors, not paranoia, under test */
	/* no PMU for the type, or no such software event: ENOENT */
	assert_int_equal(perfdev_core_pmu(dev, &pmu), 0);
	raw.type = PERF_TYPE_RAW;
	raw.config = 0xc0;
	if (!pmu.present)
		assert_int_equal(perfdev_open_event(dev, &raw, 0, -1, -1, 0), -ENOENT);
	raw = a;
	raw.config = PERF_COUNT_SW_MAX + 10;
	assert_int_equal(perfdev_open_event(dev, &raw, 0, -1, -1, 0), -ENOENT);
	/* neither a task nor a CPU; a CPU that is not there */
	assert_int_equal(perfdev_open_event(dev, &a, -1, -1, -1, 0), -EINVAL);
	assert_int_equal(perfdev_open_event(dev, &a, 0, 99999, -1, 0), -EINVAL);
	/* a group leader that is not a descriptor */
	assert_int_equal(perfdev_open_event(dev, &a, 0, -1, 1000000, 0), -EBADF);
	/* an attr of a size no kernel knows */
	raw = a;
	raw.size = 8;
	assert_int_equal(perfdev_open_event(dev, &raw, 0, -1, -1, 0), -E2BIG);
	/* a read too small for the answer: ENOSPC */
	fd = perfdev_open_event(dev, &a, 0, -1, -1, 0);
	assert_true(fd >= 0);
	assert_int_equal(dev->ops->read(dev, fd, &small, sizeof(small)), -ENOSPC);
	/* a period for a counting event: EINVAL */
	small = 1000;
	assert_int_equal(perfdev_ioctl(dev, fd, PERF_EVENT_IOC_PERIOD, (unsigned long)&small),
			 -EINVAL);
	perfdev_close_event(dev, fd);
	assert_int_equal(perfdev_ioctl(dev, fd, PERF_EVENT_IOC_ENABLE, 0), -EBADF);
}

/* The kernel's files, through the device, agree with the files read directly. */
static void *tasks_idle(void *arg)
{
	volatile int *stop = arg;

	while (!*stop)
		usleep(1000);
	return NULL;
}

/*
 * --pid's list of threads (/proc/PID/task): this process's, with a thread
 * started for it; a process reaped, and one that is a zombie, are gone.
 */
static void test_tasks(void **state)
{
	volatile int stop = 0;
	pthread_t th;
	int tids[64], n, before, seen = 0;
	pid_t child;

	(void)state;
	before = perfdev_tasks(dev, getpid(), tids, 64);
	assert_true(before >= 1);
	assert_int_equal(pthread_create(&th, NULL, tasks_idle, (void *)&stop), 0);
	n = perfdev_tasks(dev, getpid(), tids, 64);
	assert_int_equal(n, before + 1);
	for (int i = 0; i < n && i < 64; i++)
		seen += tids[i] == getpid() || tids[i] == (int)syscall(SYS_gettid);
	assert_int_equal(seen, 2 - (getpid() == (int)syscall(SYS_gettid)));
	/* more threads than room: the count, and only what fits written */
	tids[0] = -7;
	assert_int_equal(perfdev_tasks(dev, getpid(), tids, 0), n);
	assert_int_equal(tids[0], -7);
	stop = 1;
	pthread_join(th, NULL);
	child = fork();
	if (child == 0)
		_exit(0);
	assert_true(child > 0);
	/* a zombie until reaped: ended all the same */
	for (int i = 0; i < 200 && perfdev_tasks(dev, child, tids, 64) != -ESRCH; i++)
		usleep(5000);
	assert_int_equal(perfdev_tasks(dev, child, tids, 64), -ESRCH);
	waitpid(child, NULL, 0);
	assert_int_equal(perfdev_tasks(dev, child, tids, 64), -ESRCH);
	assert_int_equal(perfdev_tasks(dev, -1, tids, 64), -ESRCH);
}

/*
 * The NUMA node of a physical address from the kernel's files: a page of
 * this process, its physical address from /proc/self/pagemap (root only),
 * its node as move_pages(2) says it with nodes NULL.
 */
static void test_phys_node(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = aligned_alloc((size_t)page, (size_t)page);
	uint64_t ent = 0;
	void *pages[1];
	int status[1] = { -1 }, fd;

	(void)state;
	assert_non_null(p);
	p[0] = 1;                       /* present */
	fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd >= 0) {
		if (pread(fd, &ent, sizeof(ent), (off_t)((uintptr_t)p / (uintptr_t)page * 8)) != 8)
			ent = 0;
		close(fd);
	}
	pages[0] = p;
	if (!(ent >> 63) || !(ent & ((1ULL << 55) - 1)) ||
	    syscall(SYS_move_pages, 0, 1UL, pages, NULL, status, 0) != 0 || status[0] < 0) {
		free(p);
		skip();                 /* no PFN without CAP_SYS_ADMIN, or no move_pages */
	}
	assert_int_equal(perfdev_phys_node(dev, (ent & ((1ULL << 55) - 1)) * (uint64_t)page + 123),
			 status[0]);
	assert_int_equal(perfdev_phys_node(dev, 0), -1);
	/* far above any memory: no node holds it */
	assert_int_equal(perfdev_phys_node(dev, 1ULL << 62), -1);
	free(p);
}

static void test_kernel_files(void **state)
{
	struct perfdev_pmu pmu;
	char buf[64];
	int level, n;
	FILE *f;

	(void)state;
	f = fopen(PERFDEV_PARANOID, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &n), 1);
	fclose(f);
	assert_int_equal(perfdev_paranoid(dev, &level), 0);
	assert_int_equal(level, n);
	/* the software PMU's type is PERF_TYPE_SOFTWARE */
	n = dev->ops->file(dev, "/sys/bus/event_source/devices/software/type", buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(atoi(buf), PERF_TYPE_SOFTWARE);
	assert_int_equal(dev->ops->file(dev, "/sys/bus/event_source/devices/none/type", buf,
					sizeof(buf)), -ENOENT);
	/* the core PMU is there exactly when its directory is */
	assert_int_equal(perfdev_core_pmu(dev, &pmu), 0);
	assert_int_equal(pmu.present, access(PERFDEV_CORE_PMU, F_OK) == 0);
	if (!pmu.present)
		assert_false(pmu.ldlat || pmu.offcore_rsp);
}

/*
 * A PMU's cpus file as the kernel writes it ("%*pbl", intel_hybrid_get_attr_cpus):
 * ranges and single CPUs, a newline, an empty list for none; anything else refused.
 */
static void test_cpulist(void **state)
{
	uint64_t set[PERFDEV_CPUS_MAX / 64];
	char buf[64];

	(void)state;
	assert_int_equal(perfdev_cpulist("0-15,24\n", set), 17);
	assert_true(set[0] == 0x100ffffULL && !set[1]);
	perfdev_cpulist_print(set, buf, sizeof(buf));
	assert_string_equal(buf, "0-15,24");
	assert_int_equal(perfdev_cpulist("16-23", set), 8);
	assert_true(set[0] == 0xff0000ULL);
	assert_int_equal(perfdev_cpulist("3\n", set), 1);
	assert_int_equal(perfdev_cpulist("1,3,5-6,63-64,1023\n", set), 7);
	assert_true(set[0] == (0x6aULL | 1ULL << 63) && set[1] == 1 && set[15] == 1ULL << 63);
	perfdev_cpulist_print(set, buf, sizeof(buf));
	assert_string_equal(buf, "1,3,5-6,63-64,1023");
	/* none: the cpus file of a PMU whose CPUs are all offline */
	assert_int_equal(perfdev_cpulist("\n", set), 0);
	assert_int_equal(perfdev_cpulist("", set), 0);
	perfdev_cpulist_print(set, buf, sizeof(buf));
	assert_string_equal(buf, "none");
	/* overlapping ranges count each CPU once */
	assert_int_equal(perfdev_cpulist("0-3,2-5", set), 6);
	/* malformed: backwards, past the bitmap, stray characters, empty items */
	assert_int_equal(perfdev_cpulist("5-3", set), -EINVAL);
	assert_int_equal(perfdev_cpulist("1024", set), -EINVAL);
	assert_int_equal(perfdev_cpulist("0-1024", set), -EINVAL);
	assert_int_equal(perfdev_cpulist("0-3,", set), -EINVAL);
	assert_int_equal(perfdev_cpulist(",1", set), -EINVAL);
	assert_int_equal(perfdev_cpulist("1,,2", set), -EINVAL);
	assert_int_equal(perfdev_cpulist("0-", set), -EINVAL);
	assert_int_equal(perfdev_cpulist("-3", set), -EINVAL);
	assert_int_equal(perfdev_cpulist("0 1", set), -EINVAL);
	assert_int_equal(perfdev_cpulist("0x3", set), -EINVAL);
	assert_int_equal(perfdev_cpulist("3\n4", set), -EINVAL);
}

#define CHILD_CHECK(cond, code) do { if (!(cond)) _exit(code); } while (0)

static void nobody_opens(void *arg)
{
	struct perf_event_attr a = sw(PERF_COUNT_SW_CPU_CLOCK, TIMES);
	int level, fd;

	(void)arg;
	CHILD_CHECK(perfdev_paranoid(dev, &level) == 0, 10);
	/* pmu-facts 10.7: a CPU event needs paranoid <= 0; the kernel's counts need <= 1 */
	fd = perfdev_open_event(dev, &a, -1, 0, -1, 0);
	CHILD_CHECK(level <= 0 ? fd >= 0 : fd == -EACCES, 11);
	fd = perfdev_open_event(dev, &a, 0, -1, -1, 0);
	CHILD_CHECK(level <= 1 ? fd >= 0 : fd == -EACCES, 12);
	/* this task, in user space only, opens below level 3 */
	a.exclude_kernel = 1;
	fd = perfdev_open_event(dev, &a, 0, -1, -1, 0);
	CHILD_CHECK(level < 3 ? fd >= 0 : fd == -EACCES, 13);
	/* another user's task (init): EACCES, whatever the level */
	CHILD_CHECK(perfdev_open_event(dev, &a, 1, -1, -1, 0) == -EACCES, 14);
}

static void test_permissions_as_nobody(void **state)
{
	(void)state;
	as_nobody(nobody_opens, NULL);
}

/* Each event is a descriptor: RLIMIT_NOFILE bounds them, EMFILE past it. */
static void emfile(void *arg)
{
	struct perf_event_attr a = sw(PERF_COUNT_SW_CPU_CLOCK, TIMES);
	struct rlimit rl = { 16, 16 };
	int fd = 0, n = 0;

	(void)arg;
	a.exclude_kernel = 1;
	CHILD_CHECK(setrlimit(RLIMIT_NOFILE, &rl) == 0, 20);
	while (n < 64 && (fd = perfdev_open_event(dev, &a, 0, -1, -1, 0)) >= 0)
		n++;
	CHILD_CHECK(fd == -EMFILE, 21);
	CHILD_CHECK(n > 0 && n < 16, 22);
}

static void test_emfile(void **state)
{
	(void)state;
	in_child(emfile, NULL, false);
}

/* The cgroup v2 hierarchy's mount point, or NULL. */
static const char *cgroup2_root(char *buf, size_t len)
{
	char dev_[64], dir[256], type[64];
	FILE *f = fopen("/proc/mounts", "r");
	const char *found = NULL;

	if (!f)
		return NULL;
	while (fscanf(f, "%63s %255s %63s %*[^\n]", dev_, dir, type) == 3)
		if (!strcmp(type, "cgroup2")) {
			snprintf(buf, len, "%s", dir);
			found = buf;
			break;
		}
	fclose(f);
	return found;
}

/*
 * A cgroup event (pmu-facts 10.7): the cgroup's directory as pid, with
 * PERF_FLAG_PID_CGROUP, on one CPU; on no CPU it is EINVAL.  A child in a
 * new cgroup faults pages on CPU 0: the cgroup's event there counts them,
 * the root cgroup's own event counts nothing of a child's cgroup.
 */
static void test_cgroup_event(void **state)
{
	struct perf_event_attr a = sw(PERF_COUNT_SW_PAGE_FAULTS, TIMES);
	char root[256], dir[300], procs[320];
	struct perfdev_counts c;
	int cg, fd, status;
	pid_t pid;
	FILE *f;

	(void)state;
	if (!cgroup2_root(root, sizeof(root)) || geteuid() != 0)
		skip();
	snprintf(dir, sizeof(dir), "%s/lattop-test-%d", root, (int)getpid());
	if (mkdir(dir, 0755) < 0)
		skip();
	cg = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(cg >= 0);
	assert_int_equal(perfdev_open_event(dev, &a, cg, -1, -1, PERF_FLAG_PID_CGROUP), -EINVAL);
	fd = perfdev_open_event(dev, &a, cg, 0, -1, PERF_FLAG_PID_CGROUP);
	assert_true(fd >= 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(0, &set);
		snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
		f = fopen(procs, "w");
		if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f))
			_exit(30);
		if (sched_setaffinity(0, sizeof(set), &set))
			_exit(31);
		touch_pages(400);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(perfdev_read_counts(dev, fd, TIMES, &c), 0);
	assert_true(c.value[0] >= 400 && c.value[0] < 400 + 400);
	assert_true(c.enabled > 0);
	perfdev_close_event(dev, fd);
	close(cg);
	rmdir(dir);
}

/*
 * perf stat, the oracle: the page faults of one run of a program, counted
 * by a per-task event opened on a child before it execs (enable_on_exec),
 * and by `perf stat -e page-faults` on another run of the same program.
 */
static long perf_stat_faults(char *const argv[])
{
	char out[128], line[256];
	long v = -1;
	int status;
	pid_t pid;
	FILE *f;

	snprintf(out, sizeof(out), "/tmp/lattop-perfstat.%d", (int)getpid());
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		char *args[16] = { "perf", "stat", "-x,", "-e", "page-faults:u", "-o", out, "--" };
		int k = 8;

		for (int i = 0; argv[i] && k < 15; i++)
			args[k++] = argv[i];
		args[k] = NULL;
		execvp("perf", args);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	f = fopen(out, "r");
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "page-faults"))
			v = atol(line);
	if (f)
		fclose(f);
	unlink(out);
	return v;
}

static void test_perf_stat_oracle(void **state)
{
	char *const argv[] = { (char *)self, "--touch", "3000", NULL };
	struct perf_event_attr a = sw(PERF_COUNT_SW_PAGE_FAULTS, TIMES);
	struct perfdev_counts c;
	int go[2], status, fd;
	long theirs;
	pid_t pid;
	char x = 0;

	(void)state;
	/*
	 * Under the sanitizers the child's faults include AddressSanitizer's
	 * shadow memory, which differs from run to run: no exact oracle.
	 */
	if (getenv("LATTOP_SANITIZED"))
		skip();
	theirs = perf_stat_faults(argv);
	if (theirs < 0)
		skip();                 /* no perf here: scripts/deps.sh linux-perf */
	assert_int_equal(pipe(go), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &x, 1) != 1)
			_exit(40);
		execv(self, argv);
		_exit(127);
	}
	close(go[0]);
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.exclude_kernel = 1;
	fd = perfdev_open_event(dev, &a, pid, -1, -1, 0);
	assert_true(fd >= 0);
	assert_int_equal(write(go[1], &x, 1), 1);
	close(go[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(perfdev_read_counts(dev, fd, TIMES, &c), 0);
	perfdev_close_event(dev, fd);
	print_message("# page faults of %s --touch 3000: perfdev %llu, perf stat %ld\n", self,
		      (unsigned long long)c.value[0], theirs);
	assert_true(c.value[0] >= 3000);
	assert_true(labs((long)c.value[0] - theirs) <= 30 + theirs / 50);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_single),
		cmocka_unit_test(test_parse_group),
		cmocka_unit_test(test_per_cpu_events),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_reset_keeps_times),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_kernel_files),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_tasks),
		cmocka_unit_test(test_phys_node),
		cmocka_unit_test(test_permissions_as_nobody),
		cmocka_unit_test(test_emfile),
		cmocka_unit_test(test_cgroup_event),
		cmocka_unit_test(test_perf_stat_oracle),
	};
	char err[256];
	int rc;

	/* The program the oracle test counts: fault N fresh pages, then exit. */
	if (argc == 3 && !strcmp(argv[1], "--touch")) {
		touch_pages(atoi(argv[2]));
		return 0;
	}
	self = argv[0];
	dev = perfdev_sys_open(err, sizeof(err));
	if (!dev) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	perfdev_close(dev);
	return rc;
}
