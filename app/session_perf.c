/*
 * session_perf.c: one measuring session through perf_event_open(2)
 * (--backend perf).
 *
 * The kernel owns the registers: nothing of lattop's is written, saved,
 * journaled or put back, and no other user is fought over (the kernel
 * multiplexes, and the shares say how long each measurement ran).  What
 * stays the same is everything after the counts: the plan's units, the
 * snapshot, the screen, the reports, the exporter and the recorder
 * (session.c's, shared).  The device is the kernel's, or with --simulate
 * the simulated kernel over the simulated PMU.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "app/app.h"
#include "cpu/perf_attr.h"
#include "engine/symbols.h"
#include "safety/privs.h"
#include "ui/ui.h"

/* include/uapi/linux/capability.h */
#define PERF_CAP_SYS_ADMIN 21
#define PERF_CAP_PERFMON 38

/*
 * Packages of the machine: where reads can come from (plan_resources.packages),
 * from the simulator, or the device's topology; 1 when neither is known.
 */
static unsigned perf_packages(const struct session *r)
{
	int top = -1, pkg;

	for (int i = 0; r->sim && i < sim_ncpus(r->sim); i++) {
		sim_topology(r->sim, i, NULL, &pkg, NULL);
		top = pkg > top ? pkg : top;
	}
	for (int i = 0; !r->sim && r->dev && i < r->dev->ncpu; i++)
		top = r->dev->cpu[i].package > top ? r->dev->cpu[i].package : top;
	return top >= 0 ? (unsigned)top + 1 : 1;
}

void session_perf_resources(const struct session *r, int type, struct plan_resources *res)
{
	const struct core_type_desc *t = type >= 0 ? &r->desc.type[type] : NULL;
	const struct pmu_caps *c = t ? &t->pmu : &r->desc.id.pmu;
	const struct uarch *u = t ? t->uarch : r->desc.uarch;

	memset(res, 0, sizeof(*res));
	res->ngp = c->gp_counters < PMU_MAX_GP ? c->gp_counters : PMU_MAX_GP;
	/* The fixed counters from 0 up to the first the ECX bitmap leaves out (version 5). */
	res->nfixed = pmu_caps_fixed_run(c) < PMU_MAX_FIXED ? pmu_caps_fixed_run(c) : PMU_MAX_FIXED;
	res->gp_free = (gp_set)((1u << res->ngp) - 1);
	res->fixed_free = (uint8_t)((1u << res->nfixed) - 1);
	res->rsp_free = (uint8_t)((1u << u->offcore_msrs) - 1);
	res->ldlat_free = !r->desc.ldlat_why[0];
	res->ldlat_why = r->desc.ldlat_why[0] ? r->desc.ldlat_why : NULL;
	res->flags = t ? t->flags : r->desc.flags;
	res->packages = perf_packages(r);
	/* HT on, for the caveat of the rows a source doubts then (plan.h ht_caveat). */
	for (int i = 0; r->dev && i < r->nids && !res->ht_on; i++) {
		const struct msrdev_cpu *me = &r->dev->cpu[msrdev_index(r->dev, r->ids[i])];

		for (int j = 0; j < r->dev->ncpu && !res->ht_on; j++)
			res->ht_on = r->dev->cpu[j].id != me->id && r->dev->cpu[j].package == me->package &&
				     r->dev->cpu[j].core == me->core;
	}
	/*
	 * The HT bug with both threads of a core measured: twin slots, which
	 * the perf sampler runs itself (perf_sampler.c: the kernel's own
	 * exclusivity would starve one sibling).
	 */
	for (int i = 0; r->parity && i < r->nids && !res->ht_excl; i++)
		res->ht_excl = (u->flags & UARCH_F_HT_EXCL) && r->parity[i] == 1;
}

/*
 * Each measured CPU's rank among the measured threads of its core (0, 1):
 * the parity that picks its half of a twin slot.  0, or -1 out of memory.
 */
static int perf_parity(struct session *r)
{
	r->parity = calloc((size_t)r->nids + 1, sizeof(*r->parity));
	if (!r->parity)
		return -1;
	for (int i = 0; r->dev && i < r->nids; i++) {
		const struct msrdev_cpu *me = &r->dev->cpu[msrdev_index(r->dev, r->ids[i])];

		for (int j = 0; j < i; j++) {
			const struct msrdev_cpu *o = &r->dev->cpu[msrdev_index(r->dev, r->ids[j])];

			r->parity[i] += o->package == me->package && o->core == me->core;
		}
	}
	return 0;
}

