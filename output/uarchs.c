/*
 * uarchs.c: --list-uarchs, the supported microarchitectures as text or
 * JSON, read from the tables: uarch_supported[] and its struct uarch facts,
 * the model table (uarch_models[]), and each event table's rows and
 * unsupported reasons (through uarch_metric_status()).
 *
 * Owns uarchs_write().  Knows no microarchitecture by name: a family added
 * to cpu/uarch.c appears here unchanged.  Must not touch a device.
 */
#include <stdio.h>
#include <string.h>

#include "cpu/events.h"
#include "cpu/uarch.h"
#include "output/report.h"
#include "output/uarchs.h"

static const char *const scope_names[] = {
	[OFFCORE_THREAD] = "thread",
	[OFFCORE_CORE]   = "core",
	[OFFCORE_MODULE] = "module",
};

/* The model-table row of @u after @m (the first with NULL), or NULL. */
static const struct uarch_model *next_model(const struct uarch *u, const struct uarch_model *m)
{
	for (m = m ? m + 1 : uarch_models; m->vendor; m++)
		if (m->uarch == u)
			return m;
	return NULL;
}

/* "06_3F" */
static void model_id(const struct uarch_model *m, char *buf, size_t len)
{
	snprintf(buf, len, "%02X_%02X", m->family, m->model);
}

/* @flags as names joined by @sep ("remote_events"), "" when none. */
static void flag_list(unsigned flags, const char *sep, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned b = 0; b < UARCH_F__COUNT && used < len; b++) {
		int n;

		if (!(flags & (1u << b)))
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used ? sep : "", pmu_flag_name(1u << b));
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

static void json_flags(FILE *f, unsigned flags)
{
	bool first = true;

	fputc('[', f);
	for (unsigned b = 0; b < UARCH_F__COUNT; b++) {
		if (!(flags & (1u << b)))
			continue;
		fputs(first ? "" : ",", f);
		report_json_str(f, pmu_flag_name(1u << b));
		first = false;
	}
	fputc(']', f);
}

