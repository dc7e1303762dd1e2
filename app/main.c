/*
 * main.c: lattop's one path from the command line to a report:
 * CPUID -> microarchitecture -> probe and plan -> save -> program ->
 * sample each interval -> metrics -> report -> restore.
 *
 * The only place that prints errors and decides the exit status.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <termios.h>
#include <unistd.h>

#include "cpu/pmu.h"
#include "sim/sim.h"
#include "cpu/uarch.h"
#include "engine/metrics.h"
#include "app/options.h"
#include "safety/doctor.h"
#include "export/fleet.h"
#include "safety/journal.h"
#include "output/outq.h"
#include "engine/plan.h"
#include "safety/privs.h"
#include "record/record.h"
#include "record/replay.h"
#include "output/report.h"
#include "engine/sampler.h"
#include "output/uarchs.h"
#include "ui/ui.h"

#define LATTOP_VERSION "0.1"

enum { EXIT_OK = 0, EXIT_CANNOT = 1, EXIT_USAGE = 2 };

/* The screen's first interval, and the first after a change, are at most this long. */
#define FIRST_INTERVAL_S 1.0

static volatile sig_atomic_t stop_signal;

/* Ctrl-Z and background terminal I/O: lattop stops, but only with every register back. */
static bool is_stop_signal(int sig)
{
	return sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/*
 * Is our process group orphaned: no parent in another group of the same
 * session (checked for our own parent, the usual case)?
 */
static bool orphaned(void)
{
	pid_t pp = getppid();

	return getpgid(pp) == getpgrp() || getsid(pp) != getsid(0);
}

/*
 * Stop as @sig (SIGTSTP, SIGTTIN, SIGTTOU) asks, until SIGCONT.  In an
 * orphaned process group (started from a script that has exited, a
 * supervisor) the kernel discards them at their default action: whoever
 * sent it still wants lattop stopped, so it stops with SIGSTOP there.
 * False when a signal that ends the run came while stopped.
 */
static bool stop_here(int sig)
{
	struct sigaction sa, old;

	stop_signal = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, &old);
	raise(orphaned() ? SIGSTOP : sig);
	sigaction(sig, &old, NULL);
	if (stop_signal && !is_stop_signal(stop_signal))
		return false;
	stop_signal = 0;
	return true;
}

static void on_signal(int sig)
{
	/* An ending signal is never hidden by a stop. */
	if (!is_stop_signal(sig) || !stop_signal)
		stop_signal = sig;
}

static void install_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	/* A closed pipe ends the run through a write error, registers restored. */
	signal(SIGPIPE, SIG_IGN);
}

struct run {
	struct options opt;
	struct cpu_desc desc;
	struct sim *sim;
	struct sim_profile *profile;
	struct msrdev *dev;
	struct pmu pmu;
	struct plan plans[2];           /* the one in use, and room for a new one */
	struct plan *plan;
	struct sampler sampler;
	int *ids;
	int nids;
	struct ui *ui;
	bool new_thresholds;
	bool restart;                   /* a key changed the interval or thresholds: cut this one */
	struct journal journal;
	bool journaled;
	struct fleet fleet;             /* --listen, --textfile */
	bool quiet;                     /* serving without a terminal: no snapshots */
	struct outq *out;               /* batch output, written by its own thread */
	bool note_told;                 /* the note went to stderr (csv, json) */
	char dev_path[4096];            /* the msr directory, absolute */
	char lost[1024];                /* counters given up to a new owner, for the note */
	/* per interval */
	struct rates *rates, *ok_rates, *core_rates;
	struct report_cpu *rc;
	struct ui_row *cpu_rows, *core_rows;
	int *core_of;                   /* CPU index -> core row */
	int ncore;
	struct metrics total;
	struct record_writer rec;       /* --record */
	bool recording;
	char rec_err[1024];
};

/*
 * A crash (SIGSEGV, SIGBUS, SIGABRT, SIGFPE) restores the registers and
 * the terminal before dying, with async-signal-safe calls only: pread and
 * pwrite on the msr files, ftruncate of the journal, write and tcsetattr.
 */
static struct run *crash_run;
static struct termios crash_tty;
static bool crash_tty_saved;

