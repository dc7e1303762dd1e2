/*
 * ui.h: the interactive screen (ncurses), as app/ drives it: a measuring
 * session (session.c) or a recording replayed (replay_screen.c).
 *
 * The screen is given frames: the rows of an interval and the CPU
 * description.  It never touches an MSR, the simulator, a counter or the
 * clock of the measurement: it draws what it is given and turns keys into
 * the actions of enum ui_action, which its caller carries out.  What is
 * purely a matter of display (sort, panes, rows, scrolling, pause, help,
 * the history behind the sparklines and the history view) is the screen's
 * own state, in ui/ (ui_internal.h).
 */
#ifndef LATTOP_UI_H
#define LATTOP_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cpu/uarch.h"
#include "engine/metrics.h"
#include "engine/snapshot.h"

struct ui_frame {
	const struct cpu_desc *desc;
	bool simulated;                 /* the data comes from the simulator */
	double interval_s;              /* the interval asked for */
	double measured_s;              /* the one measured */
	double time;                    /* seconds since the epoch, at the end */
	int ncpu;
	const struct row *cpu;       /* per logical CPU */
	int ncore;
	const struct row *core;      /* per core */
	struct metrics total;
	/* Rotation: the share of the interval each measurement ran (1 = all of it). */
	int nslots;
	double share_lat;               /* each load-latency threshold */
	double share_snoop;
	double share_offcore;
	const char *note;               /* counters taken by someone else, etc., or NULL */
	/*
	 * A standing doubt about the offcore numbers (struct plan.ht_caveat; a
	 * static string), or NULL: marked on the Offcore pane's title, not in
	 * the status line, which it would hold for good.
	 */
	const char *off_caveat;
	/* What else lattop does with the numbers, said in the header: */
	const char *serving;            /* --listen: the address bound, "127.0.0.1:10123", or NULL */
	const char *recording;          /* --record: the file, or NULL */
	long long recorded;             /* ... its size in bytes */
	bool record_paused;             /* ... not written to (a full disk) */
	/* --replay on the screen: a recorded frame, labelled REPLAY with its time. */
	bool replay;
	bool replay_paused;
	double replay_speed;            /* 1: as recorded */
	/* ... and where it is: "frame 40 of 600, 12:00:02 of 12:00:00-12:00:30", or NULL. */
	const char *replay_where;
	/* The contended lines of the interval (engine/sharing.h), or NULL: not sampled. */
	const struct sharing_frame *sharing;
};

/* The replay's speeds that UI_SLOWER and UI_FASTER halve and double to, at most. */
#define UI_SPEED_MIN 0.25
#define UI_SPEED_MAX 64.0

enum ui_action {
	UI_NONE,
	UI_QUIT,
	UI_INTERVAL,            /* ui_state.interval_s holds the new interval */
	UI_THRESHOLDS,          /* ui_state.thresholds/nthresh hold the new list */
	/* Replaying (ui_opts.replay): */
	UI_PLAY,                /* pause or resume */
	UI_STEP_BACK,           /* one snapshot back */
	UI_STEP_FWD,            /* one snapshot forward */
	UI_FASTER,              /* twice as fast, UI_SPEED_MAX at most */
	UI_SLOWER,              /* half as fast, UI_SPEED_MIN at least */
	UI_JUMP,                /* ui_jump_time() holds the time */
};

struct ui;

struct ui_opts {
	bool no_color;          /* --no-color, or NO_COLOR set */
	bool ascii;             /* --ascii, or a terminal without line drawing */
	unsigned long long hidden;      /* columns --show, --hide leave out (col_set, output/columns.h) */
	double interval_s;
	/* Validates a thresholds list typed after 't'; 0 or -1 with a message. */
	int (*parse_thresholds)(const char *text, unsigned *out, int *n, char *err, size_t errlen);
	/* Replaying: the keys drive the replay; a time typed after 'g' is parsed by this. */
	bool replay;
	int (*parse_time)(void *arg, const char *text, double *out, char *err, size_t errlen);
	void *parse_arg;
};

/* Take the terminal.  NULL with a message when there is none. */
struct ui *ui_open(const struct ui_opts *opts, char *err, size_t errlen);

/* Give the terminal back as it was.  Safe to call twice. */
void ui_close(struct ui *);

/* Give the terminal back, leaving the last frame on it as text (as top does after -n). */
void ui_close_keep(struct ui *);

/* Give the terminal back (Ctrl-Z), and take it again after SIGCONT. */
void ui_suspend(struct ui *);
void ui_resume(struct ui *);

/* A new interval's numbers: remember history, redraw (unless paused). */
void ui_frame(struct ui *, const struct ui_frame *f);

/*
 * Wait for input until @deadline (CLOCK_MONOTONIC seconds), handling keys
 * and resizes as they come.  Returns early with an action its caller
 * must carry out; UI_NONE when the deadline passed.
 */
enum ui_action ui_wait(struct ui *, double deadline);

/* After UI_INTERVAL or UI_THRESHOLDS: the new values. */
double ui_interval(const struct ui *);
int ui_thresholds(const struct ui *, unsigned *out, int max);

/* After UI_JUMP: the time typed, seconds since the epoch. */
double ui_jump_time(const struct ui *);

/* Show a one-line message in the status line (e.g. a refused threshold list). */
void ui_message(struct ui *, const char *msg);

/*
 * The keys of the screen, then those of a replay, as `lattop --help` lists
 * them (each list followed by a blank line): from the table the screen
 * dispatches them with and its help lists them from.
 */
void ui_keys_help(FILE *out);

#endif
