/*
 * session.c: one measuring session, the program's one path from a plan to
 * the last register put back:
 *   journal lock -> probe -> plan -> save -> journal -> drop root ->
 *   program -> each interval: sample, snapshot, export, show ->
 *   restore -> journal emptied.
 * Ctrl-Z and a reader that stops reading both put every register back
 * until lattop goes on (suspend, resume); counters someone else takes are
 * given up, never fought over.  Errors go back to main as the exit status,
 * told once.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "app/app.h"
#include "cpu/perf_attr.h"
#include "output/report.h"
#include "safety/privs.h"
#include "ui/ui.h"

void session_init(struct session *s)
{
	memset(s, 0, sizeof(*s));
	s->journal.fd = s->journal.dirfd = -1;
	s->fleet.fd = -1;
}

/*
 * A crash: every register back (async-signal-safe, see signals.c); the
 * journal is emptied only when every register reads back as saved.
 */
static void session_crash(void *arg)
{
	struct session *r = arg;

	if (pmu_restore_emergency(&r->pmu) == 0 && r->journaled)
		journal_clear(&r->journal);
}

/* ---- what the plan may use, and what others hold ---- */

/* A note on the counters others hold, as one line, or NULL. */
static const char *taken_note(const struct session *r, bool caveat, char *buf, size_t len)
{
	const struct pmu *p = &r->pmu;
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; i < p->ncpu && o < len; i++) {
		const struct pmu_cpu *c = &p->cpu[i];
		char d[384];

		if (!c->gp_taken && !c->fixed_taken)
			continue;
		pmu_describe_taken(p, c, d, sizeof(d));
		if (!o)
			o += (size_t)snprintf(buf, len, "counters in use by someone else, %s, are left "
					      "alone%s: cpu %d: %s", pmu_likely_owner(c),
					      p->force ? " (no: --force took them over)" : "", c->id, d);
		else {
			int more = 0;

			for (int k = i; k < p->ncpu; k++)
				more += p->cpu[k].gp_taken || p->cpu[k].fixed_taken;
			o += (size_t)snprintf(buf + o, len - o, "; and on %d more CPU%s", more,
					      more > 1 ? "s" : "");
			break;
		}
	}
	if (r->lost[0] && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%s%s; lattop gave them up", o ? "; " : "",
				      r->lost);
	if (p->shared_note[0] && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "; " : "", p->shared_note);
	/* The HT bug: a sibling's count lattop would spoil (plan_resources_from_pmu). */
	for (int i = 0; i < p->ncpu && o < len; i++) {
		const struct pmu_cpu *c = &p->cpu[i];

		if (!c->sib_excl)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%scpu %d, the hyperthread sibling of cpu %d, "
				      "counts an event the HT erratum (%s) covers on IA32_PMC%d%s: lattop "
				      "leaves that counter idle", o ? "; " : "", c->sib_cpu, c->id,
				      r->desc.uarch->ht_erratum, __builtin_ctz(c->sib_excl),
				      c->sib_excl & (c->sib_excl - 1) ? " and others" : "");
		break;
	}
	if (p->ctr_reset_skipped && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%sthe Nehalem/Westmere counter-reset workaround "
				      "(errata AAK100/AAP53/BD53) needs PERFEVTSEL0-3 and was skipped: "
				      "counts may be affected", o ? "; " : "");
	/* What runs only where the counters it needs are free (plan.h, part units). */
	if (o < len) {
		char part[512];

		if (plan_part_note(r->plan, p, part, sizeof(part)))
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "; " : "", part);
	}
	if (caveat && r->plan->ht_caveat && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "; " : "", r->plan->ht_caveat);
	return buf[0] ? buf : NULL;
}

