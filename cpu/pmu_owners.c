/*
 * pmu_owners.c: who holds the counters, and what lattop says of it.
 *
 * Someone else's counters (perf, the NMI watchdog, another tool) are
 * named and left alone; another lattop is told apart: a running one by
 * the lock on the msr files it measures (msrdev_lock), a dead one by its
 * own events left in the selects; --restore --reset clears those.  The
 * probe that finds them is pmu.c's.  Where the HT bug applies, the
 * counters of the hyperthread siblings lattop does not measure are read
 * here too (pmu_check_siblings), never written.  Who shares registers
 * with whom is worked out once, when the PMU is opened (pmu_topology).
 * Which registers are shared, and by which CPUs (pmu_reg_shared,
 * pmu_same_group), and what a register and a failed access to it are
 * called in lattop's messages are here too (pmu_reg_name, pmu_strerror).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/events.h"
#include "cpu/pmu.h"

const char *pmu_likely_owner(const struct pmu_cpu *c)
{
	FILE *f;
	int on = 0;

	if (c && (c->gp_lattop || c->fixed_lattop))
		return "another lattop (its own events: one that died, or one measuring from another /dev)";
	f = fopen("/proc/sys/kernel/nmi_watchdog", "re");
	if (f) {
		if (fscanf(f, "%d", &on) != 1)
			on = 0;
		fclose(f);
	}
	return on ? "likely the NMI watchdog (/proc/sys/kernel/nmi_watchdog is 1), perf or another tool"
		  : "likely perf or another tool";
}

void pmu_describe_taken(const struct pmu *p, const struct pmu_cpu *c, char *buf, size_t len)
{
	char name[40];
	size_t o = 0;

	buf[0] = 0;
	for (unsigned k = 0; k < c->ngp && o < len; k++)
		if (c->gp_taken & (1u << k))
			o += snprintf(buf + o, len - o, "%s%s=0x%llx", o ? ", " : "",
				      pmu_reg_name(pmu_evtsel(p, k), name, sizeof(name)),
				      (unsigned long long)c->evtsel[k]);
	if (c->fixed_taken && o < len)
		o += snprintf(buf + o, len - o, "%sIA32_FIXED_CTR_CTRL=0x%llx (fixed counter%s",
			      o ? ", " : "", (unsigned long long)c->fixed_ctrl,
			      (c->fixed_taken & (c->fixed_taken - 1)) ? "s" : "");
	for (unsigned k = 0; c->fixed_taken && k < c->nfixed && o < len; k++)
		if (c->fixed_taken & (1u << k))
			o += snprintf(buf + o, len - o, " %u", k);
	if (c->fixed_taken && o < len)
		o += snprintf(buf + o, len - o, ")");
	/* A fixed counter someone's PEBS holds (Goldmont Plus, version 5): say which register */
	if (!pmu_ll_en(p) && (c->pebs_enable >> 32) && o < len)
		o += snprintf(buf + o, len - o, "%sIA32_PEBS_ENABLE=0x%llx", o ? ", " : "",
			      (unsigned long long)c->pebs_enable);
	if (p->version >= 4 && c->inuse && o < len)
		snprintf(buf + o, len - o, ", IA32_PERF_GLOBAL_INUSE=0x%llx",
			 (unsigned long long)c->inuse);
}

int pmu_check_free(const struct pmu *p, char *msg, size_t len)
{
	if (p->force)
		return -1;
	for (int i = 0; i < p->ncpu; i++) {
		const struct pmu_cpu *c = &p->cpu[i];
		gp_set all = (gp_set)((1u << c->ngp) - 1);
		char taken[512];

		if ((c->gp_taken & all) != all)
			continue;
		pmu_describe_taken(p, c, taken, sizeof(taken));
		snprintf(msg, len, "cpu %d: no general-purpose counter is free (%s), %s; "
			 "nothing was written; --force takes them over and restores them at exit",
			 c->id, taken, pmu_likely_owner(c));
		return c->id;
	}
	return -1;
}

int pmu_lock(struct pmu *p, char *err, size_t errlen)
{
	for (int i = 0; i < p->ncpu; i++) {
		int holder, r = msrdev_lock(p->dev, p->cpu[i].id, true, &holder);
		char pid[32] = "";

		if (r == 0)
			continue;
		if (holder)
			snprintf(pid, sizeof(pid), " (pid %d)", holder);
		if (r == -EBUSY || r == -EAGAIN)
			snprintf(err, errlen, "cpu %d is measured by another lattop%s, whatever its state "
				 "directory: two cannot share the counters; nothing was written",
				 p->cpu[i].id, pid);
		else
			snprintf(err, errlen, "cpu %d: locking its msr file: %s", p->cpu[i].id,
				 strerror(-r));
		return -1;
	}
	return 0;
}

