/*
 * test_events.c: the event tables (cpu/events.c and the tables of cpu/events/).
 *
 * Two kinds of check.  Sanity: each table ends, its rows are well formed,
 * fit the family's counters, cover every metric or say why not, and keep
 * the promises the planner relies on (alternatives in order, pairs that
 * can be scheduled together).  Oracle: every row's libpfm4 string (.pfm)
 * is encoded by libpfm4, forced to each PMU the table names (.pfm of the
 * table), and the PERFEVTSEL and MSR_OFFCORE_RSP_x values must match.
 * Where libpfm4 and Intel's perfmon json disagree the row follows the
 * json, and its .pfm_diff records what libpfm4 says instead and why; the
 * test still checks that exact value, so a change on either side is
 * noticed.
 *
 * The tables come from cpu/uarch.c (uarch_pmu_table()): this file keeps
 * no list of families, PMUs or rows of its own.
 *
 * libpfm4 picks its PMU once per process (pfm_terminate + setenv +
 * pfm_initialize keeps the first PMU active), so each PMU is asked in a
 * forked child; the answers name the PMU that gave them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <linux/perf_event.h>   /* before libpfm4's copy, which then steps aside */
#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>

#include "cpu/events.h"
#include "cpu/perf_attr.h"
#include "cpu/uarch.h"
#include "engine/plan.h"

#define MAX_ROWS 128

/*
 * The code libpfm4 (and the kernel) give the event each fixed counter
 * counts: FIXED_CTR0 = instructions 0x00C0, FIXED_CTR1 = core cycles
 * 0x003C, FIXED_CTR2 = the pseudo-encoding 0x0300 (kernel perf_event.h).
 */
static const uint64_t fixed_code[3] = { 0x00c0, 0x003c, 0x0300 };

/* ---------- helpers ---------- */

static int table_len(const struct pmu_table *t)
{
	int n = 0;

	while (n < MAX_ROWS && t->events[n].name != NULL)
		n++;
	return n;
}

static bool row_applies(const struct pmu_event *e, const struct pfm_pmu *p)
{
	if (e->needs & ~p->flags)
		return false;
	return e->offcore != 2 || p->offcore_msrs >= 2;
}

/* The parts @u stands for, as a PMU of its table would describe them. */
static struct pfm_pmu uarch_parts(const struct uarch *u)
{
	struct pfm_pmu p = { u->name, u->flags, u->offcore_msrs };

	return p;
}

/* The table of supported microarchitecture @name (a fact test's subject). */
static const struct pmu_table *table_of(const char *name)
{
	const struct uarch *u = uarch_by_name(name);

	assert_non_null(u);
	assert_non_null(u->table);
	return u->table;
}

/* The general-purpose counters every part using @t has: the fewest any needs. */
static gp_set table_gp_mask(const struct pmu_table *t)
{
	unsigned gp = PMU_MAX_GP;

	for (const struct uarch *const *u = uarch_supported; *u; u++)
		if ((*u)->table == t && (*u)->gp_needed < gp)
			gp = (*u)->gp_needed;
	return (gp_set)((1u << gp) - 1);
}

static size_t table_npfm(const struct pmu_table *t)
{
	size_t n = 0;

	while (n < PMU_TABLE_PFM_MAX && t->pfm[n].name)
		n++;
	return n;
}

/*
 * The parts a table's rows are checked for: its libpfm4 PMUs, or, for a
 * table libpfm4 has none for (.json), each supported uarch using it.
 */
static size_t table_pmus(const struct pmu_table *t, struct pfm_pmu *out, size_t max)
{
	size_t n = table_npfm(t);

	if (n) {
		memcpy(out, t->pfm, n * sizeof(*out));
		return n;
	}
	for (const struct uarch *const *u = uarch_supported; *u && n < max; u++)
		if ((*u)->table == t)
			out[n++] = uarch_parts(*u);
	/* ... and the hybrids' core types using it (Skymont is one only) */
	for (const struct uarch *const *u = uarch_supported; *u && n < max; u++) {
		const struct uarch *c;
		uint8_t type;

		for (size_t i = 0; (c = uarch_core_type(*u, i, &type)) && n < max; i++) {
			struct pfm_pmu pp = uarch_parts(c);
			size_t k;

			if (c->table != t)
				continue;
			for (k = 0; k < n; k++)
				if (out[k].flags == pp.flags && out[k].offcore_msrs == pp.offcore_msrs)
					break;
			if (k == n)
				out[n++] = pp;
		}
	}
	return n;
}

#define MAX_PARTS 8

/* ---------- Intel's perfmon json, where libpfm4 has no PMU ---------- */

/*
 * The values of Intel's perfmon files (PM2: github intel/perfmon @
 * 6dadedf3aa483393943e044ba5ec88a4507cd040), written here as the files
 * spell them, for the tables whose family libpfm4 4.13 lacks (struct
 * pmu_table.json).  Every row of such a table must be one of these, the
 * same file and the same EventName (a ..._GT_N row stands for the json's
 * ..._GT_4 to ..._GT_2048, which differ in MSRValue, the threshold, only).
 * A table with libpfm4 PMUs names the files too when libpfm4 lacks some
 * of its events (Tremont: tmt has no HITM, snoop-result or OUTSTANDING
 * umask): every row is checked here, and those libpfm4 knows there too.
 */
struct json_row {
	const char *file, *name;
	const char *code, *umask, *cmask, *counter, *msr_index, *msr_value;
};