/* Packages of the machine (all of them, measured or not): where reads can come from. */
static unsigned count_packages(const struct msrdev *d)
{
	int max = 0;
	unsigned n = 0;
	bool *seen;

	for (int i = 0; i < d->ncpu; i++)
		if (d->cpu[i].package > max)
			max = d->cpu[i].package;
	/* Package ids are small (the kernel's physical_package_id); one flag each. */
	seen = calloc((size_t)max + 1, sizeof(*seen));
	for (int i = 0; i < d->ncpu && seen; i++) {
		int k = d->cpu[i].package;

		if (k >= 0 && !seen[k]) {
			seen[k] = true;
			n++;
		}
	}
	free(seen);
	return n ? n : 1;
}

/*
 * What the planner may use on this machine: the free counters (of the
 * CPUs of core type @type, -1: all), the model, the packages.
 */
static void resources_of(const struct session *r, int type, struct plan_resources *res)
{
	plan_resources_of_type(res, &r->pmu, type);
	res->flags = type >= 0 ? r->desc.type[type].flags : r->desc.flags;
	res->packages = count_packages(r->dev);
}

void session_core_types(struct session *r)
{
	for (int i = 0; i < r->snap.ncpu; i++) {
		int t = cpu_desc_type_of(&r->desc, r->snap.cpu[i].cpu);

		r->snap.cpu[i].core_type = t >= 0 ? core_type_row_name(&r->desc, t) : NULL;
		if (t >= 0)
			r->snap.core[r->snap.core_of[i]].core_type = r->snap.cpu[i].core_type;
	}
}

int session_plan(struct session *r, struct plan *next,
		 void (*res_of)(const struct session *, int type, struct plan_resources *),
		 char *err, size_t errlen)
{
	struct plan *set[CORE_TYPES_MAX];
	const char *names[CORE_TYPES_MAX];
	struct plan_resources res;
	int b = next == &r->plans[0] ? 0 : 1;

	if (!r->desc.ntypes) {
		res_of(r, -1, &res);
		return plan_build(next, r->desc.uarch, &res, r->opt.thresholds, r->opt.nthresh,
				  err, errlen);
	}
	for (int t = 0; t < r->desc.ntypes; t++) {
		set[t] = t ? &r->type_plans[b][t - 1] : next;
		names[t] = core_type_row_name(&r->desc, t);
		res_of(r, t, &res);
		if (plan_build(set[t], r->desc.type[t].uarch, &res, r->opt.thresholds, r->opt.nthresh,
			       err, errlen) < 0)
			return -1;
	}
	plan_link_types(set, r->desc.ntypes, names);
	return 0;
}

/* Core rows: one per (package, core), in order; computed once. */
bool session_ui_waiter(void *arg, double deadline)
{
	struct session *r = arg;

	for (;;) {
		switch (ui_wait(r->ui, deadline)) {
		case UI_QUIT:
			stop_signal = -1;
			return false;
		case UI_INTERVAL:
			/* At once: the interval under way is cut, not waited out. */
			r->opt.interval = ui_interval(r->ui);
			r->restart = true;
			return false;
		case UI_THRESHOLDS:
			r->opt.nthresh = ui_thresholds(r->ui, r->opt.thresholds, THRESH_MAX);
			r->new_thresholds = true;
			r->restart = true;
			return false;
		case UI_NONE:
		case UI_PLAY: case UI_STEP_BACK: case UI_STEP_FWD: case UI_FASTER: case UI_SLOWER:
		case UI_JUMP:           /* replay keys: not given when measuring */
			break;
		}
		if (stop_signal)
			return false;
		if (sampler_now() >= deadline)
			return true;
	}
}

/* ---- the outputs of an interval ---- */

/*
 * A report to standard output through the writer thread (outq.h): rendered
 * here, written there, so a reader that stops reading never stops the
 * sampler.  0, or -1 with errno.
 */
static int write_report(struct session *r, const struct report *rep, bool first)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int res;

	if (!m)
		return -1;
	/* csv: a header again where the columns change, as in a replay. */
	if (r->opt.format == FORMAT_CSV && report_csv_new_head(rep, &r->csv_head))
		first = true;
	res = report_write(m, r->opt.format, rep, first);
	if (fclose(m) != 0)
		res = -1;
	if (res < 0) {
		free(text);
		return res;
	}
	return outq_give(r->out, text, len);
}

