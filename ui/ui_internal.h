/*
 * ui_internal.h: what the files of the screen share, and nothing outside
 * ui/ may include.
 *
 * ui.c owns the state of the display between frames and the
 * terminal's lifecycle; layout.c what is drawn where (header, panes, status
 * line); keys.c the key table and what each key does; help.c the help
 * screen; snap.c the screen's own copies of frames and the HITM history
 * behind the sparklines; history.c the history view and its frames;
 * lines.c the contended lines (the view, a line's detail, the pane);
 * ring.h (no curses) the slots of both histories; draw.c
 * attributes, glyphs and drawing primitives (the digits are
 * output/numfmt.c's); each pane_*.c one `const struct pane`, which draws
 * its column header and its rows into the box the screen gives it,
 * pane_cell.c the column table's cells for them.  Only frames come in:
 * no file here knows of MSRs, the simulator or the sampler
 * (tests/e2e_headers.sh checks what ui/ includes and calls).
 */
#ifndef LATTOP_UI_INTERNAL_H
#define LATTOP_UI_INTERNAL_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/columns.h"
#include "output/numfmt.h"
#include "ui/ring.h"
#include "ui/ui.h"

#define UI_HIST      30         /* HITM/s samples kept per row for the sparkline */
#define UI_MAX_PANES 3
#define UI_MAX_COLS  40         /* sortable columns, CPU and each threshold included */

/* ---- attributes (draw.c) ---- */

enum ui_attr {
	UA_NORMAL,
	UA_BRAND,               /* "lattop" */
	UA_UARCH,               /* the microarchitecture's name */
	UA_SIMULATED,           /* reverse video, red where there is colour */
	UA_PAUSED,              /* reverse video */
	UA_TITLE,               /* a pane's title */
	UA_DIM,                 /* explanations, separators */
	UA_COLHDR,              /* column headers: reverse video */
	UA_COLHDR_SORT,         /* ... the sort column */
	UA_TOTAL,               /* the `all` row */
	UA_NA,                  /* `n/a` cells */
	UA_STATUS,              /* the bottom line */
	UA_STATUS_MSG,          /* ... with a message */
	UA_BAR_LOW,             /* bars and sparklines, by severity */
	UA_BAR_MID,
	UA_BAR_HIGH,
	UA_SPARK,
	UA_WARN,                /* a cell worth a look */
	UA_HOT,                 /* a row far above its own recent median */
	UA_HOT_CELL,            /* ... its HITM/s cell */
	UA_SELECTED,            /* the line chosen in the lines view */
	UA__COUNT
};

/* Characters for bars and sparklines: UTF-8 block elements or ASCII. */
struct ui_glyphs {
	const char *bar[9];     /* horizontal, 0..8 eighths of a cell */
	const char *spark[10];  /* vertical levels, [0] blank */
	int nspark;
	const char *shade[6];   /* the history's heat map: nothing to the most */
	const char *vline;      /* between panes side by side */
	const char *more;       /* a cut string ends with this */
};

/* ---- the screen's copies of frames (snap.c) ---- */

struct snap_str;

struct ui_snap {
	bool valid;
	struct ui_frame f;              /* its pointers point into this snap */
	struct row *cpu, *core;      /* f.cpu, f.core */
	int cap_cpu, cap_core;
	struct snap_str *str;           /* the strings the frame points to */
	struct sharing_frame *sharing;  /* f.sharing, when the frame has one */
	/* HITM/s history, (ncpu + ncore + 1) rows of UI_HIST slots of the ring */
	double *hist;
	int hist_rows;
	struct ring ring;
	unsigned long seq;              /* frames copied in */
};

/* Copy @f (rows and strings).  Resets the history when the row counts change. -1: no memory. */
int snap_copy(struct ui_snap *s, const struct ui_frame *f);
/* Record each row's HITM/s of the frame copied in. */
void snap_push(struct ui_snap *s);
/* @dst becomes a copy of @src, history included.  -1: no memory. */
int snap_clone(struct ui_snap *dst, const struct ui_snap *src);
void snap_reset(struct ui_snap *s);
void snap_free(struct ui_snap *s);
/* History row of a CPU row (@core false) or core row; @i < 0: the total. */
int snap_hist_row(const struct ui_snap *s, bool core, int i);
/* The history of row @r, oldest first, at most @max samples: how many. */
int snap_hist(const struct ui_snap *s, int r, double *out, int max);