/* The models of @u that have every flag of @flags, as "06_3F 06_4F". */
static void models_with(const struct uarch *u, unsigned flags, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const struct uarch_model *m = next_model(u, NULL); m && used < len; m = next_model(u, m)) {
		char id[16];
		int n;

		if ((m->flags & flags) != flags)
			continue;
		model_id(m, id, sizeof(id));
		n = snprintf(buf + used, len - used, "%s%s", used ? " " : "", id);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

static void json_models_with(FILE *f, const struct uarch *u, unsigned flags)
{
	bool first = true;

	fputc('[', f);
	for (const struct uarch_model *m = next_model(u, NULL); m; m = next_model(u, m)) {
		char id[16];

		if ((m->flags & flags) != flags)
			continue;
		model_id(m, id, sizeof(id));
		fputs(first ? "" : ",", f);
		report_json_str(f, id);
		first = false;
	}
	fputc(']', f);
}

static void json_metrics_of(FILE *f, const struct uarch *u);
static void json_core_types(FILE *f, const struct uarch *u);

static void write_json(FILE *f)
{
	fputc('[', f);
	for (const struct uarch *const *up = uarch_supported; *up; up++) {
		const struct uarch *u = *up;
		bool first = true;

		fputs(up == uarch_supported ? "{" : ",{", f);
		fputs("\"name\":", f);
		report_json_str(f, u->name);
		fputs(",\"pretty\":", f);
		report_json_str(f, u->pretty);
		fputs(",\"pmu_table\":", f);
		report_json_str(f, u->table->name);
		fputs(",\"models\":[", f);
		for (const struct uarch_model *m = next_model(u, NULL); m; m = next_model(u, m)) {
			char id[16];

			model_id(m, id, sizeof(id));
			fprintf(f, "%s{\"vendor\":", first ? "" : ",");
			report_json_str(f, m->vendor);
			fprintf(f, ",\"family\":%u,\"model\":%u,\"id\":", m->family, m->model);
			report_json_str(f, id);
			fputs(",\"flags\":", f);
			json_flags(f, m->flags);
			fputs(",\"source\":", f);
			report_json_str(f, m->source);
			fputc('}', f);
			first = false;
		}
		fprintf(f, "],\"leaf_0xa\":{\"min_version\":%u,\"min_gp_counters\":%u,"
			"\"gp_width\":%u,\"min_fixed_counters\":%u}",
			u->min_version, u->gp_needed, u->gp_width, uarch_fixed_needed(u));
		fprintf(f, ",\"offcore_msrs\":%u,\"offcore_scope\":", u->offcore_msrs);
		report_json_str(f, scope_names[u->offcore_scope]);
		fputs(",\"flags\":", f);
		json_flags(f, u->flags);
		json_metrics_of(f, u);
		json_core_types(f, u);
		fputs("}", f);
	}
	fputs("]\n", f);
}

/* A hybrid part's core types: what each measures ("core_types", [] when not hybrid). */
static void json_core_types(FILE *f, const struct uarch *u)
{
	const struct uarch *t;
	char models[64];
	uint8_t type;

	fputs(",\"core_types\":[", f);
	for (size_t i = 0; (t = uarch_core_type(u, i, &type)); i++) {
		fputs(i ? ",{\"type\":" : "{\"type\":", f);
		report_json_str(f, core_type_name(type));
		fputs(",\"microarch\":", f);
		report_json_str(f, t->name);
		uarch_core_type_models(u, t, type, models, sizeof(models));
		fputs(",\"models\":[", f);
		for (char *p = models, *e; *p; p = *e ? e + 1 : e) {
			e = p + strcspn(p, " ");
			fprintf(f, "%s\"%.*s\"", p == models ? "" : ",", (int)(e - p), p);
		}
		fputs("],\"pmu_table\":", f);
		if (t->table) {
			report_json_str(f, t->table->name);
			json_metrics_of(f, t);
		} else {
			fputs("null,\"reason\":", f);
			report_json_str(f, t->why_not);
		}
		fputc('}', f);
	}
	fputc(']', f);
}

/* ,"metrics":[...] of @u. */
static void json_metrics_of(FILE *f, const struct uarch *u)
{
		fputs(",\"metrics\":[", f);
		for (int mi = 0; mi < M__COUNT; mi++) {
			struct uarch_metric st;

			uarch_metric_status(u, (enum metric)mi, &st);
			fputs(mi ? ",{\"metric\":" : "{\"metric\":", f);
			report_json_str(f, metric_name((enum metric)mi));
			fprintf(f, ",\"measured\":%s", st.measured ? "true" : "false");
			if (st.measured) {
				fputs(",\"needs\":", f);
				json_flags(f, st.model_flags);
				fputs(",\"models\":", f);
				json_models_with(f, u, st.model_flags);
				fprintf(f, ",\"packages\":%u,\"scope\":", st.packages);
				if (snoop_scope_name((enum snoop_scope)st.scope))
					report_json_str(f, snoop_scope_name((enum snoop_scope)st.scope));
				else
					fputs("null", f);
				fputs(",\"reason\":null}", f);
			} else {
				fputs(",\"needs\":[],\"models\":[],\"packages\":null,\"scope\":null,"
				      "\"reason\":", f);
				report_json_str(f, st.reason);
				fputc('}', f);
			}
		}
		fputc(']', f);
}

/* The text columns of the metric rows, in order. */
enum { UM_METRIC, UM_MEASURED, UM_NEEDS, UM__N };
static const char *const um_head[UM__N] = { "metric", "measured", "detail" };

static void metric_cells(const struct uarch *u, enum metric m, char c[UM__N][256])
{
	struct uarch_metric st;
	char flags[64], models[128];

	uarch_metric_status(u, m, &st);
	snprintf(c[UM_METRIC], 256, "%s", metric_name(m));
	snprintf(c[UM_MEASURED], 256, "%s", st.measured ? "yes" : "no");
	if (!st.measured) {
		snprintf(c[UM_NEEDS], 256, "%s", st.reason);
		return;
	}
	flag_list(st.model_flags, ",", flags, sizeof(flags));
	models_with(u, st.model_flags, models, sizeof(models));
	if (st.model_flags && st.packages > 1)
		snprintf(c[UM_NEEDS], 256, "%s (models %s) and %u packages", flags, models,
			 st.packages);
	else if (st.model_flags)
		snprintf(c[UM_NEEDS], 256, "%s (models %s)", flags, models);
	else if (st.packages > 1)
		snprintf(c[UM_NEEDS], 256, "%u packages", st.packages);
	else
		snprintf(c[UM_NEEDS], 256, "-");
}

/* The metric rows of @u, columns @w wide. */
static void text_metrics(FILE *f, const struct uarch *u, const int *w)
{
	for (int mi = 0; mi < M__COUNT; mi++) {
		char c[UM__N][256];

		metric_cells(u, (enum metric)mi, c);
		for (int k = 0; k < UM__N - 1; k++)
			fprintf(f, "%-*s ", w[k], c[k]);
		fprintf(f, "%s\n", c[UM__N - 1]);
	}
}

static void write_text(FILE *f)
{
	int w[UM__N];

	/* Every block's columns as wide as the widest cell of any block. */
	for (int k = 0; k < UM__N; k++)
		w[k] = (int)strlen(um_head[k]);
	for (const struct uarch *const *up = uarch_supported; *up; up++)
		for (int mi = 0; mi < M__COUNT; mi++) {
			char c[UM__N][256];

			metric_cells(*up, (enum metric)mi, c);
			for (int k = 0; k < UM__N - 1; k++)
				if ((int)strlen(c[k]) > w[k])
					w[k] = (int)strlen(c[k]);
		}
	for (const struct uarch *const *up = uarch_supported; *up; up++) {
		const struct uarch *u = *up, *t;
		char flags[64];
		uint8_t type;

		fprintf(f, "%s# %s (%s): %s table\n", up == uarch_supported ? "" : "\n", u->name,
			u->pretty, u->table->name);
		fputs("# models:", f);
		for (const struct uarch_model *m = next_model(u, NULL); m; m = next_model(u, m)) {
			char id[16];

			model_id(m, id, sizeof(id));
			flag_list(m->flags, "+", flags, sizeof(flags));
			fprintf(f, " %s%s%s", id, flags[0] ? "+" : "", flags);
		}
		flag_list(u->flags, ", ", flags, sizeof(flags));
		fprintf(f, "\n# leaf 0xA: perfmon version %u or later, %u or more general-purpose "
			"counters of %u bits, %u or more fixed counters\n", u->min_version,
			u->gp_needed, u->gp_width, uarch_fixed_needed(u));
		fprintf(f, "# offcore: %u MSR_OFFCORE_RSP_x per %s; flags: %s\n", u->offcore_msrs,
			scope_names[u->offcore_scope], flags[0] ? flags : "-");
		for (int k = 0; k < UM__N - 1; k++)
			fprintf(f, "%-*s ", w[k], um_head[k]);
		fprintf(f, "%s\n", um_head[UM__N - 1]);
		text_metrics(f, u, w);
		/* A hybrid part: what each core type measures, on its CPUs. */
		for (size_t i = 0; (t = uarch_core_type(u, i, &type)); i++) {
			char models[64];

			uarch_core_type_models(u, t, type, models, sizeof(models));
			if (!t->table) {
				fprintf(f, "# core type %s: %s (%s), models %s: not supported: %s\n",
					core_type_name(type), t->name, t->pretty, models, t->why_not);
				continue;
			}
			fprintf(f, "# core type %s: %s (%s), models %s: %s table\n", core_type_name(type),
				t->name, t->pretty, models, t->table->name);
			text_metrics(f, t, w);
		}
	}
}

void uarchs_write(FILE *f, enum report_format fmt)
{
	if (fmt == FORMAT_JSON)
		write_json(f);
	else
		write_text(f);
}
