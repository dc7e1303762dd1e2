/*
 * options.h: the command line.  Parsing and validation only: a bad value
 * is refused here, before anything is opened or written.
 */
#ifndef LATTOP_OPTIONS_H
#define LATTOP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "cpu/msrdev.h"
#include "output/columns.h"
#include "engine/plan.h"
#include "output/report.h"

enum mode { MODE_SCREEN, MODE_ONCE, MODE_BATCH, MODE_DETECT, MODE_LIST_EVENTS, MODE_RESTORE,
	    MODE_DOCTOR, MODE_HELP, MODE_VERSION, MODE_REPLAY, MODE_LIST_UARCHS };

/*
 * --backend: how the counters are reached.  auto is resolved by main.c
 * before anything is opened: perf where the kernel lets lattop count, msr
 * otherwise (and on the stand-ins).
 */
enum backend { BACKEND_AUTO, BACKEND_MSR, BACKEND_PERF };

#define INTERVAL_MIN 0.05
#define INTERVAL_MAX 3600.0    /* see PEBS_REZERO_SHIFT in cpu/pmu.c */

struct options {
	enum mode mode;
	double interval;
	long count;                 /* -n; 0: no limit */
	const char *cpus;           /* -c LIST, checked against the machine later */
	enum report_format format;
	unsigned thresholds[THRESH_MAX];
	int nthresh;
	const char *simulate;
	const char *sim_profile;
	const char *msr_dir;
	const char *cpuid_file;
	const char *state_dir;
	const char *listen;         /* --listen [ADDR:]PORT, syntax checked (export/listen.h) */
	const char *textfile;       /* --textfile PATH */
	bool force;
	bool reset;                 /* --restore --reset */
	bool yes;                   /* --yes: --reset confirmed */
	bool no_color;
	bool ascii;
	const char *record;         /* --record FILE */
	long long record_max;       /* --record-max, bytes; 0: no limit */
	const char *replay;         /* --replay FILE */
	bool replay_batch;          /* with -b or --format: printed, not on the screen */
	const char *begin, *end;    /* --begin, --end TIME, checked by record_parse_time() */
	col_set hidden;             /* columns --show and --hide leave out (output/columns.h) */
	enum backend backend;       /* --backend */
	const char *cgroup;         /* --cgroup PATH (with --backend perf) */
	int pid;                    /* --pid PID (with --backend perf); 0: none */
};

extern const char options_usage[];
extern const char options_help[];       /* then the keys: ui_keys_help() */
extern const char options_notes[];

/* 0, or -1 with "option 'value': what is wrong" in @err. */
int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen);

/* A --thresholds list, sorted: 0, or -1 with a message. */
int options_parse_thresholds(const char *s, unsigned *out, int *n, char *err, size_t errlen);

/*
 * The CPUs of -c @list ("0-3,8"), which must all exist on @d; NULL @list
 * means all.  Fills @ids (d->ncpu entries at most), returns how many, or -1
 * with a message.
 */
int options_cpu_list(const char *list, const struct msrdev *d, int *ids,
		     char *err, size_t errlen);

/*
 * Does @o draw the screen: the live or replay screen asked for, on a
 * terminal?  Otherwise the same run writes a report to stdout.
 */
bool options_screen(const struct options *o);

#endif
