/*
 * report.c: text, csv and json writers (see report.h).
 *
 * NAN means "not measured": null in JSON, an empty field in CSV, "-" in
 * text.  Text uses SI suffixes for readability; CSV and JSON carry the
 * full numbers.
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/perf_attr.h"
#include "output/columns.h"
#include "output/numfmt.h"
#include "output/report.h"

/*
 * One character of a JSON string, escaped as every writer here escapes it:
 * the quote and the backslash, a newline as \n, other control characters
 * as \u00XX.  Into @out (7 bytes); its length.
 */
static size_t json_char(char *out, unsigned char ch)
{
	if (ch == '"' || ch == '\\') {
		out[0] = '\\';
		out[1] = (char)ch;
		return 2;
	}
	if (ch == '\n') {
		memcpy(out, "\\n", 2);
		return 2;
	}
	if (ch < 0x20)
		return (size_t)snprintf(out, 7, "\\u%04x", ch);
	out[0] = (char)ch;
	return 1;
}

void report_json_str(FILE *f, const char *s)
{
	char e[7];

	fputc('"', f);
	for (; s && *s; s++)
		fwrite(e, 1, json_char(e, (unsigned char)*s), f);
	fputc('"', f);
}

void report_detect_json(FILE *f, const struct cpu_desc *d)
{
	const struct pmu_caps *c = &d->id.pmu;

	fputs("{\"vendor\":", f);
	report_json_str(f, d->id.vendor);
	fprintf(f, ",\"family\":%u,\"model\":%u,\"stepping\":%u,\"brand\":",
		d->id.family, d->id.model, d->id.stepping);
	report_json_str(f, d->id.brand);
	fprintf(f, ",\"hypervisor\":%s,\"microarch\":", d->id.hypervisor ? "true" : "false");
	report_json_str(f, d->uarch->name);
	fputs(",\"pmu_table\":", f);
	if (cpu_desc_table(d))
		report_json_str(f, cpu_desc_table(d)->name);
	else
		fputs("null", f);
	fprintf(f, ",\"supported\":%s", d->supported ? "true" : "false");
	if (!d->supported) {
		fputs(",\"reason\":", f);
		report_json_str(f, d->reason);
	}
	fprintf(f, ",\"pmu\":{\"version\":%u,\"gp_counters\":%u,\"gp_width\":%u,"
		"\"fixed_counters\":%u,\"fixed_width\":%u}",
		c->version, c->gp_counters, c->gp_width, c->fixed_counters, c->fixed_width);
	if (d->hybrid) {
		fputs(",\"hybrid\":true,\"core_types\":[", f);
		for (int t = 0; t < d->ntypes; t++) {
			const struct core_type_desc *ct = &d->type[t];
			bool first = true;

			fputs(t ? ",{\"type\":" : "{\"type\":", f);
			report_json_str(f, core_type_name(ct->type));
			fputs(",\"microarch\":", f);
			report_json_str(f, ct->uarch->name);
			fputs(",\"pmu_table\":", f);
			if (ct->uarch->table)
				report_json_str(f, ct->uarch->table->name);
			else
				fputs("null", f);
			fprintf(f, ",\"native_model\":%u,\"gp_counters\":%u,\"fixed_counters\":%u,"
				"\"supported\":%s", ct->native, ct->pmu.gp_counters,
				pmu_caps_fixed_run(&ct->pmu), ct->supported ? "true" : "false");
			if (!ct->supported) {
				fputs(",\"reason\":", f);
				report_json_str(f, ct->reason);
			}
			fputs(",\"cpus\":[", f);
			for (int cpu = 0; cpu < CPUSET_MAX; cpu++)
				if (ct->cpus[cpu / 64] >> (cpu % 64) & 1) {
					fprintf(f, "%s%d", first ? "" : ",", cpu);
					first = false;
				}
			fputs("]}", f);
		}
		fputc(']', f);
	}
	fputc('}', f);
}

void report_detect(FILE *f, enum report_format fmt, const struct cpu_desc *d)
{
	const struct pmu_caps *c = &d->id.pmu;

	if (fmt == FORMAT_JSON) {
		report_detect_json(f, d);
		fputc('\n', f);
		return;
	}
	fprintf(f, "vendor:      %s\n", d->id.vendor);
	fprintf(f, "cpu:         family 0x%x model 0x%x stepping %u (%02X_%02XH)\n",
		d->id.family, d->id.model, d->id.stepping, d->id.family, d->id.model);
	fprintf(f, "brand:       %s\n", d->id.brand[0] ? d->id.brand : "-");
	fprintf(f, "hypervisor:  %s\n", d->id.hypervisor ? "yes" : "no");
	fprintf(f, "microarch:   %s (%s)\n", d->uarch->name, d->uarch->pretty);
	fprintf(f, "pmu table:   %s\n", cpu_desc_table(d) ? cpu_desc_table(d)->name : "-");
	fprintf(f, "perfmon:     version %u, %u general-purpose counters x %u bits, "
		"%u fixed x %u bits\n", c->version, c->gp_counters, c->gp_width,
		c->fixed_counters, c->fixed_width);
	for (int t = 0; t < d->ntypes; t++) {
		const struct core_type_desc *ct = &d->type[t];

		fprintf(f, "core type:   %s: %s (%s), %u general-purpose counters, %u fixed, %d cpus, "
			"%s\n", core_type_name(ct->type), ct->uarch->name, ct->uarch->pretty,
			ct->pmu.gp_counters, pmu_caps_fixed_run(&ct->pmu), ct->ncpu,
			ct->supported ? "supported" : "not supported");
	}
	if (d->supported)
		fprintf(f, "supported:   yes\n");
	else
		fprintf(f, "supported:   no: %s\n", d->reason);
}

static const char *counter_name(const struct pmu_event *e, int ctr, char *buf, size_t len)
{
	if (e->fixed != PMU_FIXED_NONE)
		snprintf(buf, len, "FIXED_CTR%d", e->fixed);
	else
		snprintf(buf, len, "PMC%d", ctr);
	return buf;
}

/*
 * The text columns of --list-events: the registers the msr backend writes,
 * or the perf_event_attr the perf backend opens (cpu/perf_attr.h).
 */
enum { EV_NAME, EV_METRIC, EV_CTR, EV_SEL, EV_MSR, EV_RSP, EV_LDLAT, EV_PEBS, EV_SLOT,
       EV_TYPE, EV_CONFIG, EV_CONFIG1, EV_PRECISE, EV__N };