/* A message of the run: on the screen's status line, else on standard error. */
static void say(struct session *r, const char *msg)
{
	if (r->ui)
		ui_message(r->ui, msg);
	else
		fprintf(stderr, "lattop: %s\n", msg);
}

/*
 * The snapshot to the recording.  A write that fails (a full disk) pauses
 * the recording, said once; each interval tries again, and the first that
 * succeeds says how many snapshots are missing.  The screen, the exporter
 * and --batch go on meanwhile.
 */
static void record_interval(struct session *r, const struct report *rep)
{
	char msg[1200];

	if (record_write(&r->rec, rep, r->rec_err, sizeof(r->rec_err)) < 0) {
		if (r->rec_lost++ == 0) {
			snprintf(msg, sizeof(msg), "recording paused until it can write again: %s",
				 r->rec_err);
			say(r, msg);
		}
		return;
	}
	if (r->rec_lost) {
		snprintf(msg, sizeof(msg), "recording again, %ld snapshot%s not recorded: --record %s",
			 r->rec_lost, r->rec_lost > 1 ? "s" : "", r->opt.record);
		say(r, msg);
		r->rec_lost = 0;
	}
}

int session_show(struct session *r, bool first, char *note, size_t notelen)
{
	struct timeval tv;
	const struct snapshot *sn = &r->snap;
	const char *n = taken_note(r, true, note, notelen);
	struct report rep = {
		.source = session_source(r),
		.desc = &r->desc,
		.interval_s = sn->interval_s,
		.ncpu = sn->ncpu,
		.cpu = sn->cpu,
		.total = sn->total,
		.note = n,
		.sharing = sn->sharing,
		.hidden = r->opt.hidden,
	};

	gettimeofday(&tv, NULL);
	rep.time = tv.tv_sec + tv.tv_usec / 1e6;
	/* The recording first: what it holds is what --batch prints from it. */
	if (r->recording)
		record_interval(r, &rep);
	if (r->ui) {
		char ui_note[1024];
		struct ui_frame f = {
			.desc = &r->desc,
			.simulated = r->sim != NULL,
			.backend = r->opt.backend == BACKEND_PERF ? "perf" : "msr",
			.interval_s = r->opt.interval,
			.measured_s = sn->interval_s,
			.time = rep.time,
			.ncpu = sn->ncpu,
			.cpu = sn->cpu,
			.ncore = sn->ncore,
			.core = sn->core,
			.total = sn->total,
			.nslots = r->plan->nslots,
			.share_lat = sn->share_lat,
			.share_snoop = sn->share_snoop,
			.share_offcore = sn->share_offcore,
			.note = taken_note(r, false, ui_note, sizeof(ui_note)),
			.off_caveat = r->plan->ht_caveat,
			.serving = r->fleet.listening ? r->fleet.where : NULL,
			.recording = r->recording ? r->opt.record : NULL,
			.recorded = r->recording ? r->rec.size : 0,
			.record_paused = r->recording && r->rec_lost > 0,
			.sharing = sn->sharing,
		};

		ui_frame(r->ui, &f);
		return 0;
	}
	if (r->quiet)
		return 0;
	/* --record without a terminal and without --batch: quietly. */
	if (r->recording && r->opt.mode == MODE_SCREEN)
		return 0;
	/* The notes on others' counters, once, where a script's reader sees them. */
	if (n && r->opt.format != FORMAT_TEXT && !r->note_told) {
		fprintf(stderr, "lattop: note: %s\n", n);
		r->note_told = true;
	}
	return write_report(r, &rep, first);
}

/* ---- a new plan, the exporter and the recorder ---- */

/*
 * A new plan from the counters free now and the thresholds asked for, in
 * use from now on.  A plan that cannot be built is told on the screen and
 * the old one stays; -1 when reprogramming failed (the caller restores).
 */
