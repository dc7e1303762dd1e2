/*
 * pmu_writeback.c: every saved register back, the one way there is.
 *
 * pmu_writeback() is the write-back of a CPU's saved registers that the
 * normal exit, a stop (pmu_restore), a crash (pmu_restore_emergency, from
 * a signal handler: async-signal-safe, no allocation, no stdio) and
 * `lattop --restore` (safety/journal.c) all use: in pmu_restore_rank()
 * order, so that counting stops first; each register read before it is
 * written and read back after, its owned bits only.  pmu_restore() also
 * says, as one line, what it could not put back exactly, in the words of
 * pmu_wb_describe(), which `lattop --restore` uses too.
 */
#include <stdio.h>
#include <string.h>

#include "cpu/pmu.h"

/* A general-purpose counter, legacy or version 6 (msr_allow.h) */
static bool is_pmc(uint32_t reg)
{
	return msr_pmc_index(reg, NULL) >= 0;
}

static bool is_fixed_ctr(uint32_t reg)
{
	return msr_fixed_index(reg, NULL) >= 0;
}

static bool is_counter(uint32_t reg)
{
	return is_pmc(reg) || is_fixed_ctr(reg);
}

/*
 * Restore order: stop PEBS, then the event selects and fixed enables (so
 * nothing counts any more), then the counter values, the offcore and
 * threshold registers, PEBS_EN bits someone else had set (PMU_RANK_PEBS),
 * and the global enables last.  No PEBS-enabled counter is written while it
 * counts (SDM16 p.690, p.701; pmu-facts 8.12): lattop's PEBS bits are all
 * cleared before any select, counter or threshold is written back, and
 * saved ones set again only after.
 */
int pmu_restore_rank(uint32_t reg)
{
	if (reg == MSR_PEBS_ENABLE)
		return 0;
	if (msr_evtsel_index(reg, NULL) >= 0 || reg == MSR_FIXED_CTR_CTRL)
		return 1;
	if (reg == MSR_PERF_GLOBAL_CTRL)
		return PMU_NRANK - 1;
	return 2;
}

/* The saved entry of @reg among @regs, or NULL. */
static const struct pmu_reg *wb_find(const struct pmu_reg *regs, int n, uint32_t reg)
{
	for (int k = 0; k < n; k++)
		if (regs[k].reg == reg)
			return &regs[k];
	return NULL;
}

/*
 * The control of counter @reg, its select (in @reg's range) or
 * IA32_FIXED_CTR_CTRL (the same in both), and its enable bits there (EN;
 * OS|USR of its field): SDM Vol.3B 18.2, ML-V6.
 */
static uint32_t wb_control(uint32_t reg, uint64_t *enable)
{
	bool v6;
	int k = msr_pmc_index(reg, &v6);

	if (k >= 0) {
		*enable = EVTSEL_EN;
		return msr_evtsel(v6, (unsigned)k);
	}
	*enable = PMU_FIXED_EN(msr_fixed_index(reg, NULL));
	return MSR_FIXED_CTR_CTRL;
}

/* The bits of @reg a write-back compares: a counter's width, all of any other register. */
static uint64_t wb_cmp(const struct pmu_wb *w, uint32_t reg)
{
	unsigned width = is_pmc(reg) ? w->gp_width : is_fixed_ctr(reg) ? w->fixed_width : 0;

	return width ? pmu_width_mask(width) : ~0ull;
}

/*
 * Put back one saved register @s of @regs (see pmu_writeback()).  A
 * counter taken over with --force counts again for its owner once its
 * control is back: what went back cannot be compared then.  Otherwise what
 * went back is read, not assumed: whether a write to a fixed counter
 * sign-extends bit 31 without full-width writes is not documented.
 */
static void writeback_one(struct pmu_wb *w, int cpu, const struct pmu_reg *regs, int n,
			  struct pmu_reg *s, struct pmu_wb_res *res)
{
	uint32_t reg = s->reg, wreg = reg;
	uint64_t cmp = wb_cmp(w, reg), enable = 0;
	const struct pmu_reg *ctl = is_counter(reg) ? wb_find(regs, n, wb_control(reg, &enable)) : NULL;
	bool inexact = false;

