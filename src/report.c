/*
 * report.c: text, csv and json writers (see report.h).
 *
 * NAN means "not measured": null in JSON, an empty field in CSV, "-" in
 * text.  Text uses SI suffixes for readability; CSV and JSON carry the
 * full numbers.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "src/numfmt.h"
#include "src/report.h"

void report_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
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
	if (d->uarch->table)
		report_json_str(f, d->uarch->table->name);
	else
		fputs("null", f);
	fprintf(f, ",\"supported\":%s", d->supported ? "true" : "false");
	if (!d->supported) {
		fputs(",\"reason\":", f);
		report_json_str(f, d->reason);
	}
	fprintf(f, ",\"pmu\":{\"version\":%u,\"gp_counters\":%u,\"gp_width\":%u,"
		"\"fixed_counters\":%u,\"fixed_width\":%u}}",
		c->version, c->gp_counters, c->gp_width, c->fixed_counters, c->fixed_width);
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
	fprintf(f, "pmu table:   %s\n", d->uarch->table ? d->uarch->table->name : "-");
	fprintf(f, "perfmon:     version %u, %u general-purpose counters x %u bits, "
		"%u fixed x %u bits\n", c->version, c->gp_counters, c->gp_width,
		c->fixed_counters, c->fixed_width);
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

/* The text columns of --list-events, in order. */
enum { EV_NAME, EV_METRIC, EV_CTR, EV_SEL, EV_MSR, EV_RSP, EV_LDLAT, EV_PEBS, EV_SLOT, EV__N };
static const char *const ev_head[EV__N] = {
	"event", "metric", "counter", "perfevtsel", "rsp", "offcore_rsp", "ldlat", "pebs_enable",
	"slot",
};

/* One event's cells as text: "-" where a register is not used. */
static void event_cells(const struct plan *pl, const struct plan_unit *u, int j,
			char c[EV__N][64])
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
			 (1ull << u->ctr[j]) | (1ull << (32 + u->ctr[j])));
	} else {
		snprintf(c[EV_LDLAT], 64, "-");
		snprintf(c[EV_PEBS], 64, "-");
	}
	if (u->fixed)
		snprintf(c[EV_SLOT], 64, "all");
	else
		snprintf(c[EV_SLOT], 64, "%d of %d", u->nslots, pl->nslots);
}

void report_events(FILE *f, enum report_format fmt, const struct cpu_desc *d,
		   const struct plan *pl)
{
	bool first = true;
	int w[EV__N];

	/* Text: each column as wide as its widest cell, so that long names stay in line. */
	for (int k = 0; k < EV__N; k++)
		w[k] = (int)strlen(ev_head[k]);
	for (int ui = 0; ui < pl->nunits; ui++)
		for (int j = 0; j < pl->unit[ui].nrows; j++) {
			char c[EV__N][64];

			event_cells(pl, &pl->unit[ui], j, c);
			for (int k = 0; k < EV__N; k++)
				if ((int)strlen(c[k]) > w[k])
					w[k] = (int)strlen(c[k]);
		}
	if (fmt == FORMAT_JSON) {
		fputs("{\"microarch\":", f);
		report_json_str(f, d->uarch->name);
		fputs(",\"pmu_table\":", f);
		report_json_str(f, d->uarch->table->name);
		fputs(",\"events\":[", f);
	} else {
		fprintf(f, "# %s (%s table): %d rotation slot%s\n", d->uarch->pretty,
			d->uarch->table->name, pl->nslots, pl->nslots == 1 ? "" : "s");
		for (int k = 0; k < EV__N - 1; k++)
			fprintf(f, "%-*s ", w[k], ev_head[k]);
		fprintf(f, "%s\n", ev_head[EV__N - 1]);
	}
	for (int ui = 0; ui < pl->nunits; ui++) {
		const struct plan_unit *u = &pl->unit[ui];

		for (int j = 0; j < u->nrows; j++) {
			const struct pmu_event *e = u->row[j];
			char c[EV__N][64];
			bool msr = e->offcore != 0;

			event_cells(pl, u, j, c);
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
				fprintf(f, ",\"slots\":%d}", u->fixed ? pl->nslots : u->nslots);
			} else {
				for (int k = 0; k < EV__N - 1; k++)
					fprintf(f, "%-*s ", w[k], c[k]);
				fprintf(f, "%s\n", c[EV__N - 1]);
			}
		}
	}
	if (fmt == FORMAT_JSON) {
		int rd, wr;

		plan_floor(pl, pmu_ctr_reset_writes(d->uarch, d->id.pmu.gp_counters), &rd, &wr);
		fprintf(f, "],\"slots\":%d,\"floor\":{\"reads\":%d,\"writes\":%d}", pl->nslots, rd, wr);
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
	}
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
	j->n += (size_t)numfmt_fixed(j->b + j->n, (double)v, 0);
}

