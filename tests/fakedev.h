/*
 * fakedev.h: an in-memory struct msrdev for unit tests (header only).
 *
 * Owns nothing outside the test that includes it.  Each CPU has a list of
 * registers that exist; any other address fails with -EIO, as the msr
 * driver answers a #GP.  Writes behave as the hardware's do where that
 * matters to lattop:
 *   - IA32_PMCx (0xC1+x): the value is bits 31:0 sign-extended, then cut
 *     to the counter width (pmu-facts 2: "write via WRMSR = sign-extended
 *     EAX[31:0]");
 *   - IA32_A_PMCx (0x4C1+x): exists only when full-width writes are on
 *     (IA32_PERF_CAPABILITIES[13]), is the same storage as IA32_PMCx, and
 *     takes the full width; bits above the width fail with -EIO;
 *   - any other register: a write that sets a bit outside the register's
 *     writable mask fails with -EIO (a reserved bit); read-only registers
 *     have mask 0.
 * Every access is logged in order (reads and writes, with the result), and
 * a write or a read can be made to fail on purpose.  Tests poke values
 * with fake_set(), which is not logged: that is "the hardware counting".
 *
 * Must not touch a real device; knows nothing of lattop's modules except
 * the struct msrdev interface, the MSR addresses of msr_allow.h and, for
 * fake_cpu(), the facts of a struct uarch.
 */
#ifndef LATTOP_TESTS_FAKEDEV_H
#define LATTOP_TESTS_FAKEDEV_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cpu/msr_allow.h"
#include "cpu/msrdev.h"
#include "cpu/uarch.h"

#define FAKE_MAX_CPU   8
#define FAKE_MAX_REG   64
#define FAKE_MAX_LOG   16384
#define FAKE_MAX_FAIL  8

/* Registers that exist on real parts but that lattop must never write. */
#define FAKE_MSR_MISC_ENABLE   0x1a0u
#define FAKE_MSR_DEBUGCTL      0x1d9u
#define FAKE_MSR_OVF_CTRL      0x390u
#define FAKE_MSR_391           0x391u   /* uncore global ctrl on v3 clients, STATUS_SET on v4 */
#define FAKE_MSR_DS_AREA       0x600u

struct fake_reg {
	uint32_t reg;
	uint64_t val;
	uint64_t wmask;          /* writable bits; a write setting another bit gets -EIO */
};

enum fake_op { FAKE_READ, FAKE_WRITE };

struct fake_rec {
	enum fake_op op;
	int cpu;                 /* Linux CPU id */
	uint32_t reg;            /* address as asked */
	uint64_t val;            /* value written, or value read */
	int rc;
};

struct fake_fail {
	enum fake_op op;
	int cpu;                 /* -1: any */
	uint32_t reg;            /* 0: any */
	int err;                 /* negative errno */
	int skip;                /* matching accesses to let through first */
	int times;               /* failures left; < 0: forever */
};

/* The PMU to lay out on every CPU. */
struct fake_layout {
	unsigned version;
	unsigned ngp, nfixed;
	unsigned gp_width, fixed_width;
	bool fw_write;           /* IA32_PERF_CAPABILITIES[13] and the IA32_A_PMCx aliases */
	unsigned offcore_msrs;
	uint64_t pebs_wmask;     /* writable IA32_PEBS_ENABLE bits */
};

struct fakedev {
	struct msrdev dev;       /* first: &f->dev is what lattop sees */
	struct msrdev_cpu cpus[FAKE_MAX_CPU];
	int nregs[FAKE_MAX_CPU];
	struct fake_reg regs[FAKE_MAX_CPU][FAKE_MAX_REG];
	unsigned gp_width, fixed_width;
	bool fw_write;
	struct fake_rec log[FAKE_MAX_LOG];
	int nlog;
	int lost;                /* accesses not logged: the log was full */
	struct fake_fail fail[FAKE_MAX_FAIL];
	int nfail;
};