int pmu_check_lattop(const struct pmu *p, char *msg, size_t len)
{
	for (int i = 0; i < p->ncpu; i++) {
		const struct pmu_cpu *c = &p->cpu[i];
		char regs[384], name[40];
		size_t o = 0;

		if (!c->gp_lattop && !c->fixed_lattop)
			continue;
		regs[0] = 0;
		for (unsigned k = 0; k < c->ngp && o < sizeof(regs); k++)
			if (c->gp_lattop & (1u << k))
				o += (size_t)snprintf(regs + o, sizeof(regs) - o, "%s%s=0x%llx",
						      o ? ", " : "",
						      pmu_reg_name(pmu_evtsel(p, k), name, sizeof(name)),
						      (unsigned long long)c->evtsel[k]);
		if (c->fixed_lattop && o < sizeof(regs))
			snprintf(regs + o, sizeof(regs) - o, "%sIA32_FIXED_CTR_CTRL=0x%llx", o ? ", " : "",
				 (unsigned long long)c->fixed_ctrl);
		snprintf(msg, len, "cpu %d holds lattop's own events (%s), and no lattop here holds that "
			 "CPU: another lattop measures it from another /dev (a container), or one died "
			 "without putting them back; nothing was written; if it died, its journal puts "
			 "them back (lattop --restore --state-dir DIR, DIR its state directory), and "
			 "without one 'lattop --restore --reset --yes' puts their power-on values back "
			 "(--force measures anyway and leaves them at their power-on values)", c->id, regs);
		return c->id;
	}
	return -1;
}

/* Write @v to @reg of CPU @c outside the saved set (the reset), and read it back. */
static int reset_one(struct pmu *p, struct pmu_cpu *c, uint32_t reg, uint64_t v, char *err,
		     size_t errlen)
{
	char name[40];
	uint64_t got;
	int r = msr_write(p->dev, c->id, reg, v);

	p->writes++;
	if (r == 0) {
		r = msrdev_read(p->dev, c->id, reg, &got);
		p->reads++;
		if (r == 0 && got != v)
			r = -EIO;
	}
	if (r < 0)
		snprintf(err, errlen, "cpu %d: resetting %s (0x%x) to 0x%llx: %s", c->id,
			 pmu_reg_name(reg, name, sizeof(name)), reg, (unsigned long long)v,
			 pmu_strerror(r, true));
	return r;
}

int pmu_reset_lattop(struct pmu *p, char *msg, size_t len)
{
	int n = 0, busy = -1, holder = 0;
	size_t o = 0;

	msg[0] = 0;
	for (int i = 0; i < p->ncpu; i++) {
		struct pmu_cpu *c = &p->cpu[i];
		uint64_t pebs = c->pebs_enable, fixed = c->fixed_ctrl;
		int h, r;

		if (!c->gp_lattop && !c->fixed_lattop)
			continue;
		if (msrdev_lock(p->dev, c->id, false, &h) == -EBUSY) {
			/* A running lattop's: it puts them back itself. */
			busy = c->id;
			holder = h;
			continue;
		}
		for (unsigned k = 0; k < c->ngp; k++)
			if (c->gp_lattop & (1u << k))
				pebs &= ~pmu_pebs_bits(p, k);
		for (unsigned k = 0; k < c->nfixed; k++)
			if (c->fixed_lattop & (1u << k))
				fixed &= ~PMU_FIXED_FIELD(k);
		r = pebs != c->pebs_enable ? reset_one(p, c, MSR_PEBS_ENABLE, pebs, msg, len) : 0;
		for (unsigned k = 0; k < c->ngp && !r; k++)
			if (c->gp_lattop & (1u << k))
				r = reset_one(p, c, pmu_evtsel(p, k), 0, msg, len);
		if (!r && fixed != c->fixed_ctrl)
			r = reset_one(p, c, MSR_FIXED_CTR_CTRL, fixed, msg, len);
		for (unsigned k = 0; k < c->ngp && !r; k++)
			if (c->gp_lattop & (1u << k))
				r = reset_one(p, c, pmu_pmc(p, k), 0, msg, len);
		for (unsigned k = 0; k < c->nfixed && !r; k++)
			if (c->fixed_lattop & (1u << k))
				r = reset_one(p, c, pmu_fixed_ctr(p, k), 0, msg, len);
		if (r < 0)
			return -1;
		n++;
	}
	if (n)
		o += (size_t)snprintf(msg, len, "power-on values put back in lattop's counters on %d CPU%s",
				      n, n > 1 ? "s" : "");
	else
		o += (size_t)snprintf(msg, len, "no counter holds lattop's own events: nothing to reset");
	if (busy >= 0 && o < len) {
		char pid[32] = "";

		if (holder)
			snprintf(pid, sizeof(pid), " (pid %d)", holder);
		snprintf(msg + o, len - o, "; a running lattop%s measures cpu %d (and maybe more): "
			 "left to it", pid, busy);
	}
	return n;
}

