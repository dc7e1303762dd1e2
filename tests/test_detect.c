/*
 * test_detect.c: CPU detection (cpu/cpuid.c, cpu/uarch.c) against real CPUID
 * dumps and hand-made leaves.
 *
 * Reads the .raw dumps of ../shared/cpuid/libcpuid/ with the expectations of the table in
 * ../shared/cpuid/README.md and the all-CPU .all.raw dumps of ../shared/cpuid/all/
 * (skipped when that folder is absent), the dumps
 * of tests/dumps/ (documented in tests/dumps/README.md), and bad files made
 * in a temporary directory.  Writes nothing outside that directory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/events.h"
#include "cpu/uarch.h"

#define SHARED_DIR  "../shared/cpuid/libcpuid"
#define SHARED_ALL_DIR "../shared/cpuid/all"
#define SHARED_README "../shared/cpuid/README.md"
#define LOCAL_DIR   "tests/dumps"

/* ---------------------------------------------------------------- helpers */

static bool has_suffix(const char *s, const char *suf)
{
	size_t ls = strlen(s), lf = strlen(suf);

	return ls >= lf && !strcmp(s + ls - lf, suf);
}

/* A reason is one line, fits its buffer untruncated, and ends without a period. */
static void assert_reason_ok(const char *r)
{
	size_t len = strlen(r);

	assert_true(len > 0);
	assert_true(len < sizeof(((struct cpu_desc *)0)->reason) - 1);
	assert_null(strchr(r, '\n'));
	assert_true(r[len - 1] != '.' && r[len - 1] != ' ');
}

static int load(const char *path, struct cpuid_raw *raw, struct cpuid_info *id,
		struct cpu_desc *d)
{
	char err[256] = "";
	struct cpuid_set s;
	int rc = cpuid_set_file(path, &s, err, sizeof(err));

	if (rc < 0) {
		print_error("%s: %s\n", path, err);
		return rc;
	}
	*raw = s.raw[0];
	cpuid_decode(raw, id);
	uarch_detect_set(&s, d);        /* as lattop does: every CPU of the dump */
	cpuid_set_free(&s);
	return 0;
}

/* ------------------------------------------- the shared real dumps + README */

/* The reason given for a known CPU lattop has no event table for, as uarch_detect() words it. */
#define NO_TABLE(cpu) cpu " is not supported: lattop has no event table for it"

/* Microarchitecture JSON names: the README names them in prose. */
static const struct {
	const char *file;
	const char *uarch;
	const char *reason_has;     /* when unsupported: words the reason must hold */
	const char *reason_alt;
} shared_names[] = {
	{ "nehalem_core-i7-920", "nehalem", NULL, NULL },
	{ "nehalem_xeon-e7520", "nehalem", NULL, NULL },
	{ "nehalem_xeon-x7560-hyperv", "nehalem", "hypervisor", NULL },
	{ "westmere_xeon-x5650", "westmere", NULL, NULL },
	{ "silvermont_atom-c2750", "silvermont", NULL, NULL },
	{ "airmont_celeron-n3150", "airmont", NULL, NULL },
	{ "goldmont_celeron-j3455", "goldmont", NULL, NULL },
	{ "goldmontplus_celeron-j4105", "goldmont-plus", NULL, NULL },
	{ "haswell_core-i7-4770", "haswell", NULL, NULL },
	{ "haswell_xeon-e5-2660v3", "haswell", NULL, NULL },
	{ "broadwell_core-i7-5775c", "broadwell", NULL, NULL },
	{ "sandybridge_core-i7-2600", "sandybridge", "Sandy Bridge", NULL },
	{ "skylake_core-i7-6700k", "skylake", "Skylake", NULL },
	{ "core2_q6600", "core2", "Core 2", NULL },
	{ "netburst_pentium4-640", "netburst", "ESCR/CCCR", "NetBurst" },
	{ "zen_ryzen7-1800x", "zen", "AMD", NULL },
	/* The Ice Lake family: supported (perfmon version 5) */
	{ "icelake_core-i7-1065g7", "icelake", NULL, NULL },
	{ "icelakex_xeon-gold-6336y", "icelake", NULL, NULL },
	{ "tigerlake_core-i7-1165g7", "tigerlake", NULL, NULL },
	{ "rocketlake_core-i9-11900k", "rocketlake", NULL, NULL },
	{ "sapphirerapids_xeon-w7-2475x", "sapphirerapids", NULL, NULL },
	{ "emeraldrapids_xeon-gold-5520plus", "emeraldrapids", NULL, NULL },
	{ "graniterapids_xeon-658x", "graniterapids", NULL, NULL },
	/* The non-hybrid Atoms: supported (perfmon version 5) */
	{ "alderlaken_core-i3-n305", "gracemont", NULL, NULL },
	{ "elkhartlake_celeron-j6412", "tremont", NULL, NULL },
	/*
	 * The hybrids: named, with the model, no event table
	 * yet; the uarchs all of whose models are hybrid say so
	 */
	{ "alderlake_core-i9-12900k", "alderlake", NO_TABLE("Alder Lake (06_97)"), NULL },
	{ "alderlakep_core-i7-12700h", "alderlake", NO_TABLE("Alder Lake (06_9A)"), NULL },
	{ "alderlake-ponly_core-i5-12400", "alderlake", NO_TABLE("Alder Lake (06_97)"), NULL },
	{ "raptorlake_core-i9-13900kf", "raptorlake", NO_TABLE("Raptor Lake (06_B7)"), NULL },
	{ "raptorlakep_core-i7-1370p", "raptorlake", NO_TABLE("Raptor Lake (06_BA)"), NULL },
	{ "meteorlake_core-ultra-7-155h", "meteorlake", NULL, NULL },
	{ "arrowlake_core-ultra-7-265k", "arrowlake", NULL, NULL },
	{ "arrowlakeh_core-ultra-9-285h", "arrowlake", NULL, NULL },
	{ "lunarlake_core-ultra-9-288v", "lunarlake", NULL, NULL },
	/* CPU 0 is a Tremont core: the part's own reason */
	{ "lakefield_core-i5-l16g7", "lakefield",
	  "Lakefield (06_8A) is not supported: Intel's event lists (perfmon mapfile) name no events for 06_8A",
	  NULL },
};

struct readme_row {
	char name[64];
	unsigned family, model;
	bool has_leaf_a;
	unsigned version, gp;
	bool supported;
	char table[32];             /* "" when unsupported */
	bool once_family;           /* supported once its uarch has an event table */
	bool either;                /* supported, or unsupported and named */
};

/* Split "| a | b | ... |" into trimmed cells; returns their number. */
static int split_row(char *line, char **cells, int max)
{
	int n = 0;
	char *p = line, *bar;

	if (*p != '|')
		return 0;
	p++;
	while (n < max && (bar = strchr(p, '|'))) {
		char *e = bar;

		*bar = '\0';
		while (*p == ' ')
			p++;
		while (e > p && e[-1] == ' ')
			*--e = '\0';
		cells[n++] = p;
		p = bar + 1;
	}
	return n;
}

/*
 * The first "V / G" (perfmon version / general-purpose counters) in a
 * README cell: "3 / 4", or inside a hybrid part's prose, "hybrid: P 0-11,
 * E 12-19; both 5 / 6, 3 fixed".  A number starts after a non-alphanumeric.
 */
static bool readme_version_gp(const char *s, unsigned *version, unsigned *gp)
{
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9' || (p > s && isalnum((unsigned char)p[-1])))
			continue;
		if (sscanf(p, "%u / %u", version, gp) == 2)
			return true;
	}
	return false;
}

/*
 * The README table: NAME | CPU | family/model | version / GP counters |
 * microarchitecture | expected result.
 */