/* A JSON string, cut to JB_ROOM bytes. */
static void jb_str(struct jb *j, const char *s)
{
	size_t end = j->n + JB_ROOM - 8;

	j->b[j->n++] = '"';
	for (; s && *s && j->n < end; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\') {
			j->b[j->n++] = '\\';
			j->b[j->n++] = (char)ch;
		} else if (ch < 0x20) {
			j->n += (size_t)snprintf(j->b + j->n, 7, "\\u%04x", ch);
		} else {
			j->b[j->n++] = (char)ch;
		}
	}
	j->b[j->n++] = '"';
}

static void jb_reason(struct jb *j, bool supported, const char *reason)
{
	if (supported)
		JB(j, "\"supported\":true,\"reason\":");
	else
		JB(j, "\"supported\":false,\"reason\":");
	if (reason)
		jb_str(j, reason);
	else
		JB(j, "null");
}

/* "key":"reason" into an "unsupported" object, for each number not measured. */
static void jb_unsupported(struct jb *j, bool *first, const char *key, const char *reason)
{
	if (!reason)
		return;
	if (!*first)
		JB(j, ",");
	*first = false;
	jb_str(j, key);
	JB(j, ":");
	jb_str(j, reason);
}

static void jb_list(struct jb *j, const double *v, int n)
{
	JB(j, "[");
	for (int i = 0; i < n; i++) {
		if (i)
			JB(j, ",");
		jb_num(j, v[i]);
	}
	JB(j, "]");
}

static void json_latency(struct jb *j, const struct metrics *m)
{
	const char *tag = m->lat.tagged_reason;
	const char *est = tag ? tag : m->lat.loads_reason;
	bool first = true;

	JB(j, ",\"load_latency\":{");
	jb_reason(j, m->lat.supported, m->lat.reason);
	JB(j, ",\"unsupported\":{");
	if (m->lat.supported) {
		jb_unsupported(j, &first, "loads_per_sec", m->lat.loads_reason);
		jb_unsupported(j, &first, "tagged_per_sec", tag);
		jb_unsupported(j, &first, "above_share", tag);
		jb_unsupported(j, &first, "above_per_sec", est);
		jb_unsupported(j, &first, "mean_cycles_est", tag);
	}
	JB(j, "},\"loads_per_sec\":");
	jb_num(j, m->lat.loads_per_sec);
	JB(j, ",\"tagged_per_sec\":");
	jb_num(j, m->lat.tagged_per_sec);
	JB(j, ",\"thresholds\":[");
	for (int i = 0; i < m->lat.nthresh; i++) {
		if (i)
			JB(j, ",");
		jb_int(j, m->lat.thresholds[i]);
	}
	JB(j, "],\"above_share\":");
	jb_list(j, m->lat.above_share, m->lat.nthresh);
	JB(j, ",\"above_per_sec\":");
	jb_list(j, m->lat.above_per_sec, m->lat.nthresh);
	JB(j, ",\"mean_cycles_est\":");
	jb_num(j, m->lat.mean_cycles_est);
	JB(j, ",\"mean_cycles_min\":");
	jb_num(j, m->lat.mean_cycles_min);
	JB(j, ",\"mean_cycles_max\":");
	jb_num(j, m->lat.mean_cycles_max);
	JB(j, "}");
}

static void jb_scope(struct jb *j, const char *key, const char *scope)
{
	jb_str(j, key);
	JB(j, ":");
	if (scope)
		jb_str(j, scope);
	else
		JB(j, "null");
}

