/*
 * sim_kernel.c: a simulated Linux kernel's perf_event_open(2), behind the
 * perf device interface (cpu/perfdev.h), over the simulated PMU.
 *
 * Owns what the kernel knows and decides, as tables of its own written
 * from the kernel source (keys of shared/reference/pmu-facts.md, K61 and
 * K612 unless named): which model has which PMU (intel_pmu_init), the
 * counter constraints of each (intel_*_event_constraints, the PEBS ones
 * of ds.c), the extra registers and their valid masks (intel_*_extra_regs),
 * which of them HT siblings share, the precise rules (x86_pmu_hw_config),
 * the HT erratum's exclusivity (intel_get_excl_constraints), the
 * permission checks (perf_event_open, perf_allow_kernel/cpu) and the
 * errors.  It never reads lattop's event tables, nor the simulator's
 * (sim_hw.c): it finds its PMU by the CPUID model, as the kernel does, and
 * programs the simulated registers with sim_wrmsr like the kernel's
 * x86_pmu_enable, so that a wrong encoding counts nothing and the profile's
 * ground truth comes out only through the right one.
 *
 * Scheduling follows kernel/events/core.c: per CPU, pinned groups first,
 * then flexible ones in list order, a group on whole or not at all, no
 * further group after the first that does not fit (merge_sched_in); when
 * one did not fit, the flexible list rotates every mux interval
 * (perf_rotate_context), and time_enabled/time_running say how long each
 * event was enabled and counting.  Time is the simulator's clock: the
 * device puts a clock of its own in front of it, so that at each mux
 * boundary the counters are read at that instant.  The HT siblings of a
 * core are brought forward together, so that the sibling a schedule looks
 * at is at the same instant.
 *
 * Modelled: CPU-wide events (pid -1, cpu N) and their groups, counting
 * and sampling ones alike, and the ring buffer of a sampling event
 * (sk_mmap): the profile's contended lines as samples with each family's
 * data source, COMM, LOST and THROTTLE records; per-task events on a CPU
 * (pid P, cpu N: the samples of thread P only) and rings shared through
 * PERF_EVENT_IOC_SET_OUTPUT (see "tasks" below); a hybrid part's PMUs, one
 * per core type (cpu_core as PERF_TYPE_RAW, cpu_atom a type of its own),
 * each refusing its events on the other type's CPUs with ENOENT, and
 * their cpus files.  Not modelled: per-task events on every CPU (cpu -1),
 * cgroup events (-EOPNOTSUPP), the extended type of PERF_TYPE_HARDWARE and
 * HW_CACHE events (config's upper 32 bits: lattop opens raw events only).
 * Single-threaded per device; the process's capabilities are the real ones.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cpu/perfdev.h"
#include "sim/sim_internal.h"
#include "sim/sim_kernel_int.h"

#define B(n) (1ULL << (n))

/* The registers the kernel programs (asm/msr-index.h, perf_event.h). */
#define MSR_OFFCORE_RSP0        0x1a6
#define MSR_OFFCORE_RSP1        0x1a7
#define MSR_FIXED_CTR_CTRL      0x38d
#define MSR_GLOBAL_CTRL         0x38f
#define MSR_PEBS_ENABLE         0x3f1
#define MSR_PEBS_LD_LAT         0x3f6

#define EVTSEL_USR      B(16)
#define EVTSEL_OS       B(17)
#define EVTSEL_INT      B(20)
#define EVTSEL_EN       B(22)
#define RAW_EVENT_MASK  0xff84ffffULL   /* X86_RAW_EVENT_MASK: event, umask, edge, inv, cmask */

#define MSR_TSC                 0x10


/* Descriptors this device hands out: far above any real one, so none is mistaken. */
#define SK_FD_BASE      (1 << 24)

/* A 64-byte attr is PERF_ATTR_SIZE_VER0, the oldest the kernel takes (perf_copy_attr). */
#define SK_ATTR_VER0    64

/* The fixed counters' events: config -> counter (FIXED_EVENT_CONSTRAINT, perf_event.h). */
static const uint64_t sk_fixed_config[3] = { 0x00c0, 0x003c, 0x0300 };


static double sk_clock(void *arg)
{
	return ((struct sk *)arg)->now;
}

/*
 * The simulated machine's time at @w of the clock: the clock's, less what the simulated
 * kernel spent catching up beyond lattop's own time.  A real kernel
 * rotates a CPU's events in microseconds; this one steps the simulated
 * PMU of every CPU that rotates at each mux boundary (sk_catch_up), and
 * where a boundary costs more of the clock than the SK_MUX_S it simulates
 * (under valgrind; at hundreds of CPUs) each catch-up had the wall time of
 * the ones before it to simulate, longer each time: a run of 8 CPUs under
 * callgrind never ended.  So the simulator may spend as much of the clock
 * as lattop did since the device opened (its own work and its sleeps);
 * what it spends beyond that does not pass on the simulated machine, which
 * then runs slower than the clock.  Where the simulator keeps up (every
 * test, lattop on tens of CPUs) this is the clock itself; and either way
 * the counts and times are the same for the same instants of the
 * machine's time.
 */
static double sk_time(struct sk *k, double w)
{
	double own = w - k->t0 - k->busy;

	k->vnow = fmax(k->vnow, w - fmax(0, k->busy - own));
	return k->vnow;
}

/*
 * ---- tasks: per-task events ----
 *
 * The simulated machine's tasks are the profile's (sim_tasks.c).  A
 * per-task event (pid P, cpu N; K61 find_lively_task_by_vpid, a thread
 * id) counts in its task's context (perf_event_context of the task): it
 * goes on the PMU only while its thread runs on CPU N, and its time
 * enabled and running grow only then; it samples what thread P does.
 * inherit (the threads P creates after the open) has nothing to add here:
 * no thread is created later.  A task that ended runs nowhere.
 */

/* The process thread @tid belongs to at instant @now of the device's clock; 0: none. */
static int sk_task_pid(const struct sk *k, int tid, double now)
{
	return sim_task_pid(sim_profile_of(k->sim), tid, now - k->t0);
}

/* Is @e's task on its CPU now (a CPU-wide event always is)? */
static bool sk_task_here(const struct sk *k, const struct sk_event *e)
{
	return !e->task || (e->task % k->ncpus == e->cpu && sk_task_pid(k, e->task, k->now));
}

/*
 * Of the @dt seconds up to now, those in which @e samples the accesses of
 * thread @tid of line @l: none when @e is another thread's, else those
 * the process lived (its threads access nothing before or after).
 */
static double sk_task_sees(const struct sk *k, const struct sk_event *e, const struct sim_line *l,
			   int tid, double dt)
{
	const struct sim_profile *prof = sim_profile_of(k->sim);
	double from, to, t = k->now - k->t0;

	if (e->task && e->task != tid)
		return 0;
	sim_task_life(prof, l->pid, &from, &to);
	if (from <= t - dt && (!to || to >= t))
		return dt;      /* alive all along: @dt itself, not a difference rounded */
	return sim_task_seen(prof, l, t - dt, t);
}

/* The event whose ring @e's records go to (itself, or its SET_OUTPUT target); NULL: none. */
static struct sk_event *sk_task_out(struct sk *k, struct sk_event *e)
{
	struct sk_event *o = e->out >= 0 && e->out < k->nev ? &k->ev[e->out] : e;

	return o->used && o->ring ? o : NULL;
}

/* /proc/PID/task of the simulated machine. */
static int sk_tasks(struct perfdev *d, pid_t pid, int *tids, int max)
{
	struct sk *k = d->priv;
	double now = sk_time(k, k->clock(k->clock_arg));

	return sim_tasks(sim_profile_of(k->sim), pid, now - k->t0, tids, max);
}

