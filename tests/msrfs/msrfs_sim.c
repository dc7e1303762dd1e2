/*
 * msrfs_sim.c: the simulator backend of msrfs (--simulate UARCH), the PMU
 * simulator of sim/sim.h behind the msr files.
 *
 * Owns: the list of registers /state shows for a simulated CPU, and what
 * /stats shows of the simulator's statistics.  Every
 * register semantic (which exist, which are read-only, counter widths) is the
 * simulator's; nothing here second-guesses it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"
#include "tests/msrfs/msrfs.h"

/*
 * Registers /state lists when the simulated CPU has them: the counters and
 * their controls, in the legacy range or the version 6 one, whichever the
 * simulated CPU has.  Not IA32_A_PMCx (aliases of IA32_PMCx) nor the TSC
 * (always moving).  Ascending order.
 */
static const uint32_t sim_state_regs[] = {
	0x0c1, 0x0c2, 0x0c3, 0x0c4, 0x0c5, 0x0c6, 0x0c7, 0x0c8,   /* IA32_PMC0..7 */
	0x186, 0x187, 0x188, 0x189, 0x18a, 0x18b, 0x18c, 0x18d,   /* IA32_PERFEVTSEL0..7 */
	0x1a6, 0x1a7,                                             /* MSR_OFFCORE_RSP_0/1 */
	0x1d9,                                                    /* IA32_DEBUGCTL */
	0x309, 0x30a, 0x30b,                                      /* IA32_FIXED_CTR0..2 */
	0x38d, 0x38f,                              /* IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL */
	0x3f1, 0x3f6,                              /* IA32_PEBS_ENABLE, MSR_PEBS_LD_LAT_THRESHOLD */
	0x600,                                     /* IA32_DS_AREA */
	/* perfmon version 6 (Lunar Lake): IA32_PMC_GPi_CTR, _CFG_A, IA32_PMC_FXi_CTR (sim.c) */
	0x1900, 0x1901, 0x1904, 0x1905, 0x1908, 0x1909, 0x190c, 0x190d,
	0x1910, 0x1911, 0x1914, 0x1915, 0x1918, 0x1919, 0x191c, 0x191d,
	0x1920, 0x1921, 0x1924, 0x1925,                           /* PMC8, 9: Lion Cove's */
	0x1980, 0x1984, 0x1988,
};

static int simb_read(void *priv, int cpu, uint32_t reg, uint64_t *val)
{
	return sim_rdmsr(priv, cpu, reg, val);
}

static int simb_write(void *priv, int cpu, uint32_t reg, uint64_t val)
{
	return sim_wrmsr(priv, cpu, reg, val);
}

static void simb_topology(void *priv, int cpu, int *core, int *package, int *module)
{
	sim_topology(priv, cpu, core, package, module);
}

static void simb_state(void *priv, int cpu,
		       void (*emit)(void *arg, uint32_t reg, uint64_t val), void *arg)
{
	for (size_t i = 0; i < sizeof(sim_state_regs) / sizeof(sim_state_regs[0]); i++) {
		uint64_t v;

		if (sim_rdmsr(priv, cpu, sim_state_regs[i], &v) == 0)
			emit(arg, sim_state_regs[i], v);
	}
}

static void simb_stats(void *priv, void (*emit)(void *arg, const char *name, unsigned long long v),
		       void *arg)
{
	struct sim_stats st;

	sim_get_stats(priv, &st);
	emit(arg, "pebs_write_while_counting", (unsigned long long)st.pebs_write_while_counting);
}

static void simb_destroy(void *priv)
{
	sim_free(priv);
}

int msrfs_sim_open(struct msrfs_backend *b, const char *uarch, const char *profile,
		   char *err, size_t errlen)
{
	struct sim_profile *p;
	struct sim *sim;

	p = profile ? sim_profile_load(profile, err, errlen) : sim_profile_builtin();
	if (!p) {
		if (!profile)
			snprintf(err, errlen, "out of memory");
		return -1;
	}
	sim = sim_new(uarch, p, err, errlen);
	sim_profile_free(p);
	if (!sim)
		return -1;
	*b = (struct msrfs_backend){
		.ncpus = sim_ncpus(sim),
		.priv = sim,
		.read = simb_read,
		.write = simb_write,
		/* The simulator has no read-only bypass: another user's wrmsr. */
		.set = simb_write,
		.topology = simb_topology,
		.state = simb_state,
		.stats = simb_stats,
		.destroy = simb_destroy,
	};
	return 0;
}
