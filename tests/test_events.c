/*
 * test_events.c: the event tables (cpu/events*.c).
 *
 * Two kinds of check.  Sanity: each table ends, its rows are well formed,
 * fit the family's counters, cover every metric or say why not, and keep
 * the promises the planner relies on (alternatives in order, pairs that
 * can be scheduled together).  Oracle: every row is encoded by libpfm4,
 * forced to the family's PMU, and the PERFEVTSEL and MSR_OFFCORE_RSP_x
 * values must match.  Where libpfm4 and Intel's perfmon json disagree the
 * row follows the json, and the entry below records what libpfm4 says
 * instead and why; the test still checks that exact value, so a change on
 * either side is noticed.
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
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <perfmon/pfmlib.h>

#include "cpu/events.h"

#define MAX_ROWS 128

/* What the test knows of each family, independently of cpu/uarch.c. */
struct oracle_pmu {
	const char *pmu;          /* LIBPFM_FORCE_PMU value */
	uint32_t flags;           /* UARCH_F_* of the parts it stands for */
	unsigned offcore_msrs;
};

#define NPMUS 3

struct family {
	const struct pmu_table *table;
	const char *name;
	uint8_t gp_mask;          /* PMCs every member has per thread */
	struct oracle_pmu pmus[NPMUS];
};

static const struct family families[] = {
	{ &pmu_table_nehalem, "nehalem", 0xF,
	  { { "nhm", 0, 1 }, { "wsm", UARCH_F_OFFCORE_QUEUE, 2 } } },
	{ &pmu_table_silvermont, "silvermont", 0x3, { { "slm", 0, 2 } } },
	{ &pmu_table_goldmont, "goldmont", 0xF, { { "glm", 0, 2 } } },
	{ &pmu_table_haswell, "haswell", 0xF, { { "hsw", 0, 2 }, { "bdw", 0, 2 },
						 { "hsw_ep", UARCH_F_REMOTE_EVENTS, 2 } } },
};
#define NFAMILIES (sizeof(families) / sizeof(families[0]))

/*
 * The libpfm4 spelling of every row, per PMU the row applies to.  For a
 * fixed-counter row the string is the architectural event libpfm4 maps to
 * that fixed counter.  pfm_evtsel / pfm_rsp: 0 when libpfm4 must give the
 * row's value; otherwise the value libpfm4 gives instead (see note).
 */
struct oracle {
	const char *table;
	const char *row;
	int offcore;
	const char *pmu;
	const char *pfm;
	uint64_t pfm_evtsel;
	uint64_t pfm_rsp;
	const char *note;
	const char *rsp_pmu;      /* non-NULL: the row's offcore_rsp must equal what */
	const char *rsp_pfm;      /*   libpfm4 gives for rsp_pfm on this other PMU */
};

#define SAME(t, r, o, p, s)             { t, r, o, p, s, 0, 0, NULL, NULL, NULL }
#define DIFF(t, r, o, p, s, ev, rsp, n) { t, r, o, p, s, ev, rsp, n, NULL, NULL }
/* like DIFF, and the MSR_OFFCORE_RSP_x value is checked on PMU xp with string xs */
#define XRSP(t, r, o, p, s, rsp, n, xp, xs) { t, r, o, p, s, 0, rsp, n, xp, xs }

#define NHM_HIT   "OFFCORE_RESPONSE.DEMAND_DATA_RD.LLC_HIT_OTHER_CORE_HIT"
#define NHM_HITM  "OFFCORE_RESPONSE.DEMAND_DATA_RD.LLC_HIT_OTHER_CORE_HITM"
#define NHM_RFWD  "OFFCORE_RESPONSE.DEMAND_DATA_RD.REMOTE_CACHE_FWD"
#define NHM_RHITM "OFFCORE_RESPONSE.DEMAND_DATA_RD.REMOTE_CACHE_HITM"
#define ATOM_HIT  "OFFCORE_RESPONSE.DEMAND_DATA_RD.L2_MISS.HIT_OTHER_CORE_NO_FWD"
#define HSW_HIT   "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_HIT.HIT_OTHER_CORE_NO_FWD"
#define HSW_HITM  "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_HIT.HITM_OTHER_CORE"

#define ATOM_NOSUPP "libpfm4 adds ANY_RESPONSE (bit 16) to a snoop-only response; " \
		    "the perfmon json value has no supplier bit"
#define HSW_NOHITF  "libpfm4 hsw L3_HIT is bits 18-20 (no L3_HITF, bit 21); the HSW " \
		    "json and libpfm4 bdw use 0x3C0000"

