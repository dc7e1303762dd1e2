/*
 * perfdev.h: the perf_event_open(2) device interface.
 *
 * Everything the perf backend asks of the kernel goes through a struct
 * perfdev: open an event, read it, act on it with an ioctl, close it, and
 * read the files where the kernel says what it offers (the paranoid level,
 * the core PMU and its format attributes).  Two implementations:
 *   - perfdev_sys_open()      the real system calls and files,
 *   - sim_kernel_open(sim)    the simulated kernel (sim/sim.h), with tables
 *                             of its own, over the simulated PMU.
 *
 * Semantics are the kernel's (pmu-facts 10): the same arguments, the same
 * descriptors, the same read formats and the same errors, as negative
 * errnos.  Nothing here prints or knows lattop's event tables: an event is
 * a struct perf_event_attr (cpu/perf_attr.h makes one from a row).
 */
#ifndef LATTOP_PERFDEV_H
#define LATTOP_PERFDEV_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/perf_event.h>

struct perfdev;

struct perfdev_ops {
	/* perf_event_open(2): a descriptor, or a negative errno. */
	int (*open)(struct perfdev *, const struct perf_event_attr *attr, pid_t pid, int cpu,
		    int group_fd, unsigned long flags);
	/* read(2) of a descriptor: the bytes read (0: an event in error), or a negative errno. */
	ssize_t (*read)(struct perfdev *, int fd, void *buf, size_t len);
	/* ioctl(2) with an integer argument (ENABLE, DISABLE, RESET): 0 or a negative errno. */
	int (*ioctl)(struct perfdev *, int fd, unsigned long request, unsigned long arg);
	int (*close)(struct perfdev *, int fd);
	/*
	 * The text of a kernel file (an absolute path under /proc/sys/kernel,
	 * /sys/bus/event_source or /sys/devices/system/{node,memory}): its
	 * length, or a negative errno
	 * (-ENOENT: the kernel has no such file).
	 */
	int (*file)(struct perfdev *, const char *path, char *buf, size_t len);
	/*
	 * mmap(2) of a sampling descriptor's ring buffer, @len bytes (one
	 * control page and 2^n data pages), readable and writable so that the
	 * kernel never writes over what is not read (pmu-facts 10.5): 0 and
	 * the mapping in *@map, or a negative errno.  munmap undoes it.
	 */
	int (*mmap)(struct perfdev *, int fd, size_t len, void **map);
	void (*munmap)(struct perfdev *, int fd, void *map, size_t len);
	/*
	 * The threads of process @pid now (/proc/PID/task): up to @max TIDs
	 * into @tids, and how many it has, or a negative errno (-ESRCH: no
	 * such process).  NULL: the device knows no tasks.
	 */
	int (*tasks)(struct perfdev *, pid_t pid, int *tids, int max);
	void (*destroy)(struct perfdev *);
};

#define PERFDEV_CPUS_MAX 1024   /* as CPUSET_MAX (cpu/uarch.h) */

struct perfdev {
	const struct perfdev_ops *ops;
	const char *kind;          /* "perf" (the kernel) or "simulator" */
	void *priv;
	/*
	 * perfdev_phys_node()'s: the memory block size (0: not read yet,
	 * UINT64_MAX: not known) and the nodes online (node/online, as a
	 * cpus list), read once: neither changes but by hotplug.
	 */
	uint64_t mem_block;
	uint64_t nodes[PERFDEV_CPUS_MAX / 64];
};

static inline int perfdev_open_event(struct perfdev *d, const struct perf_event_attr *attr,
				     pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	return d->ops->open(d, attr, pid, cpu, group_fd, flags);
}

static inline int perfdev_ioctl(struct perfdev *d, int fd, unsigned long request,
				unsigned long arg)
{
	return d->ops->ioctl(d, fd, request, arg);
}

static inline int perfdev_close_event(struct perfdev *d, int fd)
{
	return d->ops->close(d, fd);
}

static inline int perfdev_mmap(struct perfdev *d, int fd, size_t len, void **map)
{
	return d->ops->mmap(d, fd, len, map);
}

static inline void perfdev_munmap(struct perfdev *d, int fd, void *map, size_t len)
{
	d->ops->munmap(d, fd, map, len);
}

static inline int perfdev_tasks(struct perfdev *d, pid_t pid, int *tids, int max)
{
	return d->ops->tasks ? d->ops->tasks(d, pid, tids, max) : -ENOSYS;
}

