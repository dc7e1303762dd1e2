/*
 * snapshot.h: one interval, as every sink reads it.
 *
 * A row is a logical CPU or a core (the sum of its logical CPUs); a
 * snapshot is the rows of one interval with their total.  The screen
 * (ui/), the report writers (output/), the exporter (export/) and the
 * recorder (record/) all read struct row, so an interval is built once, in
 * one shape, and nothing copies it from one shape into another.
 *
 * Owns the rows' storage and the order of core rows (by package, then
 * core: computed once from the topology); computes each interval's rates
 * and metrics from the sampler's accumulations.  Knows nothing of how the
 * rows are shown.
 */
#ifndef LATTOP_SNAPSHOT_H
#define LATTOP_SNAPSHOT_H

#include <stdbool.h>

#include "cpu/uarch.h"
#include "engine/metrics.h"
#include "engine/sharing.h"

struct msrdev;
struct pmu;
struct plan;
struct sample_cpu;

/* One row: a logical CPU, or a core (the sum of its logical CPUs). */
struct row {
	int cpu;                        /* logical CPU, or -1 for a core row */
	int core, package;
	int nthreads;                   /* logical CPUs summed in a core row; 1 otherwise */
	bool ok;                        /* measured this interval */
	const char *error;              /* why not, when !ok */
	double interval_s;              /* the time its interval covered; 0 in a recorded row */
	const struct rates *rates;      /* what @m comes from; NULL in a recorded row */
	/*
	 * A hybrid part's: the core type of its CPUs, "core", "atom" or
	 * "lowpower" (core_type_row_name(): JSON core_type, the Prometheus
	 * label); NULL on a part that is not hybrid.
	 */
	const char *core_type;
	struct metrics m;
};

/*
 * The mark a hybrid part's row carries beside its CPU number in the text
 * and on the screen: "P" for a Core (P-core) CPU, "E" for an Atom
 * (E-core) one, "L" for a low-power E-core (Arrow Lake-H), "" otherwise.
 */
static inline const char *row_type_mark(const struct row *r)
{
	return core_type_mark(r->core_type);
}

struct snapshot {
	int ncpu;
	struct row *cpu;                /* per measured CPU, in the order measured */
	int ncore;
	struct row *core;               /* per core */
	struct metrics total;           /* of the CPUs read this interval */
	double interval_s;              /* as measured on the first CPU */
	/* Rotation: the share of the interval each measurement ran (1 = all of it). */
	double share_lat;               /* each load-latency threshold */
	double share_snoop;
	double share_offcore;
	/* The contended lines of the interval (perf backend); NULL when not sampled. */
	const struct sharing_frame *sharing;
	/* storage */
	struct rates *rates, *ok_rates, *core_rates;
	int *core_of;                   /* CPU row -> core row */
	int8_t *core_type;              /* core row -> its core type (struct sample_cpu.type) */
};

/*
 * Rows for the CPUs @pmu measures, their topology from @dev.  0, or -1
 * (out of memory; snapshot_free() still frees what was allocated).
 */
int snapshot_init(struct snapshot *s, const struct msrdev *dev, const struct pmu *pmu);

/* The same for Linux CPUs @ids[0..@n) of @dev, without a PMU (the perf backend). */
int snapshot_init_ids(struct snapshot *s, const struct msrdev *dev, const int *ids, int n);

/*
 * The interval just counted, @cpu[0..ncpu) (a backend's counts and run
 * times per plan unit: the msr sampler's today), with plan @pl and the TSC
 * rate @tsc_hz (0: unknown): each CPU's rates and metrics, each core's,
 * and the total.  @root_dropped: lattop gave up root after starting, so a
 * permission error means "restart lattop".
 */
void snapshot_compute(struct snapshot *s, const struct plan *pl, const struct sample_cpu *cpu,
		      double tsc_hz, bool root_dropped);

void snapshot_free(struct snapshot *s);

#endif