static void json_metrics(struct jb *j, const struct metrics *m)
{
	bool first = true;

	JB(j, "\"ghz\":");
	jb_num(j, m->ghz);
	JB(j, ",\"ipc\":");
	jb_num(j, m->ipc);

	json_latency(j, m);

	JB(j, ",\"snoop\":{");
	jb_reason(j, m->snoop.supported, m->snoop.reason);
	JB(j, ",\"unsupported\":{");
	if (m->snoop.supported) {
		jb_unsupported(j, &first, "hit_per_sec", m->snoop.hit_reason);
		jb_unsupported(j, &first, "hitm_per_sec", m->snoop.hitm_reason);
	}
	JB(j, "},\"hit_per_sec\":");
	jb_num(j, m->snoop.hit_per_sec);
	JB(j, ",\"hitm_per_sec\":");
	jb_num(j, m->snoop.hitm_per_sec);
	JB(j, ",");
	jb_scope(j, "hit_scope", m->snoop.hit_scope);
	JB(j, ",");
	jb_scope(j, "hitm_scope", m->snoop.hitm_scope);
	JB(j, ",\"remote\":{");
	jb_reason(j, m->snoop.remote.supported, m->snoop.remote.reason);
	JB(j, ",\"hit_per_sec\":");
	jb_num(j, m->snoop.remote.hit_per_sec);
	JB(j, ",\"hitm_per_sec\":");
	jb_num(j, m->snoop.remote.hitm_per_sec);
	JB(j, "}}");

	first = true;
	JB(j, ",\"offcore\":{");
	jb_reason(j, m->off.supported, m->off.reason);
	JB(j, ",\"unsupported\":{");
	if (m->off.supported) {
		jb_unsupported(j, &first, "avg_latency_cycles", m->off.latency_reason);
		jb_unsupported(j, &first, "avg_latency_ns", m->off.latency_reason);
	}
	JB(j, "},\"reads_per_sec\":");
	jb_num(j, m->off.reads_per_sec);
	JB(j, ",\"avg_latency_cycles\":");
	jb_num(j, m->off.avg_latency_cycles);
	JB(j, ",\"avg_latency_ns\":");
	jb_num(j, m->off.avg_latency_ns);
	JB(j, "}");
}

static void write_json(FILE *f, const struct report *r)
{
	static struct jb j;

	fputs("{\"source\":", f);
	report_json_str(f, r->source);
	fputs(",\"cpu\":", f);
	report_detect_json(f, r->desc);
	fprintf(f, ",\"interval_s\":%.6g,\"time\":%.3f,\"cpus\":[", r->interval_s, r->time);
	for (int i = 0; i < r->ncpu; i++) {
		const struct report_cpu *c = &r->cpu[i];

		if (i)
			JB(&j, ",");
		JB(&j, "{\"cpu\":");
		jb_int(&j, c->cpu);
		JB(&j, ",\"core\":");
		jb_int(&j, c->core);
		JB(&j, ",\"package\":");
		jb_int(&j, c->package);
		if (c->ok) {
			JB(&j, ",\"online\":true,");
		} else {
			JB(&j, ",\"online\":false,\"error\":");
			jb_str(&j, c->error);
			JB(&j, ",");
		}
		json_metrics(&j, &c->m);
		JB(&j, "}");
		if (j.n > sizeof(j.b) - JB_CPU_MAX)
			jb_flush(f, &j);
	}
	jb_flush(f, &j);        /* room for the total and the note */
	JB(&j, "],\"total\":{");
	json_metrics(&j, &r->total);
	JB(&j, "}");
	if (r->note) {
		JB(&j, ",\"note\":");
		jb_str(&j, r->note);
	}
	JB(&j, "}\n");
	jb_flush(f, &j);
}

static void csv_num(FILE *f, double v)
{
	char buf[32];

	fputc(',', f);
	if (numfmt(buf, v, 6))
		fputs(buf, f);
}

static void csv_row(FILE *f, const struct report *r, const char *cpu, int core, int pkg,
		    const struct metrics *m)
{
	fprintf(f, "%.3f,%s,", r->time, cpu);
	if (core >= 0)
		fprintf(f, "%d,%d", core, pkg);
	else
		fputc(',', f);
	csv_num(f, m->ghz);
	csv_num(f, m->ipc);
	csv_num(f, m->lat.loads_per_sec);
	csv_num(f, m->lat.tagged_per_sec);
	for (int i = 0; i < m->lat.nthresh; i++)
		csv_num(f, m->lat.above_share[i]);
	for (int i = 0; i < m->lat.nthresh; i++)
		csv_num(f, m->lat.above_per_sec[i]);
	csv_num(f, m->lat.mean_cycles_est);
	csv_num(f, m->lat.mean_cycles_min);
	csv_num(f, m->lat.mean_cycles_max);
	csv_num(f, m->snoop.hit_per_sec);
	csv_num(f, m->snoop.hitm_per_sec);
	csv_num(f, m->snoop.remote.hit_per_sec);
	csv_num(f, m->snoop.remote.hitm_per_sec);
	csv_num(f, m->off.reads_per_sec);
	csv_num(f, m->off.avg_latency_cycles);
	csv_num(f, m->off.avg_latency_ns);
	fputc('\n', f);
}