/* The page size rings are counted in (the kernel's, or the simulated kernel's 4 KiB). */
#define PERFDEV_PAGE 4096

/* The kernel's own system calls and files.  NULL with a message on failure. */
struct perfdev *perfdev_sys_open(char *err, size_t errlen);

void perfdev_close(struct perfdev *d);

/* The most events one group read returns here. */
#define PERFDEV_GROUP_MAX 16

/*
 * One read of an event or a group, by its read_format (pmu-facts 10.4):
 * the values of its members in order, and the times, when asked for.  The
 * kernel never resets the times (PERF_EVENT_IOC_RESET zeroes the values
 * only): a reader takes deltas of both.
 */
struct perfdev_counts {
	int nr;                                /* values read: 1, or the group's members */
	uint64_t enabled, running;             /* ns; 0 when not in read_format */
	uint64_t value[PERFDEV_GROUP_MAX];
	uint64_t id[PERFDEV_GROUP_MAX];        /* with PERF_FORMAT_ID */
	uint64_t lost[PERFDEV_GROUP_MAX];      /* with PERF_FORMAT_LOST */
};

/*
 * Read descriptor @fd opened with @read_format into @c: 0, -ENODATA when
 * the kernel returned nothing (a pinned event in error), -EIO for a short
 * or malformed answer, or the read's negative errno.
 */
int perfdev_read_counts(struct perfdev *d, int fd, uint64_t read_format,
			struct perfdev_counts *c);

/*
 * Parse the answer of a read (@buf, @len bytes) by @read_format; what
 * perfdev_read_counts does after reading, for an answer in hand.
 */
int perfdev_parse_counts(const void *buf, size_t len, uint64_t read_format,
			 struct perfdev_counts *c);

/* kernel.perf_event_paranoid, or a negative errno when it cannot be read. */
#define PERFDEV_PARANOID "/proc/sys/kernel/perf_event_paranoid"
int perfdev_paranoid(struct perfdev *d, int *level);

/*
 * A PMU of the kernel, /sys/bus/event_source/devices/<dev>: whether it
 * exists, its type (attr.type), its pmu_name (caps/pmu_name, "" when
 * absent), the format attributes the backend uses (pmu-facts 10.1) and,
 * where it has a cpus file (a hybrid part's PMUs: one per core type,
 * pmu-facts 9.6), the CPUs its events may be opened on.  The core PMU of a
 * part that is not hybrid is "cpu"; a hybrid's are "cpu_core" (type
 * PERF_TYPE_RAW), "cpu_atom" and "cpu_lowpower" (types the kernel gives
 * at boot): the kernel refuses an event of one on a CPU of another with
 * ENOENT (x86_pmu_event_init).
 */
#define PERFDEV_PMU_DIR "/sys/bus/event_source/devices"
#define PERFDEV_CORE_PMU PERFDEV_PMU_DIR "/cpu"
struct perfdev_pmu {
	bool present;
	unsigned type;
	char name[64];
	bool ldlat, offcore_rsp;
	bool has_cpus;                          /* a cpus file: the CPUs below */
	int ncpu;
	uint64_t cpus[PERFDEV_CPUS_MAX / 64];   /* bit i: Linux CPU i */
};
int perfdev_pmu_read(struct perfdev *d, const char *dev, struct perfdev_pmu *pmu);
int perfdev_core_pmu(struct perfdev *d, struct perfdev_pmu *pmu);

/*
 * A CPU list as sysfs writes it (the kernel's "%*pbl": "0-15,24\n", an
 * empty line for none) into bitmap @set: the number of CPUs it names, or
 * -EINVAL for anything else (a CPU at PERFDEV_CPUS_MAX or above, a range
 * backwards, a stray character).
 */
int perfdev_cpulist(const char *s, uint64_t set[PERFDEV_CPUS_MAX / 64]);

/* Bitmap @set as a CPU list ("0-3,8") into @buf: "none" when empty. */
void perfdev_cpulist_print(const uint64_t set[PERFDEV_CPUS_MAX / 64], char *buf, size_t len);

/*
 * The NUMA node holding physical address @phys, as the kernel's files say
 * it: its memory block (/sys/devices/system/memory/block_size_bytes) is
 * one of node N's (/sys/devices/system/node/nodeN/memoryB, N among
 * node/online).  -1: not known (@phys 0, no such files, no node has it).
 */
int perfdev_phys_node(struct perfdev *d, uint64_t phys);

#endif
