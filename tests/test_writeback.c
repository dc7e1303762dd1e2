/*
 * test_writeback.c: the register write-back exists once (cpu/pmu.c
 * pmu_writeback), and every path out uses it.
 *
 * What is checked: for the same saved state and the same registers as
 * lattop left them, the normal exit (pmu_restore), the crash handler
 * (pmu_restore_emergency) and `lattop --restore` from the journal written
 * before the first write (journal_restore) make the same register writes,
 * with the same values, in the same order, on the in-memory device of
 * tests/fakedev.h; and every register then holds what it held before
 * lattop started.  The same holds when the CPU refuses one write: the three
 * paths try it, leave its counter alone (it counts on) and put back all
 * the rest alike, and the exit and --restore name it in the same words.
 * A path that wrote one register more, less, in another order or with
 * another value fails here.
 *
 * Nothing here touches a real device; the journal lives in a temporary
 * directory.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cpu/events.h"
#include "cpu/msr_allow.h"
#include "cpu/pmu.h"
#include "cpu/uarch.h"
#include "safety/journal.h"
#include "engine/plan.h"
#include "tests/fakedev.h"

#define DEV_PATH "/fake/cpu"    /* what the journal names: never opened (the device is passed) */
#define NCPU 2

static const int ids[NCPU] = { 0, 3 };          /* the device's CPUs */
static const int run_ids[NCPU] = { 3, 0 };      /* the run's, in the order given: the exit's order */

/* One register write as the device saw it. */
struct wr {
	int cpu;
	uint32_t reg;
	uint64_t val;
	int rc;
};

struct rig {
	struct fakedev f;
	struct cpu_desc desc;
	const struct uarch *u;
	struct pmu p;
	char state[64];                 /* the state directory */
	/* the registers before lattop, and as lattop leaves them when it stops */
	struct fake_reg before[FAKE_MAX_CPU][FAKE_MAX_REG];
	struct fake_reg left[FAKE_MAX_CPU][FAKE_MAX_REG];
	struct pmu_cpu cpu_left[NCPU];  /* what the pmu knows then: saved values, dirty flags */
	char err[1024];
};

static struct rig *rig_new(const char *uarch, bool fw_write)
{
	struct rig *r = calloc(1, sizeof(*r));
	const struct uarch *u = uarch_by_name(uarch);

	assert_non_null(r);
	assert_non_null(u);
	r->u = u;
	fake_cpu(&r->f, NCPU, ids, u, fw_write,
		 0xfull | 0xfull << 32, &r->desc);
	/* The msr driver's files: the crash handler writes back only there. */
	r->f.dev.path = DEV_PATH;
	for (int i = 0; i < NCPU; i++) {
		/* Global enables off, counters holding counts: lattop changes both. */
		fake_set(&r->f, ids[i], MSR_PERF_GLOBAL_CTRL, 0);
		for (unsigned k = 0; k < u->gp_needed; k++)
			fake_set(&r->f, ids[i], MSR_PMC(k), 0x1000000ull * (k + 1) + 0x100ull * i + 0x11);
		for (unsigned k = 0; k < 3; k++)
			fake_set(&r->f, ids[i], MSR_FIXED_CTR(k), 0x7000000000ull * (k + 1) + i);
	}
	memcpy(r->before, r->f.regs, sizeof(r->before));
	snprintf(r->state, sizeof(r->state), "/tmp/lattop-wb.XXXXXX");
	assert_non_null(mkdtemp(r->state));
	return r;
}

static void rig_free(struct rig *r)
{
	char path[96];

	pmu_close(&r->p);
	snprintf(path, sizeof(path), "%s/journal", r->state);
	unlink(path);
	rmdir(r->state);
	free(r);
}

/*
 * What a run does before it stops: open, save, journal every saved
 * register (as main.c does before the first write), program two slots of
 * the real plan (offcore, load latency and fixed counters on Haswell), and
 * let the counters count.  The journal's lock is dropped as a death would.
 */