static int readme_load(struct readme_row *rows, int max)
{
	FILE *f = fopen(SHARED_README, "r");
	char line[1024];
	int n = 0;

	if (!f)
		return -1;
	while (n < max && fgets(line, sizeof(line), f)) {
		char *c[8], *s;
		struct readme_row *r = &rows[n];

		line[strcspn(line, "\n")] = '\0';
		if (split_row(line, c, 8) < 6 || strchr(c[0], ' ') || !strcmp(c[0], "NAME") ||
		    c[0][0] == '-' || c[0][0] == '\0')
			continue;
		memset(r, 0, sizeof(*r));
		snprintf(r->name, sizeof(r->name), "%s", c[0]);
		if (sscanf(c[2], "%x/%x", &r->family, &r->model) != 2)
			continue;
		r->has_leaf_a = readme_version_gp(c[3], &r->version, &r->gp);
		/*
		 * "supported once the family exists; until then unsupported,
		 * named": as its uarch stands (test_shared_dumps knows it).
		 * "supported, or unsupported and named with the reason": either.
		 */
		r->once_family = !strncmp(c[5], "supported once the family exists", 32);
		r->either = !strncmp(c[5], "supported, or unsupported", 25);
		if (r->once_family || r->either) {
			n++;
			continue;
		}
		if (!strncmp(c[5], "supported once the ", 19)) {
			/*
			 * "supported once the Sandy Bridge table exists; until then
			 * unsupported, named": expected as lattop's tables stand.
			 */
			char want[32] = "";
			size_t k = 0;

			for (s = c[5] + 19; *s && strncmp(s, " table", 6) && k + 1 < sizeof(want); s++)
				if (*s != ' ')
					want[k++] = (char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
			want[k] = '\0';
			const struct pmu_table *t;

			r->supported = false;
			for (size_t i = 0; (t = uarch_pmu_table(i)); i++)
				if (!strcmp(t->name, want))
					r->supported = true;
			if (r->supported)
				snprintf(r->table, sizeof(r->table), "%s", want);
			n++;
			continue;
		}
		r->supported = !strncmp(c[5], "supported", 9);
		if (r->supported && (s = strstr(c[5], ", ")) && sscanf(s + 2, "%31s", r->table) != 1)
			continue;
		n++;
	}
	fclose(f);
	return n;
}

static void test_shared_dumps(void **state)
{
	struct readme_row rows[64];
	bool seen[64] = { false };
	int nrows, checked = 0, i;
	DIR *dir;
	struct dirent *de;

	(void)state;
	dir = opendir(SHARED_DIR);
	if (!dir) {
		skip();
		return;
	}
	nrows = readme_load(rows, 64);
	assert_true(nrows >= 16);   /* the README holds the expectations */

	while ((de = readdir(dir))) {
		char path[512], base[128];
		struct cpuid_raw raw;
		struct cpuid_info id;
		struct cpu_desc d;
		const struct readme_row *r = NULL;
		const char *uname = NULL, *has = NULL, *alt = NULL, *table;
		bool supported, lacks = false;
		/*
		 * Hybrid parts with a core type lattop has no table for:
		 * unsupported though their uarch has one (none since Lion Cove
		 * and Skymont have theirs; Panther Lake has no dump).
		 */
		static const char *const type_lacks[] = { "" };
		size_t k;

		if (!has_suffix(de->d_name, ".raw"))
			continue;
		snprintf(base, sizeof(base), "%.*s", (int)(strlen(de->d_name) - 4), de->d_name);
		for (i = 0; i < nrows; i++)
			if (!strcmp(rows[i].name, base)) {
				r = &rows[i];
				seen[i] = true;
			}
		for (k = 0; k < sizeof(shared_names) / sizeof(shared_names[0]); k++)
			if (!strcmp(shared_names[k].file, base)) {
				uname = shared_names[k].uarch;
				has = shared_names[k].reason_has;
				alt = shared_names[k].reason_alt;
			}
		for (k = 0; k < sizeof(type_lacks) / sizeof(type_lacks[0]); k++)
			lacks |= !strcmp(type_lacks[k], base);
		if (!r || !uname)
			fail_msg("%s: a dump with no expectation (README row %s, test name %s)",
				 de->d_name, r ? "present" : "missing", uname ? "present" : "missing");

		snprintf(path, sizeof(path), "%s/%s", SHARED_DIR, de->d_name);
		assert_int_equal(load(path, &raw, &id, &d), 0);
		assert_int_equal(id.family, r->family);
		assert_int_equal(id.model, r->model);
		assert_int_equal(id.pmu.version, r->has_leaf_a ? r->version : 0);
		assert_int_equal(id.pmu.gp_counters, r->has_leaf_a ? r->gp : 0);
		assert_non_null(d.uarch);
		assert_string_equal(d.uarch->name, uname);
		supported = r->supported;
		table = r->table;
		if (r->once_family) {
			const struct uarch *u = uarch_by_name(uname);   /* only those with a table */

			supported = u != NULL && !lacks;
			table = supported ? u->table->name : "";
		} else if (r->either) {
			supported = d.supported;
			table = d.supported ? d.uarch->table->name : "";
		}
		assert_int_equal(d.supported, supported);
		if (supported) {
			assert_non_null(d.uarch->table);
			assert_string_equal(d.uarch->table->name, table);
			assert_string_equal(d.reason, "");
			assert_true(id.pmu.fixed_counters >= 3);
			assert_true(pmu_caps_fixed_run(&id.pmu) >= 3);
		} else {
			assert_reason_ok(d.reason);
			if (has && !strstr(d.reason, has) && !(alt && strstr(d.reason, alt)))
				fail_msg("%s: reason \"%s\" does not mention %s", base, d.reason, has);
		}
		checked++;
	}
	closedir(dir);
	for (i = 0; i < nrows; i++)
		if (!seen[i])
			fail_msg("README names %s but %s has no such dump", rows[i].name, SHARED_DIR);
	assert_int_equal(checked, nrows);
}

/*
 * Perfmon version 5: leaf 0xA ECX enumerates the fixed counters, a counter
 * existing when its ECX bit is set or EDX[4:0] counts past it (pmu-facts
 * 9.2); below version 5 ECX is not read.  The Ice Lake table needs fixed
 * counters 0-2.
 */
static void detect_leaf_a(uint32_t eax, uint32_t ecx, uint32_t edx, struct cpuid_info *id,
			  struct cpu_desc *d)
{
	struct cpuid_raw raw;

	memset(&raw, 0, sizeof(raw));
	raw.basic[0][0] = 0x1b;
	raw.basic[0][1] = 0x756e6547;   /* "Genu" */
	raw.basic[0][3] = 0x49656e69;   /* "ineI" */
	raw.basic[0][2] = 0x6c65746e;   /* "ntel" */
	raw.basic[1][0] = 0x000706e5;   /* 06_7E, as the i7-1065G7 */
	raw.basic[0xa][0] = eax;
	raw.basic[0xa][2] = ecx;
	raw.basic[0xa][3] = edx;
	raw.basic_present = 1u << 0 | 1u << 1 | 1u << 0xa;
	cpuid_decode(&raw, id);
	uarch_detect(id, d);
}

static void test_fixed_bitmap_v5(void **state)
{
	struct cpuid_info id;
	struct cpu_desc d;

	(void)state;
	/* The dumps' words: EDX says 4, ECX 0xF */
	detect_leaf_a(0x08300805, 0xf, 0x8604, &id, &d);
	assert_int_equal(id.pmu.fixed_mask, 0xf);
	assert_true(d.supported);
	/* EDX[4:0] 0, the bitmap alone enumerates them */
	detect_leaf_a(0x08300805, 0x7, 0x8600, &id, &d);
	assert_int_equal(id.pmu.fixed_mask, 0x7);
	assert_int_equal(pmu_caps_fixed_run(&id.pmu), 3);
	assert_true(d.supported);
	/* a hole at counter 1: the run stops at it */
	detect_leaf_a(0x08300805, 0xd, 0x8600, &id, &d);
	assert_int_equal(pmu_caps_fixed_run(&id.pmu), 1);
	assert_false(d.supported);
	assert_non_null(strstr(d.reason, "1 fixed counters"));
	/* version 4: ECX is not a bitmap (reserved), EDX alone counts */
	detect_leaf_a(0x08300804, 0x7, 0x0600, &id, &d);
	assert_int_equal(id.pmu.fixed_mask, 0);
	assert_false(d.supported);
}

/*
 * The core types of the hybrid parts as the README's table names them
 * ("hybrid: P 0-15 and E 16-23 ..."): their microarchitectures, CPUs, and
 * the counters each has (leaf 0x23.1, or the kernel's Alder Lake rule, as
 * pmu-facts 9.1 lists them).  Read from the `cpuid -r` form, which keeps
 * leaf 0x23.
 */
static const struct {
	const char *name;
	struct { const char *type, *uarch, *cpus; unsigned gp, fixed; } t[3];
} hybrid_parts[] = {
	{ "alderlake_core-i9-12900k", { { "core", "goldencove", "0-15", 8, 3 },
					{ "atom", "gracemont", "16-23", 6, 3 } } },
	{ "alderlakep_core-i7-12700h", { { "core", "goldencove", "0-11", 8, 3 },
					 { "atom", "gracemont", "12-19", 6, 3 } } },
	{ "raptorlake_core-i9-13900kf", { { "core", "raptorcove", "0-15", 8, 3 },
					  { "atom", "gracemont", "16-31", 6, 3 } } },
	{ "raptorlakep_core-i7-1370p", { { "core", "goldencove", "0-11", 8, 3 },
					 { "atom", "gracemont", "12-19", 6, 3 } } },
	{ "meteorlake_core-ultra-7-155h", { { "core", "redwoodcove", "0-1,10-19", 8, 4 },
					    { "atom", "crestmont", "2-9,20-21", 8, 3 } } },
	{ "arrowlake_core-ultra-7-265k", { { "core", "lioncove", "0-1,6-9,18-19", 10, 4 },
					   { "atom", "skymont", "2-5,10-17", 8, 3 } } },
	{ "arrowlakeh_core-ultra-9-285h", { { "core", "lioncove", "0-1,10-13", 10, 4 },
					    { "atom", "skymont", "2-9", 8, 3 },
					    { "atom", "crestmont-lpe", "14-15", 8, 3 } } },
	{ "lunarlake_core-ultra-9-288v", { { "core", "lioncove", "0-3", 10, 4 },
					   { "atom", "skymont", "4-7", 8, 3 } } },
	{ "lakefield_core-i5-l16g7", { { "core", "sunnycove", "4", 4, 3 },
				       { "atom", "tremont", "0-3", 4, 3 } } },
};

/*
 * The hybrid parts lattop measures: Golden/Raptor Cove + Gracemont, Redwood
 * Cove + Crestmont, Lion Cove + Skymont (+ Crestmont LP-E).
 */
static bool hybrid_measured(const char *name)
{
	static const char *const measured[] = {
		"alderlake_core-i9-12900k", "alderlakep_core-i7-12700h", "raptorlake_core-i9-13900kf",
		"raptorlakep_core-i7-1370p", "meteorlake_core-ultra-7-155h",
		"arrowlake_core-ultra-7-265k", "arrowlakeh_core-ultra-9-285h",
		"lunarlake_core-ultra-9-288v",
	};

	for (size_t i = 0; i < sizeof(measured) / sizeof(measured[0]); i++)
		if (!strcmp(measured[i], name))
			return true;
	return false;
}

/* A core type's CPUs as "0-1,10-19". */
static void type_cpus(const struct core_type_desc *t, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPUSET_MAX; c++) {
		int e = c;

		if (!(t->cpus[c / 64] >> (c % 64) & 1))
			continue;
		while (e + 1 < CPUSET_MAX && (t->cpus[(e + 1) / 64] >> ((e + 1) % 64) & 1))
			e++;
		used += (size_t)snprintf(buf + used, len - used, e > c ? "%s%d-%d" : "%s%d",
					 used ? "," : "", c, e);
		c = e;
	}
}

/*
 * The all-CPU forms (README "Ice Lake and later"): libcpuid's multi-CPU
 * raw format and Debian's `cpuid -r`.  Each is read and complete as
 * --cpuid-file requires; its first CPU is the CPU-0 dump's; a part that
 * is not hybrid is detected as that dump is, and a hybrid part's core
 * types come out with the README's CPUs, from either form alike.
 */
