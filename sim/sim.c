/*
 * sim.c: the PMU simulator's register file (API in sim/sim.h).
 *
 * Owns the per-logical-CPU registers of a simulated machine, their lazy
 * advancement ("counters move to now on every access to a CPU"), the
 * counting rules (a counter counts only when programmed the way the
 * hardware needs), MSR_OFFCORE_RSP_x sharing between siblings, topology and
 * CPUID.  It reads every hardware fact from sim_hw.c and every rate from
 * sim_profile.c; it must not hold facts of its own nor include anything of
 * lattop's but sim.h.  A library: no globals, no printing, no exiting.
 *
 * Counting: each counter carries weights over the traffic of enum
 * sim_traffic, recomputed whenever a register it depends on changes; on an
 * access the CPU's traffic since its last access is integrated from the
 * profile and each counter adds its weighted sum, keeping the fraction
 * below one event so that counts stay exact under a manual clock.
 * Errata that change what a counter counts are modelled where the hardware
 * table names them (the HT bug, sim_hw.ht_bug_*); so is version 4's
 * counter freeze (IA32_DEBUGCTL, IA32_PERF_GLOBAL_STATUS.CTR_Frz).  So is
 * what the SDM leaves unpredictable: a load-latency counter reprogrammed
 * while it counts (sim_pebs_garble), counted in struct sim_stats.  The
 * machine's time runs the profile's time_scale times faster than the clock.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/sim_internal.h"

#define B(n) (1ULL << (n))

/* Architectural MSR addresses (pmu-facts §2, K-msr/K-pe). */
#define MSR_TSC                 0x10
#define MSR_BIOS_SIGN_ID        0x8b    /* bits 63:32: the microcode revision */
#define MSR_PMC0                0xc1
#define MSR_EVTSEL0             0x186
#define MSR_MISC_ENABLE         0x1a0
#define MSR_OFFCORE_RSP0        0x1a6
#define MSR_OFFCORE_RSP1        0x1a7
#define MSR_DEBUGCTL            0x1d9
#define MSR_FIXED_CTR0          0x309
#define MSR_PERF_CAPABILITIES   0x345
#define MSR_FIXED_CTR_CTRL      0x38d
#define MSR_GLOBAL_STATUS       0x38e
#define MSR_GLOBAL_CTRL         0x38f
#define MSR_GLOBAL_OVF_CTRL     0x390
#define MSR_GLOBAL_STATUS_SET   0x391   /* version 4 only */
#define MSR_GLOBAL_INUSE        0x392   /* version 4 only */
#define MSR_PEBS_ENABLE         0x3f1
#define MSR_PEBS_LD_LAT         0x3f6
#define MSR_A_PMC0              0x4c1
#define MSR_DS_AREA             0x600
#define MSR_V6_GP0_CTR          0x1900  /* version 6: GPi_CTR 0x1900 + 4i, CFG_A + 1 (§9.2) */
#define MSR_V6_FX0_CTR          0x1980  /* version 6: FXi_CTR 0x1980 + 4i */
#define SIM_NO_MSR              0xffffffffu

/* IA32_PERFEVTSELx bits (pmu-facts §2.1). */
#define EVTSEL_USR      B(16)
#define EVTSEL_OS       B(17)
#define EVTSEL_EDGE     B(18)
#define EVTSEL_INT      B(20)
#define EVTSEL_ANY      B(21)
#define EVTSEL_EN       B(22)
#define EVTSEL_INV      B(23)
#define EVTSEL_CMASK    (0xffULL << 24)
#define EVTSEL_IN_TX    B(32)   /* Haswell/Broadwell; IN_TX_CP (33) has no effect here */

/* IA32_FIXED_CTR_CTRL field bits (pmu-facts §2.2). */
#define FIXED_OS        0x1
#define FIXED_USR       0x2
#define FIXED_ANY       0x4
#define FIXED_PMI       0x8

/*
 * IA32_DEBUGCTL freeze bits (pmu-facts §2.3) and what they do on a
 * version 4 PMU: "streamlined" freezing sets IA32_PERF_GLOBAL_STATUS.CTR_Frz
 * (LBR_Frz) when a counter overflow raises a PMI, and every counter stops
 * until software clears the bit through IA32_PERF_GLOBAL_STATUS_RESET
 * (pmu-facts §2.2, §2.3: SDM16 p.665 Table 18-18; the kernel's removed
 * counter_freezing code, K-cf).  Version 3's legacy semantics are not
 * modelled: no hardware table here sets the bit on a version 3 PMU.
 */
#define DEBUGCTL_FREEZE_LBRS    B(11)
#define DEBUGCTL_FREEZE_PERFMON B(12)
#define STATUS_LBR_FRZ  B(58)
#define STATUS_CTR_FRZ  B(59)

/* IA32_MISC_ENABLE: bit 7 perfmon available, bit 12 PEBS unavailable (pmu-facts §2). */
#define MISC_EMON       B(7)
#define MISC_PEBS_UNAVAIL B(12)

/* A TSC that has been running for a while, as on a box that booted earlier. */
#define TSC_START       0x0000100000000000ULL

struct sim_ctr {
	uint64_t val;
	double acc;             /* events counted but not yet whole */
	bool on;
	bool any;               /* AnyThread: counts the whole core */
	double tag;             /* > 0: counts loads tagged at random with this probability */
	double w[SIM_T_N];
};

struct sim_cpu {
	double last;            /* time of the last advance */
	uint64_t tsc;
	double tsc_acc;
	struct sim_ctr gp[SIM_MAX_GP];
	struct sim_ctr fx[SIM_MAX_FIXED];
	uint64_t evtsel[SIM_MAX_GP];
	uint64_t fixed_ctrl, global_ctrl, global_status;
	uint64_t pebs_enable, ld_lat, ds_area, debugctl, misc_enable;
	uint64_t bios_sign;     /* IA32_BIOS_SIGN_ID */
	bool active;            /* some counter counts */
	bool any_active;        /* ... with AnyThread */
	/*
	 * Its core type's hardware (a hybrid part's Core or Atom, else the
	 * part's) and what follows from it: counters, widths, valid bits.
	 */
	const struct sim_hw *hw;
	unsigned ngp, nfixed;
	uint64_t gp_mask, fx_mask, ctrl_valid, status_valid;
};

struct sim {
	const struct sim_hw *hw;
	struct sim_profile *prof;
	int ncpus, tpc, ncores;
	int packages;                   /* cores split evenly between them */
	bool server;                    /* packages >= 2: the family's server part */
	uint8_t stepping;               /* CPUID.1:EAX[3:0]: the part's, or the profile's */
	uint64_t rng;                   /* xorshift64* state, for load tagging */
	unsigned ngp, nfixed;
	uint64_t gp_mask, fx_mask;      /* counter width masks */
	uint64_t ctrl_valid;            /* IA32_PERF_GLOBAL_CTRL */
	uint64_t status_valid;          /* GLOBAL_STATUS / OVF_CTRL / STATUS_SET */
	struct sim_cpu *cpu;
	int *dom;                       /* offcore-RSP domain of each CPU */
	int *dom_first, *dom_cpus;      /* members of domain d: dom_cpus[dom_first[d]..dom_first[d + 1]) */
	int ndom;
	uint64_t (*rsp)[2];
	double (*now)(void *);
	void *now_arg;
	double epoch;
	struct sim_stats stats;
	pthread_mutex_t lock;
};