static const struct oracle oracles[] = {
	/* nehalem table: Nehalem (nhm) and Westmere (wsm) */
	SAME("nehalem", "INST_RETIRED.ANY", 0, "nhm", "INSTRUCTIONS_RETIRED"),
	SAME("nehalem", "INST_RETIRED.ANY", 0, "wsm", "INSTRUCTIONS_RETIRED"),
	DIFF("nehalem", "INST_RETIRED.ANY_P", 0, "nhm", "INST_RETIRED:ANY_P", 0x4300c0, 0,
	     "libpfm4 nhm encodes ANY_P with umask 0x00 (the architectural 0x00C0); "
	     "the NHM-EP json and libpfm4 wsm give umask 0x01"),
	SAME("nehalem", "INST_RETIRED.ANY_P", 0, "wsm", "INST_RETIRED:ANY_P"),
	SAME("nehalem", "CPU_CLK_UNHALTED.THREAD", 0, "nhm", "UNHALTED_CORE_CYCLES"),
	SAME("nehalem", "CPU_CLK_UNHALTED.THREAD", 0, "wsm", "UNHALTED_CORE_CYCLES"),
	SAME("nehalem", "CPU_CLK_UNHALTED.THREAD_P", 0, "nhm", "CPU_CLK_UNHALTED:THREAD_P"),
	SAME("nehalem", "CPU_CLK_UNHALTED.THREAD_P", 0, "wsm", "CPU_CLK_UNHALTED:THREAD_P"),
	SAME("nehalem", "CPU_CLK_UNHALTED.REF", 0, "nhm", "UNHALTED_REFERENCE_CYCLES"),
	SAME("nehalem", "CPU_CLK_UNHALTED.REF", 0, "wsm", "UNHALTED_REFERENCE_CYCLES"),
	SAME("nehalem", "MEM_INST_RETIRED.LOADS", 0, "nhm", "MEM_INST_RETIRED:LOADS"),
	SAME("nehalem", "MEM_INST_RETIRED.LOADS", 0, "wsm", "MEM_INST_RETIRED:LOADS"),
	SAME("nehalem", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD", 0, "nhm",
	     "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=3"),
	SAME("nehalem", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD", 0, "wsm",
	     "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=3"),
	SAME("nehalem", NHM_HIT, 1, "nhm", "OFFCORE_RESPONSE_0:DMND_DATA_RD:OTHER_CORE_HIT_SNP"),
	SAME("nehalem", NHM_HIT, 1, "wsm", "OFFCORE_RESPONSE_0:DMND_DATA_RD:OTHER_CORE_HIT_SNP"),
	SAME("nehalem", NHM_HIT, 2, "wsm", "OFFCORE_RESPONSE_1:DMND_DATA_RD:OTHER_CORE_HIT_SNP"),
	SAME("nehalem", NHM_HITM, 1, "nhm", "OFFCORE_RESPONSE_0:DMND_DATA_RD:OTHER_CORE_HITM"),
	SAME("nehalem", NHM_HITM, 1, "wsm", "OFFCORE_RESPONSE_0:DMND_DATA_RD:OTHER_CORE_HITM"),
	SAME("nehalem", NHM_HITM, 2, "wsm", "OFFCORE_RESPONSE_1:DMND_DATA_RD:OTHER_CORE_HITM"),
	SAME("nehalem", NHM_RFWD, 1, "nhm", "OFFCORE_RESPONSE_0:DMND_DATA_RD:REMOTE_CACHE_FWD"),
	SAME("nehalem", NHM_RFWD, 1, "wsm", "OFFCORE_RESPONSE_0:DMND_DATA_RD:REMOTE_CACHE_FWD"),
	SAME("nehalem", NHM_RFWD, 2, "wsm", "OFFCORE_RESPONSE_1:DMND_DATA_RD:REMOTE_CACHE_FWD"),
	SAME("nehalem", NHM_RHITM, 1, "nhm", "OFFCORE_RESPONSE_0:DMND_DATA_RD:REMOTE_CACHE_HITM"),
	SAME("nehalem", NHM_RHITM, 1, "wsm", "OFFCORE_RESPONSE_0:DMND_DATA_RD:REMOTE_CACHE_HITM"),
	SAME("nehalem", NHM_RHITM, 2, "wsm", "OFFCORE_RESPONSE_1:DMND_DATA_RD:REMOTE_CACHE_HITM"),
	SAME("nehalem", "OFFCORE_REQUESTS.DEMAND.READ_DATA", 0, "wsm",
	     "OFFCORE_REQUESTS:DEMAND_READ_DATA"),
	SAME("nehalem", "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_LOCATION", 1, "nhm",
	     "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE"),
	SAME("nehalem", "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_LOCATION", 1, "wsm",
	     "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE"),
	SAME("nehalem", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND.READ_DATA", 0, "wsm",
	     "OFFCORE_REQUESTS_OUTSTANDING:DEMAND_READ_DATA"),

	/* silvermont table: slm */
	SAME("silvermont", "INST_RETIRED.ANY", 0, "slm", "INSTRUCTIONS_RETIRED"),
	SAME("silvermont", "INST_RETIRED.ANY_P", 0, "slm", "INST_RETIRED:ANY_P"),
	SAME("silvermont", "CPU_CLK_UNHALTED.CORE", 0, "slm", "UNHALTED_CORE_CYCLES"),
	SAME("silvermont", "CPU_CLK_UNHALTED.CORE_P", 0, "slm", "CPU_CLK_UNHALTED:CORE_P"),
	SAME("silvermont", "CPU_CLK_UNHALTED.REF_TSC", 0, "slm", "UNHALTED_REFERENCE_CYCLES"),
	DIFF("silvermont", ATOM_HIT, 1, "slm", "OFFCORE_RESPONSE_0:DMND_DATA_RD:SNP_HIT",
	     0, 0x0400010001ull, ATOM_NOSUPP),
	DIFF("silvermont", ATOM_HIT, 2, "slm", "OFFCORE_RESPONSE_1:DMND_DATA_RD:SNP_HIT",
	     0, 0x0400010001ull, ATOM_NOSUPP),
	SAME("silvermont", "MEM_UOPS_RETIRED.HITM", 0, "slm", "MEM_UOP_RETIRED:HITM"),
	DIFF("silvermont", "OFFCORE_RESPONSE.DEMAND_DATA_RD.L2_MISS.ANY", 2, "slm",
	     "OFFCORE_RESPONSE_1:DMND_DATA_RD:SNP_NONE:SNP_MISS:SNP_HIT:SNP_HITM",
	     0, 0x1680010001ull, ATOM_NOSUPP),
	XRSP("silvermont", "OFFCORE_RESPONSE.DEMAND_DATA_RD.OUTSTANDING", 1, "slm",
	     "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", 0x10001,
	     "libpfm4 slm has no OUTSTANDING (bit 38) umask: the RSP_0 value is checked "
	     "against glm's, the same bit layout (SDM 18.6.3, Table 18-17)",
	     "glm", "OFFCORE_RESPONSE_0:DMND_DATA_RD:OUTSTANDING"),

	/* goldmont table: glm */
	SAME("goldmont", "INST_RETIRED.ANY", 0, "glm", "INSTRUCTIONS_RETIRED"),
	SAME("goldmont", "INST_RETIRED.ANY_P", 0, "glm", "INST_RETIRED:ANY_P"),
	SAME("goldmont", "CPU_CLK_UNHALTED.CORE", 0, "glm", "UNHALTED_CORE_CYCLES"),
	/* libpfm4 glm's CPU_CLK_UNHALTED:CORE_P encodes event 0x00: use the architectural name */
	SAME("goldmont", "CPU_CLK_UNHALTED.CORE_P", 0, "glm", "UNHALTED_CORE_CYCLES"),
	SAME("goldmont", "CPU_CLK_UNHALTED.REF_TSC", 0, "glm", "UNHALTED_REFERENCE_CYCLES"),
	DIFF("goldmont", ATOM_HIT, 1, "glm",
	     "OFFCORE_RESPONSE_0:DMND_DATA_RD:L2_MISS_HIT_OTHER_CORE_NO_FWD",
	     0, 0x0400010001ull, ATOM_NOSUPP),
	DIFF("goldmont", ATOM_HIT, 2, "glm",
	     "OFFCORE_RESPONSE_1:DMND_DATA_RD:L2_MISS_HIT_OTHER_CORE_NO_FWD",
	     0, 0x0400010001ull, ATOM_NOSUPP),
	SAME("goldmont", "MEM_LOAD_UOPS_RETIRED.HITM", 0, "glm", "MEM_LOAD_UOPS_RETIRED:HITM"),
	DIFF("goldmont", "OFFCORE_RESPONSE.DEMAND_DATA_RD.L2_MISS.ANY", 2, "glm",
	     "OFFCORE_RESPONSE_1:DMND_DATA_RD:L2_MISS_SNP_ANY", 0, 0x3600010001ull, ATOM_NOSUPP),
	SAME("goldmont", "OFFCORE_RESPONSE.DEMAND_DATA_RD.OUTSTANDING", 1, "glm",
	     "OFFCORE_RESPONSE_0:DMND_DATA_RD:OUTSTANDING"),

	/* haswell table: hsw and bdw */
	SAME("haswell", "INST_RETIRED.ANY", 0, "hsw", "INSTRUCTIONS_RETIRED"),
	SAME("haswell", "INST_RETIRED.ANY", 0, "bdw", "INSTRUCTIONS_RETIRED"),
	SAME("haswell", "INST_RETIRED.ANY_P", 0, "hsw", "INST_RETIRED:ANY_P"),
	SAME("haswell", "INST_RETIRED.ANY_P", 0, "bdw", "INST_RETIRED:ANY_P"),
	SAME("haswell", "CPU_CLK_UNHALTED.THREAD", 0, "hsw", "UNHALTED_CORE_CYCLES"),
	SAME("haswell", "CPU_CLK_UNHALTED.THREAD", 0, "bdw", "UNHALTED_CORE_CYCLES"),
	SAME("haswell", "CPU_CLK_UNHALTED.THREAD_P", 0, "hsw", "CPU_CLK_UNHALTED:THREAD_P"),
	SAME("haswell", "CPU_CLK_UNHALTED.THREAD_P", 0, "bdw", "CPU_CLK_UNHALTED:THREAD_P"),
	SAME("haswell", "CPU_CLK_UNHALTED.REF_TSC", 0, "hsw", "UNHALTED_REFERENCE_CYCLES"),
	SAME("haswell", "CPU_CLK_UNHALTED.REF_TSC", 0, "bdw", "UNHALTED_REFERENCE_CYCLES"),
	SAME("haswell", "MEM_UOPS_RETIRED.ALL_LOADS", 0, "hsw", "MEM_UOPS_RETIRED:ALL_LOADS"),
	SAME("haswell", "MEM_UOPS_RETIRED.ALL_LOADS", 0, "bdw", "MEM_UOPS_RETIRED:ALL_LOADS"),
	SAME("haswell", "MEM_TRANS_RETIRED.LOAD_LATENCY", 0, "hsw",
	     "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=3"),
	SAME("haswell", "MEM_TRANS_RETIRED.LOAD_LATENCY", 0, "bdw",
	     "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=3"),
	DIFF("haswell", HSW_HIT, 1, "hsw", "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_NO_FWD",
	     0, 0x4001C0001ull, HSW_NOHITF),
	SAME("haswell", HSW_HIT, 1, "bdw", "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_NO_FWD"),
	DIFF("haswell", HSW_HIT, 2, "hsw", "OFFCORE_RESPONSE_1:DMND_DATA_RD:L3_HIT:SNP_NO_FWD",
	     0, 0x4001C0001ull, HSW_NOHITF),
	SAME("haswell", HSW_HIT, 2, "bdw", "OFFCORE_RESPONSE_1:DMND_DATA_RD:L3_HIT:SNP_NO_FWD"),
	DIFF("haswell", HSW_HITM, 1, "hsw", "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_HITM",
	     0, 0x10001C0001ull, HSW_NOHITF),
	SAME("haswell", HSW_HITM, 1, "bdw", "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_HITM"),
	DIFF("haswell", HSW_HITM, 2, "hsw", "OFFCORE_RESPONSE_1:DMND_DATA_RD:L3_HIT:SNP_HITM",
	     0, 0x10001C0001ull, HSW_NOHITF),
	SAME("haswell", HSW_HITM, 2, "bdw", "OFFCORE_RESPONSE_1:DMND_DATA_RD:L3_HIT:SNP_HITM"),
	SAME("haswell", "OFFCORE_REQUESTS.DEMAND_DATA_RD", 0, "hsw",
	     "OFFCORE_REQUESTS:DEMAND_DATA_RD"),
	SAME("haswell", "OFFCORE_REQUESTS.DEMAND_DATA_RD", 0, "bdw",
	     "OFFCORE_REQUESTS:DEMAND_DATA_RD"),
	SAME("haswell", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", 0, "hsw",
	     "OFFCORE_REQUESTS_OUTSTANDING:DEMAND_DATA_RD"),
	SAME("haswell", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", 0, "bdw",
	     "OFFCORE_REQUESTS_OUTSTANDING:DEMAND_DATA_RD"),

	/* haswell table on the server part (hsw_ep): the same rows, and the remote ones */
	SAME("haswell", "INST_RETIRED.ANY", 0, "hsw_ep", "INSTRUCTIONS_RETIRED"),
	SAME("haswell", "INST_RETIRED.ANY_P", 0, "hsw_ep", "INST_RETIRED:ANY_P"),
	SAME("haswell", "CPU_CLK_UNHALTED.THREAD", 0, "hsw_ep", "UNHALTED_CORE_CYCLES"),
	SAME("haswell", "CPU_CLK_UNHALTED.THREAD_P", 0, "hsw_ep", "CPU_CLK_UNHALTED:THREAD_P"),
	SAME("haswell", "CPU_CLK_UNHALTED.REF_TSC", 0, "hsw_ep", "UNHALTED_REFERENCE_CYCLES"),
	SAME("haswell", "MEM_UOPS_RETIRED.ALL_LOADS", 0, "hsw_ep", "MEM_UOPS_RETIRED:ALL_LOADS"),
	SAME("haswell", "MEM_TRANS_RETIRED.LOAD_LATENCY", 0, "hsw_ep",
	     "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=3"),
	SAME("haswell", HSW_HIT, 1, "hsw_ep", "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_NO_FWD"),
	SAME("haswell", HSW_HIT, 2, "hsw_ep", "OFFCORE_RESPONSE_1:DMND_DATA_RD:L3_HIT:SNP_NO_FWD"),
	SAME("haswell", HSW_HITM, 1, "hsw_ep", "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_HITM"),
	SAME("haswell", HSW_HITM, 2, "hsw_ep", "OFFCORE_RESPONSE_1:DMND_DATA_RD:L3_HIT:SNP_HITM"),
	SAME("haswell", "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_FWD", 0, "hsw_ep",
	     "MEM_LOAD_UOPS_L3_MISS_RETIRED:REMOTE_FWD"),
	SAME("haswell", "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_HITM", 0, "hsw_ep",
	     "MEM_LOAD_UOPS_L3_MISS_RETIRED:REMOTE_HITM"),
	SAME("haswell", "OFFCORE_REQUESTS.DEMAND_DATA_RD", 0, "hsw_ep",
	     "OFFCORE_REQUESTS:DEMAND_DATA_RD"),
	SAME("haswell", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", 0, "hsw_ep",
	     "OFFCORE_REQUESTS_OUTSTANDING:DEMAND_DATA_RD"),
};
#define NORACLES (sizeof(oracles) / sizeof(oracles[0]))

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

