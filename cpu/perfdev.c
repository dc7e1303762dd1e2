/*
 * perfdev.c: the kernel's perf_event_open(2) device, and what every
 * perfdev shares: parsing a read, the paranoid level, the core PMU.
 *
 * Owns: the system calls and the kernel's files.  Does not decide what is
 * opened (the perf sampler) nor what an event row means (perf_attr.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cpu/perfdev.h"

void perfdev_close(struct perfdev *d)
{
	if (d)
		d->ops->destroy(d);
}

static int sys_open(struct perfdev *d, const struct perf_event_attr *attr, pid_t pid, int cpu,
		    int group_fd, unsigned long flags)
{
	/* The kernel writes attr->size back on E2BIG: a copy keeps the caller's const. */
	struct perf_event_attr a = *attr;
	long fd;

	(void)d;
	fd = syscall(SYS_perf_event_open, &a, pid, cpu, group_fd, flags | PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

static ssize_t sys_read(struct perfdev *d, int fd, void *buf, size_t len)
{
	ssize_t n;

	(void)d;
	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static int sys_ioctl(struct perfdev *d, int fd, unsigned long request, unsigned long arg)
{
	(void)d;
	return ioctl(fd, request, arg) < 0 ? -errno : 0;
}

static int sys_close(struct perfdev *d, int fd)
{
	(void)d;
	return close(fd) < 0 ? -errno : 0;
}

static int sys_file(struct perfdev *d, const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	(void)d;
	if (len == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	return (int)n;
}

static int sys_mmap(struct perfdev *d, int fd, size_t len, void **map)
{
	void *m;

	(void)d;
	if ((size_t)sysconf(_SC_PAGESIZE) != PERFDEV_PAGE)
		return -EOPNOTSUPP;     /* rings are sized in 4 KiB pages */
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	*map = m;
	return 0;
}

static void sys_munmap(struct perfdev *d, int fd, void *map, size_t len)
{
	(void)d;
	(void)fd;
	if (map)
		munmap(map, len);
}

/* /proc/PID/stat's state (the field after the parenthesised name) is Z or X. */
static bool sys_zombie(pid_t pid)
{
	char path[64], buf[512], *p;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

/* /proc/PID/task: every thread of the process, the main one among them. */
static int sys_tasks(struct perfdev *d, pid_t pid, int *tids, int max)
{
	char path[64];
	struct dirent *de;
	DIR *dir;
	int n = 0;

	(void)d;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((de = readdir(dir))) {
		char *end;
		long t = strtol(de->d_name, &end, 10);

		if (de->d_name[0] < '1' || de->d_name[0] > '9' || *end || t > INT_MAX)
			continue;
		if (n < max)
			tids[n] = (int)t;
		n++;
	}
	closedir(dir);
	/* a zombie, not yet reaped, keeps its main thread's entry: it has ended too */
	return n && !sys_zombie(pid) ? n : -ESRCH;
}

static void sys_destroy(struct perfdev *d)
{
	free(d);
}

static const struct perfdev_ops sys_ops = {
	.open = sys_open,
	.read = sys_read,
	.ioctl = sys_ioctl,
	.close = sys_close,
	.file = sys_file,
	.mmap = sys_mmap,
	.munmap = sys_munmap,
	.tasks = sys_tasks,
	.destroy = sys_destroy,
};

struct perfdev *perfdev_sys_open(char *err, size_t errlen)
{
	struct perfdev *d = calloc(1, sizeof(*d));

	if (!d) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	d->ops = &sys_ops;
	d->kind = "perf";
	return d;
}

/* Take the next u64 of an answer; false when it is short. */
static bool take(const uint64_t *w, size_t nw, size_t *at, uint64_t *out)
{
	if (*at >= nw)
		return false;
	*out = w[(*at)++];
	return true;
}

int perfdev_parse_counts(const void *buf, size_t len, uint64_t fmt, struct perfdev_counts *c)
{
	uint64_t w[3 + PERFDEV_GROUP_MAX * 3], nr = 1, dummy;
	size_t nw = len / sizeof(uint64_t), at = 0;

	memset(c, 0, sizeof(*c));
	if (len == 0)
		return -ENODATA;
	if (len % sizeof(uint64_t) || len > sizeof(w))
		return -EIO;
	memcpy(w, buf, len);
	/* Group: {nr, [enabled], [running], {value, [id], [lost]} x nr} (K61 uapi). */
	if (fmt & PERF_FORMAT_GROUP) {
		if (!take(w, nw, &at, &nr) || nr < 1 || nr > PERFDEV_GROUP_MAX)
			return -EIO;
	}
	/* Single: {value, [enabled], [running], [id], [lost]}: the value comes first. */
	if (!(fmt & PERF_FORMAT_GROUP) && !take(w, nw, &at, &c->value[0]))
		return -EIO;
	if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) && !take(w, nw, &at, &c->enabled))
		return -EIO;
	if ((fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) && !take(w, nw, &at, &c->running))
		return -EIO;
	for (uint64_t i = 0; i < nr; i++) {
		if ((fmt & PERF_FORMAT_GROUP) && !take(w, nw, &at, &c->value[i]))
			return -EIO;
		if ((fmt & PERF_FORMAT_ID) && !take(w, nw, &at, &c->id[i]))
			return -EIO;
		if ((fmt & PERF_FORMAT_LOST) && !take(w, nw, &at, &c->lost[i]))
			return -EIO;
	}
	if (take(w, nw, &at, &dummy))
		return -EIO;            /* longer than the format says */
	c->nr = (int)nr;
	return 0;
}

int perfdev_read_counts(struct perfdev *d, int fd, uint64_t fmt, struct perfdev_counts *c)
{
	uint64_t buf[3 + PERFDEV_GROUP_MAX * 3];
	ssize_t n = d->ops->read(d, fd, buf, sizeof(buf));

	if (n < 0) {
		memset(c, 0, sizeof(*c));
		return (int)n;
	}
	return perfdev_parse_counts(buf, (size_t)n, fmt, c);
}

/* A kernel file holding one decimal or 0x number. */
static int file_number(struct perfdev *d, const char *path, long long *v)
{
	char buf[64], *end;
	int n = d->ops->file(d, path, buf, sizeof(buf));

	if (n < 0)
		return n;
	errno = 0;
	*v = strtoll(buf, &end, 0);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	return 0;
}

int perfdev_paranoid(struct perfdev *d, int *level)
{
	long long v;
	int rc = file_number(d, PERFDEV_PARANOID, &v);

	if (rc == 0)
		*level = (int)v;
	return rc;
}

int perfdev_cpulist(const char *s, uint64_t set[PERFDEV_CPUS_MAX / 64])
{
	int n = 0;

	memset(set, 0, PERFDEV_CPUS_MAX / 8);
	while (*s && *s != '\n') {
		unsigned long lo, hi;
		char *end;

		if (*s < '0' || *s > '9')
			return -EINVAL;
		lo = hi = strtoul(s, &end, 10);
		if (*end == '-') {
			s = end + 1;
			if (*s < '0' || *s > '9')
				return -EINVAL;
			hi = strtoul(s, &end, 10);
		}
		if (hi < lo || hi >= PERFDEV_CPUS_MAX)
			return -EINVAL;
		for (unsigned long c = lo; c <= hi; c++) {
			n += !(set[c / 64] & (1ULL << (c % 64)));
			set[c / 64] |= 1ULL << (c % 64);
		}
		s = end;
		if (*s == ',' && s[1] && s[1] != '\n')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	if (*s == '\n' && s[1])
		return -EINVAL;
	return n;
}

void perfdev_cpulist_print(const uint64_t set[PERFDEV_CPUS_MAX / 64], char *buf, size_t len)
{
	size_t o = 0;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (int c = 0; c < PERFDEV_CPUS_MAX && o < len; c++) {
		int e = c;

		if (!(set[c / 64] & (1ULL << (c % 64))))
			continue;
		while (e + 1 < PERFDEV_CPUS_MAX && (set[(e + 1) / 64] & (1ULL << ((e + 1) % 64))))
			e++;
		o += (size_t)(e > c ? snprintf(buf + o, len - o, "%s%d-%d", o ? "," : "", c, e)
				    : snprintf(buf + o, len - o, "%s%d", o ? "," : "", c));
		c = e;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

int perfdev_pmu_read(struct perfdev *d, const char *dev, struct perfdev_pmu *pmu)
{
	char path[sizeof(PERFDEV_PMU_DIR) + 64], buf[4096];
	long long type;
	int n;

	memset(pmu, 0, sizeof(*pmu));
#define PMU_FILE(f) (snprintf(path, sizeof(path), PERFDEV_PMU_DIR "/%s/" f, dev), path)
	n = file_number(d, PMU_FILE("type"), &type);
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return n;
	pmu->present = true;
	pmu->type = (unsigned)type;
	n = d->ops->file(d, PMU_FILE("caps/pmu_name"), buf, sizeof(pmu->name));
	if (n > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		memcpy(pmu->name, buf, sizeof(pmu->name));
	}
	pmu->ldlat = d->ops->file(d, PMU_FILE("format/ldlat"), buf, sizeof(buf)) > 0;
	pmu->offcore_rsp = d->ops->file(d, PMU_FILE("format/offcore_rsp"), buf, sizeof(buf)) > 0;
	n = d->ops->file(d, PMU_FILE("cpus"), buf, sizeof(buf));
#undef PMU_FILE
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return n;
	n = perfdev_cpulist(buf, pmu->cpus);
	if (n < 0)
		return n;
	pmu->has_cpus = true;
	pmu->ncpu = n;
	return 0;
}

int perfdev_core_pmu(struct perfdev *d, struct perfdev_pmu *pmu)
{
	return perfdev_pmu_read(d, "cpu", pmu);
}

int perfdev_phys_node(struct perfdev *d, uint64_t phys)
{
	char buf[256], path[128], probe[16];
	unsigned long long bs;
	int n;

	if (!phys)
		return -1;
	if (!d->mem_block) {
		uint64_t online[PERFDEV_CPUS_MAX / 64];

		d->mem_block = UINT64_MAX;
		n = d->ops->file(d, "/sys/devices/system/memory/block_size_bytes", buf, sizeof(buf));
		if (n <= 0 || sscanf(buf, "%llx", &bs) != 1 || !bs)
			return -1;
		/* node/online is a list as a cpus file is, "0-3,5" */
		n = d->ops->file(d, "/sys/devices/system/node/online", buf, sizeof(buf));
		if (n <= 0 || perfdev_cpulist(buf, online) <= 0)
			return -1;
		memcpy(d->nodes, online, sizeof(d->nodes));
		d->mem_block = bs;
	}
	if (d->mem_block == UINT64_MAX)
		return -1;
	for (int k = 0; k < (int)sizeof(d->nodes) * 8; k++) {
		if (!(d->nodes[k / 64] >> (k % 64) & 1))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/memory%" PRIu64
			 "/phys_index", k, phys / d->mem_block);
		if (d->ops->file(d, path, probe, sizeof(probe)) > 0)
			return k;
	}
	return -1;
}