/*
 * PERF_EVENT_IOC_SET_OUTPUT (K61 perf_event_set_output): @e's records go
 * to @o's ring; both on one CPU, and @e without a ring of its own.
 */
static int sk_task_set_output(struct sk *k, struct sk_event *e, struct sk_event *o)
{
	size_t nacc = (size_t)sim_profile_of(k->sim)->nlines * SIM_LINE_ACCESSES;

	if (!o) {
		e->out = -1;
		return 0;
	}
	if (o->cpu != e->cpu || o == e)
		return -EINVAL;
	if (e->ring)
		return -EBUSY;
	if (!e->carry) {
		e->carry = calloc(nacc ? nacc : 1, sizeof(double));
		e->rcarry = calloc(nacc ? nacc : 1, sizeof(double));
		if (!e->carry || !e->rcarry)
			return -ENOMEM;
	}
	e->out = (int)(o - k->ev);
	return 0;
}

/* ---- scheduling ---- */

/* The extra register @config needs (x86_pmu_extra_regs: by config alone, precise or not). */
static const struct sk_er *sk_find_er(const struct sk_pmu *pmu, uint64_t config)
{
	for (const struct sk_er *er = pmu->er; er->code; er++)
		if ((config & er->mask) == er->code)
			return er;
	return NULL;
}

static const struct sk_cons *sk_find_cons(const struct sk_cons *c, uint64_t config)
{
	for (; c->cntmask; c++)
		if ((config & c->mask) == c->code)
			return c;
	return NULL;
}

static int sk_sibling(const struct sk *k, int cpu)
{
	if (k->tpc < 2)
		return -1;
	return cpu >= k->ncores ? cpu - k->ncores : cpu + k->ncores;
}

/* The counters @e may use: bits 0..ngp-1 general, 32 + n fixed. */
static uint64_t sk_counters(const struct sk *k, const struct sk_event *e, bool *excl)
{
	const struct sk_core *co = sk_core_of(k, e->cpu);
	uint64_t all = (1ULL << co->ngp) - 1, config = e->config & RAW_EVENT_MASK;
	const struct sk_cons *c;

	*excl = false;
	if (e->attr.precise_ip) {
		/* A precise event goes where PEBS is, or nowhere (intel_pebs_constraints). */
		c = sk_find_cons(co->pmu->pebs, config);
		return c ? c->cntmask & all : 0;
	}
	for (unsigned n = 0; n < 3 && n < co->nfixed; n++)
		if (config == sk_fixed_config[n])
			/* intel_pmu_init widens the fixed constraints to every counter, but ref-cycles' */
			return B(32 + n) | (n < 2 ? all : 0);
	c = sk_find_cons(co->pmu->cons, config);
	if (!c)
		return all;
	*excl = c->excl && co->pmu->ht_bug && k->tpc > 1;
	return c->cntmask & all;
}

struct sk_try {
	int n;
	int ev[SIM_MAX_GP + SIM_MAX_FIXED];
	uint64_t mask[SIM_MAX_GP + SIM_MAX_FIXED];
	int ctr[SIM_MAX_GP + SIM_MAX_FIXED];
};

/*
 * Can events @i.. of @t still have a counter each, none of @used taken:
 * a matching of events to counters (Kuhn's augmenting paths, @own: the
 * event on each counter, -1)?
 */
static bool sk_augment(const struct sk_try *t, int i, uint64_t free, uint64_t *seen, int *own)
{
	for (uint64_t m = t->mask[i] & free & ~*seen; m; m &= m - 1) {
		int c = __builtin_ctzll(m);

		*seen |= B(c);
		if (own[c] < 0 || sk_augment(t, own[c], free, seen, own)) {
			own[c] = i;
			return true;
		}
	}
	return false;
}

static bool sk_can_assign(const struct sk_try *t, int i, uint64_t used)
{
	int own[64];

	memset(own, -1, sizeof(own));
	for (; i < t->n; i++) {
		uint64_t seen = 0;

		if (!sk_augment(t, i, ~used, &seen, own))
			return false;
	}
	return true;
}

/*
 * Counters for every event of @t, fixed ones preferred (__perf_sched_find_counter):
 * the first assignment in this search order.  A counter is tried only when
 * the events after it can still be placed, so the search never goes down
 * a branch that fails: a set that does not fit is known at once, where
 * trying every assignment of it took up to the factorial of its events
 * (tens of thousands of steps at each rotation of a full Haswell thread).
 */
static bool sk_assign(struct sk_try *t, int i, uint64_t used)
{
	if (i == t->n)
		return true;
	if (i == 0 && !sk_can_assign(t, 0, used))
		return false;
	for (int pass = 0; pass < 2; pass++)
		for (int c = pass ? 0 : 32; pass ? c < 32 : c < 64; c++) {
			if (!(t->mask[i] & B(c)) || (used & B(c)) || !sk_can_assign(t, i + 1, used | B(c)))
				continue;
			t->ctr[i] = c;
			if (sk_assign(t, i + 1, used | B(c)))
				return true;
		}
	return false;
}

/* Hold extra register @idx for @e on @cpu; false when it holds another value. */
static bool sk_er_get(struct sk *k, int cpu, int idx, uint64_t val)
{
	struct sk_cpu *c = &k->cpu[cpu];
	int s = sk_pmu_of(k, cpu)->er_per_core ? sk_sibling(k, cpu) : -1;

	if (c->er_ref[idx] && c->er_val[idx] != val)
		return false;
	if (s >= 0 && k->cpu[s].er_ref[idx] && k->cpu[s].er_val[idx] != val)
		return false;
	c->er_val[idx] = val;
	c->er_ref[idx]++;
	return true;
}

/*
 * The extra register of @e: its own, or with PMU_FL_HAS_RSP_1 the other
 * RSP register when its own holds another value and the value fits the
 * other's mask, the event moved there (intel_alt_er).
 */
static bool sk_er_take(struct sk *k, struct sk_event *e)
{
	const struct sk_pmu *pmu = sk_pmu_of(k, e->cpu);
	const struct sk_er *own, *alt;
	uint64_t moved;

	e->config = e->attr.config;
	e->er_at = -1;
	if (e->er < 0)
		return true;
	if (sk_er_get(k, e->cpu, e->er, e->attr.config1)) {
		e->er_at = e->er;
		return true;
	}
	if (!pmu->alt_rsp || e->er == SK_ER_LDLAT)
		return false;
	if (pmu->alt_by_umask)
		moved = (e->attr.config & ~0xff00ULL) | ((e->er == SK_ER_RSP0 ? 0x02ULL : 0x01ULL) << 8);
	else
		moved = (e->attr.config & ~0xffULL) | (e->er == SK_ER_RSP0 ? 0xbb : 0xb7);
	own = sk_find_er(pmu, e->attr.config);
	alt = sk_find_er(pmu, moved);
	if (!own || !alt || alt->idx == own->idx || (e->attr.config1 & ~alt->valid))
		return false;
	if (!sk_er_get(k, e->cpu, alt->idx, e->attr.config1))
		return false;
	e->config = moved;
	e->er_at = alt->idx;
	return true;
}

static void sk_er_put(struct sk *k, struct sk_event *e)
{
	if (e->er_at >= 0)
		k->cpu[e->cpu].er_ref[e->er_at]--;
	e->er_at = -1;
}

/*
 * Try to put group @g on @cpu beside what is on: its extra registers,
 * then counters for all that is on and the group together (the kernel
 * schedules the whole set again: x86_schedule_events).  With the HT bug,
 * an EXCL event keeps off the counters the sibling uses, and no event goes
 * where the sibling has an EXCL one.
 */