static bool row_applies(const struct pmu_event *e, const struct oracle_pmu *p)
{
	if (e->needs & ~p->flags)
		return false;
	return e->offcore != 2 || p->offcore_msrs >= 2;
}

static const struct oracle *oracle_find(const char *table, const struct pmu_event *e,
					const char *pmu)
{
	for (size_t i = 0; i < NORACLES; i++) {
		const struct oracle *o = &oracles[i];

		if (!strcmp(o->table, table) && !strcmp(o->row, e->name) &&
		    o->offcore == e->offcore && !strcmp(o->pmu, pmu))
			return o;
	}
	return NULL;
}

/* One libpfm4 answer, as sent from the child. */
struct pfm_answer {
	int rc;                  /* PFM_SUCCESS or a libpfm4 error */
	int count;               /* codes libpfm4 returned */
	uint64_t codes[2];
	char pmu[16];            /* the PMU that answered ("wsm" of "wsm::EVENT:...") */
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

static void pfm_child(int fd, const char *pmu, const char *const *events, int n)
{
	int init;

	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	init = pfm_initialize();
	for (int i = 0; i < n; i++) {
		struct pfm_answer a;
		pfm_pmu_encode_arg_t arg;
		char *fstr = NULL;

		memset(&a, 0, sizeof(a));
		memset(&arg, 0, sizeof(arg));
		arg.size = sizeof(arg);
		arg.fstr = &fstr;
		a.rc = init;
		if (init == PFM_SUCCESS)
			a.rc = pfm_get_os_event_encoding(events[i], PFM_PLM0 | PFM_PLM3,
							 PFM_OS_NONE, &arg);
		if (a.rc == PFM_SUCCESS) {
			const char *sep = fstr ? strstr(fstr, "::") : NULL;

			a.count = arg.count;
			for (int j = 0; j < arg.count && j < 2; j++)
				a.codes[j] = arg.codes[j];
			if (sep && (size_t)(sep - fstr) < sizeof(a.pmu))
				memcpy(a.pmu, fstr, (size_t)(sep - fstr));
		}
		free(arg.codes);
		free(fstr);
		if (write_all(fd, &a, sizeof(a)))
			_exit(2);
	}
	_exit(0);
}

/*
 * Encode @events with libpfm4 forced to @pmu, in a child process.
 * 0, or -1 when the child could not be run or did not answer.
 */
static int pfm_ask(const char *pmu, const char *const *events, int n, struct pfm_answer *ans)
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
		pfm_child(fd[1], pmu, events, n);
	}
	close(fd[1]);
	if (read_all(fd[0], ans, sizeof(*ans) * (size_t)n))
		rc = -1;
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		rc = -1;
	return rc;
}