static void rig_run(struct rig *r)
{
	static const unsigned thr[] = { 16, 32, 64, 128 };
	struct plan_resources res;
	struct plan pl;
	struct journal j;

	assert_int_equal(pmu_open(&r->p, &r->f.dev, &r->desc, run_ids, NCPU, false, r->err,
				  sizeof(r->err)), 0);
	assert_int_equal(pmu_save(&r->p, r->err, sizeof(r->err)), 0);
	assert_int_equal(journal_open(&j, r->state, r->err, sizeof(r->err)), 0);
	assert_int_equal(journal_write(&j, &r->p, DEV_PATH, false, r->err, sizeof(r->err)), 0);
	journal_close(&j);
	plan_resources_from_pmu(&res, &r->p);
	assert_int_equal(plan_build(&pl, r->u, &res, thr, 4, r->err, sizeof(r->err)), 0);
	for (int s = 0; s < 2 && s < pl.nslots; s++)
		for (int i = 0; i < NCPU; i++)
			assert_int_equal(pmu_apply(&r->p, i, &pl.slot[s].cfg, r->err, sizeof(r->err)), 0);
	for (int i = 0; i < NCPU; i++) {
		const struct pmu_cpu *c = &r->p.cpu[i];

		for (unsigned k = 0; k < r->p.ngp; k++)
			if (c->cur.gp_mask & (1u << k))
				fake_set(&r->f, c->id, MSR_PMC(k), 0x5000 + 0x10 * k + i);
		for (unsigned k = 0; k < r->p.nfixed; k++)
			if (c->cur.fixed_mask & (1u << k))
				fake_set(&r->f, c->id, MSR_FIXED_CTR(k), 0x7000000100ull * (k + 1) + i);
	}
	memcpy(r->left, r->f.regs, sizeof(r->left));
	memcpy(r->cpu_left, r->p.cpu, sizeof(r->cpu_left));
}

/* Back to the moment lattop stopped: the registers as it left them, and what it knew. */
static void rig_rewind(struct rig *r)
{
	memcpy(r->f.regs, r->left, sizeof(r->left));
	memcpy(r->p.cpu, r->cpu_left, sizeof(r->cpu_left));
}

/* The writes logged since @from, into @w (at most @max); how many. */
static int writes_since(const struct rig *r, int from, struct wr *w, int max)
{
	int n = 0;

	assert_int_equal(r->f.lost, 0);
	for (int k = from; k < r->f.nlog; k++) {
		const struct fake_rec *x = &r->f.log[k];

		if (x->op != FAKE_WRITE)
			continue;
		assert_true(n < max);
		w[n++] = (struct wr){ x->cpu, x->reg, x->val, x->rc };
	}
	return n;
}

/* Two write sequences are the same, write by write; the first difference is named. */
static void assert_same_writes(const char *a_name, const struct wr *a, int na,
			       const char *b_name, const struct wr *b, int nb)
{
	for (int k = 0; k < na && k < nb; k++)
		if (a[k].cpu != b[k].cpu || a[k].reg != b[k].reg || a[k].val != b[k].val ||
		    a[k].rc != b[k].rc) {
			print_error("write %d: %s wrote cpu %d MSR 0x%x = 0x%llx (rc %d), %s cpu %d "
				    "MSR 0x%x = 0x%llx (rc %d)\n", k, a_name, a[k].cpu, a[k].reg,
				    (unsigned long long)a[k].val, a[k].rc, b_name, b[k].cpu, b[k].reg,
				    (unsigned long long)b[k].val, b[k].rc);
			fail();
		}
	if (na != nb)
		print_error("%s made %d writes, %s %d\n", a_name, na, b_name, nb);
	assert_int_equal(na, nb);
}

/* Every register as before lattop, but those in @except (MSR addresses, 0-ended) on CPU @cpu. */
static void assert_as_before(const struct rig *r, int cpu, const uint32_t *except)
{
	for (int i = 0; i < NCPU; i++)
		for (int k = 0; k < r->f.nregs[i]; k++) {
			const struct fake_reg *o = &r->before[i][k], *now = &r->f.regs[i][k];
			bool skip = false;

			for (const uint32_t *e = except; ids[i] == cpu && *e; e++)
				skip |= *e == o->reg;
			if (skip || o->val == now->val)
				continue;
			print_error("cpu %d: MSR 0x%x is 0x%llx, was 0x%llx\n", ids[i], o->reg,
				    (unsigned long long)now->val, (unsigned long long)o->val);
			fail();
		}
}

#define MAXW 512

/*
 * The three paths from the same stop; @refuse (0: none) is a register the
 * CPU refuses to take back on cpu run_ids[0].  Returns how many writes each made.
 */
