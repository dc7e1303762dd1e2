/*
 * pmu.h: programming the core PMU of each CPU, safely.
 *
 * Owns the per-CPU register state: what was found (and who holds which
 * counter), the saved values, what lattop has written (dirty), and the
 * configuration now programmed.  Guarantees:
 *   - every register lattop writes was read and kept before the first write;
 *   - a counter someone else uses (EN in its PERFEVTSEL, an enabled field in
 *     IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_INUSE on version 4) is never
 *     written, nor its control field, unless the user said --force;
 *   - pmu_restore() reads every register written, writes back those that
 *     differ from the saved value, and reads them back, in an order that
 *     stops counting first;
 *   - a register shared with other CPUs (MSR_OFFCORE_RSP_x on Nehalem,
 *     Westmere and the Atoms; MSR_PEBS_LD_LAT_THRESHOLD on Nehalem and
 *     Westmere) is written only when every CPU sharing it was probed and
 *     none has an event using it, measured or not;
 *   - the event selects of hyperthread siblings lattop does not measure are
 *     read for the HT bug (pmu_check_siblings), never written;
 *   - PEBS_EN is set only on a counter just written to zero;
 *   - a counter with PEBS_EN set is never written while it counts: its
 *     select, its value and MSR_PEBS_LD_LAT_THRESHOLD change only while
 *     its PEBS_EN or its IA32_PERF_GLOBAL_CTRL bit is clear, at a switch,
 *     the re-zeroing, the first programming and the write-back (SDM16
 *     p.690, p.701: "PEBS behavior is unpredictable" otherwise; pmu-facts
 *     8.12), a sibling's counter under a shared threshold included, but in
 *     `lattop --restore` (see pmu_writeback.c);
 *   - PERFEVTSEL.INT and the fixed counters' PMI bits are never set.
 * Knows nothing of time, metrics or output.
 */
#ifndef LATTOP_PMU_H
#define LATTOP_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu/events.h"
#include "cpu/msr_allow.h"
#include "cpu/msrdev.h"
#include "cpu/uarch.h"

/* IA32_FIXED_CTR_CTRL's enable bits of fixed counter @i: OS | USR (SDM Vol.3B 18.2.2). */
#define PMU_FIXED_EN(i) (0x3ull << (4 * (i)))

/* IA32_FIXED_CTR_CTRL's field of fixed counter @i. */
#define PMU_FIXED_FIELD(i) (0xfull << (4 * (i)))