/* ---------- tests that need no oracle ---------- */

static void test_tables_list(void **state)
{
	static const char *const names[] = { "nehalem", "silvermont", "goldmont", "haswell" };
	int n = 0;

	(void)state;
	while (pmu_tables[n] != NULL) {
		assert_true(n < 4);
		assert_string_equal(pmu_tables[n]->name, names[n]);
		n++;
	}
	assert_int_equal(n, 4);
	assert_ptr_equal(pmu_tables[0], &pmu_table_nehalem);
	assert_ptr_equal(pmu_tables[1], &pmu_table_silvermont);
	assert_ptr_equal(pmu_tables[2], &pmu_table_goldmont);
	assert_ptr_equal(pmu_tables[3], &pmu_table_haswell);
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

static void check_table_sanity(const struct family *f)
{
	const struct pmu_table *t = f->table;
	int n = table_len(t);
	int rows_per_metric[M__COUNT] = { 0 };
	uint8_t rsp_event[3] = { 0 }, rsp_umask[3] = { 0 };

	assert_non_null(t->events);
	assert_true(n > 0);
	assert_true(n < MAX_ROWS);        /* the terminator was found */
	assert_null(t->events[n].name);

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
			assert_true(e->counters != 0);
			assert_int_equal(e->counters & ~f->gp_mask, 0);
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
		for (size_t p = 0; p < NPMUS && f->pmus[p].pmu; p++) {
			int applies[M__COUNT] = { 0 };

			for (int i = 0; i < n; i++)
				if (t->events[i].pair == tag &&
				    row_applies(&t->events[i], &f->pmus[p]))
					applies[t->events[i].metric]++;
			assert_true((applies[M_OFFCORE_READS] > 0) ==
				    (applies[M_OFFCORE_OUTSTANDING] > 0));
		}
	}
}