static void test_shared_all_dumps(void **state)
{
	DIR *dir;
	struct dirent *de;
	int checked = 0, hybrids = 0;

	(void)state;
	dir = opendir(SHARED_ALL_DIR);
	if (!dir) {
		skip();
		return;
	}
	while ((de = readdir(dir))) {
		char all[512], one[512], r[512], err[256] = "";
		struct cpuid_raw raw, raw1, rawr;
		struct cpuid_info id, id1, idr;
		struct cpu_desc d, d1, dr;
		size_t len = strlen(de->d_name), k;

		if (!has_suffix(de->d_name, ".all.raw"))
			continue;
		snprintf(all, sizeof(all), "%s/%s", SHARED_ALL_DIR, de->d_name);
		snprintf(one, sizeof(one), "%s/%.*s.raw", SHARED_DIR, (int)(len - 8), de->d_name);
		snprintf(r, sizeof(r), "%s/%.*s.cpuid-r.txt", SHARED_ALL_DIR, (int)(len - 8), de->d_name);
		assert_int_equal(load(all, &raw, &id, &d), 0);
		if (cpuid_raw_complete(&raw, all, err, sizeof(err)) < 0)
			fail_msg("%s", err);
		if (load(one, &raw1, &id1, &d1) < 0)
			fail_msg("%s: no CPU-0 dump %s to compare with", de->d_name, one);
		if (load(r, &rawr, &idr, &dr) < 0)
			fail_msg("%s: no cpuid -r form %s to compare with", de->d_name, r);
		assert_memory_equal(&raw, &raw1, sizeof(raw));
		/* The cpuid -r form holds the same leaves, and leaf 0x23 besides. */
		assert_memory_equal(rawr.basic[1], raw.basic[1], sizeof(raw.basic[1]));
		assert_memory_equal(rawr.basic[0xa], raw.basic[0xa], sizeof(raw.basic[0xa]));
		assert_memory_equal(rawr.ext, raw.ext, sizeof(raw.ext));
		assert_int_equal(rawr.has_leaf23, raw.basic[0][0] >= 0x23);
		assert_string_equal(d.uarch->name, d1.uarch->name);
		assert_string_equal(dr.uarch->name, d1.uarch->name);
		assert_int_equal(d.hybrid, id.hybrid);
		assert_int_equal(dr.hybrid, id.hybrid);
		for (k = 0; k < sizeof(hybrid_parts) / sizeof(hybrid_parts[0]); k++)
			if (!strncmp(hybrid_parts[k].name, de->d_name, len - 8) &&
			    strlen(hybrid_parts[k].name) == len - 8)
				break;
		checked++;
		if (!id.hybrid) {
			assert_int_equal(k, sizeof(hybrid_parts) / sizeof(hybrid_parts[0]));
			assert_int_equal(d.ntypes, 0);
			assert_int_equal(d.supported, d1.supported);
			assert_string_equal(d.reason, d1.reason);
			assert_int_equal(dr.supported, d1.supported);
			assert_string_equal(dr.reason, d1.reason);
			continue;
		}
		if (k == sizeof(hybrid_parts) / sizeof(hybrid_parts[0]))
			fail_msg("%s: a hybrid part the test has no core types for", de->d_name);
		hybrids++;
		assert_int_equal(d.ntypes, dr.ntypes);
		for (int t = 0; t < CORE_TYPES_MAX; t++) {
			char cpus[128], cpusr[128];

			if (!hybrid_parts[k].t[t].type) {
				assert_true(t >= d.ntypes);
				continue;
			}
			assert_true(t < d.ntypes);
			type_cpus(&d.type[t], cpus, sizeof(cpus));
			type_cpus(&dr.type[t], cpusr, sizeof(cpusr));
			assert_string_equal(core_type_name(dr.type[t].type), hybrid_parts[k].t[t].type);
			/* The rows' name: the kernel's cpu_lowpower for the Atom of the older native model. */
			assert_string_equal(core_type_row_name(&dr, t),
					    strcmp(hybrid_parts[k].t[t].uarch, "crestmont-lpe") ?
					    hybrid_parts[k].t[t].type : "lowpower");
			assert_string_equal(dr.type[t].uarch->name, hybrid_parts[k].t[t].uarch);
			assert_string_equal(cpusr, hybrid_parts[k].t[t].cpus);
			assert_string_equal(cpus, hybrid_parts[k].t[t].cpus);
			assert_string_equal(d.type[t].uarch->name, hybrid_parts[k].t[t].uarch);
			assert_int_equal(dr.type[t].pmu.gp_counters, hybrid_parts[k].t[t].gp);
			assert_int_equal(pmu_caps_fixed_run(&dr.type[t].pmu), hybrid_parts[k].t[t].fixed);
			assert_int_equal(dr.type[t].supported, d.type[t].supported);
			/* supported exactly where the type's uarch has an event table that fits */
			if (!dr.type[t].uarch->table)
				assert_false(dr.type[t].supported);
			if (!dr.type[t].supported && !strstr(dr.reason, dr.type[t].reason))
				fail_msg("%s: the part's reason \"%s\" leaves out \"%s\"", de->d_name,
					 dr.reason, dr.type[t].reason);
		}
		assert_int_equal(dr.supported, d.supported);
		/* Arrow Lake-S/HX perfmon version 6 (the 0x1900 range), -H 5 (pmu-facts 9.1) */
		if (!strcmp(hybrid_parts[k].name, "arrowlake_core-ultra-7-265k"))
			assert_int_equal(dr.id.pmu.version, 6);
		if (!strcmp(hybrid_parts[k].name, "arrowlakeh_core-ultra-9-285h"))
			assert_int_equal(dr.id.pmu.version, 5);
		/* measured where every core type has a table: to Lunar and Arrow Lake (pmu-facts 9.1) */
		assert_int_equal(dr.supported, hybrid_measured(hybrid_parts[k].name));
	}
	closedir(dir);
	assert_true(checked >= 19);     /* the README's Ice Lake and later */
	assert_true(hybrids >= 9);
}

/*
 * Alder Lake-N, Tremont and Granite Rapids fill leaf 0x1A (core type Atom,
 * Atom, Core) with the hybrid bit, CPUID.7.0:EDX[15], clear (pmu-facts
 * 9.6): one core type, one table, every leaf-0xA counter theirs.  The
 * dumps say so, and lattop takes them as the plain parts they are.
 */
static void test_shared_not_hybrid(void **state)
{
	static const struct {
		const char *file, *table;
		unsigned gp, core_type;
	} atoms[] = {
		{ "alderlaken_core-i3-n305", "gracemont", 6, 0x20 },
		{ "elkhartlake_celeron-j6412", "tremont", 4, 0x20 },
		{ "graniterapids_xeon-658x", "sapphirerapids", 8, 0x40 },
	};
	int checked = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(atoms) / sizeof(atoms[0]); i++) {
		char path[512];
		struct cpuid_raw raw;
		struct cpuid_info id;
		struct cpu_desc d;

		snprintf(path, sizeof(path), "%s/%s.raw", SHARED_DIR, atoms[i].file);
		if (access(path, R_OK))
			continue;
		assert_int_equal(load(path, &raw, &id, &d), 0);
		assert_true(raw.basic_present & (1u << 0x1a));
		assert_int_equal(raw.basic[0x1a][0] >> 24, atoms[i].core_type);
		assert_int_equal(raw.basic[7][3] & (1u << 15), 0);      /* not hybrid */
		assert_true(d.supported);
		assert_string_equal(d.uarch->table->name, atoms[i].table);
		assert_int_equal(id.pmu.version, 5);
		assert_int_equal(id.pmu.gp_counters, atoms[i].gp);
		assert_int_equal(d.uarch->gp_needed, atoms[i].gp);
		checked++;
	}
	if (!checked)
		skip();
}

/* ------------------------------------------------------ tests/dumps/ */

static const struct local_expect {
	const char *file;
	int rc;                     /* -1: the file must be refused */
	const char *uarch;
	const char *table;          /* the uarch's table, NULL for none */
	bool supported;
	unsigned family, model, version, gp, width, fixed;
	uint32_t unavailable;
	bool hypervisor;
	const char *brand;
	const char *reason_has;     /* when unsupported */
} local_expect[] = {
	{ "nehalem_core-i5-750.raw", 0, "nehalem", "nehalem", true, 6, 0x1E, 3, 4, 48, 3, 0x44, false,
	  "Intel(R) Core(TM) i5 CPU         750  @ 2.67GHz", NULL },
	{ "westmere_core-i5-650.raw", 0, "westmere", "nehalem", true, 6, 0x25, 3, 4, 48, 3, 0x04, false,
	  "Intel(R) Core(TM) i5 CPU         650  @ 3.20GHz", NULL },
	{ "silvermont_atom-z3740.raw", 0, "silvermont", "silvermont", true, 6, 0x37, 3, 2, 40, 3, 0, false,
	  "Intel(R) Atom(TM) CPU  Z3740  @ 1.33GHz", NULL },
	{ "airmont_genuine-intel-4000.raw", 0, "airmont", "silvermont", true, 6, 0x5A, 3, 2, 40, 3, 0, false,
	  "Genuine Intel(R) CPU   4000  @ 1.00GHz", NULL },
	{ "airmont-np_spreadtrum-sc9853i.raw", 0, "airmont-np", NULL, false, 6, 0x75, 3, 2, 40, 3, 0, false,
	  "Spreadtrum SC9853I-IA", "perfmon" },
	{ "goldmont_atom-c3958.raw", 0, "goldmont", "goldmont", true, 6, 0x5F, 4, 4, 48, 3, 0, false,
	  "Intel(R) Atom(TM) CPU C3958 @ 2.00GHz", NULL },
	{ "haswell_core-i7-4500u.raw", 0, "haswell", "haswell", true, 6, 0x45, 3, 4, 48, 3, 0, false,
	  "Intel(R) Core(TM) i7-4500U CPU @ 1.80GHz", NULL },
	{ "haswell_core-i7-4750hq.raw", 0, "haswell", "haswell", true, 6, 0x46, 3, 4, 48, 3, 0, false,
	  "Intel(R) Core(TM) i7-4750HQ CPU @ 2.00GHz", NULL },
	{ "broadwell_core-i7-5500u.raw", 0, "broadwell", "haswell", true, 6, 0x3D, 3, 4, 48, 3, 0, false,
	  "Intel(R) Core(TM) i7-5500U CPU @ 2.40GHz", NULL },
	{ "broadwell_core-i7-6800k.raw", 0, "broadwell", "haswell", true, 6, 0x4F, 3, 4, 48, 3, 0, false,
	  "Intel(R) Core(TM) i7-6800K CPU @ 3.40GHz", NULL },
	{ "constructed_haswell-hypervisor-v0.raw", 0, "haswell", "haswell", false, 6, 0x45, 0, 0, 0, 0, 0, true,
	  "Intel(R) Core(TM) i7-4500U CPU @ 1.80GHz", "a hypervisor hides it" },
	{ "constructed_haswell-2gp.raw", 0, "haswell", "haswell", false, 6, 0x45, 3, 2, 48, 3, 0, false,
	  "Intel(R) Core(TM) i7-4500U CPU @ 1.80GHz",
	  "reports 2 general-purpose counters per logical CPU; the haswell table needs 4" },
	{ "constructed_goldmont-v3.raw", 0, "goldmont", "goldmont", false, 6, 0x5F, 3, 4, 48, 3, 0, false,
	  "Intel(R) Atom(TM) CPU C3958 @ 2.00GHz", "version 3; the goldmont table needs version 4" },
	{ "constructed_nehalem-maxleaf5.raw", 0, "nehalem", "nehalem", false, 6, 0x1E, 0, 0, 0, 0, 0, false,
	  "Intel(R) Core(TM) i5 CPU         750  @ 2.67GHz", "leaf 0xA is absent" },
	{ "constructed_skylake-v3.raw", 0, "skylake", "skylake", false, 6, 0x4E, 3, 4, 48, 3, 0, false,
	  "Intel(R) Core(TM) i7-6500U CPU @ 2.50GHz", "version 3; the skylake table needs version 4" },
	{ "bad_empty.raw", -1, NULL, NULL, false, 0, 0, 0, 0, 0, 0, 0, false, NULL, NULL },
	{ "bad_garbage.raw", -1, NULL, NULL, false, 0, 0, 0, 0, 0, 0, 0, false, NULL, NULL },
};