static const struct json_row json_rows[] = {
	/* ADL/events/alderlake_gracemont_core.json (V1.40; 06_BE, and the hybrids' Atom cores) */
	/*
	 * ADL/events/alderlake_goldencove_core.json (V1.40; the hybrids' Core
	 * cores, 0x40,0x000001): the Sapphire Rapids table's rows but the remote
	 * ones, which the client file lacks (0xD3 is LOCAL_DRAM only there)
	 */
	{ "ADL/events/alderlake_goldencove_core.json", "INST_RETIRED.ANY", "0x00", "0x01", "0", "Fixed counter 0", "0x00", "0x00" },
	{ "ADL/events/alderlake_goldencove_core.json", "INST_RETIRED.ANY_P", "0xc0", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "ADL/events/alderlake_goldencove_core.json", "CPU_CLK_UNHALTED.THREAD", "0x00", "0x02", "0", "Fixed counter 1", "0x00", "0x00" },
	{ "ADL/events/alderlake_goldencove_core.json", "CPU_CLK_UNHALTED.THREAD_P", "0x3c", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "ADL/events/alderlake_goldencove_core.json", "CPU_CLK_UNHALTED.REF_TSC", "0x00", "0x03", "0", "Fixed counter 2", "0x00", "0x00" },
	{ "ADL/events/alderlake_goldencove_core.json", "MEM_INST_RETIRED.ALL_LOADS", "0xd0", "0x81", "0", "0,1,2,3", "0x00", "0x00" },
	{ "ADL/events/alderlake_goldencove_core.json", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_N", "0xcd", "0x01", "0", "1,2,3,4,5,6,7", "0x3F6", "0x4" },
	{ "ADL/events/alderlake_goldencove_core.json", "MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD", "0xd2", "0x02", "0", "0,1,2,3", "0x00", "0x00" },
	{ "ADL/events/alderlake_goldencove_core.json", "MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD", "0xd2", "0x04", "0", "0,1,2,3", "0x00", "0x00" },
	{ "ADL/events/alderlake_goldencove_core.json", "OFFCORE_REQUESTS.DEMAND_DATA_RD", "0x21", "0x01", "0", "0,1,2,3", "0x00", "0x00" },
	{ "ADL/events/alderlake_goldencove_core.json", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", "0x20", "0x01", "0", "0,1,2,3", "0x00", "0x00" },
	{ "ADL/events/alderlake_gracemont_core.json", "INST_RETIRED.ANY", "0x00", "0x01", "0", "Fixed counter 0", "0x00", "0x00" },
	{ "ADL/events/alderlake_gracemont_core.json", "INST_RETIRED.ANY_P", "0xc0", "0x00", "0", "0,1,2,3,4,5", "0x00", "0x00" },
	{ "ADL/events/alderlake_gracemont_core.json", "CPU_CLK_UNHALTED.CORE", "0x00", "0x02", "0", "Fixed counter 1", "0x00", "0x00" },
	{ "ADL/events/alderlake_gracemont_core.json", "CPU_CLK_UNHALTED.CORE_P", "0x3c", "0x00", "0", "0,1,2,3,4,5", "0x00", "0x00" },
	{ "ADL/events/alderlake_gracemont_core.json", "CPU_CLK_UNHALTED.REF_TSC", "0x00", "0x03", "0", "Fixed counter 2", "0x00", "0x00" },
	{ "ADL/events/alderlake_gracemont_core.json", "MEM_UOPS_RETIRED.ALL_LOADS", "0xd0", "0x81", "0", "0,1,2,3,4,5", "0x00", "0x00" },
	{ "ADL/events/alderlake_gracemont_core.json", "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", "0xd0", "0x05", "0", "0,1", "0x3F6", "0x4" },
	{ "ADL/events/alderlake_gracemont_core.json", "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD", "0xB7", "0x01,0x02", "0", "0,1,2,3,4,5", "0x1a6,0x1a7", "0x4003C0001" },
	{ "ADL/events/alderlake_gracemont_core.json", "MEM_LOAD_UOPS_RETIRED.HITM", "0xd1", "0x20", "0", "0,1,2,3,4,5", "0x00", "0x00" },
	/* SNR/events/snowridgex_core.json (V1.23; 06_86) */
	{ "SNR/events/snowridgex_core.json", "INST_RETIRED.ANY", "0x00", "0x01", "0", "Fixed counter 0", "0x00", "0x00" },
	{ "SNR/events/snowridgex_core.json", "INST_RETIRED.ANY_P", "0xc0", "0x00", "0", "0,1,2,3", "0x00", "0x00" },
	{ "SNR/events/snowridgex_core.json", "CPU_CLK_UNHALTED.CORE", "0x00", "0x02", "0", "Fixed counter 1", "0x00", "0x00" },
	{ "SNR/events/snowridgex_core.json", "CPU_CLK_UNHALTED.CORE_P", "0x3c", "0x00", "0", "0,1,2,3", "0x00", "0x00" },
	{ "SNR/events/snowridgex_core.json", "CPU_CLK_UNHALTED.REF_TSC", "0x00", "0x03", "0", "Fixed counter 2", "0x00", "0x00" },
	{ "SNR/events/snowridgex_core.json", "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD", "0XB7", "0x01,0x02", "0", "0,1,2,3", "0x1a6,0x1a7", "0x4003C0001" },
	{ "SNR/events/snowridgex_core.json", "MEM_LOAD_UOPS_RETIRED.HITM", "0xd1", "0x20", "0", "0,1,2,3", "0x00", "0x00" },
	{ "SNR/events/snowridgex_core.json", "OCR.DEMAND_DATA_RD.ANY_RESPONSE", "0XB7", "0x01,0x02", "0", "0,1,2,3", "0x1a6,0x1a7", "0x10001" },
	{ "SNR/events/snowridgex_core.json", "OCR.DEMAND_DATA_RD.OUTSTANDING", "0XB7", "0x01,0x02", "0", "0,1,2,3", "0x1a6", "0x8000000000000001" },
	/* EHL/events/elkhartlake_core.json (V1.05; 06_96, 06_9C) */
	{ "EHL/events/elkhartlake_core.json", "INST_RETIRED.ANY", "0x00", "0x01", "0", "Fixed counter 0", "0x00", "0x00" },
	{ "EHL/events/elkhartlake_core.json", "INST_RETIRED.ANY_P", "0xc0", "0x00", "0", "0,1,2,3", "0x00", "0x00" },
	{ "EHL/events/elkhartlake_core.json", "CPU_CLK_UNHALTED.CORE", "0x00", "0x02", "0", "Fixed counter 1", "0x00", "0x00" },
	{ "EHL/events/elkhartlake_core.json", "CPU_CLK_UNHALTED.CORE_P", "0x3c", "0x00", "0", "0,1,2,3", "0x00", "0x00" },
	{ "EHL/events/elkhartlake_core.json", "CPU_CLK_UNHALTED.REF_TSC", "0x00", "0x03", "0", "Fixed counter 2", "0x00", "0x00" },
	{ "EHL/events/elkhartlake_core.json", "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD", "0XB7", "0x01,0x02", "0", "0,1,2,3", "0x1a6,0x1a7", "0x4003C0001" },
	{ "EHL/events/elkhartlake_core.json", "MEM_LOAD_UOPS_RETIRED.HITM", "0xd1", "0x20", "0", "0,1,2,3", "0x00", "0x00" },
	{ "EHL/events/elkhartlake_core.json", "OCR.DEMAND_DATA_RD.ANY_RESPONSE", "0XB7", "0x01,0x02", "0", "0,1,2,3", "0x1a6,0x1a7", "0x10001" },
	{ "EHL/events/elkhartlake_core.json", "OCR.DEMAND_DATA_RD.OUTSTANDING", "0XB7", "0x01,0x02", "0", "0,1,2,3", "0x1a6", "0x8000000000000001" },
	/* GNR/events/graniterapids_core.json (V1.20; 06_AD, 06_AE): the sapphirerapids table */
	{ "GNR/events/graniterapids_core.json", "INST_RETIRED.ANY", "0x00", "0x01", "0", "Fixed counter 0", "0x00", "0x00" },
	{ "GNR/events/graniterapids_core.json", "INST_RETIRED.ANY_P", "0xc0", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "GNR/events/graniterapids_core.json", "CPU_CLK_UNHALTED.THREAD", "0x00", "0x02", "0", "Fixed counter 1", "0x00", "0x00" },
	{ "GNR/events/graniterapids_core.json", "CPU_CLK_UNHALTED.THREAD_P", "0x3c", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "GNR/events/graniterapids_core.json", "CPU_CLK_UNHALTED.REF_TSC", "0x00", "0x03", "0", "Fixed counter 2", "0x00", "0x00" },
	{ "GNR/events/graniterapids_core.json", "MEM_INST_RETIRED.ALL_LOADS", "0xd0", "0x81", "0", "0,1,2,3", "0x00", "0x00" },
	{ "GNR/events/graniterapids_core.json", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_N", "0xcd", "0x01", "0", "1,2,3,4,5,6,7", "0x3F6", "0x4" },
	{ "GNR/events/graniterapids_core.json", "MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD", "0xd2", "0x02", "0", "0,1,2,3", "0x00", "0x00" },
	{ "GNR/events/graniterapids_core.json", "MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD", "0xd2", "0x04", "0", "0,1,2,3", "0x00", "0x00" },
	{ "GNR/events/graniterapids_core.json", "MEM_LOAD_L3_MISS_RETIRED.REMOTE_FWD", "0xd3", "0x08", "0", "0,1,2,3", "0x00", "0x00" },
	{ "GNR/events/graniterapids_core.json", "MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM", "0xd3", "0x04", "0", "0,1,2,3", "0x00", "0x00" },
	{ "GNR/events/graniterapids_core.json", "OFFCORE_REQUESTS.DEMAND_DATA_RD", "0x21", "0x01", "0", "0,1,2,3", "0x00", "0x00" },
	{ "GNR/events/graniterapids_core.json", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", "0x20", "0x01", "0", "0,1,2,3", "0x00", "0x00" },
	/* MTL/events/meteorlake_crestmont_core.json (V1.22; 06_AA, AC, B5 core type 0x20 native 2) */
	{ "MTL/events/meteorlake_crestmont_core.json", "INST_RETIRED.ANY", "0x00", "0x01", "0", "Fixed counter 0", "0x00", "0x00" },
	{ "MTL/events/meteorlake_crestmont_core.json", "INST_RETIRED.ANY_P", "0xc0", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "MTL/events/meteorlake_crestmont_core.json", "CPU_CLK_UNHALTED.CORE", "0x00", "0x02", "0", "Fixed counter 1", "0x00", "0x00" },
	{ "MTL/events/meteorlake_crestmont_core.json", "CPU_CLK_UNHALTED.CORE_P", "0x3c", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "MTL/events/meteorlake_crestmont_core.json", "CPU_CLK_UNHALTED.REF_TSC", "0x00", "0x03", "0", "Fixed counter 2", "0x00", "0x00" },
	{ "MTL/events/meteorlake_crestmont_core.json", "MEM_UOPS_RETIRED.ALL_LOADS", "0xd0", "0x81", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "MTL/events/meteorlake_crestmont_core.json", "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", "0xd0", "0x05", "0", "0,1", "0x3F6", "0x4" },
	{ "MTL/events/meteorlake_crestmont_core.json", "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM", "0xB7", "0x01,0x02", "0", "0,1,2,3,4,5,6,7", "0x1a6,0x1a7", "0x10003C0001" },
	{ "MTL/events/meteorlake_crestmont_core.json", "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD", "0xB7", "0x01,0x02", "0", "0,1,2,3,4,5,6,7", "0x1a6,0x1a7", "0x4003C0001" },
	/* ARL/events/arrowlake_crestmont_core.json (V1.20; 06_C5 core type 0x20 native 2, LowPower_Atom): no OCR event */
	{ "ARL/events/arrowlake_crestmont_core.json", "INST_RETIRED.ANY", "0x00", "0x01", "0", "Fixed counter 0", "0x00", "0x00" },
	{ "ARL/events/arrowlake_crestmont_core.json", "INST_RETIRED.ANY_P", "0xc0", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "ARL/events/arrowlake_crestmont_core.json", "CPU_CLK_UNHALTED.CORE", "0x00", "0x02", "0", "Fixed counter 1", "0x00", "0x00" },
	{ "ARL/events/arrowlake_crestmont_core.json", "CPU_CLK_UNHALTED.CORE_P", "0x3c", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "ARL/events/arrowlake_crestmont_core.json", "CPU_CLK_UNHALTED.REF_TSC", "0x00", "0x03", "0", "Fixed counter 2", "0x00", "0x00" },
	{ "ARL/events/arrowlake_crestmont_core.json", "MEM_UOPS_RETIRED.ALL_LOADS", "0xd0", "0x81", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "ARL/events/arrowlake_crestmont_core.json", "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", "0xd0", "0x05", "0", "0,1", "0x3F6", "0x4" },
	/* MTL/events/meteorlake_redwoodcove_core.json (V1.22; 06_AA, AC, B5 core type 0x40 native 2) */
	{ "MTL/events/meteorlake_redwoodcove_core.json", "INST_RETIRED.ANY", "0x00", "0x01", "0", "Fixed counter 0", "0x00", "0x00" },
	{ "MTL/events/meteorlake_redwoodcove_core.json", "INST_RETIRED.ANY_P", "0xc0", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "MTL/events/meteorlake_redwoodcove_core.json", "CPU_CLK_UNHALTED.THREAD", "0x00", "0x02", "0", "Fixed counter 1", "0x00", "0x00" },
	{ "MTL/events/meteorlake_redwoodcove_core.json", "CPU_CLK_UNHALTED.THREAD_P", "0x3c", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "MTL/events/meteorlake_redwoodcove_core.json", "CPU_CLK_UNHALTED.REF_TSC", "0x00", "0x03", "0", "Fixed counter 2", "0x00", "0x00" },
	{ "MTL/events/meteorlake_redwoodcove_core.json", "MEM_INST_RETIRED.ALL_LOADS", "0xd0", "0x81", "0", "0,1,2,3", "0x00", "0x00" },
	{ "MTL/events/meteorlake_redwoodcove_core.json", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_N", "0xcd", "0x01", "0", "1,2,3,4,5,6,7", "0x3F6", "0x4" },
	{ "MTL/events/meteorlake_redwoodcove_core.json", "MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD", "0xd2", "0x02", "0", "0,1,2,3", "0x00", "0x00" },
	{ "MTL/events/meteorlake_redwoodcove_core.json", "MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD", "0xd2", "0x04", "0", "0,1,2,3", "0x00", "0x00" },
	{ "MTL/events/meteorlake_redwoodcove_core.json", "OFFCORE_REQUESTS.DEMAND_DATA_RD", "0x21", "0x01", "0", "0,1,2,3", "0x00", "0x00" },
	{ "MTL/events/meteorlake_redwoodcove_core.json", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", "0x20", "0x01", "0", "0,1,2,3", "0x00", "0x00" },
	/* SRF/events/sierraforest_core.json (V1.18; 06_AF) */
	{ "SRF/events/sierraforest_core.json", "INST_RETIRED.ANY", "0x00", "0x01", "0", "Fixed counter 0", "0x00", "0x00" },
	{ "SRF/events/sierraforest_core.json", "INST_RETIRED.ANY_P", "0xc0", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "SRF/events/sierraforest_core.json", "CPU_CLK_UNHALTED.CORE", "0x00", "0x02", "0", "Fixed counter 1", "0x00", "0x00" },
	{ "SRF/events/sierraforest_core.json", "CPU_CLK_UNHALTED.CORE_P", "0x3c", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "SRF/events/sierraforest_core.json", "CPU_CLK_UNHALTED.REF_TSC", "0x00", "0x03", "0", "Fixed counter 2", "0x00", "0x00" },
	{ "SRF/events/sierraforest_core.json", "MEM_UOPS_RETIRED.ALL_LOADS", "0xd0", "0x81", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "SRF/events/sierraforest_core.json", "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", "0xd0", "0x05", "0", "0,1", "0x3F6", "0x4" },
	{ "SRF/events/sierraforest_core.json", "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM", "0xB7", "0x01,0x02", "0", "0,1,2,3,4,5,6,7", "0x1a6,0x1a7", "0x10003C0001" },
	{ "SRF/events/sierraforest_core.json", "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_FWD_NONM", "0xd3", "0x04", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "SRF/events/sierraforest_core.json", "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_FWD_HITM", "0xd3", "0x08", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	/* GRR/events/grandridge_core.json (V1.13; 06_B6) */
	{ "GRR/events/grandridge_core.json", "INST_RETIRED.ANY", "0x00", "0x01", "0", "Fixed counter 0", "0x00", "0x00" },
	{ "GRR/events/grandridge_core.json", "INST_RETIRED.ANY_P", "0xc0", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "GRR/events/grandridge_core.json", "CPU_CLK_UNHALTED.CORE", "0x00", "0x02", "0", "Fixed counter 1", "0x00", "0x00" },
	{ "GRR/events/grandridge_core.json", "CPU_CLK_UNHALTED.CORE_P", "0x3c", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "GRR/events/grandridge_core.json", "CPU_CLK_UNHALTED.REF_TSC", "0x00", "0x03", "0", "Fixed counter 2", "0x00", "0x00" },
	{ "GRR/events/grandridge_core.json", "MEM_UOPS_RETIRED.ALL_LOADS", "0xd0", "0x81", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "GRR/events/grandridge_core.json", "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", "0xd0", "0x05", "0", "0,1", "0x3F6", "0x4" },
	{ "GRR/events/grandridge_core.json", "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM", "0xB7", "0x01,0x02", "0", "0,1,2,3,4,5,6,7", "0x1a6,0x1a7", "0x10003C0001" },
	/* LNL/events/lunarlake_lioncove_core.json (V1.26; 06_BD core type 0x40 native 3) */
	{ "LNL/events/lunarlake_lioncove_core.json", "INST_RETIRED.ANY", "0x00", "0x01", "0", "Fixed counter 0", "0x00", "0x00" },
	{ "LNL/events/lunarlake_lioncove_core.json", "INST_RETIRED.ANY_P", "0xc0", "0x00", "0", "0,1,2,3,4,5,6,7,8,9", "0x00", "0x00" },
	{ "LNL/events/lunarlake_lioncove_core.json", "CPU_CLK_UNHALTED.THREAD", "0x00", "0x02", "0", "Fixed counter 1", "0x00", "0x00" },
	{ "LNL/events/lunarlake_lioncove_core.json", "CPU_CLK_UNHALTED.THREAD_P", "0x3c", "0x00", "0", "0,1,2,3,4,5,6,7,8,9", "0x00", "0x00" },
	{ "LNL/events/lunarlake_lioncove_core.json", "CPU_CLK_UNHALTED.REF_TSC", "0x00", "0x03", "0", "Fixed counter 2", "0x00", "0x00" },
	{ "LNL/events/lunarlake_lioncove_core.json", "MEM_INST_RETIRED.ALL_LOADS", "0xd0", "0x81", "0", "0,1,2,3", "0x00", "0x00" },
	{ "LNL/events/lunarlake_lioncove_core.json", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_N", "0xcd", "0x01", "0", "2,3,4,5,6,7,8,9", "0x3F6", "0x4" },
	{ "LNL/events/lunarlake_lioncove_core.json", "MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD", "0xd2", "0x02", "0", "0,1,2,3", "0x00", "0x00" },
	{ "LNL/events/lunarlake_lioncove_core.json", "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM", "0xd2", "0x04", "0", "0,1,2,3", "0x00", "0x00" },
	{ "LNL/events/lunarlake_lioncove_core.json", "MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD", "0xd2", "0x10", "0", "0,1,2,3", "0x00", "0x00" },
	{ "LNL/events/lunarlake_lioncove_core.json", "OFFCORE_REQUESTS.DEMAND_DATA_RD", "0x21", "0x01", "0", "0,1,2,3,4,5,6,7,8,9", "0x00", "0x00" },
	{ "LNL/events/lunarlake_lioncove_core.json", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", "0x20", "0x01", "0", "0,1,2,3", "0x00", "0x00" },
	/* ARL/events/arrowlake_lioncove_core.json (V1.20; 06_C5, C6 core type 0x40 native 3) */
	{ "ARL/events/arrowlake_lioncove_core.json", "INST_RETIRED.ANY", "0x00", "0x01", "0", "Fixed counter 0", "0x00", "0x00" },
	{ "ARL/events/arrowlake_lioncove_core.json", "INST_RETIRED.ANY_P", "0xc0", "0x00", "0", "0,1,2,3,4,5,6,7,8,9", "0x00", "0x00" },
	{ "ARL/events/arrowlake_lioncove_core.json", "CPU_CLK_UNHALTED.THREAD", "0x00", "0x02", "0", "Fixed counter 1", "0x00", "0x00" },
	{ "ARL/events/arrowlake_lioncove_core.json", "CPU_CLK_UNHALTED.THREAD_P", "0x3c", "0x00", "0", "0,1,2,3,4,5,6,7,8,9", "0x00", "0x00" },
	{ "ARL/events/arrowlake_lioncove_core.json", "CPU_CLK_UNHALTED.REF_TSC", "0x00", "0x03", "0", "Fixed counter 2", "0x00", "0x00" },
	{ "ARL/events/arrowlake_lioncove_core.json", "MEM_INST_RETIRED.ALL_LOADS", "0xd0", "0x81", "0", "0,1,2,3", "0x00", "0x00" },
	{ "ARL/events/arrowlake_lioncove_core.json", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_N", "0xcd", "0x01", "0", "2,3,4,5,6,7,8,9", "0x3F6", "0x4" },
	{ "ARL/events/arrowlake_lioncove_core.json", "MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD", "0xd2", "0x02", "0", "0,1,2,3", "0x00", "0x00" },
	{ "ARL/events/arrowlake_lioncove_core.json", "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM", "0xd2", "0x04", "0", "0,1,2,3", "0x00", "0x00" },
	{ "ARL/events/arrowlake_lioncove_core.json", "MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD", "0xd2", "0x10", "0", "0,1,2,3", "0x00", "0x00" },
	{ "ARL/events/arrowlake_lioncove_core.json", "OFFCORE_REQUESTS.DEMAND_DATA_RD", "0x21", "0x01", "0", "0,1,2,3,4,5,6,7,8,9", "0x00", "0x00" },
	{ "ARL/events/arrowlake_lioncove_core.json", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", "0x20", "0x01", "0", "0,1,2,3", "0x00", "0x00" },
	/* LNL/events/lunarlake_skymont_core.json (V1.26; 06_BD core type 0x20 native 3): no snoop event */
	{ "LNL/events/lunarlake_skymont_core.json", "INST_RETIRED.ANY", "0x00", "0x01", "0", "Fixed counter 0", "0x00", "0x00" },
	{ "LNL/events/lunarlake_skymont_core.json", "INST_RETIRED.ANY_P", "0xc0", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "LNL/events/lunarlake_skymont_core.json", "CPU_CLK_UNHALTED.CORE", "0x00", "0x02", "0", "Fixed counter 1", "0x00", "0x00" },
	{ "LNL/events/lunarlake_skymont_core.json", "CPU_CLK_UNHALTED.CORE_P", "0x3c", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "LNL/events/lunarlake_skymont_core.json", "CPU_CLK_UNHALTED.REF_TSC", "0x00", "0x03", "0", "Fixed counter 2", "0x00", "0x00" },
	{ "LNL/events/lunarlake_skymont_core.json", "MEM_UOPS_RETIRED.ALL_LOADS", "0xd0", "0x81", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "LNL/events/lunarlake_skymont_core.json", "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", "0xd0", "0x05", "0", "0,1", "0x3F6", "0x4" },
	/* ARL/events/arrowlake_skymont_core.json (V1.20; 06_C5, C6 core type 0x20 native 3) */
	{ "ARL/events/arrowlake_skymont_core.json", "INST_RETIRED.ANY", "0x00", "0x01", "0", "Fixed counter 0", "0x00", "0x00" },
	{ "ARL/events/arrowlake_skymont_core.json", "INST_RETIRED.ANY_P", "0xc0", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "ARL/events/arrowlake_skymont_core.json", "CPU_CLK_UNHALTED.CORE", "0x00", "0x02", "0", "Fixed counter 1", "0x00", "0x00" },
	{ "ARL/events/arrowlake_skymont_core.json", "CPU_CLK_UNHALTED.CORE_P", "0x3c", "0x00", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "ARL/events/arrowlake_skymont_core.json", "CPU_CLK_UNHALTED.REF_TSC", "0x00", "0x03", "0", "Fixed counter 2", "0x00", "0x00" },
	{ "ARL/events/arrowlake_skymont_core.json", "MEM_UOPS_RETIRED.ALL_LOADS", "0xd0", "0x81", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ "ARL/events/arrowlake_skymont_core.json", "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", "0xd0", "0x05", "0", "0,1", "0x3F6", "0x4" },
	{ "ARL/events/arrowlake_skymont_core.json", "MEM_LOAD_UOPS_MISC_RETIRED.L3_HIT_SNOOP_HITM", "0xd4", "0x08", "0", "0,1,2,3,4,5,6,7", "0x00", "0x00" },
	{ NULL },
};

/*
 * Item @k of a json list ("0x01,0x02"; "0XB7" too), or the only item;
 * ~0 past the end (no json value here is all ones).
 */
static uint64_t json_item(const char *list, int k)
{
	const char *p = list;

	while (k-- > 0) {
		p = strchr(p, ',');
		if (!p)
			return ~0ull;
		p++;
	}
	return strtoull(p, NULL, 0);
}

static int json_items(const char *list)
{
	int n = 1;

	for (const char *p = list; *p; p++)
		n += *p == ',';
	return n;
}

/* The json "Counter" field as a mask of PMCs, or -1 - k for "Fixed counter k". */
static int json_counters(const char *c)
{
	int mask = 0;

	if (!strncmp(c, "Fixed counter ", 14))
		return -1 - atoi(c + 14);
	for (int k = 0; k < json_items(c); k++)
		mask |= 1 << json_item(c, k);
	return mask;
}

/* Row @e of table @t against Intel's values in @file, one of t->json's. */
static void check_json_file_row(const struct pmu_table *t, const struct pmu_event *e,
				const char *file)
{
	const struct json_row *j;
	int k, umasks;

	for (j = json_rows; j->file; j++)
		if (!strcmp(j->file, file) && !strcmp(j->name, e->name))
			break;
	if (!j->file)
		fail_msg("%s row %s: no such event in Intel's %s (json_rows)", t->name, e->name,
			 file);
	if (e->fixed != PMU_FIXED_NONE) {
		assert_int_equal(json_counters(j->counter), -1 - e->fixed);
		/* the json's fixed-counter pseudo-code: 0x00, umask counter + 1 */
		assert_int_equal(json_item(j->code, 0), 0);
		assert_int_equal(json_item(j->umask, 0), e->fixed + 1);
		return;
	}
	umasks = json_items(j->umask);
	for (k = 0; k < umasks; k++)
		if (json_item(j->umask, k) == e->umask)
			break;
	if (k == umasks)
		fail_msg("%s row %s: umask 0x%x, Intel's %s says %s", t->name, e->name, e->umask,
			 file, j->umask);
	assert_int_equal(json_item(j->code, 0), e->event);
	assert_int_equal(json_item(j->cmask, 0), e->cmask);
	assert_false(e->inv || e->edge);
	/* Intel's whole list: Lion Cove's names PMC8 and 9 (events/lioncove.c). */
	if (json_counters(j->counter) != e->counters)
		fail_msg("%s row %s: counters 0x%x, Intel's %s says %s", t->name, e->name,
			 e->counters, file, j->counter);
	if (e->offcore) {
		/* the umask's MSR: 0x1a6 for RSP_0, 0x1a7 for RSP_1, as listed beside it */
		assert_int_equal(json_item(j->msr_index, k), 0x1a6 + e->offcore - 1);
		assert_int_equal(json_item(j->msr_value, 0), e->offcore_rsp);
	} else if (e->ldlat) {
		assert_int_equal(json_item(j->msr_index, 0), 0x3f6);
	} else {
		assert_int_equal(json_item(j->msr_index, 0), 0);
	}
}

/* Has Intel's @file an event of @e's name (json_rows)? */
static bool json_has(const char *file, const struct pmu_event *e)
{
	for (const struct json_row *j = json_rows; j->file; j++)
		if (!strcmp(j->file, file) && !strcmp(j->name, e->name))
			return true;
	return false;
}

/*
 * Row @e of @t against every Intel file t->json names (space-separated:
 * a table serving parts of several files must agree with each).  A row
 * only some models have (.needs) is checked in the files that list it,
 * one at least.
 */
static void check_json_row(const struct pmu_table *t, const struct pmu_event *e)
{
	char files[256], *save = NULL;
	int n = 0;

	snprintf(files, sizeof(files), "%s", t->json);
	for (char *f = strtok_r(files, " ", &save); f; f = strtok_r(NULL, " ", &save)) {
		if (e->needs && !json_has(f, e))
			continue;
		check_json_file_row(t, e, f);
		n++;
	}
	if (!n)
		fail_msg("%s row %s: in none of Intel's %s", t->name, e->name, t->json);
}

static void check_json(const struct pmu_table *t)
{
	int checked = 0;

	for (const struct pmu_event *e = t->events; e->name; e++, checked++)
		check_json_row(t, e);
	assert_true(checked > 0);
}

/*
 * The client P-cores use the Sapphire Rapids table without its remote rows
 * (cpu/uarch.c GLC_CLIENT): Golden Cove (Alder and Raptor Lake) and Redwood
 * Cove (Meteor Lake, Arrow Lake-U).  libpfm4 4.13 has no PMU for either
 * (pmu-facts 9.8), so each row they can have is checked against Intel's
 * file of that core too.
 */
static void test_client_cores(void **state)
{
	static const struct { const char *part, *core, *file; } cores[] = {
		{ "alderlake", "goldencove", "ADL/events/alderlake_goldencove_core.json" },
		{ "meteorlake", "redwoodcove", "MTL/events/meteorlake_redwoodcove_core.json" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cores) / sizeof(cores[0]); i++) {
		const struct uarch *u = uarch_by_name(cores[i].part), *t;
		struct pmu_table own;
		uint8_t type = 0;
		int checked = 0;

		assert_non_null(u);
		t = uarch_core_type(u, 0, &type);
		assert_non_null(t);
		assert_string_equal(t->name, cores[i].core);
		assert_int_equal(type, CORE_TYPE_CORE);
		assert_ptr_equal(t->table, u->table);
		assert_int_equal(t->flags, u->flags);
		assert_false(t->flags & UARCH_F_REMOTE_EVENTS);
		own = *t->table;
		own.json = cores[i].file;
		for (const struct pmu_event *e = own.events; e->name; e++) {
			if (e->needs & ~t->flags)
				continue;       /* a server row, never placed on a client part */
			check_json_row(&own, e);
			checked++;
		}
		assert_int_equal(checked, 11);
	}
	assert_ptr_equal(uarch_by_name("raptorlake")->table, uarch_by_name("alderlake")->table);
	assert_ptr_equal(uarch_by_name("arrowlake")->table, uarch_by_name("meteorlake")->table);
}

/*
 * The Crestmont E-cores of the hybrids: the Crestmont table with the flags
 * of their own Intel file.  Every row that fits Meteor Lake's (and Arrow
 * Lake-U's) E-cores is in meteorlake_crestmont_core.json, the clean snoop
 * hit among them; every row that fits Arrow Lake-H's low-power E-cores is
 * in arrowlake_crestmont_core.json, which has no snoop event, so no snoop
 * row fits them.
 */
static void test_crestmont_hybrids(void **state)
{
	static const struct {
		const char *part, *pretty, *file;
		int rows;
		bool snoop;
	} parts[] = {
		{ "meteorlake", "Crestmont", "MTL/events/meteorlake_crestmont_core.json", 11, true },
		{ "arrowlake", "Crestmont LP-E", "ARL/events/arrowlake_crestmont_core.json", 7, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const struct uarch *u = uarch_by_name(parts[i].part), *t = NULL;
		struct pmu_table own;
		uint8_t type = 0;
		int checked = 0, snoop = 0;

		assert_non_null(u);
		for (size_t k = 0; (t = uarch_core_type(u, k, &type)); k++)
			if (type == CORE_TYPE_ATOM && !strcmp(t->pretty, parts[i].pretty))
				break;
		if (!t)
			fail_msg("%s: no %s core type", parts[i].part, parts[i].pretty);
		assert_string_equal(t->table->name, "crestmont");
		own = *t->table;
		own.json = parts[i].file;
		for (const struct pmu_event *e = own.events; e->name; e++) {
			if (e->needs & ~t->flags)
				continue;
			check_json_row(&own, e);
			checked++;
			snoop += e->metric == M_SNOOP_HIT || e->metric == M_SNOOP_HITM;
		}
		assert_int_equal(checked, parts[i].rows);
		assert_int_equal(snoop > 0, parts[i].snoop);
	}
}

/* One libpfm4 answer, as sent from the child. */
struct pfm_answer {
	int rc;                  /* PFM_SUCCESS or a libpfm4 error */
	int count;               /* codes libpfm4 returned */
	uint64_t codes[2];
	char pmu[16];            /* the PMU that answered ("wsm" of "wsm::EVENT:...") */
	bool ht_off;             /* its event or umask description says "HT off" */
	struct perf_event_attr attr;   /* asked with PFM_OS_PERF_EVENT_EXT: the perf encoding */
};

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len > 0) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Does libpfm4 describe @ev ("EVENT:UMASK:...") as for HT off only, in the
 * event's description or one of its umasks' (libpfm4's "use with HT off
 * only")?
 */
static bool pfm_ht_off(const char *ev)
{
	char name[128], *colon;
	pfm_event_info_t info;
	int idx;

	snprintf(name, sizeof(name), "%s", ev);
	if ((colon = strchr(name, ':')))
		*colon = 0;
	if ((idx = pfm_find_event(name)) < 0)
		return false;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	if (pfm_get_event_info(idx, PFM_OS_NONE, &info) != PFM_SUCCESS)
		return false;
	if (info.desc && strstr(info.desc, "HT off"))
		return true;
	for (int k = 0; k < info.nattrs; k++) {
		pfm_event_attr_info_t at;
		const char *p = ev;
		size_t len;

		memset(&at, 0, sizeof(at));
		at.size = sizeof(at);
		if (pfm_get_event_attr_info(idx, k, PFM_OS_NONE, &at) != PFM_SUCCESS ||
		    at.type != PFM_ATTR_UMASK || !at.name)
			continue;
		len = strlen(at.name);
		/* One of the string's ":UMASK" fields, whole. */
		while ((p = strchr(p, ':'))) {
			p++;
			if (!strncasecmp(p, at.name, len) && (p[len] == 0 || p[len] == ':'))
				break;
		}
		if (p && at.desc && strstr(at.desc, "HT off"))
			return true;
	}
	return false;
}

static void pfm_child(int fd, const char *pmu, pfm_os_t os, const char *const *events, int n)
{
	int init;

	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	init = pfm_initialize();
	for (int i = 0; i < n; i++) {
		struct pfm_answer a;
		pfm_pmu_encode_arg_t arg;
		pfm_perf_encode_arg_t parg;
		char *fstr = NULL;

		memset(&a, 0, sizeof(a));
		memset(&arg, 0, sizeof(arg));
		memset(&parg, 0, sizeof(parg));
		arg.size = sizeof(arg);
		arg.fstr = &fstr;
		parg.size = sizeof(parg);
		parg.fstr = &fstr;
		parg.attr = &a.attr;
		a.rc = init;
		if (init == PFM_SUCCESS)
			a.rc = pfm_get_os_event_encoding(events[i], PFM_PLM0 | PFM_PLM3, os,
							 os == PFM_OS_NONE ? (void *)&arg : (void *)&parg);
		if (a.rc == PFM_SUCCESS) {
			const char *sep = fstr ? strstr(fstr, "::") : NULL;

			a.count = arg.count;
			for (int j = 0; j < arg.count && j < 2; j++)
				a.codes[j] = arg.codes[j];
			if (sep && (size_t)(sep - fstr) < sizeof(a.pmu))
				memcpy(a.pmu, fstr, (size_t)(sep - fstr));
			a.ht_off = pfm_ht_off(events[i]);
		}
		free(arg.codes);
		free(fstr);
		if (write_all(fd, &a, sizeof(a)))
			_exit(2);
	}
	_exit(0);
}

/*
 * Encode @events with libpfm4 forced to @pmu, in a child process, for @os
 * (PFM_OS_NONE: the raw codes; PFM_OS_PERF_EVENT_EXT: a perf_event_attr).
 * 0, or -1 when the child could not be run or did not answer.
 */
static int pfm_ask_os(const char *pmu, pfm_os_t os, const char *const *events, int n,
		      struct pfm_answer *ans)
{
	int fd[2], status, rc = 0;
	pid_t pid;

	if (pipe(fd))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		close(fd[0]);
		pfm_child(fd[1], pmu, os, events, n);
	}
	close(fd[1]);
	if (read_all(fd[0], ans, sizeof(*ans) * (size_t)n))
		rc = -1;
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		rc = -1;
	return rc;
}

static int pfm_ask(const char *pmu, const char *const *events, int n, struct pfm_answer *ans)
{
	return pfm_ask_os(pmu, PFM_OS_NONE, events, n, ans);
}

/* ---------- tests that need no oracle ---------- */

/*
 * The tables are those of uarch_supported[], each once, in its order, with
 * a name, and at least one libpfm4 PMU to check its rows on.
 */
static void test_tables_list(void **state)
{
	const struct pmu_table *t;
	size_t n = 0;

	(void)state;
	for (const struct uarch *const *u = uarch_supported; *u; u++) {
		size_t seen = 0;

		assert_non_null((*u)->table);
		for (size_t i = 0; (t = uarch_pmu_table(i)); i++)
			seen += t == (*u)->table;
		assert_int_equal(seen, 1);
	}
	for (n = 0; (t = uarch_pmu_table(n)); n++) {
		assert_non_null(t->name);
		assert_true(t->name[0] != '\0');
		/* libpfm4 PMUs, or Intel's file for what libpfm4 lacks, or both */
		assert_true(table_npfm(t) > 0 || t->json != NULL);
		for (size_t k = 0; k < n; k++)
			assert_string_not_equal(uarch_pmu_table(k)->name, t->name);
	}
	assert_true(n > 0);
	assert_null(uarch_pmu_table(n + 1));
}

/*
 * Every part a table serves has a libpfm4 PMU among the table's that
 * stands for it: the same MSR_OFFCORE_RSP_x count and the same flags, as
 * far as the table's rows need them.
 */
static void test_tables_pmus_cover_parts(void **state)
{
	(void)state;
	for (const struct uarch *const *u = uarch_supported; *u; u++) {
		const struct pmu_table *t = (*u)->table;
		uint32_t needed = 0;
		bool found = false;

		if (!table_npfm(t))
			continue;       /* checked against Intel's file, part by part */
		for (const struct pmu_event *e = t->events; e->name; e++)
			needed |= e->needs;
		for (size_t p = 0; p < table_npfm(t); p++)
			found |= t->pfm[p].offcore_msrs == (*u)->offcore_msrs &&
				 (t->pfm[p].flags & needed) == ((*u)->flags & needed);
		if (!found)
			fail_msg("%s: table %s names no libpfm4 PMU for its %u offcore MSRs "
				 "and flags 0x%x", (*u)->name, t->name, (*u)->offcore_msrs,
				 (*u)->flags & needed);
	}
}

static void test_metric_names(void **state)
{
	(void)state;
	assert_string_equal(metric_name(M_CYCLES), "cycles");
	assert_string_equal(metric_name(M_LOAD_LATENCY), "load_latency");
	assert_string_equal(metric_name(M_OFFCORE_OUTSTANDING), "offcore_outstanding");
	assert_string_equal(metric_name(M__COUNT), "unknown");
	assert_string_equal(metric_name((enum metric)-1), "unknown");
	for (int m = 0; m < M__COUNT; m++) {
		const char *a = metric_name((enum metric)m);

		assert_non_null(a);
		assert_true(a[0] != '\0');
		assert_null(strchr(a, ' '));
		for (int k = m + 1; k < M__COUNT; k++)
			assert_string_not_equal(a, metric_name((enum metric)k));
	}
}

static void test_evtsel_bits(void **state)
{
	struct pmu_event e = {
		.name = "X", .event = 0xB7, .umask = 0x01, .fixed = PMU_FIXED_NONE,
		.counters = 0xF, .source = "test",
	};

	(void)state;
	/* 0x4301B7: USR|OS|EN with event 0xB7 umask 0x01, as the kernel writes it minus INT */
	assert_int_equal(pmu_event_evtsel(&e), 0x4301B7ull);
	e.cmask = 16;
	e.inv = true;
	assert_int_equal(pmu_event_evtsel(&e), 0x10C301B7ull);
	e.cmask = 1;
	e.inv = false;
	e.edge = true;
	assert_int_equal(pmu_event_evtsel(&e), 0x014701B7ull);
	e.cmask = 0xFF;
	e.inv = true;
	assert_int_equal(pmu_event_evtsel(&e), 0xFFC701B7ull);
	assert_int_equal(pmu_event_evtsel(&e) & (EVTSEL_INT | EVTSEL_ANY | EVTSEL_PC), 0);
	assert_int_equal(pmu_event_evtsel(&e) >> 32, 0);
	e.fixed = 1;
	assert_int_equal(pmu_event_evtsel(&e), 0);
}

static void check_table_sanity(const struct pmu_table *t)
{
	gp_set gp_mask = table_gp_mask(t);
	int n = table_len(t);
	int rows_per_metric[M__COUNT] = { 0 };
	uint8_t rsp_event[3] = { 0 }, rsp_umask[3] = { 0 };

	assert_non_null(t->events);
	assert_true(n > 0);
	assert_true(n < MAX_ROWS);        /* the terminator was found */
	assert_null(t->events[n].name);
	/* A reason fits the plan's buffer untruncated: it is shown as written. */
	for (int m = 0; m < M__COUNT; m++)
		if (t->unsupported[m] &&
		    strlen(t->unsupported[m]) >= sizeof(((struct plan *)0)->reason_buf[0]))
			fail_msg("%s: the reason for %s is %zu characters, over the %zu shown", t->name,
				 metric_name(m), strlen(t->unsupported[m]),
				 sizeof(((struct plan *)0)->reason_buf[0]) - 1);

	for (int i = 0; i < n; i++) {
		const struct pmu_event *e = &t->events[i];
		uint64_t evtsel = pmu_event_evtsel(e);

		assert_true(e->name[0] != '\0');
		assert_non_null(e->source);
		assert_true(e->source[0] != '\0');
		assert_true((unsigned)e->metric < M__COUNT);
		rows_per_metric[e->metric]++;
		assert_int_equal(evtsel & EVTSEL_INT, 0);
		assert_int_equal(evtsel & (EVTSEL_ANY | EVTSEL_PC), 0);

		if (e->fixed != PMU_FIXED_NONE) {
			assert_true(e->fixed >= 0 && e->fixed <= 2);
			assert_int_equal(e->counters, 0);
			assert_int_equal(evtsel, 0);
			assert_int_equal(e->offcore, 0);
			assert_false(e->ldlat);
			assert_int_equal(e->pair, 0);
		} else {
			/*
			 * Every row fits the fewest counters a part of the table
			 * has (gp_needed); past them only where Intel's list is
			 * checked row by row (.json: Lion Cove's PMC8/9, which its
			 * parts with leaf 0x23 have and a libcpuid dump cannot say).
			 */
			assert_true((e->counters & gp_mask) != 0);
			if (!t->json)
				assert_int_equal(e->counters & ~gp_mask, 0);
			assert_int_equal(e->counters & ~(gp_set)((1u << PMU_MAX_GP) - 1), 0);
			assert_true(e->event != 0);
			assert_int_equal(evtsel & (EVTSEL_USR | EVTSEL_OS | EVTSEL_EN),
					 EVTSEL_USR | EVTSEL_OS | EVTSEL_EN);
		}
		if (e->ldlat) {
			/* SDM: CMASK, INV (and Edge for PEBS) must be 0 */
			assert_int_equal(e->cmask, 0);
			assert_false(e->inv);
			assert_false(e->edge);
			assert_int_equal(e->offcore, 0);
			assert_int_equal(e->metric, M_LOAD_LATENCY);
		}
		if (e->offcore) {
			assert_true(e->offcore == 1 || e->offcore == 2);
			assert_true(e->offcore_rsp != 0);
			/* one event select per MSR_OFFCORE_RSP_x in a family */
			if (rsp_event[e->offcore] == 0) {
				rsp_event[e->offcore] = e->event;
				rsp_umask[e->offcore] = e->umask;
			}
			assert_int_equal(e->event, rsp_event[e->offcore]);
			assert_int_equal(e->umask, rsp_umask[e->offcore]);
		} else {
			assert_int_equal(e->offcore_rsp, 0);
		}
		if (e->pair)
			assert_true(e->metric == M_OFFCORE_READS ||
				    e->metric == M_OFFCORE_OUTSTANDING);

		/* no two alternatives of a metric program the same thing */
		for (int k = 0; k < i; k++) {
			const struct pmu_event *o = &t->events[k];

			if (o->metric != e->metric)
				continue;
			assert_false(o->fixed == e->fixed && o->event == e->event &&
				     o->umask == e->umask && o->cmask == e->cmask &&
				     o->inv == e->inv && o->edge == e->edge &&
				     o->offcore == e->offcore && o->offcore_rsp == e->offcore_rsp &&
				     o->needs == e->needs);
		}
	}
	/* the two MSRs use different event selects */
	if (rsp_event[1] && rsp_event[2])
		assert_false(rsp_event[1] == rsp_event[2] && rsp_umask[1] == rsp_umask[2]);

	for (int m = 0; m < M__COUNT; m++) {
		const char *why = t->unsupported[m];

		if (rows_per_metric[m] == 0) {
			if (why == NULL || why[0] == '\0')
				fail_msg("%s: metric %s has no row and no reason", t->name,
					 metric_name((enum metric)m));
		}
		if (why != NULL)
			assert_true(why[0] != '\0');
	}

	/* every pair tag: on exactly the two offcore-latency metrics, and schedulable */
	for (int tag = 1; tag < 256; tag++) {
		bool reads = false, outstanding = false;

		for (int i = 0; i < n; i++) {
			if (t->events[i].pair != tag)
				continue;
			reads |= t->events[i].metric == M_OFFCORE_READS;
			outstanding |= t->events[i].metric == M_OFFCORE_OUTSTANDING;
		}
		assert_true(reads == outstanding);
		struct pfm_pmu parts[MAX_PARTS];
		size_t nparts = table_pmus(t, parts, MAX_PARTS);

		for (size_t p = 0; p < nparts; p++) {
			int applies[M__COUNT] = { 0 };

			for (int i = 0; i < n; i++)
				if (t->events[i].pair == tag &&
				    row_applies(&t->events[i], &parts[p]))
					applies[t->events[i].metric]++;
			assert_true((applies[M_OFFCORE_READS] > 0) ==
				    (applies[M_OFFCORE_OUTSTANDING] > 0));
		}
	}
}

static void test_table_sanity(void **state)
{
	(void)state;
	const struct pmu_table *t;

	for (size_t i = 0; (t = uarch_pmu_table(i)); i++)
		check_table_sanity(t);
}

/* The first row of @m that applies to @p, or NULL. */
static const struct pmu_event *first_row(const struct pmu_table *t, enum metric m,
					 const struct pfm_pmu *p)
{
	for (const struct pmu_event *e = t->events; e->name; e++)
		if (e->metric == m && row_applies(e, p))
			return e;
	return NULL;
}

static void test_table_alternatives(void **state)
{
	(void)state;
	const struct pmu_table *t;

	for (size_t i = 0; (t = uarch_pmu_table(i)); i++) {
		struct pfm_pmu parts[MAX_PARTS];
		size_t nparts = table_pmus(t, parts, MAX_PARTS);

		for (size_t p = 0; p < nparts; p++) {
			const struct pfm_pmu *op = &parts[p];
			const struct pmu_event *e;
			int gp = 0;

			/* fixed counter first, then a general-purpose fallback */
			e = first_row(t, M_INSTRUCTIONS, op);
			assert_non_null(e);
			assert_int_equal(e->fixed, 0);
			e = first_row(t, M_CYCLES, op);
			assert_non_null(e);
			assert_int_equal(e->fixed, 1);
			for (e = t->events; e->name; e++) {
				if (e->metric == M_REF_CYCLES)
					assert_int_equal(e->fixed, 2);
				if ((e->metric == M_INSTRUCTIONS || e->metric == M_CYCLES) &&
				    e->fixed == PMU_FIXED_NONE)
					gp++;
			}
			assert_int_equal(gp, 2);

			/*
			 * snoop hit: RSP_0 first; HITM: RSP_1 first where it exists
			 * (when they are offcore responses, not retired-load events)
			 */
			e = first_row(t, M_SNOOP_HIT, op);
			if (!e)         /* none only where the table says why (Crestmont) */
				assert_non_null(t->unsupported[M_SNOOP_HIT]);
			else if (e->offcore)
				assert_int_equal(e->offcore, 1);
			/* HITM: a row, or the parts the PMU stands for say why not (Tiger Lake) */
			e = first_row(t, M_SNOOP_HITM, op);
			if (!e)
				assert_non_null(t->unsupported[M_SNOOP_HITM]);
			else if (e->offcore)
				assert_int_equal(e->offcore, op->offcore_msrs >= 2 ? 2 : 1);

			/*
			 * offcore reads: the paired row before any unpaired one;
			 * none only where the table says why (the E-cores)
			 */
			e = first_row(t, M_OFFCORE_READS, op);
			if (!e) {
				assert_non_null(t->unsupported[M_OFFCORE_READS]);
				continue;
			}
			if (first_row(t, M_OFFCORE_OUTSTANDING, op))
				assert_true(e->pair != 0);
		}
	}
}

/*
 * The HT bug's events are one fact in two places: a row's ht_excl, and the
 * event codes the sibling probe recognises (PMU_HT_EXCL_FIRST..LAST, K612
 * INTEL_EXCLEVT_CONSTRAINT).  On every uarch with the bug they agree row
 * by row, and the uarch names its erratum; no other uarch names one.
 */
static void test_ht_excl_rows(void **state)
{
	int with = 0;

	(void)state;
	for (int i = 0; uarch_supported[i]; i++) {
		const struct uarch *u = uarch_supported[i];
		bool bug = u->flags & UARCH_F_HT_EXCL;

		assert_int_equal(bug, u->ht_erratum != NULL);
		if (!bug)
			continue;
		with++;
		for (const struct pmu_event *e = u->table->events; e->name; e++)
			if (e->fixed == PMU_FIXED_NONE)
				assert_int_equal(e->ht_excl, e->event >= PMU_HT_EXCL_FIRST &&
							     e->event <= PMU_HT_EXCL_LAST);
	}
	assert_int_equal(with, 3);      /* Sandy Bridge, Ivy Bridge, Haswell (K612 intel_ht_bug) */
}

static void test_table_facts(void **state)
{
	const struct pfm_pmu nhm = uarch_parts(uarch_by_name("nehalem"));
	const struct pfm_pmu wsm = uarch_parts(uarch_by_name("westmere"));
	const struct pmu_table *pmu_table_nehalem = table_of("nehalem");
	const struct pmu_table *pmu_table_haswell = table_of("haswell");
	const struct pmu_table *atoms[] = { table_of("silvermont"), table_of("goldmont") };
	const struct pmu_table *tb;

	(void)state;
	/* Nehalem: outstanding only through the Westmere row, with a reason otherwise */
	assert_null(first_row(pmu_table_nehalem, M_OFFCORE_OUTSTANDING, &nhm));
	assert_non_null(first_row(pmu_table_nehalem, M_OFFCORE_OUTSTANDING, &wsm));
	assert_non_null(strstr(pmu_table_nehalem->unsupported[M_OFFCORE_OUTSTANDING], "Westmere"));
	assert_non_null(first_row(pmu_table_nehalem, M_OFFCORE_READS, &nhm));
	assert_int_equal(first_row(pmu_table_nehalem, M_OFFCORE_READS, &nhm)->offcore, 1);
	assert_int_equal(first_row(pmu_table_nehalem, M_OFFCORE_READS, &wsm)->pair, 1);

	/* Atoms: no loads, no load latency, one reason for both */
	for (size_t i = 0; i < 2; i++) {
		const struct pmu_table *t = atoms[i];

		for (const struct pmu_event *e = t->events; e->name; e++) {
			assert_int_not_equal(e->metric, M_LOAD_LATENCY);
			assert_int_not_equal(e->metric, M_LOADS);
			assert_false(e->ldlat);
		}
		assert_non_null(t->unsupported[M_LOAD_LATENCY]);
		assert_non_null(t->unsupported[M_LOADS]);
		assert_string_equal(t->unsupported[M_LOADS], t->unsupported[M_LOAD_LATENCY]);
		assert_non_null(strstr(t->unsupported[M_LOAD_LATENCY], "load-latency"));
	}

	/*
	 * Atoms, SDM 18.6.3: OUTSTANDING (bit 38) only in MSR_OFFCORE_RSP_0,
	 * with a request type and every other bit 0; its partner counts the
	 * same request type in MSR_OFFCORE_RSP_1.  The weighted cycles start at
	 * the L2 miss (perfmon SLM/GLM matrix), so the partner counts L2 misses
	 * (L2_MISS.ANY: the matrix values below), never ANY_RESPONSE (bit 16),
	 * which counts the L2's hits too (pmu-facts 8.3).
	 */
	static const uint64_t l2_miss_any[2] = { 0x1680000000ull, 0x3600000000ull };

	for (size_t i = 0; i < 2; i++) {
		const struct pmu_table *t = atoms[i];
		uint64_t req = 0;
		int n38 = 0, nany = 0;

		for (const struct pmu_event *e = t->events; e->name; e++) {
			if (e->offcore_rsp & (1ull << 38)) {
				assert_int_equal(e->offcore, 1);
				assert_int_equal(e->metric, M_OFFCORE_OUTSTANDING);
				assert_int_equal(e->offcore_rsp & ~((1ull << 38) | 0xffff), 0);
				req = e->offcore_rsp & 0xffff;
				n38++;
			}
		}
		assert_int_equal(n38, 1);
		for (const struct pmu_event *e = t->events; e->name; e++) {
			if (e->metric != M_OFFCORE_READS)
				continue;
			assert_int_equal(e->offcore, 2);
			assert_int_equal(e->offcore_rsp, req | l2_miss_any[i]);
			assert_int_equal(e->offcore_rsp & (1ull << 16), 0);
			nany++;
		}
		assert_int_equal(nany, 1);
	}

	/* Haswell: everything has a row; the remote ones on the server models only */
	for (int m = 0; m < M__COUNT; m++)
		if (m != M_SNOOP_REMOTE_HIT && m != M_SNOOP_REMOTE_HITM)
			assert_null(pmu_table_haswell->unsupported[m]);
	for (const struct pmu_event *e = pmu_table_haswell->events; e->name; e++)
		if (e->metric == M_SNOOP_REMOTE_HIT || e->metric == M_SNOOP_REMOTE_HITM)
			assert_int_equal(e->needs, UARCH_F_REMOTE_EVENTS);

	/*
	 * Scopes (pmu-facts 8.2): every snoop row says whose caches it sees.
	 * Atom offcore-response snoop bits stop at the module; their HITM comes
	 * from the retired-load event that sees the module partner too, or,
	 * where the part has no such event (Crestmont), from the offcore
	 * response, which sees other modules only, as Skymont's L3-hit event
	 * 0xD4 does (a load that missed the L2 the module shares).
	 */
	for (size_t k = 0; (tb = uarch_pmu_table(k)); k++) {
		bool module = false;     /* its snoops stop at the module (the Atoms) */

		for (const struct pmu_event *e = tb->events; e->name; e++)
			module |= (e->metric == M_SNOOP_HIT || e->metric == M_SNOOP_HITM) &&
				  e->scope == SCOPE_OTHER_MODULE;
		for (const struct pmu_event *e = tb->events; e->name; e++) {
			switch (e->metric) {
			case M_SNOOP_HIT:
				assert_int_equal(e->scope, module ? SCOPE_OTHER_MODULE : SCOPE_OTHER_CORE);
				break;
			case M_SNOOP_HITM:
				assert_int_equal(e->scope, module && (e->offcore || e->event == 0xD4)
							   ? SCOPE_OTHER_MODULE : SCOPE_OTHER_CORE);
				break;
			case M_SNOOP_REMOTE_HIT:
			case M_SNOOP_REMOTE_HITM:
				assert_int_equal(e->scope, SCOPE_OTHER_PACKAGE);
				break;
			default:
				assert_int_equal(e->scope, SCOPE_NONE);
				break;
			}
		}
	}
	/* whose: the Atoms' snoop hits stop at the module, the big cores' do not */
	for (size_t i = 0; i < 2; i++)
		assert_int_equal(first_row(atoms[i], M_SNOOP_HIT, &atoms[i]->pfm[0])->scope,
				 SCOPE_OTHER_MODULE);
	assert_int_equal(first_row(pmu_table_nehalem, M_SNOOP_HIT, &nhm)->scope, SCOPE_OTHER_CORE);
	assert_int_equal(first_row(pmu_table_haswell, M_SNOOP_HIT, &pmu_table_haswell->pfm[0])->scope,
			 SCOPE_OTHER_CORE);

	/* Westmere: OFFCORE_REQUESTS_OUTSTANDING on PMC0 only (kernel, json, libpfm4) */
	for (const struct pmu_event *e = pmu_table_nehalem->events; e->name; e++)
		if (e->metric == M_OFFCORE_OUTSTANDING)
			assert_int_equal(e->counters, 0x1);

	/*
	 * Version 5 parts (pmu-facts 9.3, 9.5): load latency on PMC0-7 on the
	 * Ice Lake family, off PMC0 on Sapphire Rapids (the kernel's 0xfe); the
	 * offcore events 0x60/0xB0 there, 0x20/0x21 here, on PMC0-3.
	 */
	for (const struct pmu_event *e = table_of("icelake")->events; e->name; e++) {
		if (e->ldlat)
			assert_int_equal(e->counters, 0xff);
		if (e->metric == M_OFFCORE_READS || e->metric == M_OFFCORE_OUTSTANDING)
			assert_true((e->event == 0xB0 || e->event == 0x60) && e->counters == 0xf);
	}
	for (const struct pmu_event *e = table_of("sapphirerapids")->events; e->name; e++) {
		if (e->ldlat)
			assert_int_equal(e->counters, 0xfe);
		if (e->metric == M_OFFCORE_READS || e->metric == M_OFFCORE_OUTSTANDING)
			assert_true((e->event == 0x21 || e->event == 0x20) && e->counters == 0xf);
	}
	assert_ptr_equal(table_of("emeraldrapids"), table_of("sapphirerapids"));
	assert_ptr_equal(table_of("tigerlake"), table_of("icelake"));

	/* load latency on the big cores: PMC3 only */
	for (const struct pmu_event *e = pmu_table_nehalem->events; e->name; e++)
		if (e->ldlat)
			assert_int_equal(e->counters, 0x8);
	for (const struct pmu_event *e = pmu_table_haswell->events; e->name; e++)
		if (e->ldlat)
			assert_int_equal(e->counters, 0x8);
}

/*
 * Every row has a libpfm4 string, and applies to at least one of its
 * table's PMUs; every recorded difference names one of those PMUs that
 * the row applies to, says why, and differs in something.
 */
static void test_rows_pfm(void **state)
{
	const struct pmu_table *t;

	(void)state;
	for (size_t k = 0; (t = uarch_pmu_table(k)); k++) {
		for (const struct pmu_event *e = t->events; e->name; e++) {
			const struct pfm_diff *d = &e->pfm_diff;
			bool applies = false, diff_applies = false;

			if (e->pfm == NULL && t->json) {
				/*
				 * libpfm4 has no PMU or no such event: no libpfm4
				 * string, no recorded difference, Intel's values
				 */
				assert_null(d->pmu);
				check_json_row(t, e);
				continue;
			}
			if (e->pfm == NULL || e->pfm[0] == '\0')
				fail_msg("%s row %s (offcore %d) has no libpfm4 string (.pfm)",
					 t->name, e->name, e->offcore);
			for (size_t p = 0; p < table_npfm(t); p++) {
				if (!row_applies(e, &t->pfm[p]))
					continue;
				applies = true;
				if (d->pmu && !strcmp(d->pmu, t->pfm[p].name))
					diff_applies = true;
			}
			if (!applies)
				fail_msg("%s row %s (offcore %d) applies to none of the table's "
					 "libpfm4 PMUs", t->name, e->name, e->offcore);
			if (d->pmu == NULL) {
				assert_true(d->evtsel == 0 && d->rsp == 0 && d->why == NULL &&
					    d->rsp_pmu == NULL && d->rsp_pfm == NULL);
				continue;
			}
			if (!diff_applies)
				fail_msg("%s row %s (offcore %d): .pfm_diff names %s, not a PMU "
					 "of the table the row applies to", t->name, e->name,
					 e->offcore, d->pmu);
			assert_non_null(d->why);
			assert_true(d->why[0] != '\0');
			assert_true(d->evtsel != 0 || d->rsp != 0);
			assert_true((d->rsp_pmu == NULL) == (d->rsp_pfm == NULL));
			if (d->rsp || d->rsp_pmu)
				assert_int_not_equal(e->offcore, 0);
		}
	}
}

/* ---------- libpfm4 oracle ---------- */

/* The forced PMU really changes between children. */
static void test_oracle_switches_pmu(void **state)
{
	static const char *const ev[] = {
		"OFFCORE_RESPONSE_1:DMND_DATA_RD:OTHER_CORE_HITM",
		"INST_RETIRED:ANY_P",
	};
	struct pfm_answer a[2];

	(void)state;
	if (pfm_ask("wsm", ev, 2, a))
		skip();
	if (a[1].rc != PFM_SUCCESS)
		skip();                 /* libpfm4 without the wsm PMU */
	assert_int_equal(a[0].rc, PFM_SUCCESS);
	assert_string_equal(a[0].pmu, "wsm");
	assert_string_equal(a[1].pmu, "wsm");

	assert_int_equal(pfm_ask("nhm", ev, 2, a), 0);
	assert_int_not_equal(a[0].rc, PFM_SUCCESS);   /* Nehalem has no RSP_1 */
	assert_int_equal(a[1].rc, PFM_SUCCESS);
	assert_string_equal(a[1].pmu, "nhm");

	assert_int_equal(pfm_ask("hsw", ev, 2, a), 0);
	assert_int_equal(a[1].rc, PFM_SUCCESS);
	assert_string_equal(a[1].pmu, "hsw");
}

/* The row's MSR_OFFCORE_RSP_x value, as encoded by another PMU's libpfm4 table. */
static void check_rsp_elsewhere(const struct pmu_table *t, const struct pmu_event *e)
{
	const struct pfm_diff *d = &e->pfm_diff;
	const char *const ev[] = { d->rsp_pfm };
	struct pfm_answer a;

	assert_int_equal(pfm_ask(d->rsp_pmu, ev, 1, &a), 0);
	if (a.rc != PFM_SUCCESS)
		fail_msg("%s %s: libpfm4 %s cannot encode \"%s\": %s", t->name, e->name,
			 d->rsp_pmu, d->rsp_pfm, pfm_strerror(a.rc));
	assert_string_equal(a.pmu, d->rsp_pmu);
	assert_int_equal(a.count, 2);
	if (a.codes[1] != e->offcore_rsp)
		fail_msg("%s %s: libpfm4 %s \"%s\" gives 0x%llx, the row has 0x%llx", t->name,
			 e->name, d->rsp_pmu, d->rsp_pfm, (unsigned long long)a.codes[1],
			 (unsigned long long)e->offcore_rsp);
}

/* @e's recorded difference when it is on PMU @pmu, else NULL: libpfm4 must agree. */
static const struct pfm_diff *row_diff(const struct pmu_event *e, const char *pmu)
{
	if (e->pfm_diff.pmu && !strcmp(e->pfm_diff.pmu, pmu))
		return &e->pfm_diff;
	return NULL;
}

static void check_oracle(const struct pmu_table *t)
{
	const char *last_note = NULL;    /* print each disagreement once per run of rows */
	int n = table_len(t), checked = 0;

	for (size_t p = 0; p < table_npfm(t); p++) {
		const struct pfm_pmu *op = &t->pfm[p];
		const struct pmu_event *rows[MAX_ROWS];
		const char *strs[MAX_ROWS];
		struct pfm_answer ans[MAX_ROWS];
		int q = 0;

		for (int i = 0; i < n; i++) {
			const struct pmu_event *e = &t->events[i];

			if (!row_applies(e, op) || (e->pfm == NULL && t->json))
				continue;       /* libpfm4 lacks it: Intel's values (check_json) */
			if (e->pfm == NULL)
				fail_msg("%s row %s (offcore %d) has no libpfm4 string (.pfm)",
					 t->name, e->name, e->offcore);
			rows[q] = e;
			strs[q] = e->pfm;
			q++;
		}
		assert_int_equal(pfm_ask(op->name, strs, q, ans), 0);

		for (int i = 0; i < q; i++) {
			const struct pmu_event *e = rows[i];
			const struct pfm_diff *d = row_diff(e, op->name);
			const struct pfm_answer *a = &ans[i];
			uint64_t want_sel, want_rsp, got_sel;

			if (a->rc != PFM_SUCCESS)
				fail_msg("%s/%s: libpfm4 cannot encode \"%s\": %s", t->name,
					 op->name, e->pfm, pfm_strerror(a->rc));
			assert_string_equal(a->pmu, op->name);
			assert_true(a->count >= 1);
			got_sel = a->codes[0] & ~EVTSEL_INT;

			if (e->fixed != PMU_FIXED_NONE) {
				/* the architectural event this fixed counter counts */
				assert_null(d);
				assert_int_equal(a->codes[0] & 0xffff, fixed_code[e->fixed]);
				assert_int_equal(a->count, 1);
				checked++;
				continue;
			}

			/* A row libpfm4 calls "HT off only" says so with HT on, and no other. */
			if (a->ht_off != (e->ht_caveat != NULL))
				fail_msg("%s/%s %s: libpfm4 %s \"use with HT off only\", the row %s "
					 ".ht_caveat", t->name, op->name, e->name,
					 a->ht_off ? "says" : "does not say", e->ht_caveat ? "has" : "has no");

			want_sel = d && d->evtsel ? d->evtsel : pmu_event_evtsel(e);
			if (got_sel != want_sel)
				fail_msg("%s/%s %s: libpfm4 \"%s\" gives PERFEVTSEL 0x%llx, "
					 "expected 0x%llx", t->name, op->name, e->name, e->pfm,
					 (unsigned long long)got_sel,
					 (unsigned long long)want_sel);
			if (d && d->evtsel)   /* a recorded disagreement must still be one */
				assert_int_not_equal(got_sel, pmu_event_evtsel(e));

			if (e->offcore) {
				want_rsp = d && d->rsp ? d->rsp : e->offcore_rsp;
				assert_int_equal(a->count, 2);
				if (a->codes[1] != want_rsp)
					fail_msg("%s/%s %s (RSP_%d): libpfm4 \"%s\" gives 0x%llx, "
						 "expected 0x%llx", t->name, op->name, e->name,
						 e->offcore - 1, e->pfm,
						 (unsigned long long)a->codes[1],
						 (unsigned long long)want_rsp);
				if (d && d->rsp)
					assert_int_not_equal(a->codes[1], e->offcore_rsp);
				if (d && d->rsp_pmu)
					check_rsp_elsewhere(t, e);
			} else if (e->ldlat) {
				assert_int_equal(a->count, 2);
				assert_int_equal(a->codes[1], 3);   /* the ldlat=3 asked for */
			} else {
				assert_int_equal(a->count, 1);
			}
			if (d && d->why != last_note)
				print_message("# %s/%s %s (and like rows): libpfm4 differs: %s\n", t->name,
					      op->name, e->name, d->why);
			last_note = d ? d->why : NULL;
			checked++;
		}
	}
	assert_true(checked > 0);
}

/*
 * The threshold the perf encoding is checked with: not libpfm4's default
 * (3), so that a config1 that ignored it would show.
 */
#define ATTR_LDLAT 37

/*
 * @e's libpfm4 string for the perf encoding of perf_attr_of(@e): the
 * threshold ATTR_LDLAT for a load-latency row, and the precise level the
 * attr asks for, which libpfm4 refuses on an event that is not a PEBS one.
 */
static void attr_pfm_string(const struct pmu_event *e, const struct perf_event_attr *a,
			    char *buf, size_t len)
{
	const char *dflt = strstr(e->pfm, ":ldlat=3");
	int n = dflt ? (int)(dflt - e->pfm) : (int)strlen(e->pfm);

	assert_true(!e->ldlat || dflt);
	if (e->ldlat)
		snprintf(buf, len, "%.*s:ldlat=%d", n, e->pfm, ATTR_LDLAT);
	else
		snprintf(buf, len, "%s", e->pfm);
	if (a->precise_ip)
		snprintf(buf + strlen(buf), len - strlen(buf), ":precise=%u", a->precise_ip);
}

/*
 * Every row's perf_event_attr (cpu/perf_attr.c) against libpfm4's own
 * perf encoding (PFM_OS_PERF_EVENT_EXT) on every libpfm4 PMU of its table:
 * the type, config and config1 agree, but where the row records that
 * libpfm4 differs (.pfm_diff), which must then still differ as recorded.
 */
static void check_attr_oracle(const struct pmu_table *t)
{
	int n = table_len(t), checked = 0;

	for (size_t p = 0; p < table_npfm(t); p++) {
		const struct pfm_pmu *op = &t->pfm[p];
		const struct pmu_event *rows[MAX_ROWS];
		struct perf_event_attr attr[MAX_ROWS];
		static char bufs[MAX_ROWS][256];
		const char *strs[MAX_ROWS];
		struct pfm_answer ans[MAX_ROWS];
		int q = 0;

		for (int i = 0; i < n; i++) {
			const struct pmu_event *e = &t->events[i];

			if (!row_applies(e, op) || (e->pfm == NULL && t->json))
				continue;       /* check_attr_json */
			assert_int_equal(perf_attr_of(e, ATTR_LDLAT, &attr[q]), 0);
			attr_pfm_string(e, &attr[q], bufs[q], sizeof(bufs[q]));
			rows[q] = e;
			strs[q] = bufs[q];
			q++;
		}
		assert_int_equal(pfm_ask_os(op->name, PFM_OS_PERF_EVENT_EXT, strs, q, ans), 0);
		for (int i = 0; i < q; i++) {
			const struct pmu_event *e = rows[i];
			const struct pfm_diff *d = row_diff(e, op->name);
			const struct perf_event_attr *a = &attr[i], *o = &ans[i].attr;
			uint64_t want_config = a->config, want_config1 = a->config1;

			if (ans[i].rc != PFM_SUCCESS)
				fail_msg("%s/%s: libpfm4 cannot encode \"%s\" for perf: %s", t->name,
					 op->name, strs[i], pfm_strerror(ans[i].rc));
			if (d && d->evtsel) {
				want_config = d->evtsel & PERF_ATTR_RAW_MASK;
				assert_int_not_equal(want_config, a->config);
			}
			if (d && d->rsp) {
				want_config1 = d->rsp;
				assert_int_not_equal(want_config1, a->config1);
			}
			if (o->type != a->type || o->config != want_config ||
			    o->config1 != want_config1 || o->precise_ip != a->precise_ip)
				fail_msg("%s/%s %s: libpfm4 \"%s\" gives type %u config 0x%llx "
					 "config1 0x%llx precise_ip %u; perf_attr_of: type %u "
					 "config 0x%llx config1 0x%llx precise_ip %u (expected from "
					 "libpfm4 0x%llx, 0x%llx)", t->name, op->name, e->name, strs[i],
					 o->type, (unsigned long long)o->config,
					 (unsigned long long)o->config1, o->precise_ip, a->type,
					 (unsigned long long)a->config, (unsigned long long)a->config1,
					 a->precise_ip, (unsigned long long)want_config,
					 (unsigned long long)want_config1);
			/* the kernel's rules, beyond libpfm4 (pmu-facts 10.1, 10.2) */
			assert_int_equal(a->type, PERF_TYPE_RAW);
			assert_int_equal(a->size, sizeof(*a));
			assert_int_equal(a->config & ~PERF_ATTR_RAW_MASK, 0);
			assert_false(a->exclude_user || a->exclude_kernel || a->freq || a->disabled);
			if (e->ldlat) {
				assert_int_equal(a->config1, ATTR_LDLAT);
				assert_true(a->precise_ip >= 1);
				assert_int_equal(a->sample_period, PERF_ATTR_LDLAT_PERIOD);
			} else {
				assert_int_equal(a->precise_ip, 0);
				assert_int_equal(a->sample_period, 0);
				assert_int_equal(a->config1, e->offcore_rsp);
			}
			checked++;
		}
	}
	assert_true(checked > 0);
}

/* The thresholds a load-latency row's attr takes: those of the sysfs format ldlat. */
static void test_attr_ldlat_range(void **state)
{
	const struct pmu_table *t;
	struct perf_event_attr a;
	int rows = 0;

	(void)state;
	for (size_t k = 0; (t = uarch_pmu_table(k)); k++)
		for (const struct pmu_event *e = t->events; e->name; e++) {
			int bad = e->ldlat ? -EINVAL : 0;

			assert_int_equal(perf_attr_of(e, 0, &a), bad);
			assert_int_equal(perf_attr_of(e, 65536, &a), bad);
			assert_int_equal(perf_attr_of(e, 65535, &a), 0);
			assert_int_equal(a.config1, e->ldlat ? 65535 : e->offcore_rsp);
			assert_int_equal(perf_attr_of(e, 1, &a), 0);
			rows += e->ldlat;
		}
	assert_true(rows > 0);
}

/*
 * A json table's rows as perf_event_attr: the raw config Intel's values
 * give (event, umask, cmask), and config1 the MSR_OFFCORE_RSP_x value or
 * the load-latency threshold, as the kernel's format attributes place them.
 */
static void check_attr_json(const struct pmu_table *t)
{
	int checked = 0;

	check_json(t);
	for (const struct pmu_event *e = t->events; e->name; e++) {
		struct perf_event_attr a;

		if (e->fixed != PMU_FIXED_NONE)
			continue;
		assert_int_equal(perf_attr_of(e, ATTR_LDLAT, &a), 0);
		assert_int_equal(a.type, PERF_TYPE_RAW);
		assert_int_equal(a.config, e->event | (uint64_t)e->umask << 8 |
					   (uint64_t)e->cmask << 24);
		assert_int_equal(a.config1, e->ldlat ? ATTR_LDLAT : e->offcore_rsp);
		checked++;
	}
	assert_true(checked > 0);
}

/* Are all of @t's libpfm4 PMUs in this libpfm4? */
static bool have_pmus(const struct pmu_table *t)
{
	static const char *const probe[] = { "INSTRUCTIONS_RETIRED" };   /* every PMU: tmt has no ANY_P */
	struct pfm_answer a;

	for (size_t p = 0; p < table_npfm(t); p++)
		if (pfm_ask(t->pfm[p].name, probe, 1, &a) || a.rc != PFM_SUCCESS)
			return false;
	return true;
}

/* One test per table: every row on every libpfm4 PMU the table names. */
static void test_oracle_table(void **state)
{
	const struct pmu_table *t = *state;

	if (t->json)
		check_json(t);
	if (!table_npfm(t))
		return;
	if (!have_pmus(t))
		skip();      /* this libpfm4 lacks the PMU */
	check_oracle(t);
}

/* The same for the rows' perf_event_attr. */
static void test_attr_table(void **state)
{
	const struct pmu_table *t = *state;

	if (t->json)
		check_attr_json(t);
	if (!table_npfm(t))
		return;
	if (!have_pmus(t))
		skip();
	check_attr_oracle(t);
}

#define MAX_TESTS 64

int main(void)
{
	static const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_tables_list),
		cmocka_unit_test(test_tables_pmus_cover_parts),
		cmocka_unit_test(test_client_cores),
		cmocka_unit_test(test_crestmont_hybrids),
		cmocka_unit_test(test_metric_names),
		cmocka_unit_test(test_evtsel_bits),
		cmocka_unit_test(test_table_sanity),
		cmocka_unit_test(test_table_alternatives),
		cmocka_unit_test(test_table_facts),
		cmocka_unit_test(test_ht_excl_rows),
		cmocka_unit_test(test_rows_pfm),
		cmocka_unit_test(test_oracle_switches_pmu),
		cmocka_unit_test(test_attr_ldlat_range),
	};
	static struct CMUnitTest tests[MAX_TESTS];
	static char names[MAX_TESTS][48];
	const struct pmu_table *t;
	size_t n = 0;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		tests[n++] = fixed[i];
	/* the libpfm4 oracle, one test per table, named after it */
	for (size_t i = 0; (t = uarch_pmu_table(i)) && n < MAX_TESTS; i++) {
		snprintf(names[n], sizeof(names[n]), "test_oracle_%s", t->name);
		tests[n] = (struct CMUnitTest)cmocka_unit_test(test_oracle_table);
		tests[n].name = names[n];
		tests[n].initial_state = (void *)t;
		n++;
	}
	/* the perf encoding, one test per table */
	for (size_t i = 0; (t = uarch_pmu_table(i)) && n < MAX_TESTS; i++) {
		snprintf(names[n], sizeof(names[n]), "test_attr_%s", t->name);
		tests[n] = (struct CMUnitTest)cmocka_unit_test(test_attr_table);
		tests[n].name = names[n];
		tests[n].initial_state = (void *)t;
		n++;
	}
	return _cmocka_run_group_tests("events", tests, n, NULL, NULL);
}