/* Topology of the @i-th CPU measured: from the device, or (--list-events) the simulator's @i-th. */
static bool perf_topo(const struct session *r, int i, int *core, int *package, int *module)
{
	if (r->dev) {
		const struct msrdev_cpu *c;

		if (i >= r->nids)
			return false;
		c = &r->dev->cpu[msrdev_index(r->dev, r->ids[i])];
		*core = c->core, *package = c->package, *module = c->module;
		return true;
	}
	if (!r->sim || i >= sim_ncpus(r->sim))
		return false;
	sim_topology(r->sim, i, core, package, module);
	return true;
}

/*
 * Do two CPUs measured share the offcore registers (@u's
 * offcore_scope)?  --list-events on a CPUID dump knows no topology: yes.
 */
static bool perf_partners_measured(const struct session *r, const struct uarch *u)
{
	enum offcore_scope sc = u->offcore_scope;
	int ci, pi, mi, cj, pj, mj;

	if (sc == OFFCORE_THREAD)
		return false;
	if (!r->dev && !r->sim)
		return true;
	for (int i = 0; perf_topo(r, i, &ci, &pi, &mi); i++)
		for (int j = i + 1; perf_topo(r, j, &cj, &pj, &mj); j++)
			if (pi == pj && (sc == OFFCORE_CORE ? ci == cj : mi == mj))
				return true;
	return false;
}

/* Why a metric on a register shared with a partner is not measured through the kernel. */
#define PERF_WHY_CORE "through perf_event_open(2): the hyperthreads of a core share " \
	"MSR_OFFCORE_RSP_x and the threshold, and the kernel rotates each thread alone, so one " \
	"can wait a whole interval (pmu-facts 10.3); use --backend msr, or one thread per core (-c)"
#define PERF_WHY_MODULE "through perf_event_open(2): the cores of a module share " \
	"MSR_OFFCORE_RSP_x, and the kernel does not know it, so a partner's events can change it " \
	"under these counts unseen (pmu-facts 10.3); use --backend msr, or one core per module (-c)"

/*
 * The contended lines' sampling events: on a hybrid part each CPU with its
 * core type's events on its type's PMU, at its type's plan's threshold.
 */
static int perf_sharing_start(struct session *r)
{
	struct sharing_types t = { .ntypes = 1, .pmu = { PERF_TYPE_RAW },
				   .uarch = { r->desc.uarch }, .flags = { r->desc.flags },
				   .ldlat = { sharing_sampler_threshold(r->plan) } };

	if (r->perf_types.of) {
		t.ntypes = r->desc.ntypes;
		t.of = r->perf_types.of;
		for (int i = 0; i < t.ntypes; i++) {
			t.pmu[i] = r->perf_types.pmu[i];
			t.uarch[i] = r->desc.type[i].uarch;
			t.flags[i] = r->desc.type[i].flags;
			t.ldlat[i] = sharing_sampler_threshold(plan_of_type(r->plan, i));
		}
	}
	return sharing_sampler_start_types(&r->sharing, r->perfdev, &t, r->ids, r->nids,
					   r->opt.cgroup ? r->cgroup_fd : -1, r->opt.pid);
}

static void perf_drop(struct plan *pl, int m, const char *why)
{
	snprintf(pl->reason_buf[m], sizeof(pl->reason_buf[m]), "%s", why);
	pl->reason[m] = pl->reason_buf[m];
	pl->unit_of[m] = -1;
}