	res->result = PMU_WB_SAME;
	res->wrote = false;
	res->err = 0;
	res->want = res->got = 0;
	/* Its control could not be put back: it counts on, and a write would not last. */
	if (ctl && ctl->dirty && ctl->mask) {
		res->result = PMU_WB_COUNTS;
		return;
	}
	res->err = msrdev_read(w->dev, cpu, reg, &res->got);
	w->reads++;
	if (res->err < 0) {
		res->result = PMU_WB_READ;
		return;
	}
	res->want = (res->got & ~s->mask) | (s->saved & s->mask);
	if (((res->got ^ res->want) & cmp) == 0) {
		s->dirty = false;
		return;
	}
	if (is_pmc(reg)) {
		uint64_t sext = (uint64_t)(int64_t)(int32_t)(uint32_t)res->want & cmp;
		bool v6;
		int k = msr_pmc_index(reg, &v6);

		/* The version 6 counter is written as IA32_A_PMCx is (msr_allow.h) */
		if (w->fw_write)
			wreg = v6 ? reg : MSR_A_PMC((unsigned)k);
		else if (sext != (res->want & cmp)) {
			/*
			 * No full-width writes (PERF_CAPABILITIES[13] = 0): WRMSR to
			 * IA32_PMCx sign-extends bit 31, so only such values can be
			 * put back (taken so in the version 6 range too).
			 */
			res->want = sext;
			inexact = true;
		}
	}
	res->wrote = true;
	res->err = msr_write(w->dev, cpu, wreg, res->want);
	w->writes++;
	if (res->err < 0) {
		res->result = PMU_WB_WRITE;
		return;
	}
	if (!ctl || !(ctl->saved & ctl->mask & enable)) {
		res->err = msrdev_read(w->dev, cpu, reg, &res->got);
		w->reads++;
		if (res->err < 0) {
			res->result = PMU_WB_READ;
			return;
		}
		if (((res->got ^ res->want) & cmp) != 0) {
			res->result = PMU_WB_DIFFERS;
			return;
		}
	}
	s->dirty = false;
	res->result = inexact ? PMU_WB_INEXACT : PMU_WB_WRITTEN;
}

/*
 * IA32_PEBS_ENABLE @s, saved with bits set in lattop's part (another
 * user's, or --force): first every owned bit is cleared, which stops PEBS
 * on every counter lattop wrote before they are written back; the saved
 * bits go back at PMU_RANK_PEBS, once the selects, counters and threshold
 * they apply to are.  A read or write that fails here is met again there.
 */
static void pebs_disarm(struct pmu_wb *w, int cpu, const struct pmu_reg *s)
{
	uint64_t v;

	if (msrdev_read(w->dev, cpu, s->reg, &v) < 0) {
		w->reads++;
		return;
	}
	w->reads++;
	if (!(v & s->mask))
		return;
	msr_write(w->dev, cpu, s->reg, v & ~s->mask);
	w->writes++;
}

void pmu_wb_disarm(struct pmu_wb *w, int cpu, const struct pmu_reg *regs, int n)
{
	for (int k = 0; k < n; k++)
		if (regs[k].reg == MSR_PEBS_ENABLE && regs[k].dirty && regs[k].mask)
			pebs_disarm(w, cpu, &regs[k]);
}

int pmu_writeback(struct pmu_wb *w, int cpu, struct pmu_reg *regs, int n, pmu_wb_fn *told,
		  void *arg)
{
	int left = 0;

	for (int rank = 0; rank < PMU_NRANK; rank++)
		for (int k = 0; k < n; k++) {
			struct pmu_reg *s = &regs[k];
			bool pebs_back = s->reg == MSR_PEBS_ENABLE && (s->saved & s->mask);
			struct pmu_wb_res res;

			if (!s->dirty || !s->mask)
				continue;
			if (pebs_back && rank == pmu_restore_rank(s->reg)) {
				pebs_disarm(w, cpu, s);
				continue;
			}
			if (pebs_back ? rank != PMU_RANK_PEBS : pmu_restore_rank(s->reg) != rank)
				continue;
			writeback_one(w, cpu, regs, n, s, &res);
			if (s->dirty)
				left++;
			if (told)
				told(arg, cpu, s, &res);
		}
	return left;
}

/* How @p's registers are written back. */
static struct pmu_wb wb_of(const struct pmu *p)
{
	struct pmu_wb w = { .dev = p->dev, .fw_write = p->fw_write, .gp_width = p->gp_width,
			    .fixed_width = p->fixed_width };

	return w;
}

