/*
 * sim_kernel_pmu.c: the simulated kernel's core PMUs: which case of
 * intel_pmu_init a model gets (sk_pmus[], sk_hybrids[] of sim_kernel_tab.c),
 * the counters each reads from CPUID on a CPU of its own, which PMU each
 * CPU is under, and the kernel's files lattop reads (sysfs, procfs).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_kernel_int.h"

/* A hybrid PMU's cpus file: its supported_cpus as "%*pbl" (intel_hybrid_get_attr_cpus). */
static int sk_cpus_file(const struct sk *k, const struct sk_core *co, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int c = 0; c < k->ncpus && o < len; c++) {
		int e = c;

		if (sk_core_of(k, c) != co)
			continue;
		while (e + 1 < k->ncpus && sk_core_of(k, e + 1) == co)
			e++;
		o += (size_t)(e > c ? snprintf(buf + o, len - o, "%s%d-%d", o ? "," : "", c, e)
				    : snprintf(buf + o, len - o, "%s%d", o ? "," : "", c));
		c = e;
	}
	return o < len ? snprintf(buf + o, len - o, "\n") + (int)o : (int)len;
}

/*
 * The kernel's files: the paranoid level, and each core PMU's type, name,
 * formats and (a hybrid part's) CPUs, under its own name: "cpu", or
 * "cpu_core" and "cpu_atom" on a hybrid part, which has no "cpu".
 */
int sk_file(struct perfdev *d, const char *path, char *buf, size_t len)
{
	struct sk *k = sk_of(d);
	static const char pmus[] = "/sys/bus/event_source/devices/";
	const struct sk_core *co = NULL;
	const char *rest = NULL;
	int n = -ENOENT;

	if (len == 0)
		return -EINVAL;
	if (!strcmp(path, "/proc/sys/kernel/perf_event_paranoid"))
		n = snprintf(buf, len, "%d\n", k->paranoid);
	else if (!strcmp(path, "/proc/sys/kernel/nmi_watchdog"))
		n = snprintf(buf, len, "%d\n", sim_profile_of(k->sim)->cpu[0].perf_nmi_watchdog);
	for (int i = 0; i < k->ncore && !strncmp(path, pmus, sizeof(pmus) - 1); i++) {
		size_t l = strlen(k->core[i].dev);

		if (!strncmp(path + sizeof(pmus) - 1, k->core[i].dev, l) &&
		    path[sizeof(pmus) - 1 + l] == '/') {
			co = &k->core[i];
			rest = path + sizeof(pmus) + l;
		}
	}
	if (co) {
		if (!strcmp(rest, "type"))
			n = snprintf(buf, len, "%u\n", co->type);
		else if (!strcmp(rest, "cpus") && co->hybrid)
			n = sk_cpus_file(k, co, buf, len);
		else if (!strcmp(rest, "caps/pmu_name"))
			n = snprintf(buf, len, "%s\n", co->pmu->name);
		else if (!strcmp(rest, "format/offcore_rsp"))
			n = snprintf(buf, len, "config1:0-63\n");
		else if (!strcmp(rest, "format/ldlat") && co->pmu->ldlat_format)
			n = snprintf(buf, len, "config1:0-15\n");
		else if (!strcmp(rest, "perf_event_mux_interval_ms"))
			n = snprintf(buf, len, "%d\n", (int)(SK_MUX_S * 1000));
	} else if (!strcmp(path, "/sys/bus/event_source/devices/msr/type")) {
		n = snprintf(buf, len, "%d\n", SK_MSR_PMU_TYPE);
	} else if (!strncmp(path, "/sys/devices/system/", 20)) {
		n = sim_node_file(sim_profile_of(k->sim), path + 20, buf, len);
	}
	return n < 0 ? n : (int)((size_t)n < len ? (size_t)n : len - 1);
}

/*
 * Core PMU @co as the kernel reads its counters (intel_pmu_init: CPUID
 * leaf 0xA, on a CPU of its own), @gp_add more general-purpose ones; or
 * leaf 0x23.1's GP bitmap when leaf 0x23.0 says subleaf 1 is valid (K612
 * update_pmu_cap: cntr_mask64 from it; Lion Cove's 10, pmu-facts 9.1).
 */