static bool sk_group_fits(struct sk *k, int cpu, int g, struct sk_try *t)
{
	struct sk_event *lead = &k->ev[g];
	int members[PERFDEV_GROUP_MAX], nm = 0, s = sk_sibling(k, cpu);
	uint64_t sib_busy = 0, sib_excl = 0;
	struct sk_try nt = *t;

	members[nm++] = g;
	for (int i = 0; i < lead->nsib; i++)
		if (k->ev[lead->sib[i]].state != SK_OFF)
			members[nm++] = lead->sib[i];
	if (s >= 0 && sk_pmu_of(k, cpu)->ht_bug)
		for (unsigned i = 0; i < sk_core_of(k, cpu)->ngp; i++) {
			int o = k->cpu[s].gp[i];
			bool x;

			if (o < 0)
				continue;
			sib_busy |= B(i);
			sk_counters(k, &k->ev[o], &x);
			if (x)
				sib_excl |= B(i);
		}
	for (int i = 0; i < nm; i++) {
		struct sk_event *e = &k->ev[members[i]];
		bool excl;

		if (nt.n >= (int)(sizeof(nt.ev) / sizeof(nt.ev[0])) || !sk_er_take(k, e))
			goto undo;
		nt.ev[nt.n] = members[i];
		nt.mask[nt.n] = sk_counters(k, e, &excl) & ~sib_excl & ~(excl ? sib_busy : 0);
		nt.n++;
	}
	if (!sk_assign(&nt, 0, 0))
		goto undo;
	*t = nt;
	return true;
undo:
	for (int i = 0; i < nm; i++)
		sk_er_put(k, &k->ev[members[i]]);
	return false;
}

/* Read @e's counter into its count (the counter's width: deltas wrap). */
static void sk_read_ctr(struct sk *k, struct sk_event *e)
{
	uint64_t v = 0, mask;
	uint32_t reg;

	if (e->tsc && e->state == SK_ACTIVE) {
		if (sim_rdmsr(k->sim, e->cpu, MSR_TSC, &v) == 0) {
			e->count += v - e->raw;
			e->raw = v;
		}
		return;
	}
	if (e->state != SK_ACTIVE || e->ctr < 0)
		return;
	reg = e->ctr >= 32 ? sk_fixed_reg(sk_core_of(k, e->cpu), (unsigned)(e->ctr - 32))
			   : sk_pmc_reg(sk_core_of(k, e->cpu), (unsigned)e->ctr);
	mask = e->ctr >= 32 ? sk_core_of(k, e->cpu)->fx_mask : sk_core_of(k, e->cpu)->gp_mask;
	if (sim_rdmsr(k->sim, e->cpu, reg, &v) == 0) {
		e->count += (v - e->raw) & mask;
		e->raw = v;
	}
}

/* Event @i is on its CPU now: into that CPU's list.  0 or -ENOMEM. */
static int sk_cpu_add(struct sk *k, int i)
{
	struct sk_cpu *c = &k->cpu[k->ev[i].cpu];

	if (c->nev == c->cap) {
		int cap = c->cap ? c->cap * 2 : 16;
		int *ne = realloc(c->ev, sizeof(*ne) * (size_t)cap);

		if (!ne)
			return -ENOMEM;
		c->ev = ne;
		c->cap = cap;
	}
	c->ev[c->nev++] = i;
	return 0;
}

static void sk_cpu_del(struct sk *k, int i)
{
	struct sk_cpu *c = &k->cpu[k->ev[i].cpu];

	for (int j = 0; j < c->nev; j++)
		if (c->ev[j] == i) {
			memmove(&c->ev[j], &c->ev[j + 1], sizeof(int) * (size_t)(c->nev - j - 1));
			c->nev--;
			break;
		}
	if (i < k->free_hint)
		k->free_hint = i;
}

/* ---- samples into ring buffers ---- */

static void sk_ring_free(struct sk_event *e)
{
	free(e->ring);
	free(e->carry);
	free(e->rcarry);
	e->ring = NULL;
	e->carry = e->rcarry = NULL;
}

/* HZ and the unthrottle tick (K61 perf_event_max_sample_rate, __perf_event_account_interrupt). */
#define SK_HZ 250
/* What the simulated hardware measures of a HITM load: local, remote (core cycles). */
#define SK_LAT_HITM 110
#define SK_LAT_REMOTE_HITM 310

/* Room in @e's ring for @len bytes (data_tail read with acquire, as the kernel does). */
static bool sk_ring_room(const struct sk_event *e, size_t len)
{
	const struct perf_event_mmap_page *m = (const void *)e->ring;
	uint64_t tail = __atomic_load_n(&m->data_tail, __ATOMIC_ACQUIRE);

	return m->data_size - (m->data_head - tail) >= len;
}

/* Copy @len bytes into @e's ring at data_head, wrapping, and publish them. */
static void sk_ring_write(struct sk_event *e, const void *rec, size_t len)
{
	struct perf_event_mmap_page *m = (void *)e->ring;
	unsigned char *data = e->ring + m->data_offset;
	uint64_t at = m->data_head & (m->data_size - 1);
	size_t first = len < m->data_size - at ? len : (size_t)(m->data_size - at);

	memcpy(data + at, rec, first);
	memcpy(data, (const unsigned char *)rec + first, len - first);
	__atomic_store_n(&m->data_head, m->data_head + len, __ATOMIC_RELEASE);
}

/*
 * Put a record in @e's ring, or count it lost: false then.  The LOST
 * record goes first, when the next record fits: the kernel says a loss
 * only with the next output that finds room (pmu-facts 10.5, K61
 * perf_output_begin); the event whose sample it was counts it at once
 * (its lost_samples, which PERF_FORMAT_LOST reads: the caller's).
 */
static bool sk_ring_put(struct sk_event *e, uint64_t id, const void *rec, size_t len, bool sample)
{
	struct { struct perf_event_header h; uint64_t id, lost; } lost = {
		{ PERF_RECORD_LOST, 0, sizeof(lost) }, id, 0,
	};

	if (!e)
		return false;
	if (e->lost) {
		if (!sk_ring_room(e, sizeof(lost) + len)) {
			e->lost += sample;
			return false;
		}
		lost.lost = e->lost;
		sk_ring_write(e, &lost, sizeof(lost));
		e->lost = 0;
	}
	if (!sk_ring_room(e, len)) {
		e->lost += sample;
		return false;
	}
	sk_ring_write(e, rec, len);
	return true;
}

/* The kernel's data source for a HITM load from @remote on this PMU (its own table). */
static uint64_t sk_data_src(const struct sk *k, int cpu, bool remote)
{
	const struct sk_pmu *pmu = sk_pmu_of(k, cpu);
	uint8_t code = remote ? pmu->dse_remote_hitm : pmu->dse_hitm;

	for (const struct sim_dse *d = pmu->dse; d && d->code; d++)
		if (d->code == code)
			return d->data_src;
	return 0;
}

/*
 * One PERF_RECORD_SAMPLE of @e, laid out by its sample_type (K61
 * perf_output_sample); of a precise snoop event (@snoop, sim_dse.c) the
 * data source says only "load".
 */