static const char *const ev_head[EV__N] = {
	"event", "metric", "counter", "perfevtsel", "rsp", "offcore_rsp", "ldlat", "pebs_enable",
	"slot", "type", "config", "config1", "precise_ip",
};
#define EV_COLS 9
static const int ev_msr_cols[EV_COLS] = {
	EV_NAME, EV_METRIC, EV_CTR, EV_SEL, EV_MSR, EV_RSP, EV_LDLAT, EV_PEBS, EV_SLOT,
};
static const int ev_perf_cols[EV_COLS] = {
	EV_NAME, EV_METRIC, EV_TYPE, EV_CONFIG, EV_CONFIG1, EV_PRECISE, EV_LDLAT, EV_SLOT, -1,
};

/*
 * One event's cells as text: "-" where a register is not used; the attr's
 * type @type, or the name of PMU @pmu when its type is given at boot.
 */
static void event_cells(const struct plan *pl, const struct plan_unit *u, int j,
			const struct cpu_desc *d, unsigned type, const char *pmu, char c[EV__N][64])
{
	const struct pmu_event *e = u->row[j];
	const char *msr = e->offcore ? (e->offcore == 1 ? "0x1a6" : "0x1a7") : NULL;

	snprintf(c[EV_NAME], 64, "%s", e->name);
	snprintf(c[EV_METRIC], 64, "%s", metric_name(e->metric));
	counter_name(e, u->ctr[j], c[EV_CTR], 64);
	if (e->fixed == PMU_FIXED_NONE)
		snprintf(c[EV_SEL], 64, "0x%llx", (unsigned long long)pmu_event_evtsel(e));
	else
		snprintf(c[EV_SEL], 64, "-");
	snprintf(c[EV_MSR], 64, "%s", msr ? msr : "-");
	if (msr)
		snprintf(c[EV_RSP], 64, "0x%llx", (unsigned long long)e->offcore_rsp);
	else
		snprintf(c[EV_RSP], 64, "-");
	if (e->ldlat) {
		snprintf(c[EV_LDLAT], 64, "%u", pl->thresholds[u->thresh]);
		snprintf(c[EV_PEBS], 64, "0x%llx",
			 (1ull << u->ctr[j]) |    /* PEBS_EN, and LL_EN below version 5 */
			 (pmu_version_ll_en(d->id.pmu.version) ? 1ull << (32 + u->ctr[j]) : 0));
	} else {
		snprintf(c[EV_LDLAT], 64, "-");
		snprintf(c[EV_PEBS], 64, "-");
	}
	if (u->fixed)
		snprintf(c[EV_SLOT], 64, "all");
	else
		snprintf(c[EV_SLOT], 64, "%d of %d", u->nslots, pl->nslots);
	{
		struct perf_event_attr a;

		perf_attr_of(e, e->ldlat ? pl->thresholds[u->thresh] : 0, &a);
		if (type)
			snprintf(c[EV_TYPE], 64, "%u", type);
		else
			snprintf(c[EV_TYPE], 64, "%s", pmu ? pmu : "-");
		snprintf(c[EV_CONFIG], 64, "0x%llx", (unsigned long long)a.config);
		snprintf(c[EV_CONFIG1], 64, "0x%llx", (unsigned long long)a.config1);
		snprintf(c[EV_PRECISE], 64, "%u", a.precise_ip);
	}
}

/*
 * --list-events probes nothing: on a part with the HT bug (plan.h) what it
 * prints holds for the siblings it measures and idle ones it does not, and
 * this says so; NULL elsewhere.
 */
static const char *events_assume(const struct cpu_desc *d, const struct plan *pl, char *buf,
				 size_t len)
{
	if (!(d->uarch->flags & UARCH_F_HT_EXCL))
		return NULL;
	snprintf(buf, len, "the HT erratum (%s): this plan %s; a sibling lattop does not measure "
		 "is assumed idle: measuring, lattop reads its event selects and keeps the events "
		 "0xD0 to 0xD3 off the counters it uses", d->uarch->ht_erratum,
		 pl->twins ? "measures both threads of a core, in twin slots"
			   : "measures one thread of a core");
	return buf;
}

/* What a source doubts of a planned row's count with HT on (struct pmu_event.ht_caveat), or NULL. */
static const char *events_ht_caveat(const struct plan *pl)
{
	for (int ui = 0; ui < pl->nunits; ui++)
		for (int j = 0; j < pl->unit[ui].nrows; j++)
			if (pl->unit[ui].row[j]->ht_caveat)
				return pl->unit[ui].row[j]->ht_caveat;
	return NULL;
}

void report_events(FILE *f, enum report_format fmt, const struct cpu_desc *d,
		   const struct plan *pl)
{
	report_events_backend(f, fmt, d, pl, NULL);
}