/* ---- the history view (history.c) ---- */

#define HIST_LEN   240          /* frames kept per row for the history view */
#define HIST_LABEL 10           /* the label column of the history view */

struct hist_sample {
	uint8_t share[THRESH_MAX];  /* x 250; 255: none */
	float hitm, hit, lat;            /* NAN: not measured */
};

struct ui_history {
	int rows, ncpu, ncore;          /* ncpu + ncore + 1 (the total, last) */
	struct ring ring;               /* the slots of the arrays below, HIST_LEN of them */
	double time[HIST_LEN];
	int nthresh[HIST_LEN];
	unsigned thr[HIST_LEN][THRESH_MAX];
	struct hist_sample *s;          /* rows x HIST_LEN */
	int sel;                        /* the row shown: -1 the total, else a CPU or core */
	unsigned long pushed;           /* frames since the last reset: where the meter's sweep is */
	/* Each graph's scale, kept while the values still fit it (graph()): [sweep][series] */
	struct hist_scale {
		int row;
		double lo, hi;
	} scale[2][3];
};

/* Add a frame.  Resets when the rows change.  -1: no memory. */
int history_push(struct ui_history *h, const struct ui_frame *f);
void history_reset(struct ui_history *h);
void history_free(struct ui_history *h);
/* Up (-1) or Down (+1) through the total and the rows: true when it moved. */
bool history_select(struct ui_history *h, bool per_core, int dir);
/* The view of the selected row in the box (y, x, w, ht); @sn names the rows. */
void history_draw(struct ui *ui, struct ui_history *h, const struct ui_snap *sn,
		  bool per_core, int y, int x, int w, int ht);
/* The graphs of the selected row in the lines the panes leave (y, x, w, ht), 1 at least. */
void history_meter(struct ui *ui, struct ui_history *h, const struct ui_snap *sn,
		   bool per_core, int y, int x, int w, int ht);

/* ---- panes ---- */

/* One row as a pane sees it. */
struct pane_row {
	const struct metrics *m;
	bool ok;                /* measured: else every cell is n/a */
	bool total;             /* the `all` row */
	int hist;               /* its row in the history */
};

/* Where a pane draws, and what it derived for this drawing. */
struct pane_view {
	int y, x, h, w;         /* the box, label column included */
	int lw;                 /* the label column's width */
	int rows;               /* CPU or core rows shown */
	double scale;           /* the pane's own use: a common scale for its rows */
};

/*
 * A sortable column: a row of the column table (output/columns.h), whose
 * screen header names it and whose value sorts (NAN last), threshold @thr
 * of a list; or, @col NULL, the CPU column named @name.
 */
struct ui_col {
	const char *name;
	const struct column *col;
	int thr;
};

/* Sortable columns ui_col_list(COL_ABOVE): one for each threshold a frame may have. */
#define UI_COL_LIST(id) \
	{ NULL, &columns[id], 0 }, { NULL, &columns[id], 1 }, { NULL, &columns[id], 2 }, \
	{ NULL, &columns[id], 3 }, { NULL, &columns[id], 4 }, { NULL, &columns[id], 5 }, \
	{ NULL, &columns[id], 6 }, { NULL, &columns[id], 7 }, { NULL, &columns[id], 8 }, \
	{ NULL, &columns[id], 9 }, { NULL, &columns[id], 10 }, { NULL, &columns[id], 11 }, \
	{ NULL, &columns[id], 12 }, { NULL, &columns[id], 13 }, { NULL, &columns[id], 14 }, \
	{ NULL, &columns[id], 15 }