static int replan_now(struct session *r, char *err, size_t errlen)
{
	struct plan *next = r->plan == &r->plans[0] ? &r->plans[1] : &r->plans[0];

	r->new_thresholds = false;
	if (session_plan(r, next, resources_of, err, errlen) < 0) {
		if (r->ui)
			ui_message(r->ui, err);
		err[0] = 0;
		return 0;
	}
	if (sampler_replan(&r->sampler, next, err, errlen) < 0)
		return -1;
	r->plan = next;
	return 0;
}

/* The interval just computed, to Prometheus (--listen, --textfile). */
void session_export_interval(struct session *r)
{
	struct timeval tv;
	char err[512];

	if (!r->fleet.active)
		return;
	export_sharing(&r->fleet.x, r->snap.sharing);
	gettimeofday(&tv, NULL);
	if (fleet_tick(&r->fleet, r->plan, r->snap.cpu, tv.tv_sec + tv.tv_usec / 1e6, err,
		       sizeof(err)) < 0)
		say(r, err);
}

/* After root is dropped: the exporter's server, serving as the user lattop runs as. */
int session_export_start(struct session *r, char *err, size_t errlen)
{
	struct fleet_info info = {
		.microarch = r->desc.uarch->name,
		.pmu_table = cpu_desc_table(&r->desc) ? cpu_desc_table(&r->desc)->name : "",
		.source = session_source(r),
		.version = LATTOP_VERSION,
		.interval_s = r->opt.interval,
	};

	return fleet_start(&r->fleet, r->snap.cpu, r->snap.ncpu, &info, r->plan, err, errlen);
}

/* --record: the header from the CPU and the plan in use, before any register changes. */
int session_record_start(struct session *r, char *err, size_t errlen)
{
	const char *strs[M__COUNT + 2];
	struct record_head h = {
		.source = session_source(r),
		.desc = &r->desc,
		.thresholds = r->opt.thresholds,
		.nthresh = r->opt.nthresh,
		.strings = strs,
	};
	char *plan = NULL;
	size_t planlen = 0;
	FILE *f = open_memstream(&plan, &planlen);
	int rc;

	if (f) {
		report_events_backend(f, FORMAT_TEXT, &r->desc, r->plan,
				      r->opt.backend == BACKEND_PERF ? perf_attr_pmu_of(&r->desc, 0)
								     : NULL);
		fclose(f);
	}
	h.plan = plan;
	for (int m = 0; m < M__COUNT; m++)
		if (r->plan->reason[m])
			strs[h.nstrings++] = r->plan->reason[m];
	strs[h.nstrings++] = snoop_scope_name(SCOPE_OTHER_CORE);
	strs[h.nstrings++] = snoop_scope_name(SCOPE_OTHER_MODULE);
	rc = record_open(&r->rec, r->opt.record, r->opt.record_max, &h, err, errlen);
	free(plan);
	r->recording = rc == 0;
	return rc;
}

/*
 * The HT bug beside hyperthreads lattop does not measure (pmu-facts 8.9):
 * their selects read again after each interval.  A sibling that started
 * using a counter where an ht_excl row counted spoilt that count some time
 * in the interval: the CPU has no numbers for it, and why is said.  True
 * when a sibling changed at all: the caller re-plans (nothing saved
 * changed, so the journal stays).
 */
static bool siblings_changed(struct session *r)
{
	bool changed = false;

	for (int i = 0; i < r->nids; i++) {
		const struct pmu_cpu *c = &r->pmu.cpu[i];
		const struct pmu_event *e;
		gp_set newly;
		char why[256];

		if (!r->sampler.cpu[i].ok || !pmu_check_siblings(&r->pmu, i, &newly))
			continue;
		changed = true;
		if (!(e = plan_excl_row(r->plan, newly)))
			continue;
		if (c->sib_err)
			snprintf(why, sizeof(why), "cpu %d, its hyperthread sibling, can no longer be read (%s) "
				 "and may use the counter lattop counted %s on", c->sib_cpu, c->sib_err, e->name);
		else
			snprintf(why, sizeof(why), "cpu %d, its hyperthread sibling, started using the counter "
				 "lattop counted %s on", c->sib_cpu, e->name);
		snprintf(why + strlen(why), sizeof(why) - strlen(why), ": the HT erratum (%s) spoils that "
			 "count; not measured this interval, planned again", r->desc.uarch->ht_erratum);
		sampler_spoil(&r->sampler, i, why);
	}
	return changed;
}

