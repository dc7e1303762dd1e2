/*
 * pmu.c: probe, save and program the core PMU of each CPU, and give up
 * what someone else takes.  The write-back of saved registers (restore,
 * crash, --restore) is pmu_writeback.c; who holds the counters (another
 * user, another lattop) is told by pmu_owners.c, and so are the
 * names of registers and errors in messages.
 *
 * See pmu.h for the guarantees.  The register layouts used here are the
 * architectural ones (SDM Vol.3B 18.2; pmu-facts.md section 2); everything
 * model-specific comes from the uarch and its event table.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/events.h"
#include "cpu/pmu.h"

#define FIXED_FIELD(i)    PMU_FIXED_FIELD(i)
#define FIXED_EN(i)       PMU_FIXED_EN(i)
#define GLOBAL_FIXED(i)   (1ull << (32 + (i)))
#define CTR_RESET_MASK    ((1u << PMU_CTR_RESET_N) - 1)   /* PMC0-3: what the Nehalem reset uses */

/*
 * A PEBS-enabled counter must never overflow: lattop sets PEBS_EN and LL_EN
 * for load-latency counting but provides no DS save area (IA32_DS_AREA is
 * the kernel's, or nothing), so a PEBS assist on overflow would write a
 * record into someone else's buffer or fault.  pmu_read_gp() therefore
 * writes the counter back to 0 once it reaches 2^(width-8), stopped for the
 * write (pebs_rezero()): at the highest possible rate (a few loads per
 * cycle, ~1.2e10/s) that leaves 255/256 of the range, over six hours at 48
 * bits, while reads happen every slot, and slots are never longer than the
 * longest interval (an hour).
 */
#define PEBS_REZERO_SHIFT 8

/* ---- register access, counted and remembered ---- */

/*
 * The messages of a failed or refused register access, out of line: rd()
 * and wr_at() run about 120 times per CPU per interval, and a name buffer on
 * their own stacks cost each call a frame and its guard.
 */
static __attribute__((cold, noinline)) int rd_failed(const struct pmu_cpu *c, uint32_t reg, int r,
						     char *err, size_t errlen)
{
	char name[40];

	snprintf(err, errlen, "cpu %d: reading %s (0x%x): %s", c->id,
		 pmu_reg_name(reg, name, sizeof(name)), reg, pmu_strerror(r, false));
	return r;
}

/* Why wr_at() did not write: its register unsaved, not lattop's, or the write failed (@r). */
enum wr_why { WR_UNSAVED, WR_NOT_OURS, WR_FAILED };

static __attribute__((cold, noinline)) int wr_failed(const struct pmu_cpu *c, const struct pmu_reg *s,
						     uint32_t reg, uint64_t v, enum wr_why why, int r,
						     char *err, size_t errlen)
{
	char name[40];

	pmu_reg_name(reg, name, sizeof(name));
	if (why == WR_UNSAVED)
		/* A bug, not a user error: refuse rather than write unsaved. */
		snprintf(err, errlen, "cpu %d: internal error: %s (0x%x) written before being saved",
			 c->id, name, reg);
	else if (why == WR_NOT_OURS)
		/* Given up to another user, or shared with a CPU lattop could not probe. */
		snprintf(err, errlen, "cpu %d: %s (0x%x) is not lattop's to write (%s); nothing written",
			 c->id, name, reg,
			 s->mask ? "shared with a CPU that was not probed" : "someone else uses it");
	else
		snprintf(err, errlen, "cpu %d: writing %s (0x%x) = 0x%llx: %s", c->id,
			 name, reg, (unsigned long long)v, pmu_strerror(r, true));
	return r;
}

/* Every read: inline, a call less on each of about 80 per CPU per interval. */
static inline __attribute__((always_inline)) int rd(struct pmu *p, struct pmu_cpu *c, uint32_t reg,
						    uint64_t *v, char *err, size_t errlen)
{
	int r = msrdev_read(p->dev, c->id, reg, v);

	p->reads++;
	if (r < 0 && err)
		return rd_failed(c, reg, r, err, errlen);
	return r;
}

/* The ix_misc[] slots: the registers a switch or a check looks up, by name. */
enum misc { MISC_GLOBAL, MISC_FIXED_CTRL, MISC_PEBS, MISC_LDLAT, MISC_RSP0, MISC_RSP1 };

static const uint32_t misc_reg[PMU_NMISC] = {
	[MISC_GLOBAL]     = MSR_PERF_GLOBAL_CTRL,
	[MISC_FIXED_CTRL] = MSR_FIXED_CTR_CTRL,
	[MISC_PEBS]       = MSR_PEBS_ENABLE,
	[MISC_LDLAT]      = MSR_PEBS_LD_LAT,
	[MISC_RSP0]       = MSR_OFFCORE_RSP(0),
	[MISC_RSP1]       = MSR_OFFCORE_RSP(1),
};
_Static_assert(MISC_RSP1 + 1 == PMU_NMISC, "a slot per register");

/* The ix_misc[] slot of @reg, or -1. */
static int misc_slot(uint32_t reg)
{
	for (int m = 0; m < PMU_NMISC; m++)
		if (misc_reg[m] == reg)
			return m;
	return -1;
}

/* The saved entry at regs[] index @ix, or NULL (-1: not saved). */
static inline struct pmu_reg *reg_at(struct pmu_cpu *c, int8_t ix)
{
	return ix >= 0 ? &c->regs[ix] : NULL;
}

/* @reg's saved entry (IA32_A_PMCx: IA32_PMCx's), or NULL: by index, every switch looks some up */
static struct pmu_reg *reg_find(struct pmu_cpu *c, uint32_t reg)
{
	int m;

	if ((m = msr_pmc_index(reg, NULL)) >= 0 || (m = msr_apmc_index(reg)) >= 0)
		return reg_at(c, c->ix_pmc[m]);
	if ((m = msr_evtsel_index(reg, NULL)) >= 0)
		return reg_at(c, c->ix_evtsel[m]);
	if ((m = misc_slot(reg)) >= 0)
		return reg_at(c, c->ix_misc[m]);
	for (int i = 0; i < c->nregs; i++)
		if (c->regs[i].reg == reg)
			return &c->regs[i];
	return NULL;
}

/*
 * Every write lattop makes to a CPU: to register @reg, whose saved entry is
 * @s (NULL: not saved, refused), allowlisted, marked dirty.  The switch's
 * writes name their entry by index (wr_sel(), wr_pmc(), wr_misc()): about
 * 45 writes per CPU per interval, each spared decoding its address back
 * into the index it was made from.
 */
static int wr_at(struct pmu *p, struct pmu_cpu *c, struct pmu_reg *s, uint32_t reg, uint64_t v,
		 char *err, size_t errlen)
{
	int r;

	if (!s || !c->saved)
		return wr_failed(c, s, reg, v, WR_UNSAVED, -EINVAL, err, errlen);
	if (!s->mask || (!c->group_ok && pmu_reg_shared(p, reg)))
		return wr_failed(c, s, reg, v, WR_NOT_OURS, -EBUSY, err, errlen);
	s->dirty = true;
	r = msr_write(p->dev, c->id, reg, v);
	p->writes++;
	if (r < 0)
		return wr_failed(c, s, reg, v, WR_FAILED, r, err, errlen);
	return r;
}

/* Counter @k's event select. */
static inline int wr_sel(struct pmu *p, struct pmu_cpu *c, unsigned k, uint64_t v,
			 char *err, size_t errlen)
{
	return wr_at(p, c, reg_at(c, c->ix_evtsel[k]), pmu_evtsel(p, k), v, err, errlen);
}

/* Counter @k's count (IA32_A_PMCx where lattop writes the full width). */
static inline int wr_pmc(struct pmu *p, struct pmu_cpu *c, unsigned k, uint64_t v,
			 char *err, size_t errlen)
{
	return wr_at(p, c, reg_at(c, c->ix_pmc[k]), pmu_pmc(p, k), v, err, errlen);
}

/* The misc register of slot @m. */
static inline int wr_misc(struct pmu *p, struct pmu_cpu *c, enum misc m, uint64_t v,
			  char *err, size_t errlen)
{
	return wr_at(p, c, reg_at(c, c->ix_misc[m]), misc_reg[m], v, err, errlen);
}

/* ---- probing: what is found, and who holds it ---- */

/* Which MSR_OFFCORE_RSP_x an event select uses, from the table's rows; -1 if none. */
static int evtsel_offcore(const struct pmu_table *t, uint64_t evtsel)
{
	for (const struct pmu_event *e = t->events; e->name; e++)
		if (e->offcore && e->fixed == PMU_FIXED_NONE &&
		    e->event == (evtsel & 0xff) && e->umask == ((evtsel >> 8) & 0xff))
			return e->offcore - 1;
	return -1;
}