struct pane {
	const char *name;       /* title line */
	const char *what;       /* lower case, for the status line: "snoop" */
	const char *about;      /* after the title, when there is room */
	int toggle;             /* the key that shows or hides it */
	const struct ui_col *cols;      /* the sortable ones of its columns */
	int ncols;
	const enum col_id *ids;         /* its columns, in order (the help lists them) */
	int nids;
	/* Width wanted right of the label column: at ease, and at most useful. */
	void (*width)(const struct ui *ui, int *pref, int *max);
	/* Before its rows are drawn: derive scales from the rows of the frame (or NULL). */
	void (*prepare)(const struct ui *ui, struct pane_view *v);
	void (*head)(struct ui *ui, const struct pane_view *v, int y, int x, int w);
	void (*row)(struct ui *ui, const struct pane_view *v, int y, int x, int w,
		    const struct pane_row *r);
	enum col_section section;       /* its numbers' section of the metrics */
	/* A key of its own (or NULL): true when it changed something. */
	bool (*key)(struct ui *ui, int ch);
};

/*
 * The fields of pane NAME that its file fills from what it names after
 * itself (file_verb): NAME_cols (its sortable columns), NAME_ids (its
 * columns), NAME_width, NAME_head and NAME_row.
 */
#define PANE_OF(p) \
	.cols = p##_cols, .ncols = (int)(sizeof(p##_cols) / sizeof(p##_cols[0])), \
	.ids = p##_ids, .nids = (int)(sizeof(p##_ids) / sizeof(p##_ids[0])), \
	.width = p##_width, .head = p##_head, .row = p##_row

extern const struct pane pane_latency;
extern const struct pane pane_snoop;

/*
 * Cells of the column table on the screen (pane_cell.c): each column's
 * screen header, width and format, as output/columns.c says.
 */
/* Not left out by --show or --hide. */
/* Why pane @p shows one line for @m instead of its rows, or NULL. */
const char *pane_why(const struct pane *p, const struct metrics *m);
/*
 * Where its section measures something but some of its columns shown do
 * not: "Lat(cyc) Lat(ns) n/a: why" in @buf; false (and "") when none.
 */
bool pane_note(const struct ui *ui, const struct pane *p, const struct metrics *m, char *buf,
	       size_t len);

bool pane_chosen(const struct ui *ui, enum col_id id);
/* Chosen, and present for the totals on display (the remote columns). */
bool pane_shows(const struct ui *ui, enum col_id id);
/* The width of the columns @ids[0..n) shown. */
int pane_width(const struct ui *ui, const enum col_id *ids, int n);
/* Their headers from @x, each right-aligned in its width (the sort column marked); x after. */
int pane_heads(struct ui *ui, const struct pane *p, const enum col_id *ids, int n, int y, int x);
/* Their cells of @m from @x in attributes @attr[0..n) (NULL: @base); n/a when !@ok; x after. */
int pane_cells(struct ui *ui, const enum col_id *ids, int n, int y, int x, const struct metrics *m,
	       bool ok, enum ui_attr base, const enum ui_attr *attr);
/* The cell of column @id (threshold @i of a list) of @m as text. */
void pane_format(enum col_id id, const struct metrics *m, int i, char *buf, size_t len);
extern const struct pane pane_offcore;

/* ---- the screen's state (ui.c) ---- */

struct ui {
	bool open;
	SCREEN *scr;
	struct ui_opts opts;
	bool color, utf8;
	attr_t attr[UA__COUNT];
	const struct ui_glyphs *g;

	struct ui_snap live;            /* the latest frame */
	struct ui_snap frozen;          /* the frame shown while paused */
	bool paused;
	struct ui_history hist;         /* the history view's frames */
	bool history;                   /* the history view is shown ('H') */
	/* The contended lines' view ('L', lines.c) */
	bool lines;
	bool line_detail;               /* ... a line's detail (Enter) */
	int lsort;                      /* its sort column (enum shcol_id) */
	bool lreverse;
	int lsel, ltop;                 /* the line chosen and the first shown, in the order shown */
	uint64_t lsel_addr;             /* ... the line chosen: followed from frame to frame */