/*
 * The HT bug (UARCH_F_HT_EXCL; pmu-facts 6 and 8.9): the siblings measured
 * too are the planner's twin slots (plan.h); the others are read here.
 * K612 intel_get_excl_constraints: a counter whose twin on the sibling
 * holds any event (EN) is unusable for an ht_excl row, and one whose twin
 * holds an event the bug covers (PMU_HT_EXCL_FIRST..LAST) is unusable for
 * any row.  These parts are version 3, with no IA32_PERF_GLOBAL_INUSE: EN
 * tells.  A sibling that cannot be read may use any counter: all are busy.
 */
int pmu_check_siblings(struct pmu *p, int i, gp_set *newly)
{
	struct pmu_cpu *c = &p->cpu[i];
	gp_set busy = 0, excl = 0, all = (gp_set)((1u << c->ngp) - 1);
	const char *err = NULL;
	int who = -1, changed;

	for (int s = 0; s < c->nsib && (p->uarch->flags & UARCH_F_HT_EXCL); s++) {
		const struct msrdev_cpu *o = &p->dev->cpu[p->sib_dev[c->sib_first + s]];
		gp_set b = 0;
		int r = 0;

		for (unsigned k = 0; k < c->ngp && r == 0; k++) {
			uint64_t sel;
			unsigned ev;

			r = msrdev_read(p->dev, o->id, pmu_evtsel(p, k), &sel);
			p->reads++;
			if (r < 0 || !(sel & EVTSEL_EN))
				continue;
			b |= (gp_set)(1u << k);
			ev = (unsigned)(sel & 0xff);
			if (ev >= PMU_HT_EXCL_FIRST && ev <= PMU_HT_EXCL_LAST)
				excl |= (gp_set)(1u << k);
		}
		if (r < 0)
			b = all;
		/* The sibling to name: the first that uses a counter, else the first. */
		if (who < 0 || (b && !busy)) {
			who = o->id;
			err = r < 0 ? pmu_strerror(r, false) : NULL;
		}
		busy |= b;
	}
	if (newly)
		*newly = busy & (gp_set)~c->sib_busy;
	changed = busy != c->sib_busy || excl != c->sib_excl;
	c->sib_busy = busy;
	c->sib_excl = excl;
	c->sib_cpu = who;
	c->sib_err = err;
	return changed;
}

/* ---- the topology, worked out once ---- */

bool pmu_measures(const struct pmu *p, int dev_index)
{
	if (p->dev_cpu)
		return p->dev_cpu[dev_index] >= 0;
	for (int i = 0; i < p->ncpu; i++)
		if (p->cpu[i].dev == dev_index)
			return true;
	return false;
}

/* Device CPUs in order of package, then core (or the sharing group), then index. */
struct topo_key {
	int package, group, dev;
};

static int topo_cmp(const void *a, const void *b)
{
	const struct topo_key *x = a, *y = b;

	if (x->package != y->package)
		return x->package < y->package ? -1 : 1;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return (x->dev > y->dev) - (x->dev < y->dev);
}

/* @k (n) sorted by package and @group's value: the runs are its groups. */
static void topo_sort(const struct pmu *p, struct topo_key *k, bool module)
{
	for (int d = 0; d < p->dev->ncpu; d++) {
		const struct msrdev_cpu *o = &p->dev->cpu[d];

		k[d] = (struct topo_key){ o->package, module ? o->module : o->core, d };
	}
	qsort(k, (size_t)p->dev->ncpu, sizeof(*k), topo_cmp);
}

