/*
 * app.h: the program's own pieces, shared by app/ only.
 *
 * main.c decides the mode and the exit status; signals.c owns the signal
 * handlers, the stop (Ctrl-Z) and the crash path; session.c runs one
 * measuring session, from the journal's lock to the last register put
 * back; replay_screen.c is the screen over a recording.  Nothing below
 * app/ includes this.
 */
#ifndef LATTOP_APP_H
#define LATTOP_APP_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "app/options.h"
#include "cpu/msrdev.h"
#include "cpu/pmu.h"
#include "cpu/uarch.h"
#include "cpu/perfdev.h"
#include "engine/perf_sampler.h"
#include "engine/sharing_sampler.h"
#include "engine/plan.h"
#include "engine/sampler.h"
#include "engine/snapshot.h"
#include "export/fleet.h"
#include "output/outq.h"
#include "record/record.h"
#include "safety/journal.h"
#include "sim/sim.h"

#define LATTOP_VERSION "0.1"

enum { EXIT_OK = 0, EXIT_CANNOT = 1, EXIT_USAGE = 2 };

/* ---- main.c ---- */

/* "lattop: @msg" on stderr (and the --help hint for EXIT_USAGE); @status. */
int fail(int status, const char *msg);
/* @status when everything printed reached standard output; else the error, EXIT_CANNOT. */
int out_done(int status);
/* NO_COLOR set and not empty (no-color.org). */
bool no_color_env(void);

/* ---- signals.c ---- */

/* The last signal that asked to end or stop the run (-1: the screen's quit); 0: none. */
extern volatile sig_atomic_t stop_signal;

/* SIGTSTP, SIGTTIN, SIGTTOU: lattop stops, with every register back. */
bool is_stop_signal(int sig);
/* A signal that ends the run came. */
bool stop_ending(void);
/* Stop as @sig asks until SIGCONT.  False when a signal that ends the run came before or while stopped. */
bool stop_here(int sig);
/* The ending and stopping signals set stop_signal; SIGPIPE is ignored. */
void install_signals(void);

/*
 * SIGSEGV, SIGBUS, SIGABRT, SIGFPE: call @fn(@arg) (async-signal-safe:
 * the registers back), put the terminal saved by crash_save_tty() back,
 * and die of the signal.  @fn NULL: the terminal only.
 */
void install_crash_handlers(void (*fn)(void *arg), void *arg);
/* Keep the terminal's state for a crash to put back: before ncurses changes it. */
void crash_save_tty(void);

/* ---- session.c ---- */

/* The screen's first interval, and the first after a change, are at most this long. */
#define FIRST_INTERVAL_S 1.0

struct ui;

/* One measuring session: what main found, then what measuring keeps. */
struct session {
	/* from main */
	struct options opt;
	struct cpu_desc desc;
	struct sim *sim;
	struct msrdev *dev;
	int *ids;
	int nids;
	char dev_path[4096];            /* the msr directory, absolute */
	/* the session's own */
	struct pmu pmu;
	struct plan plans[2];           /* the one in use, and room for a new one */
	struct plan *plan;
	/* A hybrid part: the plans of its other core types, beside plans[] (plan.h ntypes). */
	struct plan type_plans[2][CORE_TYPES_MAX - 1];
	struct sampler sampler;
	struct snapshot snap;           /* the interval just sampled, as every output reads it */
	struct ui *ui;
	bool new_thresholds;
	bool restart;                   /* a key changed the interval or thresholds: cut this one */
	struct journal journal;
	bool journaled;
	struct fleet fleet;             /* --listen, --textfile */
	bool quiet;                     /* serving without a terminal: no snapshots */
	struct outq *out;               /* batch output, written by its own thread */
	bool note_told;                 /* the note went to stderr (csv, json) */
	char *csv_head;                 /* the csv header printed last */
	char lost[1024];                /* counters given up to a new owner, for the note */
	struct record_writer rec;       /* --record */
	bool recording;
	char rec_err[1024];
	long rec_lost;                  /* snapshots not recorded since the recording paused */
	/* --backend perf (session_perf.c) */
	struct perfdev *perfdev;
	struct perf_sampler perf;
	struct sharing_sampler sharing; /* the contended lines (issue 23) */
	int cgroup_fd;                  /* --cgroup's directory, when given */
	int *parity;                    /* perf: each CPU's rank among its core's measured threads */
	/* perf on a hybrid part: each CPU's core type (perf_type_of, [nids]) and each type's PMU */
	struct perf_types perf_types;
	int8_t *perf_type_of;
};

