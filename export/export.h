/*
 * export.h: the Prometheus exposition of lattop's numbers, for --listen and
 * --textfile.  Pure: each interval's rates in, cumulative counters kept
 * here, text out; no I/O, no clock (httpd.c serves the text, textfile.c
 * writes it).
 *
 * Counters are cumulative since lattop started, as Prometheus wants them:
 * each interval adds, per CPU, its rate times the time that CPU's interval
 * covered; a CPU not read in an interval adds nothing.  A number the CPU
 * cannot measure has no series at all (never 0), and
 * lattop_metric_supported{metric} says 0 for it.
 */
#ifndef LATTOP_EXPORT_H
#define LATTOP_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/metrics.h"
#include "engine/plan.h"
#include "engine/snapshot.h"
#include "output/columns.h"

/* The counter families, in exposition order (export_families[] describes them). */
enum export_counter {
	EXPORT_CYCLES, EXPORT_REF_CYCLES, EXPORT_INSTRUCTIONS, EXPORT_LOADS,
	EXPORT_LOAD_LATENCY_ABOVE, EXPORT_SNOOP_HIT, EXPORT_SNOOP_HITM,
	EXPORT_SNOOP_REMOTE_HIT, EXPORT_SNOOP_REMOTE_HITM, EXPORT_OFFCORE_READS,
	EXPORT_OFFCORE_OUTSTANDING, EXPORT__COUNT
};

/*
 * A counter family.  Most sum the rate of an output column (columns.h)
 * and say what they count in that column's words: the HELP is the
 * column's help as a sentence, or, where the column's words are a rate's
 * or the screen's, words of the family's own that begin as the column's
 * do.  The raw counters behind GHz, IPC and the offcore latency, which no
 * column shows alone, sum a metric's rate instead.  tests/test_export.c
 * checks each family against its column: names, units and HELP.
 */
struct export_family {
	const char *name;       /* without lattop_ and _total */
	const char *unit;       /* OpenMetrics UNIT, a suffix of the name, or NULL */
	enum col_id col;        /* the column whose rate it sums, or COL__COUNT */
	enum metric rate;       /* without a column: the metric whose rate it sums */
	const char *help;       /* its own words, or NULL: the column's help */
	const char *more;       /* said after the column's help, or NULL */
};

extern const struct export_family export_families[EXPORT__COUNT];

/* Distinct load-latency thresholds kept over a run (the screen's t changes them). */
#define EXPORT_MAX_THRESH 64

struct export_cpu {
	int cpu, core, package;
	char labels[64];                        /* cpu="3",core="1",package="0" */
	double total[EXPORT__COUNT];            /* the threshold family is in above[] */
	double above[EXPORT_MAX_THRESH];        /* parallel to struct export.thresh[] */
};

struct export {
	int ncpu;
	struct export_cpu *cpu;
	bool supported[EXPORT__COUNT];
	unsigned thresh[EXPORT_MAX_THRESH];     /* every threshold seen, in order of arrival */
	int nthresh;
	int cur[THRESH_MAX];               /* the plan's thresholds, as indices in thresh[]
						 * (-1: past EXPORT_MAX_THRESH, not shown) */
	int ncur;
	bool up;                                /* the last interval read at least one CPU */
	bool stopped;                           /* lattop stopped: lattop_up 0, no counters */
	double interval_s;                      /* the interval asked for */
	double last_sample;                     /* seconds since the epoch, 0 before the first */
	/*
	 * The contended lines' bounded aggregates (never a series per line:
	 * their number is unbounded): samples, lost and throttled since the
	 * start, the lines in the last frame.  Shown once a frame was sampled.
	 */
	bool sharing;
	double sharing_samples, sharing_lost, sharing_throttled;
	int sharing_lines;
	/* lattop_info's labels */
	const char *microarch, *pmu_table, *source, *version, *hitm_scope;
};

/*
 * Set up @x for the @ncpu CPU rows @rows: their ids, cores and packages.
 * 0, or -1 (out of memory).
 */
int export_init(struct export *x, const struct row *rows, int ncpu);

void export_free(struct export *x);

/*
 * Add an interval: the CPU rows @s[0..x->ncpu) in the order of
 * export_init, each with its rates and the time its interval covered,
 * measured with plan @pl, ended at @now (seconds since the epoch).
 * Supported families come from the plan; the counters of a CPU not read
 * stay as they were.
 */
void export_update(struct export *x, const struct plan *pl, const struct row *s, double now);

/* Which families the plan @pl measures (also done by export_update). */
void export_supported(struct export *x, const struct plan *pl);

/* The interval's frame of contended lines, @f (a supported one only), into the aggregates. */
void export_sharing(struct export *x, const struct sharing_frame *f);

/*
 * The exposition: Prometheus text format 0.0.4, or OpenMetrics 1.0 when
 * @openmetrics.  A malloc'd string in *@out, its length in *@len.  0, or
 * -1 (out of memory).
 */
int export_render(const struct export *x, bool openmetrics, char **out, size_t *len);

/*
 * Both formats at once, the samples rendered once (they are the same in
 * both): what each interval needs.  0, or -1 (out of memory).
 */
int export_render_both(const struct export *x, char **text, size_t *textlen, char **om,
		       size_t *omlen);

/*
 * Keep freed memory for reuse rather than give it back to the kernel: the
 * expositions are megabytes at 1024 CPUs, rendered every interval, and
 * mapping them anew each time (glibc's default above 128 KiB) costs more
 * page faults than the rendering itself (BENCHMARKS.md, section 4).
 * Process-wide (mallopt); call once, before the first rendering.
 */
void export_keep_memory(void);

/* The content types of the two formats, for HTTP. */
extern const char export_type_text[];
extern const char export_type_openmetrics[];

#endif