static void sk_counters_of(struct sk *k, struct sk_core *co, int cpu, unsigned gp_add)
{
	unsigned gpw, fxw;
	uint32_t r[4], l23[4];
	bool has23;

	sim_cpuid_on(k->sim, cpu, 0xa, 0, r);
	co->version = r[0] & 0xff;
	co->ngp = ((r[0] >> 8) & 0xff) + gp_add;
	gpw = (r[0] >> 16) & 0xff;
	co->nfixed = r[3] & 0x1f;
	fxw = (r[3] >> 5) & 0xff;
	sim_cpuid_on(k->sim, cpu, 0, 0, l23);
	has23 = l23[0] >= 0x23;
	if (has23)
		sim_cpuid_on(k->sim, cpu, 0x23, 0, l23);
	if (has23 && (l23[0] & 2)) {
		sim_cpuid_on(k->sim, cpu, 0x23, 1, l23);
		co->ngp = l23[0] ? 32 - (unsigned)__builtin_clz(l23[0]) : 0;   /* fls() */
	}
	if (co->ngp > SIM_MAX_GP)
		co->ngp = SIM_MAX_GP;
	if (co->nfixed > SIM_MAX_FIXED)
		co->nfixed = SIM_MAX_FIXED;
	co->gp_mask = gpw >= 64 ? ~0ULL : (1ULL << gpw) - 1;
	co->fx_mask = fxw >= 64 ? ~0ULL : (1ULL << fxw) - 1;
}

/* The core PMU "cpu", PERF_TYPE_RAW, of every CPU (a part that is not hybrid).  0 or -1. */
int sk_core_pmu(struct sk *k, unsigned family, unsigned model)
{
	struct sk_core *co = &k->core[0];

	for (size_t i = 0; family == 6 && i < sk_npmus && !co->pmu; i++)
		for (const uint8_t *m = sk_pmus[i].models; *m; m++)
			if (*m == model)
				co->pmu = &sk_pmus[i];
	if (!co->pmu)
		return -1;
	co->dev = "cpu";
	co->type = PERF_TYPE_RAW;
	k->ncore = 1;
	sk_counters_of(k, co, 0, 0);
	return 0;
}

/*
 * A hybrid part's PMUs (init_hw_perf_events): the big one PERF_TYPE_RAW,
 * the others types from SK_DYN_PMU_TYPE on; each CPU under the one of its
 * CPUID.1AH (find_hybrid_pmu_for_cpu, at CPU starting), or, with the
 * profile's perf_pmu_swap, under another: a kernel whose cpus files
 * disagree with CPUID.  0, or -1 when the part has none here.
 */
int sk_hybrid_pmus(struct sk *k, unsigned family, unsigned model)
{
	const struct sim_profile *prof = sim_profile_of(k->sim);
	const struct sk_hybrid *h = NULL;
	unsigned dyn = SK_DYN_PMU_TYPE;
	uint32_t r[4];

	for (size_t i = 0; family == 6 && i < sk_nhybrids && !h; i++)
		for (const uint8_t *m = sk_hybrids[i].models; *m && !h; m++)
			if (*m == model)
				h = &sk_hybrids[i];
	if (!h)
		return -1;
	k->ncore = h->npmus;
	for (int i = 0; i < h->npmus; i++) {
		k->core[i].pmu = h->pmu[i].pmu;
		k->core[i].dev = h->pmu[i].dev;
		k->core[i].type = h->pmu[i].big ? PERF_TYPE_RAW : dyn++;
		k->core[i].hybrid = true;
	}
	for (int c = 0; c < k->ncpus; c++) {
		int p = -1;

		sim_cpuid_on(k->sim, c, 0x1a, 0, r);
		for (int i = 0; i < h->npmus && p < 0; i++)
			if (h->pmu[i].core_type == r[0] >> 24 &&
			    (!h->pmu[i].native || h->pmu[i].native == (r[0] & 0xffffff)))
				p = i;
		if (p < 0)
			return -1;
		if (prof->cpu[c].perf_pmu_swap)
			p = (p + 1) % h->npmus;
		k->cpu[c].core = p;
	}
	/* Each PMU's counters, read on a CPU of its type (by CPUID, not the kernel's list). */
	for (int i = 0; i < h->npmus; i++)
		for (int c = 0; c < k->ncpus; c++) {
			sim_cpuid_on(k->sim, c, 0x1a, 0, r);
			if (h->pmu[i].core_type == r[0] >> 24 &&
			    (!h->pmu[i].native || h->pmu[i].native == (r[0] & 0xffffff))) {
				sk_counters_of(k, &k->core[i], c, h->pmu[i].gp_add);
				break;
			}
		}
	return 0;
}

/* The version 6 MSR range (K612 msr-index.h MSR_IA32_PMC_V6_*, step 4). */
uint32_t sk_pmc_reg(const struct sk_core *co, unsigned i)
{
	return co->version >= 6 ? 0x1900 + 4 * i : 0xc1 + i;
}

uint32_t sk_evtsel_reg(const struct sk_core *co, unsigned i)
{
	return co->version >= 6 ? 0x1901 + 4 * i : 0x186 + i;
}

uint32_t sk_fixed_reg(const struct sk_core *co, unsigned i)
{
	return co->version >= 6 ? 0x1980 + 4 * i : 0x309 + i;
}