static void test_table_sanity(void **state)
{
	(void)state;
	for (size_t i = 0; i < NFAMILIES; i++)
		check_table_sanity(&families[i]);
}

/* The first row of @m that applies to @p, or NULL. */
static const struct pmu_event *first_row(const struct pmu_table *t, enum metric m,
					 const struct oracle_pmu *p)
{
	for (const struct pmu_event *e = t->events; e->name; e++)
		if (e->metric == m && row_applies(e, p))
			return e;
	return NULL;
}

static void test_table_alternatives(void **state)
{
	(void)state;
	for (size_t i = 0; i < NFAMILIES; i++) {
		const struct family *f = &families[i];

		for (size_t p = 0; p < NPMUS && f->pmus[p].pmu; p++) {
			const struct oracle_pmu *op = &f->pmus[p];
			const struct pmu_event *e;
			int gp = 0;

			/* fixed counter first, then a general-purpose fallback */
			e = first_row(f->table, M_INSTRUCTIONS, op);
			assert_non_null(e);
			assert_int_equal(e->fixed, 0);
			e = first_row(f->table, M_CYCLES, op);
			assert_non_null(e);
			assert_int_equal(e->fixed, 1);
			for (e = f->table->events; e->name; e++) {
				if (e->metric == M_REF_CYCLES)
					assert_int_equal(e->fixed, 2);
				if ((e->metric == M_INSTRUCTIONS || e->metric == M_CYCLES) &&
				    e->fixed == PMU_FIXED_NONE)
					gp++;
			}
			assert_int_equal(gp, 2);

			/* snoop hit: RSP_0 first; HITM: RSP_1 first where it exists */
			e = first_row(f->table, M_SNOOP_HIT, op);
			assert_non_null(e);
			assert_int_equal(e->offcore, 1);
			e = first_row(f->table, M_SNOOP_HITM, op);
			assert_non_null(e);
			if (e->offcore)
				assert_int_equal(e->offcore, op->offcore_msrs >= 2 ? 2 : 1);

			/* offcore reads: the paired row before any unpaired one */
			e = first_row(f->table, M_OFFCORE_READS, op);
			assert_non_null(e);
			if (first_row(f->table, M_OFFCORE_OUTSTANDING, op))
				assert_true(e->pair != 0);
		}
	}
}

