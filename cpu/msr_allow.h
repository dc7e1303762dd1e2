/*
 * msr_allow.h: lattop's MSR addresses, and the one list of those it may write.
 *
 * Addresses: Intel SDM Vol.3B ch.18 and the kernel's msr-index.h /
 * perf_event.h (pmu-facts.md section 2).  Every write lattop makes goes
 * through msr_write(), which refuses an address not on the allowlist: only
 * performance-monitoring registers are ever written.
 */
#ifndef LATTOP_MSR_ALLOW_H
#define LATTOP_MSR_ALLOW_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "cpu/msrdev.h"

#define MSR_TSC                  0x010   /* IA32_TIME_STAMP_COUNTER: read only, here */
#define MSR_BIOS_SIGN_ID         0x08b   /* IA32_BIOS_SIGN_ID: bits 63:32 the microcode revision; read only, here */
#define MSR_PMC(i)               (0x0c1u + (i))  /* IA32_PMCx, x < 8: writes sign-extend bit 31 */
#define MSR_PERFEVTSEL(i)        (0x186u + (i))  /* IA32_PERFEVTSELx, x < 8 */
#define MSR_OFFCORE_RSP(i)       (0x1a6u + (i))  /* MSR_OFFCORE_RSP_0/1 (Nehalem: 0x1a6 only) */
#define MSR_FIXED_CTR(i)         (0x309u + (i))  /* IA32_FIXED_CTR0..2 */
#define MSR_PERF_CAPABILITIES    0x345   /* exists when CPUID.01H:ECX.PDCM */
#define MSR_FIXED_CTR_CTRL       0x38d
#define MSR_PERF_GLOBAL_STATUS   0x38e
#define MSR_PERF_GLOBAL_CTRL     0x38f
#define MSR_PERF_GLOBAL_INUSE    0x392   /* version 4 only: an uncore register on v3 clients */
#define MSR_PEBS_ENABLE          0x3f1
#define MSR_PEBS_LD_LAT          0x3f6   /* MSR_PEBS_LD_LAT_THRESHOLD, bits 15:0 */
#define MSR_A_PMC(i)             (0x4c1u + (i))  /* IA32_A_PMCx: full width, when PERF_CAPABILITIES[13] */
/*
 * Perfmon version 6 moves the counters and their selects to a range of
 * their own, 4 addresses per counter: IA32_PMC_GPi_CTR 0x1900 + 4i,
 * IA32_PMC_GPi_CFG_A (the event select) 0x1901 + 4i, IA32_PMC_FXi_CTR
 * 0x1980 + 4i; IA32_FIXED_CTR_CTRL and the global registers stay (K612
 * msr-index.h MSR_IA32_PMC_V6_*; ML-V6: "The MSR address of the fixed
 * counter control is not changed").  Linux programs every counter there
 * for version >= 6, so lattop does too (pmu-facts 9.2): whether the
 * legacy addresses alias them is UNVERIFIED.  The kernel takes these
 * bases after its full-width choice (ML-V6), writing the counter as it
 * writes IA32_A_PMCx: there is no second, full-width alias here.
 */
#define MSR_V6_GP_CTR(i)         (0x1900u + 4 * (i))
#define MSR_V6_GP_CFG_A(i)       (0x1901u + 4 * (i))
#define MSR_V6_FX_CTR(i)         (0x1980u + 4 * (i))

#define PERF_CAP_FW_WRITE        (1ull << 13)

