/*
 * report.h: the writers of --once/--batch snapshots (text, csv, json), of
 * --detect and of --list-events.  Each writes one FILE; none reads a
 * register or a clock: they print what they are given.
 */
#ifndef LATTOP_REPORT_H
#define LATTOP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "cpu/msrdev.h"
#include "cpu/uarch.h"
#include "output/columns.h"
#include "engine/metrics.h"
#include "engine/plan.h"
#include "engine/snapshot.h"

enum report_format { FORMAT_TEXT, FORMAT_CSV, FORMAT_JSON };

#define REPORT_SHARING_WHY_MSR "the msr backend has no PEBS buffer: the contended lines are " \
	"sampled through the kernel only (--backend perf)"

struct report {
	/*
	 * "msr", "perf", or on the simulator "simulator" (the msr backend) or
	 * "simulator/perf": the device, and the backend (report_backend()).
	 */
	const char *source;
	const struct cpu_desc *desc;
	double interval_s;
	double time;                   /* seconds since the epoch */
	int ncpu;
	const struct row *cpu;         /* per CPU (engine/snapshot.h) */
	struct metrics total;
	const char *note;              /* counters taken etc., or NULL */
	/*
	 * The contended lines of the interval (engine/sharing.h); NULL: none,
	 * and json says why where the backend is msr (REPORT_SHARING_WHY_MSR)
	 * and omits them otherwise.
	 */
	const struct sharing_frame *sharing;
	col_set hidden;                /* text and csv columns --show/--hide leave out */
};

/* One snapshot.  @first: the first of a --batch run (csv prints its header). */
int report_write(FILE *f, enum report_format fmt, const struct report *r, bool first);

/*
 * csv: are the columns of @r (its thresholds, a recording's next session)
 * other than those of the header *@last, the one printed last (NULL before
 * the first)?  Then *@last becomes @r's header, and the caller passes
 * @first to report_write() so that it prints it: no row is printed under a
 * header that does not match it.  The caller frees *@last.
 */
bool report_csv_new_head(const struct report *r, char **last);

/* The --detect object (JSON) or its text form. */
void report_detect(FILE *f, enum report_format fmt, const struct cpu_desc *d);
/* The --detect object inline, for embedding in a snapshot. */
void report_detect_json(FILE *f, const struct cpu_desc *d);

/* --list-events: what would be programmed, slot by slot. */
void report_events(FILE *f, enum report_format fmt, const struct cpu_desc *d,
		   const struct plan *pl);
/*
 * The same for a backend: with @perf_pmu (the kernel's PMU the events go
 * to, perf_attr_pmu_of), the perf_event_attr each event is opened with
 * (text: in place of the registers; JSON: "attr" beside them); NULL: the
 * msr backend's registers.
 */
void report_events_backend(FILE *f, enum report_format fmt, const struct cpu_desc *d,
			   const struct plan *pl, const char *perf_pmu);

/* The backend a report's @source names: "perf" or "msr". */
const char *report_backend(const char *source);

/* Was a report's @source the simulator? */
bool report_simulated(const char *source);

/* JSON string literal, escaped as the snapshots' strings are. */
void report_json_str(FILE *f, const char *s);

#endif