static const struct local_expect *local_find(const char *file)
{
	size_t i;

	for (i = 0; i < sizeof(local_expect) / sizeof(local_expect[0]); i++)
		if (!strcmp(local_expect[i].file, file))
			return &local_expect[i];
	return NULL;
}

/*
 * A dump with no entry above: a family's own dump, named UARCH_CPU.raw.
 * It must be a real CPU of a supported uarch, detected as UARCH and
 * measurable.  The made-up and broken ones (constructed_, bad_) need an
 * entry, since what they test is their own.
 */
static void check_family_dump(const char *path, const char *file)
{
	struct cpuid_raw raw;
	struct cpuid_info id;
	struct cpu_desc d;
	char uarch[64];
	size_t n = strcspn(file, "_");

	if (!strncmp(file, "constructed_", 12) || !strncmp(file, "bad_", 4) || file[n] != '_' ||
	    n >= sizeof(uarch))
		fail_msg("%s: a dump with no expectation in test_detect.c", path);
	memcpy(uarch, file, n);
	uarch[n] = '\0';
	if (!uarch_by_name(uarch))
		fail_msg("%s: named for %s, which lattop does not support", path, uarch);
	assert_int_equal(load(path, &raw, &id, &d), 0);
	assert_string_equal(id.vendor, "GenuineIntel");
	assert_true(id.brand[0] != '\0');
	if (!d.supported || strcmp(d.uarch->name, uarch))
		fail_msg("%s: detected as %s (%s), supported=%d", path, d.uarch->name, d.reason,
			 d.supported);
	assert_string_equal(d.reason, "");
}

static void test_local_dumps(void **state)
{
	DIR *dir = opendir(LOCAL_DIR);
	struct dirent *de;
	size_t checked = 0;

	(void)state;
	assert_non_null(dir);       /* part of the repository: run from its root */
	while ((de = readdir(dir))) {
		const struct local_expect *e;
		char path[512], err[256] = "";
		struct cpuid_raw raw;
		struct cpuid_info id;
		struct cpu_desc d;

		if (!has_suffix(de->d_name, ".raw"))
			continue;
		e = local_find(de->d_name);
		snprintf(path, sizeof(path), "%s/%s", LOCAL_DIR, de->d_name);
		if (!e) {
			check_family_dump(path, de->d_name);
			continue;
		}
		checked++;
		if (e->rc < 0) {
			assert_int_equal(cpuid_raw_file(path, &raw, err, sizeof(err)), -1);
			assert_non_null(strstr(err, de->d_name));
			assert_null(strchr(err, '\n'));
			continue;
		}
		assert_int_equal(load(path, &raw, &id, &d), 0);
		assert_string_equal(id.vendor, "GenuineIntel");
		assert_int_equal(id.family, e->family);
		assert_int_equal(id.model, e->model);
		assert_int_equal(id.pmu.version, e->version);
		assert_int_equal(id.pmu.gp_counters, e->gp);
		assert_int_equal(id.pmu.gp_width, e->width);
		assert_int_equal(id.pmu.fixed_counters, e->fixed);
		assert_int_equal(id.pmu.unavailable, e->unavailable);
		assert_int_equal(id.hypervisor, e->hypervisor);
		assert_string_equal(id.brand, e->brand);
		assert_string_equal(d.uarch->name, e->uarch);
		if (e->table)
			assert_string_equal(d.uarch->table->name, e->table);
		else
			assert_null(d.uarch->table);
		assert_int_equal(d.supported, e->supported);
		if (e->supported) {
			assert_string_equal(d.reason, "");
		} else {
			assert_reason_ok(d.reason);
			if (!strstr(d.reason, e->reason_has))
				fail_msg("%s: reason \"%s\" lacks \"%s\"", e->file, d.reason, e->reason_has);
		}
	}
	closedir(dir);
	/* every expectation has its file */
	assert_int_equal(checked, sizeof(local_expect) / sizeof(local_expect[0]));
}

/* A dump of several logical CPUs: the first one is used. */
static void test_multi_cpu_dump(void **state)
{
	struct cpuid_raw raw;
	char err[256];

	(void)state;
	assert_int_equal(cpuid_raw_file(LOCAL_DIR "/nehalem_core-i5-750.raw", &raw, err, sizeof(err)), 0);
	assert_int_equal(raw.basic[1][1], 0x00100800);   /* CPU #0; CPU #1 has 0x02100800 */
	assert_int_equal(raw.basic[0xa][0], 0x07300403);
	assert_int_equal(raw.basic[5][0], 0);            /* leaves missing from the dump read as zero */
}

/* ------------------------------------------------------------ bad files */

static char tmpdir[64];