static void sk_sample(struct sk *k, struct sk_event *e, const struct sim_line *l,
		      const struct sim_line_access *a, bool store, bool remote, bool snoop)
{
	uint64_t w[32], t = e->attr.sample_type, id = (uint64_t)(e - k->ev) + 1;
	uint64_t addr = l->addr + a->offset;
	size_t n = 1;

	if (t & PERF_SAMPLE_IDENTIFIER)
		w[n++] = id;
	if (t & PERF_SAMPLE_IP)
		w[n++] = l->ip ? l->ip : 0x401000 + (uint64_t)a->offset * 4 + (store ? 2 : 0);
	if (t & PERF_SAMPLE_TID)
		w[n++] = (uint64_t)(uint32_t)l->pid | (uint64_t)(uint32_t)a->tid << 32;
	if (t & PERF_SAMPLE_TIME)
		w[n++] = (uint64_t)(k->now * 1e9);
	if (t & PERF_SAMPLE_ADDR)
		w[n++] = addr;
	if (t & PERF_SAMPLE_ID)
		w[n++] = id;
	if (t & PERF_SAMPLE_STREAM_ID)
		w[n++] = id;
	if (t & PERF_SAMPLE_CPU)
		w[n++] = (uint64_t)(uint32_t)e->cpu;
	if (t & PERF_SAMPLE_PERIOD)
		w[n++] = e->attr.sample_period;
	/* the latency is load latency's alone; a snoop event's weight is its TSX one, 0 */
	if (t & PERF_SAMPLE_WEIGHT)
		w[n++] = store || snoop ? 0 : remote ? SK_LAT_REMOTE_HITM : SK_LAT_HITM;
	if (t & PERF_SAMPLE_WEIGHT_STRUCT)
		w[n++] = store || snoop ? 0 : remote ? SK_LAT_REMOTE_HITM : SK_LAT_HITM;
	if (t & PERF_SAMPLE_DATA_SRC)
		w[n++] = store ? sim_dse_store : snoop ? sim_dse_datala_load :
			 sk_data_src(k, e->cpu, remote);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		w[n++] = sim_phys(addr, l->pid, l->node);
	memcpy(&w[0], &(struct perf_event_header){ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
						   (uint16_t)(n * 8) }, 8);
	if (!sk_ring_put(sk_task_out(k, e), id, w, n * 8, true))
		e->lost_samples++;
}

/* THROTTLE or UNTHROTTLE: { time, id, stream_id } (K61 perf_log_throttle). */
static void sk_throttle_rec(struct sk *k, struct sk_event *e, uint32_t type)
{
	struct { struct perf_event_header h; uint64_t time, id, stream_id; } r = {
		{ type, 0, sizeof(r) }, (uint64_t)(k->now * 1e9), (uint64_t)(e - k->ev) + 1,
		(uint64_t)(e - k->ev) + 1,
	};

	sk_ring_put(sk_task_out(k, e), r.id, &r, sizeof(r), false);
}

/* One side-band record into @e's ring (sim_task_sideband's callback). */
static void sk_task_record(void *arg, const void *rec, size_t len)
{
	void **ke = arg;
	struct sk *k = ke[0];
	struct sk_event *e = ke[1];

	sk_ring_put(sk_task_out(k, e), (uint64_t)(e - k->ev) + 1, rec, len, false);
}

/* The side-band of the processes that started or ended in (@t - @dt, @t], for CPU-wide @e. */
static void sk_task_sideband(struct sk *k, struct sk_event *e, double t, double dt)
{
	unsigned want = (e->attr.task ? SIM_SB_TASK : 0) | (e->attr.comm ? SIM_SB_COMM : 0) |
			(e->attr.mmap2 ? SIM_SB_MMAP2 : 0);
	void *ke[2] = { k, e };

	if (!e->task && want && sk_task_out(k, e))
		sim_task_sideband(sim_profile_of(k->sim), e->cpu, k->ncpus, t - dt - k->t0,
				  t - k->t0, k->t0, want, sk_task_record, ke);
}

/*
 * The samples @e owes for @dt seconds of counting on its CPU: each
 * profile line's accesses by threads on this CPU (thread TID on CPU TID %
 * cpus), loads for the load-latency event when their latency is above its
 * threshold, stores of the writing accesses for "mem-stores".  Above
 * perf_event_max_sample_rate the event is throttled: the kernel stops it
 * for the rest of each tick, so only max_rate x dt samples come, and each
 * tick says THROTTLE and UNTHROTTLE.
 */
static void sk_emit(struct sk *k, struct sk_event *e, double dt)
{
	const struct sim_profile *prof = sim_profile_of(k->sim);
	uint64_t cfg = e->attr.config & 0xffff;
	const struct sk_pmu *pmu = sk_pmu_of(k, e->cpu);
	bool loads = cfg == pmu->ldlat_config;
	bool stores = pmu->store_config && cfg == pmu->store_config;
	int snoop = e->attr.precise_ip ? sim_snoop_event(pmu->name, cfg) : SIM_SNOOP_NONE;
	double period = (double)e->attr.sample_period, want = 0, keep = 1;
	/*
	 * The load-latency event sees only the loads the hardware tags
	 * (pmu-facts 8.1): its samples are of tagged loads, as the simulated
	 * PMU counts them; mem-stores counts every store.
	 */
	double tagged = prof->cpu[e->cpu].ldlat_tagged_fraction;
	double max_rate = prof->max_sample_rate > 0 ? prof->max_sample_rate :
			  SIM_DEFAULT_MAX_SAMPLE_RATE;

	if (!sk_task_out(k, e) || !e->carry || (!loads && !stores && !snoop) || !(dt > 0) ||
	    period < 1)
		return;
	for (int i = 0; i < prof->nlines; i++) {
		const struct sim_line *l = &prof->lines[i];
		/* a snoop event: the share of the line's HITM loads it counts */
		double share = snoop == SIM_SNOOP_HITM ? 1 - l->remote : snoop ? l->remote : 1;

		for (int j = 0; j < l->nacc; j++)
			if (l->acc[j].tid % k->ncpus == e->cpu && (!stores || l->acc[j].write))
				want += l->hitm_per_sec / l->nacc * sk_task_sees(k, e, l, l->acc[j].tid, dt) /
					period * (loads ? tagged : share);
	}
	if (want > max_rate * dt) {
		keep = max_rate * dt / want;
		for (int t = 0, ticks = (int)ceil(dt * SK_HZ); t < ticks; t++) {
			sk_throttle_rec(k, e, PERF_RECORD_THROTTLE);
			sk_throttle_rec(k, e, PERF_RECORD_UNTHROTTLE);
		}
	}
	for (int i = 0; i < prof->nlines; i++) {
		const struct sim_line *l = &prof->lines[i];

		double share = snoop == SIM_SNOOP_HITM ? 1 - l->remote : snoop ? l->remote : 1;

		for (int j = 0; j < l->nacc; j++) {
			const struct sim_line_access *a = &l->acc[j];
			double *c = &e->carry[i * SIM_LINE_ACCESSES + j];
			double *rc = &e->rcarry[i * SIM_LINE_ACCESSES + j];

			if (a->tid % k->ncpus != e->cpu || (stores && !a->write))
				continue;
			/* every access's load is served HITM: local at SK_LAT_HITM, remote above */
			*c += l->hitm_per_sec / l->nacc * sk_task_sees(k, e, l, a->tid, dt) / period * keep *
			      (loads ? tagged : share);
			for (; *c >= 1; *c -= 1) {
				bool remote = false;

				if (loads) {
					*rc += l->remote;
					remote = *rc >= 1;
					if (remote)
						*rc -= 1;
					if ((remote ? SK_LAT_REMOTE_HITM : SK_LAT_HITM) <=
					    (double)(e->attr.config1 & 0xffff))
						continue;
				}
				sk_sample(k, e, l, a, stores, remote || snoop == SIM_SNOOP_REMOTE,
					  snoop != SIM_SNOOP_NONE);
			}
		}
	}
}

/* Bring @cpu's events to instant @t: counts read there, times added. */
static void sk_step(struct sk *k, int cpu, double t)
{
	struct sk_cpu *c = &k->cpu[cpu];
	double dt = t - c->t;

	if (!(dt > 0))
		return;
	k->now = t;
	for (int j = 0; j < c->nev; j++) {
		struct sk_event *e = &k->ev[c->ev[j]];

		if (e->state == SK_ACTIVE) {
			sk_read_ctr(k, e);
			if (sk_task_here(k, e))
				e->running += dt;
			sk_emit(k, e, dt);      /* a task's: up to its end (sk_task_sees) */
		}
		if ((e->state == SK_ACTIVE || e->state == SK_INACTIVE) && sk_task_here(k, e))
			e->enabled += dt;
		if (e->state == SK_ACTIVE || e->state == SK_INACTIVE)
			sk_task_sideband(k, e, t, dt);
	}
	c->t = t;
}

