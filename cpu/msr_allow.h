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

#include <stdbool.h>
#include <stdint.h>

#include "cpu/msrdev.h"

#define MSR_TSC                  0x010   /* IA32_TIME_STAMP_COUNTER: read only, here */
#define MSR_BIOS_SIGN_ID         0x08b   /* IA32_BIOS_SIGN_ID: bits 63:32 the microcode revision; read only, here */
#define MSR_PMC(i)               (0x0c1u + (i))  /* IA32_PMCx: legacy writes sign-extend bit 31 */
#define MSR_PERFEVTSEL(i)        (0x186u + (i))  /* IA32_PERFEVTSELx */
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

#define PERF_CAP_FW_WRITE        (1ull << 13)

#define PMU_MAX_GP     8   /* IA32_PMC0..7 at most (Haswell with HT off) */
#define PMU_MAX_FIXED  3

/* True when lattop may write @reg. */
bool msr_allowed(uint32_t reg);

/*
 * Write through the allowlist: -EPERM (and nothing written) for a register
 * not on it.  Every write lattop makes goes through here.
 */
int msr_write(struct msrdev *d, int cpu, uint32_t reg, uint64_t val);

#endif