/*
 * The header names the JSON keys with their section (snoop.hitm_per_sec);
 * a list's columns add the threshold (load_latency.above_share.128).
 */
static void write_csv(FILE *f, const struct report *r, bool first)
{
	char id[16];

	if (first) {
		const struct metrics *t = &r->total;

		fputs("time,cpu,core,package,ghz,ipc,load_latency.loads_per_sec,"
		      "load_latency.tagged_per_sec", f);
		for (int i = 0; i < t->lat.nthresh; i++)
			fprintf(f, ",load_latency.above_share.%u", t->lat.thresholds[i]);
		for (int i = 0; i < t->lat.nthresh; i++)
			fprintf(f, ",load_latency.above_per_sec.%u", t->lat.thresholds[i]);
		fputs(",load_latency.mean_cycles_est,load_latency.mean_cycles_min,"
		      "load_latency.mean_cycles_max,snoop.hit_per_sec,snoop.hitm_per_sec,"
		      "snoop.remote.hit_per_sec,snoop.remote.hitm_per_sec,offcore.reads_per_sec,"
		      "offcore.avg_latency_cycles,offcore.avg_latency_ns\n", f);
	}
	for (int i = 0; i < r->ncpu; i++) {
		snprintf(id, sizeof(id), "%d", r->cpu[i].cpu);
		csv_row(f, r, id, r->cpu[i].core, r->cpu[i].package, &r->cpu[i].m);
	}
	csv_row(f, r, "total", -1, -1, &r->total);
}

/* "12.3M": 5 characters at most for rates, "-" when not measured. */
static const char *si(double v, char *buf, size_t len)
{
	static const char suffix[] = " kMGTP";
	int k = 0;

	if (!isfinite(v))
		return "-";
	while (fabs(v) >= 999.5 && k < 5) {
		v /= 1000;
		k++;
	}
	if (len < 32)
		return "?";
	/* Past 999P (no machine, but a damaged recording can say so): no room for the digits. */
	if (fabs(v) >= 999.5)
		return v > 0 ? ">999P" : "<-999P";
	if (k == 0)
		numfmt_fixed(buf, v, 0);
	else {
		size_t n = (size_t)numfmt_fixed(buf, v, fabs(v) < 9.95 ? 1 : 0);

		buf[n] = suffix[k];
		buf[n + 1] = 0;
	}
	return buf;
}

/* @v with @decimals decimals, "-" when not measured. */
static const char *fix(double v, int decimals, char *buf, size_t len)
{
	if (!isfinite(v) || len < 32)
		return "-";
	numfmt_fixed(buf, v, decimals);
	return buf;
}

/* The ~Mean cell: the estimate, or the range of the bounds where they are far apart. */
static const char *mean_cell(const struct metrics *m, char *buf, size_t len)
{
	char lo[32], hi[32];

	if (isnan(m->lat.mean_cycles_est) || !metrics_mean_is_range(m))
		return fix(m->lat.mean_cycles_est, 0, buf, len);
	snprintf(buf, len, "%s-%s", si(m->lat.mean_cycles_min, lo, sizeof(lo)),
		 si(m->lat.mean_cycles_max, hi, sizeof(hi)));
	return buf;
}

static void text_row(FILE *f, int wc, int wk, const char *cpu, const char *core,
		     const struct metrics *m, bool remote)
{
	char b[12][32];

	fprintf(f, "%-*s %-*s %5s %5s %7s", wc, cpu, wk, core, fix(m->ghz, 2, b[0], 32),
		fix(m->ipc, 2, b[1], 32), si(m->lat.loads_per_sec, b[2], 32));
	for (int i = 0; i < m->lat.nthresh; i++)
		fprintf(f, " %6s", si(m->lat.above_per_sec[i], b[3], 32));
	fprintf(f, " %9s %7s %7s", mean_cell(m, b[4], 32),
		si(m->snoop.hit_per_sec, b[5], 32), si(m->snoop.hitm_per_sec, b[6], 32));
	if (remote)
		fprintf(f, " %7s %7s", si(m->snoop.remote.hit_per_sec, b[10], 32),
			si(m->snoop.remote.hitm_per_sec, b[11], 32));
	fprintf(f, " %7s %7s %6s\n", si(m->off.reads_per_sec, b[7], 32),
		fix(m->off.avg_latency_cycles, 0, b[8], 32), fix(m->off.avg_latency_ns, 1, b[9], 32));
}

