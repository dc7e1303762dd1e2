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

bool msr_allowed(uint32_t reg)
{
	if (msr_pmc_index(reg, NULL) >= 0 || msr_evtsel_index(reg, NULL) >= 0 ||
	    msr_fixed_index(reg, NULL) >= 0)
		return true;
	if (msr_apmc_index(reg) >= 0)
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