void report_events_backend(FILE *f, enum report_format fmt, const struct cpu_desc *d,
			   const struct plan *pl, const char *perf_pmu)
{
	bool perf = perf_pmu != NULL;
	unsigned type = perf_attr_pmu_type(perf_pmu);
	const int *cols = perf ? ev_perf_cols : ev_msr_cols;
	int ncols = perf ? EV_COLS - 1 : EV_COLS;
	bool first = true;
	int w[EV__N];
	char abuf[320];
	const char *assume = events_assume(d, pl, abuf, sizeof(abuf)), *caveat = events_ht_caveat(pl);

	/* Text: each column as wide as its widest cell, so that long names stay in line. */
	for (int k = 0; k < EV__N; k++)
		w[k] = (int)strlen(ev_head[k]);
	for (int ui = 0; ui < pl->nunits; ui++)
		for (int j = 0; j < pl->unit[ui].nrows; j++) {
			char c[EV__N][64];

			event_cells(pl, &pl->unit[ui], j, d, type, perf_pmu, c);
			for (int k = 0; k < EV__N; k++)
				if ((int)strlen(c[k]) > w[k])
					w[k] = (int)strlen(c[k]);
		}
	if (fmt == FORMAT_JSON) {
		fputs("{\"microarch\":", f);
		report_json_str(f, d->uarch->name);
		fputs(",\"pmu_table\":", f);
		report_json_str(f, d->uarch->table->name);
		fprintf(f, ",\"backend\":\"%s\"", perf ? "perf" : "msr");
		if (perf) {
			fputs(",\"pmu\":", f);
			report_json_str(f, perf_pmu);
		}
		fputs(",\"events\":[", f);
	} else {
		fprintf(f, "# %s (%s table): %d rotation slot%s, every CPU measured, %d thread%s "
			"per core, %u package%s%s%s", d->uarch->pretty, d->uarch->table->name,
			pl->nslots,
			pl->nslots == 1 ? "" : "s", pl->ht_on ? 2 : 1, pl->ht_on ? "s" : "",
			pl->packages, pl->packages == 1 ? "" : "s",
			perf ? ", opened with perf_event_open(2) on the kernel's " : "",
			perf ? perf_pmu : "");
		if (perf)
			fputs(" PMU", f);
		fputc('\n', f);
		for (int k = 0; k < ncols - 1; k++)
			fprintf(f, "%-*s ", w[cols[k]], ev_head[cols[k]]);
		fprintf(f, "%s\n", ev_head[cols[ncols - 1]]);
	}
	for (int ui = 0; ui < pl->nunits; ui++) {
		const struct plan_unit *u = &pl->unit[ui];

		for (int j = 0; j < u->nrows; j++) {
			const struct pmu_event *e = u->row[j];
			char c[EV__N][64];
			bool msr = e->offcore != 0;

			event_cells(pl, u, j, d, type, perf_pmu, c);
			if (fmt == FORMAT_JSON) {
				fputs(first ? "{" : ",{", f);
				first = false;
				fputs("\"name\":", f);
				report_json_str(f, e->name);
				fputs(",\"metric\":", f);
				report_json_str(f, metric_name(e->metric));
				fputs(",\"perfevtsel\":", f);
				if (e->fixed == PMU_FIXED_NONE)
					report_json_str(f, c[EV_SEL]);
				else
					fputs("null", f);
				fputs(",\"offcore_msr\":", f);
				if (msr)
					report_json_str(f, c[EV_MSR]);
				else
					fputs("null", f);
				fputs(",\"offcore_rsp\":", f);
				if (msr)
					report_json_str(f, c[EV_RSP]);
				else
					fputs("null", f);
				fputs(",\"ld_lat_threshold\":", f);
				if (e->ldlat)
					fprintf(f, "%u", pl->thresholds[u->thresh]);
				else
					fputs("null", f);
				fputs(",\"pebs_enable\":", f);
				if (e->ldlat)
					report_json_str(f, c[EV_PEBS]);
				else
					fputs("null", f);
				fputs(",\"counter\":", f);
				report_json_str(f, c[EV_CTR]);
				fprintf(f, ",\"slots\":%d", u->fixed ? pl->nslots : u->nslots);
				if (perf)
					fprintf(f, ",\"attr\":{\"type\":%s,\"config\":\"%s\","
						"\"config1\":\"%s\",\"precise_ip\":%s}",
						type ? c[EV_TYPE] : "null", c[EV_CONFIG],
						c[EV_CONFIG1], c[EV_PRECISE]);
				fputc('}', f);
			} else {
				for (int k = 0; k < ncols - 1; k++)
					fprintf(f, "%-*s ", w[cols[k]], c[cols[k]]);
				fprintf(f, "%s\n", c[cols[ncols - 1]]);
			}
		}
	}
	if (fmt == FORMAT_JSON) {
		int rd, wr;

		plan_floor(pl, pmu_ctr_reset_writes(d->uarch, d->id.pmu.gp_counters), &rd, &wr);
		fprintf(f, "],\"slots\":%d,\"floor\":{\"reads\":%d,\"writes\":%d}", pl->nslots, rd, wr);
		fprintf(f, ",\"machine\":{\"threads_per_core\":%d,\"packages\":%u,\"twin_slots\":%s}",
			pl->ht_on ? 2 : 1, pl->packages, pl->twins ? "true" : "false");
		fputs(",\"assumes\":", f);
		if (assume)
			report_json_str(f, assume);
		else
			fputs("null", f);
		fputs(",\"ht_caveat\":", f);
		if (caveat)
			report_json_str(f, caveat);
		else
			fputs("null", f);
		fputs(",\"unsupported\":{", f);
		first = true;
		for (int m = 0; m < M__COUNT; m++) {
			if (!pl->reason[m])
				continue;
			fputs(first ? "" : ",", f);
			first = false;
			report_json_str(f, metric_name(m));
			fputc(':', f);
			report_json_str(f, pl->reason[m]);
		}
		fputs("}}\n", f);
	} else {
		for (int m = 0; m < M__COUNT; m++)
			if (pl->reason[m])
				fprintf(f, "# %s: not measured: %s\n", metric_name(m), pl->reason[m]);
		if (assume)
			fprintf(f, "# %s\n", assume);
		if (caveat)
			fprintf(f, "# %s\n", caveat);
	}
}

const char *report_backend(const char *source)
{
	size_t n = strlen(source);

	return n >= 4 && !strcmp(source + n - 4, "perf") ? "perf" : "msr";
}

bool report_simulated(const char *source)
{
	return !strncmp(source, "simulator", 9);
}

/* ---- snapshots ---- */

/*
 * Snapshots are built in a buffer and written with one fwrite per CPU: the
 * JSON of 1024 CPUs every interval is lattop's largest cost after the
 * counters themselves, and stdio per token doubled it.
 */
#define JB_ROOM 1024    /* more than any one token: a reason, an error, a note is cut to fit */
/*
 * The most one CPU's object (or the total with the note) can take: its 16
 * strings at JB_ROOM each and its numbers.  Live reasons are far shorter,
 * but a recording (--replay) is input like any other.
 */
#define JB_CPU_MAX (20 * JB_ROOM + 4096)

struct jb {
	size_t n;
	char b[2 * JB_CPU_MAX];
	/* The last list of thresholds and its text (jb_thresholds). */
	int thr_n;
	unsigned thr[THRESH_MAX];
	size_t thr_len;
	char thr_txt[2 + THRESH_MAX * 21];
};

static void jb_flush(FILE *f, struct jb *j)
{
	fwrite(j->b, 1, j->n, f);
	j->n = 0;
}

static void jb_mem(struct jb *j, const char *s, size_t len)
{
	memcpy(j->b + j->n, s, len);
	j->n += len;
}

#define JB(j, lit) jb_mem(j, lit, sizeof(lit) - 1)