size_t pmu_wb_describe(char *buf, size_t len, size_t o, bool fw_write, int cpu,
		       const struct pmu_reg *s, const struct pmu_wb_res *res)
{
	const char *sep = o ? "; " : "";
	char name[40];
	int k;

	if (o >= len)
		return o;
	pmu_reg_name(s->reg, name, sizeof(name));
	switch (res->result) {
	case PMU_WB_READ:
		k = snprintf(buf + o, len - o, "%scpu %d: reading %s (0x%x) to restore it: %s", sep, cpu,
			     name, s->reg, pmu_strerror(res->err, false));
		break;
	case PMU_WB_WRITE:
		k = snprintf(buf + o, len - o, "%scpu %d: restoring %s (0x%x) = 0x%llx: %s", sep, cpu,
			     name, s->reg, (unsigned long long)res->want, pmu_strerror(res->err, true));
		break;
	case PMU_WB_DIFFERS:
		k = snprintf(buf + o, len - o, "%scpu %d: %s was 0x%llx; after restoring it reads 0x%llx%s",
			     sep, cpu, name, (unsigned long long)res->want, (unsigned long long)res->got,
			     fw_write || !is_counter(s->reg) ? "" : " (no full-width counter writes)");
		break;
	case PMU_WB_COUNTS:
		k = snprintf(buf + o, len - o, "%scpu %d: %s counts on: its control could not be put back",
			     sep, cpu, name);
		break;
	case PMU_WB_INEXACT:
		k = snprintf(buf + o, len - o, "%scpu %d: %s was 0x%llx; without full-width counter writes "
			     "it is restored as 0x%llx", sep, cpu, name, (unsigned long long)s->saved,
			     (unsigned long long)res->want);
		break;
	default:
		return o;       /* as saved: nothing to say */
	}
	return o + (size_t)k;
}

/* What pmu_restore() says of the registers not put back exactly. */
struct restore_note {
	const struct pmu *p;
	char *err;
	size_t len, o;
	int bad;
};

static void restore_told(void *arg, int cpu, const struct pmu_reg *s, const struct pmu_wb_res *res)
{
	struct restore_note *t = arg;

	if (res->result == PMU_WB_SAME || res->result == PMU_WB_WRITTEN)
		return;
	t->bad++;
	t->o = pmu_wb_describe(t->err, t->len, t->o, t->p->fw_write, cpu, s, res);
}

/*
 * Where a thread's MSR_PEBS_LD_LAT_THRESHOLD is its sibling's too (Nehalem,
 * Westmere: pmu_reg_shared()), writing it back on one CPU changes the
 * threshold under the other's load-latency counter: before any CPU is
 * written back, PEBS stops on every one (pebs_disarm()).  The pass is made
 * on every family, one read a CPU at exit, so that the exit, a crash and
 * journal_restore() (safety/journal.c, which does not know the family)
 * write back alike.
 */
static void disarm_all(struct pmu *p)
{
	for (int i = 0; i < p->ncpu; i++) {
		const struct pmu_cpu *c = &p->cpu[i];
		struct pmu_wb w = wb_of(p);

		if (c->saved)
			pmu_wb_disarm(&w, c->id, c->regs, c->nregs);
		p->reads += w.reads;
		p->writes += w.writes;
	}
}

int pmu_restore(struct pmu *p, char *err, size_t errlen)
{
	struct restore_note t = { .p = p, .err = err, .len = errlen };

	if (errlen)
		err[0] = 0;
	disarm_all(p);
	for (int i = 0; i < p->ncpu; i++) {
		struct pmu_cpu *c = &p->cpu[i];
		struct pmu_wb w = wb_of(p);

		if (!c->saved)
			continue;
		pmu_writeback(&w, c->id, c->regs, c->nregs, restore_told, &t);
		p->reads += w.reads;
		p->writes += w.writes;
		c->programmed = false;
		c->frozen = false;
		memset(&c->cur, 0, sizeof(c->cur));
		c->cur.ldlat_ctr = -1;
	}
	return t.bad;
}

int pmu_restore_emergency(struct pmu *p)
{
	int left = 0;

	/* Only the msr driver's files: the simulator dies with the process. */
	if (!p->dev || !p->dev->path)
		return 0;
	disarm_all(p);
	for (int i = 0; i < p->ncpu; i++) {
		struct pmu_cpu *c = &p->cpu[i];
		struct pmu_wb w = wb_of(p);

		if (!c->saved)
			continue;
		left += pmu_writeback(&w, c->id, c->regs, c->nregs, NULL, NULL);
		p->reads += w.reads;
		p->writes += w.writes;
	}
	return left;
}

bool pmu_pending(const struct pmu *p)
{
	for (int i = 0; i < p->ncpu; i++)
		for (int k = 0; p->cpu[i].saved && k < p->cpu[i].nregs; k++)
			if (p->cpu[i].regs[k].dirty && p->cpu[i].regs[k].mask)
				return true;
	return false;
}