/* Lines under the table: what is estimated, what is not measured and why. */
static void text_notes(FILE *f, const struct metrics *t)
{
	if (t->lat.supported && !t->lat.tagged_reason && !isnan(t->lat.mean_cycles_min))
		fprintf(f, "load latency: >N are estimates: the share of tagged loads slower than N "
			"times Loads/s; ~Mean lies in %.0f..%.0f cycles (total)\n",
			t->lat.mean_cycles_min, t->lat.mean_cycles_max);
	if (!t->lat.supported)
		fprintf(f, "load latency: not measured: %s\n", t->lat.reason);
	else if (t->lat.tagged_reason)
		fprintf(f, "load latency: >N and ~Mean not measured: %s\n", t->lat.tagged_reason);
	else if (t->lat.loads_reason)
		fprintf(f, "load latency: Loads/s and >N not measured: %s\n", t->lat.loads_reason);
	if (!t->snoop.supported)
		fprintf(f, "snoop: not measured: %s\n", t->snoop.reason);
	else if (t->snoop.hit_scope && t->snoop.hitm_scope && strcmp(t->snoop.hit_scope, t->snoop.hitm_scope))
		fprintf(f, "snoop: SnpHit counts hits in %s, HITM in %s\n",
			!strcmp(t->snoop.hit_scope, "other_module") ? "other modules only" : "other cores",
			!strcmp(t->snoop.hitm_scope, "other_module") ? "other modules only"
								     : "any other core, the module partner's too");
	if (!t->snoop.remote.supported)
		fprintf(f, "snoop, other packages: not measured: %s\n", t->snoop.remote.reason);
	if (!t->off.supported)
		fprintf(f, "offcore: not measured: %s\n", t->off.reason);
	else if (t->off.latency_reason)
		fprintf(f, "offcore latency: not measured: %s\n", t->off.latency_reason);
}

static void write_text(FILE *f, const struct report *r)
{
	const struct metrics *t = &r->total;
	time_t now = (time_t)r->time;
	char when[32], core[24];
	struct tm tm;
	bool remote = t->snoop.remote.supported;

	int wc = 5, wk = 5;     /* CPU and Core columns: wider from CPU or core 1000 on */

	for (int i = 0; i < r->ncpu; i++) {
		int a = snprintf(core, sizeof(core), "%d", r->cpu[i].cpu);
		int b = snprintf(core, sizeof(core), "%d/%d", r->cpu[i].package, r->cpu[i].core);

		wc = a > wc ? a : wc;
		wk = b > wk ? b : wk;
	}
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(f, "lattop: %s%s, %s, interval %.2f s, %s\n",
		strcmp(r->source, "simulator") ? "" : "SIMULATED ", r->desc->uarch->pretty,
		r->desc->id.brand[0] ? r->desc->id.brand : "?", r->interval_s, when);
	fprintf(f, "%-*s %-*s %5s %5s %7s", wc, "CPU", wk, "Core", "GHz", "IPC", "Loads/s");
	for (int i = 0; i < t->lat.nthresh; i++) {
		char h[16];

		snprintf(h, sizeof(h), ">%u", t->lat.thresholds[i]);
		fprintf(f, " %6s", h);
	}
	fprintf(f, " %9s %7s %7s", "~Mean", "SnpHit", "HITM");
	if (remote)
		fprintf(f, " %7s %7s", "RmtHit", "RmtHITM");
	fprintf(f, " %7s %7s %6s\n", "Reads", "OffLat", "ns");
	for (int i = 0; i < r->ncpu; i++) {
		char id[16];

		snprintf(id, sizeof(id), "%d", r->cpu[i].cpu);
		snprintf(core, sizeof(core), "%d/%d", r->cpu[i].package, r->cpu[i].core);
		if (!r->cpu[i].ok) {
			fprintf(f, "%-*s %-*s offline or unreadable: %s\n", wc, id, wk, core,
				r->cpu[i].error ? r->cpu[i].error : "?");
			continue;
		}
		text_row(f, wc, wk, id, core, &r->cpu[i].m, remote);
	}
	text_row(f, wc, wk, "total", "", t, remote);
	text_notes(f, t);
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