/* Write @cpu's registers for what is on it now (x86_pmu_enable, intel_pmu_enable_event). */
static void sk_program(struct sk *k, int cpu)
{
	struct sk_cpu *c = &k->cpu[cpu];
	const struct sk_core *co = sk_core_of(k, cpu);
	uint64_t global = 0, fixed_ctrl = 0, pebs = 0;
	struct sim *sim = k->sim;

	k->now = c->t;
	sim_wrmsr(sim, cpu, MSR_GLOBAL_CTRL, 0);
	sim_wrmsr(sim, cpu, MSR_PEBS_ENABLE, 0);
	for (unsigned i = 0; i < co->ngp; i++) {
		struct sk_event *e = c->gp[i] >= 0 ? &k->ev[c->gp[i]] : NULL;
		uint64_t sel = 0;

		if (e) {
			sel = (e->config & RAW_EVENT_MASK) | EVTSEL_INT | EVTSEL_EN |
			      (e->attr.exclude_user ? 0 : EVTSEL_USR) |
			      (e->attr.exclude_kernel ? 0 : EVTSEL_OS);
			global |= B(i);
			/*
			 * PEBS_EN and, before version 5, LL_EN, for a precise event
			 * only (intel_pmu_pebs_enable); MSR 0x3F6 is written for any
			 * event holding the register (pmu-facts 10.2).
			 */
			if (e->er_at == SK_ER_LDLAT && e->attr.precise_ip)
				pebs |= B(i) | (co->version < 5 ? B(32 + i) : 0);
			e->raw = 0;
		}
		sim_wrmsr(sim, cpu, sk_evtsel_reg(co, i), sel);
		sim_wrmsr(sim, cpu, sk_pmc_reg(co, i), 0);
	}
	for (unsigned n = 0; n < co->nfixed; n++) {
		struct sk_event *e = c->fx[n] >= 0 ? &k->ev[c->fx[n]] : NULL;

		if (e) {
			/* PMI always; OS and USR as asked (intel_pmu_enable_fixed) */
			fixed_ctrl |= (0x8ULL | (e->attr.exclude_kernel ? 0 : 0x1) |
				       (e->attr.exclude_user ? 0 : 0x2)) << (4 * n);
			global |= B(32 + n);
			e->raw = 0;
		}
		sim_wrmsr(sim, cpu, sk_fixed_reg(co, n), 0);
	}
	sim_wrmsr(sim, cpu, MSR_FIXED_CTR_CTRL, fixed_ctrl);
	if (c->er_ref[SK_ER_RSP0])
		sim_wrmsr(sim, cpu, MSR_OFFCORE_RSP0, c->er_val[SK_ER_RSP0]);
	if (c->er_ref[SK_ER_RSP1])
		sim_wrmsr(sim, cpu, MSR_OFFCORE_RSP1, c->er_val[SK_ER_RSP1]);
	if (c->er_ref[SK_ER_LDLAT])
		sim_wrmsr(sim, cpu, MSR_PEBS_LD_LAT, c->er_val[SK_ER_LDLAT] & 0xffff);
	sim_wrmsr(sim, cpu, MSR_PEBS_ENABLE, pebs);
	sim_wrmsr(sim, cpu, MSR_GLOBAL_CTRL, global);
}

static int sk_cmp_seq(const void *a, const void *b, void *arg)
{
	const struct sk *k = arg;
	const struct sk_event *x = &k->ev[*(const int *)a], *y = &k->ev[*(const int *)b];

	if (x->attr.pinned != y->attr.pinned)
		return x->attr.pinned ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * Schedule @cpu anew at its instant: everything off, then pinned groups,
 * then flexible ones in order until one does not fit (merge_sched_in).  A
 * pinned group that does not fit goes into error; a flexible one waits
 * for the rotation.
 */
static void sk_schedule(struct sk *k, int cpu)
{
	struct sk_cpu *c = &k->cpu[cpu];
	struct sk_try t = { .n = 0 };
	int *groups, ng = 0;
	bool can_add = true, was;

	groups = malloc(sizeof(*groups) * (size_t)(c->nev ? c->nev : 1));
	if (!groups)
		return;
	for (int j = 0; j < c->nev; j++) {
		int i = c->ev[j];
		struct sk_event *e = &k->ev[i];

		if (e->tsc)
			continue;
		sk_er_put(k, e);
		e->ctr = -1;
		if (e->state == SK_ACTIVE)
			e->state = SK_INACTIVE;
		if (e->leader == i && e->state == SK_INACTIVE && sk_task_here(k, e))
			groups[ng++] = i;
	}
	qsort_r(groups, (size_t)ng, sizeof(*groups), sk_cmp_seq, k);
	was = c->rotate;
	c->rotate = false;
	for (int g = 0; g < ng; g++) {
		struct sk_event *lead = &k->ev[groups[g]];

		if (can_add && sk_group_fits(k, cpu, groups[g], &t))
			continue;
		can_add = false;
		if (lead->attr.pinned) {
			lead->state = SK_ERROR;
			for (int i = 0; i < lead->nsib; i++)
				k->ev[lead->sib[i]].state = SK_ERROR;
		} else {
			c->rotate = true;
		}
	}
	free(groups);
	/*
	 * The CPU's mux timer starts when rotation becomes necessary there
	 * (perf_mux_hrtimer_restart), at this CPU's instant: the siblings'
	 * timers are not in step, as on a real machine.
	 */
	if (c->rotate && !was)
		c->next_rot = c->t + SK_MUX_S;
	for (unsigned i = 0; i < SIM_MAX_GP; i++)
		c->gp[i] = -1;
	for (unsigned n = 0; n < SIM_MAX_FIXED; n++)
		c->fx[n] = -1;
	for (int i = 0; i < t.n; i++) {
		struct sk_event *e = &k->ev[t.ev[i]];

		e->ctr = t.ctr[i];
		e->state = SK_ACTIVE;
		if (e->ctr >= 32)
			c->fx[e->ctr - 32] = t.ev[i];
		else
			c->gp[e->ctr] = t.ev[i];
	}
	sk_program(k, cpu);
}

/* perf_rotate_context: the first flexible group goes last. */
static void sk_rotate(struct sk *k, int cpu)
{
	struct sk_cpu *c = &k->cpu[cpu];
	int first = -1;

	for (int j = 0; j < c->nev; j++) {
		int i = c->ev[j];
		struct sk_event *e = &k->ev[i];

		if (e->leader == i && !e->attr.pinned &&
		    e->state != SK_OFF && e->state != SK_ERROR && (first < 0 || e->seq < k->ev[first].seq))
			first = i;
	}
	if (first >= 0)
		k->ev[first].seq = k->cpu[cpu].seq++;
}

/*
 * Bring the CPUs that share hardware with @cpu (its module: the HT
 * siblings, and on the Atoms the other core behind the L2, whose offcore
 * registers the simulator shares) to the machine's now together, rotating
 * at each mux boundary, in time order, on the CPUs that need it.  Together,
 * so that no simulated register a partner shares is written at an instant
 * earlier than one the partner has already counted to.
 */
static void sk_catch_up(struct sk *k, int cpu)
{
	double w = k->clock(k->clock_arg), now = sk_time(k, w);
	int g = k->group[cpu];

	for (;;) {
		double next = now;
		int who = -1;

		for (int c = 0; c < k->ncpus; c++)
			if (k->group[c] == g && k->cpu[c].rotate && k->cpu[c].next_rot < next) {
				next = k->cpu[c].next_rot;
				who = c;
			}
		for (int c = 0; c < k->ncpus; c++)
			if (k->group[c] == g)
				sk_step(k, c, next);
		if (who < 0)
			break;
		k->cpu[who].next_rot = next + SK_MUX_S;
		sk_rotate(k, who);
		sk_schedule(k, who);
	}
	k->now = now;
	/* what the catch-up cost of the clock (sk_time) */
	k->busy += fmax(0, k->clock(k->clock_arg) - w);
}

/* ---- the device ---- */

static struct sk_event *sk_fd_event(struct sk *k, int fd)
{
	int i = fd - SK_FD_BASE;

	if (i < 0 || i >= k->nev || !k->ev[i].used || k->ev[i].internal)
		return NULL;
	return &k->ev[i];
}

static int sk_new_event(struct sk *k)
{
	/* A freed slot from the lowest one freed on: opens stay linear in the events. */
	for (int i = k->free_hint; i < k->nev; i++)
		if (!k->ev[i].used) {
			k->free_hint = i + 1;
			return i;
		}
	k->free_hint = k->nev + 1;
	if (k->nev == k->cap) {
		int cap = k->cap ? k->cap * 2 : 64;
		struct sk_event *ne = realloc(k->ev, sizeof(*ne) * (size_t)cap);

		if (!ne)
			return -ENOMEM;
		k->ev = ne;
		k->cap = cap;
	}
	return k->nev++;
}

/*
 * Does the kernel take @a on @cpu (perf_init_event, x86_pmu_event_init,
 * x86_pmu_hw_config, x86_pmu_extra_regs)?  0 and its PMU's case in *@pmu,
 * or a negative errno.
 */
static int sk_check_attr(const struct sk *k, const struct perf_event_attr *a, int cpu, int *er,
			 const struct sk_pmu **pmu)
{
	const struct sk_core *co = NULL;
	const struct sk_er *x;
	bool sampling = a->sample_period != 0;

	*er = -1;
	*pmu = NULL;
	if (a->type == SK_MSR_PMU_TYPE)
		return a->config == 0 && !a->sample_period && !a->precise_ip ? 0 : -EINVAL;
	/*
	 * The PMU registered under the type (perf_init_event's idr_find):
	 * PERF_TYPE_RAW is the core PMU, on a hybrid part the big one's; no
	 * PMU, ENOENT.  On a hybrid part a CPU outside the PMU's
	 * supported_cpus is ENOENT too (x86_pmu_event_init), and the type
	 * being the attr's own, the kernel tries no other PMU.
	 */
	for (int i = 0; i < k->ncore; i++)
		if (k->core[i].type == a->type)
			co = &k->core[i];
	if (!co || (cpu >= 0 && co != sk_core_of(k, cpu)))
		return -ENOENT;
	*pmu = co->pmu;
	if (a->precise_ip > co->pmu->max_precise)
		return -EOPNOTSUPP;
	if (a->precise_ip && !sampling)
		return -EINVAL;
	if (a->freq && a->sample_freq == 0)
		return -EINVAL;
	x = sk_find_er(co->pmu, a->config);
	if (x) {
		if (a->config1 & ~x->valid)
			return -EINVAL;
		*er = x->idx;
	}
	return 0;
}

/* The descriptors open now, besides the events. */
static long sk_fd_open(void)
{
	long open_now = 0;
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *de;

	while (dir && (de = readdir(dir)))
		open_now += de->d_name[0] != '.';
	if (dir)
		closedir(dir);
	return open_now;
}

/* RLIMIT_NOFILE's soft limit now. */
static long sk_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > LONG_MAX)
		return LONG_MAX;
	return (long)rl.rlim_cur;
}