/* Plan @pl of a core type of microarchitecture @u, as session_perf_plan says. */
static void perf_plan_type(const struct session *r, const struct uarch *ua, struct plan *pl)
{
	bool core = ua->offcore_scope == OFFCORE_CORE;
	const char *why = core ? PERF_WHY_CORE : PERF_WHY_MODULE;

	if (!perf_partners_measured(r, ua))
		return;
	for (int m = 0; m < M__COUNT; m++) {
		int u = pl->unit_of[m];

		for (int j = 0; u >= 0 && j < pl->unit[u].nrows; j++)
			if (pl->unit[u].row[j]->offcore) {
				perf_drop(pl, m, why);
				break;
			}
	}
	/* The threshold is the core's on Nehalem and Westmere: load latency and the loads behind it. */
	if (core && pl->ldlat_unit[0] >= 0) {
		for (int i = 0; i <= THRESH_MAX; i++)
			pl->ldlat_unit[i] = -1;
		pl->tagged = -1;
		perf_drop(pl, M_LOAD_LATENCY, why);
		if (!pl->reason[M_LOADS])
			perf_drop(pl, M_LOADS, why);
	}
}

void session_perf_plan(struct session *r, struct plan *pl)
{
	int b = pl == &r->plans[0] ? 0 : 1;

	perf_plan_type(r, r->desc.ntypes ? r->desc.type[0].uarch : r->desc.uarch, pl);
	for (int t = 1; t < r->desc.ntypes; t++)
		perf_plan_type(r, r->desc.type[t].uarch, &r->type_plans[b][t - 1]);
}

/*
 * Why the kernel refused, in @err in place of the open's own message: for
 * EACCES, the paranoid level and the capability missing, and how to grant
 * it (pmu-facts 10.7).  Other errors keep the open's message.
 */
static void perf_refused(struct session *r, int rc, char *err, size_t errlen)
{
	int level = 2;

	if (rc != -EACCES && rc != -EPERM)
		return;
	perfdev_paranoid(r->perfdev, &level);
	if (level > 2)
		snprintf(err, errlen, "the kernel refuses perf_event_open(2) to lattop: "
			 "kernel.perf_event_paranoid is %d (Debian's and Ubuntu's restriction), which "
			 "only CAP_SYS_ADMIN passes: run lattop as root, or lower the level with "
			 "sysctl kernel.perf_event_paranoid=0 (or 2 with setcap cap_perfmon+ep on the "
			 "lattop binary)", level);
	else
		snprintf(err, errlen, "the kernel refuses perf_event_open(2) to lattop: "
			 "kernel.perf_event_paranoid is %d and CPU-wide events need 0 or less, or "
			 "CAP_PERFMON (Linux 5.8 and later) or CAP_SYS_ADMIN: run lattop as root, "
			 "or grant it with setcap cap_perfmon+ep on the lattop binary (a systemd "
			 "unit: AmbientCapabilities=CAP_PERFMON), or sysctl "
			 "kernel.perf_event_paranoid=0", level);
}

/*
 * Every CPU's events are held open at once, more descriptors than the
 * usual soft limit of 1024 on a large machine.  Raise the soft limit to
 * what plan @pl needs, as far as the hard limit lets any process (the
 * kernel checks the soft limit at each open, get_unused_fd_flags); a hard
 * limit below the need is said now, before anything is opened.
 */