/* ---- every register back, and again: stops and stalled readers ---- */

/*
 * What pmu_restore() could not put back exactly (@res registers, @why),
 * and when the journal keeps them (@kept) the exact command that finishes.
 */
static void not_restored(const struct session *r, int res, const char *why, bool kept, char *buf,
			 size_t len)
{
	char cmd[4200];

	journal_restore_cmd(cmd, sizeof(cmd), r->opt.state_dir, r->dev_path);
	/* Cut short only past the buffer's end, which the caller sized for this. */
	if (snprintf(buf, len, "%d register%s not restored exactly: %s%s%s%s", res, res > 1 ? "s" : "",
		     why, kept ? "; the journal keeps them: run '" : "", kept ? cmd : "",
		     kept ? "' once the cause is gone" : "") >= (int)len)
		buf[len - 1] = 0;
}

/*
 * Put every register back, as at exit, and empty the journal (or keep in
 * it what still differs): nothing stays armed while lattop is stopped or
 * its output blocked.  0, or -1 with a message.
 */
static int suspend(struct session *r, char *err, size_t errlen)
{
	char why[512];
	int res = pmu_restore(&r->pmu, why, sizeof(why));

	if (res > 0 && !pmu_pending(&r->pmu)) {
		/* Only counters put back as closely as legacy writes allow: said, not fatal. */
		fprintf(stderr, "lattop: %s\n", why);
		res = 0;
	}
	if (res > 0) {
		if (r->journaled && journal_write(&r->journal, &r->pmu, r->dev_path, true, err, errlen) < 0)
			return -1;
		not_restored(r, res, why, r->journaled, err, errlen);
		return -1;
	}
	if (r->journaled)
		journal_clear(&r->journal);
	return 0;
}

/*
 * After a stop or blocked output: everything may have changed meanwhile,
 * so probe, save, journal and plan again, then program.  0, or -1 with a
 * message (nothing is programmed then).
 */
static int resume(struct session *r, char *err, size_t errlen)
{
	struct plan *next = r->plan == &r->plans[0] ? &r->plans[1] : &r->plans[0];

	if (pmu_resume(&r->pmu, err, errlen) == 0)
		return -1;
	if (pmu_check_free(&r->pmu, err, errlen) >= 0)
		return -1;
	for (int i = 0; i < r->nids; i++)
		if (!r->pmu.cpu[i].saved) {
			/* Retried each interval, as a CPU gone offline. */
			sampler_retry(&r->sampler, i);
		}
	if (r->journaled && journal_write(&r->journal, &r->pmu, r->dev_path, false, err, errlen) < 0)
		return -1;
	if (session_plan(r, next, resources_of, err, errlen) < 0)
		return -1;
	if (sampler_replan(&r->sampler, next, err, errlen) < 0)
		return -1;
	r->plan = next;
	r->lost[0] = 0;
	return 0;
}

/*
 * SIGTSTP (Ctrl-Z), SIGTTIN, SIGTTOU: every register back, then stop as
 * the signal asks; at SIGCONT, program again.  0, or -1 with a message.
 */
static int stop_and_continue(struct session *r, int sig, char *err, size_t errlen)
{
	if (r->ui)
		ui_suspend(r->ui);
	if (suspend(r, err, errlen) < 0)
		return -1;
	if (!stop_here(sig))
		return 0;               /* ended while stopped: nothing to program */
	if (resume(r, err, errlen) < 0)
		return -1;
	if (r->ui)
		ui_resume(r->ui);
	return 0;
}

