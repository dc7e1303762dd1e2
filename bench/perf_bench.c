/*
 * perf_bench.c: what the perf backend asks of the kernel (bench/bench.sh,
 * section perf).
 *
 *   perf_bench cost [REPS]
 *       This machine's kernel: the CPU time of one perf_event_open(2) and
 *       close(2), one read(2) of a group of two with its times, and one
 *       PERF_EVENT_IOC_ENABLE plus DISABLE, on software events (cpu-clock:
 *       what this machine without a PMU can open) of CPU 0, from CPU 0: the
 *       call itself; then the read from another CPU, a cross-CPU call, as
 *       lattop reads every CPU but its own.  Median of REPS batches.  One
 *       markdown table row.
 *   perf_bench calls UARCH[:MODEL] NCPU THRESHOLDS [INTERVALS]
 *       The perf backend's tick on the simulated kernel over NCPU
 *       simulated CPUs of UARCH (both threads of each core measured), at
 *       the load-latency THRESHOLDS (a list: 8,16,32), its
 *       device calls counted: per logical CPU per interval, the reads and
 *       the ioctls, and the events held open.  One markdown table row.  On
 *       a hybrid part each CPU runs its core type's plan on its type's PMU,
 *       as in lattop; the row gives each type's slots.  MODEL (0xC5): the
 *       simulator's part of that display model under the name (its
 *       profile key model); exit 3 when the simulator has no such part
 *       or it is the name's own, whose row is the one without MODEL.
 *
 * The calls are counted by a device that wraps the simulated kernel's and
 * forwards every call: the sampler runs exactly as in lattop.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "cpu/perf_attr.h"
#include "cpu/uarch.h"
#include "engine/perf_sampler.h"
#include "sim/sim.h"

/* ---- this machine's kernel ---- */

static int sw_open(int group_fd)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, -1, 0, group_fd, PERF_FLAG_FD_CLOEXEC);
}

#define BATCH 2000

/* Run on CPU @cpu only.  0, or -1. */
static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static int cost(int reps)
{
	double oc[64], rd[64], io[64], far[64], t;
	uint64_t buf[16];
	int lead, member, other = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;

	if (reps > 64)
		reps = 64;
	/*
	 * From CPU 0, whose events they are: what the call costs.  A call on
	 * another CPU's event waits for that CPU to answer, which on a busy
	 * virtual machine is mostly its wait for its turn (tens of µs): said
	 * on its own.
	 */
	if (pin(0) < 0) {
		fprintf(stderr, "perf_bench: running on cpu 0: %s\n", strerror(errno));
		return 1;
	}
	lead = sw_open(-1);
	member = lead >= 0 ? sw_open(lead) : -1;
	if (lead < 0 || member < 0) {
		fprintf(stderr, "perf_bench: perf_event_open of cpu-clock on cpu 0: %s\n",
			strerror(errno));
		return 1;
	}
	for (int r = 0; r < reps; r++) {
		t = bench_cpu_s();
		for (int i = 0; i < BATCH; i++) {
			int fd = sw_open(-1);

			if (fd < 0)
				return 1;
			close(fd);
		}
		oc[r] = (bench_cpu_s() - t) / BATCH;
		t = bench_cpu_s();
		for (int i = 0; i < BATCH; i++)
			if (read(lead, buf, sizeof(buf)) <= 0)
				return 1;
		rd[r] = (bench_cpu_s() - t) / BATCH;
		t = bench_cpu_s();
		for (int i = 0; i < BATCH; i++) {
			ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
			ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		}
		io[r] = (bench_cpu_s() - t) / BATCH;
	}
	for (int r = 0; r < reps; r++) {
		far[r] = -1;
		if (other <= 0 || pin(other) < 0)
			continue;
		t = bench_cpu_s();
		for (int i = 0; i < BATCH; i++)
			if (read(lead, buf, sizeof(buf)) <= 0)
				return 1;
		far[r] = (bench_cpu_s() - t) / BATCH;
	}
	printf("| %.2f µs | %.2f µs | %.2f µs | ", bench_median(oc, reps) * 1e6,
	       bench_median(rd, reps) * 1e6, bench_median(io, reps) * 1e6);
	if (bench_median(far, reps) < 0)
		printf("- (one CPU) |\n");
	else
		printf("%.2f µs |\n", bench_median(far, reps) * 1e6);
	close(member);
	close(lead);
	return 0;
}

/* ---- the simulated kernel, counted ---- */

struct counted {
	struct perfdev dev;
	struct perfdev *inner;
	long opens, closes, reads, ioctls;
};

static struct counted *cnt(struct perfdev *d)
{
	return d->priv;
}

static int c_open(struct perfdev *d, const struct perf_event_attr *a, pid_t pid, int cpu,
		  int group_fd, unsigned long flags)
{
	cnt(d)->opens++;
	return cnt(d)->inner->ops->open(cnt(d)->inner, a, pid, cpu, group_fd, flags);
}