static int perf_nofile(const struct session *r, const struct plan *pl, char *err, size_t errlen)
{
	long need = perf_sampler_nofile(pl, r->nids);
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur >= (rlim_t)need)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < (rlim_t)need) {
		snprintf(err, errlen, "--backend perf holds %d events on each of %d CPUs open: it "
			 "needs %ld descriptors, and the hard open-file limit is %llu: raise it "
			 "(LimitNOFILE=%ld in a systemd unit, 'hard nofile' in "
			 "/etc/security/limits.conf)", perf_sampler_events(pl), r->nids, need,
			 (unsigned long long)rl.rlim_max, need);
		return -1;
	}
	rl.rlim_cur = (rlim_t)need;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		snprintf(err, errlen, "raising the open-file limit to %ld: %s", need, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The capability lattop keeps when it gives root up (pmu-facts 10.7): what
 * opens CPU-wide events again when the thresholds change.  CAP_PERFMON,
 * where the kernel knows it (Linux 5.8, cap_last_cap 38 and up) and the
 * paranoid level lets it count; CAP_SYS_ADMIN otherwise (Debian's and
 * Ubuntu's level 3 lets nothing else through).
 */
static int perf_keep_cap(struct session *r)
{
	char buf[16];
	int level = 2, last = 0, fd = open("/proc/sys/kernel/cap_last_cap", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);

		if (n > 0) {
			buf[n] = 0;
			last = atoi(buf);
		}
		close(fd);
	}
	perfdev_paranoid(r->perfdev, &level);
	return level <= 2 && last >= PERF_CAP_PERFMON ? PERF_CAP_PERFMON : PERF_CAP_SYS_ADMIN;
}

/* Does @d's kernel have a core PMU (into @pmu)?  Why not, when it has none. */
static int perf_core_pmu(struct perfdev *d, struct perfdev_pmu *pmu, char *err, size_t errlen)
{
	if (perfdev_core_pmu(d, pmu) < 0 || !pmu->present) {
		snprintf(err, errlen, "cannot measure through perf_event_open(2): the kernel has no "
			 "core PMU (%s is missing: not an Intel CPU, or a virtual machine without a "
			 "virtual PMU)", PERFDEV_CORE_PMU);
		return -1;
	}
	return 0;
}

#define PERF_CANNOT "cannot measure through perf_event_open(2): "

_Static_assert(CPUSET_MAX == PERFDEV_CPUS_MAX, "a core type's CPUs and a PMU's are one bitmap");

/*
 * A hybrid part's PMUs (pmu-facts 9.6): each core type's, by its core
 * type and native model (perf_attr_pmu), must exist and list exactly the
 * CPUs whose CPUID says that type (perf_attr_cpus_differ), so that no
 * event of one type's PMU is opened on a CPU of another: into @pmus[t].
 * 0, or -1 with why, naming the PMU and the CPUs.
 */
static int perf_hybrid_pmus(struct perfdev *d, const struct cpu_desc *desc,
			    struct perfdev_pmu *pmus, char *err, size_t errlen)
{
	for (int t = 0; t < desc->ntypes; t++) {
		const struct core_type_desc *ct = &desc->type[t];
		const char *name = perf_attr_pmu_of(desc, t), *tn = core_type_row_name(desc, t);
		uint64_t off[PERFDEV_CPUS_MAX / 64];
		char want[256], got[256], bad[256];

		perfdev_cpulist_print(ct->cpus, want, sizeof(want));
		if (!name) {
			snprintf(err, errlen, PERF_CANNOT "lattop knows no kernel PMU for this "
				 "hybrid part's %s CPUs (%s, CPUs %s): use --backend msr", tn,
				 ct->uarch->pretty, want);
			return -1;
		}
		if (perfdev_pmu_read(d, name, &pmus[t]) < 0 || !pmus[t].present ||
		    !pmus[t].has_cpus) {
			snprintf(err, errlen, PERF_CANNOT "the kernel has no %s PMU (%s/%s/cpus) "
				 "for this hybrid part's %s CPUs (%s, CPUs %s): a kernel that "
				 "knows this part, or --backend msr", name, PERFDEV_PMU_DIR, name, tn,
				 ct->uarch->pretty, want);
			return -1;
		}
		if (perf_attr_cpus_differ(desc, t, pmus[t].cpus, off)) {
			perfdev_cpulist_print(pmus[t].cpus, got, sizeof(got));
			perfdev_cpulist_print(off, bad, sizeof(bad));
			snprintf(err, errlen, PERF_CANNOT "the kernel's %s PMU lists CPUs %s, but "
				 "CPUID says the %s CPUs are %s (they disagree on CPU %s): lattop "
				 "opens no core type's events on another's CPUs; use --backend msr",
				 name, got, tn, want, bad);
			return -1;
		}
	}
	return 0;
}

int session_perf_usable(const struct cpu_desc *desc, char *err, size_t errlen)
{
	struct perfdev_pmu pmu[CORE_TYPES_MAX];
	struct perfdev *d = perfdev_sys_open(err, errlen);
	int rc;

	if (!d)
		return -1;
	rc = desc->hybrid && desc->ntypes ? perf_hybrid_pmus(d, desc, pmu, err, errlen)
					  : perf_core_pmu(d, &pmu[0], err, errlen);
	perfdev_close(d);
	return rc;
}

bool session_perf_permitted(const struct cpu_desc *desc)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.disabled = 1,
	};
	char err[256];
	struct perfdev *d;
	int fd, cpu = sched_getcpu();

	if (session_perf_usable(desc, err, sizeof(err)) < 0 ||
	    !(d = perfdev_sys_open(err, sizeof(err))))
		return false;
	/* A CPU-wide event: what paranoid > 0 forbids without CAP_PERFMON or CAP_SYS_ADMIN. */
	fd = perfdev_open_event(d, &a, -1, cpu >= 0 ? cpu : 0, -1, 0);
	if (fd >= 0)
		perfdev_close_event(d, fd);
	perfdev_close(d);
	return fd >= 0;
}