/*
 * The reader has not taken the previous report yet (a full pipe, a stalled
 * SSH): stop counting, every register back, until it has; the writer
 * thread blocks, the sampler never does.  0 when output flows again (or a
 * signal ends the run), -1 with a message.
 */
static int wait_for_reader(struct session *r, char *err, size_t errlen)
{
	if (outq_drained(r->out))
		return 0;
	if (suspend(r, err, errlen) < 0)
		return -1;
	while (!outq_wait(r->out, 0.2))
		if (stop_ending())
			return 0;
	return resume(r, err, errlen);
}

int session_reset(struct session *r)
{
	char msg[1024];
	int n;

	for (int i = 0; i < r->dev->ncpu; i++)
		r->ids[i] = r->dev->cpu[i].id;
	if (pmu_open(&r->pmu, r->dev, &r->desc, r->ids, r->dev->ncpu, false, msg, sizeof(msg)) < 0)
		return fail(EXIT_CANNOT, msg);
	n = pmu_reset_lattop(&r->pmu, msg, sizeof(msg));
	pmu_close(&r->pmu);
	if (n < 0)
		return fail(EXIT_CANNOT, msg);
	printf("lattop: %s\n", msg);
	return out_done(EXIT_OK);
}

/* ---- the session ---- */

int session_drain(struct session *r, int status)
{
	if (!r->out)
		return status;
	for (int t = 0; !outq_wait(r->out, 0.2); t++)
		if (stop_ending() && t >= 5)
			break;
	if (outq_error(r->out) && outq_error(r->out) != EPIPE && status == EXIT_OK) {
		fprintf(stderr, "lattop: writing the report failed: %s\n", strerror(outq_error(r->out)));
		status = EXIT_CANNOT;
	}
	return status;
}

int session_ui_open(struct session *r, char *err, size_t errlen)
{
	struct ui_opts uo = {
		.no_color = r->opt.no_color || no_color_env(),
		.ascii = r->opt.ascii,
		.hidden = r->opt.hidden,
		.interval_s = r->opt.interval,
		.parse_thresholds = options_parse_thresholds,
	};

	/* The terminal as it is now, for a crash to put back: before ncurses changes it. */
	crash_save_tty();
	r->ui = ui_open(&uo, err, errlen);
	return r->ui ? 0 : -1;
}

const char *session_source(const struct session *r)
{
	bool perf = r->opt.backend == BACKEND_PERF;

	/* The backend rides in the source, so that a recording says it too. */
	return r->sim ? (perf ? "simulator/perf" : "simulator") : perf ? "perf" : "msr";
}

