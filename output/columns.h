/*
 * columns.h: the output fields, one row each (turbostat's bic[]): the name
 * --show and --hide take, the unit, the JSON key and its section, the text
 * and screen headers with their widths and formats, the help.  The text,
 * csv and JSON writers (report.c), the screen's panes and its help, and
 * --show/--hide all read this table; a field added here appears everywhere.
 *
 * The csv header is not stored: it is the JSON key with its section,
 * "snoop.hitm_per_sec", and a list's threshold, "load_latency.above_share.128"
 * (columns_csv_head).
 */
#ifndef LATTOP_COLUMNS_H
#define LATTOP_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/metrics.h"
#include "engine/sharing.h"

/* The fields, in the order every output lists them. */
enum col_id {
	COL_TIME, COL_CPU, COL_CORE, COL_PACKAGE,
	COL_GHZ, COL_IPC,
	COL_LOADS, COL_TAGGED, COL_TAGGED_COUNT, COL_THRESHOLDS, COL_TAGGED_N,
	COL_ABOVE_SHARE, COL_ABOVE_SHARE_SE, COL_ABOVE, COL_ABOVE_SE, COL_MEAN,
	COL_MEAN_MIN, COL_MEAN_MAX,
	COL_HIT, COL_HITM, COL_HIT_SCOPE, COL_HITM_SCOPE, COL_HITM_SHARE,
	COL_RMT_HIT, COL_RMT_HITM, COL_HISTORY,
	COL_READS, COL_OFF_CYCLES, COL_OFF_NS,
	COL__COUNT
};

/* The JSON object a field is a key of; NONE: the CPU's object itself. */
enum col_section { CS_NONE, CS_LATENCY, CS_SNOOP, CS_REMOTE, CS_OFFCORE, CS__COUNT };

struct col_section_desc {
	const char *key;                /* "remote" */
	enum col_section parent;
	bool unsupported;               /* has an "unsupported" object */
	bool (*supported)(const struct metrics *m);
	const char *(*reason)(const struct metrics *m);
};

extern const struct col_section_desc col_sections[CS__COUNT];

/* What a field holds. */
enum col_kind {
	CK_ID,          /* the row: time, cpu, core, package (not in struct metrics) */
	CK_NUM,         /* a number, NAN when not measured */
	CK_LIST,        /* a number per load-latency threshold */
	CK_THRESH,      /* the thresholds themselves (JSON) */
	CK_SCOPE,       /* a snoop scope, a string or null (JSON) */
};

/* How a number is written in a cell (text or screen). */
enum col_fmt {
	CF_NONE,
	CF_LEFT,        /* a label, left-aligned (the text's CPU and Core) */
	CF_SI,          /* "12.3M", "-" when not measured */
	CF_FIXED,       /* @dec decimals (below @dec_below, if set; none from it on) */
	CF_MEAN,        /* CF_FIXED, or "20-40" (SI bounds) where they are far apart */
	CF_PERCENT,     /* "12.5%" */
	CF_BAR,         /* the screen's >N: a number and a bar of its share */
	CF_SPARK,       /* the screen's history: the rest of the pane */
};

struct col_style {
	const char *head;               /* NULL: not shown there; "%u" in it: the threshold */
	int width;                      /* cells, the separating blank included on the screen */
	enum col_fmt fmt;
	int dec;                        /* decimals; CF_SI, CF_BAR: below 10 without a suffix */
	double dec_below;               /* 0: @dec always */
};

/* Where a field appears. */
#define COL_F_CSV       0x1
#define COL_F_JSON      0x2
#define COL_F_REMOTE    0x4     /* text and screen: only where another package is measured */
#define COL_F_OPT       0x8     /* text and csv: left out unless --show names it */
#define COL_F_SCR_OPT   0x10    /* the screen: left out unless --show names it */

struct column {
	const char *name;               /* --show, --hide; NULL: JSON only, not chosen */
	const char *unit;               /* "loads/s", "cycles", NULL for a label */
	enum col_kind kind;
	enum col_section sect;
	const char *key;                /* JSON key in its section, and the csv header */
	unsigned flags;
	size_t off;                     /* of the field in struct metrics (CK_NUM, CK_LIST, CK_SCOPE) */
	double (*calc)(const struct metrics *m);        /* instead of @off */
	/* Why this number is not measured where its section is: "unsupported" in JSON. */
	const char *(*why)(const struct metrics *m);
	struct col_style text, screen;
	const char *help;
};

extern const struct column columns[COL__COUNT];

/* A set of fields: bit COL_x set for each (--show, --hide). */
typedef unsigned long long col_set;
#define COL_ALL ((col_set)((1ull << COL__COUNT) - 1))
#define COL_BIT(id) ((col_set)1 << (id))

/* The COL_x of a row of columns[]. */
static inline enum col_id columns_id(const struct column *c)
{
	return (enum col_id)(c - columns);
}

/*
 * The field named @name, in any case: its name, or a header an output
 * prints for it (text, screen, csv; ">N" or ">128" for a list), or NULL.
 */
const struct column *columns_by_name(const char *name);