/* The bits of a @w-bit counter. */
static inline uint64_t pmu_width_mask(unsigned w)
{
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

/* What one rotation slot programs on a CPU. */
struct pmu_cfg {
	gp_set gp_mask;                 /* general-purpose counters programmed */
	uint64_t evtsel[PMU_MAX_GP];    /* their PERFEVTSEL values (EN set, INT clear) */
	uint8_t fixed_mask;             /* fixed counters enabled (OS|USR) */
	uint8_t rsp_mask;               /* bit j: MSR_OFFCORE_RSP_j programmed */
	uint64_t rsp[2];
	gp_set rsp_users[2];            /* counters whose event reads MSR_OFFCORE_RSP_j */
	int8_t ldlat_ctr;               /* counter with PEBS_EN+LL_EN, or -1 */
	uint16_t ldlat;                 /* MSR_PEBS_LD_LAT_THRESHOLD when ldlat_ctr >= 0 */
};

/* One saved register. */
struct pmu_reg {
	uint32_t reg;
	uint64_t saved;
	uint64_t mask;                  /* the bits lattop owns: all, or its fields of a shared register */
	bool dirty;                     /* lattop has written it */
};

#define PMU_NREG 32
#define PMU_NMISC 6
_Static_assert(PMU_NREG >= 2 * PMU_MAX_GP + PMU_MAX_FIXED + PMU_NMISC, "room for every saved register");
_Static_assert(PMU_MAX_GP <= 8 * sizeof(gp_set), "a gp_set holds every counter");

struct pmu_cpu {
	int id;                         /* Linux CPU number */
	int dev;                        /* index into msrdev.cpu[] */
	/*
	 * Its core type's: a hybrid part's CPUs differ in microarchitecture
	 * and counters (struct cpu_desc.type[]); type is the index there, 0
	 * on a part that is not hybrid, where these are struct pmu's.
	 */
	int8_t type;
	const struct uarch *uarch;
	unsigned ngp, nfixed;
	/* found at probe */
	uint64_t evtsel[PMU_MAX_GP];
	uint64_t fixed_ctrl, global_ctrl, pebs_enable, inuse;
	gp_set gp_taken;                /* held by someone else */
	uint8_t fixed_taken;
	/* ... of those, the ones that hold lattop's own programming (pmu_table_has_evtsel) */
	gp_set gp_lattop;
	uint8_t fixed_lattop;
	/* saved before the first write */
	struct pmu_reg regs[PMU_NREG];
	int nregs;
	int8_t ix_pmc[PMU_MAX_GP], ix_evtsel[PMU_MAX_GP];   /* regs[] index, -1: not saved */
	int8_t ix_misc[PMU_NMISC];      /* ... of the other registers read every switch (pmu.c) */
	bool saved;
	bool group_ok;                  /* every CPU sharing its MSR_OFFCORE_RSP_x was probed */
	/*
	 * The HT bug (UARCH_F_HT_EXCL), from its hyperthread siblings that
	 * lattop does not measure, read at each probe and check (never
	 * written): sib_busy, the counters one of them uses (all of them when
	 * one cannot be read); sib_excl, those where one counts an event the
	 * bug covers (PMU_HT_EXCL_FIRST..LAST).  sib_cpu: the first such
	 * sibling (one that uses a counter, else any), -1 when none is
	 * unmeasured; sib_err: why it cannot be read (pmu_strerror()), or NULL.
	 */
	gp_set sib_busy, sib_excl;
	int sib_cpu;
	const char *sib_err;
	/*
	 * The topology, worked out once by pmu_open() (the set of measured
	 * CPUs never changes), so that no tick looks at every CPU for each
	 * one: share_next, the next measured CPU (index) in the ring of those
	 * sharing its MSR_OFFCORE_RSP_x (same_group()), itself when none does;
	 * pmu.sib_dev[sib_first..+nsib], the device indices of the other CPUs
	 * of its core that lattop does not measure; core_rank, how many
	 * measured CPUs of its core have a lower number; core_shared, its core
	 * has another logical CPU online.
	 */
	int share_next;
	int sib_first, nsib;
	int core_rank;
	bool core_shared;
	/* now */
	struct pmu_cfg cur;
	bool programmed;
	bool frozen;                    /* our counters stopped in GLOBAL_CTRL for a switch */
	bool legacy_stopped;            /* found stopped by a legacy freeze, not told yet */
	/*
	 * After pmu_apply(): the general-purpose counters that counted on
	 * through it, their event and count kept, never stopped: what they
	 * count from their last read belongs to the new slot, from that read.
	 */
	gp_set ran_on;
	gp_set rewritten;               /* selects rewritten (and verified) since the last check */
	/*
	 * MSR_OFFCORE_RSP_x and the threshold (pmu.c CHECK_*) read back by
	 * pmu_verify_before() (sh_verified) and then rewritten by the last
	 * pmu_apply(): the check after it need not read them again.
	 */
	uint8_t sh_rewritten, sh_verified;
	uint64_t hw_global, hw_pebs, hw_fixed_ctrl, hw_rsp[2];
	uint16_t hw_ldlat;
	/* what lattop last wrote there from any CPU sharing it: what a read-back must find */
	uint64_t seen_rsp[2];
	uint16_t seen_ldlat;
	uint64_t last_gp[PMU_MAX_GP];   /* last value read, for deltas */
	uint64_t last_fixed[PMU_MAX_FIXED];
};

struct pmu {
	struct msrdev *dev;
	const struct uarch *uarch;      /* the part's; each CPU's own is pmu_cpu.uarch */
	unsigned version;
	bool v6;                        /* version >= 6: the version 6 counter range (msr_allow.h) */
	unsigned ngp, nfixed;           /* the most any CPU has; each CPU's own is pmu_cpu's */
	unsigned gp_width, fixed_width;
	bool fw_write;                  /* IA32_PERF_CAPABILITIES[13] */
	bool has_ldlat;                 /* the table has load-latency rows */
	bool force;                     /* --force: take over counters in use */
	bool ctr_reset;                 /* apply the Nehalem counter-reset workaround */
	bool ctr_reset_skipped;         /* ... wanted, but PERFEVTSEL0-3 are not all ours */
	int ncpu;
	struct pmu_cpu *cpu;
	int *dev_cpu;                   /* msrdev.cpu[] index -> cpu[] index, -1: not measured */
	int *sib_dev;                   /* pmu_cpu.sib_first */
	/* resources taken on some probed CPU (conservative: shared MSRs) */
	uint8_t rsp_taken;              /* bit j: MSR_OFFCORE_RSP_j used by someone's event */
	bool ldlat_taken;               /* someone has PEBS events enabled */
	char ldlat_why[200];            /* "": load latency usable if free; else why it is not (microcode) */
	unsigned writes, reads;         /* device operations, for --stats and benchmarks */
	char shared_note[320];          /* a shared register left alone for a CPU not measured */
};

/* Counter @k's count, its select, fixed counter @k's count: where @p's version has them. */
static inline uint32_t pmu_pmc(const struct pmu *p, unsigned k)
{
	return msr_pmc(p->v6, k);
}

static inline uint32_t pmu_evtsel(const struct pmu *p, unsigned k)
{
	return msr_evtsel(p->v6, k);
}

static inline uint32_t pmu_fixed_ctr(const struct pmu *p, unsigned k)
{
	return msr_fixed_ctr(p->v6, k);
}

/*
 * Probe CPUs @ids (n of them) of @dev: read the control registers, decide
 * which counters are taken.  Nothing is written.  Returns 0, or -1 with a
 * one-line message (an MSR that will not read).
 */
int pmu_open(struct pmu *p, struct msrdev *dev, const struct cpu_desc *desc,
	     const int *ids, int n, bool force, char *err, size_t errlen);
void pmu_close(struct pmu *p);

/*
 * pmu_owners.c, for pmu_open(): the counters of @p (on a hybrid part the
 * most any core type has) and whether a table measures load latency; and
 * CPU @c's core type, its microarchitecture and counters (0, or -1 with a
 * message when CPUID gave the CPU no core type).
 */
void pmu_core_types(struct pmu *p, const struct cpu_desc *desc);

/*
 * The general-purpose counters lattop programs of those @c enumerates:
 * before version 6, PMC0-7 only (PMU_LEGACY_GP, msr_allow.h says why).
 */
unsigned pmu_caps_ngp(const struct pmu_caps *c);

int pmu_cpu_type(const struct pmu *p, struct pmu_cpu *c, const struct cpu_desc *desc,
		 char *err, size_t errlen);

/*
 * The first CPU with no free general-purpose counter, or -1.  When one is
 * found, @msg says which CPU, registers and values, and the likely owner.
 */
int pmu_check_free(const struct pmu *p, char *msg, size_t len);

/*
 * Claim every CPU measured for this lattop, machine-wide (msrdev_lock),
 * before anything is written: another lattop measuring one of them,
 * whatever its state directory, is refused, named with its pid.  0, or
 * -1 with a message.
 */
int pmu_lock(struct pmu *p, char *err, size_t errlen);

/*
 * The first CPU whose counters hold lattop's own programming left by
 * another lattop (one in another device namespace, or one that died
 * without putting them back), or -1.  @msg says which registers, and how
 * to clear them.  Without --force lattop refuses to start then; with it,
 * pmu_save() keeps their power-on values as the originals, never the other
 * lattop's, so that the exit leaves them cleared.
 */
int pmu_check_lattop(const struct pmu *p, char *msg, size_t len);

/*
 * Does IA32_PEBS_ENABLE have LL_EN bits (bit 32 + k: load latency on
 * counter k)?  On a family with the load-latency facility, below perfmon
 * version 5 (pmu-facts 3).  From version 5 on, bit 32 + k enables PEBS on
 * IA32_FIXED_CTRk and load latency is armed by its event alone (pmu-facts
 * 9.2: K612 intel_pmu_pebs_enable sets LL_EN only when version < 5): setting
 * it "for load latency" would turn PEBS on for a fixed counter, with no
 * DS area.
 */
static inline bool pmu_ll_en(const struct pmu *p)
{
	return p->has_ldlat && pmu_version_ll_en(p->version);
}

/*
 * The IA32_PEBS_ENABLE bits of general-purpose counter @k: PEBS_EN, and
 * LL_EN (bit 32 + k) where it exists (pmu_ll_en).  Elsewhere bits 32 and
 * up are not lattop's: on Goldmont Plus and from version 5 on they enable
 * PEBS on the fixed counters (pmu-facts 8.7, 9.2).
 */
static inline uint64_t pmu_pebs_bits(const struct pmu *p, unsigned k)
{
	return (1ull << k) | (pmu_ll_en(p) ? 1ull << (32 + k) : 0);    /* LL_EN */
}

/* pmu_pebs_bits() of every counter in @m at once. */
static inline uint64_t pmu_pebs_mask(const struct pmu *p, gp_set m)
{
	return (uint64_t)m | (pmu_ll_en(p) ? (uint64_t)m << 32 : 0);
}

/*
 * `lattop --restore --reset --yes`: on every CPU probed whose counters
 * hold lattop's own events (pmu_check_lattop) and that no running lattop
 * holds (msrdev_lock), put the power-on values back (SDM Vol.3B 18.2: 0)
 * in those counters' PEBS enables, selects or fixed fields, and counts,
 * in that order, each read back.  No one else's counter is touched.  The
 * CPUs reset (0 when none held any), with what was done in @msg, or -1
 * with the error in @msg.
 */
int pmu_reset_lattop(struct pmu *p, char *msg, size_t len);

/* One line naming the counters taken on @c and the likely owner, or "" */
void pmu_describe_taken(const struct pmu *p, const struct pmu_cpu *c, char *buf, size_t len);

/* Likely owner of counters in use on @c (NULL: any CPU): another lattop, the NMI watchdog, perf. */
const char *pmu_likely_owner(const struct pmu_cpu *c);

/* Read and keep every register that may be written.  Nothing is written. */
int pmu_save(struct pmu *p, char *err, size_t errlen);

/*
 * Program CPU index @i for @next, writing only what changed, in a safe
 * order.  The counters of the previous configuration must have been read
 * first (pmu_read_gp).  Returns 0 or a negative errno, with a message.
 */
int pmu_apply(struct pmu *p, int i, const struct pmu_cfg *next, char *err, size_t errlen);

/*
 * The writes pmu_apply(@next) on CPU index @i spends because its counters
 * run: one baseline (a zeroing) for each counter to re-baseline (a new
 * event, offcore value or threshold), and two to stop and start again the
 * load-latency counter whose threshold changes while it counts with PEBS.
 * pmu_freeze() saves them all for two writes.  No device access.
 */
int pmu_changes(const struct pmu *p, int i, const struct pmu_cfg *next);

/* The registers a switch from one configuration to another writes (pmu_diff()). */
struct pmu_diff {
	gp_set sel;                     /* bit k: IA32_PERFEVTSELk gets an event it did not hold */
	uint8_t rsp;                    /* bit j: MSR_OFFCORE_RSP_j gets another value */
	bool ldlat;                     /* MSR_PEBS_LD_LAT_THRESHOLD gets another value */
};

/*
 * What changes from configuration @a to @b: a counter @b programs that @a
 * did not, or with another event; an offcore register or the threshold
 * @b uses, with another value than @a's rsp[] or ldlat (what the register
 * holds, whether @a used it or not).  Pure: the one definition pmu_apply(),
 * pmu_changes() and the planner's costs (plan.c) share.
 */
/* pmu_diff() from @a's selects with offcore values @rsp and threshold @ldlat (what a CPU holds). */
static inline struct pmu_diff pmu_diff_from(const struct pmu_cfg *a, const uint64_t rsp[2],
					    uint16_t ldlat, const struct pmu_cfg *b)
{
	/* A counter @a did not program changes; of those it did, the ones with another event. */
	struct pmu_diff d = { (gp_set)(b->gp_mask & ~a->gp_mask), 0, false };

	/* The set bits only: a switch compares four or five counters, not PMU_MAX_GP. */
	for (unsigned both = b->gp_mask & a->gp_mask; both; both &= both - 1) {
		unsigned k = (unsigned)__builtin_ctz(both);

		if (a->evtsel[k] != b->evtsel[k])
			d.sel |= (gp_set)(1u << k);
	}
	for (unsigned j = 0; j < 2; j++)
		if ((b->rsp_mask & (1u << j)) && rsp[j] != b->rsp[j])
			d.rsp |= (uint8_t)(1u << j);
	d.ldlat = b->ldlat_ctr >= 0 && ldlat != b->ldlat;
	return d;
}

static inline struct pmu_diff pmu_diff(const struct pmu_cfg *a, const struct pmu_cfg *b)
{
	return pmu_diff_from(a, a->rsp, a->ldlat, b);
}

/*
 * The Nehalem/Westmere counter reset (UARCH_F_NHM_CTR_RESET; pmu.c,
 * nhm_ctr_reset): non-counting events briefly enabled on PMC0-3 before a
 * counter is reprogrammed.
 */
#define PMU_CTR_RESET_N 4

/*
 * The writes the counter reset adds to a switch that reprograms a counter
 * on @u with @ngp general-purpose counters: 0 where it does not apply (not
 * flagged, or fewer than PMU_CTR_RESET_N counters); otherwise at least the
 * magic selects, their counters cleared, and IA32_PERF_GLOBAL_CTRL
 * cleared, pulsed and cleared again.
 */
static inline int pmu_ctr_reset_writes(const struct uarch *u, unsigned ngp)
{
	if (!(u->flags & UARCH_F_NHM_CTR_RESET) || ngp < PMU_CTR_RESET_N)
		return 0;
	return 2 * PMU_CTR_RESET_N + 3;
}

/*
 * Stop lattop's general-purpose counters on CPU index @i (their bits of
 * IA32_PERF_GLOBAL_CTRL), before they are read for a switch: pmu_apply()
 * then keeps what they hold as baselines instead of zeroing each one,
 * writes the load-latency threshold to a counter already stopped, and its
 * GLOBAL_CTRL write starts them again.  Worth it when pmu_changes() is
 * three or more: two writes instead.
 */
int pmu_freeze(struct pmu *p, int i, char *err, size_t errlen);

/*
 * Read back the event selects pmu_apply(@next) is about to overwrite on CPU
 * index @i: a counter someone else reprogrammed since lattop's last write
 * is given up (as pmu_check_owned() does) instead of being written over.
 * Returns how many, with @msg.
 */
int pmu_verify_before(struct pmu *p, int i, const struct pmu_cfg *next, char *msg, size_t len);

/*
 * Read the programmed general-purpose counters of CPU index @i: delta[k]
 * is the count of counter k since the last read or reprogramming, modulo the
 * counter width.  A load-latency (PEBS-enabled) counter is re-zeroed long
 * before it could overflow, stopped meanwhile (see pmu.c).
 */
int pmu_read_gp(struct pmu *p, int i, uint64_t delta[PMU_MAX_GP]);

/* Same for the enabled fixed counters. */
int pmu_read_fixed(struct pmu *p, int i, uint64_t delta[PMU_MAX_FIXED]);

/*
 * Are the counters of CPU index @i frozen by IA32_PERF_GLOBAL_STATUS.CTR_Frz
 * (version 4: another agent's FREEZE_PERFMON_ON_PMI)?  1 or 0, or a
 * negative errno; always 0, with nothing read, before version 4.  Counts
 * taken across a frozen time are not measurements.  Nothing is written.
 */
int pmu_hw_frozen(struct pmu *p, int i);

/*
 * Versions 2 and 3: were lattop's counters on CPU index @i stopped by the
 * legacy freeze, another agent's PMI under FREEZE_PERFMON_ON_PMI clearing
 * every enable bit of IA32_PERF_GLOBAL_CTRL (SDM 2009 p.18-16; pmu-facts
 * 8.10)?  No status bit tells: GLOBAL_CTRL is read back.  When one of
 * lattop's enable bits is found clear, lattop's are set again (no one
 * else's) and 1 is returned: counts since the last read are not
 * measurements.  0, or a negative errno; always 0, with nothing read, from
 * version 4 on (pmu_hw_frozen) and while lattop's counters are not
 * programmed.
 */
int pmu_hw_stopped(struct pmu *p, int i);

/*
 * Put back every register written, on every CPU, through pmu_writeback().
 * Returns the number of registers not put back exactly (those that still
 * differ stay dirty, for the journal to keep), each named in @err.
 */
int pmu_restore(struct pmu *p, char *err, size_t errlen);

/*
 * The register write-back, the one routine every path out uses: the
 * normal exit and a stop (pmu_restore), a crash (pmu_restore_emergency)
 * and `lattop --restore` (journal_restore).  struct pmu_wb says what the
 * device is and how its counters compare, from a struct pmu or from what a
 * journal recorded.
 */
struct pmu_wb {
	struct msrdev *dev;
	bool fw_write;                  /* IA32_PERF_CAPABILITIES[13]: IA32_A_PMCx take the full width */
	unsigned gp_width, fixed_width; /* counters compare in these bits; 0: in full */
	unsigned reads, writes;         /* device operations made (added to) */
};

/* What the write-back did to one register. */
enum pmu_wb_result {
	PMU_WB_SAME,            /* it read as saved: not written */
	PMU_WB_WRITTEN,         /* written back; it reads back as saved (or counts again for its owner) */
	PMU_WB_INEXACT,         /* written back as closely as a legacy counter write allows */
	PMU_WB_READ,            /* could not be read (@err), before the write or after (@wrote) */
	PMU_WB_WRITE,           /* the write was refused (@err) */
	PMU_WB_DIFFERS,         /* reads back @got, not @want */
	PMU_WB_COUNTS,          /* a counter whose control could not be put back: it counts on */
};

struct pmu_wb_res {
	enum pmu_wb_result result;
	bool wrote;             /* a write was made */
	int err;                /* negative errno of PMU_WB_READ and PMU_WB_WRITE */
	uint64_t want, got;     /* the value written back, and what was read */
};

/*
 * Stop PEBS on every counter lattop wrote on Linux CPU @cpu: the owned
 * bits of IA32_PEBS_ENABLE among @regs cleared, nothing else written.  The
 * pass every CPU gets before any is written back where the threshold is
 * shared between siblings.  Async-signal-safe.
 */
void pmu_wb_disarm(struct pmu_wb *w, int cpu, const struct pmu_reg *regs, int n);

/* Told each register written back, in order, with what happened (never from a signal handler). */
typedef void pmu_wb_fn(void *arg, int cpu, const struct pmu_reg *s, const struct pmu_wb_res *res);

/*
 * Put back the dirty registers among @regs (@n, all of Linux CPU @cpu, a
 * counter's control among them when it was saved), in pmu_restore_rank()
 * order: each is read first, written only when it differs from its saved
 * value (its owned bits: @mask), and read back; a write the CPU refused is
 * not retried, and a counter whose control could not be put back is not
 * written (it counts on).  What now holds its saved value is no longer
 * dirty.  Async-signal-safe: only the device's read and write, no
 * allocation, no formatting, no locks; @told (NULL from a signal handler)
 * is called after each register.  Returns how many stay dirty.
 */
int pmu_writeback(struct pmu_wb *w, int cpu, struct pmu_reg *regs, int n, pmu_wb_fn *told,
		  void *arg);

/*
 * What pmu_writeback() did to register @s of Linux CPU @cpu, in the words
 * of every path out, when it is not as saved (nothing for PMU_WB_SAME and
 * PMU_WB_WRITTEN): added to @buf (@len bytes, @o of them used) after "; "
 * when @o > 0.  @fw_write as struct pmu_wb's.  Returns the new @o, past
 * @len once the text was cut (as snprintf counts): nothing is added after.
 */
size_t pmu_wb_describe(char *buf, size_t len, size_t o, bool fw_write, int cpu,
		       const struct pmu_reg *s, const struct pmu_wb_res *res);

/* Registers written and not put back (dirty and lattop's), on any CPU saved. */
bool pmu_pending(const struct pmu *p);

/*
 * Read back the controls lattop programmed on CPU index @i: event selects,
 * fixed-counter fields, MSR_OFFCORE_RSP_x, IA32_PEBS_ENABLE and the
 * load-latency threshold.  What someone else has changed since is given
 * up: never written again, not even at restore (a shared register on every
 * CPU sharing it), and reported in @msg.  Returns how many were lost (0
 * when all is as lattop left it), or a negative errno.
 */
int pmu_check_owned(struct pmu *p, int i, char *msg, size_t len);

/*
 * Read, never writing, the event selects of the hyperthread siblings of
 * CPU index @i that lattop does not measure, where the HT bug applies
 * (UARCH_F_HT_EXCL; pmu-facts 8.9): at every probe (pmu_open, pmu_reprobe,
 * pmu_resume) and after every interval, since a counter a sibling started
 * using spoils an ht_excl row that counted on it.  Updates sib_busy,
 * sib_excl, sib_cpu and sib_err; @newly (may be NULL) gets the counters
 * busy now that were not.  1 when sib_busy or sib_excl changed (the caller
 * re-plans), else 0.  Nothing is read where the bug does not apply.
 */
int pmu_check_siblings(struct pmu *p, int i, gp_set *newly);

/* Does @p measure the CPU at index @dev_index of its msrdev.cpu[]? */
bool pmu_measures(const struct pmu *p, int dev_index);

/*
 * The topology fields of struct pmu_cpu (share_next, sib_*, core_*) and
 * pmu.dev_cpu, for pmu_open() once its CPUs are known.  0, or -1 with a
 * message (out of memory).
 */
int pmu_topology(struct pmu *p, char *err, size_t errlen);

/*
 * CPU index @i is back online: the kernel reinitialised its PMU, so it is
 * opened, probed and saved again (what it holds now is what lattop must
 * leave), and nothing is programmed on it until the caller applies a
 * configuration.  A negative errno when it cannot be (e.g. -EACCES once
 * root was dropped).
 */
int pmu_reprobe(struct pmu *p, int i, char *err, size_t errlen);

/*
 * After pmu_restore() (a stop, output that blocks): probe and save every
 * CPU again, as pmu_open() and pmu_save() did, since anything may have
 * changed meanwhile.  A CPU that cannot be probed is left unsaved
 * (saved == false), for the caller to retry as an offline one.  Returns
 * how many CPUs were saved; nothing is written.
 */
int pmu_resume(struct pmu *p, char *err, size_t errlen);

/*
 * Restore from a signal handler: pmu_writeback() on every CPU saved, on
 * the msr driver's files only (the simulator dies with the process).
 * Async-signal-safe.  Returns how many registers still differ.
 */
int pmu_restore_emergency(struct pmu *p);

/*
 * Restore order, 0 first: PEBS_ENABLE, then event selects and fixed
 * enables (counting stops), then counter values and the rest, and
 * GLOBAL_CTRL last.  A PEBS_ENABLE saved with bits set in lattop's part
 * has them cleared at its rank and set again at PMU_RANK_PEBS, after every
 * select, counter and threshold: no PEBS-enabled counter is written while
 * it counts (pmu-facts 8.12).
 */
#define PMU_NRANK 5
#define PMU_RANK_PEBS (PMU_NRANK - 2)
int pmu_restore_rank(uint32_t reg);

/*
 * Is @reg one register for every CPU of a sharing group (pmu-facts 8.5,
 * the kernel's view): MSR_OFFCORE_RSP_x, and MSR_PEBS_LD_LAT_THRESHOLD on
 * Nehalem and Westmere, shared by the threads of a core (the Atoms' by the
 * cores of a module)?
 */
bool pmu_reg_shared(const struct pmu *p, uint32_t reg);

/* Do device CPUs @a and @b share MSR_OFFCORE_RSP_x (the uarch's offcore scope)? */
bool pmu_same_group(const struct pmu *p, const struct msrdev_cpu *a, const struct msrdev_cpu *b);

/* A short message for an MSR access error: what to do about it. */
const char *pmu_strerror(int neg_errno, bool write);

/* "IA32_PERFEVTSEL0" and the like, for messages. */
const char *pmu_reg_name(uint32_t reg, char *buf, size_t len);

#endif