static ssize_t c_read(struct perfdev *d, int fd, void *buf, size_t len)
{
	cnt(d)->reads++;
	return cnt(d)->inner->ops->read(cnt(d)->inner, fd, buf, len);
}

static int c_ioctl(struct perfdev *d, int fd, unsigned long req, unsigned long arg)
{
	cnt(d)->ioctls++;
	return cnt(d)->inner->ops->ioctl(cnt(d)->inner, fd, req, arg);
}

static int c_close(struct perfdev *d, int fd)
{
	cnt(d)->closes++;
	return cnt(d)->inner->ops->close(cnt(d)->inner, fd);
}

static int c_file(struct perfdev *d, const char *path, char *buf, size_t len)
{
	return cnt(d)->inner->ops->file(cnt(d)->inner, path, buf, len);
}

static void c_destroy(struct perfdev *d)
{
	(void)d;
}

static const struct perfdev_ops counted_ops = {
	.open = c_open, .read = c_read, .ioctl = c_ioctl, .close = c_close, .file = c_file,
	.destroy = c_destroy,
};

/* What the planner may use through perf on CPUs of @caps and @u: every counter free. */
static void bench_resources(const struct pmu_caps *caps, const struct uarch *u, unsigned flags,
			    bool ht_on, struct plan_resources *res)
{
	memset(res, 0, sizeof(*res));
	res->ngp = caps->gp_counters < PMU_MAX_GP ? caps->gp_counters : PMU_MAX_GP;
	res->nfixed = pmu_caps_fixed_run(caps) < PMU_MAX_FIXED ? pmu_caps_fixed_run(caps) :
		      PMU_MAX_FIXED;
	res->gp_free = (gp_set)((1u << res->ngp) - 1);
	res->fixed_free = (uint8_t)((1u << res->nfixed) - 1);
	res->rsp_free = (uint8_t)((1u << u->offcore_msrs) - 1);
	res->ldlat_free = true;
	res->flags = flags;
	res->packages = 1;
	res->ht_on = ht_on;
	res->ht_excl = ht_on && (u->flags & UARCH_F_HT_EXCL);
}

