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
#include <unistd.h>

#include "cpu/pmu.h"
#include "cpu/sim.h"
#include "cpu/uarch.h"
#include "src/metrics.h"
#include "src/options.h"
#include "src/plan.h"
#include "src/report.h"
#include "src/sampler.h"

#define LATTOP_VERSION "0.1"

enum { EXIT_OK = 0, EXIT_CANNOT = 1, EXIT_USAGE = 2 };

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void install_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
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

static int fail(int status, const char *msg)
{
	fprintf(stderr, "lattop: %s\n", msg);
	if (status == EXIT_USAGE)
		fprintf(stderr, "Try 'lattop --help'.\n");
	return status;
}

/* CPUID from the simulator, for detection that runs the same decoder. */
static void raw_from_sim(const struct sim *sim, struct cpuid_raw *raw)
{
	memset(raw, 0, sizeof(*raw));
	for (uint32_t i = 0; i < CPUID_RAW_BASIC; i++)
		sim_cpuid(sim, i, 0, raw->basic[i]);
	for (uint32_t i = 0; i < CPUID_RAW_EXT; i++)
		sim_cpuid(sim, 0x80000000u + i, 0, raw->ext[i]);
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
	if (p->ctr_reset_skipped && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%sthe Nehalem/Westmere counter-reset workaround "
				      "(errata AAK100/AAP53/BD53) needs PERFEVTSEL0-3 and was skipped: "
				      "counts may be affected", o ? "; " : "");
	(void)pl;
	return buf[0] ? buf : NULL;
}

struct run {
	struct options opt;
	struct cpu_desc desc;
	struct sim *sim;
	struct sim_profile *profile;
	struct msrdev *dev;
	struct pmu pmu;
	struct plan plan;
	struct sampler sampler;
	int *ids;
	int nids;
};

static int measure(struct run *r)
{
	struct report_cpu *rc = NULL;
	struct rates *rates = NULL, total;
	struct report rep;
	char err[1024], note[1024];
	int status = EXIT_OK, ok, res;
	bool first = true;

	if (pmu_open(&r->pmu, r->dev, &r->desc, r->ids, r->nids, r->opt.force, err, sizeof(err)) < 0)
		return fail(EXIT_CANNOT, err);
	if (pmu_check_free(&r->pmu, err, sizeof(err)) >= 0)
		return fail(EXIT_CANNOT, err);
	{
		struct plan_resources res_free;

		plan_resources_from_pmu(&res_free, &r->pmu);
		if (plan_build(&r->plan, r->desc.uarch, &res_free, r->opt.thresholds, r->opt.nthresh,
			       err, sizeof(err)) < 0)
			return fail(EXIT_CANNOT, err);
	}
	rc = calloc(r->nids, sizeof(*rc));
	rates = calloc(r->nids, sizeof(*rates));
	if (!rc || !rates) {
		free(rc);
		free(rates);
		return fail(EXIT_CANNOT, "out of memory");
	}

	install_signals();
	if (pmu_save(&r->pmu, err, sizeof(err)) < 0) {
		status = fail(EXIT_CANNOT, err);
		goto out;
	}
	if (sampler_start(&r->sampler, &r->pmu, &r->plan, err, sizeof(err)) < 0) {
		status = fail(EXIT_CANNOT, err);
		goto restore;
	}
	for (long n = 0; !stop_signal && (r->opt.count == 0 || n < r->opt.count); n++) {
		struct timeval tv;

		if (sampler_interval(&r->sampler, r->opt.interval, &stop_signal, err, sizeof(err)) < 0) {
			status = fail(EXIT_CANNOT, err);
			break;
		}
		ok = 0;
		for (int i = 0; i < r->nids; i++) {
			const struct msrdev_cpu *dc = &r->dev->cpu[r->pmu.cpu[i].dev];
			const struct sample_cpu *sc = &r->sampler.cpu[i];

			rc[i].cpu = dc->id;
			rc[i].core = dc->core;
			rc[i].package = dc->package;
			rc[i].ok = sc->ok;
			rc[i].error = sc->ok ? NULL : pmu_strerror(sc->err, false);
			metrics_rates(&r->plan, sc, &rates[i]);
			metrics_compute(&r->plan, &rates[i], r->sampler.tsc_hz, &rc[i].m);
			if (sc->ok)
				rates[ok++] = rates[i];
		}
		metrics_sum(rates, ok, &total);
		gettimeofday(&tv, NULL);
		memset(&rep, 0, sizeof(rep));
		rep.source = r->sim ? "simulator" : "msr";
		rep.desc = &r->desc;
		rep.interval_s = r->sampler.cpu[0].interval_s;
		rep.time = tv.tv_sec + tv.tv_usec / 1e6;
		rep.ncpu = r->nids;
		rep.cpu = rc;
		metrics_compute(&r->plan, &total, r->sampler.tsc_hz, &rep.total);
		rep.note = taken_note(&r->pmu, &r->plan, note, sizeof(note));
		if (report_write(stdout, r->opt.format, &rep, first) < 0) {
			if (errno != EPIPE)
				status = fail(EXIT_CANNOT, "writing the report failed");
			break;
		}
		first = false;
	}
restore:
	res = pmu_restore(&r->pmu, err, sizeof(err));
	if (res > 0) {
		fprintf(stderr, "lattop: %d register%s not restored exactly; last: %s\n", res,
			res > 1 ? "s" : "", err);
		status = EXIT_CANNOT;
	}
out:
	sampler_free(&r->sampler);
	pmu_close(&r->pmu);
	free(rc);
	free(rates);
	return status;
}

int main(int argc, char **argv)
{
	struct run r;
	struct cpuid_raw raw;
	char err[1024];
	int status;

	memset(&r, 0, sizeof(r));
	if (options_parse(argc, argv, &r.opt, err, sizeof(err)) < 0)
		return fail(EXIT_USAGE, err);
	if (r.opt.mode == MODE_HELP) {
		fputs(options_usage, stdout);
		fputc('\n', stdout);
		fputs(options_help, stdout);
		return EXIT_OK;
	}
	if (r.opt.mode == MODE_VERSION) {
		printf("lattop %s\n", LATTOP_VERSION);
		return EXIT_OK;
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
		if (cpuid_raw_file(r.opt.cpuid_file, &raw, err, sizeof(err)) < 0)
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
	if (r.opt.mode == MODE_DETECT) {
		report_detect(stdout, r.opt.format, &r.desc);
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
		};

		res.gp_free = (uint8_t)((1u << res.ngp) - 1);
		res.fixed_free = (uint8_t)((1u << res.nfixed) - 1);
		if (plan_build(&r.plan, r.desc.uarch, &res, r.opt.thresholds, r.opt.nthresh,
			       err, sizeof(err)) < 0)
			status = fail(EXIT_CANNOT, err);
		else
			report_events(stdout, r.opt.format, &r.desc, &r.plan);
		goto out;
	}

	r.dev = r.sim ? msrdev_sim_open(r.sim, err, sizeof(err))
		      : msrdev_dir_open(r.opt.msr_dir ? r.opt.msr_dir : "/dev/cpu", err, sizeof(err));
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
	return status;
}
