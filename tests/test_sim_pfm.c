/*
 * test_sim_pfm.c: the simulator's event tables against libpfm4.
 *
 * Every event row of sim/sim_hw.c (PERFEVTSEL bits 0-31, INT aside) and
 * every offcore-response value it documents as meaningful must be what
 * libpfm4 encodes for the named event.  libpfm4 answers for any PMU when
 * LIBPFM_FORCE_PMU names it before pfm_initialize (pfm_terminate between
 * PMUs).  A PMU forced earlier stays active after pfm_terminate, so every
 * string is looked up as "pmu::EVENT" to hit exactly one table.
 *
 * The PMUs are those the tables name: each struct sim_hw's pfm_pmu, and a
 * row's own pfm_pmu where it borrows another (sim_hw.c says why next to
 * the row).  This file keeps no list of uarchs or PMUs of its own.
 *
 * Owns nothing but these checks; reads the tables through sim_internal.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <perfmon/pfmlib.h>

#include "sim/sim_internal.h"

#define PFM_INT         (1ULL << 20)
#define USR_OS_EN       0x430000ULL

#define MAX_PMUS 32

/* Every libpfm4 PMU the tables name, each once, ended by NULL. */
static const char *pmus[MAX_PMUS + 1];

static void pmus_add(const char *pmu)
{
	size_t i;

	if (!pmu)
		return;
	for (i = 0; pmus[i]; i++)
		if (!strcmp(pmus[i], pmu))
			return;
	assert_true(i < MAX_PMUS);
	pmus[i] = pmu;
}

static void pmus_collect(void)
{
	size_t u, i;

	for (u = 0; sim_hw_all[u]; u++) {
		const struct sim_hw *hw = sim_hw_all[u];

		pmus_add(hw->pfm_pmu);
		for (i = 0; i < hw->nevents; i++)
			pmus_add(hw->events[i].pfm_pmu);
		for (i = 0; i < hw->nserver_events; i++)
			pmus_add(hw->server_events[i].pfm_pmu);
		for (i = 0; i < hw->nrsp_docs; i++)
			pmus_add(hw->rsp_docs[i].pfm_pmu);
	}
}

/* Start libpfm4 answering for @pmu; ends a session a failed check may have left open. */
static int pfm_force(const char *pmu)
{
	pfm_terminate();
	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	return pfm_initialize();
}

/* Encode "pmu::event" for user and kernel; fills @codes (count returned), -1 on failure. */
static int pfm_encode(const char *pmu, const char *event, uint64_t codes[4])
{
	pfm_pmu_encode_arg_t arg;
	char full[256];
	int i, n;

	snprintf(full, sizeof(full), "%s::%s", pmu, event);
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	if (pfm_get_os_event_encoding(full, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg) != PFM_SUCCESS) {
		print_message("libpfm4 rejects %s\n", full);
		return -1;
	}
	n = arg.count;
	for (i = 0; i < 4; i++)
		codes[i] = i < n ? arg.codes[i] : 0;
	free(arg.codes);
	return n;
}

static const char *row_pmu(const struct sim_hw *hw, const char *pmu)
{
	return pmu ? pmu : hw->pfm_pmu;
}

static const struct sim_event *rsp_event(const struct sim_hw *hw, int reg)
{
	size_t i;

	for (i = 0; i < hw->nevents; i++)
		if (hw->events[i].kind == (reg ? SIM_EV_RSP1 : SIM_EV_RSP0))
			return &hw->events[i];
	return NULL;
}

static uint64_t evtsel_of(const struct sim_event *ev)
{
	return USR_OS_EN | (uint64_t)ev->umask << 8 | ev->event;
}

/*
 * Encodings libpfm4 4.13 lacks, as Intel's perfmon files give them
 * (intel/perfmon @ 6dadedf3aa48; pmu-facts 9.5 and 9.8): a simulator row
 * without a libpfm4 string (pfm NULL) must be one of these.
 */
