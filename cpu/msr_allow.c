/*
 * msr_allow.c: the allowlist of writable MSRs, kept in this one place.
 *
 * Only the core PMU's own registers are here.  Deliberately absent:
 * IA32_DEBUGCTL, IA32_DS_AREA, IA32_MISC_ENABLE, the TSC, the overflow
 * status registers (lattop never lets a counter overflow, so it has no
 * status to clear), and 0x391/0x392, which are uncore registers on
 * version-3 client parts (pmu-facts.md section 2, collision warning).
 */
#include <errno.h>
#include <stddef.h>

#include "cpu/msr_allow.h"

/* Index @k < @n of @reg in the range @base + @stride * k, or -1. */
static int msr_index(uint32_t reg, uint32_t base, uint32_t stride, unsigned n)
{
	if (reg < base || (reg - base) % stride || (reg - base) / stride >= n)
		return -1;
	return (int)((reg - base) / stride);
}

/* @reg in the legacy range at @legacy, or the version 6 one at @v6base. */
static int msr_either(uint32_t reg, uint32_t legacy, uint32_t v6base, unsigned n, bool *v6)
{
	int k = msr_index(reg, legacy, 1, n);

	if (v6)
		*v6 = k < 0;
	return k >= 0 ? k : msr_index(reg, v6base, 4, n);
}

int msr_pmc_index(uint32_t reg, bool *v6)
{
	return msr_either(reg, MSR_PMC(0), MSR_V6_GP_CTR(0), PMU_MAX_GP, v6);
}

int msr_evtsel_index(uint32_t reg, bool *v6)
{
	return msr_either(reg, MSR_PERFEVTSEL(0), MSR_V6_GP_CFG_A(0), PMU_MAX_GP, v6);
}

int msr_fixed_index(uint32_t reg, bool *v6)
{
	return msr_either(reg, MSR_FIXED_CTR(0), MSR_V6_FX_CTR(0), PMU_MAX_FIXED, v6);
}

bool msr_allowed(uint32_t reg)
{
	if (msr_pmc_index(reg, NULL) >= 0 || msr_evtsel_index(reg, NULL) >= 0 ||
	    msr_fixed_index(reg, NULL) >= 0)
		return true;
	if (reg >= MSR_A_PMC(0) && reg < MSR_A_PMC(PMU_MAX_GP))
		return true;
	switch (reg) {
	case MSR_OFFCORE_RSP(0):
	case MSR_OFFCORE_RSP(1):
	case MSR_FIXED_CTR_CTRL:
	case MSR_PERF_GLOBAL_CTRL:
	case MSR_PEBS_ENABLE:
	case MSR_PEBS_LD_LAT:
		return true;
	}
	return false;
}

int msr_write(struct msrdev *d, int cpu, uint32_t reg, uint64_t val)
{
	if (!msr_allowed(reg))
		return -EPERM;
	return msrdev_write_raw(d, cpu, reg, val);
}