/*
 * Shared: MSR_OFFCORE_RSP_x where the uarch says so, and on Nehalem/Westmere
 * (the families with both the load-latency facility and a per-core scope)
 * the threshold register too (K-core shares all extra regs per core there).
 */
bool pmu_reg_shared(const struct pmu *p, uint32_t reg)
{
	if (p->uarch->offcore_scope == OFFCORE_THREAD)
		return false;
	return reg == MSR_OFFCORE_RSP(0) || reg == MSR_OFFCORE_RSP(1) ||
	       (reg == MSR_PEBS_LD_LAT && p->has_ldlat);
}

bool pmu_same_group(const struct pmu *p, const struct msrdev_cpu *a, const struct msrdev_cpu *b)
{
	if (a->package != b->package)
		return false;
	switch (p->uarch->offcore_scope) {
	case OFFCORE_CORE:
		return a->core == b->core;
	case OFFCORE_MODULE:
		return a->module == b->module;
	default:
		return false;
	}
}

/*
 * The topology fields of every measured CPU (pmu.h), in O(n log n): each
 * core, and each group sharing MSR_OFFCORE_RSP_x, is a run of the device
 * CPUs sorted by package and core (or module).
 */
int pmu_topology(struct pmu *p, char *err, size_t errlen)
{
	int nd = p->dev->ncpu, ns = 0;
	struct topo_key *k = calloc((size_t)nd + 1, sizeof(*k));

	p->dev_cpu = calloc((size_t)nd + 1, sizeof(*p->dev_cpu));
	p->sib_dev = calloc((size_t)nd + 1, sizeof(*p->sib_dev));
	if (!k || !p->dev_cpu || !p->sib_dev) {
		free(k);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int d = 0; d < nd; d++)
		p->dev_cpu[d] = -1;
	for (int i = 0; i < p->ncpu; i++) {
		p->dev_cpu[p->cpu[i].dev] = i;
		p->cpu[i].share_next = i;
	}
	topo_sort(p, k, false);
	for (int a = 0, b; a < nd; a = b) {
		int first = ns;

		for (b = a; b < nd && k[b].package == k[a].package && k[b].group == k[a].group; b++)
			if (p->dev_cpu[k[b].dev] < 0)
				p->sib_dev[ns++] = k[b].dev;
		for (int x = a; x < b; x++) {
			int i = p->dev_cpu[k[x].dev];
			struct pmu_cpu *c = i >= 0 ? &p->cpu[i] : NULL;

			if (!c)
				continue;
			c->sib_first = first;
			c->nsib = ns - first;
			c->core_shared = b - a > 1;
			c->core_rank = 0;
			for (int y = a; y < b; y++)
				c->core_rank += p->dev_cpu[k[y].dev] >= 0 &&
						p->dev->cpu[k[y].dev].id < p->dev->cpu[c->dev].id;
		}
	}
	if (pmu_reg_shared(p, MSR_OFFCORE_RSP(0))) {
		topo_sort(p, k, p->uarch->offcore_scope == OFFCORE_MODULE);
		for (int a = 0, b; a < nd; a = b) {
			int head = -1, prev = -1;

			for (b = a; b < nd && k[b].package == k[a].package && k[b].group == k[a].group; b++) {
				int i = p->dev_cpu[k[b].dev];

				if (i < 0)
					continue;
				if (prev >= 0)
					p->cpu[prev].share_next = i;
				else
					head = i;
				prev = i;
			}
			if (prev >= 0)
				p->cpu[prev].share_next = head;
		}
	}
	free(k);
	return 0;
}

unsigned pmu_caps_ngp(const struct pmu_caps *c)
{
	unsigned max = c->version >= 6 ? PMU_MAX_GP : PMU_LEGACY_GP;

	return c->gp_counters < max ? c->gp_counters : max;
}

/* The fixed counters lattop may use of what @c enumerates. */
static unsigned pmu_caps_nfixed(const struct pmu_caps *c)
{
	unsigned n = pmu_caps_fixed_run(c);

	return n < PMU_MAX_FIXED ? n : PMU_MAX_FIXED;
}

static bool table_has_ldlat(const struct pmu_table *t)
{
	for (const struct pmu_event *e = t->events; e->name; e++)
		if (e->ldlat)
			return true;
	return false;
}