static void on_crash(int sig)
{
	static const char reset[] = "\033[0m\033[?25h\033[?1049l\r\n";
	struct run *r = crash_run;

	/* The journal is emptied only when every register reads back as saved. */
	if (r && pmu_restore_emergency(&r->pmu) == 0 && r->journaled)
		journal_clear(&r->journal);
	if (crash_tty_saved) {
		tcsetattr(STDIN_FILENO, TCSANOW, &crash_tty);
		if (write(STDOUT_FILENO, reset, sizeof(reset) - 1) < 0) {
			/* nothing more can be done */
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_crash_handlers(struct run *r)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE };
	static char altstack[64 * 1024];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa;

	crash_run = r;
	sigaltstack(&ss, NULL);         /* a stack overflow still gets its handler */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* NO_COLOR set and not empty (no-color.org): an empty value keeps colour. */
static bool no_color_env(void)
{
	const char *v = getenv("NO_COLOR");

	return v && *v;
}

static int fail(int status, const char *msg)
{
	fprintf(stderr, "lattop: %s\n", msg);
	if (status == EXIT_USAGE)
		fprintf(stderr, "Try 'lattop --help'.\n");
	return status;
}

/*
 * Everything printed reached standard output, or the error with its cause
 * (a full disk, say) and exit status 1.
 */
static int out_done(int status)
{
	char msg[256];
	int e;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	e = errno ? errno : EIO;
	snprintf(msg, sizeof(msg), "writing to standard output failed: %s", strerror(e));
	return fail(EXIT_CANNOT, msg);
}

/* CPUID from the simulator, for detection that runs the same decoder. */
static void raw_from_sim(const struct sim *sim, struct cpuid_raw *raw)
{
	memset(raw, 0, sizeof(*raw));
	for (uint32_t i = 0; i < CPUID_RAW_BASIC; i++)
		sim_cpuid(sim, i, 0, raw->basic[i]);
	for (uint32_t i = 0; i < CPUID_RAW_EXT; i++)
		sim_cpuid(sim, 0x80000000u + i, 0, raw->ext[i]);
	raw->basic_present = ~0u;
}

/* A note on the counters others hold, as one line, or NULL. */
static const char *taken_note(const struct pmu *p, const struct plan *pl, char *buf, size_t len)
{
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
					      "alone%s: cpu %d: %s", pmu_likely_owner(),
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
	if (crash_run && crash_run->lost[0] && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%s%s; lattop gave them up", o ? "; " : "",
				      crash_run->lost);
	if (p->shared_note[0] && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "; " : "", p->shared_note);
	if (p->ctr_reset_skipped && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%sthe Nehalem/Westmere counter-reset workaround "
				      "(errata AAK100/AAP53/BD53) needs PERFEVTSEL0-3 and was skipped: "
				      "counts may be affected", o ? "; " : "");
	(void)pl;
	return buf[0] ? buf : NULL;
}


/* Packages of the machine (all of them, measured or not): where reads can come from. */
static unsigned count_packages(const struct msrdev *d)
{
	unsigned n = 0;

	for (int i = 0; i < d->ncpu; i++) {
		int k;

		for (k = 0; k < i; k++)
			if (d->cpu[k].package == d->cpu[i].package)
				break;
		n += k == i;
	}
	return n ? n : 1;
}

/* What the planner may use on this machine: the free counters, the model, the packages. */
static void resources(const struct run *r, struct plan_resources *res)
{
	plan_resources_from_pmu(res, &r->pmu);
	res->flags = r->desc.flags;
	res->packages = count_packages(r->dev);
}

/* Core rows: one per (package, core), in order; computed once. */
static int cmp_core(const void *a, const void *b)
{
	const struct msrdev_cpu *x = *(const struct msrdev_cpu *const *)a;
	const struct msrdev_cpu *y = *(const struct msrdev_cpu *const *)b;

	if (x->package != y->package)
		return x->package < y->package ? -1 : 1;
	return (x->core > y->core) - (x->core < y->core);
}

static int setup_rows(struct run *r)
{
	const struct msrdev_cpu **by = calloc(r->nids, sizeof(*by));
	int n = r->nids;

	r->rates = calloc(n, sizeof(*r->rates));
	r->ok_rates = calloc(n, sizeof(*r->ok_rates));
	r->core_rates = calloc(n, sizeof(*r->core_rates));
	r->rc = calloc(n, sizeof(*r->rc));
	r->cpu_rows = calloc(n, sizeof(*r->cpu_rows));
	r->core_rows = calloc(n, sizeof(*r->core_rows));
	r->core_of = calloc(n, sizeof(*r->core_of));
	if (!by || !r->rates || !r->ok_rates || !r->core_rates || !r->rc || !r->cpu_rows ||
	    !r->core_rows || !r->core_of) {
		free(by);
		return -1;
	}
	for (int i = 0; i < n; i++)
		by[i] = &r->dev->cpu[r->pmu.cpu[i].dev];
	qsort(by, n, sizeof(*by), cmp_core);
	r->ncore = 0;
	for (int k = 0; k < n; k++) {
		if (k == 0 || cmp_core(&by[k - 1], &by[k])) {
			struct ui_row *row = &r->core_rows[r->ncore++];

			row->cpu = -1;
			row->core = by[k]->core;
			row->package = by[k]->package;
		}
	}
	for (int i = 0; i < n; i++) {
		const struct msrdev_cpu *dc = &r->dev->cpu[r->pmu.cpu[i].dev];

		for (int k = 0; k < r->ncore; k++)
			if (r->core_rows[k].core == dc->core && r->core_rows[k].package == dc->package)
				r->core_of[i] = k;
		r->core_rows[r->core_of[i]].nthreads++;
	}
	free(by);
	return 0;
}

static void free_rows(struct run *r)
{
	free(r->rates);
	free(r->ok_rates);
	free(r->core_rates);
	free(r->rc);
	free(r->cpu_rows);
	free(r->core_rows);
	free(r->core_of);
}

/* Why a CPU has no numbers this interval. */
static const char *cpu_error(const struct sample_cpu *sc)
{
	if ((sc->err == -EACCES || sc->err == -EPERM) && privs_dropped())
		return "back online, but lattop gave up root after starting: restart lattop to measure it";
	if (sc->offline)
		return "offline";
	if (sc->err == -EBUSY)
		return "its counters changed hands: measured again from the next interval";
	if (sc->frozen)
		return "its counters were frozen (IA32_PERF_GLOBAL_STATUS.CTR_Frz, set by another agent's "
		       "IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI): not measured while frozen";
	return pmu_strerror(sc->err, false);
}

/* The metrics of the interval just sampled: per CPU, per core, total. */
static void compute(struct run *r)
{
	const struct plan *pl = r->plan;
	double tsc = r->sampler.tsc_hz;
	int ok = 0;

	for (int k = 0; k < r->ncore; k++) {
		metrics_sum(NULL, 0, &r->core_rates[k]);
		r->core_rows[k].ok = false;
	}
	for (int i = 0; i < r->nids; i++) {
		const struct msrdev_cpu *dc = &r->dev->cpu[r->pmu.cpu[i].dev];
		const struct sample_cpu *sc = &r->sampler.cpu[i];
		struct report_cpu *c = &r->rc[i];

		c->cpu = dc->id;
		c->core = dc->core;
		c->package = dc->package;
		c->ok = sc->ok;
		c->error = sc->ok ? NULL : cpu_error(sc);
		metrics_rates(pl, sc, &r->rates[i]);
		metrics_compute(pl, &r->rates[i], tsc, &c->m);
		r->cpu_rows[i] = (struct ui_row){ .cpu = c->cpu, .core = c->core, .package = c->package,
						  .nthreads = 1, .ok = c->ok, .error = c->error, .m = c->m };
		if (sc->ok) {
			struct ui_row *row = &r->core_rows[r->core_of[i]];

			r->ok_rates[ok++] = r->rates[i];
			if (row->ok)
				metrics_add(&r->core_rates[r->core_of[i]], &r->rates[i]);
			else
				r->core_rates[r->core_of[i]] = r->rates[i];
			row->ok = true;
		}
	}
	for (int k = 0; k < r->ncore; k++)
		metrics_compute(pl, &r->core_rates[k], tsc, &r->core_rows[k].m);
	{
		struct rates total;

		metrics_sum(r->ok_rates, ok, &total);
		metrics_compute(pl, &total, tsc, &r->total);
	}
}

static double unit_share(const struct plan *pl, enum metric m)
{
	int ui = pl->unit_of[m];

	if (ui < 0)
		return 0;
	if (pl->unit[ui].fixed)
		return 1;
	return (double)pl->unit[ui].nslots / pl->nslots;
}

static bool ui_waiter(void *arg, double deadline)
{
	struct run *r = arg;

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

/*
 * A report to standard output through the writer thread (outq.h): rendered
 * here, written there, so a reader that stops reading never stops the
 * sampler.  0, or -1 with errno.
 */
static int write_report(struct run *r, const struct report *rep, bool first)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int res;

	if (!m)
		return -1;
	res = report_write(m, r->opt.format, rep, first);
	if (fclose(m) != 0)
		res = -1;
	if (res == 0 && outq_push(r->out, text, len) < 0)
		res = -1;
	free(text);
	return res;
}

static int show(struct run *r, bool first, char *note, size_t notelen)
{
	struct timeval tv;
	const char *n = taken_note(&r->pmu, r->plan, note, notelen);
	struct report rep = {
		.source = r->sim ? "simulator" : "msr",
		.desc = &r->desc,
		.interval_s = r->sampler.cpu[0].interval_s,
		.ncpu = r->nids,
		.cpu = r->rc,
		.total = r->total,
		.note = n,
		.hidden = r->opt.hidden,
	};

	gettimeofday(&tv, NULL);
	rep.time = tv.tv_sec + tv.tv_usec / 1e6;
	/* The recording first: what it holds is what --batch prints from it. */
	if (r->recording && record_write(&r->rec, &rep, r->rec_err, sizeof(r->rec_err)) < 0)
		return -2;
	if (r->ui) {
		const struct plan *pl = r->plan;
		struct ui_frame f = {
			.desc = &r->desc,
			.simulated = r->sim != NULL,
			.interval_s = r->opt.interval,
			.measured_s = r->sampler.cpu[0].interval_s,
			.time = rep.time,
			.ncpu = r->nids,
			.cpu = r->cpu_rows,
			.ncore = r->ncore,
			.core = r->core_rows,
			.total = r->total,
			.nslots = pl->nslots,
			.share_lat = pl->ldlat_unit[0] >= 0 ?
				(double)pl->unit[pl->ldlat_unit[0]].nslots / pl->nslots : 0,
			.share_snoop = fmin(unit_share(pl, M_SNOOP_HIT), unit_share(pl, M_SNOOP_HITM)),
			.share_offcore = unit_share(pl, M_OFFCORE_READS),
			.note = n,
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

/*
 * A new plan from the counters free now and the thresholds asked for, in
 * use from now on.  A plan that cannot be built is told on the screen and
 * the old one stays; -1 when reprogramming failed (the caller restores).
 */
static int replan_now(struct run *r, char *err, size_t errlen)
{
	struct plan *next = r->plan == &r->plans[0] ? &r->plans[1] : &r->plans[0];
	struct plan_resources res_free;

	r->new_thresholds = false;
	resources(r, &res_free);
	if (plan_build(next, r->desc.uarch, &res_free, r->opt.thresholds, r->opt.nthresh,
		       err, errlen) < 0) {
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
static void export_interval(struct run *r)
{
	struct timeval tv;
	char err[512];

	if (!r->fleet.active)
		return;
	for (int i = 0; i < r->nids; i++)
		r->fleet.s[i] = (struct export_sample){ .ok = r->rc[i].ok, .rates = &r->rates[i],
			.interval_s = r->sampler.cpu[i].interval_s, .m = &r->rc[i].m };
	gettimeofday(&tv, NULL);
	if (fleet_tick(&r->fleet, r->plan, tv.tv_sec + tv.tv_usec / 1e6, err, sizeof(err)) < 0) {
		if (r->ui)
			ui_message(r->ui, err);
		else
			fprintf(stderr, "lattop: %s\n", err);
	}
}

/* After root is dropped: the exporter's server, serving as the user lattop runs as. */
static int export_start(struct run *r, char *err, size_t errlen)
{
	struct fleet_info info = {
		.microarch = r->desc.uarch->name,
		.pmu_table = r->desc.uarch->table ? r->desc.uarch->table->name : "",
		.source = r->sim ? "simulator" : "msr",
		.version = LATTOP_VERSION,
		.interval_s = r->opt.interval,
	};
	int *v = calloc(3 * (size_t)r->nids + 1, sizeof(*v));
	int res;

	if (!r->fleet.active) {
		free(v);
		return 0;
	}
	if (!v) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < r->nids; i++) {
		const struct msrdev_cpu *dc = &r->dev->cpu[r->pmu.cpu[i].dev];

		v[i] = dc->id;
		v[r->nids + i] = dc->core;
		v[2 * r->nids + i] = dc->package;
	}
	res = fleet_start(&r->fleet, r->nids, v, v + r->nids, v + 2 * r->nids, &info, r->plan,
			  err, errlen);
	free(v);
	return res;
}

/* --record: the header from the CPU and the plan in use, before any register changes. */
static int record_start(struct run *r, char *err, size_t errlen)
{
	const char *strs[M__COUNT + 2];
	struct record_head h = {
		.source = r->sim ? "simulator" : "msr",
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
		report_events(f, FORMAT_TEXT, &r->desc, r->plan);
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

/* A time typed after 'g' on the replay screen, +SECS and HH:MM from the first snapshot. */
static int replay_parse_time(void *arg, const char *text, double *out, char *err, size_t errlen)
{
	return record_parse_time(text, *(const double *)arg, out, err, errlen);
}

/* The first frame of [lo, hi] at or after @t (@hi when none is). */
static int replay_find(const struct record_file *rf, int lo, int hi, double t)
{
	while (lo < hi && rf->f[lo].rep.time < t)
		lo++;
	return lo;
}

/* --replay FILE on a terminal: the screen over the recorded frames. */
static int replay_screen(const struct options *o)
{
	struct record_file rf;
	struct ui *ui;
	struct ui_row *rows = NULL;
	char err[1024];
	double first, begin = -INFINITY, end = INFINITY, speed = 1;
	bool playing = true;
	int lo, hi, i, maxcpu = 0;

	if (record_load(o->replay, &rf, err, sizeof(err)) < 0)
		return fail(EXIT_USAGE, err);
	first = rf.nf ? rf.f[0].rep.time : 0;
	if ((o->begin && record_parse_time(o->begin, first, &begin, err, sizeof(err)) < 0) ||
	    (o->end && record_parse_time(o->end, first, &end, err, sizeof(err)) < 0)) {
		record_file_free(&rf);
		return fail(EXIT_USAGE, err);
	}
	for (lo = 0; lo < rf.nf && rf.f[lo].rep.time < begin; lo++)
		;
	for (hi = rf.nf - 1; hi >= lo && rf.f[hi].rep.time > end; hi--)
		;
	if (hi < lo) {
		snprintf(err, sizeof(err), "--replay %s: no snapshot%s", o->replay,
			 rf.nf ? " between --begin and --end" : "");
		record_file_free(&rf);
		return fail(EXIT_CANNOT, err);
	}
	for (i = lo; i <= hi; i++)
		maxcpu = rf.f[i].rep.ncpu > maxcpu ? rf.f[i].rep.ncpu : maxcpu;
	rows = calloc(maxcpu ? maxcpu : 1, sizeof(*rows));
	{
		struct ui_opts uo = {
			.no_color = o->no_color || no_color_env(),
			.ascii = o->ascii,
			.hidden = o->hidden,
			.interval_s = rf.f[lo].rep.interval_s,
			.replay = true,
			.parse_time = replay_parse_time,
			.parse_arg = &first,
		};

		crash_tty_saved = tcgetattr(STDIN_FILENO, &crash_tty) == 0;
		ui = rows ? ui_open(&uo, err, sizeof(err)) : NULL;
	}
	if (!ui) {
		free(rows);
		record_file_free(&rf);
		return fail(EXIT_CANNOT, rows ? err : "out of memory");
	}
	install_signals();
	install_crash_handlers(NULL);   /* the terminal back, should anything crash */
	for (i = lo; !stop_signal || is_stop_signal(stop_signal); ) {
		const struct report *rep;
		struct ui_frame f;
		double wait = 1;

		if (is_stop_signal(stop_signal)) {
			/* Ctrl-Z: the terminal back while stopped, as when measuring. */
			int sig = stop_signal;

			ui_suspend(ui);
			if (!stop_here(sig))
				break;
			ui_resume(ui);
		}
		rep = &rf.f[i].rep;
		f = (struct ui_frame){
			.desc = rep->desc,
			.simulated = !strcmp(rep->source, "simulator"),
			.interval_s = rep->interval_s,
			.measured_s = rep->interval_s,
			.time = rep->time,
			.ncpu = rep->ncpu,
			.cpu = rows,
			.total = rep->total,
			.note = rep->note,
			.replay = true,
			.replay_paused = !playing,
			.replay_speed = speed,
		};

		for (int k = 0; k < rep->ncpu; k++)
			rows[k] = (struct ui_row){ .cpu = rep->cpu[k].cpu, .core = rep->cpu[k].core,
						   .package = rep->cpu[k].package, .nthreads = 1,
						   .ok = rep->cpu[k].ok, .error = rep->cpu[k].error,
						   .m = rep->cpu[k].m };
		ui_frame(ui, &f);
		/* The next snapshot after the time that separated them when recorded. */
		if (playing && i < hi)
			wait = fmin(fmax((rf.f[i + 1].rep.time - rep->time) / speed, 0.01), 60);
		switch (ui_wait(ui, sampler_now() + wait)) {
		case UI_QUIT:
			stop_signal = -1;
			break;
		case UI_PLAY:
			playing = !playing;
			break;
		case UI_STEP_BACK:
			playing = false;
			i = i > lo ? i - 1 : lo;
			break;
		case UI_STEP_FWD:
			playing = false;
			i = i < hi ? i + 1 : hi;
			break;
		case UI_FASTER:
			speed = fmin(speed * 2, UI_SPEED_MAX);
			break;
		case UI_SLOWER:
			speed = fmax(speed / 2, UI_SPEED_MIN);
			break;
		case UI_JUMP:
			i = replay_find(&rf, lo, hi, ui_jump_time(ui));
			break;
		case UI_NONE:
			if (playing && i < hi)
				i++;
			else if (playing)
				playing = false;        /* the end: it stays, paused */
			break;
		case UI_INTERVAL:
		case UI_THRESHOLDS:
			break;
		}
	}
	ui_close(ui);
	free(rows);
	record_file_free(&rf);
	return EXIT_OK;
}

/* --replay FILE: the recorded snapshots, printed as --batch printed them. */
static int replay(const struct options *o)
{
	struct replay_opts ro = {
		.path = o->replay, .format = o->format, .begin = o->begin, .end = o->end,
		.count = o->count, .hidden = o->hidden,
	};
	struct replay_result res;
	char err[1024];
	int rc = replay_print(&ro, stdout, &res, err, sizeof(err));

	if (res.skipped)
		fprintf(stderr, "lattop: %s: skipped %d torn or corrupt frame%s\n", o->replay,
			res.skipped, res.skipped > 1 ? "s" : "");
	if (rc == REPLAY_BAD_INPUT)
		return fail(EXIT_USAGE, err);
	if (rc == REPLAY_WRITE) {
		if (res.write_errno == EPIPE)
			return EXIT_OK;
		snprintf(err, sizeof(err), "writing to standard output failed: %s",
			 strerror(res.write_errno));
		return fail(EXIT_CANNOT, err);
	}
	if (!res.printed && res.frames)
		fprintf(stderr, "lattop: %s: no snapshot between --begin and --end\n", o->replay);
	return out_done(EXIT_OK);
}

/*
 * What pmu_restore() could not put back exactly (@res registers, @why),
 * and when the journal keeps them (@kept) the exact command that finishes.
 */
static void not_restored(const struct run *r, int res, const char *why, bool kept, char *buf,
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
static int suspend(struct run *r, char *err, size_t errlen)
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
static int resume(struct run *r, char *err, size_t errlen)
{
	struct plan *next = r->plan == &r->plans[0] ? &r->plans[1] : &r->plans[0];
	struct plan_resources res_free;

	if (pmu_resume(&r->pmu, err, errlen) == 0)
		return -1;
	if (pmu_check_free(&r->pmu, err, errlen) >= 0)
		return -1;
	for (int i = 0; i < r->nids; i++)
		if (!r->pmu.cpu[i].saved) {
			/* Retried each interval, as a CPU gone offline. */
			r->sampler.cpu[i].offline = true;
			r->sampler.cpu[i].ok = false;
		}
	if (r->journaled && journal_write(&r->journal, &r->pmu, r->dev_path, false, err, errlen) < 0)
		return -1;
	resources(r, &res_free);
	if (plan_build(next, r->desc.uarch, &res_free, r->opt.thresholds, r->opt.nthresh,
		       err, errlen) < 0)
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
static int stop_and_continue(struct run *r, int sig, char *err, size_t errlen)
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
static int wait_for_reader(struct run *r, char *err, size_t errlen)
{
	if (outq_drained(r->out))
		return 0;
	if (suspend(r, err, errlen) < 0)
		return -1;
	while (!outq_wait(r->out, 0.2))
		if (stop_signal && !is_stop_signal(stop_signal))
			return 0;
	return resume(r, err, errlen);
}

static int measure(struct run *r)
{
	char err[1024], note[1024];
	int status = EXIT_OK, res;
	bool first = true, short_next;
	long n = 0;

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
	if (pmu_check_free(&r->pmu, err, sizeof(err)) >= 0)
		return fail(EXIT_CANNOT, err);
	{
		struct plan_resources res_free;

		resources(r, &res_free);
		r->plan = &r->plans[0];
		if (plan_build(r->plan, r->desc.uarch, &res_free, r->opt.thresholds, r->opt.nthresh,
			       err, sizeof(err)) < 0)
			return fail(EXIT_CANNOT, err);
	}
	if (setup_rows(r) < 0) {
		free_rows(r);
		return fail(EXIT_CANNOT, "out of memory");
	}
	if (r->opt.record && record_start(r, err, sizeof(err)) < 0) {
		status = fail(EXIT_USAGE, err);
		goto out;               /* nothing written yet: only closed */
	}
	if (options_screen(&r->opt)) {
		struct ui_opts uo = {
			.no_color = r->opt.no_color || no_color_env(),
			.ascii = r->opt.ascii,
			.hidden = r->opt.hidden,
			.interval_s = r->opt.interval,
			.parse_thresholds = options_parse_thresholds,
		};

		/* The terminal as it is now, for a crash to put back: before ncurses changes it. */
		crash_tty_saved = tcgetattr(STDIN_FILENO, &crash_tty) == 0;
		r->ui = ui_open(&uo, err, sizeof(err));
		if (!r->ui) {
			free_rows(r);
			return fail(EXIT_CANNOT, err);
		}
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
	install_crash_handlers(r);
	{
		char who[64];

		if (privs_drop(who, sizeof(who), err, sizeof(err)) < 0) {
			status = fail(EXIT_CANNOT, err);
			goto out;
		}
	}
	if (export_start(r, err, sizeof(err)) < 0) {
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
		r->sampler.wait = ui_waiter;
		r->sampler.wait_arg = r;
	}
	short_next = r->ui != NULL;
	/*
	 * A stop signal (Ctrl-Z) that arrives outside sampler_interval() must
	 * not end the run: the next interval returns at once and stops there.
	 */
	for (n = 0; !(stop_signal && !is_stop_signal(stop_signal)) &&
		    (r->opt.count == 0 || n < r->opt.count); ) {
		bool replan = r->new_thresholds;
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
		if (r->sampler.lost[0]) {
			snprintf(r->lost, sizeof(r->lost), "%s", r->sampler.lost);
			if (!r->ui)
				fprintf(stderr, "lattop: %s; lattop gives it up\n", r->sampler.lost);
			r->sampler.lost[0] = 0;
		}
		if (r->sampler.changed) {
			r->sampler.changed = false;
			replan = true;
		}
		if (replan && r->journaled &&
		    journal_write(&r->journal, &r->pmu, r->dev_path, false, err, sizeof(err)) < 0) {
			status = EXIT_CANNOT;
			break;
		}
		compute(r);
		export_interval(r);
		if (r->out && wait_for_reader(r, err, sizeof(err)) < 0) {
			status = EXIT_CANNOT;
			break;
		}
		if (stop_signal && !is_stop_signal(stop_signal))
			break;
		if ((res = show(r, first, note, sizeof(note))) < 0) {
			if (res == -2) {
				snprintf(err, sizeof(err), "%s", r->rec_err);
				status = EXIT_CANNOT;
			} else if (errno != EPIPE) {
				snprintf(err, sizeof(err), "writing the report failed: %s",
					 strerror(errno ? errno : EIO));
				status = EXIT_CANNOT;
			}
			break;
		}
		first = false;
		n++;
		if (replan && replan_now(r, err, sizeof(err)) < 0) {
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
	crash_run = NULL;
	/* Registers are back: the output may take its time now (not for ever after a signal). */
	if (r->out) {
		for (int t = 0; !outq_wait(r->out, 0.2); t++)
			if (stop_signal && !is_stop_signal(stop_signal) && t >= 5)
				break;
		if (outq_error(r->out) && outq_error(r->out) != EPIPE && status == EXIT_OK) {
			fprintf(stderr, "lattop: writing the report failed: %s\n", strerror(outq_error(r->out)));
			status = EXIT_CANNOT;
		}
	}
out:
	if (r->ui)
		ui_close(r->ui);
	fleet_close(&r->fleet);
	outq_free(r->out);
	r->out = NULL;
	journal_close(&r->journal);
	if (r->recording)
		record_close(&r->rec);
	sampler_free(&r->sampler);
	pmu_close(&r->pmu);
	free_rows(r);
	return status;
}

int main(int argc, char **argv)
{
	struct run r;
	struct cpuid_raw raw;
	char err[1024];
	int status;

	memset(&r, 0, sizeof(r));
	r.journal.fd = r.journal.dirfd = -1;
	r.fleet.fd = -1;
	if (privs_refuse_setuid(err, sizeof(err)) < 0)
		return fail(EXIT_CANNOT, err);
	if (options_parse(argc, argv, &r.opt, err, sizeof(err)) < 0)
		return fail(EXIT_USAGE, err);
	/* One-shot output in one write, so that a failed write is seen with its cause. */
	if (r.opt.mode != MODE_SCREEN && r.opt.mode != MODE_ONCE && r.opt.mode != MODE_BATCH) {
		static char outbuf[1 << 16];

		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	}
	if (r.opt.mode == MODE_HELP) {
		fputs(options_usage, stdout);
		fputc('\n', stdout);
		fputs(options_help, stdout);
		ui_keys_help(stdout);
		fputs(options_notes, stdout);
		return out_done(EXIT_OK);
	}
	if (r.opt.mode == MODE_VERSION) {
		printf("lattop %s\n", LATTOP_VERSION);
		return out_done(EXIT_OK);
	}
	if (r.opt.mode == MODE_LIST_UARCHS) {
		uarchs_write(stdout, r.opt.format);
		return out_done(EXIT_OK);
	}
	if (r.opt.mode == MODE_REPLAY)
		return options_screen(&r.opt) ? replay_screen(&r.opt) : replay(&r.opt);

	snprintf(r.dev_path, sizeof(r.dev_path), "/dev/cpu");
	if (r.opt.msr_dir && !realpath(r.opt.msr_dir, r.dev_path)) {
		snprintf(err, sizeof(err), "--msr-dir %s: %s", r.opt.msr_dir, strerror(errno));
		return fail(EXIT_USAGE, err);
	}
	if (r.opt.mode == MODE_RESTORE) {
		if (journal_restore(r.opt.state_dir, r.dev_path, NULL, err, sizeof(err)) < 0)
			return fail(EXIT_CANNOT, err);
		printf("lattop: %s\n", err);
		return out_done(EXIT_OK);
	}
	if (r.opt.simulate) {
		r.profile = r.opt.sim_profile ? sim_profile_load(r.opt.sim_profile, err, sizeof(err))
					      : sim_profile_builtin();
		if (!r.profile)
			return fail(EXIT_USAGE, err);
		r.sim = sim_new(r.opt.simulate, r.profile, err, sizeof(err));
		if (!r.sim) {
			sim_profile_free(r.profile);
			return fail(EXIT_USAGE, err);
		}
		raw_from_sim(r.sim, &raw);
	} else if (r.opt.cpuid_file) {
		if (cpuid_raw_file(r.opt.cpuid_file, &raw, err, sizeof(err)) < 0 ||
		    cpuid_raw_complete(&raw, r.opt.cpuid_file, err, sizeof(err)) < 0)
			return fail(EXIT_USAGE, err);
	} else if (cpuid_raw_running(&raw, err, sizeof(err)) < 0) {
		return fail(EXIT_CANNOT, err);
	}
	{
		struct cpuid_info id;

		cpuid_decode(&raw, &id);
		uarch_detect(&id, &r.desc);
	}

	status = EXIT_OK;
	if (r.opt.mode == MODE_DOCTOR) {
		struct doctor_check checks[DOCTOR__COUNT];
		struct doctor_env env = {
			.root = "/",
			.msr_dir = r.opt.msr_dir ? r.dev_path : NULL,
			.state_dir = r.opt.state_dir,
			.desc = &r.desc,
			.euid = geteuid(),
		};
		int n = doctor_run(&env, checks, DOCTOR__COUNT);

		if (r.opt.format == FORMAT_JSON)
			doctor_print_json(stdout, checks, n);
		else
			doctor_print(stdout, checks, n, isatty(STDOUT_FILENO) && !r.opt.no_color &&
				     !no_color_env());
		status = out_done(doctor_can_measure(checks, n) ? EXIT_OK : EXIT_CANNOT);
		goto out;
	}
	if (r.opt.mode == MODE_DETECT) {
		/* `lattop --detect && ...` goes on only where lattop can measure the CPU. */
		report_detect(stdout, r.opt.format, &r.desc);
		status = out_done(r.desc.supported ? EXIT_OK : EXIT_CANNOT);
		goto out;
	}
	if (!r.desc.supported) {
		snprintf(err, sizeof(err), "cannot measure this CPU (%s): %s\n"
			 "lattop: to see it work, run it on the simulator: lattop --simulate haswell",
			 r.desc.uarch->pretty, r.desc.reason);
		status = fail(EXIT_CANNOT, err);
		goto out;
	}
	if (r.opt.mode == MODE_LIST_EVENTS) {
		const struct pmu_caps *c = &r.desc.id.pmu;
		struct plan_resources res = {
			.ngp = c->gp_counters < PMU_MAX_GP ? c->gp_counters : PMU_MAX_GP,
			.nfixed = c->fixed_counters < PMU_MAX_FIXED ? c->fixed_counters : PMU_MAX_FIXED,
			.rsp_free = (uint8_t)((1u << r.desc.uarch->offcore_msrs) - 1),
			.ldlat_free = true,
			.flags = r.desc.flags,
			.packages = 1,
		};

		/* The simulator knows its machine; a CPUID dump says nothing of packages. */
		if (r.sim) {
			int pkg = 0;

			for (int i = 0; i < sim_ncpus(r.sim); i++) {
				sim_topology(r.sim, i, NULL, &pkg, NULL);
				if ((unsigned)pkg + 1 > res.packages)
					res.packages = (unsigned)pkg + 1;
			}
		}

		res.gp_free = (uint8_t)((1u << res.ngp) - 1);
		res.fixed_free = (uint8_t)((1u << res.nfixed) - 1);
		if (plan_build(&r.plans[0], r.desc.uarch, &res, r.opt.thresholds, r.opt.nthresh,
			       err, sizeof(err)) < 0) {
			status = fail(EXIT_CANNOT, err);
			goto out;
		}
		report_events(stdout, r.opt.format, &r.desc, &r.plans[0]);
		status = out_done(EXIT_OK);
		goto out;
	}

	r.dev = r.sim ? msrdev_sim_open(r.sim, err, sizeof(err))
		      : msrdev_dir_open(r.dev_path, err, sizeof(err));
	if (!r.dev) {
		status = fail(r.opt.msr_dir ? EXIT_USAGE : EXIT_CANNOT, err);
		goto out;
	}
	r.ids = calloc(r.dev->ncpu, sizeof(*r.ids));
	if (!r.ids) {
		status = fail(EXIT_CANNOT, "out of memory");
		goto out;
	}
	r.nids = options_cpu_list(r.opt.cpus, r.dev, r.ids, err, sizeof(err));
	if (r.nids < 0) {
		status = fail(EXIT_USAGE, err);
		goto out;
	}
	status = measure(&r);
out:
	free(r.ids);
	msrdev_close(r.dev);
	if (r.sim)
		sim_free(r.sim);
	if (r.profile)
		sim_profile_free(r.profile);
	/*
	 * Ctrl-C: with the registers back, die of SIGINT as the shell expects
	 * (status 130), so that a loop or script running lattop stops too.
	 */
	if (stop_signal == SIGINT && status == EXIT_OK) {
		fflush(stdout);
		signal(SIGINT, SIG_DFL);
		raise(SIGINT);
	}
	return status;
}