static void jb_num(struct jb *j, double v)
{
	int k = numfmt(j->b + j->n, v, 6);

	if (k)
		j->n += (size_t)k;
	else
		JB(j, "null");
}

static void jb_int(struct jb *j, long long v)
{
	j->n += (size_t)numfmt_int(j->b + j->n, v);
}

/*
 * A list of load-latency thresholds: every CPU of a core type has the same
 * one, interval after interval, so its text is made when it changes and
 * copied otherwise.
 */
static void jb_thresholds(struct jb *j, const unsigned *t, int n)
{
	if (!j->thr_len || n != j->thr_n || memcmp(t, j->thr, (size_t)n * sizeof(*t))) {
		char *o = j->thr_txt;

		*o++ = '[';
		for (int i = 0; i < n; i++) {
			if (i)
				*o++ = ',';
			o += numfmt_int(o, t[i]);
		}
		*o++ = ']';
		j->thr_len = (size_t)(o - j->thr_txt);
		memcpy(j->thr, t, (size_t)n * sizeof(*t));
		j->thr_n = n;
	}
	jb_mem(j, j->thr_txt, j->thr_len);
}

/* A JSON string, cut to JB_ROOM bytes. */
static void jb_str(struct jb *j, const char *s)
{
	size_t end = j->n + JB_ROOM - 8;

	j->b[j->n++] = '"';
	while (s && *s && j->n < end) {
		/* A run needing no escape is copied whole: keys and reasons are such runs. */
		const unsigned char *u = (const unsigned char *)s;
		size_t k = 0;

		while (u[k] >= 0x20 && u[k] != '"' && u[k] != '\\')
			k++;
		if (k > end - j->n)
			k = end - j->n;
		jb_mem(j, s, k);
		s += k;
		if (*s && j->n < end)
			j->n += json_char(j->b + j->n, (unsigned char)*s++);
	}
	j->b[j->n++] = '"';
}

/*
 * A CPU's reason that is the total's (@tot's, at the same place) is said
 * once, in the total: a long reason every CPU shares (one package, the
 * microcode) would otherwise be most of each CPU's bytes.
 */
static bool json_as_total(const char *reason, const char *tot)
{
	return reason && tot && !strcmp(reason, tot);
}

/* A key of the column table: plain identifiers (test_columns), copied whole. */
static void jb_key(struct jb *j, const char *key)
{
	size_t n = strlen(key);

	j->b[j->n++] = '"';
	jb_mem(j, key, n);
	j->b[j->n++] = '"';
}

static void jb_reason(struct jb *j, bool supported, const char *reason, const char *tot)
{
	if (supported)
		JB(j, "\"supported\":true,\"reason\":");
	else
		JB(j, "\"supported\":false,\"reason\":");
	if (reason && !json_as_total(reason, tot))
		jb_str(j, reason);
	else
		JB(j, "null");
}

/*
 * The JSON walk of the column table, worked out once (it is data that
 * never changes, and every CPU's object walked it each tick): the fields
 * in order, with the sections closed and opened before each and its key
 * as written; per section, the fields that may say why they are not
 * measured.
 */
#define JSON_KEY_MAX 48

struct json_step {
	uint8_t col;
	uint8_t nclose;                         /* "}" before it */
	uint8_t nopen;
	uint8_t open[CS__COUNT];                /* then these opened, outermost first */
	uint8_t keylen;
	char key[JSON_KEY_MAX];                 /* ",\"key\":": its comma, but the object's first */
};

static struct {
	int nsteps, nclose_end;
	struct json_step step[COL__COUNT];
	int nwhy[CS__COUNT];
	uint8_t why[CS__COUNT][COL__COUNT];     /* columns with a why() in the section */
	uint8_t keylen[COL__COUNT], sect_keylen[CS__COUNT];
	char key[COL__COUNT][JSON_KEY_MAX];     /* "\"key\":", of every column */
	char sect_key[CS__COUNT][JSON_KEY_MAX]; /* ",\"key\":{" */
} jp;
static pthread_once_t jp_once = PTHREAD_ONCE_INIT;

/* Is section @s @anc or inside it? */
static bool json_within(enum col_section s, enum col_section anc)
{
	for (;; s = col_sections[s].parent) {
		if (s == anc)
			return true;
		if (s == CS_NONE)
			return false;
	}
}

/* The sections from @from (open already) down to @to into @st's open list. */
static void json_prog_open(struct json_step *st, enum col_section from, enum col_section to)
{
	if (to == from)
		return;
	json_prog_open(st, from, col_sections[to].parent);
	st->open[st->nopen++] = (uint8_t)to;
}

/* "\"@key\"@tail" into @buf (JSON_KEY_MAX, keys are short identifiers: test_columns); its length. */
static uint8_t json_prog_key(char *buf, const char *head, const char *key, const char *tail)
{
	return (uint8_t)snprintf(buf, JSON_KEY_MAX, "%s\"%s\"%s", head, key, tail);
}

static void json_prog_init(void)
{
	enum col_section cur = CS_NONE;

	for (int i = 0; i < COL__COUNT; i++) {
		const struct column *c = &columns[i];

		jp.keylen[i] = json_prog_key(jp.key[i], "", c->key, ":");
		if (c->why && (c->flags & COL_F_JSON))
			jp.why[c->sect][jp.nwhy[c->sect]++] = (uint8_t)i;
	}
	for (int s = 1; s < CS__COUNT; s++)
		jp.sect_keylen[s] = json_prog_key(jp.sect_key[s], ",", col_sections[s].key, ":{");
	for (int i = 0; i < COL__COUNT; i++) {
		const struct column *c = &columns[i];
		struct json_step *st = &jp.step[jp.nsteps];

		if (!(c->flags & COL_F_JSON) || c->kind == CK_ID)
			continue;
		st->col = (uint8_t)i;
		st->keylen = json_prog_key(st->key, ",", c->key, ":");
		for (; !json_within(c->sect, cur); cur = col_sections[cur].parent)
			st->nclose++;
		json_prog_open(st, cur, c->sect);
		cur = c->sect;
		jp.nsteps++;
	}
	for (; cur != CS_NONE; cur = col_sections[cur].parent)
		jp.nclose_end++;
}

/* Column @i's key, "\"key\":". */
static void jb_col_key(struct jb *j, int i)
{
	jb_mem(j, jp.key[i], jp.keylen[i]);
}