/*
 * The kernel must have a core PMU lattop's events are for, with what they
 * need; on a hybrid part one per core type, agreeing with CPUID on its
 * CPUs (perf_hybrid_pmus), whose types go into r->perf_types.
 */
static int perf_check_pmu(struct session *r, char *err, size_t errlen)
{
	struct perfdev_pmu pmu[CORE_TYPES_MAX];
	bool hybrid = r->desc.hybrid && r->desc.ntypes;

	if (hybrid ? perf_hybrid_pmus(r->perfdev, &r->desc, pmu, err, errlen) < 0
		   : perf_core_pmu(r->perfdev, &pmu[0], err, errlen) < 0)
		return -1;
	for (int t = 0; t < (hybrid ? r->desc.ntypes : 1); t++) {
		const char *dev = perf_attr_pmu_of(&r->desc, t);

		if (plan_of_type(r->plan, t)->ldlat_unit[0] >= 0 && !pmu[t].ldlat) {
			snprintf(err, errlen, PERF_CANNOT "the kernel's %s PMU has no ldlat format "
				 "(%s/%s/format/ldlat): it does not know %s's load-latency "
				 "facility",
				 pmu[t].name[0] ? pmu[t].name : "core", PERFDEV_PMU_DIR, dev,
				 hybrid ? r->desc.type[t].uarch->pretty : r->desc.uarch->pretty);
			return -1;
		}
		r->perf_types.pmu[t] = pmu[t].type;
	}
	if (!hybrid)
		return 0;
	r->perf_type_of = calloc((size_t)r->nids + 1, sizeof(*r->perf_type_of));
	if (!r->perf_type_of) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < r->nids; i++) {
		int t = cpu_desc_type_of(&r->desc, r->ids[i]);

		if (t < 0) {
			snprintf(err, errlen, "cannot measure cpu %d through perf_event_open(2): "
				 "its core type is unknown (its CPUID was not read)", r->ids[i]);
			return -1;
		}
		r->perf_type_of[i] = (int8_t)t;
	}
	r->perf_types.of = r->perf_type_of;
	return 0;
}

/* The interval's shares, as the kernel ran each unit, in place of the plan's slots. */
static void perf_shares(struct session *r)
{
	struct snapshot *sn = &r->snap;
	double lat_s = -1, snoop_s = -1, off_s = -1;       /* -1: no plan measures it */

	/* On a hybrid part, the least any core type's plan ran that measures it. */
	for (int t = 0; t < (r->desc.ntypes ? r->desc.ntypes : 1); t++) {
		const struct plan *pl = plan_of_type(r->plan, t);
		const double *sh = &r->perf.share[t * PLAN_MAX_UNITS];
		int hit = pl->unit_of[M_SNOOP_HIT], hitm = pl->unit_of[M_SNOOP_HITM];
		int off = pl->unit_of[M_OFFCORE_READS], lat = pl->ldlat_unit[0];

		if (lat >= 0)
			lat_s = lat_s < 0 ? sh[lat] : fmin(lat_s, sh[lat]);
		if (hit >= 0 && hitm >= 0)
			snoop_s = snoop_s < 0 ? fmin(sh[hit], sh[hitm])
					      : fmin(snoop_s, fmin(sh[hit], sh[hitm]));
		if (off >= 0)
			off_s = off_s < 0 ? sh[off] : fmin(off_s, sh[off]);
	}
	sn->share_lat = lat_s < 0 ? 0 : lat_s;
	sn->share_snoop = snoop_s < 0 ? 0 : snoop_s;
	sn->share_offcore = off_s < 0 ? 0 : off_s;
}

/* A new plan for new thresholds, opened in place of the old. */
static int perf_replan(struct session *r, char *err, size_t errlen)
{
	struct plan *next = r->plan == &r->plans[0] ? &r->plans[1] : &r->plans[0];
	int rc;

	r->new_thresholds = false;
	if (session_plan(r, next, session_perf_resources, err, errlen) < 0)
		return -1;
	session_perf_plan(r, next);
	if (perf_nofile(r, next, err, errlen) < 0)
		return -1;
	rc = perf_sampler_replan(&r->perf, next, err, errlen);
	if (rc < 0) {
		perf_refused(r, rc, err, errlen);
		return -1;
	}
	r->plan = next;
	return 0;
}