static int three_paths(struct rig *r, uint32_t refuse)
{
	static struct wr exit_w[MAXW], crash_w[MAXW], restore_w[MAXW];
	char said[sizeof(r->err)], *end;
	int n_exit, n_crash, n_restore, from, left;

	/* 1. The normal exit. */
	rig_rewind(r);
	if (refuse)
		fake_fail_at(&r->f, FAKE_WRITE, run_ids[0], refuse, -EIO, 0, -1);
	from = fake_mark(&r->f);
	left = pmu_restore(&r->p, r->err, sizeof(r->err));
	assert_int_equal(left > 0, refuse != 0);
	assert_int_equal(pmu_pending(&r->p), refuse != 0);
	n_exit = writes_since(r, from, exit_w, MAXW);
	snprintf(said, sizeof(said), "%s", r->err);

	/* 2. The crash handler, from the same state. */
	rig_rewind(r);
	from = fake_mark(&r->f);
	left = pmu_restore_emergency(&r->p);
	assert_int_equal(left > 0, refuse != 0);
	n_crash = writes_since(r, from, crash_w, MAXW);

	/* 3. SIGKILL, then --restore from the journal written before the first write. */
	rig_rewind(r);
	from = fake_mark(&r->f);
	assert_int_equal(journal_restore(r->state, DEV_PATH, &r->f.dev, r->err, sizeof(r->err)),
			 refuse ? -1 : 0);
	n_restore = writes_since(r, from, restore_w, MAXW);
	if (!refuse)
		assert_non_null(strstr(r->err, "restored "));
	/* The refused write in the same words (pmu_wb_describe): the exit's first, --restore's. */
	if (refuse) {
		end = strstr(said, "; cpu ");
		assert_non_null(end);
		*end = 0;
		assert_non_null(strstr(said, "restoring IA32_PERFEVTSEL"));
		if (!strstr(r->err, said))
			print_error("the exit said \"%s\", --restore \"%s\"\n", said, r->err);
		assert_non_null(strstr(r->err, said));
	}
	fake_fail_clear(&r->f);

	assert_same_writes("exit", exit_w, n_exit, "crash handler", crash_w, n_crash);
	assert_same_writes("exit", exit_w, n_exit, "--restore", restore_w, n_restore);
	/* The run's order of CPUs, and on each the global enables last: counting stopped until then. */
	assert_true(n_exit > 0 && exit_w[0].cpu == run_ids[0]);
	for (int i = 0; i < NCPU; i++) {
		int last = -1, global = -1;

		for (int k = 0; k < n_exit; k++)
			if (exit_w[k].cpu == run_ids[i]) {
				last = k;
				if (exit_w[k].reg == MSR_PERF_GLOBAL_CTRL)
					global = k;
			}
		assert_true(global >= 0);
		assert_int_equal(global, last);
	}
	return n_exit;
}

static void test_three_paths_write_alike(void **state)
{
	struct rig *r = rig_new("haswell", true);
	static const uint32_t none[] = { 0 };
	int n;

	(void)state;
	rig_run(r);
	n = three_paths(r, 0);
	/* Selects, counters, fixed counters and their control, PEBS, offcore, enables: on both CPUs. */
	assert_true(n >= 2 * 8);
	assert_as_before(r, -1, none);
	rig_free(r);
}

/* Without full-width writes the counters go back through IA32_PMCx: still alike. */
static void test_three_paths_legacy_writes(void **state)
{
	struct rig *r = rig_new("haswell", false);
	static const uint32_t none[] = { 0 };

	(void)state;
	rig_run(r);
	assert_true(three_paths(r, 0) > 0);
	assert_as_before(r, -1, none);
	rig_free(r);
}

/*
 * A select the CPU will not take back: each path tries it once, leaves
 * its counter alone (it counts on while the select is lattop's), and puts
 * back everything else the same way.
 */
static void test_three_paths_refused_write(void **state)
{
	struct rig *r = rig_new("haswell", true);
	static const uint32_t kept[] = { MSR_PERFEVTSEL(1), MSR_PMC(1), 0 };

	(void)state;
	rig_run(r);
	assert_int_equal(r->p.cpu[0].id, run_ids[0]);
	assert_true(r->p.cpu[0].cur.gp_mask & 2);
	three_paths(r, MSR_PERFEVTSEL(1));
	assert_as_before(r, run_ids[0], kept);
	/* The journal keeps just those two, and a second --restore without the fault finishes. */
	assert_int_equal(journal_restore(r->state, DEV_PATH, &r->f.dev, r->err, sizeof(r->err)), 0);
	assert_non_null(strstr(r->err, "restored 2 registers"));
	assert_as_before(r, -1, kept + 2);
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_paths_write_alike),
		cmocka_unit_test(test_three_paths_legacy_writes),
		cmocka_unit_test(test_three_paths_refused_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