static inline uint64_t fake_width_mask(unsigned w)
{
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static inline int fake_cpu_index(const struct fakedev *f, int id)
{
	for (int i = 0; i < f->dev.ncpu; i++)
		if (f->cpus[i].id == id)
			return i;
	return -1;
}

/* The legacy range's counters: PMC0-7, what leaf 0xA counts (msr_allow.h: no PMC8 there). */
static inline bool fake_is_pmc(uint32_t reg)
{
	return reg >= MSR_PMC(0) && reg < MSR_PMC(PMU_LEGACY_GP);
}

static inline bool fake_is_apmc(uint32_t reg)
{
	return reg >= MSR_A_PMC(0) && reg < MSR_A_PMC(PMU_LEGACY_GP);
}

static inline bool fake_is_fixed_ctr(uint32_t reg)
{
	return reg >= MSR_FIXED_CTR(0) && reg < MSR_FIXED_CTR(PMU_MAX_FIXED);
}

/* IA32_A_PMCx is IA32_PMCx; everything else is itself. */
static inline uint32_t fake_storage(uint32_t reg)
{
	return fake_is_apmc(reg) ? MSR_PMC(reg - MSR_A_PMC(0)) : reg;
}

static inline struct fake_reg *fake_find(struct fakedev *f, int ci, uint32_t reg)
{
	for (int k = 0; k < f->nregs[ci]; k++)
		if (f->regs[ci][k].reg == reg)
			return &f->regs[ci][k];
	return NULL;
}

static inline void fake_log(struct fakedev *f, enum fake_op op, int cpu, uint32_t reg,
			    uint64_t val, int rc)
{
	if (f->nlog == FAKE_MAX_LOG) {
		f->lost++;
		return;
	}
	f->log[f->nlog++] = (struct fake_rec){ op, cpu, reg, val, rc };
}

/* The injected error for this access, or 0. */
static inline int fake_failure(struct fakedev *f, enum fake_op op, int cpu, uint32_t reg)
{
	for (int i = 0; i < f->nfail; i++) {
		struct fake_fail *x = &f->fail[i];

		if (x->op != op || x->times == 0 || (x->cpu >= 0 && x->cpu != cpu) ||
		    (x->reg && x->reg != reg))
			continue;
		if (x->skip > 0) {
			x->skip--;
			continue;
		}
		if (x->times > 0)
			x->times--;
		return x->err;
	}
	return 0;
}

static inline int fake_op_read(struct msrdev *d, int cpu, uint32_t reg, uint64_t *val)
{
	struct fakedev *f = d->priv;
	int ci = fake_cpu_index(f, cpu);
	struct fake_reg *r;
	int rc;

	*val = 0;
	if (ci < 0) {
		rc = -ENXIO;
	} else if ((rc = fake_failure(f, FAKE_READ, cpu, reg)) == 0) {
		r = (fake_is_apmc(reg) && !f->fw_write) ? NULL : fake_find(f, ci, fake_storage(reg));
		if (!r)
			rc = -EIO;
		else
			*val = r->val;
	}
	fake_log(f, FAKE_READ, cpu, reg, *val, rc);
	return rc;
}

static inline int fake_op_write(struct msrdev *d, int cpu, uint32_t reg, uint64_t val)
{
	struct fakedev *f = d->priv;
	int ci = fake_cpu_index(f, cpu);
	struct fake_reg *r = NULL;
	uint64_t gmask = fake_width_mask(f->gp_width);
	int rc;

	if (ci < 0) {
		rc = -ENXIO;
	} else if ((rc = fake_failure(f, FAKE_WRITE, cpu, reg)) == 0) {
		r = (fake_is_apmc(reg) && !f->fw_write) ? NULL : fake_find(f, ci, fake_storage(reg));
		if (!r)
			rc = -EIO;
		else if (fake_is_pmc(reg))
			r->val = (uint64_t)(int64_t)(int32_t)(uint32_t)val & gmask;
		else if (fake_is_apmc(reg) && (val & ~gmask))
			rc = -EIO;
		else if (fake_is_apmc(reg))
			r->val = val;
		else if (fake_is_fixed_ctr(reg) && (val & ~fake_width_mask(f->fixed_width)))
			rc = -EIO;
		else if (!fake_is_fixed_ctr(reg) && (val & ~r->wmask))
			rc = -EIO;
		else
			r->val = val;
	}
	fake_log(f, FAKE_WRITE, cpu, reg, val, rc);
	return rc;
}

static inline void fake_op_destroy(struct msrdev *d)
{
	(void)d;
}

static const struct msrdev_ops fake_ops = {
	.read = fake_op_read,
	.write = fake_op_write,
	.destroy = fake_op_destroy,
};

/* @n CPUs with Linux ids @ids (ascending), no registers yet. */
static inline void fake_init(struct fakedev *f, int n, const int *ids)
{
	memset(f, 0, sizeof(*f));
	f->dev.ops = &fake_ops;
	f->dev.kind = "fake";
	f->dev.ncpu = n;
	f->dev.cpu = f->cpus;
	f->dev.priv = f;
	f->gp_width = 48;
	f->fixed_width = 48;
	for (int i = 0; i < n; i++) {
		f->cpus[i].id = ids[i];
		f->cpus[i].core = i / 2;
		f->cpus[i].module = i / 2;
	}
}

/* Add (or reset) register @reg on CPU index @ci, or on every CPU when @ci < 0. */
static inline void fake_add(struct fakedev *f, int ci, uint32_t reg, uint64_t val, uint64_t wmask)
{
	for (int i = 0; i < f->dev.ncpu; i++) {
		struct fake_reg *r;

		if (ci >= 0 && i != ci)
			continue;
		r = fake_find(f, i, reg);
		if (!r && f->nregs[i] < FAKE_MAX_REG)
			r = &f->regs[i][f->nregs[i]++];
		if (!r)
			continue;
		r->reg = reg;
		r->val = val;
		r->wmask = wmask;
	}
}

/* The registers of an architectural PMU, all zero, plus a few lattop must not write. */
static inline void fake_add_pmu(struct fakedev *f, const struct fake_layout *l)
{
	uint64_t gp_bits = (1ull << l->ngp) - 1, fx_bits = (1ull << l->nfixed) - 1;

	f->gp_width = l->gp_width;
	f->fixed_width = l->fixed_width;
	f->fw_write = l->fw_write;
	fake_add(f, -1, MSR_TSC, 0, 0);
	fake_add(f, -1, MSR_PERF_CAPABILITIES, l->fw_write ? PERF_CAP_FW_WRITE : 0, 0);
	for (unsigned k = 0; k < l->ngp; k++) {
		fake_add(f, -1, MSR_PERFEVTSEL(k), 0, 0xffffffffull);
		fake_add(f, -1, MSR_PMC(k), 0, fake_width_mask(l->gp_width));
	}
	for (unsigned k = 0; k < l->nfixed; k++)
		fake_add(f, -1, MSR_FIXED_CTR(k), 0, fake_width_mask(l->fixed_width));
	fake_add(f, -1, MSR_FIXED_CTR_CTRL, 0, (1ull << (4 * l->nfixed)) - 1);
	fake_add(f, -1, MSR_PERF_GLOBAL_STATUS, 0, 0);
	fake_add(f, -1, MSR_PERF_GLOBAL_CTRL, 0, gp_bits | fx_bits << 32);
	fake_add(f, -1, MSR_PEBS_ENABLE, 0, l->pebs_wmask);
	fake_add(f, -1, MSR_PEBS_LD_LAT, 3, 0xffff);
	for (unsigned j = 0; j < l->offcore_msrs; j++)
		fake_add(f, -1, MSR_OFFCORE_RSP(j), 0, ~0ull);
	if (l->version >= 4)
		fake_add(f, -1, MSR_PERF_GLOBAL_INUSE, 0, 0);
	fake_add(f, -1, FAKE_MSR_MISC_ENABLE, 0x850089, ~0ull);
	fake_add(f, -1, FAKE_MSR_DEBUGCTL, 0x4000, ~0ull);
	fake_add(f, -1, FAKE_MSR_OVF_CTRL, 0, ~0ull);
	fake_add(f, -1, FAKE_MSR_391, 0, ~0ull);
	fake_add(f, -1, FAKE_MSR_DS_AREA, 0xffff880012340000ull, ~0ull);
}

/*
 * @n CPUs (@ids) of microarchitecture @u as its table asks for them, in
 * @f, and the CPUID description lattop would detect in @d: perfmon
 * version, counters and widths of @u, three 48-bit fixed counters.
 */
static inline void fake_cpu(struct fakedev *f, int n, const int *ids, const struct uarch *u,
			    bool fw_write, uint64_t pebs_wmask, struct cpu_desc *d)
{
	struct fake_layout l = {
		.version = u->min_version, .ngp = u->gp_needed, .nfixed = 3,
		.gp_width = u->gp_width, .fixed_width = 48, .fw_write = fw_write,
		.offcore_msrs = u->offcore_msrs, .pebs_wmask = pebs_wmask,
	};

	memset(d, 0, sizeof(*d));
	strcpy(d->id.vendor, "GenuineIntel");
	d->id.family = 6;
	d->id.pdcm = true;
	d->id.max_leaf = 0xd;
	d->id.pmu.version = l.version;
	d->id.pmu.gp_counters = l.ngp;
	d->id.pmu.gp_width = l.gp_width;
	d->id.pmu.fixed_counters = l.nfixed;
	d->id.pmu.fixed_mask = (1u << l.nfixed) - 1;
	d->id.pmu.fixed_width = l.fixed_width;
	d->uarch = u;
	d->supported = true;
	fake_init(f, n, ids);
	fake_add_pmu(f, &l);
}

/* Poke a value as the hardware would have it (not logged, no write semantics). */
static inline void fake_set(struct fakedev *f, int cpu, uint32_t reg, uint64_t val)
{
	int ci = fake_cpu_index(f, cpu);
	struct fake_reg *r = ci < 0 ? NULL : fake_find(f, ci, fake_storage(reg));

	if (r)
		r->val = val;
}

static inline uint64_t fake_get(struct fakedev *f, int cpu, uint32_t reg)
{
	int ci = fake_cpu_index(f, cpu);
	struct fake_reg *r = ci < 0 ? NULL : fake_find(f, ci, fake_storage(reg));

	return r ? r->val : 0xdeadbeefdeadbeefull;
}

static inline bool fake_has(struct fakedev *f, int cpu, uint32_t reg)
{
	int ci = fake_cpu_index(f, cpu);

	return ci >= 0 && fake_find(f, ci, fake_storage(reg)) != NULL;
}

/* Make the access matching (@op, @cpu or -1, @reg or 0) fail with @err, after @skip, @times times. */
static inline void fake_fail_at(struct fakedev *f, enum fake_op op, int cpu, uint32_t reg,
				int err, int skip, int times)
{
	if (f->nfail < FAKE_MAX_FAIL)
		f->fail[f->nfail++] = (struct fake_fail){ op, cpu, reg, err, skip, times };
}

static inline void fake_fail_clear(struct fakedev *f)
{
	f->nfail = 0;
}

/* Log position, to count what happened after it. */
static inline int fake_mark(const struct fakedev *f)
{
	return f->nlog;
}

/* Accesses of kind @op since @from, on @cpu (-1: any) to @reg (0: any; IA32_A_PMCx counts as IA32_PMCx). */
static inline int fake_count(const struct fakedev *f, int from, enum fake_op op, int cpu, uint32_t reg)
{
	int n = 0;

	for (int i = from; i < f->nlog; i++) {
		const struct fake_rec *r = &f->log[i];

		if (r->op == op && (cpu < 0 || r->cpu == cpu) &&
		    (!reg || fake_storage(r->reg) == fake_storage(reg)))
			n++;
	}
	return n;
}

static inline int fake_writes(const struct fakedev *f, int from)
{
	return fake_count(f, from, FAKE_WRITE, -1, 0);
}

#endif
