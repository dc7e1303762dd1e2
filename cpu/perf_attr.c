/*
 * perf_attr.c: an event-table row as a perf_event_attr (perf_attr.h).
 *
 * Owns perf_attr_of() and the kernel's encodings of the fixed counters'
 * events.  Opens nothing: cpu/perfdev.c and the simulated kernel do.
 */
#include <errno.h>
#include <string.h>

#include "cpu/events.h"
#include "cpu/perf_attr.h"
#include "cpu/uarch.h"

/*
 * The raw code the kernel schedules on each fixed counter: FIXED_CTR0
 * instructions 0x00c0, FIXED_CTR1 core cycles 0x003c, FIXED_CTR2 the
 * pseudo-encoding 0x0300 of reference cycles (K61 asm/perf_event.h,
 * FIXED_EVENT_CONSTRAINT in intel/core.c).
 */
static const uint64_t fixed_config[3] = { 0x00c0, 0x003c, 0x0300 };

int perf_attr_of(const struct pmu_event *e, unsigned ldlat, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_RAW;
	if (e->fixed != PMU_FIXED_NONE) {
		if (e->fixed < 0 || e->fixed > 2)
			return -EINVAL;
		attr->config = fixed_config[e->fixed];
		return 0;
	}
	attr->config = pmu_event_evtsel(e) & PERF_ATTR_RAW_MASK;
	if (e->offcore)
		attr->config1 = e->offcore_rsp;   /* format offcore_rsp = config1:0-63 */
	if (e->ldlat) {
		if (ldlat < 1 || ldlat > 0xffff)
			return -EINVAL;
		attr->config1 = ldlat;            /* format ldlat = config1:0-15 */
		attr->precise_ip = PERF_ATTR_LDLAT_PRECISE;
		attr->sample_period = PERF_ATTR_LDLAT_PERIOD;
	}
	return 0;
}

/*
 * Which PMU the kernel puts a CPU under, by its CPUID.1AH (K612
 * find_hybrid_pmu_for_cpu, intel_hybrid_pmu_type_map; K618 adds
 * cpu_lowpower for Arrow Lake-H): a Core CPU under cpu_core, an Atom CPU
 * under cpu_atom when the part has two PMUs; with three, the Atoms are
 * told apart by native model: Skymont (3) under cpu_atom, Crestmont (2)
 * under cpu_lowpower.  pmu-facts 9.6.  Keyed on the core type and the
 * native model alone, so that a part whose core types the tables learn
 * goes through perf with nothing added here.
 */
#define NATIVE_ANY 0xffffffffu
static const struct {
	uint8_t type;
	uint32_t native;        /* or NATIVE_ANY */
	int npmus;              /* a part of this many PMUs, 0: any */
	const char *pmu;
} perf_hybrid_pmus[] = {
	{ CORE_TYPE_CORE, NATIVE_ANY, 0, "cpu_core" },   /* hybrid_big: PERF_TYPE_RAW */
	{ CORE_TYPE_ATOM, NATIVE_ANY, 2, "cpu_atom" },
	{ CORE_TYPE_ATOM, 3, 3, "cpu_atom" },
	{ CORE_TYPE_ATOM, 2, 3, "cpu_lowpower" },
};

const char *perf_attr_pmu(uint8_t type, uint32_t native, int npmus)
{
	for (size_t i = 0; i < sizeof(perf_hybrid_pmus) / sizeof(perf_hybrid_pmus[0]); i++) {
		uint32_t n = perf_hybrid_pmus[i].native;

		if (perf_hybrid_pmus[i].type == type && (n == NATIVE_ANY || n == native) &&
		    (!perf_hybrid_pmus[i].npmus || perf_hybrid_pmus[i].npmus == npmus))
			return perf_hybrid_pmus[i].pmu;
	}
	return NULL;
}

const char *perf_attr_pmu_of(const struct cpu_desc *d, int t)
{
	if (!d->hybrid || !d->ntypes)
		return "cpu";
	return perf_attr_pmu(d->type[t].type, d->type[t].native, d->ntypes);
}

int perf_attr_cpus_differ(const struct cpu_desc *d, int t, const uint64_t *listed, uint64_t *off)
{
	int n = 0;

	memset(off, 0, CPUSET_MAX / 8);
	for (int c = 0; c < CPUSET_MAX; c++) {
		int tc = cpu_desc_type_of(d, c);
		bool in = listed[c / 64] & (1ULL << (c % 64));

		if (tc >= 0 && in != (tc == t)) {
			off[c / 64] |= 1ULL << (c % 64);
			n++;
		}
	}
	return n;
}

unsigned perf_attr_pmu_type(const char *pmu)
{
	return pmu && (!strcmp(pmu, "cpu") || !strcmp(pmu, perf_hybrid_pmus[0].pmu)) ?
	       PERF_TYPE_RAW : 0;
}