	bool visible[UI_MAX_PANES];
	bool per_core;
	int sort;                       /* index into cols[] */
	bool reverse;                   /* the sort order reversed ('I', 'R'); n/a stays last */
	const struct ui_col *cols[UI_MAX_COLS];  /* [0] is CPU */
	int col_pane[UI_MAX_COLS];      /* the pane of each, -1 for CPU */
	int ncols;
	int top;                        /* first row shown */
	int page;                       /* rows shown in the smallest pane, last layout */
	bool help;
	int help_top;                   /* first line of the help shown */
	bool prompt;
	bool pfresh;             /* the prefilled list is untouched: typing replaces it */
	bool pjump;                     /* the prompt asks for a time to jump to (replay) */
	double jump_t;
	bool cursor;                    /* the cursor is shown (at the prompt) */
	char pbuf[160];
	int plen;
	char msg[512];
	double msg_until;               /* CLOCK_MONOTONIC */
	unsigned long msg_state;        /* ui_state() when it was set */
	bool msg_tied;                  /* it speaks of the screen's state: goes when it changes */
	bool dirty;

	double interval_s;
	unsigned thresh[THRESH_MAX];
	int nthresh;

	int *order;                     /* row indices as sorted */
	int order_cap;
};

/* The panes, in the order of their toggles; the CPU (or Core) column, first of cols[]. */
extern const struct pane *const ui_panes[UI_MAX_PANES];
extern const struct ui_col ui_col_cpu;

/* CLOCK_MONOTONIC, in seconds. */
double ui_now(void);
/*
 * Show @msg on the status line for a while, or until what it spoke of
 * changes (the sort, the panes, per CPU or core, the thresholds, pause);
 * ui_message's, which speak of the measurement, for a while.
 */
void ui_set_message(struct ui *ui, const char *msg);
/* Is the message still to be shown? */
bool ui_message_shown(const struct ui *ui);
/* The frame on display: the frozen one while paused. */
const struct ui_snap *ui_shown(const struct ui *ui);
/* Is @c the sort column? */
bool ui_sorted(const struct ui *ui, const struct ui_col *c);
/* Is sort column @c on the screen now (its pane shown, its threshold in the frame)? */
bool ui_col_shown(const struct ui *ui, int c);
/* The header of sort column @c: "HITM/s", ">128" ("CPU", "Core" per core). */
void ui_col_name(const struct ui *ui, const struct ui_col *c, char *buf, size_t len);
/* Forget the HITM history (both the live and the frozen one). */
void ui_reset_history(struct ui *ui);

/* ---- the contended lines (lines.c) ---- */

/* The lines view, or the detail of the line chosen, in the box (y, x, w, h). */
void lines_draw(struct ui *ui, const struct ui_snap *s, int y, int x, int w, int h);
/* How many of the @h lines below the CPU panes the lines pane takes (0: none). */
int lines_pane_height(const struct ui_snap *s, int h);
/* The pane: the costliest lines, in the box. */
void lines_pane(struct ui *ui, const struct ui_snap *s, int y, int x, int w, int h);
/* Its keys (keys_table[]): the view's toggle, and in the view the others. */
enum ui_action lines_toggle(struct ui *ui, int ch);
enum ui_action lines_move(struct ui *ui, int ch);
enum ui_action lines_enter(struct ui *ui, int ch);
enum ui_action lines_back(struct ui *ui, int ch);
enum ui_action lines_sort(struct ui *ui, int ch);
enum ui_action lines_reverse(struct ui *ui, int ch);

/* ---- layout (layout.c) ---- */

/* Where each pane goes on this screen, for this frame. */
struct ui_layout {
	int nhead;                              /* header lines */
	int n;                                  /* panes shown */
	const struct pane *pane[UI_MAX_PANES];
	struct pane_view view[UI_MAX_PANES];
	bool sep[UI_MAX_PANES];                 /* a separator left of it */
	bool compact[UI_MAX_PANES];             /* measures nothing here: one line, the reason */
	int lw;
	int window;                             /* rows shown: what scrolling moves over */
	int lines_y, lines_h;                   /* the lines pane, below the panes (lines.c) */
	int meter_y, meter_h;                   /* the lines below them */
	int ndropped;                           /* panes with no room on the screen */
	const char *dropped[UI_MAX_PANES];
};