/* Output nobody reads: counting goes on (the kernel's), the sampler waits. */
static void perf_wait_reader(struct session *r)
{
	while (r->out && !outq_drained(r->out) && !outq_wait(r->out, 0.2))
		if (stop_ending())
			return;
}

static int perf_loop(struct session *r, char *err, size_t errlen)
{
	bool first = true, short_next = r->ui != NULL;
	char note[1024];
	long n = 0;
	int res;

	while (!stop_ending() && (r->opt.count == 0 || n < r->opt.count)) {
		double len = r->opt.interval;

		if (short_next && len > FIRST_INTERVAL_S)
			len = FIRST_INTERVAL_S;
		r->restart = false;
		if (perf_sampler_interval(&r->perf, len, &stop_signal, err, errlen) < 0)
			return -1;
		if (is_stop_signal(stop_signal)) {
			/* Stopped: the kernel's counters need nothing back; the partial interval is dropped. */
			if (r->ui)
				ui_suspend(r->ui);
			if (!stop_here(stop_signal))
				return 0;
			if (r->ui)
				ui_resume(r->ui);
			if (perf_sampler_replan(&r->perf, r->plan, err, errlen) < 0)
				return -1;
			continue;
		}
		if (stop_signal)
			return 0;
		if (r->restart) {
			short_next = true;
			if (r->new_thresholds && perf_replan(r, err, errlen) < 0)
				return -1;
			/* A cut interval is not shown: start the next one from here. */
			if (perf_sampler_replan(&r->perf, r->plan, err, errlen) < 0)
				return -1;
			continue;
		}
		short_next = false;
		snapshot_compute(&r->snap, r->plan, r->perf.cpu, r->perf.tsc_hz, privs_dropped());
		r->snap.sharing = sharing_sampler_interval(&r->sharing, r->snap.interval_s);
		perf_shares(r);
		session_export_interval(r);
		perf_wait_reader(r);
		if (stop_ending())
			return 0;
		if ((res = session_show(r, first, note, sizeof(note))) < 0) {
			if (res == -2) {
				snprintf(err, errlen, "%s", r->rec_err);
				return -1;
			}
			if (errno != EPIPE) {
				snprintf(err, errlen, "writing the report failed: %s",
					 strerror(errno ? errno : EIO));
				return -1;
			}
			return 0;
		}
		first = false;
		n++;
	}
	return 0;
}