static int calls(const char *arg, int ncpu, const char *list, int intervals)
{
	char uarch[64], label[80];
	const char *colon = strchr(arg, ':');
	unsigned model = colon ? (unsigned)strtoul(colon + 1, NULL, 16) : 0;
	unsigned thr[THRESH_MAX];
	int nthr = 0, ntypes;
	char text[64], err[512], slots[64];
	struct sim_profile *p;
	struct counted c;
	struct cpuid_set set;
	struct cpu_desc desc;
	struct plan_resources res;
	struct perf_sampler s;
	struct perf_types types;
	struct plan pls[CORE_TYPES_MAX], *linked[CORE_TYPES_MAX];
	const char *names[CORE_TYPES_MAX];
	struct sim *sim;
	volatile sig_atomic_t stop = 0;
	int8_t *type_of;
	int *cpus, *parity, core, pkg, mod, rc;
	bool ht_on = false;
	long r0, i0, held;

	for (const char *q = list; *q && nthr < THRESH_MAX; q += strcspn(q, ","), q += *q == ',')
		thr[nthr++] = (unsigned)strtoul(q, NULL, 10);
	snprintf(uarch, sizeof(uarch), "%.*s", (int)(colon ? colon - arg : (long)strlen(arg)), arg);
	snprintf(text, sizeof(text), "cpus = %d\n", ncpu);
	if (model) {
		/* The name's own part first: a model that is it has the row without MODEL. */
		uint32_t r[4];

		p = sim_profile_parse(text, strlen(text), "bench", err, sizeof(err));
		sim = p ? sim_new(uarch, p, err, sizeof(err)) : NULL;
		sim_profile_free(p);
		if (!sim) {
			fprintf(stderr, "perf_bench: %s\n", err);
			return 1;
		}
		sim_cpuid(sim, 1, 0, r);
		sim_free(sim);
		if ((((r[0] >> 12) & 0xf0) | ((r[0] >> 4) & 0xf)) == model)
			return 3;
		snprintf(text, sizeof(text), "cpus = %d\nmodel = 0x%X\n", ncpu, model);
	}
	snprintf(label, sizeof(label), model ? "%s (06_%02X)" : "%s", uarch, model);
	p = sim_profile_parse(text, strlen(text), "bench", err, sizeof(err));
	sim = p ? sim_new(uarch, p, err, sizeof(err)) : NULL;
	sim_profile_free(p);
	if (!sim) {
		fprintf(stderr, "perf_bench: %s\n", err);
		/* A model the simulator does not have under this name: not a failure. */
		return model && strstr(err, "is not simulated as") ? 3 : 1;
	}
	/* Each simulated CPU's CPUID, as lattop reads it on each CPU. */
	if (cpuid_set_read(&set, sim_ncpus(sim), sim_cpuid_cpu, sim) < 0) {
		fprintf(stderr, "perf_bench: out of memory\n");
		return 1;
	}
	uarch_detect_set(&set, &desc);
	cpuid_set_free(&set);
	cpus = calloc((size_t)ncpu, sizeof(*cpus));
	parity = calloc((size_t)ncpu, sizeof(*parity));
	type_of = calloc((size_t)ncpu, sizeof(*type_of));
	for (int i = 0; i < ncpu; i++) {
		cpus[i] = i;
		sim_topology(sim, i, &core, &pkg, &mod);
		for (int j = 0; j < i; j++) {
			int cj, pj, mj;

			sim_topology(sim, j, &cj, &pj, &mj);
			parity[i] += cj == core && pj == pkg;
		}
		ht_on |= parity[i] > 0;
	}
	memset(&c, 0, sizeof(c));
	c.inner = sim_kernel_open(sim, err, sizeof(err));
	if (!c.inner) {
		fprintf(stderr, "perf_bench: %s\n", err);
		return 1;
	}
	c.dev.ops = &counted_ops;
	c.dev.kind = "counted";
	c.dev.priv = &c;
	/*
	 * The machine as lattop plans it through perf, every counter free,
	 * HT as simulated; on a hybrid part each core type's plan from its own
	 * table and counters, on its own PMU (the kernel's cpu_core, cpu_atom),
	 * as the session links them.
	 */
	ntypes = desc.hybrid ? desc.ntypes : 0;
	memset(&types, 0, sizeof(types));
	for (int t = 0; t < (ntypes ? ntypes : 1); t++) {
		const struct core_type_desc *ct = &desc.type[t];

		bench_resources(ntypes ? &ct->pmu : &desc.id.pmu, ntypes ? ct->uarch : desc.uarch,
				ntypes ? ct->flags : desc.flags, ht_on, &res);
		if (plan_build(&pls[t], ntypes ? ct->uarch : desc.uarch, &res, thr, nthr, err,
			       sizeof(err)) < 0) {
			fprintf(stderr, "perf_bench: %s\n", err);
			return 1;
		}
		linked[t] = &pls[t];
		if (!ntypes)
			break;
		names[t] = core_type_row_name(&desc, t);
		{
			const char *dev = perf_attr_pmu_of(&desc, t);
			struct perfdev_pmu pmu;

			if (!dev || perfdev_pmu_read(c.inner, dev, &pmu) < 0 || !pmu.present) {
				fprintf(stderr, "perf_bench: the simulated kernel has no PMU for "
					"the %s CPUs\n", names[t]);
				return 1;
			}
			types.pmu[t] = pmu.type;
		}
	}
	if (ntypes) {
		plan_link_types(linked, ntypes, names);
		for (int i = 0; i < ncpu; i++)
			type_of[i] = (int8_t)cpu_desc_type_of(&desc, i);
		types.of = type_of;
	}
	rc = perf_sampler_start_types(&s, &c.dev, &pls[0], ntypes ? &types : NULL, cpus, parity,
				      ncpu, -1, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "perf_bench: %s\n", err);
		return 1;
	}
	held = c.opens - c.closes;
	/* The first interval settles; the rest are counted. */
	perf_sampler_interval(&s, 0.02, &stop, err, sizeof(err));
	r0 = c.reads, i0 = c.ioctls;
	for (int k = 0; k < intervals; k++)
		perf_sampler_interval(&s, 0.02, &stop, err, sizeof(err));
	/* Slots per core type on a hybrid part ("8 P, 4 E"), its CPUs' counts averaged. */
	snprintf(slots, sizeof(slots), "%d", pls[0].nslots);
	for (int t = 0; t < ntypes; t++)
		snprintf(slots + (t ? strlen(slots) : 0), sizeof(slots) - (t ? strlen(slots) : 0),
			 "%s%d %s", t ? ", " : "", pls[t].nslots, names[t]);
	printf("| %s | %d | %s | %s | %.1f | %.1f | %.1f |\n", label, ncpu, slots,
	       s.rotate ? "lattop (twin slots)" : "the kernel",
	       (double)(c.reads - r0) / intervals / ncpu, (double)(c.ioctls - i0) / intervals / ncpu,
	       (double)held / ncpu);
	perf_sampler_free(&s);
	perfdev_close(c.inner);
	sim_free(sim);
	free(cpus);
	free(parity);
	free(type_of);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "cost"))
		return cost(argc > 2 ? atoi(argv[2]) : 5);
	if (argc >= 5 && !strcmp(argv[1], "calls"))
		return calls(argv[2], atoi(argv[3]), argv[4], argc > 5 ? atoi(argv[5]) : 5);
	fprintf(stderr, "usage: perf_bench cost [REPS] | calls UARCH[:MODEL] NCPU THRESHOLDS "
		"[INTERVALS]\n");
	return 2;
}