void layout_compute(const struct ui *ui, const struct ui_snap *s, struct ui_layout *L);
/* What the status line has to say, whole, most important first ("; " between); "" for nothing. */
void layout_notes(const struct ui *ui, char *buf, size_t len);
/* Rows of @s as shown: per CPU or per core. */
int layout_nrows(const struct ui *ui, const struct ui_snap *s);
/* Draw the whole screen (or the help) from the state, in one doupdate(). */
void layout_draw(struct ui *ui);

/* ---- keys (keys.c) ---- */

/* A key typed (or KEY_RESIZE): the action for the main loop, UI_NONE for none. */
enum ui_action keys_handle(struct ui *ui, int ch);

/* ---- the key table (keys.c) ---- */

/* Where a key acts. */
enum key_when {
	KW_LIVE    = 1 << 0,    /* measuring */
	KW_REPLAY  = 1 << 1,    /* replaying a recording (ui_opts.replay) */
	KW_ALL     = KW_LIVE | KW_REPLAY,
	KW_HISTORY = 1 << 2,    /* only in the history view */
	KW_PANES   = 1 << 3,    /* its keys are the panes' toggles, its name too */
	KW_STEPS   = 1 << 4,    /* its help has a %s: the interval steps */
	KW_SPEEDS  = 1 << 5,    /* its help has two %g: the replay's slowest and fastest */
	KW_TERMINAL = 1 << 6,   /* the terminal's key, not the screen's (Ctrl-Z: SIGTSTP) */
	KW_LINES   = 1 << 7,    /* only in the lines view ('L') */
};

/* A key, or keys that do one thing, and what it does. */
struct key_row {
	int keys[8];            /* the codes it answers, 0-ended */
	int named;              /* the first @named name it in the help; the others are aliases */
	unsigned when;          /* KW_* */
	/* What it does: the action for the main loop, UI_NONE for none. */
	enum ui_action (*run)(struct ui *ui, int ch);
	enum ui_action act;     /* without run: the action */
	const char *say;        /* a message for the status line, or NULL */
	const char *help;       /* NULL: not listed (a key of a view its own row explains) */
};

extern const struct key_row keys_table[];
extern const int keys_count;

/* Is @k in the list of keys of @mode (KW_LIVE or KW_REPLAY)? */
bool keys_listed(const struct key_row *k, unsigned mode);
/* Its name ("1 2 3" for the panes' toggles) and its help, the steps filled in. */
void keys_name(const struct key_row *k, char *buf, size_t len);
void keys_help(const struct key_row *k, char *buf, size_t len);
/* The panes' toggles as the help writes them: "1 2 3". */
void keys_toggles(char *buf, size_t len);

/* ---- the help screen (help.c) ---- */

void help_draw(struct ui *ui);
/* Scroll the help by a key; false when the key is not a scrolling one. */
bool help_scroll(struct ui *ui, int key);

/* ---- drawing (draw.c) ---- */

void draw_init(struct ui *ui);
/* @s at (y, x), at most @w cells, with @attr; cells drawn. */
int draw_text(struct ui *ui, int y, int x, int w, enum ui_attr attr, const char *s);
/* @s right-aligned in @w cells. */
void draw_right(struct ui *ui, int y, int x, int w, enum ui_attr attr, const char *s);
/* How much of @s a line of @w characters takes: up to a space (a longer word is cut). */
int draw_cut(const char *s, int w);
/* Blank cells with @attr. */
void draw_fill(struct ui *ui, int y, int x, int w, enum ui_attr attr);
/* A horizontal bar of @frac (0..1) of @w cells; NAN draws nothing. */
void draw_bar(struct ui *ui, int y, int x, int w, double frac, enum ui_attr attr);
/* @n values, newest last, right-aligned in @w cells, scaled to @max. */
void draw_spark(struct ui *ui, int y, int x, int w, const double *v, int n, double max,
		enum ui_attr attr);
/* A vertical separator of @h cells. */
void draw_vline(struct ui *ui, int y, int x, int h);
/* A cell that the CPU cannot measure, right-aligned. */
void draw_na(struct ui *ui, int y, int x, int w);

#endif