/*
 * "key":"reason" into the "unsupported" object of section @sect, for each
 * number not measured; null where the reason is @tot's (NULL: the total).
 * A section that measures nothing says one reason; a number whose own
 * reason is another (Crestmont through perf: no snoop-hit event, and HITM
 * refused by the kernel) says its own here too.
 */
static void json_unsupported(struct jb *j, enum col_section sect, const struct metrics *m,
			     const struct metrics *tot)
{
	bool whole = !col_sections[sect].supported(m), first = true;
	const char *sr = whole && col_sections[sect].reason ? col_sections[sect].reason(m) : NULL;

	JB(j, ",\"unsupported\":{");
	for (int k = 0; k < jp.nwhy[sect]; k++) {
		const struct column *c = &columns[jp.why[sect][k]];
		const char *why = c->why(m);

		if (!why || (whole && (!sr || !strcmp(why, sr))))
			continue;
		if (!first)
			JB(j, ",");
		first = false;
		jb_col_key(j, jp.why[sect][k]);
		if (tot && json_as_total(why, c->why(tot)))
			JB(j, "null");
		else
			jb_str(j, why);
	}
	JB(j, "}");
}

/* Open section @s, its parent open already. */
static void json_open(struct jb *j, enum col_section s, const struct metrics *m,
		      const struct metrics *tot)
{
	const struct col_section_desc *d = &col_sections[s];

	jb_mem(j, jp.sect_key[s], jp.sect_keylen[s]);
	jb_reason(j, d->supported(m), d->reason(m), tot ? d->reason(tot) : NULL);
	if (d->unsupported)
		json_unsupported(j, s, m, tot);
}

/* One field, "key":value, with a comma before it unless @first. */
static void json_field(struct jb *j, const struct json_step *st, const struct metrics *m, bool first)
{
	const struct column *c = &columns[st->col];

	jb_mem(j, st->key + first, st->keylen - first);
	switch (c->kind) {
	case CK_NUM:
		jb_num(j, columns_value(c, m, 0));
		break;
	case CK_THRESH:
		jb_thresholds(j, m->lat.thresholds, m->lat.nthresh);
		break;
	case CK_LIST:
		JB(j, "[");
		for (int i = 0; i < m->lat.nthresh; i++) {
			if (i)
				JB(j, ",");
			/* columns_value() of a list without calc, its field read in place */
			jb_num(j, c->calc ? c->calc(m) : columns_field(c, m, i));
		}
		JB(j, "]");
		break;
	case CK_SCOPE: {
		const char *scope = columns_str(c, m);

		if (scope)
			jb_str(j, scope);
		else
			JB(j, "null");
		break;
	}
	case CK_ID:
		break;
	}
}

/*
 * The metrics of a CPU or of the total: the JSON fields of the table in
 * its order, each section opened where its first field comes and closed
 * where the next section begins.  @tot: the total, for a CPU (its reasons said there);
 * @first: no comma before the first.
 */
static void json_metrics(struct jb *j, const struct metrics *m, const struct metrics *tot,
			 bool first)
{
	pthread_once(&jp_once, json_prog_init);
	for (int i = 0; i < jp.nsteps; i++) {
		const struct json_step *st = &jp.step[i];

		for (int k = 0; k < st->nclose; k++)
			JB(j, "}");
		for (int k = 0; k < st->nopen; k++)
			json_open(j, (enum col_section)st->open[k], m, tot);
		json_field(j, st, m, first);
		first = false;
	}
	for (int k = 0; k < jp.nclose_end; k++)
		JB(j, "}");
}

static const char *const verdict_name[] = {
	[SHARING_UNKNOWN] = "unknown", [SHARING_FALSE] = "false_sharing",
	[SHARING_TRUE] = "true_sharing",
};

/* "0x..." for an address (JSON numbers lose precision above 2^53); null for 0, unknown. */
static void jb_hex(struct jb *j, uint64_t v)
{
	if (v)
		j->n += (size_t)sprintf(j->b + j->n, "\"0x%" PRIx64 "\"", v);
	else
		JB(j, "null");
}

/* A string, or null when empty. */
static void jb_str_or_null(struct jb *j, const char *s)
{
	if (s[0])
		jb_str(j, s);
	else
		JB(j, "null");
}

/* One contended line of the sharing object (man page, JSON OUTPUT). */
static void json_line(struct jb *j, const struct sharing_line *l)
{
	JB(j, "{\"addr\":");
	jb_hex(j, l->addr);
	JB(j, ",\"phys\":");
	jb_hex(j, l->phys);
	JB(j, ",\"hitm_per_sec\":");
	jb_num(j, l->hitm_per_sec);
	JB(j, ",\"remote_hitm_per_sec\":");
	jb_num(j, l->remote_hitm_per_sec);
	JB(j, ",\"loads_per_sec\":");
	jb_num(j, l->loads_per_sec);
	JB(j, ",\"stores_per_sec\":");
	jb_num(j, l->stores_per_sec);
	JB(j, ",\"mean_latency_cycles\":");
	jb_num(j, l->mean_latency_cycles);
	JB(j, ",\"verdict\":");
	jb_key(j, verdict_name[l->verdict <= SHARING_TRUE ? l->verdict : SHARING_UNKNOWN]);
	JB(j, ",\"threads\":");
	jb_int(j, l->nthreads);
	JB(j, ",\"cpus\":");
	jb_int(j, l->ncpus);
	JB(j, ",\"node\":");
	if (l->node < 0)
		JB(j, "null");
	else
		jb_int(j, l->node);
	JB(j, ",\"processes\":[");
	for (int i = 0; i < l->nprocs && i < SHARING_PROCS; i++) {
		if (i)
			JB(j, ",");
		JB(j, "{\"pid\":");
		jb_int(j, l->procs[i].pid);
		JB(j, ",\"comm\":");
		jb_str(j, l->procs[i].comm);
		JB(j, "}");
	}
	JB(j, "],\"offsets\":[");
	for (int i = 0; i < l->nwords && i < SHARING_WORDS; i++) {
		const struct sharing_word *w = &l->words[i];

		if (i)
			JB(j, ",");
		JB(j, "{\"offset\":");
		jb_int(j, w->offset);
		JB(j, ",\"reads\":");
		jb_num(j, w->reads);
		JB(j, ",\"writes\":");
		jb_num(j, w->writes);
		JB(j, ",\"tids\":[");
		for (int t = 0; t < w->ntids && t < SHARING_TIDS; t++) {
			if (t)
				JB(j, ",");
			jb_int(j, w->tids[t]);
		}
		JB(j, "],\"ip\":");
		jb_hex(j, w->top_ip);
		JB(j, ",\"symbol\":");
		jb_str_or_null(j, w->symbol);
		JB(j, "}");
	}
	JB(j, "],\"top_ip\":");
	jb_hex(j, l->top_ip);
	JB(j, ",\"top_symbol\":");
	jb_str_or_null(j, l->top_symbol);
	JB(j, "}");
}