/*
 * What session_perf.c shares with the msr session: the screen's wait, the
 * outputs of an interval, the exporter and the recorder, and the source
 * the reports name ("simulator", "msr", "perf").
 */
bool session_ui_waiter(void *arg, double deadline);
int session_show(struct session *r, bool first, char *note, size_t notelen);
void session_export_interval(struct session *r);
int session_export_start(struct session *r, char *err, size_t errlen);
int session_record_start(struct session *r, char *err, size_t errlen);
const char *session_source(const struct session *r);
/* The screen, for options_screen(): 0, or -1 with a message. */
int session_ui_open(struct session *r, char *err, size_t errlen);
/*
 * The registers are back: the output may take its time now (not for ever
 * after a signal).  @status, or EXIT_CANNOT when writing it failed.
 */
int session_drain(struct session *r, int status);

/* ---- session_perf.c ---- */

/* The measuring session through perf_event_open(2) (--backend perf).  The exit status. */
int session_perf(struct session *s);

/*
 * The end of a session, either backend: the screen, the exporter, the
 * output queue, the recording and the snapshot, after what is the
 * backend's own (the msr backend's registers are back by then).
 */
void session_close_outputs(struct session *r);

/*
 * Can this kernel's perf_event_open(2) count CPU @desc's events at all:
 * 0, or -1 with why not in @err (no core PMU; on a hybrid part, a core
 * type's PMU missing, or its cpus list and CPUID disagreeing).
 */
int session_perf_usable(const struct cpu_desc *desc, char *err, size_t errlen);

/*
 * --backend auto: may lattop count through this kernel (session_perf_usable,
 * and a CPU-wide event opens: perf_event_paranoid <= 0, CAP_PERFMON or
 * CAP_SYS_ADMIN)?  Nothing is left open.
 */
bool session_perf_permitted(const struct cpu_desc *desc);

/*
 * What the planner may use through the kernel for core type @type (-1:
 * the part): every counter, offcore register and the threshold (the
 * kernel arbitrates them), the model, the packages of @s->dev (or of the
 * simulator).
 */
void session_perf_resources(const struct session *s, int type, struct plan_resources *res);

/*
 * @pl (r->plans[0] or [1], and on a hybrid part its core types' plans)
 * as the perf backend measures it: where the kernel cannot keep partners
 * that share an offcore register (or Nehalem's threshold) from disturbing
 * each other, and partners are measured, the metrics on it are not
 * measured, with why.
 */
void session_perf_plan(struct session *s, struct plan *pl);

/*
 * Build plan @next (r->plans[0] or [1]) from what @res gives (msr: the
 * counters free now, res_of(r, -1, ...)): on a hybrid part one plan per
 * core type, each from its type's table and the resources @res_of gives
 * for it, linked (plan_link_types()).  0, or -1 with a message.
 */
/* A hybrid part's rows: each CPU's and core's core type (struct row.core_type), once. */
void session_core_types(struct session *r);

int session_plan(struct session *r, struct plan *next,
		 void (*res_of)(const struct session *, int type, struct plan_resources *),
		 char *err, size_t errlen);

/* Ready @s for main to fill: no descriptor open. */
void session_init(struct session *s);

/*
 * Measure until -n COUNT intervals, a signal or the screen's quit, with
 * every register back at the end.  The exit status.
 */
int session_measure(struct session *s);

/*
 * --restore --reset --yes: lattop's own events left in counters that no
 * running lattop holds, on every CPU of the device, back to their
 * power-on values (pmu_reset_lattop).  The exit status.
 */
int session_reset(struct session *s);

/* ---- replay_screen.c ---- */

/* --replay FILE on a terminal: the screen over the recorded frames.  The exit status. */
int replay_screen(const struct options *o);

#endif
