/*
 * main.c: what lattop does with its command line.  Parses it, detects the
 * CPU (CPUID, a dump, or the simulator), and runs one mode: --help,
 * --version, --list-uarchs, --replay, --restore, --doctor, --detect,
 * --list-events, or a measuring session (session.c).
 *
 * The only place that decides the exit status; every error is told once,
 * as one line, by fail().
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "cpu/perf_attr.h"
#include "output/report.h"
#include "output/uarchs.h"
#include "record/replay.h"
#include "safety/doctor.h"
#include "safety/privs.h"
#include "ui/ui.h"

/* NO_COLOR set and not empty (no-color.org): an empty value keeps colour. */
bool no_color_env(void)
{
	const char *v = getenv("NO_COLOR");

	return v && *v;
}

int fail(int status, const char *msg)
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
int out_done(int status)
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

/*
 * --list-events plans for a whole machine measured, as lattop measures by
 * default: the simulator's (its profile's threads_per_core and packages);
 * from a CPUID dump or the running CPU, which do not say how many, one of
 * the model: two threads per core but on the Atoms, which have none (their
 * registers are shared by module), and two packages on a server model
 * (UARCH_F_REMOTE_EVENTS).  Both threads of a core measured is what makes
 * the twin slots of the HT bug (plan.h).
 */
static void events_machine(const struct session *r, struct plan_resources *res)
{
	unsigned tpc = r->desc.uarch->offcore_scope == OFFCORE_MODULE ? 1 : 2;

	res->packages = r->desc.flags & UARCH_F_REMOTE_EVENTS ? 2 : 1;
	if (r->sim) {
		int core, pkg;

		res->packages = 1;
		tpc = 0;
		for (int i = 0; i < sim_ncpus(r->sim); i++) {
			sim_topology(r->sim, i, &core, &pkg, NULL);
			if ((unsigned)pkg + 1 > res->packages)
				res->packages = (unsigned)pkg + 1;
			tpc += core == 0 && pkg == 0;
		}
	}
	res->ht_on = tpc > 1;
	res->ht_excl = res->ht_on && (r->desc.uarch->flags & UARCH_F_HT_EXCL);
}

/*
 * What --list-events and --doctor plan with, for core type @type (-1:
 * the part): nothing probed, every counter of the type free, as the
 * kernel would arbitrate them; the machine measured (packages, HT: twin
 * slots through msr only, the kernel has its own).
 */
static void events_res(const struct session *r, int type, struct plan_resources *res)
{
	session_perf_resources(r, type, res);
	events_machine(r, res);
	if (r->opt.backend == BACKEND_PERF) {
		res->ht_excl = false;
	} else {
		/* The msr device's counters: not a version 5 PMU's PMC8 and up (pmu_caps_ngp). */
		res->ngp = pmu_caps_ngp(type >= 0 ? &r->desc.type[type].pmu : &r->desc.id.pmu);
		res->gp_free &= (gp_set)((1u << res->ngp) - 1);
	}
}

/*
 * The plan lattop runs on this machine through @perf or the msr device,
 * a plan per core type on a hybrid part, into r->plans[0]: what
 * --list-events shows and --doctor counts.
 */