void pmu_core_types(struct pmu *p, const struct cpu_desc *desc)
{
	p->ngp = pmu_caps_ngp(&desc->id.pmu);
	p->nfixed = pmu_caps_nfixed(&desc->id.pmu);
	p->has_ldlat = table_has_ldlat(desc->uarch->table);
	/* A hybrid part: each type's counters (the most of them in p), and its table's load latency. */
	for (int t = 0; t < desc->ntypes; t++) {
		const struct core_type_desc *ct = &desc->type[t];

		if (t == 0)
			p->ngp = p->nfixed = 0;
		if (pmu_caps_ngp(&ct->pmu) > p->ngp)
			p->ngp = pmu_caps_ngp(&ct->pmu);
		if (pmu_caps_nfixed(&ct->pmu) > p->nfixed)
			p->nfixed = pmu_caps_nfixed(&ct->pmu);
		p->has_ldlat |= table_has_ldlat(ct->uarch->table);
	}
}

int pmu_cpu_type(const struct pmu *p, struct pmu_cpu *c, const struct cpu_desc *desc,
		 char *err, size_t errlen)
{
	int t = cpu_desc_type_of(desc, c->id);

	c->uarch = p->uarch;
	c->ngp = p->ngp;
	c->nfixed = p->nfixed;
	if (!desc->ntypes)
		return 0;
	if (t < 0) {
		snprintf(err, errlen, "cpu %d: CPUID read no core type for it", c->id);
		return -1;
	}
	c->type = (int8_t)t;
	c->uarch = desc->type[t].uarch;
	c->ngp = pmu_caps_ngp(&desc->type[t].pmu);
	c->nfixed = pmu_caps_nfixed(&desc->type[t].pmu);
	return 0;
}

/* ---- names and messages ---- */

const char *pmu_strerror(int e, bool write)
{
	switch (-e) {
	case EIO:
		return write ? "the CPU refused the value (EIO: a #GP on WRMSR)"
			     : "the CPU lacks this register (EIO: a #GP on RDMSR)";
	case EPERM:
	case EACCES:
		return write ? "write refused: kernel lockdown or msr.allow_writes=off "
			       "(see /sys/kernel/security/lockdown)"
			     : "permission denied: run as root (or with CAP_SYS_RAWIO)";
	case ENXIO:
		return "the CPU is offline";
	default:
		return strerror(-e);
	}
}

const char *pmu_reg_name(uint32_t reg, char *buf, size_t len)
{
	bool v6;
	int k;

	if ((k = msr_pmc_index(reg, &v6)) >= 0)
		snprintf(buf, len, v6 ? "IA32_PMC_GP%d_CTR" : "IA32_PMC%d", k);
	else if (msr_apmc_index(reg) >= 0)
		snprintf(buf, len, "IA32_A_PMC%u", reg - MSR_A_PMC(0));
	else if ((k = msr_evtsel_index(reg, &v6)) >= 0)
		snprintf(buf, len, v6 ? "IA32_PMC_GP%d_CFG_A" : "IA32_PERFEVTSEL%d", k);
	else if ((k = msr_fixed_index(reg, &v6)) >= 0)
		snprintf(buf, len, v6 ? "IA32_PMC_FX%d_CTR" : "IA32_FIXED_CTR%d", k);
	else if (reg == MSR_OFFCORE_RSP(0) || reg == MSR_OFFCORE_RSP(1))
		snprintf(buf, len, "MSR_OFFCORE_RSP_%u", reg - MSR_OFFCORE_RSP(0));
	else {
		const char *n;

		switch (reg) {
		case MSR_TSC: n = "IA32_TIME_STAMP_COUNTER"; break;
		case MSR_PERF_CAPABILITIES: n = "IA32_PERF_CAPABILITIES"; break;
		case MSR_FIXED_CTR_CTRL: n = "IA32_FIXED_CTR_CTRL"; break;
		case MSR_PERF_GLOBAL_STATUS: n = "IA32_PERF_GLOBAL_STATUS"; break;
		case MSR_PERF_GLOBAL_CTRL: n = "IA32_PERF_GLOBAL_CTRL"; break;
		case MSR_PERF_GLOBAL_INUSE: n = "IA32_PERF_GLOBAL_INUSE"; break;
		case MSR_PEBS_ENABLE: n = "IA32_PEBS_ENABLE"; break;
		case MSR_PEBS_LD_LAT: n = "MSR_PEBS_LD_LAT_THRESHOLD"; break;
		default: n = NULL;
		}
		if (n)
			snprintf(buf, len, "%s", n);
		else
			snprintf(buf, len, "MSR 0x%x", reg);
	}
	return buf;
}