/* Read a CPU's control registers and decide which counters are taken. */
static int probe_cpu(struct pmu *p, struct pmu_cpu *c, char *err, size_t errlen)
{
	const struct uarch *u = p->uarch;
	uint64_t ours = 0;              /* every IA32_PEBS_ENABLE bit lattop may set */

	c->gp_taken = c->fixed_taken = 0;
	c->inuse = 0;
	for (unsigned k = 0; k < c->ngp; k++)
		if (rd(p, c, pmu_evtsel(p, k), &c->evtsel[k], err, errlen) < 0)
			return -1;
	if (rd(p, c, MSR_FIXED_CTR_CTRL, &c->fixed_ctrl, err, errlen) < 0 ||
	    rd(p, c, MSR_PERF_GLOBAL_CTRL, &c->global_ctrl, err, errlen) < 0 ||
	    rd(p, c, MSR_PEBS_ENABLE, &c->pebs_enable, err, errlen) < 0)
		return -1;
	if (p->version >= 4 && rd(p, c, MSR_PERF_GLOBAL_INUSE, &c->inuse, err, errlen) < 0)
		return -1;

	c->gp_lattop = c->fixed_lattop = 0;
	for (unsigned k = 0; k < c->ngp; k++)
		if ((c->evtsel[k] & EVTSEL_EN) || (c->inuse & (1ull << k)))
			c->gp_taken |= 1u << k;
	for (unsigned k = 0; k < c->nfixed; k++)
		if ((c->fixed_ctrl & FIXED_EN(k)) || (c->inuse & (1ull << (32 + k))))
			c->fixed_taken |= 1u << k;
	/*
	 * lattop's own programming, by another lattop: a select of its table
	 * without INT, a fixed field of exactly OS|USR.  perf and the NMI
	 * watchdog always ask for the PMI (K-core: ARCH_PERFMON_EVENTSEL_INT,
	 * the fixed field's PMI bit), so no one else leaves these.
	 */
	for (unsigned k = 0; k < c->ngp; k++)
		if ((c->gp_taken & (1u << k)) && pmu_table_has_evtsel(u->table, c->evtsel[k]))
			c->gp_lattop |= 1u << k;
	for (unsigned k = 0; k < c->nfixed; k++)
		if ((c->fixed_taken & (1u << k)) && (c->fixed_ctrl & FIXED_FIELD(k)) == FIXED_EN(k))
			c->fixed_lattop |= 1u << k;
	if (p->force)
		return 0;       /* taken over: still saved and restored, but treated as free */
	for (unsigned k = 0; k < c->ngp; k++) {
		int j;

		ours |= pmu_pebs_bits(p, k);
		if (!(c->gp_taken & (1u << k)))
			continue;
		j = evtsel_offcore(u->table, c->evtsel[k]);
		if (j >= 0)
			p->rsp_taken |= 1u << j;
		/* Someone's PEBS events: the facility is theirs. */
		if (c->pebs_enable & pmu_pebs_bits(p, k))
			p->ldlat_taken = true;
	}
	/*
	 * A bit of IA32_PEBS_ENABLE that lattop never sets, set by someone:
	 * e.g. Sandy Bridge's PS_EN (bit 63, precise stores on PMC3, which
	 * the kernel sets for MEM_TRANS_RETIRED.PRECISE_STORES: K-ds
	 * intel_pmu_pebs_enable; pmu-facts 3).  Someone uses PEBS, and while
	 * load latency is enabled "no other PEBS event can be configured"
	 * (SDM16 p.692): the facility is theirs.
	 */
	if (p->has_ldlat && (c->pebs_enable & ~ours))
		p->ldlat_taken = true;
	/*
	 * Bits 32 and up of IA32_PEBS_ENABLE without LL_EN bits: PEBS on a
	 * fixed counter (Goldmont Plus, pmu-facts 8.7; every part from
	 * version 5 on, pmu-facts 9.2).  That counter is someone's, even with
	 * its IA32_FIXED_CTR_CTRL field still clear.
	 */
	for (unsigned k = 0; k < c->nfixed && !pmu_ll_en(p); k++)
		if (c->pebs_enable & (1ull << (32 + k)))
			c->fixed_taken |= 1u << k;
	return 0;
}