static double sim_clock_monotonic(void *arg)
{
	struct timespec ts;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t width_mask(unsigned width)
{
	return width >= 64 ? ~0ULL : (1ULL << width) - 1;
}

static int sim_core(const struct sim *sim, int cpu)
{
	return cpu % sim->ncores;
}

/* Add @inc events to a counter; true when it wrapped at @mask. */
static bool sim_count(uint64_t *val, double *acc, double inc, uint64_t mask)
{
	double whole;
	uint64_t u, sum;

	*acc += inc;
	/*
	 * Fuzzing found: a huge rate (loads_per_sec = 1.7e308) makes @acc inf,
	 * then inf - inf = NaN, and (uint64_t)NaN is undefined.  Saturate.
	 */
	if (!isfinite(*acc))
		*acc = 0x1p62;
	whole = floor(*acc + 1e-6 + fabs(*acc) * 1e-14);
	if (whole < 1)
		return false;
	*acc -= whole;
	u = whole >= 0x1p62 ? (1ULL << 62) : (uint64_t)whole;
	sum = (*val & mask) + u;
	*val = sum & mask;
	return sum > mask;
}

static double sim_split(const struct sim_params *prm, bool usr, bool os)
{
	if (usr && os)
		return 1;
	if (usr)
		return prm->user_fraction;
	if (os)
		return 1 - prm->user_fraction;
	return 0;
}

static bool weights_nonzero(const double w[SIM_T_N])
{
	int k;

	for (k = 0; k < SIM_T_N; k++)
		if (w[k] != 0)
			return true;
	return false;
}

/* Is GP counter @i of some other thread of @c's core counting (EN and its global enable)? */
static bool sim_sibling_on(const struct sim *sim, int c, unsigned i)
{
	int core = sim_core(sim, c), k;

	for (k = 0; k < sim->tpc; k++) {
		const struct sim_cpu *o = &sim->cpu[core + k * sim->ncores];

		if (core + k * sim->ncores != c && (o->evtsel[i] & EVTSEL_EN) && (o->global_ctrl & B(i)))
			return true;
	}
	return false;
}

/*
 * The HT bug (sim_hw.ht_bug_first..last, HSD29): what share of its own
 * thread's events an affected event still counts on counter i while the
 * sibling's counter i is enabled, whoever enabled it (a profile's preset,
 * another agent, the tool on either thread).  The erratum says only that
 * the counts are wrong; J. McCalpin's measurements (facts §6, MCC) saw
 * events dropped or attributed to the sibling.  The simulator drops half of
 * them: a plan that lets siblings share the counter reads half the loads.
 */
#define SIM_HT_BUG_KEEP 0.5

/*
 * What a plain event kind counts: all of these traffics, once each.  0: a
 * kind with rules of its own (load latency, offcore response).
 */
static const uint32_t sim_kind_traffic[] = {
	[SIM_EV_CYCLES]      = B(SIM_T_CYC),
	[SIM_EV_INST]        = B(SIM_T_INST),
	[SIM_EV_LOADS]       = B(SIM_T_LOADS),
	[SIM_EV_OFF_REQ]     = B(SIM_T_RD),
	[SIM_EV_OFF_OUTST]   = B(SIM_T_OUTST),
	[SIM_EV_HITM_LOADS]  = B(SIM_T_HITM) | B(SIM_T_HITM_MOD),
	[SIM_EV_HIT_LOADS]   = B(SIM_T_CLEAN),
	[SIM_EV_RHIT_LOADS]  = B(SIM_T_RHIT),
	[SIM_EV_RHITM_LOADS] = B(SIM_T_RHITM),
	[SIM_EV_L3_HITM_LOADS] = B(SIM_T_HITM),
};

/* What GP counter @i of @cpu counts, from the registers it depends on. */
static void sim_decode_gp(struct sim *sim, int c, unsigned i)
{
	const struct sim_hw *hw = sim->cpu[c].hw;
	struct sim_cpu *cpu = &sim->cpu[c];
	struct sim_ctr *ctr = &cpu->gp[i];
	const struct sim_params *prm = &sim->prof->cpu[c];
	uint64_t sel = cpu->evtsel[i];
	const struct sim_event *ev;
	double s, rw[SIM_T_N] = { 0 };
	int k;

	ctr->on = ctr->any = false;
	ctr->tag = 0;
	memset(ctr->w, 0, sizeof(ctr->w));
	if (!(sel & EVTSEL_EN) || !(cpu->global_ctrl & B(i)))
		return;
	s = sim_split(prm, sel & EVTSEL_USR, sel & EVTSEL_OS);
	if (s == 0)
		return;
	/*
	 * No transactions in the simulated workload: IN_TX (count only inside
	 * one) sees nothing; IN_TX_CP (drop counts of aborted ones) changes nothing.
	 */
	if (sel & EVTSEL_IN_TX)
		return;
	/* No simulated event is defined with edge, invert or a counter mask. */
	if (sel & (EVTSEL_EDGE | EVTSEL_INV | EVTSEL_CMASK))
		return;
	ev = sim_hw_event(hw, sim->server, sel & 0xff, (sel >> 8) & 0xff);
	if (!ev || !(ev->counters & B(i)))
		return;
	ctr->any = (sel & EVTSEL_ANY) && hw->any_thread && sim->tpc > 1;
	switch (ev->kind) {
	case SIM_EV_LOAD_LAT:
		/*
		 * Seed 000: PEBS_EN and LL_EN of the counter, CMASK = INV = 0
		 * (checked above), threshold >= 3; PEBS wants AnyThread = 0
		 * (pmu-facts §2.1).  Counts loads with latency > threshold.
		 */
		if (!hw->has_ld_lat || (sel & EVTSEL_ANY))
			return;
		if (!(cpu->pebs_enable & B(i)) ||
		    (!hw->pebs_fixed && !(cpu->pebs_enable & B(32 + i))))
			return;
		if (cpu->ld_lat < 3)
			return;
		/*
		 * Only tagged loads count: "load operations are randomly selected
		 * by hardware and tagged" (seed 000; SDM16 18.9.4.2 "counts only
		 * tagged retired loads"; facts §8.1), at a rate the profile sets
		 * and lattop cannot know.  Each load is tagged on its own, so the
		 * count is binomial (sim_advance adds the noise).
		 */
		ctr->tag = prm->ldlat_tagged_fraction;
		ctr->w[SIM_T_LOADS] = s * ctr->tag *
				      sim_profile_above(sim->prof, c, (double)cpu->ld_lat);
		break;
	case SIM_EV_RSP0:
	case SIM_EV_RSP1:
		k = ev->kind == SIM_EV_RSP1;
		if (k >= hw->nrsp)
			return;
		sim_hw_rsp_weights(hw, k, sim->rsp[sim->dom[c]][k], rw);
		for (k = 0; k < SIM_T_N; k++)
			ctr->w[k] = s * rw[k];
		break;
	default:
		if (ev->kind >= sizeof(sim_kind_traffic) / sizeof(sim_kind_traffic[0]))
			return;
		for (k = 0; k < SIM_T_N; k++)
			if (sim_kind_traffic[ev->kind] & B(k))
				ctr->w[k] = s;
		break;
	}
	if (hw->ht_bug_last && ev->event >= hw->ht_bug_first && ev->event <= hw->ht_bug_last &&
	    sim->tpc > 1 && sim_sibling_on(sim, c, i))
		for (k = 0; k < SIM_T_N; k++)
			ctr->w[k] *= SIM_HT_BUG_KEEP;
	ctr->on = weights_nonzero(ctr->w);
}

/* FIXED_CTR0 = instructions, 1 = core cycles, 2 = reference cycles (pmu-facts §2). */
static void sim_decode_fixed(struct sim *sim, int c, unsigned i)
{
	static const int what[SIM_MAX_FIXED] = { SIM_T_INST, SIM_T_CYC, SIM_T_REF };
	struct sim_cpu *cpu = &sim->cpu[c];
	struct sim_ctr *ctr = &cpu->fx[i];
	unsigned field = (cpu->fixed_ctrl >> (4 * i)) & 0xf;
	double s = sim_split(&sim->prof->cpu[c], field & FIXED_USR, field & FIXED_OS);

	ctr->on = ctr->any = false;
	memset(ctr->w, 0, sizeof(ctr->w));
	if (s == 0 || !(cpu->global_ctrl & B(32 + i)))
		return;
	ctr->w[what[i]] = s;
	ctr->any = (field & FIXED_ANY) && sim->cpu[c].hw->any_thread && sim->tpc > 1;
	ctr->on = true;
}

static void sim_decode(struct sim *sim, int c)
{
	struct sim_cpu *cpu = &sim->cpu[c];
	unsigned i;

	cpu->active = cpu->any_active = false;
	for (i = 0; i < sim->cpu[c].ngp; i++) {
		sim_decode_gp(sim, c, i);
		cpu->active |= cpu->gp[i].on;
		cpu->any_active |= cpu->gp[i].on && cpu->gp[i].any;
	}
	for (i = 0; i < sim->cpu[c].nfixed; i++) {
		sim_decode_fixed(sim, c, i);
		cpu->active |= cpu->fx[i].on;
		cpu->any_active |= cpu->fx[i].on && cpu->fx[i].any;
	}
}

static double dot(const double w[SIM_T_N], const double t[SIM_T_N])
{
	double s = 0;
	int k;

	for (k = 0; k < SIM_T_N; k++)
		if (w[k])       /* fuzzing found: 0 * inf (a huge rate counted by nothing) is NaN */
			s += w[k] * t[k];
	return s;
}

/* A uniform double in (0, 1), xorshift64* (Vigna). */
static double sim_uniform(struct sim *sim)
{
	uint64_t x = sim->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	sim->rng = x;
	return ((double)((x * 0x2545F4914F6CDD1DULL) >> 11) + 0.5) * 0x1p-53;
}

/*
 * Tagged loads among loads that would count: binomial with @mean = n * p;
 * for the millions of loads of an access it is normal, variance n p (1 - p)
 * = mean (1 - p) (Box-Muller).
 */
static double sim_tagged(struct sim *sim, double mean, double p)
{
	double z, v;

	if (!(mean > 0))
		return 0;
	z = sqrt(-2 * log(sim_uniform(sim))) * cos(2 * M_PI * sim_uniform(sim));
	v = mean + z * sqrt(mean * (1 - p));
	return v > 0 ? v : 0;
}

/* Version 4: counters stopped by CTR_Frz, whoever set it (see DEBUGCTL_FREEZE_PERFMON). */
static bool sim_frozen(const struct sim *sim, const struct sim_cpu *cpu)
{
	(void)sim;      /* the CPU's own hardware: a hybrid's types differ */
	return sim_hw_version(cpu->hw) >= 4 && (cpu->global_status & STATUS_CTR_FRZ);
}

/*
 * Versions 2 and 3: the legacy freeze (SDM 2009 p.18-16 and p.18-19).
 * With IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI set, a PMI clears every enable
 * bit of IA32_PERF_GLOBAL_CTRL, and the PMI's handler is to set them
 * again; no status bit says it happened.  The handler here is another
 * agent's, whose counter raised the PMI: it sets again the bits of its own
 * counters, those that raise PMIs (INT in the select, PMI in the fixed
 * field), and no other.  Whoever never asks for a PMI stays stopped.
 */
static void sim_legacy_freeze(struct sim *sim, int c, struct sim_cpu *cpu)
{
	uint64_t own = 0;
	unsigned i;

	for (i = 0; i < sim->cpu[c].ngp; i++)
		if (cpu->evtsel[i] & EVTSEL_INT)
			own |= B(i);
	for (i = 0; i < sim->cpu[c].nfixed; i++)
		if ((cpu->fixed_ctrl >> (4 * i)) & FIXED_PMI)
			own |= B(32 + i);
	cpu->global_ctrl &= own;
	sim_decode(sim, c);
}

/*
 * A counter with its PMI bit set overflowed: a PMI.  Nothing here takes it
 * (no APIC is simulated); it freezes what IA32_DEBUGCTL asks: on version 4
 * through CTR_Frz, before it through GLOBAL_CTRL (sim_legacy_freeze).  The
 * counts of the access that overflowed stay whole: the freeze takes effect
 * from the next one.
 */
static void sim_pmi(struct sim *sim, int c, struct sim_cpu *cpu)
{
	if (sim_hw_version(sim->cpu[c].hw) < 4) {
		if (cpu->debugctl & DEBUGCTL_FREEZE_PERFMON)
			sim_legacy_freeze(sim, c, cpu);
		return;
	}
	if (cpu->debugctl & DEBUGCTL_FREEZE_PERFMON)
		cpu->global_status |= STATUS_CTR_FRZ;
	if (cpu->debugctl & DEBUGCTL_FREEZE_LBRS)
		cpu->global_status |= STATUS_LBR_FRZ;
}

/* Bring @c's counters to @now. */
static void sim_advance(struct sim *sim, int c, double now)
{
	struct sim_cpu *cpu = &sim->cpu[c];
	double t0, t1, tr[SIM_T_N] = { 0 }, core[SIM_T_N];
	bool pmi = false;
	unsigned i;

	if (!(now > cpu->last))
		return;
	t0 = cpu->last - sim->epoch;
	t1 = now - sim->epoch;
	cpu->last = now;
	sim_profile_traffic(sim->prof, c, t0, t1, tr);
	sim_count(&cpu->tsc, &cpu->tsc_acc, tr[SIM_T_TSC], ~0ULL);
	if (!cpu->active || sim_frozen(sim, cpu))
		return;
	if (cpu->any_active) {
		int core_id = sim_core(sim, c), k;

		memcpy(core, tr, sizeof(core));
		for (k = 0; k < sim->tpc; k++) {
			int s = core_id + k * sim->ncores;

			if (s != c)
				sim_profile_traffic(sim->prof, s, t0, t1, core);
		}
	}
	for (i = 0; i < sim->cpu[c].ngp; i++) {
		struct sim_ctr *ctr = &cpu->gp[i];
		double inc;

		if (!ctr->on)
			continue;
		inc = dot(ctr->w, ctr->any ? core : tr);
		if (ctr->tag > 0 && ctr->tag < 1)
			inc = sim_tagged(sim, inc, ctr->tag);
		if (sim_count(&ctr->val, &ctr->acc, inc, sim->cpu[c].gp_mask)) {
			cpu->global_status |= B(i);
			pmi |= (cpu->evtsel[i] & EVTSEL_INT) != 0;
		}
	}
	for (i = 0; i < sim->cpu[c].nfixed; i++) {
		struct sim_ctr *ctr = &cpu->fx[i];

		if (ctr->on && sim_count(&ctr->val, &ctr->acc, dot(ctr->w, ctr->any ? core : tr),
					 sim->cpu[c].fx_mask)) {
			cpu->global_status |= B(32 + i);
			pmi |= ((cpu->fixed_ctrl >> (4 * i)) & FIXED_PMI) != 0;
		}
	}
	if (pmi)
		sim_pmi(sim, c, cpu);
}

static uint64_t sim_inuse(const struct sim *sim, const struct sim_cpu *cpu)
{
	uint64_t v = 0;

	(void)sim;
	unsigned i;

	for (i = 0; i < cpu->ngp; i++) {
		if (cpu->evtsel[i] & 0xff)
			v |= B(i);
		if (cpu->evtsel[i] & EVTSEL_INT)
			v |= B(63);
	}
	for (i = 0; i < cpu->nfixed; i++) {
		unsigned field = (cpu->fixed_ctrl >> (4 * i)) & 0xf;

		if (field)
			v |= B(32 + i);
		if (field & FIXED_PMI)
			v |= B(63);
	}
	return v;
}

/*
 * Perfmon version 6 (facts §9.2; the kernel's msr-index.h MSR_IA32_PMC_V6_*):
 * the counters, their selects (CFG_A) and the fixed counters in their own
 * range, 4 addresses apart, IA32_FIXED_CTR_CTRL and the global registers
 * where they were.  The kernel writes the counter as it writes IA32_A_PMCx,
 * at full width.  Whether the legacy addresses alias the new range is
 * UNVERIFIED: this simulator's version 6 parts have the new range only, a
 * legacy counter, select or fixed-counter address there does not exist
 * (-EIO), so a reader that used them would fail, not count by chance.
 * PMC8 and up (Lion Cove's PMC8/9) have no legacy address here on any
 * version: what they would be (0xC9, 0x18E, 0x4C9 + ...) is UNVERIFIED
 * (pmu-facts 9.10 item 2), so this file uses those addresses only inside,
 * as the names of the version 6 registers.
 * @reg as the rest of this file knows it: a version 6 address turned into
 * the legacy one of the same register, SIM_NO_MSR when it does not exist.
 */
static uint32_t sim_reg(const struct sim_hw *hw, uint32_t reg)
{
	bool v6 = sim_hw_version(hw) >= 6;
	uint32_t k;

	for (unsigned i = 0; i < 3; i++) {
		uint32_t base = i == 0 ? MSR_PMC0 : i == 1 ? MSR_A_PMC0 : MSR_EVTSEL0;

		if (reg >= base && reg < base + SIM_MAX_GP)
			return v6 || reg - base >= SIM_LEGACY_GP ? SIM_NO_MSR : reg;
	}
	if (reg >= MSR_FIXED_CTR0 && reg < MSR_FIXED_CTR0 + SIM_MAX_FIXED)
		return v6 ? SIM_NO_MSR : reg;
	if (reg >= MSR_V6_GP0_CTR && reg < MSR_V6_GP0_CTR + 4 * SIM_MAX_GP) {
		k = (reg - MSR_V6_GP0_CTR) / 4;
		if (!v6 || (reg - MSR_V6_GP0_CTR) % 4 > 1)
			return SIM_NO_MSR;
		return (reg - MSR_V6_GP0_CTR) % 4 ? MSR_EVTSEL0 + k : MSR_A_PMC0 + k;
	}
	if (reg >= MSR_V6_FX0_CTR && reg < MSR_V6_FX0_CTR + 4 * SIM_MAX_FIXED)
		return v6 && (reg - MSR_V6_FX0_CTR) % 4 == 0
		       ? MSR_FIXED_CTR0 + (reg - MSR_V6_FX0_CTR) / 4 : SIM_NO_MSR;
	return reg;
}

static int sim_read(struct sim *sim, int c, uint32_t reg, uint64_t *val)
{
	const struct sim_hw *hw = sim->cpu[c].hw;
	struct sim_cpu *cpu = &sim->cpu[c];
	bool v4 = sim_hw_version(hw) >= 4;

	reg = sim_reg(hw, reg);

	if (reg >= MSR_PMC0 && reg < MSR_PMC0 + sim->cpu[c].ngp) {
		*val = cpu->gp[reg - MSR_PMC0].val;
		return 0;
	}
	if (reg >= MSR_A_PMC0 && reg < MSR_A_PMC0 + sim->cpu[c].ngp && sim_hw_fw_write(hw)) {
		*val = cpu->gp[reg - MSR_A_PMC0].val;
		return 0;
	}
	if (reg >= MSR_EVTSEL0 && reg < MSR_EVTSEL0 + sim->cpu[c].ngp) {
		*val = cpu->evtsel[reg - MSR_EVTSEL0];
		return 0;
	}
	if (reg >= MSR_FIXED_CTR0 && reg < MSR_FIXED_CTR0 + sim->cpu[c].nfixed) {
		*val = cpu->fx[reg - MSR_FIXED_CTR0].val;
		return 0;
	}
	if (reg >= MSR_OFFCORE_RSP0 && reg < MSR_OFFCORE_RSP0 + (uint32_t)hw->nrsp) {
		*val = sim->rsp[sim->dom[c]][reg - MSR_OFFCORE_RSP0];
		return 0;
	}
	switch (reg) {
	case MSR_TSC:
		*val = cpu->tsc;
		return 0;
	case MSR_BIOS_SIGN_ID:
		*val = cpu->bios_sign;
		return 0;
	case MSR_PERF_CAPABILITIES:
		*val = hw->perf_caps;
		return 0;
	case MSR_FIXED_CTR_CTRL:
		*val = cpu->fixed_ctrl;
		return 0;
	case MSR_GLOBAL_STATUS:
		*val = cpu->global_status;
		return 0;
	case MSR_GLOBAL_CTRL:
		*val = cpu->global_ctrl;
		return 0;
	case MSR_GLOBAL_OVF_CTRL:
		*val = 0;
		return 0;
	case MSR_GLOBAL_STATUS_SET:
		if (!v4)
			return -EIO;
		*val = 0;
		return 0;
	case MSR_GLOBAL_INUSE:
		if (!v4)
			return -EIO;
		*val = sim_inuse(sim, cpu);
		return 0;
	case MSR_PEBS_ENABLE:
		*val = cpu->pebs_enable;
		return 0;
	case MSR_PEBS_LD_LAT:
		if (!hw->has_ld_lat)
			return -EIO;
		*val = cpu->ld_lat;
		return 0;
	case MSR_DS_AREA:
		*val = cpu->ds_area;
		return 0;
	case MSR_DEBUGCTL:
		*val = cpu->debugctl;
		return 0;
	case MSR_MISC_ENABLE:
		*val = (cpu->misc_enable | MISC_EMON) & ~MISC_PEBS_UNAVAIL;
		return 0;
	}
	return -EIO;
}

/* A write that changes MSR_OFFCORE_RSP_@k: every sibling sharing it moves to now first. */
static int sim_write_rsp(struct sim *sim, int c, int k, uint64_t val, double now)
{
	int d = sim->dom[c], j;

	if (val & ~sim->cpu[c].hw->rsp_valid[k])
		return -EIO;
	for (j = sim->dom_first[d]; j < sim->dom_first[d + 1]; j++)
		sim_advance(sim, sim->dom_cpus[j], now);
	sim->rsp[d][k] = val;
	for (j = sim->dom_first[d]; j < sim->dom_first[d + 1]; j++)
		sim_decode(sim, sim->dom_cpus[j]);
	return 0;
}

/*
 * A write to @c's event selects or global enables changes what the other
 * threads of its core count under the HT bug: @after false brings them to
 * @now before the write, true re-decodes them after it.
 */
static void sim_siblings(struct sim *sim, int c, double now, bool after)
{
	int core = sim_core(sim, c), k;

	if (!sim->cpu[c].hw->ht_bug_last || sim->tpc < 2)
		return;
	for (k = 0; k < sim->tpc; k++) {
		int o = core + k * sim->ncores;

		if (o == c)
			continue;
		if (after)
			sim_decode(sim, o);
		else
			sim_advance(sim, o, now);
	}
}

/*
 * A PEBS-enabled counter must not be reprogrammed while it counts.  SDM16
 * p.690 (Sandy Bridge) and p.701 (Haswell): "PEBS behavior is unpredictable
 * if IA32_PERFEVTSELx or IA32_PMCx is changed for a PEBS-enabled counter
 * while an event is being counted"; changes belong to a disabled counter
 * (facts §8 item 12).  The simulator reads "disabled" as any one of EN, the
 * counter's IA32_PERF_GLOBAL_CTRL bit or its PEBS_EN clear, and, as the
 * audit does, takes MSR_PEBS_LD_LAT_THRESHOLD for part of the programming
 * of every counter with LL_EN set.  It applies the rule wherever the
 * load-latency facility exists: the SDM says it for the PDIR parts, does
 * not say the contrary for the others, and "unpredictable" is not a
 * behaviour software may count on.  Writing EN clear and nothing else is
 * the disabling itself, not a change.
 *
 * The counters of @cpu that count with PEBS and LL_EN (from version 5,
 * pebs_fixed: PEBS_EN alone): bit i, PMCi.
 */
static uint32_t sim_pebs_counting(const struct sim *sim, const struct sim_cpu *cpu)
{
	uint32_t m = 0;

	(void)sim;
	unsigned i;

	if (!cpu->hw->has_ld_lat)
		return 0;
	for (i = 0; i < cpu->ngp; i++)
		if ((cpu->evtsel[i] & EVTSEL_EN) && (cpu->global_ctrl & B(i)) &&
		    (cpu->pebs_enable & B(i)) &&
		    (cpu->hw->pebs_fixed || (cpu->pebs_enable & B(32 + i))))
			m |= 1U << i;
	return m;
}

/*
 * What the simulator makes of "unpredictable": each counter in @hit holds
 * garbage from here on, a random value anywhere in its width, whatever was
 * just written, so that a count read across it is wrong by any amount
 * (and a delta taken from it shows no sign of that but its size).  Each
 * such write is counted in sim->stats.pebs_write_while_counting, for
 * tests to assert it never happens.
 */
static void sim_pebs_garble(struct sim *sim, struct sim_cpu *cpu, uint32_t hit)
{
	unsigned i;

	if (!hit)
		return;
	sim->stats.pebs_write_while_counting++;
	for (i = 0; i < cpu->ngp; i++)
		if (hit & (1U << i))
			cpu->gp[i].val = (uint64_t)(sim_uniform(sim) * ((double)cpu->gp_mask + 1)) &
					 cpu->gp_mask;
}

enum { WHY_OK, WHY_MISSING, WHY_RESERVED, WHY_READONLY };

/*
 * wrmsr on @c, already advanced to @now.  @preset: a profile's initial
 * value (counters are stored as given, masked to their width; GLOBAL_STATUS
 * may be preset).  @why says what made it fail.
 */
static int sim_write(struct sim *sim, int c, uint32_t reg, uint64_t val, double now,
		     bool preset, int *why)
{
	const struct sim_hw *hw = sim->cpu[c].hw;
	struct sim_cpu *cpu = &sim->cpu[c];
	bool v4 = sim_hw_version(hw) >= 4;

	/* Load-latency counters counting now, before this write: a profile's presets are not writes. */
	uint32_t pebs_on = preset ? 0 : sim_pebs_counting(sim, cpu);

	*why = WHY_OK;
	reg = sim_reg(hw, reg);
	if (reg >= MSR_PMC0 && reg < MSR_PMC0 + sim->cpu[c].ngp) {
		struct sim_ctr *ctr = &cpu->gp[reg - MSR_PMC0];

		/* Legacy write: sign-extended EAX[31:0] (SDM16 §18.2.5, pmu-facts §2). */
		if (!preset)
			val = (uint64_t)(int64_t)(int32_t)(uint32_t)val;
		ctr->val = val & sim->cpu[c].gp_mask;
		ctr->acc = 0;
		sim_pebs_garble(sim, cpu, pebs_on & (1U << (reg - MSR_PMC0)));
		return 0;
	}
	if (reg >= MSR_A_PMC0 && reg < MSR_A_PMC0 + sim->cpu[c].ngp && sim_hw_fw_write(hw)) {
		struct sim_ctr *ctr = &cpu->gp[reg - MSR_A_PMC0];

		ctr->val = val & sim->cpu[c].gp_mask;
		ctr->acc = 0;
		sim_pebs_garble(sim, cpu, pebs_on & (1U << (reg - MSR_A_PMC0)));
		return 0;
	}
	if (reg >= MSR_EVTSEL0 && reg < MSR_EVTSEL0 + sim->cpu[c].ngp) {
		unsigned i = reg - MSR_EVTSEL0;
		bool disable = val == (cpu->evtsel[i] & ~EVTSEL_EN);

		if (val & ~hw->evtsel_valid)
			goto reserved;
		sim_siblings(sim, c, now, false);
		cpu->evtsel[i] = val;
		cpu->gp[i].acc = 0;
		sim_decode(sim, c);
		sim_siblings(sim, c, now, true);
		sim_pebs_garble(sim, cpu, disable ? 0 : pebs_on & (1U << i));
		return 0;
	}
	if (reg >= MSR_FIXED_CTR0 && reg < MSR_FIXED_CTR0 + sim->cpu[c].nfixed) {
		struct sim_ctr *ctr = &cpu->fx[reg - MSR_FIXED_CTR0];

		ctr->val = val & sim->cpu[c].fx_mask;
		ctr->acc = 0;
		return 0;
	}
	if (reg >= MSR_OFFCORE_RSP0 && reg < MSR_OFFCORE_RSP0 + (uint32_t)hw->nrsp) {
		if (sim_write_rsp(sim, c, (int)(reg - MSR_OFFCORE_RSP0), val, now))
			goto reserved;
		return 0;
	}
	switch (reg) {
	case MSR_TSC:
		cpu->tsc = val;
		cpu->tsc_acc = 0;
		return 0;
	case MSR_BIOS_SIGN_ID:
		/*
		 * Software writes 0 and runs CPUID(1) to have the revision
		 * loaded (SDM Vol.3A 10.11); no CPUID reloads it here: the value
		 * written stays, which lets a profile preset another revision.
		 */
		cpu->bios_sign = val;
		return 0;
	case MSR_PERF_CAPABILITIES:
		goto readonly;
	case MSR_FIXED_CTR_CTRL:
		if (val & ~width_mask(4 * sim->cpu[c].nfixed))
			goto reserved;
		cpu->fixed_ctrl = val;
		sim_decode(sim, c);
		return 0;
	case MSR_GLOBAL_STATUS:
		if (!preset)
			goto readonly;
		if (val & ~sim->cpu[c].status_valid)
			goto reserved;
		cpu->global_status = val;
		return 0;
	case MSR_GLOBAL_CTRL:
		if (val & ~sim->cpu[c].ctrl_valid)
			goto reserved;
		sim_siblings(sim, c, now, false);
		cpu->global_ctrl = val;
		sim_decode(sim, c);
		sim_siblings(sim, c, now, true);
		return 0;
	case MSR_GLOBAL_OVF_CTRL:
		if (val & ~sim->cpu[c].status_valid)
			goto reserved;
		cpu->global_status &= ~val;
		return 0;
	case MSR_GLOBAL_STATUS_SET:
		if (!v4)
			break;
		if (val & ~sim->cpu[c].status_valid)
			goto reserved;
		cpu->global_status |= val;
		return 0;
	case MSR_GLOBAL_INUSE:
		if (!v4)
			break;
		goto readonly;
	case MSR_PEBS_ENABLE:
		if (val & ~hw->pebs_valid)
			goto reserved;
		/*
		 * Version 5: bit 32 + i is PEBS on IA32_FIXED_CTRi (pmu-facts
		 * 9.2); with no DS area behind it, a PEBS assist on its overflow
		 * writes anywhere.  Counted, for the tests: nothing of lattop's
		 * may set one.
		 */
		if (hw->pebs_fixed && ((val & ~cpu->pebs_enable) >> 32))
			sim->stats.pebs_fixed_enabled++;
		cpu->pebs_enable = val;
		sim_decode(sim, c);
		return 0;
	case MSR_PEBS_LD_LAT:
		if (!hw->has_ld_lat)
			break;
		if (val & ~0xffffULL)           /* bits 15:0 (pmu-facts §2) */
			goto reserved;
		cpu->ld_lat = val;
		sim_decode(sim, c);
		sim_pebs_garble(sim, cpu, pebs_on);
		return 0;
	case MSR_DS_AREA:
		cpu->ds_area = val;
		return 0;
	case MSR_DEBUGCTL:
		cpu->debugctl = val;
		return 0;
	case MSR_MISC_ENABLE:
		cpu->misc_enable = val;
		return 0;
	}
	*why = WHY_MISSING;
	return -EIO;
reserved:
	*why = WHY_RESERVED;
	return -EIO;
readonly:
	*why = WHY_READONLY;
	return -EIO;
}

/*
 * Now, in the simulated machine's time: the clock's time since the epoch
 * run time_scale times faster (the profile's time_scale key).
 */
static double sim_time(const struct sim *sim)
{
	double t = sim->now(sim->now_arg), k = sim->prof->time_scale;

	return k > 0 && k != 1 ? sim->epoch + (t - sim->epoch) * k : t;
}

int sim_rdmsr(struct sim *sim, int cpu, uint32_t reg, uint64_t *val)
{
	int ret;

	if (!sim || !val)
		return -EINVAL;
	if (cpu < 0 || cpu >= sim->ncpus)
		return -ENXIO;
	pthread_mutex_lock(&sim->lock);
	sim_advance(sim, cpu, sim_time(sim));
	ret = sim_read(sim, cpu, reg, val);
	pthread_mutex_unlock(&sim->lock);
	return ret;
}

int sim_wrmsr(struct sim *sim, int cpu, uint32_t reg, uint64_t val)
{
	double now;
	int ret, why;

	if (!sim)
		return -EINVAL;
	if (cpu < 0 || cpu >= sim->ncpus)
		return -ENXIO;
	pthread_mutex_lock(&sim->lock);
	now = sim_time(sim);
	sim_advance(sim, cpu, now);
	ret = sim_write(sim, cpu, reg, val, now, false, &why);
	pthread_mutex_unlock(&sim->lock);
	return ret;
}

void sim_get_stats(struct sim *sim, struct sim_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (!sim)
		return;
	pthread_mutex_lock(&sim->lock);
	*out = sim->stats;
	pthread_mutex_unlock(&sim->lock);
}

void sim_set_clock(struct sim *sim, double (*now)(void *), void *arg)
{
	double t;
	int c;

	if (!sim)
		return;
	pthread_mutex_lock(&sim->lock);
	sim->now = now ? now : sim_clock_monotonic;
	sim->now_arg = now ? arg : NULL;
	t = sim->now(sim->now_arg);
	/* A new time base: the profile's time restarts at 0, nothing is counted for the switch. */
	sim->epoch = t;
	for (c = 0; c < sim->ncpus; c++)
		sim->cpu[c].last = t;
	pthread_mutex_unlock(&sim->lock);
}

void sim_get_clock(const struct sim *sim, double (**now)(void *), void **arg)
{
	*now = sim->now;
	*arg = sim->now_arg;
}

const struct sim_profile *sim_profile_of(const struct sim *sim)
{
	return sim->prof;
}

int sim_ncpus(const struct sim *sim)
{
	return sim ? sim->ncpus : 0;
}

void sim_topology(const struct sim *sim, int cpu, int *core, int *package, int *module)
{
	int co = -1, pkg = -1, mod = -1;

	if (sim && cpu >= 0 && cpu < sim->ncpus) {
		int per_pkg = sim->ncores / sim->packages, g = sim_core(sim, cpu);

		/* Cores split evenly between packages; ids unique within a package. */
		pkg = g / per_pkg;
		co = g % per_pkg;
		/* The Atoms pair cores behind one L2 (SDM16 p.661); others: module = core. */
		mod = co / (sim->hw->module_cores > 1 ? sim->hw->module_cores : 1);
	}
	if (core)
		*core = co;
	if (package)
		*package = pkg;
	if (module)
		*module = mod;
}

static unsigned ceil_log2(unsigned n)
{
	unsigned s = 0;

	while ((1U << s) < n)
		s++;
	return s;
}

static uint32_t brand_word(const char *brand, unsigned off)
{
	size_t len = strlen(brand);
	uint32_t w = 0;
	unsigned i;

	for (i = 0; i < 4; i++)
		if (off + i < len)
			w |= (uint32_t)(unsigned char)brand[off + i] << (8 * i);
	return w;
}

void sim_cpuid_cpu(const void *sim, int cpu, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	sim_cpuid_on(sim, cpu, leaf, subleaf, regs);
}

void sim_cpuid(const struct sim *sim, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	sim_cpuid_on(sim, 0, leaf, subleaf, regs);
}

void sim_cpuid_on(const struct sim *sim, int cpu, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	const struct sim_hw *hw;
	unsigned smt_shift;

	memset(regs, 0, 4 * sizeof(regs[0]));
	if (!sim || cpu < 0 || cpu >= sim->ncpus)
		return;
	hw = sim->cpu[cpu].hw;
	smt_shift = sim->tpc > 1 ? 1 : 0;
	switch (leaf) {
	case 0:
		/* max basic leaf: 0x1A on a hybrid part, 0x23 on one with leaf 0x23 */
		regs[0] = sim->hw->leaf23[0][0] ? 0x23 : sim->hw->atom ? 0x1a : 0xb;
		regs[1] = 0x756e6547;           /* "Genu" */
		regs[3] = 0x49656e69;           /* "ineI" */
		regs[2] = 0x6c65746e;           /* "ntel" */
		break;
	case 1:
		/* The part's, on every CPU: a hybrid's Atom CPUs are hw_gracemont's but for this. */
		regs[0] = sim->stepping |
			  ((sim->server ? sim->hw->server_model : sim->hw->model) & 0xfU) << 4 | 6U << 8 |
			  (uint32_t)((sim->server ? sim->hw->server_model : sim->hw->model) >> 4) << 16;
		regs[1] = (uint32_t)(sim->ncpus > 255 ? 255 : sim->ncpus) << 16 | 8U << 8;
		regs[2] = (sim->hw->cpuid1_ecx | (uint32_t)B(15)) & ~(uint32_t)B(31);  /* PDCM, no hypervisor */
		regs[3] = sim->hw->cpuid1_edx;
		break;
	case 0x7:
		/* A hybrid part: EDX[15], the hybrid flag (pmu-facts 9.6); nothing else simulated. */
		if (subleaf == 0 && sim->hw->atom)
			regs[3] = (uint32_t)B(15);
		break;
	case 0xa:
		memcpy(regs, hw->leaf_a, sizeof(hw->leaf_a));
		break;
	case 0x23:
		/* Architectural perfmon extended: this CPU's counter bitmaps (pmu-facts 9.2). */
		if (subleaf < 2)
			memcpy(regs, hw->leaf23[subleaf], sizeof(hw->leaf23[subleaf]));
		break;
	case 0x1a:
		/* The core type of this CPU: EAX[31:24] type, [23:0] native model (pmu-facts 9.6). */
		if (sim->hw->atom)
			regs[0] = (uint32_t)hw->core_type << 24 | hw->native;
		break;
	case 0xb:
		if (subleaf == 0) {
			regs[0] = smt_shift;
			regs[1] = (uint32_t)sim->tpc;
			regs[2] = 0x100;        /* level 0: SMT */
		} else if (subleaf == 1) {
			regs[0] = smt_shift + ceil_log2((unsigned)(sim->ncores / sim->packages));
			regs[1] = (uint32_t)(sim->ncpus / sim->packages) & 0xffff;
			regs[2] = 0x200 | 1;    /* level 1: core */
		} else {
			regs[2] = subleaf & 0xff;
		}
		break;
	case 0x80000000:
		regs[0] = 0x80000004;
		break;
	case 0x80000002:
	case 0x80000003:
	case 0x80000004: {
		unsigned base = (leaf - 0x80000002) * 16, i;

		for (i = 0; i < 4; i++)
			regs[i] = brand_word(sim->hw->brand, base + 4 * i);
		break;
	}
	default:
		break;
	}
}

static void sim_seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void sim_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Group CPUs by the MSR_OFFCORE_RSP_x they share (pmu-facts §4.5). */
static int sim_build_domains(struct sim *sim)
{
	int c, d, *fill;

	sim->dom = calloc((size_t)sim->ncpus, sizeof(int));
	sim->dom_cpus = calloc((size_t)sim->ncpus, sizeof(int));
	if (!sim->dom || !sim->dom_cpus)
		return -ENOMEM;
	sim->ndom = 0;
	for (c = 0; c < sim->ncpus; c++) {
		switch (sim->hw->rsp_scope) {
		case SIM_SCOPE_THREAD:
			d = c;
			break;
		case SIM_SCOPE_CORE:
			d = sim_core(sim, c);
			break;
		default:
			d = sim_core(sim, c) / 2;
			break;
		}
		sim->dom[c] = d;
		if (d >= sim->ndom)
			sim->ndom = d + 1;
	}
	sim->dom_first = calloc((size_t)sim->ndom + 1, sizeof(int));
	fill = calloc((size_t)sim->ndom + 1, sizeof(int));
	sim->rsp = calloc((size_t)sim->ndom, sizeof(*sim->rsp));
	if (!sim->dom_first || !fill || !sim->rsp) {
		free(fill);
		return -ENOMEM;
	}
	for (c = 0; c < sim->ncpus; c++)
		sim->dom_first[sim->dom[c] + 1]++;
	for (d = 0; d < sim->ndom; d++)
		sim->dom_first[d + 1] += sim->dom_first[d];
	for (c = 0; c < sim->ncpus; c++) {
		d = sim->dom[c];
		sim->dom_cpus[sim->dom_first[d] + fill[d]++] = c;
	}
	free(fill);
	return 0;
}

static int sim_apply_presets(struct sim *sim, char *err, size_t errlen)
{
	static const char *const why_text[] = {
		[WHY_OK] = "refused", [WHY_MISSING] = "does not exist on",
		[WHY_RESERVED] = "has reserved bits set for", [WHY_READONLY] = "is read-only on",
	};
	size_t i;

	for (i = 0; i < sim->prof->npresets; i++) {
		const struct sim_preset *p = &sim->prof->presets[i];
		int c = p->cpu < 0 ? 0 : p->cpu, end = p->cpu < 0 ? sim->ncpus : p->cpu + 1, why;

		for (; c < end; c++) {
			if (sim_write(sim, c, p->msr, p->value, sim->epoch, true, &why)) {
				sim_seterr(err, errlen, "profile msr.0x%x = 0x%llx (cpu %d): MSR 0x%x %s %s",
					   (unsigned)p->msr, (unsigned long long)p->value, c,
					   (unsigned)p->msr, why_text[why], sim->hw->name);
				return -EIO;
			}
		}
	}
	return 0;
}

/* What sim_new_hw allocated, for its failures and sim_free (NULL: nothing). */
static void sim_release(struct sim *sim)
{
	if (!sim)
		return;
	sim_profile_free(sim->prof);
	free(sim->cpu);
	free(sim->dom);
	free(sim->dom_first);
	free(sim->dom_cpus);
	free(sim->rsp);
	free(sim);
}

struct sim *sim_new(const char *uarch, const struct sim_profile *profile,
		    char *err, size_t errlen)
{
	const struct sim_hw *hw = sim_hw_lookup(uarch);

	if (err && errlen)
		err[0] = '\0';
	if (!hw) {
		char known[1024];

		sim_uarch_list(known, sizeof(known));
		sim_seterr(err, errlen, "unknown microarchitecture '%s' (known: %s)",
			   uarch ? uarch : "(null)", known);
		return NULL;
	}
	/* The profile's model: this name's other parts (Arrow Lake-S and -H beside -U). */
	if (profile && profile->line_model && profile->model != hw->model) {
		const struct sim_hw *const *m = hw->models;
		char known[64];
		size_t o;

		while (m && *m && (*m)->model != profile->model)
			m++;
		if (m && *m)
			return sim_new_hw(*m, profile, err, errlen);
		o = (size_t)snprintf(known, sizeof(known), "0x%02X", hw->model);
		for (m = hw->models; m && *m && o < sizeof(known); m++)
			o += (size_t)snprintf(known + o, sizeof(known) - o, ", 0x%02X", (*m)->model);
		sim_seterr(err, errlen, "%s:%d: model: %s is not simulated as 0x%02X (only %s)",
			   profile->name, profile->line_model, hw->name, profile->model, known);
		return NULL;
	}
	return sim_new_hw(hw, profile, err, errlen);
}

/* What CPU @cpu has, being of hardware @hw. */
static void sim_cpu_kind(struct sim_cpu *cpu, const struct sim_hw *hw)
{
	cpu->hw = hw;
	cpu->ngp = sim_hw_ngp(hw);
	cpu->nfixed = sim_hw_nfixed(hw);
	if (cpu->ngp > SIM_MAX_GP)
		cpu->ngp = SIM_MAX_GP;
	if (cpu->nfixed > SIM_MAX_FIXED)
		cpu->nfixed = SIM_MAX_FIXED;
	cpu->gp_mask = width_mask(sim_hw_gp_width(hw));
	cpu->fx_mask = width_mask(sim_hw_fixed_width(hw));
	cpu->ctrl_valid = width_mask(cpu->ngp) | (width_mask(cpu->nfixed) << 32);
	/* GLOBAL_STATUS: counter overflows, 61 uncore, 62 OvfBuffer, 63 CondChgd; v4 adds 55, 58, 59 (pmu-facts §2.2). */
	cpu->status_valid = cpu->ctrl_valid | B(61) | B(62) | B(63);
	if (sim_hw_version(hw) >= 4)
		cpu->status_valid |= B(55) | B(58) | B(59);
}

/*
 * A hybrid part's CPUs by core type: core_types' runs in the order written
 * (resolve() has made them add up to the CPUs); by default its Core CPUs
 * first, then its Atom CPUs (half each), the low-power ones last (a quarter
 * of the CPUs, where the part has them).  Every CPU of another part is its
 * one kind.
 */
static int sim_lay_out_types(struct sim *sim, const struct sim_profile *profile,
			     char *err, size_t errlen)
{
	const struct sim_hw *hw = sim->hw;
	int c = 0, r, i, np, nl;

	if (!hw->atom || !profile->line_core_types) {
		np = hw->atom ? sim->ncpus - sim->ncpus / 2 : sim->ncpus;
		nl = hw->lowpower ? sim->ncpus / 4 : 0;
		for (c = 0; c < sim->ncpus; c++)
			sim_cpu_kind(&sim->cpu[c], c < np ? hw :
				     c >= sim->ncpus - nl ? hw->lowpower : hw->atom);
		return 0;
	}
	for (r = 0; r < profile->ncore_runs; r++) {
		const struct sim_core_run *run = &profile->core_runs[r];
		const struct sim_hw *kind = run->type == 'P' ? hw :
					    run->type == 'E' ? hw->atom : hw->lowpower;

		if (!kind && run->n) {
			sim_seterr(err, errlen,
				   "%s:%d: core_types: %s (06_%02X) has no low-power E-cores (L)",
				   profile->name, profile->line_core_types, hw->name, hw->model);
			return -1;
		}
		for (i = 0; i < run->n; i++)
			sim_cpu_kind(&sim->cpu[c++], kind);
	}
	return 0;
}

struct sim *sim_new_hw(const struct sim_hw *hw, const struct sim_profile *profile,
		       char *err, size_t errlen)
{
	struct sim_profile *builtin = NULL;
	struct sim *sim;
	int c;

	if (err && errlen)
		err[0] = '\0';
	if (!profile) {
		builtin = sim_profile_builtin();
		if (!builtin) {
			sim_seterr(err, errlen, "out of memory");
			return NULL;
		}
		profile = builtin;
	}
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		goto nomem;
	sim->hw = hw;
	sim->prof = sim_profile_copy(profile);
	if (!sim->prof)
		goto nomem;
	sim->ncpus = profile->cpus;
	sim->tpc = profile->threads_per_core ? profile->threads_per_core : (hw->ht ? 2 : 1);
	/* Profile errors name the profile's file and line; a default says it is one. */
	if (sim->tpc > 1 && !hw->ht) {
		sim_seterr(err, errlen, "%s:%d: threads_per_core: %d, but %s has no Hyper-Threading",
			   profile->name, profile->line_tpc, sim->tpc, hw->name);
		goto fail;
	}
	if (sim->ncpus < 1 || sim->ncpus > SIM_MAX_CPUS || sim->ncpus % sim->tpc) {
		char where[320];

		if (profile->line_cpus)
			snprintf(where, sizeof(where), "%s:%d: cpus", profile->name, profile->line_cpus);
		else
			snprintf(where, sizeof(where), "%s", hw->name);
		if (profile->threads_per_core)
			sim_seterr(err, errlen, "%s: cpus = %d is not a multiple of threads_per_core = %d",
				   where, sim->ncpus, sim->tpc);
		else
			sim_seterr(err, errlen, "%s: cpus = %d is not a multiple of threads_per_core = %d, "
				   "the default on %s (set threads_per_core = 1, or an even cpus)",
				   where, sim->ncpus, sim->tpc, hw->name);
		goto fail;
	}
	sim->packages = profile->packages > 0 ? profile->packages : 1;
	if (sim->packages > 1 && !hw->multi_package) {
		sim_seterr(err, errlen, "%s:%d: packages: %d, but %s is a single-package part",
			   profile->name, profile->line_packages, sim->packages, hw->name);
		goto fail;
	}
	if ((sim->ncpus / sim->tpc) % sim->packages) {
		sim_seterr(err, errlen, "%s:%d: packages: %d does not divide the %d cores "
			   "(cpus / threads_per_core)", profile->name, profile->line_packages,
			   sim->packages, sim->ncpus / sim->tpc);
		goto fail;
	}
	sim->server = sim->packages > 1;
	sim->stepping = profile->stepping >= 0 ? (uint8_t)profile->stepping :
			sim->server ? hw->server_stepping : hw->stepping;
	for (c = 0; c < sim->ncpus && profile->line_module_hitm && hw->module_cores < 2; c++)
		if (profile->cpu[c].same_module_hitm_fraction > 0)
			break;
	if (profile->line_module_hitm && hw->module_cores < 2 && c < sim->ncpus) {
		sim_seterr(err, errlen, "%s:%d: same_module_hitm_fraction: %s has no modules "
			   "(only the Atoms pair cores behind one L2)",
			   profile->name, profile->line_module_hitm, hw->name);
		goto fail;
	}
	/* Without modules, every HITM comes from another core: the default does not apply. */
	if (hw->module_cores < 2)
		for (c = 0; c < sim->ncpus; c++)
			sim->prof->cpu[c].same_module_hitm_fraction = 0;
	sim->rng = 0x9E3779B97F4A7C15ULL;       /* fixed: runs repeat */
	sim->ncores = sim->ncpus / sim->tpc;
	sim->cpu = calloc((size_t)sim->ncpus, sizeof(*sim->cpu));
	if (!sim->cpu)
		goto nomem;
	if (profile->line_core_types && !hw->atom) {
		sim_seterr(err, errlen, "%s:%d: core_types: %s is not a hybrid part",
			   profile->name, profile->line_core_types, hw->name);
		goto fail;
	}
	if (sim_lay_out_types(sim, profile, err, errlen))
		goto fail;
	sim->ngp = sim->cpu[0].ngp;
	sim->nfixed = sim->cpu[0].nfixed;
	sim->gp_mask = sim->cpu[0].gp_mask;
	sim->fx_mask = sim->cpu[0].fx_mask;
	sim->ctrl_valid = sim->cpu[0].ctrl_valid;
	sim->status_valid = sim->cpu[0].status_valid;
	if (sim_build_domains(sim))
		goto nomem;
	if (pthread_mutex_init(&sim->lock, NULL))
		goto nomem;
	sim->now = sim_clock_monotonic;
	sim->epoch = sim->now(NULL);
	for (c = 0; c < sim->ncpus; c++) {
		struct sim_cpu *cpu = &sim->cpu[c];

		cpu->last = sim->epoch;
		cpu->tsc = TSC_START;
		/* Like an idle Linux box: every enable bit of GLOBAL_CTRL set. */
		cpu->global_ctrl = cpu->ctrl_valid;
		cpu->misc_enable = MISC_EMON;
		cpu->bios_sign = (uint64_t)(sim->server ? hw->server_microcode : hw->microcode) << 32;
	}
	if (sim_apply_presets(sim, err, errlen)) {
		pthread_mutex_destroy(&sim->lock);
		goto fail;
	}
	sim_profile_free(builtin);
	return sim;
nomem:
	sim_seterr(err, errlen, "out of memory");
fail:
	sim_release(sim);
	sim_profile_free(builtin);
	return NULL;
}

void sim_free(struct sim *sim)
{
	if (!sim)
		return;
	pthread_mutex_destroy(&sim->lock);
	sim_release(sim);
}