/* The "sharing" object: the interval's contended lines, or why there are none. */
static void json_sharing(FILE *f, struct jb *j, const struct sharing_frame *s)
{
	JB(j, ",\"sharing\":{");
	jb_reason(j, s->supported, s->supported ? NULL : s->reason, NULL);
	JB(j, ",\"samples\":");
	jb_int(j, (long long)s->samples);
	JB(j, ",\"lost\":");
	jb_int(j, (long long)s->lost);
	JB(j, ",\"throttled\":");
	jb_int(j, (long long)s->throttled);
	JB(j, ",\"period\":");
	jb_int(j, (long long)s->period);
	JB(j, ",\"hitm_lower_bound\":");
	if (!s->supported)
		JB(j, "null");
	else if (s->hitm_lower_bound)
		JB(j, "true");
	else
		JB(j, "false");
	JB(j, ",\"lines\":[");
	for (int i = 0; i < s->nlines && i < SHARING_TOP; i++) {
		if (i)
			JB(j, ",");
		json_line(j, &s->line[i]);
		if (j->n > sizeof(j->b) - JB_CPU_MAX)
			jb_flush(f, j);
	}
	JB(j, "]}");
}

static void write_json(FILE *f, const struct report *r)
{
	static struct jb j;

	pthread_once(&jp_once, json_prog_init);
	fputs("{\"source\":", f);
	report_json_str(f, r->source);
	fputs(",\"backend\":", f);
	report_json_str(f, report_backend(r->source));
	fputs(",\"cpu\":", f);
	report_detect_json(f, r->desc);
	fprintf(f, ",\"interval_s\":%.6g,\"time\":%.3f,\"cpus\":[", r->interval_s, r->time);
	for (int i = 0; i < r->ncpu; i++) {
		const struct row *c = &r->cpu[i];
		bool first = true;

		if (i)
			JB(&j, ",");
		JB(&j, "{");
		for (int k = 0; k < COL__COUNT; k++) {
			if (columns[k].kind != CK_ID || !(columns[k].flags & COL_F_JSON))
				continue;
			if (!first)
				JB(&j, ",");
			first = false;
			jb_col_key(&j, k);
			jb_int(&j, k == COL_CPU ? c->cpu : k == COL_CORE ? c->core : c->package);
		}
		if (c->core_type) {
			JB(&j, ",\"core_type\":");
			jb_str(&j, c->core_type);
		}
		if (c->ok) {
			JB(&j, ",\"online\":true");
		} else {
			JB(&j, ",\"online\":false,\"error\":");
			jb_str(&j, c->error);
		}
		json_metrics(&j, &c->m, &r->total, false);
		JB(&j, "}");
		if (j.n > sizeof(j.b) - JB_CPU_MAX)
			jb_flush(f, &j);
	}
	jb_flush(f, &j);        /* room for the total and the note */
	JB(&j, "],\"total\":{");
	json_metrics(&j, &r->total, NULL, true);
	JB(&j, "}");
	if (r->sharing || !strcmp(report_backend(r->source), "msr")) {
		static struct sharing_frame msr_frame;

		/* The msr backend never has lines: said by its source, live and replayed alike. */
		if (!r->sharing && !msr_frame.reason[0])
			snprintf(msr_frame.reason, sizeof(msr_frame.reason), "%s", REPORT_SHARING_WHY_MSR);
		jb_flush(f, &j);
		json_sharing(f, &j, r->sharing ? r->sharing : &msr_frame);
	}
	if (r->note) {
		JB(&j, ",\"note\":");
		jb_str(&j, r->note);
	}
	JB(&j, "}\n");
	jb_flush(f, &j);
}

/* Is field @c shown in this report (--show, --hide)? */
static bool report_shows(const struct report *r, const struct column *c)
{
	return !(r->hidden & COL_BIT(columns_id(c)));
}

/* The identity cells of a row: @cpu "total" for the total, @core < 0 there. */
struct report_id {
	double time;
	const char *cpu;
	int core, package;
	const char *core_type;          /* a hybrid part's row: its core type; NULL otherwise */
};

static void csv_row(FILE *f, const struct report *r, const struct report_id *id,
		    const struct metrics *m)
{
	bool first = true;
	char buf[32];

	for (int i = 0; i < COL__COUNT; i++) {
		const struct column *c = &columns[i];
		int n = c->kind == CK_LIST ? m->lat.nthresh : 1;

		if (!columns_in(c, COL_OUT_CSV) || !report_shows(r, c))
			continue;
		for (int k = 0; k < n; k++) {
			if (!first)
				fputc(',', f);
			first = false;
			if (c->kind != CK_ID) {
				if (numfmt(buf, columns_value(c, m, k), 6))
					fputs(buf, f);
			} else if (i == COL_TIME) {
				fprintf(f, "%.3f", id->time);
			} else if (i == COL_CPU) {
				fputs(id->cpu, f);
			} else if (id->core >= 0) {
				fprintf(f, "%d", i == COL_CORE ? id->core : id->package);
			}
		}
	}
	/* A hybrid part: the core type last, "" in the total. */
	if (r->desc && r->desc->hybrid)
		fprintf(f, ",%s", id->core_type ? id->core_type : "");
	fputc('\n', f);
}

/*
 * The header names the JSON keys with their section (snoop.hitm_per_sec);
 * a list's columns add the threshold (load_latency.above_share.128).
 */
static void csv_head(FILE *f, const struct report *r)
{
	const struct metrics *t = &r->total;
	bool sep = false;

	for (int i = 0; i < COL__COUNT; i++) {
		const struct column *c = &columns[i];
		int n = c->kind == CK_LIST ? t->lat.nthresh : 1;
		char h[96];

		if (!columns_in(c, COL_OUT_CSV) || !report_shows(r, c))
			continue;
		for (int k = 0; k < n; k++) {
			columns_csv_head(c, c->kind == CK_LIST ? t->lat.thresholds[k] : 0, h, sizeof(h));
			fprintf(f, "%s%s", sep ? "," : "", h);
			sep = true;
		}
	}
	if (r->desc && r->desc->hybrid)
		fputs(",core_type", f);
	fputc('\n', f);
}