static int bad_setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_detect.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int bad_teardown(void **state)
{
	DIR *dir = opendir(tmpdir);
	struct dirent *de;
	char path[512];

	(void)state;
	if (dir) {
		while ((de = readdir(dir))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", tmpdir, de->d_name);
			if (unlink(path) < 0)
				rmdir(path);
		}
		closedir(dir);
	}
	rmdir(tmpdir);
	return 0;
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

#define GOOD_L0 "basic_cpuid[0]=0000000d 756e6547 6c65746e 49656e69\n"
#define GOOD_L1 "basic_cpuid[1]=000306c3 00100800 7ffafbff bfebfbff\n"
#define GOOD_LA "basic_cpuid[10]=07300403 00000000 00000000 00000603\n"

static void expect_refused(const char *name, const void *data, size_t len, const char *why)
{
	char path[256], err[256] = "";
	struct cpuid_raw raw;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	write_file(path, data, len);
	if (cpuid_raw_file(path, &raw, err, sizeof(err)) != -1)
		fail_msg("%s was accepted", name);
	if (!strstr(err, name) || strchr(err, '\n') || (why && !strstr(err, why)))
		fail_msg("%s: message \"%s\" (wanted the file name and \"%s\")", name, err, why ? why : "");
}

#define refuse_str(name, text, why) expect_refused(name, text, strlen(text), why)

static void expect_accepted(const char *name, const char *text, struct cpuid_raw *raw)
{
	char path[256], err[256] = "";

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	write_file(path, text, strlen(text));
	if (cpuid_raw_file(path, raw, err, sizeof(err)) != 0)
		fail_msg("%s refused: %s", name, err);
}

static void test_bad_files(void **state)
{
	static const char binary[] = "version=0.6.2\n" GOOD_L0 "\0\x01\x02garbage\xff\xfe\n";
	char longline[300], dirpath[256], err[256] = "";
	struct cpuid_raw raw;
	unsigned char rnd[512];
	unsigned i, x = 12345;

	(void)state;
	/* missing, empty name, NULL, a directory */
	assert_int_equal(cpuid_raw_file("tests/dumps/does-not-exist.raw", &raw, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "does-not-exist.raw"));
	assert_int_equal(cpuid_raw_file("", &raw, err, sizeof(err)), -1);   /* libcpuid: stdin */
	assert_int_equal(cpuid_raw_file(NULL, &raw, err, sizeof(err)), -1);
	snprintf(dirpath, sizeof(dirpath), "%s/adir", tmpdir);
	assert_int_equal(mkdir(dirpath, 0700), 0);
	assert_int_equal(cpuid_raw_file(dirpath, &raw, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "adir"));

	refuse_str("empty.raw", "", "no basic_cpuid[0]");
	refuse_str("blank.raw", "\n\n\n", "no basic_cpuid[0]");
	refuse_str("version-only.raw", "version=0.6.2\n", "no basic_cpuid[0]");
	refuse_str("text.raw", "hello world\nfoo=bar\n", "line 1");
	expect_refused("binary.raw", binary, sizeof(binary) - 1, "binary");
	for (i = 0; i < sizeof(rnd); i++) {
		x = x * 1103515245u + 12345u;
		rnd[i] = (unsigned char)(x >> 16);
	}
	expect_refused("random.raw", rnd, sizeof(rnd), NULL);
	/* libcpuid 0.6.2 would write through NULL on this one */
	refuse_str("ext-first.raw", "version=0.6.2\next_cpuid[0]=80000008 0 0 0\n" GOOD_L0, "before");
	/* ... index past its array on these */
	refuse_str("cpu-65535.raw", "_________________ Logical CPU #65535 _________________\n" GOOD_L0,
		   "count up");
	refuse_str("cpu-1-first.raw", "_________________ Logical CPU #1 _________________\n" GOOD_L0,
		   "count up");
	refuse_str("index.raw", GOOD_L0 "basic_cpuid[40]=00000001 00000000 00000000 00000000\n",
		   "out of range");
	refuse_str("negative.raw", GOOD_L0 "basic_cpuid[-1]=00000001 00000000 00000000 00000000\n",
		   "malformed");
	refuse_str("short-regs.raw", GOOD_L0 "basic_cpuid[1]=1\n", "malformed");
	refuse_str("wide-reg.raw", GOOD_L0 "basic_cpuid[1]=100000000 0 0 0\n", "malformed");
	/* ... overflow its version buffer on this one */
	refuse_str("long-version.raw", "version=0123456789abcdef0123456789\n" GOOD_L0, "version");
	memset(longline, 'a', sizeof(longline));
	memcpy(longline, GOOD_L0, strlen(GOOD_L0));
	longline[sizeof(longline) - 1] = '\n';
	expect_refused("long-line.raw", longline, sizeof(longline), "too long");
	refuse_str("late-version.raw", GOOD_L0 "version=0.6.2\n", "version");
	refuse_str("aida64.raw", "------[ Versions ]------\nCPUID 00000000: 0000000B-756E6547-6C65746E-49656E69\n",
		   "line 1");
	refuse_str("comment.raw", "# a comment\n" GOOD_L0, "line 1");
	refuse_str("zero-leaf0.raw", "basic_cpuid[0]=0 0 0 0\n" GOOD_L1, "leaf 0 is all zero");
}

/* What libcpuid writes or reads back, in forms it tolerates, must be accepted. */
static void test_good_variants(void **state)
{
	struct cpuid_raw raw;
	struct cpuid_info id;

	(void)state;
	expect_accepted("crlf.raw", "version=0.6.2\r\nbasic_cpuid[0]=0000000d 756e6547 6c65746e 49656e69\r\n"
			"basic_cpuid[1]=000306c3 00100800 7ffafbff bfebfbff\r\n", &raw);
	cpuid_decode(&raw, &id);
	assert_string_equal(id.vendor, "GenuineIntel");
	assert_int_equal(id.model, 0x3C);

	/* a libcpuid .test file: the dump, then the 80-dash line and results */
	expect_accepted("with-results.raw", GOOD_L0 GOOD_L1 GOOD_LA
			"--------------------------------------------------------------------------------\n"
			"x86\nnot a dump line\n", &raw);
	assert_int_equal(raw.basic[0xa][0], 0x07300403);

	/* no version line, upper-case hex, blank lines */
	expect_accepted("upper.raw", "\nbasic_cpuid[0]=0000000D 756E6547 6C65746E 49656E69\n\n", &raw);
	assert_int_equal(raw.basic[0][0], 0xd);
}

/*
 * A dump without a leaf its leaf 0 says exists (leaf 0xA above all) is not
 * complete: refused, naming the leaf, rather than read as a hidden PMU.
 */
static void test_missing_leaf_refused(void **state)
{
	struct cpuid_raw raw;
	char err[256] = "";

	(void)state;
	expect_accepted("no-leaf-a.raw", GOOD_L0 GOOD_L1, &raw);
	assert_int_equal(cpuid_raw_complete(&raw, "no-leaf-a.raw", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no-leaf-a.raw: leaf 0 says leaves up to 0xd exist, but there is no "
			       "basic_cpuid[10] line (leaf 0xa"));
	expect_accepted("no-leaf-1.raw", GOOD_L0 GOOD_LA, &raw);
	assert_int_equal(cpuid_raw_complete(&raw, "no-leaf-1.raw", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "basic_cpuid[1] line"));
	expect_accepted("complete.raw", GOOD_L0 GOOD_L1 GOOD_LA, &raw);
	assert_int_equal(cpuid_raw_complete(&raw, "complete.raw", err, sizeof(err)), 0);
	/* Leaf 0 says 0x5: leaf 0xA need not be there. */
	expect_accepted("max5.raw", "basic_cpuid[0]=00000005 756e6547 6c65746e 49656e69\n" GOOD_L1, &raw);
	assert_int_equal(cpuid_raw_complete(&raw, "max5.raw", err, sizeof(err)), 0);
}

/* ------------------------------------------------------ decode arithmetic */

static void set_vendor(struct cpuid_raw *raw, const char *v, uint32_t max_leaf)
{
	uint32_t w[3];

	memcpy(w, v, 12);
	raw->basic[0][0] = max_leaf;
	raw->basic[0][1] = w[0];
	raw->basic[0][3] = w[1];
	raw->basic[0][2] = w[2];
}

static void set_brand(struct cpuid_raw *raw, const char *s48)
{
	char b[48];
	int i;

	memset(b, 0, sizeof(b));
	memcpy(b, s48, strlen(s48) < 48 ? strlen(s48) : 48);
	raw->ext[0][0] = 0x80000008;
	for (i = 0; i < 12; i++)
		memcpy(&raw->ext[2 + i / 4][i % 4], b + 4 * i, 4);
}

static void test_decode_signature(void **state)
{
	static const struct {
		uint32_t eax;
		unsigned family, model, stepping;
	} sig[] = {
		{ 0x000306C3, 0x6, 0x3C, 3 },    /* i7-4770: ext model 3 */
		{ 0x000106A4, 0x6, 0x1A, 4 },    /* i7-920 */
		{ 0x000006FB, 0x6, 0x0F, 0xB },  /* Q6600: no ext model */
		{ 0x00000F43, 0xF, 0x04, 3 },    /* Pentium 4 640 */
		{ 0x00020F41, 0xF, 0x24, 1 },    /* family 0xF takes the ext model too */
		{ 0x00800F11, 0x17, 0x01, 1 },   /* Ryzen 7 1800X: ext family 8 */
		{ 0x00A20F10, 0x19, 0x21, 0 },   /* family 0xF + 0xA, ext model 2 */
		{ 0x0FF00F00, 0x10E, 0x00, 0 },  /* largest ext family */
		{ 0x000F0543, 0x5, 0x04, 3 },    /* family 5: ext model ignored */
		{ 0x0FF30700, 0x7, 0x00, 0 },    /* family 7: ext family and model ignored */
	};
	struct cpuid_raw raw;
	struct cpuid_info id;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(sig) / sizeof(sig[0]); i++) {
		memset(&raw, 0, sizeof(raw));
		set_vendor(&raw, "GenuineIntel", 1);
		raw.basic[1][0] = sig[i].eax;
		cpuid_decode(&raw, &id);
		assert_int_equal(id.family, sig[i].family);
		assert_int_equal(id.model, sig[i].model);
		assert_int_equal(id.stepping, sig[i].stepping);
		assert_int_equal(id.max_leaf, 1);
	}

	/* leaf 1 is ignored when max leaf is 0 */
	memset(&raw, 0, sizeof(raw));
	set_vendor(&raw, "GenuineIntel", 0);
	raw.basic[1][0] = 0x000306C3;
	raw.basic[1][2] = 0x80008000;
	cpuid_decode(&raw, &id);
	assert_int_equal(id.family, 0);
	assert_int_equal(id.model, 0);
	assert_false(id.hypervisor);
	assert_false(id.pdcm);

	/* hypervisor 1:ECX[31], pdcm 1:ECX[15], each alone */
	set_vendor(&raw, "GenuineIntel", 1);
	raw.basic[1][2] = 0x80000000;
	cpuid_decode(&raw, &id);
	assert_true(id.hypervisor);
	assert_false(id.pdcm);
	raw.basic[1][2] = 0x00008000;
	cpuid_decode(&raw, &id);
	assert_false(id.hypervisor);
	assert_true(id.pdcm);
	raw.basic[1][2] = 0x7fff7fff;
	cpuid_decode(&raw, &id);
	assert_false(id.hypervisor);
	assert_false(id.pdcm);

	/* vendor: EBX EDX ECX order */
	set_vendor(&raw, "AuthenticAMD", 0xd);
	cpuid_decode(&raw, &id);
	assert_string_equal(id.vendor, "AuthenticAMD");
	assert_int_equal(id.max_leaf, 0xd);
	memset(&raw, 0, sizeof(raw));
	cpuid_decode(&raw, &id);
	assert_string_equal(id.vendor, "");
}

static void test_decode_brand(void **state)
{
	struct cpuid_raw raw;
	struct cpuid_info id;

	(void)state;
	memset(&raw, 0, sizeof(raw));
	set_vendor(&raw, "GenuineIntel", 1);

	set_brand(&raw, "       Intel(R) Core(TM) i7 CPU  920  @ 2.67GHz");
	cpuid_decode(&raw, &id);
	assert_string_equal(id.brand, "Intel(R) Core(TM) i7 CPU  920  @ 2.67GHz");

	set_brand(&raw, "Intel(R) Xeon(R) CPU E5-2660 v3 @ 2.60GHz       ");
	cpuid_decode(&raw, &id);
	assert_string_equal(id.brand, "Intel(R) Xeon(R) CPU E5-2660 v3 @ 2.60GHz");

	/* exactly 48 characters, no NUL */
	set_brand(&raw, "0123456789012345678901234567890123456789ABCDEFGH");
	cpuid_decode(&raw, &id);
	assert_string_equal(id.brand, "0123456789012345678901234567890123456789ABCDEFGH");

	/* a NUL in the middle ends it (the SC9853I has one) */
	set_brand(&raw, "  Spreadtrum  ");
	memcpy((char *)&raw.ext[3][0] + 2, "after", 5);
	cpuid_decode(&raw, &id);
	assert_string_equal(id.brand, "Spreadtrum");

	set_brand(&raw, "                                                ");
	cpuid_decode(&raw, &id);
	assert_string_equal(id.brand, "");

	/* control characters are not passed on */
	set_brand(&raw, "Bad\tbrand\x1b");
	cpuid_decode(&raw, &id);
	assert_string_equal(id.brand, "Bad?brand?");

	/* leaves 0x80000002..4 exist only when 0x80000000 says so */
	set_brand(&raw, "Intel(R) Pentium(R) 4");
	raw.ext[0][0] = 0x80000003;
	cpuid_decode(&raw, &id);
	assert_string_equal(id.brand, "");
	raw.ext[0][0] = 0x80000004;
	cpuid_decode(&raw, &id);
	assert_string_equal(id.brand, "Intel(R) Pentium(R) 4");
	raw.ext[0][0] = 0x00000004;     /* not an extended max leaf */
	cpuid_decode(&raw, &id);
	assert_string_equal(id.brand, "");
	raw.ext[0][0] = 0x90000004;
	cpuid_decode(&raw, &id);
	assert_string_equal(id.brand, "");
}

