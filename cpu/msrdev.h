/*
 * msrdev.h: the MSR device interface.
 *
 * Everything that reads or writes a model-specific register goes through a
 * struct msrdev.  Three implementations exist:
 *   - msrdev_dir_open("/dev/cpu")   the kernel's msr driver (DIR/N/msr),
 *   - msrdev_dir_open(DIR)          the same semantics under --msr-dir,
 *   - msrdev_sim_open(sim)          the PMU simulator (sim/sim.h),
 *   - msrdev_cpus_open()            no register at all: the online CPUs and
 *                                   their topology, for the perf backend.
 *
 * Semantics are the msr driver's: an 8-byte read or write at offset = MSR
 * address; a register the CPU lacks fails with -EIO (the #GP the driver
 * turns into EIO); an offline CPU with -ENXIO.  Return values are 0 or a
 * negative errno; nothing here prints.
 *
 * Which registers may be written is not decided here: see msr_allow.h.
 */
#ifndef LATTOP_MSRDEV_H
#define LATTOP_MSRDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct msrdev;

/* One logical CPU as the device sees it. */
struct msrdev_cpu {
	int id;        /* Linux CPU number (the N of /dev/cpu/N/msr) */
	int core;      /* core id, unique within the package */
	int package;   /* physical package id */
	int module;    /* L2-sharing group (Silvermont/Airmont module), unique within the package */
};

struct msrdev_ops {
	int  (*read)(struct msrdev *, int cpu, uint32_t reg, uint64_t *val);
	int  (*write)(struct msrdev *, int cpu, uint32_t reg, uint64_t val);
	/* Open a CPU's file again after it was offline; NULL when there is none. */
	int  (*reopen)(struct msrdev *, int cpu);
	/*
	 * Take (@take) or test the machine-wide claim on a CPU's counters;
	 * -EBUSY with the holder's pid in *@holder (0: not known) when
	 * another process has it.  NULL: one process owns the device.
	 */
	int  (*lock)(struct msrdev *, int cpu, bool take, int *holder);
	void (*destroy)(struct msrdev *);
};

struct msrdev {
	const struct msrdev_ops *ops;
	const char *kind;          /* "msr" (/dev/cpu), "msr-dir", "simulator" */
	const char *path;          /* directory for msr and msr-dir, NULL otherwise */
	int ncpu;                  /* entries in cpu[] */
	struct msrdev_cpu *cpu;    /* sorted by id */
	void *priv;
};

static inline int msrdev_read(struct msrdev *d, int cpu, uint32_t reg, uint64_t *val)
{
	return d->ops->read(d, cpu, reg, val);
}

/* Callers write through msr_write() (msr_allow.h), which checks the allowlist. */
static inline int msrdev_write_raw(struct msrdev *d, int cpu, uint32_t reg, uint64_t val)
{
	return d->ops->write(d, cpu, reg, val);
}

/*
 * Claim CPU @cpu's counters for this process (@take), or only see who has
 * them: 0, or -EBUSY with the holder's pid in *@holder (0 when the kernel
 * cannot tell, from another PID namespace), or another negative errno.
 */
static inline int msrdev_lock(struct msrdev *d, int cpu, bool take, int *holder)
{
	*holder = 0;
	return d->ops->lock ? d->ops->lock(d, cpu, take, holder) : 0;
}

void msrdev_close(struct msrdev *);

/* Index into d->cpu[] of Linux CPU @id, or -1. */
int msrdev_index(const struct msrdev *, int id);

/*
 * Open every DIR/N/msr (N a decimal directory name).  Topology comes from
 * /sys/devices/system/cpu when DIR is /dev/cpu, and otherwise from the
 * optional text files DIR/N/core_id, DIR/N/physical_package_id and
 * DIR/N/module_id (defaults: core N, package 0, module = core).
 * Returns NULL with a one-line message in @err on failure.
 */
struct msrdev *msrdev_dir_open(const char *dir, char *err, size_t errlen);

/*
 * The online CPUs of /sys/devices/system/cpu and their topology, with no
 * msr file opened: what the perf backend needs, without root.  Every
 * register read or write fails with -EOPNOTSUPP.  NULL with a message on
 * failure.
 */
struct msrdev *msrdev_cpus_open(char *err, size_t errlen);

#endif