/*
 * CAP_PERFMON (38) and CAP_SYS_ADMIN (21) in this process's effective set
 * now: the kernel asks at every perf_event_open(2), and lattop may have
 * given capabilities up since the last one.
 */
static void sk_caps(struct sk *k)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct c[2];
	unsigned long long eff = 0;

	memset(c, 0, sizeof(c));
	if (syscall(SYS_capget, &h, c) == 0)
		eff = c[0].effective | (unsigned long long)c[1].effective << 32;
	k->sys_admin = eff & B(21);
	k->perfmon = k->sys_admin || (eff & B(38));
}

static int sk_open(struct perfdev *d, const struct perf_event_attr *attr, pid_t pid, int cpu,
		   int group_fd, unsigned long flags)
{
	struct sk *k = sk_of(d);
	struct sk_event *lead = NULL, *e;
	const struct sk_pmu *pmu;
	int er, rc, i;

	if (flags & ~(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT | PERF_FLAG_PID_CGROUP |
		      PERF_FLAG_FD_CLOEXEC))
		return -EINVAL;
	if (attr->size && (attr->size < SK_ATTR_VER0 || attr->size > sizeof(*attr)))
		return -E2BIG;
	sk_caps(k);
	/* Debian's level 3 (CONFIG_SECURITY_PERF_EVENTS_RESTRICT): CAP_SYS_ADMIN or nothing */
	if (k->paranoid > 2 && !k->sys_admin)
		return -EACCES;
	if (!attr->exclude_kernel && k->paranoid > 1 && !k->perfmon)
		return -EACCES;
	if ((flags & PERF_FLAG_PID_CGROUP) && (pid == -1 || cpu == -1))
		return -EINVAL;
	if (pid == -1 && cpu == -1)
		return -EINVAL;
	if (cpu < -1 || cpu >= k->ncpus)
		return -EINVAL;
	if (group_fd != -1) {
		lead = sk_fd_event(k, group_fd);
		if (!lead)
			return -EBADF;
	}
	rc = sk_check_attr(k, attr, cpu, &er, &pmu);
	if (rc < 0)
		return rc;
	/* a read_format bit the kernel does not know (PERF_FORMAT_LOST before 6.0: perf_copy_attr) */
	if ((attr->read_format & PERF_FORMAT_LOST) && sim_profile_of(k->sim)->no_format_lost)
		return -EINVAL;
	if (attr->type == SK_MSR_PMU_TYPE && group_fd != -1)
		return -EINVAL;         /* the TSC in a group is not modelled */
	/*
	 * PMU_FL_MEM_LOADS_AUX (Sapphire Rapids): a load-latency event that
	 * samples the data source must have LD_BLOCKS.STORE_FORWARD 0x8203
	 * as its group leader; -ENODATA when it leads itself (K612
	 * intel_pmu_hw_config, require_mem_loads_aux_event).
	 */
	if (pmu && pmu->mem_loads_aux && attr->precise_ip &&
	    (attr->sample_type & PERF_SAMPLE_DATA_SRC) &&
	    (attr->config & 0xffff) == pmu->ldlat_config) {
		if (!lead)
			return -ENODATA;
		if ((lead->attr.config & 0xffff) != 0x8203)
			return -EINVAL;
	}
	if (pid != -1 && ((flags & PERF_FLAG_PID_CGROUP) || cpu == -1 || pid == 0))
		return -EOPNOTSUPP;     /* cgroups, a task's on every CPU, the caller's: not modelled */
	if (pid != -1 && sk_task_pid(k, pid, sk_time(k, k->clock(k->clock_arg))) == 0)
		return -ESRCH;          /* find_lively_task_by_vpid */
	if (pid == -1 && k->paranoid > 0 && !k->perfmon)
		return -EACCES;         /* perf_allow_cpu; the profile's tasks are the user's own */
	if (lead) {
		if (lead->leader != lead - k->ev || lead->cpu != cpu)
			return -EINVAL;
		if (lead->nsib + 1 >= PERFDEV_GROUP_MAX ||
		    lead->nsib + 1 >= (int)(sk_core_of(k, cpu)->ngp + sk_core_of(k, cpu)->nfixed))
			return -EINVAL; /* validate_group: more than the counters */
	}
	/* get_unused_fd_flags(): the limit in force at each open, which the process may raise. */
	if (k->fd_base + k->nfds >= sk_fd_limit())
		return -EMFILE;
	sk_catch_up(k, cpu);
	i = sk_new_event(k);
	if (i < 0)
		return i;
	lead = group_fd != -1 ? sk_fd_event(k, group_fd) : NULL;     /* k->ev may have moved */
	e = &k->ev[i];
	memset(e, 0, sizeof(*e));
	e->used = true;
	e->attr = *attr;
	e->cpu = cpu;
	e->task = pid == -1 ? 0 : pid;
	e->out = -1;
	if (sk_cpu_add(k, i) < 0) {
		e->used = false;
		return -ENOMEM;
	}
	e->er = er;
	e->er_at = -1;
	e->ctr = -1;
	e->leader = lead ? (int)(lead - k->ev) : i;
	e->seq = k->cpu[cpu].seq++;
	e->state = (lead ? lead->state == SK_OFF : attr->disabled) ? SK_OFF : SK_INACTIVE;
	e->tsc = attr->type == SK_MSR_PMU_TYPE;
	if (e->tsc) {
		k->now = k->cpu[cpu].t;
		if (e->state == SK_INACTIVE)
			e->state = SK_ACTIVE;
		sim_rdmsr(k->sim, cpu, MSR_TSC, &e->raw);
		k->nfds++;
		return SK_FD_BASE + i;
	}
	if (lead)
		lead->sib[lead->nsib++] = i;
	k->nfds++;
	sk_schedule(k, cpu);
	return SK_FD_BASE + i;
}