bool report_csv_new_head(const struct report *r, char **last)
{
	char *head = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&head, &len);

	if (!m)
		return *last == NULL;
	csv_head(m, r);
	if (fclose(m) != 0 || !head) {
		free(head);
		return *last == NULL;
	}
	if (*last && !strcmp(*last, head)) {
		free(head);
		return false;
	}
	free(*last);
	*last = head;
	return true;
}

static void write_csv(FILE *f, const struct report *r, bool first)
{
	const struct metrics *t = &r->total;
	struct report_id id = { r->time, NULL, -1, -1, NULL };
	char cpu[16];

	if (first)
		csv_head(f, r);
	for (int i = 0; i < r->ncpu; i++) {
		snprintf(cpu, sizeof(cpu), "%d", r->cpu[i].cpu);
		id.cpu = cpu;
		id.core = r->cpu[i].core;
		id.package = r->cpu[i].package;
		id.core_type = r->cpu[i].core_type;
		csv_row(f, r, &id, &r->cpu[i].m);
	}
	id.cpu = "total";
	id.core = id.package = -1;
	id.core_type = NULL;
	csv_row(f, r, &id, t);
}

/* ---- text ---- */

/* The text columns of this report: shown, and present for these totals. */
static bool text_shows(const struct report *r, const struct column *c)
{
	return columns_in(c, COL_OUT_TEXT) && report_shows(r, c) && columns_present(c, &r->total);
}

/*
 * One line: the label cells (CPU, Core) left-aligned in @wc and @wk, each
 * number right-aligned in its width, one blank between cells.  @m NULL:
 * the header.  @off: the row of a CPU not read, with its error.
 */
static void text_line(FILE *f, const struct report *r, int wc, int wk, const char *cpu,
		      const char *core, const struct metrics *m, const char *off)
{
	const struct metrics *t = &r->total;
	bool first = true;
	char b[32];

	for (int i = 0; i < COL__COUNT; i++) {
		const struct column *c = &columns[i];
		int n = c->kind == CK_LIST ? t->lat.nthresh : 1;

		if (!text_shows(r, c) || (off && c->kind != CK_ID))
			continue;
		for (int k = 0; k < n; k++) {
			const char *cell = b;

			if (c->kind == CK_ID)
				cell = i == COL_CPU ? cpu : core;
			else if (!m && c->kind == CK_LIST)
				snprintf(b, sizeof(b), c->text.head, t->lat.thresholds[k]);
			else if (!m)
				cell = c->text.head;
			else
				columns_cell(c, &c->text, m, k, b, sizeof(b));
			fprintf(f, c->text.fmt == CF_LEFT ? "%s%-*s" : "%s%*s", first ? "" : " ",
				c->text.fmt == CF_LEFT ? (i == COL_CPU ? wc : wk) : c->text.width, cell);
			first = false;
		}
	}
	if (off)
		fprintf(f, "%soffline or unreadable: %s", first ? "" : " ", off);
	fputc('\n', f);
}

/* Lines under the table: what is estimated, what is not measured and why. */
static void text_notes(FILE *f, const struct metrics *t)
{
	/* The bounds rounded outward: what is printed still holds the mean. */
	if (t->lat.supported && !t->lat.tagged_reason && metrics_mean_open(t))
		fprintf(f, "load latency: >N are estimates: the share of tagged loads slower than N "
			"times Loads/s; ~Mean is at least %.0f cycles (total), with no upper bound: "
			"%.3g%% of tagged loads are slower than %u cycles, by an amount not measured\n",
			floor(t->lat.mean_cycles_min + 1e-6),
			100 * t->lat.above_share[t->lat.nthresh - 1],
			t->lat.thresholds[t->lat.nthresh - 1]);
	else if (t->lat.supported && !t->lat.tagged_reason && !isnan(t->lat.mean_cycles_min))
		fprintf(f, "load latency: >N are estimates: the share of tagged loads slower than N "
			"times Loads/s; ~Mean lies in %.0f..%.0f cycles (total)\n",
			floor(t->lat.mean_cycles_min + 1e-6), ceil(t->lat.mean_cycles_max - 1e-6));
	if (!t->lat.supported)
		fprintf(f, "load latency: not measured: %s\n", t->lat.reason);
	else if (t->lat.tagged_reason)
		fprintf(f, "load latency: >N and ~Mean not measured: %s\n", t->lat.tagged_reason);
	else if (t->lat.loads_reason)
		fprintf(f, "load latency: Loads/s and >N not measured: %s\n", t->lat.loads_reason);
	if (!t->snoop.supported) {
		fprintf(f, "snoop: not measured: %s\n", t->snoop.reason);
		/* HITM not measured for a reason of its own (Crestmont through perf) */
		if (t->snoop.reason && t->snoop.hitm_reason && strcmp(t->snoop.reason, t->snoop.hitm_reason))
			fprintf(f, "snoop HITM: not measured: %s\n", t->snoop.hitm_reason);
	} else if (t->snoop.hit_scope && t->snoop.hitm_scope && strcmp(t->snoop.hit_scope, t->snoop.hitm_scope))
		fprintf(f, "snoop: Hit/s counts hits in %s, HITM/s in %s\n",
			!strcmp(t->snoop.hit_scope, "other_module") ? "other modules only" : "other cores",
			!strcmp(t->snoop.hitm_scope, "other_module") ? "other modules only"
								     : "any other core, the module partner's too");
	/* One of the two not measured where the other is (Tiger Lake's HITM) */
	if (t->snoop.supported && t->snoop.hit_reason)
		fprintf(f, "snoop hits: not measured: %s\n", t->snoop.hit_reason);
	if (t->snoop.supported && t->snoop.hitm_reason)
		fprintf(f, "snoop HITM: not measured: %s\n", t->snoop.hitm_reason);
	if (!t->snoop.remote.supported)
		fprintf(f, "snoop, other packages: not measured: %s\n", t->snoop.remote.reason);
	if (!t->off.supported)
		fprintf(f, "offcore: not measured: %s\n", t->off.reason);
	else if (t->off.latency_reason)
		fprintf(f, "offcore latency: not measured: %s\n", t->off.latency_reason);
}