/*
 * Why section @s measures nothing in @m ("not measured" when it does not
 * say), or NULL when it measures something.
 */
const char *columns_section_why(enum col_section s, const struct metrics *m);

/* The value of field @c (threshold @i of a list) in @m, NAN when not measured. */
double columns_value(const struct column *c, const struct metrics *m, int i);

/*
 * The same for a field that is stored, not computed (CK_NUM or CK_LIST,
 * no @calc), without a call: the exporter reads one per CPU per counter
 * family each interval.
 */
static inline double columns_field(const struct column *c, const struct metrics *m, int i)
{
	return *(const double *)((const char *)m + c->off + (size_t)i * sizeof(double));
}

/* The string of a CK_SCOPE field in @m, or NULL. */
const char *columns_str(const struct column *c, const struct metrics *m);

/* The outputs --show and --hide choose columns of. */
enum col_out { COL_OUT_TEXT, COL_OUT_CSV, COL_OUT_SCREEN };

/* The value, NAN also when its section measures nothing: what the screen sorts by. */
double columns_sort_value(const struct column *c, const struct metrics *m, int i);


/* Has output @out a column for field @c? */
bool columns_in(const struct column *c, enum col_out out);

/* The fields output @out leaves out unless --show names them (COL_F_OPT, COL_F_SCR_OPT). */
col_set columns_optional(enum col_out out);

/*
 * The first field of @set output @out has no column for, or NULL: what
 * --show and --hide refuse to name.
 */
const struct column *columns_absent(col_set set, enum col_out out);

/* Is @c's text or screen column shown for these totals (the remote columns)? */
bool columns_present(const struct column *c, const struct metrics *total);

/* The csv header of @c, with threshold @t for a list: "load_latency.above_share.128". */
void columns_csv_head(const struct column *c, unsigned t, char *buf, size_t len);

/*
 * The cell of @c (threshold @i of a list) in @m, formatted as style @s
 * says, with numfmt's digits: "-" when not measured.
 */
void columns_cell(const struct column *c, const struct col_style *s,
		  const struct metrics *m, int i, char *buf, size_t len);

/*
 * The set of fields named in @list (--show, --hide).  Parsing fills @err
 * with a one-line message naming the bad name and the valid ones.
 */

int columns_parse(const char *list, col_set *out, char *err, size_t errlen);

/*
 * ---- the contended lines' columns (sharecols.c) ----
 *
 * The columns of a cache line of struct sharing_frame, as the text report
 * and the screen's lines view and pane print them: one row each, in the
 * order they are printed.  The JSON object is the line table's own
 * (output/report.c), not this table's.
 */
enum shcol_id {
	SHC_ADDR, SHC_PHYS, SHC_HITM, SHC_RHITM, SHC_LOADS, SHC_STORES, SHC_LAT,
	SHC_THREADS, SHC_CPUS, SHC_NODE, SHC_VERDICT, SHC_PROCS, SHC_SYMBOL,
	SHC__COUNT
};

struct shcol {
	const char *head;               /* text and screen */
	int width;                      /* cells; a left-aligned one takes at least this */
	bool left;                      /* a label: left-aligned, cut with "..." where it must */
	bool phys;                      /* shown only where a line of the frame has a physical address */
	bool bound;                     /* ">=N" where the frame's HITM is a lower bound (shcols_cell) */
	int rank;                       /* the screen keeps the lowest ranks where the width is short */
	/* Its value, the sort key (NAN last); NULL: not a number (sorted as text). */
	double (*value)(const struct sharing_line *l);
	void (*cell)(const struct sharing_line *l, char *buf, size_t len);
	const char *help;
};

extern const struct shcol shcols[SHC__COUNT];

/* "false", "true" or "?" (too few samples to say). */
const char *shcols_verdict(enum sharing_verdict v);

/*
 * Column @c of line @l of @fr into @buf: the column's cell, ">=" before
 * the number where @fr's HITM rates are lower bounds (hitm_lower_bound:
 * some HITM seen through the tagged loads alone).  What the text report
 * and the screen print; @fr NULL for the cell alone.
 */
void shcols_cell(const struct sharing_frame *fr, enum shcol_id c, const struct sharing_line *l,
		 char *buf, size_t len);

/* Has a line of @fr a physical address (SHC_PHYS shown)? */
bool shcols_phys(const struct sharing_frame *fr);

/*
 * Compare lines @a and @b by column @c, the largest (or, text, the first
 * in order) first, @reverse the other way: for qsort and the screen.
 */
int shcols_cmp(enum shcol_id c, bool reverse, const struct sharing_line *a,
	       const struct sharing_line *b);

/* The word @w's accesses as "R", "W" or "RW" ("-" none). */
const char *shcols_rw(const struct sharing_word *w);

/* The threads of word @w, "4243,4244" (cut with "+N" past @len). */
void shcols_tids(const struct sharing_word *w, char *buf, size_t len);

/*
 * The frame's counts as one line: "1234 samples, 0 lost, 0 throttled in
 * 1.00 s" (the title of the lines, in the text report and on the screen).
 */
void shcols_counts(const struct sharing_frame *fr, char *buf, size_t len);

#endif