static void sk_fill_counts(struct sk *k, const struct sk_event *e, uint64_t *w, size_t *n)
{
	uint64_t fmt = e->attr.read_format;

	w[(*n)++] = e->count;
	if (fmt & PERF_FORMAT_ID)
		w[(*n)++] = (uint64_t)(e - k->ev) + 1;
	if (fmt & PERF_FORMAT_LOST)
		w[(*n)++] = e->lost_samples;
}

static ssize_t sk_read(struct perfdev *d, int fd, void *buf, size_t len)
{
	struct sk *k = sk_of(d);
	struct sk_event *e = sk_fd_event(k, fd), *lead;
	uint64_t w[3 + PERFDEV_GROUP_MAX * 3], fmt;
	size_t n = 0;

	if (!e)
		return -EBADF;
	sk_catch_up(k, e->cpu);
	if (e->state == SK_ERROR)
		return 0;       /* a pinned event that could not go on (pmu-facts 10.4) */
	fmt = e->attr.read_format;
	lead = &k->ev[e->leader];
	if (fmt & PERF_FORMAT_GROUP) {
		w[n++] = (uint64_t)lead->nsib + 1;
		e = lead;
	}
	if (!(fmt & PERF_FORMAT_GROUP))
		w[n++] = e->count;
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		w[n++] = (uint64_t)(e->enabled * 1e9 + 0.5);
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		w[n++] = (uint64_t)(e->running * 1e9 + 0.5);
	if (fmt & PERF_FORMAT_GROUP) {
		sk_fill_counts(k, lead, w, &n);
		for (int i = 0; i < lead->nsib; i++)
			sk_fill_counts(k, &k->ev[lead->sib[i]], w, &n);
	} else {
		if (fmt & PERF_FORMAT_ID)
			w[n++] = (uint64_t)(e - k->ev) + 1;
		if (fmt & PERF_FORMAT_LOST)
			w[n++] = e->lost_samples;
	}
	if (len < n * sizeof(uint64_t))
		return -ENOSPC;
	memcpy(buf, w, n * sizeof(uint64_t));
	return (ssize_t)(n * sizeof(uint64_t));
}

/* Set @e (and with @group its members) to @state, for ENABLE and DISABLE. */
static void sk_set_state(struct sk *k, struct sk_event *e, bool group, bool on)
{
	struct sk_event *one[1 + PERFDEV_GROUP_MAX];
	int n = 0;

	one[n++] = e;
	if (group && e->leader == e - k->ev)
		for (int i = 0; i < e->nsib; i++)
			one[n++] = &k->ev[e->sib[i]];
	for (int i = 0; i < n; i++) {
		if (on && one[i]->tsc && one[i]->state == SK_OFF) {
			one[i]->state = SK_ACTIVE;
			sim_rdmsr(k->sim, one[i]->cpu, MSR_TSC, &one[i]->raw);
		} else if (on && (one[i]->state == SK_OFF || one[i]->state == SK_ERROR))
			one[i]->state = SK_INACTIVE;
		else if (!on && one[i]->state != SK_OFF) {
			sk_read_ctr(k, one[i]);
			one[i]->state = SK_OFF;
		}
	}
}

static int sk_ioctl(struct perfdev *d, int fd, unsigned long request, unsigned long arg)
{
	struct sk *k = sk_of(d);
	struct sk_event *e = sk_fd_event(k, fd);
	bool group = arg & PERF_IOC_FLAG_GROUP;

	if (!e)
		return -EBADF;
	sk_catch_up(k, e->cpu);
	switch (request) {
	case PERF_EVENT_IOC_ENABLE:
	case PERF_EVENT_IOC_DISABLE:
		sk_set_state(k, e, group, request == PERF_EVENT_IOC_ENABLE);
		break;
	case PERF_EVENT_IOC_RESET:
		/* the values only, never the times (pmu-facts 10.4) */
		sk_read_ctr(k, e);
		e->count = 0;
		if (group && e->leader == e - k->ev)
			for (int i = 0; i < e->nsib; i++) {
				sk_read_ctr(k, &k->ev[e->sib[i]]);
				k->ev[e->sib[i]].count = 0;
			}
		return 0;
	case PERF_EVENT_IOC_SET_OUTPUT:
		/* the argument is the output event's descriptor, or -1 (K61 perf_ioctl) */
		if ((int)arg != -1 && !sk_fd_event(k, (int)arg))
			return -EBADF;
		return sk_task_set_output(k, e, (int)arg == -1 ? NULL : sk_fd_event(k, (int)arg));
	case PERF_EVENT_IOC_PERIOD:
		/* the argument points to the new period (K61 perf_event_period) */
		if (!e->attr.sample_period || !arg || !*(const uint64_t *)arg)
			return -EINVAL;
		e->attr.sample_period = *(const uint64_t *)arg;
		return 0;
	default:
		return -ENOTTY;
	}
	sk_schedule(k, e->cpu);
	return 0;
}

static int sk_close(struct perfdev *d, int fd)
{
	struct sk *k = sk_of(d);
	struct sk_event *e = sk_fd_event(k, fd);
	int i, cpu;

	if (!e)
		return -EBADF;
	cpu = e->cpu;
	i = (int)(e - k->ev);
	sk_catch_up(k, cpu);
	sk_read_ctr(k, e);
	if (e->leader != i) {
		struct sk_event *lead = &k->ev[e->leader];

		for (int j = 0; j < lead->nsib; j++)
			if (lead->sib[j] == i) {
				memmove(&lead->sib[j], &lead->sib[j + 1],
					sizeof(int) * (size_t)(lead->nsib - j - 1));
				lead->nsib--;
				break;
			}
	} else {
		/* perf_group_detach: the members go on alone */
		for (int j = 0; j < e->nsib; j++)
			k->ev[e->sib[j]].leader = e->sib[j];
	}
	sk_er_put(k, e);
	sk_cpu_del(k, i);
	sk_ring_free(e);
	e->used = false;
	k->nfds--;
	sk_schedule(k, cpu);
	return 0;
}


/* The fields a simulated sample can carry; another asked for is refused at mmap. */
#define SK_SAMPLE_TYPES (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
	PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT | \
	PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR)

/*
 * mmap of a sampling event: a control page and 2^n data pages (K61
 * perf_mmap: EINVAL otherwise), the same layout as the kernel's, in
 * memory of the simulated kernel's own.  The processes of the profile's
 * lines are told first, as COMM records, as a side-band would.
 */