/*
 * General-purpose counters: up to 10, Lion Cove's (leaf 0x23.1 GP bitmap
 * 0x3FF where leaf 0xA says 8; pmu-facts 9.1), each with its bit in
 * IA32_PERF_GLOBAL_CTRL and IA32_PEBS_ENABLE at its index, as PMC0-7
 * (K612 intel_pmu_check_counters_mask: intel_ctrl = the leaf's GP
 * bitmap; intel_pmu_pebs_enable: bit idx).  The legacy addresses
 * (IA32_PMCx 0xC1 + x, IA32_PERFEVTSELx 0x186 + x, IA32_A_PMCx 0x4C1 + x)
 * are architectural for x < leaf 0xA's count (pmu-facts 2), which is 8
 * on every part with more: PMC8 and up through them (0xC9, 0x18E, 0x4C9:
 * what the kernel's base + index would use on a version 5 PMU with 10,
 * Arrow Lake-H's P-cores) is UNVERIFIED (pmu-facts 9.2, 9.10 item 2).  So
 * lattop uses at most PMU_LEGACY_GP counters of a PMU before version 6,
 * and never names PMC8 and up in the legacy range; from version 6 on
 * every counter is in the version 6 range, PMC8 and 9 too (K612
 * x86_pmu_event_addr, x86_pmu_config_addr: base + 4 * index for every
 * index; ML-V6).
 */
#define PMU_MAX_GP     10
#define PMU_LEGACY_GP  8
#define PMU_MAX_FIXED  3

/*
 * Counter @k's registers on a PMU of perfmon version 6 (@v6) or before:
 * its count, its select, fixed counter @k's count.
 */
static inline uint32_t msr_pmc(bool v6, unsigned k)
{
	return v6 ? MSR_V6_GP_CTR(k) : MSR_PMC(k);
}

static inline uint32_t msr_evtsel(bool v6, unsigned k)
{
	return v6 ? MSR_V6_GP_CFG_A(k) : MSR_PERFEVTSEL(k);
}

static inline uint32_t msr_fixed_ctr(bool v6, unsigned k)
{
	return v6 ? MSR_V6_FX_CTR(k) : MSR_FIXED_CTR(k);
}

/*
 * Which counter @reg is, in either range (IA32_PMCx or IA32_PMC_GPx_CTR;
 * the select; the fixed counter), or -1: not one lattop may use.  @v6 set
 * when it is in the version 6 range (may be NULL).  In the header, each an
 * unsigned compare or two: every register write and saved-register lookup
 * asks (pmu.c reg_find); a call each cost 3.7k instructions per CPU per tick.
 */
static inline int msr_either(uint32_t reg, uint32_t legacy, uint32_t v6base, unsigned nlegacy,
			     unsigned n, bool *v6)
{
	uint32_t k = reg - legacy;

	if (v6)
		*v6 = k >= nlegacy;
	if (k < nlegacy)
		return (int)k;
	k = reg - v6base;                       /* stride 4 (ML-V6) */
	return k < 4 * n && !(k & 3) ? (int)(k >> 2) : -1;
}

/* The legacy range has PMC0-7 only (PMU_LEGACY_GP), the version 6 range every counter. */
static inline int msr_pmc_index(uint32_t reg, bool *v6)
{
	return msr_either(reg, MSR_PMC(0), MSR_V6_GP_CTR(0), PMU_LEGACY_GP, PMU_MAX_GP, v6);
}

static inline int msr_evtsel_index(uint32_t reg, bool *v6)
{
	return msr_either(reg, MSR_PERFEVTSEL(0), MSR_V6_GP_CFG_A(0), PMU_LEGACY_GP, PMU_MAX_GP, v6);
}

static inline int msr_fixed_index(uint32_t reg, bool *v6)
{
	return msr_either(reg, MSR_FIXED_CTR(0), MSR_V6_FX_CTR(0), PMU_MAX_FIXED, PMU_MAX_FIXED, v6);
}

/* Which counter's full-width alias IA32_A_PMCx @reg is (PMC0-7), or -1. */
static inline int msr_apmc_index(uint32_t reg)
{
	uint32_t k = reg - MSR_A_PMC(0);

	return k < PMU_LEGACY_GP ? (int)k : -1;
}

/* True when lattop may write @reg. */
bool msr_allowed(uint32_t reg);

/*
 * Write through the allowlist: -EPERM (and nothing written) for a register
 * not on it.  Every write lattop makes goes through here (inline: a call
 * less on each of about 45 per CPU per interval).
 */
static inline int msr_write(struct msrdev *d, int cpu, uint32_t reg, uint64_t val)
{
	if (!msr_allowed(reg))
		return -EPERM;
	return msrdev_write_raw(d, cpu, reg, val);
}

#endif