static int machine_plan(struct session *r, bool perf, char *err, size_t errlen)
{
	if (session_plan(r, &r->plans[0], events_res, err, errlen) < 0)
		return -1;
	if (perf)
		session_perf_plan(r, &r->plans[0]);
	return 0;
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
	if (rc == REPLAY_CANNOT)
		return fail(EXIT_CANNOT, err);
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

int main(int argc, char **argv)
{
	struct session r;
	struct sim_profile *profile = NULL;
	struct cpuid_set cpus = { 0 };
	char err[1024];
	int status;

	session_init(&r);
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

	if (r.opt.mode == MODE_RESTORE && r.opt.reset && geteuid() != 0)
		return fail(EXIT_CANNOT, "--restore --reset writes MSRs: it runs as root only");
	snprintf(r.dev_path, sizeof(r.dev_path), "/dev/cpu");
	if (r.opt.msr_dir && !realpath(r.opt.msr_dir, r.dev_path)) {
		snprintf(err, sizeof(err), "--msr-dir %s: %s", r.opt.msr_dir, strerror(errno));
		return fail(EXIT_USAGE, err);
	}
	if (r.opt.mode == MODE_RESTORE && !r.opt.reset) {
		if (journal_restore(r.opt.state_dir, r.dev_path, NULL, err, sizeof(err)) < 0)
			return fail(EXIT_CANNOT, err);
		printf("lattop: %s\n", err);
		return out_done(EXIT_OK);
	}
	if (r.opt.simulate) {
		profile = r.opt.sim_profile ? sim_profile_load(r.opt.sim_profile, err, sizeof(err))
					      : sim_profile_builtin();
		if (!profile)
			return fail(EXIT_USAGE, err);
		r.sim = sim_new(r.opt.simulate, profile, err, sizeof(err));
		if (!r.sim) {
			sim_profile_free(profile);
			return fail(EXIT_USAGE, err);
		}
		/* CPUID from the simulator, each CPU's, for detection that runs the same decoder. */
		if (cpuid_set_read(&cpus, sim_ncpus(r.sim), sim_cpuid_cpu, r.sim) < 0)
			return fail(EXIT_CANNOT, "out of memory");
	} else if (r.opt.cpuid_file) {
		/* Every CPU of the dump: a hybrid's core types differ from CPU to CPU. */
		if (cpuid_set_file(r.opt.cpuid_file, &cpus, err, sizeof(err)) < 0)
			return fail(EXIT_USAGE, err);
		for (int i = 0; i < cpus.n; i++)
			if (cpuid_raw_complete(&cpus.raw[i], r.opt.cpuid_file, err, sizeof(err)) < 0) {
				cpuid_set_free(&cpus);
				return fail(EXIT_USAGE, err);
			}
	} else if (cpuid_set_running(&cpus, err, sizeof(err)) < 0) {
		return fail(EXIT_CANNOT, err);
	}
	uarch_detect_set(&cpus, &r.desc);
	cpuid_set_free(&cpus);

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
		int n;

		if (r.desc.supported && machine_plan(&r, true, err, sizeof(err)) == 0)
			env.perf_nofile = perf_sampler_nofile(&r.plans[0],
							       sysconf(_SC_NPROCESSORS_CONF));
		n = doctor_run(&env, checks, DOCTOR__COUNT);

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
	/*
	 * --backend auto, when measuring: perf where the kernel can count this
	 * CPU's events on every CPU for lattop, since then no register is
	 * written and the kernel shares the counters with their other users
	 * (and neither lockdown nor root is in the way); msr otherwise.  The
	 * stand-ins (--simulate, --msr-dir) are msr devices: msr there.
	 */
	if (r.opt.backend == BACKEND_AUTO)
		r.opt.backend = !r.sim && !r.opt.msr_dir && (r.opt.mode == MODE_SCREEN ||
				r.opt.mode == MODE_ONCE || r.opt.mode == MODE_BATCH) &&
				session_perf_permitted(&r.desc) ? BACKEND_PERF : BACKEND_MSR;
	/*
	 * Through the kernel, its PMU is what decides first (the simulator
	 * brings its own): on a hybrid part a PMU per core type, on the CPUs
	 * CPUID says.
	 */
	if (r.opt.backend == BACKEND_PERF && !r.sim && r.opt.mode != MODE_LIST_EVENTS &&
	    session_perf_usable(&r.desc, err, sizeof(err)) < 0) {
		status = fail(EXIT_CANNOT, err);
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
		/* A hybrid part: a listing per core type, each with its type's microarchitecture. */
		if (machine_plan(&r, r.opt.backend == BACKEND_PERF, err, sizeof(err)) < 0) {
			status = fail(EXIT_CANNOT, err);
			goto out;
		}
		for (int t = 0; t < (r.desc.ntypes ? r.desc.ntypes : 1); t++) {
			struct cpu_desc dt = r.desc;

			if (r.desc.ntypes)
				dt.uarch = r.desc.type[t].uarch;
			report_events_backend(stdout, r.opt.format, &dt, plan_of_type(&r.plans[0], t),
					      r.opt.backend == BACKEND_PERF ?
					      (perf_attr_pmu_of(&r.desc, t) ?: "none") : NULL);
		}
		status = out_done(EXIT_OK);
		goto out;
	}

	/* The perf backend reads no register: the CPUs and their topology, without root. */
	if (r.sim)
		r.dev = msrdev_sim_open(r.sim, err, sizeof(err));
	else if (r.opt.backend == BACKEND_PERF && !r.opt.msr_dir)
		r.dev = msrdev_cpus_open(err, sizeof(err));
	else
		r.dev = msrdev_dir_open(r.dev_path, err, sizeof(err));
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
	status = r.opt.mode == MODE_RESTORE ? session_reset(&r) : session_measure(&r);
out:
	free(r.ids);
	msrdev_close(r.dev);
	if (r.sim)
		sim_free(r.sim);
	if (profile)
		sim_profile_free(profile);
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
