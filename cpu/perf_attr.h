/*
 * perf_attr.h: an event-table row (events.h) as the kernel's
 * struct perf_event_attr, for the perf_event_open(2) backend.
 *
 * One pure function, no device: the encoding is data the tables already
 * hold (event, umask, edge, inv, cmask; the MSR_OFFCORE_RSP_x value; the
 * load-latency threshold), put where the kernel's format attributes say
 * (pmu-facts 10.1).  What a perf user adds around it (disabled, the read
 * format, groups) is the backend's, not this file's.
 * tests/test_events.c checks every row of every family against libpfm4's
 * own perf encoding (PFM_OS_PERF_EVENT_EXT).
 */
#ifndef LATTOP_PERF_ATTR_H
#define LATTOP_PERF_ATTR_H

#include <stdint.h>

#include <linux/perf_event.h>

struct pmu_event;

/*
 * The event select bits the kernel takes from config (X86_RAW_EVENT_MASK,
 * K61 asm/perf_event.h): event, umask, edge, inv, cmask.  USR, OS, INT and
 * EN come from the kernel itself (exclude_user, exclude_kernel).
 */
#define PERF_ATTR_RAW_MASK  0xff84ffffull

/*
 * The load-latency event is a PEBS event, and the kernel refuses
 * precise_ip on a counting event (K61 x86_pmu_hw_config: EINVAL): so it is
 * opened as a sampling event, with a fixed period (freq 0, the
 * auto-reload) so long that a PMI is rare, and read for its count
 * (pmu-facts 10.2; numatop does the same).  2^31 - 1 is the kernel's
 * max_period for every counter width (without full-width writes), so it
 * is never clipped.
 */
#define PERF_ATTR_LDLAT_PRECISE  1
#define PERF_ATTR_LDLAT_PERIOD   0x7fffffffull

/*
 * The attr that counts row @e, in rings 0 and 3; @ldlat is the load-latency
 * threshold in core cycles, read only for a load-latency row.  0, or
 * -EINVAL when @ldlat cannot go in the sysfs format ldlat (config1:0-15,
 * 1 to 65535).
 */
int perf_attr_of(const struct pmu_event *e, unsigned ldlat, struct perf_event_attr *attr);

/*
 * The kernel's PMU (its sysfs name, PERFDEV_PMU_DIR/<name>) that counts a
 * hybrid part's core type @type (CORE_TYPE_*) of native model @native,
 * on a part whose kernel has @npmus core PMUs (one per core type):
 * "cpu_core", "cpu_atom" or "cpu_lowpower"; NULL for a core type the
 * kernel has no PMU for.  A part that is not hybrid has one, "cpu".
 */
const char *perf_attr_pmu(uint8_t type, uint32_t native, int npmus);

/* The PMU of core type @t of @d (perf_attr_pmu), or "cpu" on a part that is not hybrid. */
struct cpu_desc;
const char *perf_attr_pmu_of(const struct cpu_desc *d, int t);

/*
 * The attr.type of PMU @pmu when it is fixed: PERF_TYPE_RAW for "cpu" and
 * a hybrid's big one, "cpu_core" (init_hw_perf_events); 0 for the others,
 * whose type the kernel gives at boot (its sysfs type file).
 */
unsigned perf_attr_pmu_type(const char *pmu);

/*
 * The CPUs a hybrid PMU's cpus list (@listed, a bitmap of CPUSET_MAX bits)
 * and CPUID (@d's core type @t) disagree on, into @off: listed but not of
 * the type, or of the type but not listed, among the CPUs whose CPUID @d
 * holds (one lattop did not read, offline or outside its affinity, is not
 * compared).  How many.
 */
int perf_attr_cpus_differ(const struct cpu_desc *d, int t, const uint64_t *listed, uint64_t *off);

#endif