static void shared_note(struct pmu *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Say (once, the first) why a shared register is left alone. */
static void shared_note(struct pmu *p, const char *fmt, ...)
{
	va_list ap;

	if (p->shared_note[0])
		return;
	va_start(ap, fmt);
	vsnprintf(p->shared_note, sizeof(p->shared_note), fmt, ap);
	va_end(ap);
}

/*
 * Probe, reading only, the CPUs that share MSR_OFFCORE_RSP_x (and on
 * Nehalem/Westmere the threshold) with measured CPU @c but are not measured
 * themselves: an enabled event there that uses a shared register makes it
 * taken (pmu-facts 4.5: the offcore events of the table's rows), and so does
 * a load-latency PEBS bit for the threshold.  A member that cannot be read
 * makes every shared register taken, and @c->group_ok false: wr_at() never
 * writes a shared register of such a CPU.
 */
static void probe_group(struct pmu *p, struct pmu_cpu *c)
{
	const struct msrdev_cpu *me = &p->dev->cpu[c->dev];
	bool ldlat_shared = pmu_reg_shared(p, MSR_PEBS_LD_LAT);
	char name[40];

	c->group_ok = true;
	for (int d = 0; d < p->dev->ncpu; d++) {
		const struct msrdev_cpu *o = &p->dev->cpu[d];
		uint64_t sel, pebs;
		int r = 0;

		if (d == c->dev || !pmu_same_group(p, me, o) || pmu_measures(p, d))
			continue;
		for (unsigned k = 0; k < c->ngp && r == 0; k++) {
			int j;

			r = msrdev_read(p->dev, o->id, pmu_evtsel(p, k), &sel);
			p->reads++;
			if (r < 0 || !(sel & EVTSEL_EN))
				continue;
			j = evtsel_offcore(c->uarch->table, sel);
			if (j < 0 || (unsigned)j >= c->uarch->offcore_msrs)
				continue;
			p->rsp_taken |= (uint8_t)(1u << j);
			shared_note(p, "MSR_OFFCORE_RSP_%d is shared with cpu %d, not measured, where "
				    "IA32_PERFEVTSEL%u=0x%llx uses it: lattop leaves it alone", j, o->id, k,
				    (unsigned long long)sel);
		}
		if (r == 0 && ldlat_shared) {
			r = msrdev_read(p->dev, o->id, MSR_PEBS_ENABLE, &pebs);
			p->reads++;
			if (r == 0 && (pebs & (((1ull << c->ngp) - 1) << 32))) {
				p->ldlat_taken = true;
				shared_note(p, "MSR_PEBS_LD_LAT_THRESHOLD is shared with cpu %d, not "
					    "measured, where IA32_PEBS_ENABLE=0x%llx counts load latency: "
					    "lattop leaves it alone", o->id, (unsigned long long)pebs);
			}
		}
		if (r < 0) {
			c->group_ok = false;
			p->rsp_taken = (uint8_t)((1u << c->uarch->offcore_msrs) - 1);
			if (ldlat_shared)
				p->ldlat_taken = true;
			shared_note(p, "cpu %d shares MSR_OFFCORE_RSP_x with cpu %d, whose counters cannot "
				    "be read (%s: %s): lattop leaves the shared registers alone", c->id,
				    o->id, pmu_reg_name(pmu_evtsel(p, 0), name, sizeof(name)),
				    pmu_strerror(r, false));
		}
	}
}

/*
 * A model whose PEBS works only from microcode revision desc->ldlat_min_ucode
 * on (uarch.c): read the revision of CPU @c (IA32_BIOS_SIGN_ID bits 63:32,
 * as the kernel's microcode loader leaves it) and, when it is older or
 * cannot be read, measure no load latency, saying why in p->ldlat_why; the
 * same, without a read, on a stepping whose PEBS no microcode fixes
 * (desc->ldlat_why).  has_ldlat stays: it says the PEBS_ENABLE layout (LL_EN bits), which does
 * not change.  Nothing is written.
 */
static void ucode_check(struct pmu *p, struct pmu_cpu *c, const struct cpu_desc *desc)
{
	uint64_t v;
	int r;

	if (!p->has_ldlat || p->ldlat_why[0])
		return;
	if (desc->ldlat_why[0]) {
		snprintf(p->ldlat_why, sizeof(p->ldlat_why), "%s", desc->ldlat_why);
		return;
	}
	if (!desc->ldlat_min_ucode)
		return;
	r = rd(p, c, MSR_BIOS_SIGN_ID, &v, NULL, 0);
	if (r == 0 && (unsigned)(v >> 32) >= desc->ldlat_min_ucode)
		return;
	if (r < 0)
		snprintf(p->ldlat_why, sizeof(p->ldlat_why), "PEBS needs microcode 0x%x or later on this "
			 "model (%s); cpu %d's revision cannot be read (IA32_BIOS_SIGN_ID)",
			 desc->ldlat_min_ucode, desc->ldlat_ucode_source, c->id);
	else
		snprintf(p->ldlat_why, sizeof(p->ldlat_why), "PEBS is unreliable before microcode 0x%x on "
			 "this model (%s); cpu %d runs 0x%x: update the microcode",
			 desc->ldlat_min_ucode, desc->ldlat_ucode_source, c->id, (unsigned)(v >> 32));
}

int pmu_open(struct pmu *p, struct msrdev *dev, const struct cpu_desc *desc,
	     const int *ids, int n, bool force, char *err, size_t errlen)
{
	const struct uarch *u = desc->uarch;
	uint64_t v;

	memset(p, 0, sizeof(*p));
	p->dev = dev;
	p->uarch = u;
	p->force = force;
	p->version = desc->id.pmu.version;
	p->v6 = p->version >= 6;
	/* The fixed counters leaf 0xA enumerates from 0 on (its ECX bitmap from version 5) */
	p->gp_width = desc->id.pmu.gp_width;
	p->fixed_width = desc->id.pmu.fixed_width;
	pmu_core_types(p, desc);
	p->ctr_reset = pmu_ctr_reset_writes(u, p->ngp) > 0;
	p->cpu = calloc(n, sizeof(*p->cpu));
	if (!p->cpu) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	p->ncpu = n;

	for (int i = 0; i < n; i++) {
		struct pmu_cpu *c = &p->cpu[i];

		c->id = ids[i];
		c->dev = msrdev_index(dev, ids[i]);
		c->cur.ldlat_ctr = -1;
		if (pmu_cpu_type(p, c, desc, err, errlen) < 0)
			return -1;
		if (c->dev < 0) {
			snprintf(err, errlen, "cpu %d: no such CPU", ids[i]);
			return -1;
		}
		if (i == 0 && desc->id.pdcm) {
			if (rd(p, c, MSR_PERF_CAPABILITIES, &v, err, errlen) < 0)
				return -1;
			p->fw_write = v & PERF_CAP_FW_WRITE;
		}
		ucode_check(p, c, desc);
		if (probe_cpu(p, c, err, errlen) < 0)
			return -1;
	}
	/* Then the CPUs sharing registers with them (all measured CPUs are known by now). */
	if (pmu_topology(p, err, errlen) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		probe_group(p, &p->cpu[i]);
		pmu_check_siblings(p, i, NULL);
	}
	return 0;
}

void pmu_close(struct pmu *p)
{
	free(p->cpu);
	free(p->dev_cpu);
	free(p->sib_dev);
	p->cpu = NULL;
	p->dev_cpu = p->sib_dev = NULL;
	p->ncpu = 0;
}

/* ---- saving, before any write ---- */

static int save_one(struct pmu *p, struct pmu_cpu *c, uint32_t reg, uint64_t mask,
		    char *err, size_t errlen)
{
	struct pmu_reg *s = &c->regs[c->nregs];

	if (c->nregs >= PMU_NREG) {
		snprintf(err, errlen, "internal error: too many registers to save");
		return -1;
	}
	if (rd(p, c, reg, &s->saved, err, errlen) < 0)
		return -1;
	if (msr_pmc_index(reg, NULL) >= 0)
		c->ix_pmc[msr_pmc_index(reg, NULL)] = (int8_t)c->nregs;
	else if (msr_evtsel_index(reg, NULL) >= 0)
		c->ix_evtsel[msr_evtsel_index(reg, NULL)] = (int8_t)c->nregs;
	else if (misc_slot(reg) >= 0)
		c->ix_misc[misc_slot(reg)] = (int8_t)c->nregs;
	s->reg = reg;
	s->mask = mask;
	s->dirty = false;
	c->nregs++;
	return 0;
}

/*
 * The registers lattop may write on a CPU, with the bits it owns.  A counter
 * someone else holds is not among them (unless --force): since wr_at() refuses
 * a register that was not saved, it can never be written, not even at
 * restore.  The three shared registers are owned field by field.
 */
/*
 * Keep the power-on value (0) of @bits of saved register @reg as the
 * original, and have the write-back put it there even if lattop never
 * writes the register.
 */
static void power_on(struct pmu_cpu *c, uint32_t reg, uint64_t bits)
{
	struct pmu_reg *s = reg_find(c, reg);

	s->saved &= ~bits;
	s->dirty = true;
}

static int save_cpu(struct pmu *p, struct pmu_cpu *c, char *err, size_t errlen)
{
	gp_set gp = p->force ? 0 : c->gp_taken;
	uint8_t fx = p->force ? 0 : c->fixed_taken;
	uint64_t fixed_mask = 0, global_mask = 0, pebs_mask = 0;
	int r = 0;

	c->nregs = 0;
	memset(c->ix_pmc, -1, sizeof(c->ix_pmc));
	memset(c->ix_evtsel, -1, sizeof(c->ix_evtsel));
	memset(c->ix_misc, -1, sizeof(c->ix_misc));
	for (unsigned k = 0; k < c->ngp; k++)
		if (!(gp & (1u << k))) {
			global_mask |= 1ull << k;
			pebs_mask |= pmu_pebs_bits(p, k);
		}
	for (unsigned k = 0; k < c->nfixed; k++)
		if (!(fx & (1u << k))) {
			fixed_mask |= FIXED_FIELD(k);
			global_mask |= GLOBAL_FIXED(k);
		}
	/* Control registers first, so a failure leaves nothing half-known. */
	for (unsigned k = 0; k < c->ngp && !r; k++)
		if (!(gp & (1u << k)))
			r = save_one(p, c, pmu_evtsel(p, k), ~0ull, err, errlen);
	for (unsigned k = 0; k < c->ngp && !r; k++)
		if (!(gp & (1u << k)))
			r = save_one(p, c, pmu_pmc(p, k), ~0ull, err, errlen);
	for (unsigned k = 0; k < c->nfixed && !r; k++)
		if (!(fx & (1u << k)))
			r = save_one(p, c, pmu_fixed_ctr(p, k), ~0ull, err, errlen);
	if (!r)
		r = save_one(p, c, MSR_FIXED_CTR_CTRL, fixed_mask, err, errlen);
	if (!r)
		r = save_one(p, c, MSR_PERF_GLOBAL_CTRL, global_mask, err, errlen);
	if (!r)
		r = save_one(p, c, MSR_PEBS_ENABLE, pebs_mask, err, errlen);
	if (!r && p->has_ldlat)
		r = save_one(p, c, MSR_PEBS_LD_LAT, ~0ull, err, errlen);
	for (unsigned j = 0; j < c->uarch->offcore_msrs && !r; j++)
		r = save_one(p, c, MSR_OFFCORE_RSP(j), ~0ull, err, errlen);
	if (r)
		return -1;
	c->saved = true;
	c->hw_global = reg_at(c, c->ix_misc[MISC_GLOBAL])->saved;
	c->hw_pebs = reg_at(c, c->ix_misc[MISC_PEBS])->saved;
	c->hw_fixed_ctrl = reg_at(c, c->ix_misc[MISC_FIXED_CTRL])->saved;
	for (unsigned j = 0; j < c->uarch->offcore_msrs; j++)
		c->seen_rsp[j] = c->hw_rsp[j] = reg_at(c, c->ix_misc[MISC_RSP0 + j])->saved;
	if (p->has_ldlat)
		c->seen_ldlat = c->hw_ldlat = (uint16_t)reg_at(c, c->ix_misc[MISC_LDLAT])->saved;
	/*
	 * --force over another lattop's programming (pmu_check_lattop): its
	 * values are not originals.  The power-on values are (SDM Vol.3B
	 * 18.2: selects, counters, fixed fields and PEBS enables all 0), so
	 * that the exit leaves those counters stopped and cleared.
	 */
	for (unsigned k = 0; k < c->ngp && p->force; k++)
		if (c->gp_lattop & (1u << k)) {
			power_on(c, pmu_evtsel(p, k), ~0ull);
			power_on(c, pmu_pmc(p, k), ~0ull);
			power_on(c, MSR_PEBS_ENABLE, pmu_pebs_bits(p, k));
		}
	for (unsigned k = 0; k < c->nfixed && p->force; k++)
		if (c->fixed_lattop & (1u << k)) {
			power_on(c, pmu_fixed_ctr(p, k), ~0ull);
			power_on(c, MSR_FIXED_CTR_CTRL, FIXED_FIELD(k));
		}
	return 0;
}

int pmu_save(struct pmu *p, char *err, size_t errlen)
{
	for (int i = 0; i < p->ncpu; i++)
		if (save_cpu(p, &p->cpu[i], err, errlen) < 0)
			return -1;
	return 0;
}

/* ---- programming a slot ---- */

/* What shared_lost() reads back. */
#define CHECK_RSP(j)    (1u << (j))
#define CHECK_LDLAT     (1u << 2)
#define CHECK_PEBS      (1u << 3)

/* Every general-purpose counter of @c, as a mask. */
static inline gp_set gp_all(const struct pmu_cpu *c)
{
	return (gp_set)((1u << c->ngp) - 1);
}

/* The IA32_PERF_GLOBAL_CTRL enable bits of the fixed counters in @m (of those @c has). */
static inline uint64_t global_fixed(const struct pmu_cpu *c, unsigned m)
{
	return (uint64_t)(m & ((1u << c->nfixed) - 1)) << 32;
}

/* The IA32_FIXED_CTR_CTRL fields (FIXED_FIELD) of the fixed counters in @m. */
static inline uint64_t fixed_fields(unsigned m)
{
	static const uint16_t fields[8] = {
		0x000, 0x00f, 0x0f0, 0x0ff, 0xf00, 0xf0f, 0xff0, 0xfff,
	};

	_Static_assert(PMU_MAX_FIXED == 3, "one field per bit of three");
	return fields[m & 7];
}

/* FIXED_EN of every fixed counter: its OS and USR bits. */
#define FIXED_EN_ALL    (FIXED_EN(0) | FIXED_EN(1) | FIXED_EN(2))

/* A counter lattop is not using this slot: its saved selection, not counting. */
static uint64_t idle_evtsel(struct pmu_cpu *c, unsigned k)
{
	return c->regs[c->ix_evtsel[k]].saved & ~EVTSEL_EN;
}

/*
 * Nehalem/Westmere errata AAK100, AAP53, BD53: counters may count wrongly
 * after being reprogrammed unless "reset" by briefly enabling four
 * non-counting events on PMC0-3.  The kernel's five steps
 * (intel_pmu_nhm_workaround, pmu-facts 6): 1) IA32_PEBS_ENABLE and
 * IA32_PERF_GLOBAL_CTRL cleared; 2) the magic events in PERFEVTSEL0-3, PMC0-3
 * cleared; 3) GLOBAL_CTRL bits 0-3 set; 4) GLOBAL_CTRL cleared; 5) the four
 * PERFEVTSELx/PMCx pairs cleared again, as the magic events do count; then
 * the real events, and GLOBAL_CTRL and PEBS_ENABLE as they were.  Step 1
 * stops the fixed counters too for these few writes, someone else's
 * included (the NMI watchdog's): their bits come back in @global_back,
 * which the caller's GLOBAL_CTRL write (pmu_apply step 7) puts back.
 * PEBS_ENABLE has only PMC0-3 bits here, all lattop's: the reset needs
 * PERFEVTSEL0-3 to itself.
 */
static int nhm_ctr_reset(struct pmu *p, struct pmu_cpu *c, gp_set next_gp, uint64_t *global_back,
			 char *err, size_t errlen)
{
	static const uint64_t magic[PMU_CTR_RESET_N] = { 0x4300b5, 0x4300d2, 0x4300b1, 0x4300b1 };
	uint64_t ours = 0;
	int r = 0;

	/* 1. PEBS off on PMC0-3, every enable off. */
	for (int k = 0; k < PMU_CTR_RESET_N; k++)
		ours |= pmu_pebs_bits(p, (unsigned)k);
	if (c->hw_pebs & ours) {
		if ((r = wr_misc(p, c, MISC_PEBS, c->hw_pebs & ~ours, err, errlen)) < 0)
			return r;
		c->hw_pebs &= ~ours;
		c->cur.ldlat_ctr = -1;
	}
	*global_back |= c->hw_global & ~(uint64_t)CTR_RESET_MASK;
	if (c->hw_global) {
		if ((r = wr_misc(p, c, MISC_GLOBAL, 0, err, errlen)) < 0)
			return r;
		c->hw_global = 0;
	}
	/* 2. The four magic events, counters cleared. */
	for (int k = 0; k < PMU_CTR_RESET_N && !r; k++) {
		r = wr_sel(p, c, k, magic[k], err, errlen);
		if (!r)
			r = wr_pmc(p, c, k, 0, err, errlen);
	}
	/* 3-4. A pulse of bits 0-3. */
	if (!r)
		r = wr_misc(p, c, MISC_GLOBAL, CTR_RESET_MASK, err, errlen);
	if (!r)
		r = wr_misc(p, c, MISC_GLOBAL, 0, err, errlen);
	/*
	 * 5. The pairs cleared again: what the magic events counted during the
	 * pulse must not become a baseline.  A counter the caller programs next
	 * gets its event there (nothing counts until then: every enable is
	 * off); the others go back to their idle selection.
	 */
	for (int k = 0; k < PMU_CTR_RESET_N && !r; k++) {
		if (!(next_gp & (1u << k)))
			r = wr_sel(p, c, k, idle_evtsel(c, k), err, errlen);
		if (!r)
			r = wr_pmc(p, c, k, 0, err, errlen);
		c->last_gp[k] = 0;
		c->cur.gp_mask &= (gp_set)~(1u << k);
	}
	if (r < 0 && *global_back) {
		/*
		 * A write failed midway: the enables step 1 cleared that are not
		 * lattop's go back now, as restore would not (they are not its own).
		 */
		char again[128];

		if (wr_misc(p, c, MISC_GLOBAL, *global_back, again, sizeof(again)) == 0)
			c->hw_global = *global_back;
	}
	return r;
}

/*
 * What a switch of @c to @next writes (pmu_diff()): from its selects as
 * programmed, and the offcore values and threshold its registers hold.
 */
static struct pmu_diff diff_to(const struct pmu_cpu *c, const struct pmu_cfg *next)
{
	return pmu_diff_from(&c->cur, c->hw_rsp, c->hw_ldlat, next);
}

/*
 * The counters a switch to @next reprograms (@d: its pmu_diff()): a new
 * event, or an offcore value or threshold that changes under it.
 */
static gp_set reprogrammed(const struct pmu_cfg *next, const struct pmu_diff *d)
{
	gp_set m = d->sel;

	for (unsigned j = 0; j < 2; j++)
		if (d->rsp & (1u << j))
			m |= next->rsp_users[j] & next->gp_mask;
	if (d->ldlat)
		m |= (gp_set)(1u << next->ldlat_ctr);
	return m;
}

/* Does the Nehalem counter reset run before a switch of @c that reprograms @changed? */
static bool reset_runs(const struct pmu *p, const struct pmu_cpu *c, gp_set changed)
{
	return changed && p->ctr_reset && (!(c->gp_taken & CTR_RESET_MASK) || p->force);
}

/*
 * A PEBS-enabled counter is written only while it does not count.  SDM16
 * p.690 (Sandy Bridge) and p.701 (Haswell): "PEBS behavior is unpredictable
 * if IA32_PERFEVTSELx or IA32_PMCx is changed for a PEBS-enabled counter
 * while an event is being counted"; changes are made while the counter is
 * disabled: its EN, its IA32_PERF_GLOBAL_CTRL bit or its PEBS_EN clear
 * (pmu-facts 8.12).  MSR_PEBS_LD_LAT_THRESHOLD is part of the load-latency
 * counter's programming (the audit's reading in 8.12), and the rule is kept
 * on every family with the facility.
 *
 * pmu_apply() clears the PEBS bits of every counter a switch writes (step
 * 1), but one's: the load-latency counter that keeps its event while its
 * threshold changes, every slot switch of a rotation.  That one keeps
 * PEBS_EN (clearing and setting it again costs the same two writes, and a
 * zeroing before it is set) and is stopped by its IA32_PERF_GLOBAL_CTRL
 * bit, which pmu_freeze() and pmu_apply()'s last step write anyway: under a
 * freeze or the Nehalem reset it costs nothing, alone two writes (so
 * pmu_changes() counts them, and the sampler freezes instead).
 *
 * The load-latency counter that keeps its event and PEBS bits through a
 * switch of @c to @next (@d), or -1.
 */
static int pebs_kept(const struct pmu_cpu *c, const struct pmu_cfg *next, const struct pmu_diff *d)
{
	int k = next->ldlat_ctr;

	return k >= 0 && k == c->cur.ldlat_ctr && !(d->sel & (1u << k)) ? k : -1;
}

/*
 * The counter pmu_apply() stops on its own for a switch of @c to @next
 * (@d, reprogramming @changed), or -1: the kept load-latency counter, when
 * it is reprogrammed and still counts (neither a freeze nor the Nehalem
 * reset stops it).
 */
static int pebs_to_stop(const struct pmu *p, const struct pmu_cpu *c, const struct pmu_cfg *next,
			const struct pmu_diff *d, gp_set changed)
{
	int k = pebs_kept(c, next, d);

	if (k < 0 || !(changed & (1u << k)) || reset_runs(p, c, changed) ||
	    !(c->hw_global & (1ull << k)))
		return -1;
	return k;
}

int pmu_changes(const struct pmu *p, int i, const struct pmu_cfg *next)
{
	const struct pmu_cpu *c = &p->cpu[i];
	struct pmu_diff d = diff_to(c, next);
	gp_set m = reprogrammed(next, &d);
	int n;

	if (reset_runs(p, c, m))
		m |= next->gp_mask & CTR_RESET_MASK;    /* the reset clears PMC0-3 */
	n = __builtin_popcount(m);
	/* Stopping and starting the load-latency counter, which a freeze does for it. */
	return pebs_to_stop(p, c, next, &d, m) >= 0 ? n + 2 : n;
}

/* legacy_check() of the enable bits @ours: the read, and the bits set again. */
static int legacy_look(struct pmu *p, struct pmu_cpu *c, uint64_t ours, char *err, size_t errlen)
{
	uint64_t v;
	int r;

	if (p->version >= 4 || p->version < 2 || !c->programmed)
		return 0;
	if (!ours)
		return 0;
	if ((r = rd(p, c, MSR_PERF_GLOBAL_CTRL, &v, err, errlen)) < 0)
		return r;
	if ((v & ours) == ours) {
		c->hw_global = v;
		return 0;
	}
	/* Ours back, and whatever the other agent set again kept. */
	if ((r = wr_misc(p, c, MISC_GLOBAL, v | ours, err, errlen)) < 0)
		return r;
	c->hw_global = v | ours;
	c->legacy_stopped = true;
	return 0;
}

/*
 * Read IA32_PERF_GLOBAL_CTRL back (versions 2 and 3) and, when one of the
 * enable bits lattop set is clear, set them again, no one else's, and
 * remember it for pmu_hw_stopped().  0 or a negative errno.
 */
static int legacy_check(struct pmu *p, struct pmu_cpu *c, char *err, size_t errlen)
{
	uint64_t ours = c->frozen ? 0 : c->cur.gp_mask;

	return legacy_look(p, c, ours | global_fixed(c, c->cur.fixed_mask), err, errlen);
}

/* Within pmu_apply(), cur half way to the next: the bits lattop set and owns must be set. */
static int legacy_check_set(struct pmu *p, struct pmu_cpu *c, char *err, size_t errlen)
{
	return legacy_look(p, c, c->hw_global & reg_at(c, c->ix_misc[MISC_GLOBAL])->mask, err, errlen);
}

int pmu_freeze(struct pmu *p, int i, char *err, size_t errlen)
{
	struct pmu_cpu *c = &p->cpu[i];
	uint64_t want;
	int r;

	/*
	 * Versions 2 and 3: the write below would set again the enable bits a
	 * legacy freeze cleared (pmu_hw_stopped), and hide it: look first.
	 */
	if ((r = legacy_check(p, c, err, errlen)) < 0)
		return r;
	want = c->hw_global & ~(uint64_t)c->cur.gp_mask;

	if (want == c->hw_global)
		return 0;
	if ((r = wr_misc(p, c, MISC_GLOBAL, want, err, errlen)) < 0)
		return r;
	c->hw_global = want;
	c->frozen = true;
	return 0;
}

/*
 * Lattop wrote @v into @reg on @c: every measured CPU sharing the register
 * sees it there too, so a read-back on any of them must find it, not what
 * that CPU itself last wrote (a sibling's slot write is not someone else's).
 */
static void written(struct pmu *p, struct pmu_cpu *c, uint32_t reg, uint64_t v)
{
	bool shared = pmu_reg_shared(p, reg);
	struct pmu_cpu *d = c;

	do {
		if (reg == MSR_PEBS_LD_LAT)
			d->seen_ldlat = (uint16_t)v;
		else
			d->seen_rsp[reg - MSR_OFFCORE_RSP(0)] = v;
		d = &p->cpu[d->share_next];
	} while (shared && d != c);
}

/*
 * Where MSR_PEBS_LD_LAT_THRESHOLD is one register for both threads of a
 * core (Nehalem, Westmere: pmu_reg_shared()), a new value written from @c
 * changes the threshold of the sibling's load-latency counter too: stop
 * that counter first (its IA32_PERF_GLOBAL_CTRL bit, on the sibling), when
 * it is lattop's and counts.  Its own next pmu_apply() starts it again,
 * with a new baseline (its threshold changed: pmu_diff()).  In a slot
 * switch the sampler has frozen it already; this is for the other paths
 * (a re-plan, a CPU back online).
 */
static int stop_sharers(struct pmu *p, struct pmu_cpu *c, char *err, size_t errlen)
{
	for (struct pmu_cpu *o = &p->cpu[c->share_next]; o != c; o = &p->cpu[o->share_next]) {
		int k = o->cur.ldlat_ctr;
		int r;

		if (k < 0 || !o->saved ||
		    !(o->hw_pebs & pmu_pebs_bits(p, (unsigned)k)) || !(o->hw_global & (1ull << k)))
			continue;
		if ((r = wr_misc(p, o, MISC_GLOBAL, o->hw_global & ~(1ull << k), err, errlen)) < 0)
			return r;
		o->hw_global &= ~(1ull << k);
	}
	return 0;
}

int pmu_apply(struct pmu *p, int i, const struct pmu_cfg *next, char *err, size_t errlen)
{
	struct pmu_cpu *c = &p->cpu[i];
	struct pmu_cfg *cur = &c->cur;
	struct pmu_diff d = diff_to(c, next);
	gp_set changed = reprogrammed(next, &d), zeroed = 0;
	/* Counting now, and not stopped for the switch: what may count on through it. */
	gp_set running = c->frozen ? 0 : cur->gp_mask;
	int keep = pebs_kept(c, next, &d), stop = pebs_to_stop(p, c, next, &d, changed);
	bool reset = reset_runs(p, c, changed);
	uint64_t want, global_back = 0;
	int r;

	c->sh_rewritten = 0;

	if (((next->gp_mask & c->gp_taken) || (next->fixed_mask & c->fixed_taken)) && !p->force) {
		snprintf(err, errlen, "cpu %d: internal error: a configuration names counters in use "
			 "by someone else (general-purpose 0x%x, fixed 0x%x); nothing written", c->id,
			 next->gp_mask & c->gp_taken, next->fixed_mask & c->fixed_taken);
		return -EBUSY;
	}
	/*
	 * Setting enable bits (step 2 or 8) would hide a legacy freeze since
	 * the last look (the sampler looks once an interval): look first,
	 * before any counter starts (so that no count runs ahead of its time),
	 * unless lattop froze the counters itself for this switch (pmu_freeze
	 * looked) or the reset clears every bit.
	 */
	want = c->hw_global | next->gp_mask | global_fixed(c, next->fixed_mask);
	if (!c->frozen && !reset && (stop >= 0 || want != c->hw_global) &&
	    (r = legacy_check_set(p, c, err, errlen)) < 0)
		return r;

	/*
	 * 1. PEBS off on every counter lattop programs and on the one leaving
	 * load latency, before anything of theirs is written (pebs_kept()): a
	 * stale bit left by someone else would also arm a PEBS assist on an
	 * ordinary event.  The load-latency counter keeping its event keeps
	 * its bits.
	 */
	want = c->hw_pebs;
	if (cur->ldlat_ctr >= 0 && cur->ldlat_ctr != keep)
		want &= ~pmu_pebs_bits(p, (unsigned)cur->ldlat_ctr);
	want &= ~pmu_pebs_mask(p, next->gp_mask & gp_all(c) & (gp_set)~(keep >= 0 ? 1u << keep : 0));
	if (want != c->hw_pebs) {
		if ((r = wr_misc(p, c, MISC_PEBS, want, err, errlen)) < 0)
			return r;
		c->hw_pebs = want;
	}
	if (cur->ldlat_ctr != keep)
		cur->ldlat_ctr = -1;

	/*
	 * 2. Stopped before written: the Nehalem reset (nhm_ctr_reset) stops
	 * every counter first and clears PMC0-3, so it runs before anything
	 * else is programmed (the kernel too writes the events' extra
	 * registers after it); otherwise the kept load-latency counter, when
	 * it still counts (pebs_to_stop()).  Step 8 starts it again.
	 */
	if (changed && p->ctr_reset && !reset)
		p->ctr_reset_skipped = true;
	if (reset) {
		if ((r = nhm_ctr_reset(p, c, next->gp_mask, &global_back, err, errlen)) < 0)
			return r;
		/* PMC0-3 are zero now: their baselines are set. */
		changed |= next->gp_mask & CTR_RESET_MASK;
		zeroed = CTR_RESET_MASK;
	} else if (stop >= 0) {
		want = c->hw_global & ~(1ull << stop);
		if ((r = wr_misc(p, c, MISC_GLOBAL, want, err, errlen)) < 0)
			return r;
		c->hw_global = want;
	}

	/* 3. Counters leaving: back to their saved (idle) selection. */
	for (unsigned m = cur->gp_mask & ~next->gp_mask & gp_all(c); m; m &= m - 1) {
		unsigned k = (unsigned)__builtin_ctz(m);

		r = wr_sel(p, c, k, idle_evtsel(c, k), err, errlen);
		if (r < 0)
			return r;
		cur->gp_mask &= (gp_set)~(1u << k);
	}

	/*
	 * 4. Offcore response and threshold before the events that use them.
	 * A counter whose offcore value or threshold changes is reprogrammed
	 * as surely as one whose event changes (reprogrammed()).  A shared
	 * threshold is written on each thread all the same: that the register
	 * is one per core is the kernel's view (pmu-facts 8.5), not verified,
	 * and where it is, the second write changes nothing.
	 */
	for (unsigned j = 0; j < 2; j++) {
		if (!(d.rsp & (1u << j)))
			continue;
		if ((r = wr_misc(p, c, MISC_RSP0 + j, next->rsp[j], err, errlen)) < 0)
			return r;
		c->hw_rsp[j] = next->rsp[j];
		written(p, c, MSR_OFFCORE_RSP(j), next->rsp[j]);
		c->sh_rewritten |= c->sh_verified & CHECK_RSP(j);
	}
	if (d.ldlat) {
		if (pmu_reg_shared(p, MSR_PEBS_LD_LAT) && next->ldlat != c->seen_ldlat &&
		    (r = stop_sharers(p, c, err, errlen)) < 0)
			return r;
		if ((r = wr_misc(p, c, MISC_LDLAT, next->ldlat, err, errlen)) < 0)
			return r;
		c->hw_ldlat = next->ldlat;
		written(p, c, MSR_PEBS_LD_LAT, next->ldlat);
		c->sh_rewritten |= c->sh_verified & CHECK_LDLAT;
	}
	c->sh_verified = 0;

	/* 5. Counters arriving or changing event. */
	for (unsigned m = changed & gp_all(c); m; m &= m - 1) {
		unsigned k = (unsigned)__builtin_ctz(m);
		gp_set bit = (gp_set)(1u << k);

		if (!(cur->gp_mask & bit) || cur->evtsel[k] != next->evtsel[k]) {
			r = wr_sel(p, c, k, next->evtsel[k] & ~EVTSEL_INT, err, errlen);
			if (r < 0)
				return r;
			c->rewritten |= bit;
		}
		/*
		 * A new baseline after the new selection, so that what the
		 * counter saw since it was last read goes nowhere rather than to
		 * the new slot's event: a frozen counter's value, read while it
		 * stood still, is one; otherwise it is zeroed.  A counter that
		 * was idle (not ours in the last slot) was neither frozen nor
		 * read: what it counted before going idle is in it, so it is
		 * zeroed too.
		 */
		if ((!c->frozen || !(cur->gp_mask & bit)) && !(zeroed & bit)) {
			if ((r = wr_pmc(p, c, k, 0, err, errlen)) < 0)
				return r;
			c->last_gp[k] = 0;
			zeroed |= bit;
		}
		cur->evtsel[k] = next->evtsel[k];
		cur->gp_mask |= bit;
	}

	/*
	 * 6. Fixed counters: IA32_FIXED_CTR_CTRL is one register for all three,
	 * so it is read-modify-written: a field someone else holds keeps the
	 * value found; ours is OS|USR (never AnyThread or PMI) while used, and
	 * its saved value otherwise.
	 */
	{
		unsigned all = (1u << c->nfixed) - 1;
		unsigned mine = all & ~(p->force ? 0u : c->fixed_taken);
		unsigned idle = mine & ~next->fixed_mask;

		want = (c->hw_fixed_ctrl & ~fixed_fields(mine)) |
		       (fixed_fields(mine & next->fixed_mask) & FIXED_EN_ALL);
		if (idle)
			want |= reg_at(c, c->ix_misc[MISC_FIXED_CTRL])->saved & fixed_fields(idle);
		/* Counting from now: a baseline for each fixed counter joining. */
		for (unsigned m = next->fixed_mask & ~cur->fixed_mask & all; m; m &= m - 1) {
			unsigned k = (unsigned)__builtin_ctz(m);
			uint64_t v;

			if ((r = rd(p, c, pmu_fixed_ctr(p, k), &v, err, errlen)) < 0)
				return r;
			c->last_fixed[k] = v;
			/* Never written, but counting changes it: restore it too. */
			reg_find(c, pmu_fixed_ctr(p, k))->dirty = true;
		}
	}
	if (want != c->hw_fixed_ctrl) {
		if ((r = wr_misc(p, c, MISC_FIXED_CTRL, want, err, errlen)) < 0)
			return r;
		c->hw_fixed_ctrl = want;
	}
	cur->fixed_mask = next->fixed_mask;

	/*
	 * 7. PEBS for the load-latency counter, once it holds its event and
	 * threshold, and only on a counter at zero whatever path led here (a
	 * frozen baseline, a CPU back online): 2^48 counts from overflow, far
	 * beyond the re-zeroing of pmu_read_gp().  Setting PEBS_EN is what
	 * makes the counter PEBS-enabled: everything of it is written by now.
	 */
	if (next->ldlat_ctr >= 0) {
		unsigned k = (unsigned)next->ldlat_ctr;

		want = c->hw_pebs | pmu_pebs_bits(p, k);
		if (want != c->hw_pebs) {
			if (!(zeroed & (1u << k))) {
				if ((r = wr_pmc(p, c, k, 0, err, errlen)) < 0)
					return r;
				c->last_gp[k] = 0;
				zeroed |= (gp_set)(1u << k);
			}
			if ((r = wr_misc(p, c, MISC_PEBS, want, err, errlen)) < 0)
				return r;
			c->hw_pebs = want;
		}
	}
	cur->ldlat_ctr = next->ldlat_ctr;
	cur->ldlat = next->ldlat;
	cur->rsp_mask = next->rsp_mask;
	cur->rsp[0] = next->rsp[0];
	cur->rsp[1] = next->rsp[1];

	/*
	 * 8. Global enables: Linux leaves them all set; write only if ours are
	 * not (a freeze, a counter stopped in step 2, the reset).
	 */
	want = c->hw_global | global_back | next->gp_mask | global_fixed(c, next->fixed_mask);
	if (want != c->hw_global) {
		if ((r = wr_misc(p, c, MISC_GLOBAL, want, err, errlen)) < 0)
			return r;
		c->hw_global = want;
	}
	c->ran_on = running & next->gp_mask & (gp_set)~(changed | zeroed);
	c->frozen = false;
	c->programmed = true;
	return 0;
}

/* ---- reading the counters ---- */

/* Read counter @reg of @c: @delta, its count since @last (then updated), modulo the width @mask. */
static int read_count(struct pmu *p, struct pmu_cpu *c, uint32_t reg, uint64_t mask,
		      uint64_t *last, uint64_t *delta)
{
	uint64_t v;
	int r = rd(p, c, reg, &v, NULL, 0);

	if (r < 0)
		return r;
	v &= mask;
	*delta = (v - *last) & mask;
	*last = v;
	return 0;
}

/*
 * Write the load-latency counter @k of @c back to 0 (PEBS_REZERO_SHIFT)
 * while it does not count (pebs_kept(): SDM16 p.690, p.701; pmu-facts
 * 8.12): its IA32_PERF_GLOBAL_CTRL bit cleared unless a freeze did it, what
 * it counted since its read added to @delta, zeroed, started again.
 */
static int pebs_rezero(struct pmu *p, struct pmu_cpu *c, unsigned k, uint64_t mask, uint64_t *delta)
{
	uint64_t bit = 1ull << k, more = 0;
	bool stop = (c->hw_global & bit) != 0;
	char err[256];
	int r = 0, r2;

	if (stop) {
		if ((r = wr_misc(p, c, MISC_GLOBAL, c->hw_global & ~bit, err, sizeof(err))) < 0)
			return r;
		c->hw_global &= ~bit;
		if ((r = read_count(p, c, pmu_pmc(p, k), mask, &c->last_gp[k], &more)) == 0)
			*delta = (*delta + more) & mask;
	}
	if (r == 0 && (r = wr_pmc(p, c, k, 0, err, sizeof(err))) == 0)
		c->last_gp[k] = 0;
	if (stop) {
		/* Started again whatever failed: a counter left stopped would read as no loads. */
		r2 = wr_misc(p, c, MISC_GLOBAL, c->hw_global | bit, err, sizeof(err));
		if (r2 == 0)
			c->hw_global |= bit;
		if (r == 0)
			r = r2;
	}
	return r;
}

int pmu_read_gp(struct pmu *p, int i, uint64_t delta[PMU_MAX_GP])
{
	struct pmu_cpu *c = &p->cpu[i];
	uint64_t mask = pmu_width_mask(p->gp_width);

	for (unsigned k = 0; k < c->ngp; k++) {
		int r;

		delta[k] = 0;
		if (!(c->cur.gp_mask & (1u << k)))
			continue;
		if ((r = read_count(p, c, pmu_pmc(p, k), mask, &c->last_gp[k], &delta[k])) < 0)
			return r;
		if ((int)k == c->cur.ldlat_ctr &&
		    c->last_gp[k] >= (1ull << (p->gp_width - PEBS_REZERO_SHIFT)) &&
		    (r = pebs_rezero(p, c, k, mask, &delta[k])) < 0)
			return r;
	}
	return 0;
}

int pmu_read_fixed(struct pmu *p, int i, uint64_t delta[PMU_MAX_FIXED])
{
	struct pmu_cpu *c = &p->cpu[i];
	uint64_t mask = pmu_width_mask(p->fixed_width);

	for (unsigned k = 0; k < c->nfixed; k++) {
		int r;

		delta[k] = 0;
		if ((c->cur.fixed_mask & (1u << k)) &&
		    (r = read_count(p, c, pmu_fixed_ctr(p, k), mask, &c->last_fixed[k], &delta[k])) < 0)
			return r;
	}
	return 0;
}

/*
 * IA32_PERF_GLOBAL_STATUS.CTR_Frz (bit 59, version 4 only: pmu-facts 2.2):
 * set when an overflow raised a PMI under IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI
 * (pmu-facts 2.3), it stops every counter of the CPU, lattop's included,
 * until its owner clears it through IA32_PERF_GLOBAL_STATUS_RESET.  Both
 * registers belong to whoever set the freeze: lattop only reads the status
 * (neither is on the write allowlist, msr_allow.c).  Version 3 has no
 * such bit (bit 59 is reserved there), so nothing is read.
 */
#define GLOBAL_STATUS_CTR_FRZ (1ull << 59)

int pmu_hw_frozen(struct pmu *p, int i)
{
	uint64_t v;
	int r;

	if (p->version < 4)
		return 0;
	if ((r = rd(p, &p->cpu[i], MSR_PERF_GLOBAL_STATUS, &v, NULL, 0)) < 0)
		return r;
	return (v & GLOBAL_STATUS_CTR_FRZ) != 0;
}

int pmu_hw_stopped(struct pmu *p, int i)
{
	struct pmu_cpu *c = &p->cpu[i];
	char err[256];
	int r;

	/* Frozen by lattop for a switch: pmu_freeze() looked just before. */
	if (!c->frozen && (r = legacy_check(p, c, err, sizeof(err))) < 0)
		return r;
	r = c->legacy_stopped;
	c->legacy_stopped = false;
	return r;
}

/* ---- ownership: what someone else takes is given up ---- */

/* Forget @reg: lattop no longer owns it, so it is never written again. */
static void give_up_reg(struct pmu_cpu *c, uint32_t reg)
{
	struct pmu_reg *s = reg_find(c, reg);

	if (s) {
		s->dirty = false;
		s->mask = 0;
	}
}

/*
 * Put @bits of IA32_PERF_GLOBAL_CTRL back to their saved value before
 * giving them up: what lattop changed there it undoes while it still owns it.
 */
static int global_back(struct pmu *p, struct pmu_cpu *c, uint64_t bits, char *err, size_t errlen)
{
	struct pmu_reg *g = reg_at(c, c->ix_misc[MISC_GLOBAL]);
	uint64_t want;
	int r;

	bits &= g->mask;
	want = (c->hw_global & ~bits) | (g->saved & bits);
	if (!bits || want == c->hw_global)
		return 0;
	if ((r = wr_misc(p, c, MISC_GLOBAL, want, err, errlen)) < 0)
		return r;
	c->hw_global = want;
	return 0;
}

/* Give up counters someone else took: never written again, not even at restore. */
static int give_up(struct pmu *p, struct pmu_cpu *c, gp_set lost_gp, uint8_t lost_fx,
		   char *err, size_t errlen)
{
	int r;

	for (unsigned k = 0; k < c->ngp; k++) {
		struct pmu_reg *g = reg_at(c, c->ix_misc[MISC_GLOBAL]);
		struct pmu_reg *pe = reg_at(c, c->ix_misc[MISC_PEBS]);
		uint64_t bits = pmu_pebs_bits(p, k);

		if (!(lost_gp & (1u << k)))
			continue;
		/* Our PEBS bits must not stay armed on the new owner's event. */
		if ((c->hw_pebs & bits & pe->mask) && pe->mask) {
			c->hw_pebs &= ~bits;
			if ((r = wr_misc(p, c, MISC_PEBS, c->hw_pebs, err, errlen)) < 0)
				return r;
			if (c->cur.ldlat_ctr == (int)k)
				c->cur.ldlat_ctr = -1;
		}
		/* Its global enable as it was (a freeze may have cleared it), then theirs. */
		if ((r = global_back(p, c, 1ull << k, err, errlen)) < 0)
			return r;
		c->gp_taken |= (gp_set)(1u << k);
		c->cur.gp_mask &= (gp_set)~(1u << k);
		give_up_reg(c, pmu_evtsel(p, k));
		give_up_reg(c, pmu_pmc(p, k));
		g->mask &= ~(1ull << k);
		pe->mask &= ~bits;
	}
	for (unsigned k = 0; k < c->nfixed; k++) {
		if (!(lost_fx & (1u << k)))
			continue;
		if ((r = global_back(p, c, GLOBAL_FIXED(k), err, errlen)) < 0)
			return r;
		c->fixed_taken |= (uint8_t)(1u << k);
		c->cur.fixed_mask &= (uint8_t)~(1u << k);
		give_up_reg(c, pmu_fixed_ctr(p, k));
		reg_at(c, c->ix_misc[MISC_FIXED_CTRL])->mask &= ~FIXED_FIELD(k);
		reg_at(c, c->ix_misc[MISC_GLOBAL])->mask &= ~GLOBAL_FIXED(k);
	}
	return __builtin_popcount(lost_gp) + __builtin_popcount(lost_fx);
}

/* Read back the selects of @check; those not as lattop wrote them are lost (and told in @msg). */
static int selects_lost(struct pmu *p, struct pmu_cpu *c, gp_set check, gp_set *lost,
			char *msg, size_t len, size_t *o)
{
	char name[40];
	uint64_t v;
	int r;

	*lost = 0;
	for (unsigned k = 0; k < c->ngp; k++) {
		if (!(check & (1u << k)))
			continue;
		if ((r = rd(p, c, pmu_evtsel(p, k), &v, NULL, 0)) < 0)
			return r;
		if (v == (c->cur.evtsel[k] & ~EVTSEL_INT))
			continue;
		*lost |= (gp_set)(1u << k);
		if (*o < len)
			*o += (size_t)snprintf(msg + *o, len - *o, "%scpu %d: %s was reprogrammed by someone "
					       "else (0x%llx, lattop wrote 0x%llx)", *o ? "; " : "", c->id,
					       pmu_reg_name(pmu_evtsel(p, k), name, sizeof(name)),
					       (unsigned long long)v,
					       (unsigned long long)(c->cur.evtsel[k] & ~EVTSEL_INT));
	}
	return 0;
}

static int shared_lost(struct pmu *p, struct pmu_cpu *c, unsigned which, gp_set *lost_gp,
		       char *msg, size_t len, size_t *o);

int pmu_verify_before(struct pmu *p, int i, const struct pmu_cfg *next, char *msg, size_t len)
{
	struct pmu_cpu *c = &p->cpu[i];
	struct pmu_diff d = diff_to(c, next);
	/* The selects overwritten: those of now that @next drops or changes (the switch reversed). */
	gp_set check = pmu_diff(next, &c->cur).sel, lost = 0;
	unsigned shared = 0;
	size_t o = 0;
	int r, n = 0;

	msg[0] = 0;
	/*
	 * An offcore value or threshold about to be rewritten must still be
	 * the one lattop wrote, or someone else's would be lost unseen.
	 */
	for (unsigned j = 0; j < 2; j++)
		if (d.rsp & (1u << j))
			shared |= CHECK_RSP(j);
	if (d.ldlat)
		shared |= CHECK_LDLAT;
	if (!check && !shared)
		return 0;
	if (check && (r = selects_lost(p, c, check, &lost, msg, len, &o)) < 0)
		return r;
	if (shared) {
		if ((r = shared_lost(p, c, shared, &lost, msg, len, &o)) < 0)
			return r;
		n = r;
		c->sh_verified = (uint8_t)shared;
	}
	return lost ? n + give_up(p, c, lost, 0, msg + o, len - o) : n;
}

/* Give @reg up on @c and on every measured CPU that shares it with @c. */
static void give_up_shared(struct pmu *p, struct pmu_cpu *c, uint32_t reg)
{
	give_up_reg(c, reg);
	if (!pmu_reg_shared(p, reg))
		return;
	for (struct pmu_cpu *o = &p->cpu[c->share_next]; o != c; o = &p->cpu[o->share_next])
		give_up_reg(o, reg);
}

/*
 * The registers lattop programs besides selects and fixed fields, read
 * back: MSR_OFFCORE_RSP_x, IA32_PEBS_ENABLE (lattop's bits) and the
 * threshold.  A value lattop did not write means someone else uses it: the
 * register is given up (the metric that needs it too, through the
 * planner's resources), and a counter whose PEBS bits someone else set is
 * lost.  Only those in @which (CHECK_*) are read.  Returns how many
 * registers were given up.
 */
static int shared_lost(struct pmu *p, struct pmu_cpu *c, unsigned which, gp_set *lost_gp,
		       char *msg, size_t len, size_t *o)
{
	struct pmu_reg *pe = reg_at(c, c->ix_misc[MISC_PEBS]), *ll = reg_at(c, c->ix_misc[MISC_LDLAT]);
	char name[40];
	uint64_t v;
	int r, n = 0;

	for (unsigned j = 0; j < c->uarch->offcore_msrs; j++) {
		struct pmu_reg *s = reg_at(c, c->ix_misc[MISC_RSP0 + j]);

		/* Written by lattop (dirty): it must still hold what lattop wrote. */
		if (!(which & CHECK_RSP(j)) || !s || !s->mask || !s->dirty)
			continue;
		if ((r = rd(p, c, MSR_OFFCORE_RSP(j), &v, NULL, 0)) < 0)
			return r;
		/*
		 * Lattop's own when it is what this CPU or a sibling last wrote:
		 * whether a sibling's write shows here depends on the scope the
		 * part really has (pmu-facts 8.5: the kernel's view, unverified).
		 */
		if (v == c->seen_rsp[j] || v == c->hw_rsp[j])
			continue;
		if (*o < len)
			*o += (size_t)snprintf(msg + *o, len - *o, "%scpu %d: %s was changed by someone "
					       "else (0x%llx, lattop wrote 0x%llx)", *o ? "; " : "", c->id,
					       pmu_reg_name(MSR_OFFCORE_RSP(j), name, sizeof(name)),
					       (unsigned long long)v, (unsigned long long)c->seen_rsp[j]);
		p->rsp_taken |= (uint8_t)(1u << j);
		give_up_shared(p, c, MSR_OFFCORE_RSP(j));
		c->cur.rsp_mask &= (uint8_t)~(1u << j);
		n++;
	}
	if ((which & CHECK_LDLAT) && ll && ll->mask && ll->dirty) {
		if ((r = rd(p, c, MSR_PEBS_LD_LAT, &v, NULL, 0)) < 0)
			return r;
		if ((uint16_t)v != c->seen_ldlat && (uint16_t)v != c->hw_ldlat) {
			int k = c->cur.ldlat_ctr;

			if (*o < len)
				*o += (size_t)snprintf(msg + *o, len - *o, "%scpu %d: MSR_PEBS_LD_LAT_THRESHOLD "
						       "was changed by someone else (0x%llx, lattop wrote "
						       "0x%x)", *o ? "; " : "", c->id,
						       (unsigned long long)v, c->seen_ldlat);
			p->ldlat_taken = true;
			give_up_shared(p, c, MSR_PEBS_LD_LAT);
			/* No PEBS on lattop's counter with someone else's threshold. */
			if (k >= 0 && pe && pe->mask && (c->hw_pebs & pmu_pebs_bits(p, (unsigned)k))) {
				char err[256];

				if ((r = wr_misc(p, c, MISC_PEBS, c->hw_pebs & ~pmu_pebs_bits(p, (unsigned)k),
					    err, sizeof(err))) < 0)
					return r;
				c->hw_pebs &= ~pmu_pebs_bits(p, (unsigned)k);
			}
			c->cur.ldlat_ctr = -1;
			n++;
		}
	}
	if ((which & CHECK_PEBS) && pe && pe->mask && (c->cur.ldlat_ctr >= 0 || (c->hw_pebs & pe->mask))) {
		uint64_t theirs;

		if ((r = rd(p, c, MSR_PEBS_ENABLE, &v, NULL, 0)) < 0)
			return r;
		theirs = (v ^ c->hw_pebs) & pe->mask;
		if (theirs) {
			if (*o < len)
				*o += (size_t)snprintf(msg + *o, len - *o, "%scpu %d: IA32_PEBS_ENABLE was "
						       "changed by someone else (0x%llx, lattop wrote "
						       "0x%llx)", *o ? "; " : "", c->id,
						       (unsigned long long)v, (unsigned long long)c->hw_pebs);
			/* PEBS is theirs now: the register is never written again. */
			for (unsigned k = 0; k < c->ngp; k++)
				if ((v & ~c->hw_pebs & pmu_pebs_bits(p, k)) && (c->cur.gp_mask & (1u << k)))
					*lost_gp |= (gp_set)(1u << k);
			p->ldlat_taken = true;
			give_up_reg(c, MSR_PEBS_ENABLE);
			c->cur.ldlat_ctr = -1;
			n++;
		}
		c->hw_pebs = v;
	}
	return n;
}

int pmu_check_owned(struct pmu *p, int i, char *msg, size_t len)
{
	struct pmu_cpu *c = &p->cpu[i];
	gp_set lost_gp;
	uint8_t lost_fx = 0;
	size_t o = 0;
	uint64_t v;
	int r;

	msg[0] = 0;
	if (!c->saved)
		return 0;
	/* Selects rewritten since the last check were verified just before (pmu_verify_before). */
	r = selects_lost(p, c, c->cur.gp_mask & ~c->rewritten, &lost_gp, msg, len, &o);
	c->rewritten = 0;
	if (r < 0)
		return r;
	if (c->cur.fixed_mask) {
		struct pmu_reg *s = reg_at(c, c->ix_misc[MISC_FIXED_CTRL]);

		if ((r = rd(p, c, MSR_FIXED_CTR_CTRL, &v, NULL, 0)) < 0)
			return r;
		for (unsigned k = 0; k < c->nfixed; k++)
			if ((c->cur.fixed_mask & (1u << k)) &&
			    (v & FIXED_FIELD(k)) != (c->hw_fixed_ctrl & FIXED_FIELD(k))) {
				lost_fx |= (uint8_t)(1u << k);
				if (o < len)
					o += (size_t)snprintf(msg + o, len - o, "%scpu %d: fixed counter %u "
							      "was reprogrammed by someone else "
							      "(IA32_FIXED_CTR_CTRL 0x%llx)", o ? "; " : "",
							      c->id, k, (unsigned long long)v);
			}
		/* Fields that are not lattop's: take the owners' current values. */
		c->hw_fixed_ctrl = (c->hw_fixed_ctrl & s->mask) | (v & ~s->mask);
	}
	/* The offcore values and threshold read back and rewritten at the last switch: no need. */
	r = shared_lost(p, c, (CHECK_RSP(0) | CHECK_RSP(1) | CHECK_LDLAT | CHECK_PEBS) & ~c->sh_rewritten,
			&lost_gp, msg, len, &o);
	c->sh_rewritten = 0;
	if (r < 0)
		return r;
	if (!lost_gp && !lost_fx)
		return r;
	return r + give_up(p, c, lost_gp, lost_fx, msg + o, len - o);
}

/* ---- after a stop: probe and save again ---- */

int pmu_reprobe(struct pmu *p, int i, char *err, size_t errlen)
{
	struct pmu_cpu *c = &p->cpu[i];
	int r;

	if (p->dev->ops->reopen && (r = p->dev->ops->reopen(p->dev, c->id)) < 0) {
		snprintf(err, errlen, "cpu %d: %s/%d/msr: %s", c->id, p->dev->path, c->id, strerror(-r));
		return r;
	}
	/*
	 * Frozen before it went away or not, its counters hold what they
	 * hold now: the next pmu_apply() zeroes what it reprograms.
	 */
	c->frozen = false;
	/* Its siblings may have changed meanwhile too: the caller re-plans. */
	pmu_check_siblings(p, i, NULL);
	/* Registers that still hold what lattop programmed were not reset: go on. */
	if (c->programmed && c->cur.gp_mask) {
		bool same = true;

		for (unsigned k = 0; k < c->ngp && same; k++) {
			uint64_t v;

			if (!(c->cur.gp_mask & (1u << k)))
				continue;
			if ((r = rd(p, c, pmu_evtsel(p, k), &v, err, errlen)) < 0)
				return r;
			same = v == (c->cur.evtsel[k] & ~EVTSEL_INT);
		}
		if (same)
			return 0;
	}
	memset(&c->cur, 0, sizeof(c->cur));
	c->cur.ldlat_ctr = -1;
	c->programmed = false;
	c->saved = false;
	if (probe_cpu(p, c, err, errlen) < 0 || save_cpu(p, c, err, errlen) < 0)
		return -EIO;
	probe_group(p, c);
	return 0;
}

int pmu_resume(struct pmu *p, char *err, size_t errlen)
{
	int nsaved = 0;

	p->rsp_taken = 0;
	p->ldlat_taken = false;
	p->ctr_reset_skipped = false;
	p->shared_note[0] = 0;
	for (int i = 0; i < p->ncpu; i++) {
		struct pmu_cpu *c = &p->cpu[i];

		memset(&c->cur, 0, sizeof(c->cur));
		c->cur.ldlat_ctr = -1;
		c->programmed = c->frozen = c->saved = false;
		c->rewritten = c->sh_rewritten = 0;
		if (probe_cpu(p, c, err, errlen) == 0 && save_cpu(p, c, err, errlen) == 0)
			nsaved++;
		else
			c->saved = false;
	}
	for (int i = 0; i < p->ncpu; i++)
		if (p->cpu[i].saved) {
			probe_group(p, &p->cpu[i]);
			pmu_check_siblings(p, i, NULL);
		}
	return nsaved;
}