int session_measure(struct session *r)
{
	char err[1024], note[1024];
	int status = EXIT_OK, res;
	bool first = true, short_next;
	long n = 0;

	if (r->opt.backend == BACKEND_PERF)
		return session_perf(r);         /* session_perf.c: no registers of lattop's */

	/*
	 * The journal's lock first: another lattop running, or one killed
	 * with its registers left changed, must be told as such, not mistaken
	 * for someone else holding the counters.
	 */
	if (!r->sim && journal_open(&r->journal, r->opt.state_dir, err, sizeof(err)) < 0)
		return fail(EXIT_CANNOT, err);
	/* A bad --listen or --textfile is refused before any register is written. */
	{
		bool usage;

		if (fleet_open(&r->fleet, r->opt.listen, r->opt.textfile, &usage, err, sizeof(err)) < 0)
			return fail(usage ? EXIT_USAGE : EXIT_CANNOT, err);
		if (r->fleet.listening)
			fprintf(stderr, "lattop: serving http://%s/metrics\n", r->fleet.where);
	}
	if (pmu_open(&r->pmu, r->dev, &r->desc, r->ids, r->nids, r->opt.force, err, sizeof(err)) < 0)
		return fail(EXIT_CANNOT, err);
	/* Another lattop, running or dead, is told as such, never taken for perf. */
	if (pmu_lock(&r->pmu, err, sizeof(err)) < 0)
		return fail(EXIT_CANNOT, err);
	if (!r->opt.force && pmu_check_lattop(&r->pmu, err, sizeof(err)) >= 0)
		return fail(EXIT_CANNOT, err);
	if (pmu_check_free(&r->pmu, err, sizeof(err)) >= 0)
		return fail(EXIT_CANNOT, err);
	r->plan = &r->plans[0];
	if (session_plan(r, r->plan, resources_of, err, sizeof(err)) < 0)
		return fail(EXIT_CANNOT, err);
	if (snapshot_init(&r->snap, r->dev, &r->pmu) < 0) {
		snapshot_free(&r->snap);
		return fail(EXIT_CANNOT, "out of memory");
	}
	session_core_types(r);
	if (r->opt.record && (res = session_record_start(r, err, sizeof(err))) < 0) {
		status = fail(res == -2 ? EXIT_USAGE : EXIT_CANNOT, err);
		goto out;               /* nothing written yet: only closed */
	}
	if (options_screen(&r->opt) && session_ui_open(r, err, sizeof(err)) < 0) {
		snapshot_free(&r->snap);
		return fail(EXIT_CANNOT, err);
	}
	r->quiet = r->fleet.active && r->opt.mode == MODE_SCREEN && !r->ui;

	install_signals();
	/* Nothing is written before the journal holds every original value. */
	if (pmu_save(&r->pmu, err, sizeof(err)) < 0) {
		status = fail(EXIT_CANNOT, err);
		goto out;
	}
	if (!r->ui) {
		r->out = outq_new(STDOUT_FILENO);
		if (!r->out) {
			snprintf(err, sizeof(err), "starting the output thread: %s", strerror(errno));
			status = fail(EXIT_CANNOT, err);
			goto out;
		}
	}
	if (!r->sim) {
		if (journal_write(&r->journal, &r->pmu, r->dev_path, false, err, sizeof(err)) < 0) {
			status = fail(EXIT_CANNOT, err);
			goto out;
		}
		r->journaled = true;
	}
	install_crash_handlers(session_crash, r);
	{
		char who[64];

		if (privs_drop(who, sizeof(who), err, sizeof(err)) < 0) {
			status = fail(EXIT_CANNOT, err);
			goto out;
		}
	}
	if (session_export_start(r, err, sizeof(err)) < 0) {
		status = EXIT_CANNOT;
		goto restore;
	}
	if (sampler_start(&r->sampler, &r->pmu, r->plan, err, sizeof(err)) < 0) {
		/* The CPUs already programmed are put back before the error is told. */
		status = EXIT_CANNOT;
		goto restore;
	}
	err[0] = 0;
	if (r->ui) {
		sampler_set_wait(&r->sampler, session_ui_waiter, r);
	}
	short_next = r->ui != NULL;
	/*
	 * A stop signal (Ctrl-Z) that arrives outside sampler_interval() must
	 * not end the run: the next interval returns at once and stops there.
	 */
	for (n = 0; !(stop_ending()) &&
		    (r->opt.count == 0 || n < r->opt.count); ) {
		bool replan = r->new_thresholds, resplan = false;
		double len = r->opt.interval;

		/* On the screen, the first numbers (and the first after a change) within a second. */
		if (short_next && len > FIRST_INTERVAL_S)
			len = FIRST_INTERVAL_S;
		r->restart = false;
		if (sampler_interval(&r->sampler, len, &stop_signal, err, sizeof(err)) < 0) {
			status = EXIT_CANNOT;
			break;
		}
		if (is_stop_signal(stop_signal)) {
			/* The partial interval is dropped; counting starts again at SIGCONT. */
			if (stop_and_continue(r, stop_signal, err, sizeof(err)) < 0) {
				status = EXIT_CANNOT;
				break;
			}
			n--;
			continue;
		}
		if (stop_signal)
			break;          /* a partial interval is not shown: some slots never ran */
		if (r->restart) {
			/* Cut by a new interval or new thresholds: not shown either; those apply now. */
			short_next = true;
			if (r->new_thresholds && (res = replan_now(r, err, sizeof(err))) < 0) {
				status = EXIT_CANNOT;
				break;
			}
			continue;
		}
		short_next = false;
		/* Counters someone else reprogrammed meanwhile are given up, never fought over. */
		for (int i = 0; i < r->nids; i++) {
			char lost[512];

			if (r->sampler.cpu[i].ok && pmu_check_owned(&r->pmu, i, lost, sizeof(lost)) > 0) {
				snprintf(r->lost, sizeof(r->lost), "%s", lost);
				if (!r->ui)
					fprintf(stderr, "lattop: %s; lattop gives it up\n", lost);
				replan = true;
			}
		}
		{
			char lost[512];

			if (sampler_take_changes(&r->sampler, lost, sizeof(lost)))
				replan = true;
			if (lost[0]) {
				snprintf(r->lost, sizeof(r->lost), "%s", lost);
				if (!r->ui)
					fprintf(stderr, "lattop: %s; lattop gives it up\n", lost);
			}
		}
		resplan = siblings_changed(r);
		if (replan && r->journaled &&
		    journal_write(&r->journal, &r->pmu, r->dev_path, false, err, sizeof(err)) < 0) {
			status = EXIT_CANNOT;
			break;
		}
		snapshot_compute(&r->snap, r->plan, r->sampler.cpu, r->sampler.tsc_hz, privs_dropped());
		session_export_interval(r);
		if (r->out && wait_for_reader(r, err, sizeof(err)) < 0) {
			status = EXIT_CANNOT;
			break;
		}
		if (stop_ending())
			break;
		if (session_show(r, first, note, sizeof(note)) < 0) {
			if (errno != EPIPE) {
				snprintf(err, sizeof(err), "writing the report failed: %s",
					 strerror(errno ? errno : EIO));
				status = EXIT_CANNOT;
			}
			break;
		}
		first = false;
		n++;
		if ((replan || resplan) && replan_now(r, err, sizeof(err)) < 0) {
			status = EXIT_CANNOT;
			break;
		}
	}
restore:
	/* The terminal first, so that messages below are readable. */
	if (r->ui) {
		/* -n N done: the last frame stays on the terminal, as top leaves it. */
		if (status == EXIT_OK && !stop_signal && r->opt.count && n >= r->opt.count)
			ui_close_keep(r->ui);
		else
			ui_close(r->ui);
		r->ui = NULL;
	}
	res = pmu_restore(&r->pmu, note, sizeof(note));
	if (status == EXIT_CANNOT && err[0])
		fail(EXIT_CANNOT, err);
	if (res > 0) {
		bool pending = pmu_pending(&r->pmu);
		char msg[5400];

		/* Only what still differs stays in the journal, for --restore. */
		if (r->journaled && pending &&
		    journal_write(&r->journal, &r->pmu, r->dev_path, true, err, sizeof(err)) < 0)
			fail(EXIT_CANNOT, err);
		else if (r->journaled && !pending)
			journal_clear(&r->journal);
		not_restored(r, res, note, pending && r->journaled, msg, sizeof(msg));
		fprintf(stderr, "lattop: %s\n", msg);
		status = EXIT_CANNOT;
	} else if (r->journaled) {
		journal_clear(&r->journal);
	}
	install_crash_handlers(NULL, NULL);     /* the registers are back: the terminal only */
	/* Registers are back: the output may take its time now (not for ever after a signal). */
	status = session_drain(r, status);
out:
	journal_close(&r->journal);
	sampler_free(&r->sampler);
	pmu_close(&r->pmu);
	session_close_outputs(r);
	return status;
}

void session_close_outputs(struct session *r)
{
	if (r->ui)
		ui_close(r->ui);
	r->ui = NULL;
	fleet_close(&r->fleet);
	outq_free(r->out);
	r->out = NULL;
	if (r->recording)
		record_close(&r->rec);
	free(r->csv_head);
	r->csv_head = NULL;
	snapshot_free(&r->snap);
}