static void test_decode_leaf_a(void **state)
{
	struct cpuid_raw raw;
	struct cpuid_info id;

	(void)state;
	memset(&raw, 0, sizeof(raw));
	set_vendor(&raw, "GenuineIntel", 0xb);
	raw.basic[0xa][0] = 0x07300403;
	raw.basic[0xa][1] = 0xffffff44;     /* bits past EAX[31:24] = 7 are not events */
	raw.basic[0xa][3] = 0x00008603;
	cpuid_decode(&raw, &id);
	assert_int_equal(id.pmu.version, 3);
	assert_int_equal(id.pmu.gp_counters, 4);
	assert_int_equal(id.pmu.gp_width, 48);
	assert_int_equal(id.pmu.ebx_len, 7);
	assert_int_equal(id.pmu.unavailable, 0x44);
	assert_int_equal(id.pmu.fixed_counters, 3);   /* EDX[4:0] */
	assert_int_equal(id.pmu.fixed_width, 48);     /* EDX[12:5]; EDX[15] is not part of it */

	raw.basic[0xa][0] = 0x00280203;     /* ebx_len 0: no event flagged */
	raw.basic[0xa][3] = 0x00004503;     /* Silvermont: EDX bit 14 set, width 40 */
	cpuid_decode(&raw, &id);
	assert_int_equal(id.pmu.ebx_len, 0);
	assert_int_equal(id.pmu.unavailable, 0);
	assert_int_equal(id.pmu.fixed_width, 40);
	assert_int_equal(id.pmu.fixed_counters, 3);

	raw.basic[0xa][0] = 0x20300404;     /* ebx_len 32: all of EBX */
	cpuid_decode(&raw, &id);
	assert_int_equal(id.pmu.unavailable, 0xffffff44);
	raw.basic[0xa][0] = 0xff300404;     /* more than 32 */
	cpuid_decode(&raw, &id);
	assert_int_equal(id.pmu.unavailable, 0xffffff44);
	raw.basic[0xa][0] = 0x1f300404;     /* 31 */
	cpuid_decode(&raw, &id);
	assert_int_equal(id.pmu.unavailable, 0x7fffff44);

	/* version 1: the EDX fields are not defined */
	raw.basic[0xa][0] = 0x07280201;
	raw.basic[0xa][3] = 0x00000503;
	cpuid_decode(&raw, &id);
	assert_int_equal(id.pmu.version, 1);
	assert_int_equal(id.pmu.gp_counters, 2);
	assert_int_equal(id.pmu.fixed_counters, 0);
	assert_int_equal(id.pmu.fixed_width, 0);

	/* leaf 0xA beyond max leaf, or another vendor: zero */
	raw.basic[0xa][0] = 0x07300403;
	raw.basic[0][0] = 9;
	cpuid_decode(&raw, &id);
	assert_int_equal(id.pmu.version, 0);
	assert_int_equal(id.pmu.gp_counters, 0);
	set_vendor(&raw, "AuthenticAMD", 0xd);
	cpuid_decode(&raw, &id);
	assert_int_equal(id.pmu.version, 0);
	assert_int_equal(id.pmu.fixed_counters, 0);
}

/* ------------------------------------------------------------- uarch rows */

/* An Intel family 6 CPU whose leaf 0xA reports what @u needs. */
static void fake_id(struct cpuid_info *id, unsigned family, unsigned model, const struct uarch *u)
{
	memset(id, 0, sizeof(*id));
	strcpy(id->vendor, "GenuineIntel");
	id->family = family;
	id->model = model;
	id->max_leaf = 0xd;
	id->pmu.version = u ? u->min_version : 3;
	id->pmu.gp_counters = u ? u->gp_needed : 4;
	id->pmu.gp_width = u ? u->gp_width : 48;
	id->pmu.fixed_counters = 3;
	id->pmu.fixed_mask = 0x7;
	id->pmu.fixed_width = id->pmu.gp_width;
	id->pmu.ebx_len = 7;
}

/*
 * The kernel's Sandy Bridge PEBS rule (pmu-facts 8.11): a listed stepping
 * needs its microcode revision; a stepping the table does not list has
 * PEBS off whatever the microcode; a model with no row (Ivy Bridge) has
 * no rule.  The naive reading, "no row for this stepping, no minimum",
 * measures load latency on the unlisted steppings.
 */
static void test_snb_pebs_steppings(void **state)
{
	static const struct {
		unsigned model, stepping, min;
		bool never;
	} cases[] = {
		{ 0x2A, 7, 0x28, false }, { 0x2A, 5, 0, true }, { 0x2A, 6, 0, true },
		{ 0x2D, 6, 0x618, false }, { 0x2D, 7, 0x70c, false }, { 0x2D, 2, 0, true },
		{ 0x3A, 9, 0, false }, { 0x3E, 4, 0, false },
	};
	struct cpuid_info id;
	struct cpu_desc d;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fake_id(&id, 6, cases[i].model, uarch_by_name(cases[i].model < 0x30 ? "sandybridge"
										     : "ivybridge"));
		id.stepping = cases[i].stepping;
		uarch_detect(&id, &d);
		assert_true(d.supported);
		assert_int_equal(d.ldlat_min_ucode, cases[i].min);
		assert_int_equal(d.ldlat_why[0] != 0, cases[i].never);
		if (cases[i].never) {
			char want[32];

			snprintf(want, sizeof(want), "%02X_%02X stepping %u", 6, cases[i].model,
				 cases[i].stepping);
			assert_non_null(strstr(d.ldlat_why, want));
			assert_non_null(strstr(d.ldlat_why, "pebs_ucodes"));
		}
	}
}

/* The first row of the model table for @vendor, @family, @model, or NULL. */
static const struct uarch_model *model_row(const char *vendor, unsigned family, unsigned model)
{
	for (const struct uarch_model *m = uarch_models; m->vendor; m++)
		if (!strcmp(m->vendor, vendor) && (m->family == UARCH_ANY || m->family == family) &&
		    (m->model == UARCH_ANY || m->model == model))
			return m;
	return NULL;
}

/*
 * The model table, read row by row (the real dumps in test_shared_dumps and
 * test_local_dumps are the independent check of what it says): no row is
 * shadowed by an earlier one, every supported uarch has a model, and every
 * family 6 model is detected as its row says: supported exactly when the
 * row's uarch has an event table, "unknown" without a row.
 */
static void test_model_table(void **state)
{
	char supports[512];
	struct cpuid_info id;
	struct cpu_desc d;
	unsigned m;

	(void)state;
	uarch_supports(supports, sizeof(supports));
	for (const struct uarch_model *r = uarch_models; r->vendor; r++) {
		assert_non_null(r->uarch);
		assert_non_null(r->source);
		assert_true(r->source[0] != '\0');
		if (r->family != UARCH_ANY && r->model != UARCH_ANY &&
		    model_row(r->vendor, r->family, r->model) != r)
			fail_msg("model table: %s %02X_%02X (%s) is shadowed by an earlier row",
				 r->vendor, r->family, r->model, r->uarch->name);
		if (r->flags)
			assert_non_null(r->uarch->table);   /* model flags only where rows read them */
		/* a uarch with an event table is one of uarch_supported[] */
		if (r->uarch->table && uarch_by_name(r->uarch->name) != r->uarch)
			fail_msg("model table: %s has an event table but is not in uarch_supported[]",
				 r->uarch->name);
	}
	for (const struct uarch *const *u = uarch_supported; *u; u++) {
		int n = 0;

		for (const struct uarch_model *r = uarch_models; r->vendor; r++)
			n += r->uarch == *u && !strcmp(r->vendor, "GenuineIntel") && r->family == 6 &&
			     r->model != UARCH_ANY;
		if (n == 0)
			fail_msg("%s: no model in the model table", (*u)->name);
	}
	for (m = 0; m < 256; m++) {
		const struct uarch_model *r = model_row("GenuineIntel", 6, m);
		const struct uarch *want = r && r->uarch->table ? r->uarch : NULL;

		fake_id(&id, 6, m, want);
		uarch_detect(&id, &d);
		assert_non_null(d.uarch);
		if (want) {
			if (!d.supported || d.uarch != want)
				fail_msg("06_%02X: %s supported=%d (%s), wanted %s", m, d.uarch->name,
					 d.supported, d.reason, want->name);
			assert_string_equal(d.reason, "");
			assert_int_equal(d.flags, want->flags | r->flags);
		} else {
			if (d.supported || d.uarch->table)
				fail_msg("06_%02X: %s is supported", m, d.uarch->name);
			assert_string_equal(d.uarch->name, r ? r->uarch->name : "unknown");
			assert_reason_ok(d.reason);
			assert_non_null(d.uarch->why_not);
			assert_non_null(strstr(d.reason, d.uarch->why_not));
			assert_non_null(strstr(d.reason, supports));
		}
	}
	/* the wildcard rows: every model of NetBurst's family */
	fake_id(&id, 0xF, 0x04, NULL);
	uarch_detect(&id, &d);
	assert_false(d.supported);
	assert_string_equal(d.uarch->name, "netburst");
	assert_reason_ok(d.reason);
	fake_id(&id, 5, 0x09, NULL);
	uarch_detect(&id, &d);
	assert_string_equal(d.uarch->name, "unknown");
	assert_reason_ok(d.reason);
}

/*
 * "lattop supports Intel A, B and C": every supported uarch's pretty name,
 * in uarch_supported[] order, the last after " and ".
 */