static const struct {
	const char *uarch, *name;
	uint8_t event, umask;
	const char *source;
} json_only[] = {
	{ "sapphirerapids", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", 0x20, 0x01,
	  "SPR/events/sapphirerapids_core.json V1.39" },
	{ "emeraldrapids", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", 0x20, 0x01,
	  "EMR/events/emeraldrapids_core.json V1.24" },
	/* the hybrids' Core CPUs: libpfm4 4.13 has no adl_glc, spr stands in (pmu-facts 9.8) */
	{ "alderlake", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", 0x20, 0x01,
	  "ADL/events/alderlake_goldencove_core.json V1.40" },
	{ "raptorlake", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", 0x20, 0x01,
	  "ADL/events/alderlake_goldencove_core.json V1.40" },
	{ "graniterapids", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", 0x20, 0x01,
	  "GNR/events/graniterapids_core.json V1.20" },
	/* Tremont: libpfm4 4.13 tmt has no HITM umask (pmu-facts 9.8) */
	{ "tremont", "MEM_LOAD_UOPS_RETIRED.HITM", 0xd1, 0x20,
	  "EHL/events/elkhartlake_core.json V1.05, SNR/events/snowridgex_core.json V1.23" },
	/* Gracemont: libpfm4 4.13 has no PMU for it (pmu-facts 9.8) */
#define GRT_JSON "ADL/events/alderlake_gracemont_core.json V1.40"
	{ "gracemont", "CPU_CLK_UNHALTED.CORE_P", 0x3c, 0x00, GRT_JSON },
	{ "gracemont", "INST_RETIRED.ANY_P", 0xc0, 0x00, GRT_JSON },
	{ "gracemont", "MEM_UOPS_RETIRED.ALL_LOADS", 0xd0, 0x81, GRT_JSON },
	{ "gracemont", "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", 0xd0, 0x05, GRT_JSON " (_GT_4.._GT_2048)" },
	{ "gracemont", "OCR (MSR 0x1a6)", 0xb7, 0x01, GRT_JSON " (OCR.*, MSRIndex 0x1a6)" },
	{ "gracemont", "OCR (MSR 0x1a7)", 0xb7, 0x02, GRT_JSON " (OCR.*, MSRIndex 0x1a7)" },
	{ "gracemont", "MEM_LOAD_UOPS_RETIRED.HITM", 0xd1, 0x20, GRT_JSON },
	/* Crestmont: no libpfm4 PMU either (pmu-facts 9.8) */
#define CMT_EV_JSON "SRF/events/sierraforest_core.json V1.18 (GRR V1.13 the same)"
	{ "crestmont", "CPU_CLK_UNHALTED.CORE_P", 0x3c, 0x00, CMT_EV_JSON },
	{ "crestmont", "INST_RETIRED.ANY_P", 0xc0, 0x00, CMT_EV_JSON },
	{ "crestmont", "MEM_UOPS_RETIRED.ALL_LOADS", 0xd0, 0x81, CMT_EV_JSON },
	{ "crestmont", "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", 0xd0, 0x05, CMT_EV_JSON " (_GT_4.._GT_2048)" },
	{ "crestmont", "OCR (MSR 0x1a6)", 0xb7, 0x01, CMT_EV_JSON " (OCR.*, MSRIndex 0x1a6)" },
	{ "crestmont", "OCR (MSR 0x1a7)", 0xb7, 0x02, CMT_EV_JSON " (OCR.*, MSRIndex 0x1a7)" },
	/* Meteor Lake and Arrow Lake-U: Redwood Cove and Crestmont, no libpfm4 PMU (pmu-facts 9.8) */
#define MTL_RWC_JSON "MTL/events/meteorlake_redwoodcove_core.json V1.22"
	{ "meteorlake", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", 0x20, 0x01, MTL_RWC_JSON },
	{ "arrowlake", "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", 0x20, 0x01, MTL_RWC_JSON },
#define MTL_CMT_JSON "MTL/events/meteorlake_crestmont_core.json V1.22"
	{ "meteorlake-crestmont", "CPU_CLK_UNHALTED.CORE_P", 0x3c, 0x00, MTL_CMT_JSON },
	{ "meteorlake-crestmont", "INST_RETIRED.ANY_P", 0xc0, 0x00, MTL_CMT_JSON },
	{ "meteorlake-crestmont", "MEM_UOPS_RETIRED.ALL_LOADS", 0xd0, 0x81, MTL_CMT_JSON },
	{ "meteorlake-crestmont", "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", 0xd0, 0x05,
	  MTL_CMT_JSON " (_GT_4.._GT_2048)" },
	{ "meteorlake-crestmont", "OCR (MSR 0x1a6)", 0xb7, 0x01, MTL_CMT_JSON " (OCR.*, MSRIndex 0x1a6)" },
	{ "meteorlake-crestmont", "OCR (MSR 0x1a7)", 0xb7, 0x02, MTL_CMT_JSON " (OCR.*, MSRIndex 0x1a7)" },
	/*
	 * Lunar Lake, and Arrow Lake-S/HX and -H (the profile key model): Lion
	 * Cove, Skymont (Arrow Lake's with its HITM event), Arrow Lake-H's
	 * Crestmont LP-E; no libpfm4 PMU (pmu-facts 9.8).  The same codes in
	 * each file: a row each of these, per file.
	 */
#define LNC_ROWS(hw, json)                                                                      \
	{ hw, "CPU_CLK_UNHALTED.THREAD_P", 0x3c, 0x00, json },                                  \
	{ hw, "INST_RETIRED.ANY_P", 0xc0, 0x00, json },                                         \
	{ hw, "MEM_INST_RETIRED.ALL_LOADS", 0xd0, 0x81, json },                                 \
	{ hw, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_N", 0xcd, 0x01, json " (_GT_4.._GT_2048)" },   \
	{ hw, "MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD", 0xd2, 0x02, json },                        \
	{ hw, "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM", 0xd2, 0x04, json },                          \
	{ hw, "OFFCORE_REQUESTS.DEMAND_DATA_RD", 0x21, 0x01, json },                            \
	{ hw, "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", 0x20, 0x01, json }
#define ATOM_ROWS(hw, json)                                                                     \
	{ hw, "CPU_CLK_UNHALTED.CORE_P", 0x3c, 0x00, json },                                    \
	{ hw, "INST_RETIRED.ANY_P", 0xc0, 0x00, json },                                         \
	{ hw, "MEM_UOPS_RETIRED.ALL_LOADS", 0xd0, 0x81, json },                                 \
	{ hw, "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", 0xd0, 0x05, json " (_GT_4.._GT_2048)" }
#define LNL_LNC_JSON "LNL/events/lunarlake_lioncove_core.json V1.26"
#define LNL_SKT_JSON "LNL/events/lunarlake_skymont_core.json V1.26"
#define ARL_LNC_JSON "ARL/events/arrowlake_lioncove_core.json V1.20"
#define ARL_SKT_JSON "ARL/events/arrowlake_skymont_core.json V1.20"
#define ARL_CMT_JSON "ARL/events/arrowlake_crestmont_core.json V1.20"
	LNC_ROWS("lunarlake", LNL_LNC_JSON),
	ATOM_ROWS("lunarlake-skymont", LNL_SKT_JSON),
	LNC_ROWS("arrowlake", ARL_LNC_JSON),
	ATOM_ROWS("arrowlake-skymont", ARL_SKT_JSON),
	{ "arrowlake-skymont", "MEM_LOAD_UOPS_MISC_RETIRED.L3_HIT_SNOOP_HITM", 0xd4, 0x08,
	  ARL_SKT_JSON },
	ATOM_ROWS("arrowlakeh-skymont", ARL_SKT_JSON),
	{ "arrowlakeh-skymont", "MEM_LOAD_UOPS_MISC_RETIRED.L3_HIT_SNOOP_HITM", 0xd4, 0x08,
	  ARL_SKT_JSON },
	ATOM_ROWS("arrowlakeh-crestmont", ARL_CMT_JSON),
	{ "crestmont", "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_FWD_NONM", 0xd3, 0x04,
	  "SRF/events/sierraforest_core.json V1.18" },
	{ "crestmont", "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_FWD_HITM", 0xd3, 0x08,
	  "SRF/events/sierraforest_core.json V1.18" },
};

/*
 * Offcore-response values libpfm4 4.13 cannot encode (no PMU), as Intel's
 * files give them: a simulator rsp row without a libpfm4 string must be
 * one of these, on an MSR the json lists for it.
 */
static const struct {
	const char *uarch, *name;
	uint64_t value;
	unsigned regs;          /* bit 0: MSR 0x1a6 listed, bit 1: 0x1a7 */
	const char *source;
} json_rsp[] = {
#define TNT_JSON "EHL/events/elkhartlake_core.json V1.05 (SNR V1.23 the same)"
	{ "tremont", "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD", 0x4003C0001ULL, 0x3, TNT_JSON },
	{ "tremont", "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM", 0x10003C0001ULL, 0x3, TNT_JSON },
	{ "tremont", "OCR.DEMAND_DATA_RD.OUTSTANDING", 0x8000000000000001ULL, 0x1, TNT_JSON },
	{ "gracemont", "OCR.DEMAND_DATA_RD.ANY_RESPONSE", 0x10001, 0x3, GRT_JSON },
#define CMT_JSON "SRF/events/sierraforest_core.json V1.18, GRR/events/grandridge_core.json V1.13"
	{ "crestmont", "OCR.DEMAND_DATA_RD.ANY_RESPONSE", 0x10001, 0x3, CMT_JSON },
	{ "crestmont", "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM", 0x10003C0001ULL, 0x3, CMT_JSON },
	{ "meteorlake-crestmont", "OCR.DEMAND_DATA_RD.ANY_RESPONSE", 0x10001, 0x3, MTL_CMT_JSON },
	{ "meteorlake-crestmont", "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD", 0x4003C0001ULL, 0x3,
	  MTL_CMT_JSON },
	{ "meteorlake-crestmont", "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM", 0x10003C0001ULL, 0x3,
	  MTL_CMT_JSON },
	{ "gracemont", "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD", 0x4003C0001ULL, 0x3, GRT_JSON },
	{ "gracemont", "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM", 0x10003C0001ULL, 0x3, GRT_JSON },
};

static bool json_rsp_row(const struct sim_hw *hw, const struct sim_rsp_doc *d)
{
	for (size_t i = 0; i < sizeof(json_rsp) / sizeof(json_rsp[0]); i++)
		if (!strcmp(json_rsp[i].uarch, hw->name) && json_rsp[i].value == d->value &&
		    (json_rsp[i].regs & (1u << d->reg))) {
			print_message("%s: RSP_%d 0x%llx: not in libpfm4; Intel's %s %s\n", hw->name,
				      d->reg, (unsigned long long)d->value, json_rsp[i].source,
				      json_rsp[i].name);
			return true;
		}
	return false;
}

static bool json_row(const struct sim_hw *hw, const struct sim_event *ev)
{
	for (size_t i = 0; i < sizeof(json_only) / sizeof(json_only[0]); i++)
		if (!strcmp(json_only[i].uarch, hw->name) && !strcmp(json_only[i].name, ev->name) &&
		    json_only[i].event == ev->event && json_only[i].umask == ev->umask) {
			print_message("%s: %s 0x%02x/0x%02x: not in libpfm4; Intel's %s\n", hw->name,
				      ev->name, ev->event, ev->umask, json_only[i].source);
			return true;
		}
	return false;
}

/* Event rows @ev (n of them) of @hw that name @pmu: libpfm4 encodes each to its select. */
static int check_events(const struct sim_hw *hw, const struct sim_event *ev, size_t n,
			const char *pmu)
{
	int checked = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t codes[4];

		if (strcmp(row_pmu(hw, ev[i].pfm_pmu), pmu))
			continue;
		if (!ev[i].pfm) {
			assert_true(json_row(hw, &ev[i]));
			checked++;
			continue;
		}
		print_message("%s %s: %s -> 0x%llx\n", hw->name, pmu, ev[i].pfm,
			      (unsigned long long)evtsel_of(&ev[i]));
		assert_non_null(ev[i].pfm);
		assert_true(pfm_encode(pmu, ev[i].pfm, codes) >= 1);
		assert_int_equal(codes[0] & 0xffffffffULL & ~PFM_INT, evtsel_of(&ev[i]));
		checked++;
	}
	return checked;
}

/* Check, under one forced PMU, every row that names it; returns how many were checked. */
static int check_pmu(const char *pmu)
{
	int checked = 0;
	size_t u, i;

	for (u = 0; sim_hw_all[u]; u++) {
		const struct sim_hw *hw = sim_hw_all[u];

		if (!hw->pfm_pmu)
			continue;       /* no libpfm4 PMU: test_json_only_tables */
		checked += check_events(hw, hw->events, hw->nevents, pmu);
		checked += check_events(hw, hw->server_events, hw->nserver_events, pmu);
		for (i = 0; i < hw->nrsp_docs; i++) {
			const struct sim_rsp_doc *d = &hw->rsp_docs[i];
			const struct sim_event *ev = rsp_event(hw, d->reg);
			uint64_t codes[4];

			if (strcmp(row_pmu(hw, d->pfm_pmu), pmu))
				continue;
			if (!d->pfm) {
				assert_true(json_rsp_row(hw, d));
				checked++;
				continue;
			}
			print_message("%s %s: %s -> RSP_%d 0x%llx\n", hw->name, pmu, d->pfm, d->reg,
				      (unsigned long long)d->value);
			assert_non_null(ev);
			assert_true(pfm_encode(pmu, d->pfm, codes) >= 2);
			/* The RSP event itself: on a borrowed PMU it must still be the same encoding. */
			assert_int_equal(codes[0] & 0xffffffffULL & ~PFM_INT, evtsel_of(ev));
			assert_int_equal(codes[1], d->value | d->pfm_extra);
			checked++;
		}
	}
	return checked;
}

static void test_tables_match_libpfm(void **state)
{
	int total = 0, i;

	(void)state;
	pmus_collect();
	for (i = 0; pmus[i]; i++) {
		if (pfm_force(pmus[i]) != PFM_SUCCESS) {
			pfm_terminate();
			skip();
		}
		total += check_pmu(pmus[i]);
		pfm_terminate();
	}
	/* Every row of every table was seen under some PMU. */
	{
		int rows = 0;
		size_t u;

		for (u = 0; sim_hw_all[u]; u++)
			if (sim_hw_all[u]->pfm_pmu)
				rows += (int)(sim_hw_all[u]->nevents + sim_hw_all[u]->nrsp_docs +
					      sim_hw_all[u]->nserver_events);
		assert_int_equal(total, rows);
	}
}

/* Every row has a libpfm4 string, and every uarch names a PMU libpfm4 has. */
static void test_rows_named(void **state)
{
	size_t u, i;

	(void)state;
	for (u = 0; sim_hw_all[u]; u++) {
		const struct sim_hw *hw = sim_hw_all[u];

		char probe[64];

		if (!hw->pfm_pmu)
			continue;       /* test_json_only_tables */
		if (pfm_force(hw->pfm_pmu) != PFM_SUCCESS) {
			pfm_terminate();
			skip();
		}
		/* libpfm4 knows the PMU: its architectural instructions event resolves */
		snprintf(probe, sizeof(probe), "%s::INSTRUCTIONS_RETIRED", hw->pfm_pmu);
		if (pfm_find_event(probe) < 0)
			fail_msg("%s: libpfm4 has no PMU \"%s\"", hw->name, hw->pfm_pmu);
		pfm_terminate();
		for (i = 0; i < hw->nevents; i++)
			assert_true(hw->events[i].pfm || json_row(hw, &hw->events[i]));
		for (i = 0; i < hw->nrsp_docs; i++)
			assert_true(hw->rsp_docs[i].pfm || json_rsp_row(hw, &hw->rsp_docs[i]));
	}
}

/*
 * A simulated part libpfm4 has no PMU for: every row is one of Intel's
 * values written above, and there is at least one such part.
 */
/* Every row of @hw, which libpfm4 has no PMU for, is one of Intel's values written above. */
static void check_json_table(const struct sim_hw *hw)
{
	for (size_t i = 0; i < hw->nevents; i++) {
		assert_null(hw->events[i].pfm);
		if (!json_row(hw, &hw->events[i]))
			fail_msg("%s: %s 0x%02x/0x%02x is none of Intel's values", hw->name,
				 hw->events[i].name, hw->events[i].event, hw->events[i].umask);
	}
	for (size_t i = 0; i < hw->nserver_events; i++) {
		assert_null(hw->server_events[i].pfm);
		if (!json_row(hw, &hw->server_events[i]))
			fail_msg("%s: %s is none of Intel's values", hw->name,
				 hw->server_events[i].name);
	}
	for (size_t i = 0; i < hw->nrsp_docs; i++) {
		assert_null(hw->rsp_docs[i].pfm);
		if (!json_rsp_row(hw, &hw->rsp_docs[i]))
			fail_msg("%s: RSP_%d 0x%llx is none of Intel's values", hw->name,
				 hw->rsp_docs[i].reg,
				 (unsigned long long)hw->rsp_docs[i].value);
	}
}

static void test_json_only_tables(void **state)
{
	int parts = 0, models = 0;

	(void)state;
	for (size_t u = 0; sim_hw_all[u]; u++) {
		const struct sim_hw *hw = sim_hw_all[u];
		size_t k;

		/* the name's other parts (the profile key model) and their Atoms: no libpfm4 PMU */
		for (const struct sim_hw *const *m = hw->models; m && *m; m++, models++) {
			assert_null((*m)->pfm_pmu);
			check_json_table(*m);
			check_json_table((*m)->atom);
			if ((*m)->lowpower)
				check_json_table((*m)->lowpower);
		}
		/* a hybrid's Atom CPUs' hardware, when no machine of the list is it */
		for (k = 0; hw->atom && sim_hw_all[k] && sim_hw_all[k] != hw->atom; k++)
			;
		if (hw->atom && !sim_hw_all[k] && !(u > 0 && sim_hw_all[u - 1]->atom == hw->atom))
			hw = hw->atom;
		if (hw->pfm_pmu)
			continue;
		parts++;
		check_json_table(hw);
	}
	assert_true(parts > 0);
	assert_true(models >= 2);       /* Arrow Lake-S/HX and -H */
}

/*
 * libpfm4 agrees that OUTSTANDING exists only in MSR_OFFCORE_RSP_0 (the
 * simulator refuses bit 38 in RSP_1 with EIO) and cannot be combined with
 * response bits.
 */
static void test_outstanding_rsp0_only(void **state)
{
	uint64_t codes[4];

	(void)state;
	if (pfm_force("glm") != PFM_SUCCESS)
		skip();
	assert_true(pfm_encode("glm", "OFFCORE_RESPONSE_0:DMND_DATA_RD:OUTSTANDING", codes) >= 2);
	assert_int_equal(codes[1], 0x4000000001ULL);
	assert_int_equal(pfm_encode("glm", "OFFCORE_RESPONSE_1:DMND_DATA_RD:OUTSTANDING", codes), -1);
	assert_int_equal(pfm_encode("glm", "OFFCORE_RESPONSE_0:DMND_DATA_RD:OUTSTANDING:L2_HIT", codes), -1);
	pfm_terminate();
}

/*
 * What libpfm4 says about the ones the simulator leaves out: its nhm table
 * has INST_RETIRED:ANY_P at umask 0 (the NHM json says 0x01; sim_hw.c
 * implements both), and Nehalem's offcore request count 0xB0/0x01 is only
 * in libpfm4 (UNVERIFIED, not simulated).
 */
static void test_nehalem_notes(void **state)
{
	uint64_t codes[4];

	(void)state;
	if (pfm_force("nhm") != PFM_SUCCESS)
		skip();
	assert_true(pfm_encode("nhm", "INST_RETIRED:ANY_P", codes) >= 1);
	assert_int_equal(codes[0] & 0xffff, 0x00c0);
	assert_true(pfm_encode("nhm", "OFFCORE_REQUESTS:DEMAND_READ_DATA", codes) >= 1);
	assert_int_equal(codes[0] & 0xffff, 0x01b0);
	assert_null(sim_hw_event(sim_hw_lookup("nehalem"), true, 0xb0, 0x01));
	assert_null(sim_hw_event(sim_hw_lookup("nehalem"), true, 0x60, 0x01));
	pfm_terminate();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_named),
		cmocka_unit_test(test_json_only_tables),
		cmocka_unit_test(test_tables_match_libpfm),
		cmocka_unit_test(test_outstanding_rsp0_only),
		cmocka_unit_test(test_nehalem_notes),
	};

	return cmocka_run_group_tests_name("sim_pfm", tests, NULL, NULL);
}