int session_perf(struct session *r)
{
	char err[1024];
	int status = EXIT_OK, rc;
	bool usage;

	if (fleet_open(&r->fleet, r->opt.listen, r->opt.textfile, &usage, err, sizeof(err)) < 0)
		return fail(usage ? EXIT_USAGE : EXIT_CANNOT, err);
	if (r->fleet.listening)
		fprintf(stderr, "lattop: serving http://%s/metrics\n", r->fleet.where);
	r->perfdev = r->sim ? sim_kernel_open(r->sim, err, sizeof(err))
			    : perfdev_sys_open(err, sizeof(err));
	if (!r->perfdev) {
		status = fail(EXIT_CANNOT, err);
		goto out;
	}
	if (perf_parity(r) < 0) {
		status = fail(EXIT_CANNOT, "out of memory");
		goto out;
	}
	r->plan = &r->plans[0];
	if (session_plan(r, r->plan, session_perf_resources, err, sizeof(err)) < 0) {
		status = fail(EXIT_CANNOT, err);
		goto out;
	}
	session_perf_plan(r, r->plan);
	if (perf_check_pmu(r, err, sizeof(err)) < 0) {
		status = fail(EXIT_CANNOT, err);
		goto out;
	}
	if (r->opt.cgroup) {
		r->cgroup_fd = open(r->opt.cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (r->cgroup_fd < 0) {
			snprintf(err, sizeof(err), "--cgroup '%s': %s", r->opt.cgroup, strerror(errno));
			status = fail(EXIT_USAGE, err);
			goto out;
		}
	}
	/* --pid: a process that is not there is said before anything opens */
	if (r->opt.pid && (rc = perfdev_tasks(r->perfdev, r->opt.pid, NULL, 0)) < 0) {
		snprintf(err, sizeof(err), "--pid %d: %s", r->opt.pid,
			 rc == -ESRCH ? "no such process" : strerror(-rc));
		status = fail(EXIT_USAGE, err);
		goto out;
	}
	if (perf_nofile(r, r->plan, err, sizeof(err)) < 0) {
		status = fail(EXIT_CANNOT, err);
		goto out;
	}
	/* Opened before anything is shown: a refusal is said at once, nothing changed. */
	rc = perf_sampler_start_types(&r->perf, r->perfdev, r->plan,
				      r->perf_types.of ? &r->perf_types : NULL, r->ids, r->parity,
				      r->nids, r->opt.cgroup ? r->cgroup_fd : -1, err, sizeof(err));
	if (rc < 0) {
		if (rc == -EOPNOTSUPP && r->opt.cgroup && r->sim)
			snprintf(err, sizeof(err), "--cgroup: the simulated kernel counts whole CPUs "
				 "only: it has no tasks and no cgroups");
		perf_refused(r, rc, err, sizeof(err));
		status = fail(EXIT_CANNOT, err);
		goto out;
	}
	if (perf_sharing_start(r) < 0 ||
	    snapshot_init_ids(&r->snap, r->dev, r->ids, r->nids) < 0) {
		status = fail(EXIT_CANNOT, "out of memory");
		goto out;
	}
	/* the simulated kernel's processes are not this machine's: its side-band alone names code */
	if (r->sim && r->sharing.sym)
		symbols_set_proc(r->sharing.sym, "");
	session_core_types(r);
	if (r->opt.record && session_record_start(r, err, sizeof(err)) < 0) {
		status = fail(EXIT_USAGE, err);
		goto out;
	}
	/* Everything that needs root is open: keep only the capability that opens events again. */
	{
		char who[64];

		if (privs_drop_keep(perf_keep_cap(r), who, sizeof(who), err, sizeof(err)) < 0) {
			status = fail(EXIT_CANNOT, err);
			goto out;
		}
	}
	if (options_screen(&r->opt)) {
		if (session_ui_open(r, err, sizeof(err)) < 0) {
			status = fail(EXIT_CANNOT, err);
			goto out;
		}
		r->perf.wait = session_ui_waiter;
		r->perf.wait_arg = r;
	}
	r->quiet = r->fleet.active && r->opt.mode == MODE_SCREEN && !r->ui;
	install_signals();
	install_crash_handlers(NULL, NULL);     /* no registers of lattop's: the terminal only */
	if (!r->ui) {
		r->out = outq_new(STDOUT_FILENO);
		if (!r->out) {
			snprintf(err, sizeof(err), "starting the output thread: %s", strerror(errno));
			status = fail(EXIT_CANNOT, err);
			goto out;
		}
	}
	if (session_export_start(r, err, sizeof(err)) < 0) {
		status = fail(EXIT_CANNOT, err);
		goto out;
	}
	/* The counts start with the first interval, not at the opens above; the samples too. */
	sharing_sampler_begin(&r->sharing);
	if (perf_sampler_replan(&r->perf, r->plan, err, sizeof(err)) < 0 ||
	    perf_loop(r, err, sizeof(err)) < 0) {
		status = EXIT_CANNOT;
		if (r->ui) {
			ui_close(r->ui);
			r->ui = NULL;
		}
		fail(EXIT_CANNOT, err);
	}
	if (r->ui) {
		if (status == EXIT_OK && !stop_signal && r->opt.count)
			ui_close_keep(r->ui);
		else
			ui_close(r->ui);
		r->ui = NULL;
	}
	status = session_drain(r, status);
out:
	perf_sampler_free(&r->perf);
	sharing_sampler_free(&r->sharing);
	free(r->parity);
	free(r->perf_type_of);
	r->perf_type_of = NULL;
	r->perf_types.of = NULL;
	perfdev_close(r->perfdev);
	r->perfdev = NULL;
	if (r->opt.cgroup && r->cgroup_fd >= 0)
		close(r->cgroup_fd);
	session_close_outputs(r);
	return status;
}
