/*
 * sim.h: the PMU simulator, a second implementation of the hardware.
 *
 * A register file per logical CPU where counters advance only as the
 * hardware would let them, driven by a workload profile that states the
 * ground truth.  Its tables (which MSRs exist, which event encodings count
 * what, which offcore-response bits are valid) are its own, written from the
 * SDM, and never shared with lattop's event tables (cpu/events/): a wrong
 * encoding in lattop must count nothing here, not agree with itself.
 *
 * It includes nothing of lattop's but this header.
 */
#ifndef LATTOP_SIM_H
#define LATTOP_SIM_H

#include <stddef.h>
#include <stdint.h>

struct sim;
struct sim_profile;

/*
 * Parse a profile file (format in the man page and tests/profiles/).
 * Returns NULL with "FILE:LINE: key: what is wrong" in @err on error.
 */
struct sim_profile *sim_profile_load(const char *path, char *err, size_t errlen);

/* Parse from memory; @name stands for the file name in messages. */
struct sim_profile *sim_profile_parse(const char *text, size_t len, const char *name,
				      char *err, size_t errlen);

/* The built-in profile: traffic that varies over time, so a demo looks alive. */
struct sim_profile *sim_profile_builtin(void);

void sim_profile_free(struct sim_profile *);

/*
 * A simulated machine of microarchitecture @uarch (one of sim_uarch_name())
 * running @profile (copied; may be freed after).
 */
struct sim *sim_new(const char *uarch, const struct sim_profile *profile,
		    char *err, size_t errlen);
void sim_free(struct sim *);

struct msrdev;
/*
 * The simulator behind the MSR device interface (cpu/msrdev.h), so that
 * --simulate runs exactly the code that runs on /dev/cpu.  The device does
 * not own @sim.
 */
struct msrdev *msrdev_sim_open(struct sim *, char *err, size_t errlen);

struct perfdev;
/*
 * A simulated Linux kernel's perf_event_open(2) over the simulated PMU,
 * behind the perf device interface (cpu/perfdev.h): its own tables of
 * what the kernel knows (sim_kernel.c), the ground truth from @sim.  The
 * device does not own @sim, and takes over its clock.
 */
struct perfdev *sim_kernel_open(struct sim *, char *err, size_t errlen);

/* The names sim_new accepts: the @i-th, or NULL past the last. */
const char *sim_uarch_name(size_t i);

/* Those names joined by ", " into @buf (truncated to @len). */
void sim_uarch_list(char *buf, size_t len);

int sim_ncpus(const struct sim *);
/* Topology of logical CPU @cpu (0..ncpus-1). */
void sim_topology(const struct sim *, int cpu, int *core, int *package, int *module);

/* CPUID of the simulated CPU: leaves 0, 1, 0xA, 0xB, 0x23, 0x80000000-0x80000004. */
void sim_cpuid(const struct sim *, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/*
 * ... as logical CPU @cpu reads it: on a hybrid part its own leaf 0xA and
 * 0x1A (its core type), and leaf 7's hybrid flag.  sim_cpuid() is CPU 0's.
 */
void sim_cpuid_on(const struct sim *, int cpu, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/* sim_cpuid_on() as a reader of every CPU's leaves (cpuid_set_read, cpu/uarch.h): @sim a struct sim. */
void sim_cpuid_cpu(const void *sim, int cpu, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/*
 * rdmsr/wrmsr on logical CPU @cpu: 0, -EIO for an MSR the CPU lacks, a
 * reserved bit set or a read-only register written (the hardware's #GP),
 * -ENXIO for a CPU out of range.  Counters advance to "now" on every access.
 */
int sim_rdmsr(struct sim *, int cpu, uint32_t reg, uint64_t *val);
int sim_wrmsr(struct sim *, int cpu, uint32_t reg, uint64_t val);

/*
 * What the simulated machine saw software do that the hardware leaves
 * undefined, counted since sim_new().  Tests assert these stay zero.
 */
struct sim_stats {
	/*
	 * Writes to IA32_PERFEVTSELx, IA32_PMCx (or IA32_A_PMCx) or
	 * MSR_PEBS_LD_LAT_THRESHOLD of a counter counting with PEBS and
	 * load latency (EN, its IA32_PERF_GLOBAL_CTRL bit, PEBS_EN and LL_EN
	 * all set): its value is garbage from then on (sim.c).
	 */
	uint64_t pebs_write_while_counting;
	/*
	 * Writes to IA32_PEBS_ENABLE that set a bit of 32 and up where it
	 * enables PEBS on a fixed counter (version 5: no LL_EN bits there).
	 */
	uint64_t pebs_fixed_enabled;
};

void sim_get_stats(struct sim *, struct sim_stats *);

/*
 * Time source, in seconds; CLOCK_MONOTONIC by default.  Tests install a
 * manual clock to make counts exact.
 */
void sim_set_clock(struct sim *, double (*now)(void *), void *arg);

#endif