/*
 * A hybrid part's rows of a core type that cannot measure what the total
 * does (the E-cores' offcore latency, Lunar Lake's Skymont snoops): the
 * reason under the table, once for each, where the total's notes say
 * nothing of it.  "on the E-cores" from the rows' own mark.
 */
static void text_type_notes(FILE *f, const struct report *r, const struct metrics *t)
{
	const char *seen[16];
	int nseen = 0;

	for (int i = 0; i < r->ncpu; i++) {
		const struct row *w = &r->cpu[i];
		const struct metrics *m = &w->m;
		struct { bool miss; const char *what, *why; } k[] = {
			{ t->lat.supported && !m->lat.supported, "load latency", m->lat.reason },
			{ t->snoop.supported && !m->snoop.supported, "snoop", m->snoop.reason },
			{ t->snoop.supported && m->snoop.supported && !t->snoop.hitm_reason &&
			  m->snoop.hitm_reason, "snoop HITM", m->snoop.hitm_reason },
			{ t->snoop.supported && m->snoop.supported && !t->snoop.hit_reason &&
			  m->snoop.hit_reason, "snoop hits", m->snoop.hit_reason },
			{ t->off.supported && !m->off.supported, "offcore", m->off.reason },
		};

		if (!w->ok || !w->core_type)
			continue;
		for (size_t j = 0; j < sizeof(k) / sizeof(k[0]); j++) {
			int n;

			if (!k[j].miss || !k[j].why)
				continue;
			for (n = 0; n < nseen && strcmp(seen[n], k[j].why); n++)
				;
			if (n < nseen || nseen == (int)(sizeof(seen) / sizeof(seen[0])))
				continue;
			seen[nseen++] = k[j].why;
			fprintf(f, "%s on the %s-cores: not measured: %s\n", k[j].what, row_type_mark(w),
				k[j].why);
		}
	}
}

/*
 * The contended lines under the CPU table: the counts of the interval,
 * then the costliest lines (by HITM/s), one row a line, the columns of
 * the lines' table (sharecols.c).  Nothing when the run does not sample.
 */
#define TEXT_LINES 10

static int text_line_cmp(const void *a, const void *b)
{
	return shcols_cmp(SHC_HITM, false, *(const struct sharing_line *const *)a,
			  *(const struct sharing_line *const *)b);
}

static void text_sharing(FILE *f, const struct sharing_frame *fr)
{
	const struct sharing_line *top[SHARING_TOP];
	int n = fr->nlines < SHARING_TOP ? fr->nlines : SHARING_TOP;
	bool phys = shcols_phys(fr);
	char counts[160], b[SHARING_SYM + 32];

	if (!fr->supported) {
		fprintf(f, "contended lines: not measured: %s\n", fr->reason);
		return;
	}
	shcols_counts(fr, counts, sizeof(counts));
	fprintf(f, "contended lines: %s%s\n", n > 0 ? "" : "none; ", counts);
	if (n <= 0)
		return;
	for (int i = 0; i < n; i++)
		top[i] = &fr->line[i];
	qsort(top, (size_t)n, sizeof(*top), text_line_cmp);
	if (n > TEXT_LINES)
		n = TEXT_LINES;
	for (int i = -1; i < n; i++) {
		bool first = true;

		for (int c = 0; c < SHC__COUNT; c++) {
			const struct shcol *k = &shcols[c];

			if (k->phys && !phys)
				continue;
			if (i < 0)
				snprintf(b, sizeof(b), "%s", k->head);
			else
				shcols_cell(fr, (enum shcol_id)c, top[i], b, sizeof(b));
			if (c == SHC__COUNT - 1)
				fprintf(f, "%s%s", first ? "" : " ", b);
			else
				fprintf(f, k->left ? "%s%-*s" : "%s%*s", first ? "" : " ", k->width, b);
			first = false;
		}
		fputc('\n', f);
	}
}

static void write_text(FILE *f, const struct report *r)
{
	const struct metrics *t = &r->total;
	time_t now = (time_t)r->time;
	char when[32], core[24];
	struct tm tm;

	/* CPU and Core columns: as wide as their header, wider from CPU or core 1000 on */
	int wc = columns[COL_CPU].text.width, wk = columns[COL_CORE].text.width;

	for (int i = 0; i < r->ncpu; i++) {
		int a = snprintf(core, sizeof(core), "%d", r->cpu[i].cpu);
		int b = snprintf(core, sizeof(core), "%d/%d", r->cpu[i].package, r->cpu[i].core);

		wc = a > wc ? a : wc;
		wk = b > wk ? b : wk;
	}
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(f, "lattop: %s%s, %s, interval %.2f s, %s%s\n",
		report_simulated(r->source) ? "SIMULATED " : "", r->desc->uarch->pretty,
		r->desc->id.brand[0] ? r->desc->id.brand : "?", r->interval_s, when,
		strcmp(report_backend(r->source), "perf") ? "" : ", through perf_event_open(2)");
	text_line(f, r, wc, wk, columns[COL_CPU].text.head, columns[COL_CORE].text.head, NULL, NULL);
	for (int i = 0; i < r->ncpu; i++) {
		char id[16];

		snprintf(id, sizeof(id), "%d%s", r->cpu[i].cpu, row_type_mark(&r->cpu[i]));
		snprintf(core, sizeof(core), "%d/%d", r->cpu[i].package, r->cpu[i].core);
		text_line(f, r, wc, wk, id, core, &r->cpu[i].m,
			  r->cpu[i].ok ? NULL : r->cpu[i].error ? r->cpu[i].error : "?");
	}
	text_line(f, r, wc, wk, "total", "", t, NULL);
	text_notes(f, t);
	text_type_notes(f, r, t);
	if (r->sharing)
		text_sharing(f, r->sharing);
	if (r->note)
		fprintf(f, "note: %s\n", r->note);
}

int report_write(FILE *f, enum report_format fmt, const struct report *r, bool first)
{
	switch (fmt) {
	case FORMAT_JSON:
		write_json(f, r);
		break;
	case FORMAT_CSV:
		write_csv(f, r, first);
		break;
	case FORMAT_TEXT:
		if (!first)
			fputc('\n', f);
		write_text(f, r);
		break;
	}
	fflush(f);
	return ferror(f) ? -1 : 0;
}