static void test_supports(void **state)
{
	char s[512], tail[64];
	const char *p;
	size_t n = 0;

	(void)state;
	uarch_supports(s, sizeof(s));
	assert_true(strncmp(s, "lattop supports Intel ", 22) == 0);
	p = s;
	for (const struct uarch *const *u = uarch_supported; *u; u++, n++) {
		const char *q = strstr(p, (*u)->pretty);

		if (!q)
			fail_msg("\"%s\" does not name %s after the names before it", s, (*u)->pretty);
		p = q + strlen((*u)->pretty);
	}
	assert_true(n >= 2);
	snprintf(tail, sizeof(tail), " and %s", uarch_supported[n - 1]->pretty);
	assert_string_equal(s + strlen(s) - strlen(tail), tail);
	assert_null(strstr(s, ", and "));
	/* truncated, never overrun */
	memset(s, 'x', sizeof(s));
	uarch_supports(s, 10);
	assert_int_equal(strlen(s), 9);
	assert_int_equal(s[10], 'x');
}
static void test_unknown_and_amd(void **state)
{
	struct cpuid_info id;
	struct cpu_desc d;
	unsigned model;
	char want[32];
	static const struct {
		const char *vendor;
		unsigned family, model;
		const char *name;
	} rows[] = {
		{ "AuthenticAMD", 0x17, 0x01, "zen" },
		{ "AuthenticAMD", 0x17, 0x71, "zen" },
		{ "AuthenticAMD", 0x19, 0x21, "zen" },
		{ "AuthenticAMD", 0x15, 0x02, "amd" },
		{ "AuthenticAMD", 0x6, 0x3C, "amd" },   /* an AMD with a Haswell number is not a Haswell */
		{ "HygonGenuine", 0x18, 0x00, "unknown" },
		{ "CentaurHauls", 0x6, 0x0F, "unknown" },
		{ "", 0, 0, "unknown" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		fake_id(&id, rows[i].family, rows[i].model, uarch_by_name("haswell"));
		snprintf(id.vendor, sizeof(id.vendor), "%s", rows[i].vendor);
		uarch_detect(&id, &d);
		assert_false(d.supported);
		assert_string_equal(d.uarch->name, rows[i].name);
		assert_reason_ok(d.reason);
		assert_non_null(strstr(d.reason, "lattop supports Intel"));
	}

	/*
	 * unknown names vendor, family and model: a family 6 model the table
	 * has no row for (06_8F was one until Sapphire Rapids was named)
	 */
	for (model = 0xff; model > 0 && model_row("GenuineIntel", 6, model); model--)
		;
	assert_int_not_equal(model, 0);
	fake_id(&id, 6, model, NULL);
	uarch_detect(&id, &d);
	assert_string_equal(d.uarch->name, "unknown");
	assert_non_null(strstr(d.reason, "GenuineIntel"));
	assert_non_null(strstr(d.reason, "family 0x6"));
	snprintf(want, sizeof(want), "model 0x%X)", model);
	assert_non_null(strstr(d.reason, want));

	/* detect copies the id */
	assert_int_equal(d.id.model, model);
	assert_string_equal(d.id.vendor, "GenuineIntel");
}

/*
 * Every supported uarch is well formed and found by its name; then some
 * facts per microarchitecture, each with its source (pmu-facts 1.2, 2,
 * 4.5, 6, 7): the ones the rest of lattop leans on.
 */
static void test_uarch_fields(void **state)
{
	const struct uarch *u;
	size_t n = 0;

	(void)state;
	for (const struct uarch *const *up = uarch_supported; *up; up++, n++) {
		u = *up;
		assert_ptr_equal(uarch_by_name(u->name), u);
		for (const char *c = u->name; *c; c++)
			assert_true((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-');
		assert_true(u->pretty && u->pretty[0]);
		assert_non_null(u->table);
		assert_null(u->why_not);
		assert_true(u->min_version >= 2);
		assert_true(u->gp_needed >= 2 && u->gp_needed <= 8);
		assert_true(u->gp_width == 40 || u->gp_width == 48);
		assert_true(u->offcore_msrs >= 1 && u->offcore_msrs <= 2);
		assert_int_equal(uarch_fixed_needed(u), 3);     /* IA32_FIXED_CTR0-2 */
		for (const struct uarch *const *v = uarch_supported; v < up; v++)
			assert_string_not_equal((*v)->name, u->name);
	}
	assert_true(n > 0);

	/* Nehalem: one MSR_OFFCORE_RSP, shared by the hyperthreads; the counter-reset workaround */
	u = uarch_by_name("nehalem");
	assert_int_equal(u->offcore_msrs, 1);
	assert_int_equal(u->offcore_scope, OFFCORE_CORE);
	assert_int_equal(u->flags, UARCH_F_NHM_CTR_RESET);
	/* Westmere: the same table, two MSRs and the offcore queue events */
	assert_ptr_equal(uarch_by_name("westmere")->table, u->table);
	assert_int_equal(uarch_by_name("westmere")->offcore_msrs, 2);
	assert_int_equal(uarch_by_name("westmere")->flags, UARCH_F_NHM_CTR_RESET | UARCH_F_OFFCORE_QUEUE);
	/* Silvermont and Airmont: 2 counters of 40 bits, MSRs per module */
	u = uarch_by_name("silvermont");
	assert_int_equal(u->gp_needed, 2);
	assert_int_equal(u->gp_width, 40);
	assert_int_equal(u->offcore_scope, OFFCORE_MODULE);
	assert_ptr_equal(uarch_by_name("airmont")->table, u->table);
	/* Goldmont and Goldmont Plus: perfmon version 4, one table */
	assert_int_equal(uarch_by_name("goldmont")->min_version, 4);
	assert_ptr_equal(uarch_by_name("goldmont-plus")->table, uarch_by_name("goldmont")->table);
	/* Haswell's HT bug (HSD29), Broadwell's none; MSRs per thread */
	assert_int_equal(uarch_by_name("haswell")->flags, UARCH_F_HT_EXCL);
	assert_int_equal(uarch_by_name("haswell")->offcore_scope, OFFCORE_THREAD);
	assert_int_equal(uarch_by_name("broadwell")->flags, 0);
	assert_ptr_equal(uarch_by_name("broadwell")->table, uarch_by_name("haswell")->table);
	/*
	 * Sandy Bridge and Ivy Bridge: one table, the HT bug (BJ122, BV98:
	 * K-core intel_ht_bug), MSRs per thread (PMU_FL_NO_HT_SHARING)
	 */
	u = uarch_by_name("sandybridge");
	assert_int_equal(u->min_version, 3);
	assert_int_equal(u->flags, UARCH_F_HT_EXCL);
	assert_int_equal(u->offcore_scope, OFFCORE_THREAD);
	assert_int_equal(uarch_by_name("ivybridge")->flags, UARCH_F_HT_EXCL);
	assert_ptr_equal(uarch_by_name("ivybridge")->table, u->table);
	/* Skylake: perfmon version 4 (every dump: EAX 0x07300404), no HT bug */
	u = uarch_by_name("skylake");
	assert_int_equal(u->min_version, 4);
	assert_int_equal(u->flags, 0);
	assert_int_equal(u->offcore_scope, OFFCORE_THREAD);

	assert_null(uarch_by_name("netburst"));
	assert_null(uarch_by_name("unknown"));
	assert_null(uarch_by_name("Haswell"));
	assert_null(uarch_by_name(""));
	assert_null(uarch_by_name(NULL));
}

/* What --list-uarchs says a uarch measures, from the table's rows. */
static void test_metric_status(void **state)
{
	const struct uarch *hsw = uarch_by_name("haswell");
	struct uarch_metric st;

	(void)state;
	/* every metric of every uarch: measured, or a reason from the table */
	for (const struct uarch *const *u = uarch_supported; *u; u++)
		for (int m = 0; m < M__COUNT; m++) {
			uarch_metric_status(*u, (enum metric)m, &st);
			if (st.measured) {
				assert_null(st.reason);
				assert_true(st.packages == 1 || st.packages == 2);
				assert_int_equal(st.model_flags & (*u)->flags, 0);
			} else {
				assert_non_null(st.reason);
				assert_int_equal(st.model_flags, 0);
			}
		}
	/* Haswell: the remote events on the server model, with two packages */
	uarch_metric_status(hsw, M_SNOOP_REMOTE_HITM, &st);
	assert_true(st.measured);
	assert_int_equal(st.model_flags, UARCH_F_REMOTE_EVENTS);
	assert_int_equal(st.packages, 2);
	uarch_metric_status(hsw, M_SNOOP_HITM, &st);
	assert_true(st.measured);
	assert_int_equal(st.model_flags, 0);
	assert_int_equal(st.packages, 1);
	/* Nehalem: remote on every model with two packages; outstanding only from Westmere on */
	uarch_metric_status(uarch_by_name("nehalem"), M_SNOOP_REMOTE_HIT, &st);
	assert_true(st.measured);
	assert_int_equal(st.model_flags, 0);
	assert_int_equal(st.packages, 2);
	uarch_metric_status(uarch_by_name("nehalem"), M_OFFCORE_OUTSTANDING, &st);
	assert_false(st.measured);
	assert_non_null(strstr(st.reason, "Westmere"));
	uarch_metric_status(uarch_by_name("westmere"), M_OFFCORE_OUTSTANDING, &st);
	assert_true(st.measured);
	/* Goldmont: no load latency, the table's reason */
	uarch_metric_status(uarch_by_name("goldmont"), M_LOAD_LATENCY, &st);
	assert_false(st.measured);
	assert_ptr_equal(st.reason, uarch_by_name("goldmont")->table->unsupported[M_LOAD_LATENCY]);
}

/* Each UARCH_F_* bit has a name of its own; a mask of two or none has none. */
static void test_flag_names(void **state)
{
	(void)state;
	for (unsigned b = 0; b < UARCH_F__COUNT; b++) {
		const char *n = pmu_flag_name(1u << b);

		assert_non_null(n);
		assert_null(strchr(n, ' '));
		for (unsigned k = 0; k < b; k++)
			assert_string_not_equal(pmu_flag_name(1u << k), n);
	}
	assert_string_equal(pmu_flag_name(UARCH_F_REMOTE_EVENTS), "remote_events");
	assert_null(pmu_flag_name(0));
	assert_null(pmu_flag_name(UARCH_F_HT_EXCL | UARCH_F_REMOTE_EVENTS));
	assert_null(pmu_flag_name(1u << UARCH_F__COUNT));
}

/* A supported model whose leaf 0xA disagrees is refused with the reason. */
static void test_leaf_a_mismatch(void **state)
{
	struct cpuid_info id;
	struct cpu_desc d;

	(void)state;
	fake_id(&id, 6, 0x3C, uarch_by_name("haswell"));
	uarch_detect(&id, &d);
	assert_true(d.supported);

	id.pmu.gp_counters = 8;         /* HT off: more is fine */
	uarch_detect(&id, &d);
	assert_true(d.supported);

	id.pmu.gp_counters = 3;
	uarch_detect(&id, &d);
	assert_false(d.supported);
	assert_string_equal(d.uarch->name, "haswell");
	assert_non_null(strstr(d.reason, "reports 3 general-purpose counters per logical CPU; "
			       "the haswell table needs 4"));
	assert_null(strstr(d.reason, "hypervisor"));
	id.hypervisor = true;
	uarch_detect(&id, &d);
	assert_non_null(strstr(d.reason, "hypervisor"));
	assert_reason_ok(d.reason);

	fake_id(&id, 6, 0x3C, uarch_by_name("haswell"));
	id.pmu.version = 2;             /* e.g. KVM's virtual PMU */
	uarch_detect(&id, &d);
	assert_false(d.supported);
	assert_non_null(strstr(d.reason, "version 2; the haswell table needs version 3"));

	fake_id(&id, 6, 0x3C, uarch_by_name("haswell"));
	id.pmu.fixed_counters = 2;
	id.pmu.fixed_mask = 0x3;
	uarch_detect(&id, &d);
	assert_false(d.supported);
	assert_non_null(strstr(d.reason, "2 fixed counters"));

	fake_id(&id, 6, 0x4D, uarch_by_name("silvermont"));
	id.pmu.gp_width = 48;
	uarch_detect(&id, &d);
	assert_false(d.supported);
	assert_non_null(strstr(d.reason, "48-bit"));

	fake_id(&id, 6, 0x2E, uarch_by_name("nehalem"));
	id.pmu.version = 0;
	id.pmu.gp_counters = 0;
	uarch_detect(&id, &d);
	assert_false(d.supported);
	assert_non_null(strstr(d.reason, "the PMU is hidden: CPUID leaf 0xA reports version 0"));
	assert_null(strstr(d.reason, "hypervisor"));
	id.hypervisor = true;
	uarch_detect(&id, &d);
	assert_non_null(strstr(d.reason, "hypervisor"));
	assert_reason_ok(d.reason);

	fake_id(&id, 6, 0x1A, uarch_by_name("nehalem"));
	id.max_leaf = 5;
	uarch_detect(&id, &d);
	assert_false(d.supported);
	assert_non_null(strstr(d.reason, "leaf 0xA is absent"));

	/* Silvermont needs only 2 counters, Goldmont Plus version 4 */
	fake_id(&id, 6, 0x37, uarch_by_name("silvermont"));
	assert_int_equal(id.pmu.gp_counters, 2);
	uarch_detect(&id, &d);
	assert_true(d.supported);
	fake_id(&id, 6, 0x7A, uarch_by_name("goldmont-plus"));
	id.pmu.version = 3;
	uarch_detect(&id, &d);
	assert_false(d.supported);
	assert_non_null(strstr(d.reason, "Goldmont Plus (06_7A)"));
}

/* The running CPU (this may be any x86 machine, a VM included). */
static void test_running(void **state)
{
	struct cpuid_raw raw;
	struct cpuid_info id;
	struct cpu_desc d;
	char err[256] = "";

	(void)state;
#if defined(__x86_64__) || defined(__i386__)
	assert_int_equal(cpuid_raw_running(&raw, err, sizeof(err)), 0);
	cpuid_decode(&raw, &id);
	assert_true(id.max_leaf >= 1);
	assert_true(strlen(id.vendor) == 12);
	uarch_detect(&id, &d);
	assert_non_null(d.uarch);
	if (!d.supported)
		assert_reason_ok(d.reason);
#else
	(void)raw; (void)id; (void)d; (void)err;
	skip();
#endif
}

/* ------------------------------------- refusals added with the fuzzers */

/*
 * What tests/fuzz/ found or was made to look for: duplicated and
 * contradictory register lines, truncated files, binary junk, huge files,
 * files that are not regular, too many CPUs.  Each refusal is one line
 * naming the file (expect_refused checks) and the reason.
 */
static void test_refused_since_fuzzing(void **state)
{
	static const char *const arrays[] = {
		"ext_cpuid", "intel_fn4", "intel_fn11", "intel_fn12h", "intel_fn14h", "amd_fn8000001dh",
	};
	const char *cpu0 = "_________________ Logical CPU #0 _________________\n";
	const char *cpu1 = "_________________ Logical CPU #1 _________________\n";
	char text[512], path[256], err[256] = "", *big;
	struct cpuid_raw raw;
	size_t i, len;

	(void)state;
	/* the same register twice, equal or contradictory: refused, naming both lines */
	refuse_str("dup-same.raw", GOOD_L0 GOOD_L1 GOOD_L1, "line 3: duplicate basic_cpuid[1] (first on line 2)");
	refuse_str("dup-basic0.raw", GOOD_L0 GOOD_L1 "basic_cpuid[0]=0000000b 756e6547 6c65746e 49656e69\n",
		   "line 3: duplicate basic_cpuid[0] (first on line 1)");
	refuse_str("dup-ext.raw", GOOD_L0 "ext_cpuid[0]=80000008 0 0 0\next_cpuid[0]=80000004 0 0 0\n",
		   "duplicate ext_cpuid[0] (first on line 2)");
	refuse_str("dup-version.raw", "version=0.6.2\nversion=0.6.1\n" GOOD_L0,
		   "line 2: duplicate version line (first on line 1)");
	refuse_str("dup-fn4.raw", GOOD_L0 "intel_fn4[3]=1 2 3 4\n" GOOD_L1 "intel_fn4[3]=1 2 3 4\n",
		   "line 4: duplicate intel_fn4[3] (first on line 2)");
	snprintf(text, sizeof(text), "%s" GOOD_L0 GOOD_L1 "%s" GOOD_L0 GOOD_L1 GOOD_L1, cpu0, cpu1);
	refuse_str("dup-cpu1.raw", text, "line 7: duplicate basic_cpuid[1] (first on line 6)");
	/* ... but each logical CPU has its own registers */
	snprintf(text, sizeof(text), "%s" GOOD_L0 GOOD_L1 "%s" GOOD_L0 GOOD_L1, cpu0, cpu1);
	expect_accepted("two-cpus.raw", text, &raw);
	assert_int_equal(raw.basic[1][0], 0x000306c3);

	/* truncated: inside a line, or after a Logical CPU line */
	refuse_str("cut-regs.raw", GOOD_L0 "basic_cpuid[1]=000306c3 0010", "line 2: truncated");
	refuse_str("cut-whole-regs.raw", GOOD_L0 "basic_cpuid[1]=000306c3 00100800 7ffafbff bfebfbff",
		   "line 2: truncated");
	refuse_str("cut-version.raw", "version=0.6.2", "line 1: truncated");
	snprintf(text, sizeof(text), "%s" GOOD_L0 GOOD_L1 "%s", cpu0, cpu1);
	refuse_str("cut-cpu1.raw", text, "Logical CPU #1 has no basic_cpuid[0] line: truncated");
	snprintf(text, sizeof(text), "%s" GOOD_L0 GOOD_L1 "%s" GOOD_L1, cpu0, cpu1);
	refuse_str("cpu1-no-leaf0.raw", text, "Logical CPU #1 has no basic_cpuid[0] line");
	snprintf(text, sizeof(text), "%s" GOOD_L1 "%s" GOOD_L0 GOOD_L1, cpu0, cpu1);
	refuse_str("cpu0-no-leaf0.raw", text, "line 3: Logical CPU #0 before this line has no basic_cpuid[0]");
	/* the line libcpuid stops at may end the file without a newline; results after it are free */
	expect_accepted("stop-no-newline.raw", GOOD_L0 GOOD_L1
			"--------------------------------------------------------------------------------",
			&raw);
	expect_accepted("stop-then-junk.raw", GOOD_L0 GOOD_L1
			"--------------------------------------------------------------------------------\n"
			"\x01\xff binary after the end", &raw);

	/* binary junk other than NUL */
	refuse_str("ctrl.raw", GOOD_L0 "basic_cpuid[1]=000306c3\x01 00100800 7ffafbff bfebfbff\n",
		   "line 2: binary data (byte 0x01)");
	refuse_str("high.raw", GOOD_L0 "\xef\xbb\xbf" GOOD_L1, "line 2: binary data (byte 0xef)");
	refuse_str("esc.raw", "\x1b[2J" GOOD_L0, "line 1: binary data (byte 0x1b)");

	/* libcpuid 0.6.2 segfaults on any register line before the first basic_cpuid line */
	for (i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
		char name[64];

		snprintf(name, sizeof(name), "%s-first.raw", arrays[i]);
		snprintf(text, sizeof(text), "version=0.6.2\n%s[0]=00000001 00000002 00000003 00000004\n"
			 GOOD_L0, arrays[i]);
		refuse_str(name, text, "line 2: register line before the first basic_cpuid line");
	}

	/* huge: a sparse 9 MiB file, refused from its size alone */
	snprintf(path, sizeof(path), "%s/huge.raw", tmpdir);
	write_file(path, GOOD_L0, strlen(GOOD_L0));
	assert_int_equal(truncate(path, 9 << 20), 0);
	assert_int_equal(cpuid_raw_file(path, &raw, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "huge.raw"));
	assert_non_null(strstr(err, "larger than 8 MiB"));
	assert_non_null(strstr(err, "libcpuid"));
	assert_null(strchr(err, '\n'));

	/* more logical CPUs than lattop takes: 1025, each whole */
	len = 1025 * (strlen(cpu0) + 4 + strlen(GOOD_L0)) + 1;
	big = malloc(len);
	assert_non_null(big);
	big[0] = '\0';
	for (i = 0, len = 0; i < 1025; i++)
		len += (size_t)sprintf(big + len, "_________________ Logical CPU #%zu _________________\n"
				       GOOD_L0, i);
	expect_refused("cpus-1025.raw", big, len, "line 2049: more than 1024 logical CPUs");
	free(big);

	/* not a regular file: a FIFO (whose open must not block) and /dev/zero */
	snprintf(path, sizeof(path), "%s/fifo.raw", tmpdir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(cpuid_raw_file(path, &raw, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "fifo.raw: not a regular file"));
	assert_int_equal(cpuid_raw_file("/dev/zero", &raw, err, sizeof(err)), -1);
	assert_string_equal(err, "/dev/zero: not a regular file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_dumps),
		cmocka_unit_test(test_fixed_bitmap_v5),
		cmocka_unit_test(test_shared_all_dumps),
		cmocka_unit_test(test_shared_not_hybrid),
		cmocka_unit_test(test_local_dumps),
		cmocka_unit_test(test_multi_cpu_dump),
		cmocka_unit_test_setup_teardown(test_bad_files, bad_setup, bad_teardown),
		cmocka_unit_test_setup_teardown(test_good_variants, bad_setup, bad_teardown),
		cmocka_unit_test_setup_teardown(test_missing_leaf_refused, bad_setup, bad_teardown),
		cmocka_unit_test(test_decode_signature),
		cmocka_unit_test(test_decode_brand),
		cmocka_unit_test(test_decode_leaf_a),
		cmocka_unit_test(test_model_table),
		cmocka_unit_test(test_unknown_and_amd),
		cmocka_unit_test(test_uarch_fields),
		cmocka_unit_test(test_supports),
		cmocka_unit_test(test_metric_status),
		cmocka_unit_test(test_flag_names),
		cmocka_unit_test(test_leaf_a_mismatch),
		cmocka_unit_test(test_snb_pebs_steppings),
		cmocka_unit_test(test_running),
		cmocka_unit_test_setup_teardown(test_refused_since_fuzzing, bad_setup, bad_teardown),
	};

	return cmocka_run_group_tests_name("detect", tests, NULL, NULL);
}