static int sk_mmap(struct perfdev *d, int fd, size_t len, void **map)
{
	struct sk *k = sk_of(d);
	struct sk_event *e = sk_fd_event(k, fd);
	const struct sim_profile *prof = sim_profile_of(k->sim);
	struct perf_event_mmap_page *m;
	size_t data = len - PERFDEV_PAGE, nacc = (size_t)prof->nlines * SIM_LINE_ACCESSES;

	if (!e)
		return -EBADF;
	if (len <= PERFDEV_PAGE || len % PERFDEV_PAGE || (data & (data - 1)) || e->ring)
		return -EINVAL;
	if (!e->attr.sample_period || e->attr.freq || (e->attr.sample_type & ~(uint64_t)SK_SAMPLE_TYPES))
		return -EINVAL;         /* only what the simulated samples carry */
	sk_catch_up(k, e->cpu);
	e->ring = aligned_alloc(PERFDEV_PAGE, len);
	e->carry = calloc(nacc ? nacc : 1, sizeof(double));
	e->rcarry = calloc(nacc ? nacc : 1, sizeof(double));
	if (!e->ring || !e->carry || !e->rcarry) {
		sk_ring_free(e);
		return -ENOMEM;
	}
	memset(e->ring, 0, len);
	m = (void *)e->ring;
	m->version = 0;
	m->data_offset = PERFDEV_PAGE;
	m->data_size = data;
	/* COMM: { u32 pid, tid; char comm[] } padded to 8 (K61 perf_event_comm_output) */
	for (int i = 0; e->attr.comm && i < prof->nlines; i++) {
		/* a task's event hears of its own process only; one not started yet says so then */
		if (e->task ? prof->lines[i].pid != sk_task_pid(k, e->task, k->now) :
			      sk_task_pid(k, prof->lines[i].pid, k->now) != prof->lines[i].pid)
			continue;
		struct { struct perf_event_header h; uint32_t pid, tid; char comm[16]; } c = {
			{ PERF_RECORD_COMM, 0, sizeof(c) }, (uint32_t)prof->lines[i].pid,
			(uint32_t)prof->lines[i].pid, { 0 },
		};

		memcpy(c.comm, prof->lines[i].comm, sizeof(c.comm));
		sk_ring_put(e, (uint64_t)(e - k->ev) + 1, &c, sizeof(c), false);
	}
	*map = e->ring;
	return 0;
}

static void sk_munmap(struct perfdev *d, int fd, void *map, size_t len)
{
	struct sk *k = sk_of(d);
	struct sk_event *e = sk_fd_event(k, fd);

	(void)len;
	if (e && e->ring == map)
		sk_ring_free(e);
}

static void sk_destroy(struct perfdev *d)
{
	struct sk *k = sk_of(d);

	sim_set_clock(k->sim, k->clock, k->clock_arg);
	for (int i = 0; i < k->nev; i++)
		sk_ring_free(&k->ev[i]);
	free(k->ev);
	for (int c = 0; c < k->ncpus; c++)
		free(k->cpu[c].ev);
	free(k->cpu);
	free(k->group);
	free(k);
}

static const struct perfdev_ops sk_ops = {
	.open = sk_open,
	.read = sk_read,
	.ioctl = sk_ioctl,
	.close = sk_close,
	.file = sk_file,
	.mmap = sk_mmap,
	.munmap = sk_munmap,
	.tasks = sk_tasks,
	.destroy = sk_destroy,
};

/* The kernel's own users of @cpu's counters: the NMI watchdog, another perf user. */
static int sk_internal(struct sk *k, int cpu, const struct sim_params *prm)
{
	struct perf_event_attr a;
	int i;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_RAW;
	for (int n = 0; n < (prm->perf_nmi_watchdog ? 1 : 0) + prm->perf_other_events; n++) {
		i = sk_new_event(k);
		if (i < 0)
			return i;
		/*
		 * The watchdog: pinned core cycles, sampling (hardlockup_detector_perf);
		 * the other user: flexible branches retired (0xc4, architectural, any counter).
		 */
		if (n == 0 && prm->perf_nmi_watchdog) {
			a.config = 0x003c;
			a.pinned = 1;
			a.sample_period = 1000000000ULL;
		} else {
			a.config = 0x00c4;
			a.pinned = 0;
			a.sample_period = 0;
		}
		k->ev[i] = (struct sk_event){
			.used = true, .internal = true, .attr = a, .cpu = cpu, .leader = i,
			.state = SK_INACTIVE, .er = -1, .er_at = -1, .ctr = -1, .out = -1,
			.seq = k->cpu[cpu].seq++,
		};
		if (sk_cpu_add(k, i) < 0)
			return -ENOMEM;
	}
	return 0;
}


struct perfdev *sim_kernel_open(struct sim *sim, char *err, size_t errlen)
{
	const struct sim_profile *prof = sim_profile_of(sim);
	struct sk *k = calloc(1, sizeof(*k));
	uint32_t r[4];
	unsigned family, model;
	int rc;

	if (!k) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	k->sim = sim;
	sim_cpuid(sim, 1, 0, r);
	family = (r[0] >> 8) & 0xf;
	model = ((r[0] >> 4) & 0xf) | (((r[0] >> 16) & 0xf) << 4);
	k->ncpus = sim_ncpus(sim);
	k->cpu = calloc((size_t)k->ncpus, sizeof(*k->cpu));
	if (!k->cpu) {
		free(k);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	/* A hybrid part (CPUID.7.0:EDX[15]): a PMU per core type, else the one core PMU. */
	sim_cpuid(sim, 7, 0, r);
	if (r[3] & B(15))
		rc = sk_hybrid_pmus(k, family, model);
	else
		rc = sk_core_pmu(k, family, model);
	if (rc < 0) {
		snprintf(err, errlen, "the simulated kernel has no core PMU for family %u model "
			 "0x%x", family, model);
		free(k->cpu);
		free(k);
		return NULL;
	}
	k->dev.ops = &sk_ops;
	k->dev.kind = "simulator";
	k->dev.priv = k;
	sim_cpuid(sim, 0xb, 0, r);
	k->tpc = r[1] > 1 ? (int)r[1] : 1;
	k->ncores = k->ncpus / k->tpc;
	k->paranoid = prof->perf_event_paranoid;
	k->group = calloc((size_t)k->ncpus, sizeof(*k->group));
	if (!k->group) {
		free(k->cpu);
		free(k);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (int c = 0; c < k->ncpus; c++) {
		int pkg, mod, p2, m2;

		sim_topology(sim, c, NULL, &pkg, &mod);
		k->group[c] = c;
		for (int o = 0; o < c; o++) {
			sim_topology(sim, o, NULL, &p2, &m2);
			if (p2 == pkg && m2 == mod) {
				k->group[c] = k->group[o];
				break;
			}
		}
	}
	sk_caps(k);
	k->fd_base = sk_fd_open();
	sim_get_clock(sim, &k->clock, &k->clock_arg);
	k->now = k->t0 = k->vnow = k->clock(k->clock_arg);
	/* From here the machine runs on the kernel's instants; its profile time restarts. */
	sim_set_clock(sim, sk_clock, k);
	for (int c = 0; c < k->ncpus; c++) {
		for (unsigned i = 0; i < SIM_MAX_GP; i++)
			k->cpu[c].gp[i] = -1;
		for (unsigned n = 0; n < SIM_MAX_FIXED; n++)
			k->cpu[c].fx[n] = -1;
		k->cpu[c].t = k->now;
		k->cpu[c].next_rot = k->now + SK_MUX_S;
		if (sk_internal(k, c, &prof->cpu[c]) < 0) {
			sk_destroy(&k->dev);
			snprintf(err, errlen, "out of memory");
			return NULL;
		}
		sk_schedule(k, c);
	}
	return &k->dev;
}
