/*
 * sampler.c: one interval = every rotation slot in turn (see sampler.h).
 *
 * Each slot boundary, per CPU: read the slot's counters, note the time,
 * program the next slot.  A unit's counts are divided by the time it ran,
 * measured per CPU between that CPU's own boundaries, so a snapshot covers
 * the whole interval for every unit however they rotate.  Within a slot
 * longer than sampler_read_period(), every counter is also read in between
 * (counts and run time add up; nothing is reprogrammed), so that none can
 * wrap twice between two reads whatever the interval.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/sampler.h"

double sampler_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleep until @deadline; false when *@stop was set meanwhile. */
static bool sleep_until(double deadline, volatile sig_atomic_t *stop)
{
	struct timespec ts;

	ts.tv_sec = (time_t)deadline;
	ts.tv_nsec = (long)((deadline - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_nsec = 999999999L;
	while (!*stop) {
		int r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

		if (r == 0)
			return true;
		if (r != EINTR)
			return true;
	}
	return false;
}

static void read_tsc(struct sampler *s)
{
	uint64_t v;
	double now;

	if (msrdev_read(s->pmu->dev, s->pmu->cpu[0].id, MSR_TSC, &v) < 0)
		return;
	s->pmu->reads++;
	now = sampler_now();
	if (!s->tsc_ok) {
		s->tsc0 = v;
		s->tsc_t0 = now;
		s->tsc_ok = true;
	} else if (now > s->tsc_t0) {
		s->tsc_hz = (double)(v - s->tsc0) / (now - s->tsc_t0);
	}
}

/*
 * The counts of CPU @c's general-purpose counters start now: those that
 * counted on through a reprogramming (@ran_on) from their read at
 * @t_read, the others from @t_apply.
 */
static void counts_from(struct sample_cpu *c, gp_set ran_on, double t_read, double t_apply)
{
	c->ran_on = ran_on;
	c->t_ran = t_read;
	c->t_slot = t_apply;
}

/* When counter @k of @c began its count (counts_from()). */
static inline double ctr_from(const struct sample_cpu *c, int k)
{
	return (c->ran_on & (1u << k)) ? c->t_ran : c->t_slot;
}

/* The plan CPU index @i runs: its core type's. */
static const struct plan *cpu_plan(const struct sampler *s, int i)
{
	return plan_of_type(s->plan, s->cpu[i].type);
}

/* Slot @si of the interval's rotation, in CPU index @i's plan. */
static int cpu_slot(const struct sampler *s, int i, int si)
{
	return si % cpu_plan(s, i)->nslots;
}

/* What slot @si programs on CPU index @i: its plan's, less the counters others hold there. */
static const struct pmu_cfg *cpu_cfg(struct sampler *s, int i, int si)
{
	struct sample_cpu *c = &s->cpu[i];

	return plan_cpu_cfg(cpu_plan(s, i), cpu_slot(s, i, si), c->parity, c->busy, &c->cfg);
}

int sampler_start(struct sampler *s, struct pmu *p, const struct plan *pl,
		  char *err, size_t errlen)
{
	double now;

	memset(s, 0, sizeof(*s));
	s->pmu = p;
	s->plan = pl;
	s->cpu = calloc(p->ncpu, sizeof(*s->cpu));
	if (!s->cpu) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	read_tsc(s);
	for (int i = 0; i < p->ncpu; i++) {
		s->cpu[i].parity = (int8_t)plan_thread_parity(p, i);
		s->cpu[i].busy = plan_cpu_busy(p, i);
		s->cpu[i].type = p->cpu[i].type;
	}
	for (int i = 0; i < p->ncpu; i++) {
		int r = pmu_apply(p, i, cpu_cfg(s, i, 0), err, errlen);

		if (r < 0)
			return r;
		now = sampler_now();
		s->cpu[i].t_start = s->cpu[i].t_slot = s->cpu[i].t_fixed = now;
		counts_from(&s->cpu[i], 0, now, now);
		/* Frozen already: the counts from here on are not measured until it thaws. */
		if ((r = pmu_hw_frozen(p, i)) < 0)
			return r;
		s->cpu[i].frz_last = r;
	}
	return 0;
}

/*
 * Credit slot @si's counters on CPU @i, up to @now: every general-purpose
 * counter of the slot, and the fixed counters when @fixed (always when
 * @last, which closes the interval).  Each read starts a new delta (see
 * sampler_read_period()).
 */
static int collect(struct sampler *s, int i, int osi, bool last, bool fixed, double now)
{
	struct sample_cpu *c = &s->cpu[i];
	const struct plan *pl = cpu_plan(s, i);
	int si = cpu_slot(s, i, osi);
	const struct plan_slot *slot = &pl->slot[si];
	uint64_t d[PMU_MAX_GP], f[PMU_MAX_FIXED];
	int r;

	if ((r = pmu_read_gp(s->pmu, i, d)) < 0)
		return r;
	fixed |= last;
	if (fixed && (r = pmu_read_fixed(s->pmu, i, f)) < 0)
		return r;
	/*
	 * Another agent's freeze, looked for once an interval, at its end (one
	 * register read each: issue 19).  A freeze its owner leaves in place
	 * is seen there: CTR_Frz stays set until its owner clears it, and the
	 * legacy freeze's cleared enable bits until lattop sets them again,
	 * which it does only after looking (pmu_freeze, pmu_apply).  Frozen at
	 * this interval's end or at the one before: part of it is missing.
	 */
	if (last) {
		if ((r = pmu_hw_frozen(s->pmu, i)) < 0)
			return r;
		c->frozen |= r || c->frz_last;
		c->frz_last = r;
		if ((r = pmu_hw_stopped(s->pmu, i)) < 0)
			return r;
		c->stopped |= r;
	}
	for (int k = 0; k < slot->nplace; k++) {
		const struct plan_place *pp = &slot->place[k];
		struct unit_acc *a = &c->acc[pp->unit];

		if (!plan_place_runs(pl, si, k, c->parity, c->busy))
			continue;
		for (int j = 0; j < pl->unit[pp->unit].nrows; j++)
			a->count[j] += (double)d[pp->ctr[j]];
		a->run_s += now - ctr_from(c, pp->ctr[0]);
	}
	for (int ui = 0; ui < pl->nunits && fixed; ui++) {
		const struct plan_unit *u = &pl->unit[ui];

		if (u->fixed)
			c->acc[ui].count[0] += (double)f[u->ctr[0]];
	}
	if (fixed)
		c->t_fixed = now;
	if (!last)
		return 0;
	c->interval_s = now - c->t_start;
	for (int ui = 0; ui < pl->nunits; ui++)
		if (pl->unit[ui].fixed)
			c->acc[ui].run_s = c->interval_s;
	return 0;
}

/* A read or a switch failed on CPU @i with @r: it sits out the interval. */
static void cpu_failed(struct sample_cpu *c, int r)
{
	c->ok = false;
	c->err = r;
	c->offline = r == -ENXIO || r == -EIO;
}

/*
 * The longest time between two reads of a counter, so that none can wrap
 * twice unseen: a delta taken modulo 2^width survives one wrap only
 * (pmu-facts 8.4: 40-bit counters on Silvermont/Airmont wrap within a
 * minute of outstanding-read cycles).  The fastest a counter can advance:
 *   - core cycles per second: at most SAMPLER_CLOCK_PER_TSC times the TSC
 *     rate, measured (s->tsc_hz).  The TSC runs at the nominal clock; the
 *     highest turbo or burst clock of the supported parts is below 2.3
 *     times it (Intel ARK: Pentium N4200, Goldmont, 1.1 GHz base, 2.5 GHz
 *     burst; Haswell i7-4770 3.4/3.9 GHz; Atom C2750 2.4/2.6 GHz): 4 leaves
 *     room;
 *   - per core cycle, at most SAMPLER_MAX_PER_CYCLE: the fastest events
 *     are occupancies (OFFCORE_REQUESTS_OUTSTANDING; OFFCORE_RESPONSE with
 *     OUTSTANDING set, "weighted cycles of outstanding offcore requests",
 *     seed 001 / SDM16 18.6.3), which add the number of requests
 *     outstanding in that cycle.  That number is bounded by the core's
 *     miss queues: L1D fill buffers and the L2's request queue ("super
 *     queue"), a few tens of entries at most on these parts (Intel's
 *     Optimization Reference Manual; no source in pmu-facts, so
 *     UNVERIFIED here, hence the margin).  Instructions retire at most 4
 *     a cycle.  64 is twice a 32-entry queue: a bound, not a measurement;
 *   - a reference-cycle counter advances at the TSC rate, below the above.
 * Half the time the fastest counter takes to wrap once: a read that comes
 * late by less than that still sees at most one wrap.  Until the TSC rate
 * is known (the first read of an interval), SAMPLER_PROBE_S; if the TSC
 * cannot be read, SAMPLER_TSC_FALLBACK_HZ, above the nominal clock of
 * any supported part.
 */
#define SAMPLER_CLOCK_PER_TSC   4.0
#define SAMPLER_MAX_PER_CYCLE   64.0
#define SAMPLER_PROBE_S         0.01
#define SAMPLER_TSC_FALLBACK_HZ 8e9

double sampler_read_period(const struct pmu *p, double tsc_hz)
{
	unsigned w = p->gp_width;

	if (p->nfixed && p->fixed_width < w)
		w = p->fixed_width;
	if (!(tsc_hz > 0))
		return SAMPLER_PROBE_S;
	return ldexp(1.0, (int)w) / (tsc_hz * SAMPLER_CLOCK_PER_TSC * SAMPLER_MAX_PER_CYCLE) / 2;
}

/* sampler_read_period() for this sampler: the TSC rate measured, or assumed once probed. */
static double read_period(const struct sampler *s)
{
	double hz = s->tsc_hz;

	if (!(hz > 0) && s->mid_reads)
		hz = SAMPLER_TSC_FALLBACK_HZ;
	return sampler_read_period(s->pmu, hz);
}

/*
 * Wait until @slot_end, reading every CPU's counters on the way as often as
 * sampler_read_period() says (the counts accumulate; nothing is
 * reprogrammed).  False when the interval must end now.
 */
static bool wait_slot(struct sampler *s, double slot_end, volatile sig_atomic_t *stop)
{
	struct pmu *p = s->pmu;

	for (;;) {
		double period = read_period(s), wake = slot_end;
		bool mid;

		/* Due: a period after the oldest read of any counter. */
		for (int i = 0; i < p->ncpu; i++)
			if (s->cpu[i].ok)
				wake = fmin(wake, fmin(s->cpu[i].t_slot, s->cpu[i].t_fixed) + period);
		mid = wake < slot_end;

		if (!mid)
			wake = slot_end;
		if (s->wait ? !s->wait(s->wait_arg, wake) || *stop : !sleep_until(wake, stop))
			return false;
		if (!mid)
			return true;
		for (int i = 0; i < p->ncpu; i++) {
			struct sample_cpu *c = &s->cpu[i];
			int r;

			if (!c->ok)
				continue;
			c->t_read = sampler_now();
			if ((r = collect(s, i, s->slot, false, true, c->t_read)) < 0) {
				cpu_failed(c, r);
				continue;
			}
			counts_from(c, (gp_set)~0u, c->t_read, c->t_read);
		}
		s->mid_reads++;
		if (!(s->tsc_hz > 0))
			read_tsc(s);
	}
}

/* Does slot @si of @pl run ht_excl rows on a CPU of thread parity @parity? */
static bool runs_excl(const struct plan *pl, int si, int parity)
{
	si = pl ? si % pl->nslots : 0;     /* a hybrid's rotation may be longer than @pl's */
	return pl && pl->slot[si].excl_parity >= 0 && pl->slot[si].excl_parity == parity;
}

/*
 * In which pass a CPU of thread parity @parity switches from slot @osi of
 * @opl to slot @nsi of @npl, so that siblings never run an ht_excl row and
 * anything else on the same counter at once, not even between the switches
 * of two siblings (plan.h): 0, it stops running excl rows; 1, it neither
 * stops nor starts; 2, it starts, once its sibling has left the counter.
 */
static int switch_pass(const struct plan *opl, int osi, const struct plan *npl, int nsi, int parity)
{
	if (runs_excl(opl, osi, parity))
		return 0;
	return runs_excl(npl, nsi, parity) ? 2 : 1;
}

/*
 * Program CPU index @i for the next slot (read already, @c->next_cfg set
 * at its read).  A negative errno only when fatal.
 */
static int switch_cpu(struct sampler *s, int i, char *err, size_t errlen)
{
	struct sample_cpu *c = &s->cpu[i];
	int r;

	if (!c->next_cfg) {
		counts_from(c, (gp_set)~0u, c->t_read, c->t_read);
		return 0;
	}
	r = pmu_apply(s->pmu, i, c->next_cfg, err, errlen);
	if (r == -ENXIO || r == -EBUSY) {
		/*
		 * Gone offline between its read and now, or one of its counters
		 * was just given up: it sits out the rest of the interval; the
		 * caller re-plans.
		 */
		c->ok = false;
		c->offline = r == -ENXIO;
		c->err = r;
		s->changed |= r == -EBUSY;
		return 0;
	}
	if (r < 0)
		return r;
	/* What counted on through the switch did so from its read: its time too. */
	counts_from(c, s->pmu->cpu[i].ran_on, c->t_read, sampler_now());
	return 0;
}

int sampler_interval(struct sampler *s, double seconds, volatile sig_atomic_t *stop,
		     char *err, size_t errlen)
{
	const struct plan *pl = s->plan;
	struct pmu *p = s->pmu;
	int nslots = plan_nslots(pl);
	double t0 = sampler_now(), slot_len = seconds / nslots;

	for (int i = 0; i < p->ncpu; i++) {
		struct sample_cpu *c = &s->cpu[i];
		int r;

		memset(c->acc, 0, sizeof(c->acc));
		c->ok = !c->offline;
		if (c->offline) {
			/*
			 * Back online?  Its PMU was reinitialised: probed and saved
			 * again, then programmed with the current slot.
			 */
			if ((r = pmu_reprobe(p, i, err, errlen)) < 0) {
				c->err = r;
				continue;
			}
			c->offline = false;
			s->changed = true;
			c->busy = plan_cpu_busy(p, i);
			r = pmu_apply(p, i, cpu_cfg(s, i, s->slot), err, errlen);
			if (r < 0) {
				/* Its counters changed hands meanwhile: after the re-plan. */
				c->err = r;
				c->offline = r != -EBUSY;
				continue;
			}
			c->ok = true;
			c->t_fixed = sampler_now();
			counts_from(c, 0, c->t_fixed, c->t_fixed);
		}
		c->err = 0;
		c->frozen = false;
		c->stopped = false;
		c->spoiled[0] = 0;
		/* The fixed counters' counts run from their last read: so does the interval. */
		c->t_start = c->t_fixed;
	}
	for (int k = 0; k < nslots; k++) {
		int next = (s->slot + 1) % nslots, pass_of[2];
		bool last = k == nslots - 1;

		double period;

		if (!wait_slot(s, t0 + (k + 1) * slot_len, stop))
			last = true;
		/* The same for every CPU of the pass: the TSC rate changes between intervals. */
		period = read_period(s);
		/*
		 * Read every CPU, then reprogram every CPU: hyperthreads and
		 * module siblings share MSR_OFFCORE_RSP_x, so a sibling's new
		 * value must not reach a counter whose slot is still unread.
		 * What a counter sees between its read and its reprogramming
		 * is dropped (pmu_apply zeroes it after the new state).  The
		 * reprogramming goes in the passes of switch_pass(), so that HT
		 * siblings never share a counter with an ht_excl row.
		 */
		for (int i = 0; i < p->ncpu; i++) {
			struct sample_cpu *c = &s->cpu[i];
			const struct pmu_cfg *ncfg;
			bool moves;
			int r;

			if (!c->ok)
				continue;
			moves = cpu_slot(s, i, next) != cpu_slot(s, i, s->slot);
			ncfg = moves ? cpu_cfg(s, i, next) : NULL;
			c->next_cfg = ncfg;
			c->t_read = sampler_now();
			/*
			 * Three or more counters to re-baseline: stop them all with one
			 * write, so that what they hold serves as the baselines.
			 */
			r = moves && pmu_changes(p, i, ncfg) > 2 ? pmu_freeze(p, i, err, errlen) : 0;
			/*
			 * Frozen, their counts end at the freeze, the last write of
			 * pmu_freeze(): their time ends there too, not at the clock
			 * read before it.  On version 2 and 3 the legacy look's read
			 * comes in between; a device slow to answer (a busy CPU's
			 * IPI, a loaded machine) would credit each frozen slot a
			 * read and a half less time than its counts took.
			 */
			if (r == 0 && p->cpu[i].frozen)
				c->t_read = sampler_now();
			/*
			 * The fixed counters run on: read at the end, and whenever
			 * the next boundary would be too late for them.
			 */
			if (r == 0)
				r = collect(s, i, s->slot, last,
					    c->t_read + slot_len - c->t_fixed >= period, c->t_read);
			/* Selects about to be overwritten must still be ours. */
			if (r == 0 && moves) {
				char lost[256];

				r = pmu_verify_before(p, i, ncfg, lost, sizeof(lost));
				if (r > 0) {
					size_t o = strlen(s->lost);

					/* Several CPUs in one pass: every one is told. */
					if (o < sizeof(s->lost) - 1)
						snprintf(s->lost + o, sizeof(s->lost) - o, "%s%s",
							 o ? "; " : "", lost);
					s->changed = true;
					r = 0;
				}
			}
			if (r < 0)
				cpu_failed(c, r);
		}
		/* A slot's pass depends on the thread parity alone: once per parity. */
		pass_of[0] = switch_pass(pl, s->slot, pl, next, 0);
		pass_of[1] = switch_pass(pl, s->slot, pl, next, 1);
		for (int pass = 0; pass < 3; pass++) {
			for (int i = 0; i < p->ncpu; i++) {
				struct sample_cpu *c = &s->cpu[i];
				int r;

				if (!c->ok || pass_of[c->parity & 1] != pass)
					continue;
				if ((r = switch_cpu(s, i, err, errlen)) < 0)
					return r;
			}
		}
		s->slot = next;
		if (last)
			break;
	}
	/* After the switches, which a frozen or stopped CPU took like any other. */
	for (int i = 0; i < p->ncpu; i++)
		if ((s->cpu[i].frozen || s->cpu[i].stopped) && s->cpu[i].ok) {
			s->cpu[i].ok = false;
			s->cpu[i].err = -ESTALE;
		}
	read_tsc(s);
	s->intervals++;
	return 0;
}

/* pmu_verify_before() for CPU index @i: what it gives up is told in s->lost.  0 or -errno. */
static int verify(struct sampler *s, int i, const struct pmu_cfg *next)
{
	char lost[256];
	int r = pmu_verify_before(s->pmu, i, next, lost, sizeof(lost));

	if (r > 0) {
		size_t o = strlen(s->lost);

		if (o < sizeof(s->lost) - 1)
			snprintf(s->lost + o, sizeof(s->lost) - o, "%s%s", o ? "; " : "", lost);
		s->changed = true;
		r = 0;
	}
	return r;
}

int sampler_replan(struct sampler *s, const struct plan *pl, char *err, size_t errlen)
{
	const struct plan *old = s->plan;
	int old_slot = s->slot;

	s->plan = pl;
	s->slot = 0;
	for (int pass = 0; pass < 3; pass++) {
		for (int i = 0; i < s->pmu->ncpu; i++) {
			uint64_t discard[PMU_MAX_GP];
			double t_disc;
			int r;

			if (s->cpu[i].offline || switch_pass(old, old_slot, pl, 0, s->cpu[i].parity) != pass)
				continue;
			/* What counted since the last read belongs to no plan: dropped. */
			if ((r = pmu_read_gp(s->pmu, i, discard)) < 0)
				return r;
			t_disc = sampler_now();
			s->cpu[i].busy = plan_cpu_busy(s->pmu, i);
			/* What is about to be overwritten must still be lattop's, as at a switch. */
			if ((r = verify(s, i, cpu_cfg(s, i, 0))) < 0)
				return r;
			r = pmu_apply(s->pmu, i, cpu_cfg(s, i, 0), err, errlen);
			if (r == -EBUSY) {
				/* Given up just now: it sits out until the caller's next re-plan. */
				s->cpu[i].ok = false;
				s->cpu[i].err = r;
				s->changed = true;
				continue;
			}
			if (r < 0)
				return r;
			counts_from(&s->cpu[i], s->pmu->cpu[i].ran_on, t_disc, sampler_now());
		}
	}
	return 0;
}

void sampler_set_wait(struct sampler *s, bool (*wait)(void *arg, double deadline), void *arg)
{
	s->wait = wait;
	s->wait_arg = arg;
}

void sampler_spoil(struct sampler *s, int i, const char *why)
{
	struct sample_cpu *c = &s->cpu[i];

	c->ok = false;
	c->err = -ESTALE;
	snprintf(c->spoiled, sizeof(c->spoiled), "%s", why);
}

void sampler_retry(struct sampler *s, int i)
{
	s->cpu[i].offline = true;
	s->cpu[i].ok = false;
}

bool sampler_take_changes(struct sampler *s, char *lost, size_t len)
{
	bool changed = s->changed;

	snprintf(lost, len, "%s", s->lost);
	s->lost[0] = 0;
	s->changed = false;
	return changed;
}

void sampler_free(struct sampler *s)
{
	free(s->cpu);
	s->cpu = NULL;
}