static void test_table_facts(void **state)
{
	const struct oracle_pmu nhm = { "nhm", 0, 1 }, wsm = { "wsm", UARCH_F_OFFCORE_QUEUE, 2 };
	const struct pmu_table *atoms[] = { &pmu_table_silvermont, &pmu_table_goldmont };

	(void)state;
	/* Nehalem: outstanding only through the Westmere row, with a reason otherwise */
	assert_null(first_row(&pmu_table_nehalem, M_OFFCORE_OUTSTANDING, &nhm));
	assert_non_null(first_row(&pmu_table_nehalem, M_OFFCORE_OUTSTANDING, &wsm));
	assert_non_null(strstr(pmu_table_nehalem.unsupported[M_OFFCORE_OUTSTANDING], "Westmere"));
	assert_non_null(first_row(&pmu_table_nehalem, M_OFFCORE_READS, &nhm));
	assert_int_equal(first_row(&pmu_table_nehalem, M_OFFCORE_READS, &nhm)->offcore, 1);
	assert_int_equal(first_row(&pmu_table_nehalem, M_OFFCORE_READS, &wsm)->pair, 1);

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
			assert_null(pmu_table_haswell.unsupported[m]);
	for (const struct pmu_event *e = pmu_table_haswell.events; e->name; e++)
		if (e->metric == M_SNOOP_REMOTE_HIT || e->metric == M_SNOOP_REMOTE_HITM)
			assert_int_equal(e->needs, UARCH_F_REMOTE_EVENTS);

	/*
	 * Scopes (pmu-facts 8.2): every snoop row says whose caches it sees.
	 * Atom offcore-response snoop bits stop at the module; their HITM comes
	 * from the retired-load event that sees the module partner too.
	 */
	for (size_t k = 0; k < NFAMILIES; k++)
		for (const struct pmu_event *e = families[k].table->events; e->name; e++) {
			bool atom = families[k].table == &pmu_table_silvermont ||
				    families[k].table == &pmu_table_goldmont;

			switch (e->metric) {
			case M_SNOOP_HIT:
				assert_int_equal(e->scope, atom ? SCOPE_OTHER_MODULE : SCOPE_OTHER_CORE);
				break;
			case M_SNOOP_HITM:
				assert_int_equal(e->scope, SCOPE_OTHER_CORE);
				if (atom)
					assert_int_equal(e->offcore, 0);
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

	/* Westmere: OFFCORE_REQUESTS_OUTSTANDING on PMC0 only (kernel, json, libpfm4) */
	for (const struct pmu_event *e = pmu_table_nehalem.events; e->name; e++)
		if (e->metric == M_OFFCORE_OUTSTANDING)
			assert_int_equal(e->counters, 0x1);

	/* load latency on the big cores: PMC3 only */
	for (const struct pmu_event *e = pmu_table_nehalem.events; e->name; e++)
		if (e->ldlat)
			assert_int_equal(e->counters, 0x8);
	for (const struct pmu_event *e = pmu_table_haswell.events; e->name; e++)
		if (e->ldlat)
			assert_int_equal(e->counters, 0x8);
}

/* Every oracle entry names a row that exists and applies to its PMU. */
static void test_oracle_entries_used(void **state)
{
	(void)state;
	for (size_t i = 0; i < NORACLES; i++) {
		const struct oracle *o = &oracles[i];
		bool found = false;

		for (size_t k = 0; k < NFAMILIES; k++) {
			const struct family *f = &families[k];

			if (strcmp(f->name, o->table))
				continue;
			for (const struct pmu_event *e = f->table->events; e->name; e++) {
				if (strcmp(e->name, o->row) || e->offcore != o->offcore)
					continue;
				for (size_t p = 0; p < NPMUS && f->pmus[p].pmu; p++)
					if (!strcmp(f->pmus[p].pmu, o->pmu) &&
					    row_applies(e, &f->pmus[p]))
						found = true;
			}
		}
		if (!found)
			fail_msg("stale oracle entry: %s %s offcore=%d on %s", o->table, o->row,
				 o->offcore, o->pmu);
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
static void check_rsp_elsewhere(const struct pmu_table *t, const struct pmu_event *e,
				const struct oracle *o)
{
	const char *const ev[] = { o->rsp_pfm };
	struct pfm_answer a;

	assert_int_equal(pfm_ask(o->rsp_pmu, ev, 1, &a), 0);
	if (a.rc != PFM_SUCCESS)
		fail_msg("%s %s: libpfm4 %s cannot encode \"%s\": %s", t->name, e->name,
			 o->rsp_pmu, o->rsp_pfm, pfm_strerror(a.rc));
	assert_string_equal(a.pmu, o->rsp_pmu);
	assert_int_equal(a.count, 2);
	if (a.codes[1] != e->offcore_rsp)
		fail_msg("%s %s: libpfm4 %s \"%s\" gives 0x%llx, the row has 0x%llx", t->name,
			 e->name, o->rsp_pmu, o->rsp_pfm, (unsigned long long)a.codes[1],
			 (unsigned long long)e->offcore_rsp);
}

static void check_oracle(const struct family *f)
{
	const struct pmu_table *t = f->table;
	const char *last_note = NULL;    /* print each disagreement once per run of rows */
	int n = table_len(t), checked = 0;

	for (size_t p = 0; p < NPMUS && f->pmus[p].pmu; p++) {
		const struct oracle_pmu *op = &f->pmus[p];
		const struct pmu_event *rows[MAX_ROWS];
		const struct oracle *orc[MAX_ROWS];
		const char *strs[MAX_ROWS];
		struct pfm_answer ans[MAX_ROWS];
		int q = 0;

		for (int i = 0; i < n; i++) {
			const struct pmu_event *e = &t->events[i];

			if (!row_applies(e, op))
				continue;
			orc[q] = oracle_find(t->name, e, op->pmu);
			if (orc[q] == NULL)
				fail_msg("%s row %s (offcore %d) has no libpfm4 mapping for %s: "
					 "add one to oracles[] after checking it", t->name,
					 e->name, e->offcore, op->pmu);
			rows[q] = e;
			strs[q] = orc[q]->pfm;
			q++;
		}
		assert_int_equal(pfm_ask(op->pmu, strs, q, ans), 0);

		for (int i = 0; i < q; i++) {
			const struct pmu_event *e = rows[i];
			const struct oracle *o = orc[i];
			const struct pfm_answer *a = &ans[i];
			uint64_t want_sel, want_rsp, got_sel;

			if (a->rc != PFM_SUCCESS)
				fail_msg("%s/%s: libpfm4 cannot encode \"%s\": %s", t->name,
					 op->pmu, o->pfm, pfm_strerror(a->rc));
			assert_string_equal(a->pmu, op->pmu);
			assert_true(a->count >= 1);
			got_sel = a->codes[0] & ~EVTSEL_INT;

			if (e->fixed != PMU_FIXED_NONE) {
				/* the architectural event this fixed counter counts */
				assert_int_equal(a->codes[0] & 0xffff, fixed_code[e->fixed]);
				assert_int_equal(a->count, 1);
				checked++;
				continue;
			}

			want_sel = o->pfm_evtsel ? o->pfm_evtsel : pmu_event_evtsel(e);
			if (got_sel != want_sel)
				fail_msg("%s/%s %s: libpfm4 \"%s\" gives PERFEVTSEL 0x%llx, "
					 "expected 0x%llx", t->name, op->pmu, e->name, o->pfm,
					 (unsigned long long)got_sel,
					 (unsigned long long)want_sel);
			if (o->pfm_evtsel)   /* a recorded disagreement must still be one */
				assert_int_not_equal(got_sel, pmu_event_evtsel(e));

			if (e->offcore) {
				want_rsp = o->pfm_rsp ? o->pfm_rsp : e->offcore_rsp;
				assert_int_equal(a->count, 2);
				if (a->codes[1] != want_rsp)
					fail_msg("%s/%s %s (RSP_%d): libpfm4 \"%s\" gives 0x%llx, "
						 "expected 0x%llx", t->name, op->pmu, e->name,
						 e->offcore - 1, o->pfm,
						 (unsigned long long)a->codes[1],
						 (unsigned long long)want_rsp);
				if (o->pfm_rsp)
					assert_int_not_equal(a->codes[1], e->offcore_rsp);
				if (o->rsp_pmu)
					check_rsp_elsewhere(t, e, o);
			} else if (e->ldlat) {
				assert_int_equal(a->count, 2);
				assert_int_equal(a->codes[1], 3);   /* the ldlat=3 asked for */
			} else {
				assert_int_equal(a->count, 1);
				assert_int_equal(o->pfm_rsp, 0);
			}
			if (o->note && o->note != last_note)
				print_message("# %s/%s %s (and like rows): libpfm4 differs: %s\n", t->name,
					      op->pmu, e->name, o->note);
			last_note = o->note;
			checked++;
		}
	}
	assert_true(checked > 0);
}

static void oracle_or_skip(const char *table)
{
	static const char *const probe[] = { "INST_RETIRED:ANY_P" };
	struct pfm_answer a;

	for (size_t i = 0; i < NFAMILIES; i++) {
		if (strcmp(families[i].name, table))
			continue;
		for (size_t p = 0; p < NPMUS && families[i].pmus[p].pmu; p++) {
			if (pfm_ask(families[i].pmus[p].pmu, probe, 1, &a) ||
			    a.rc != PFM_SUCCESS)
				skip();      /* this libpfm4 lacks the PMU */
		}
		check_oracle(&families[i]);
		return;
	}
	fail_msg("no family %s", table);
}

static void test_oracle_nehalem(void **state)
{
	(void)state;
	oracle_or_skip("nehalem");
}

static void test_oracle_silvermont(void **state)
{
	(void)state;
	oracle_or_skip("silvermont");
}

static void test_oracle_goldmont(void **state)
{
	(void)state;
	oracle_or_skip("goldmont");
}

static void test_oracle_haswell(void **state)
{
	(void)state;
	oracle_or_skip("haswell");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_list),
		cmocka_unit_test(test_metric_names),
		cmocka_unit_test(test_evtsel_bits),
		cmocka_unit_test(test_table_sanity),
		cmocka_unit_test(test_table_alternatives),
		cmocka_unit_test(test_table_facts),
		cmocka_unit_test(test_oracle_entries_used),
		cmocka_unit_test(test_oracle_switches_pmu),
		cmocka_unit_test(test_oracle_nehalem),
		cmocka_unit_test(test_oracle_silvermont),
		cmocka_unit_test(test_oracle_goldmont),
		cmocka_unit_test(test_oracle_haswell),
	};

	return cmocka_run_group_tests_name("events", tests, NULL, NULL);
}
