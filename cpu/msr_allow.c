/*
 * msr_allow.c: the allowlist of writable MSRs, kept in this one place.
 *
 * Only the core PMU's own registers are here.  Deliberately absent:
 * IA32_DEBUGCTL, IA32_DS_AREA, IA32_MISC_ENABLE, the TSC, the overflow
 * status registers (lattop never lets a counter overflow, so it has no
 * status to clear), and 0x391/0x392, which are uncore registers on
 * version-3 client parts (pmu-facts.md section 2, collision warning).
 */
#include <stddef.h>

#include "cpu/msr_allow.h"

/*
 * One switch, whose ranges the compiler turns into a few compares: every
 * write asks, about 45 per CPU per interval.  The ranges are those of
 * msr_pmc_index(), msr_evtsel_index(), msr_fixed_index() and
 * msr_apmc_index() (test_pmu counts every address below 0x10000 it allows).
 */
bool msr_allowed(uint32_t reg)
{
	switch (reg) {
	case MSR_PMC(0) ... MSR_PMC(PMU_LEGACY_GP - 1):
	case MSR_PERFEVTSEL(0) ... MSR_PERFEVTSEL(PMU_LEGACY_GP - 1):
	case MSR_FIXED_CTR(0) ... MSR_FIXED_CTR(PMU_MAX_FIXED - 1):
	case MSR_A_PMC(0) ... MSR_A_PMC(PMU_LEGACY_GP - 1):
	case MSR_OFFCORE_RSP(0):
	case MSR_OFFCORE_RSP(1):
	case MSR_FIXED_CTR_CTRL:
	case MSR_PERF_GLOBAL_CTRL:
	case MSR_PEBS_ENABLE:
	case MSR_PEBS_LD_LAT:
		return true;
	default:
		/* The version 6 range: every fourth address a counter, its select, a fixed counter. */
		return msr_pmc_index(reg, NULL) >= 0 || msr_evtsel_index(reg, NULL) >= 0 ||
		       msr_fixed_index(reg, NULL) >= 0;
	}
}
