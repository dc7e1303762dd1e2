/*
 * pane_snoop.c: the snoop pane: reads or loads served by another core, clean
 * (Hit/s; on the Atoms another module) or from a modified line (HITM/s),
 * the HITM share, where measured the same from another package (RHit/s,
 * RHITM/s), and a
 * sparkline of each row's recent HITM/s.  A row whose HITM/s is far above
 * its own recent median is highlighted: a burst of false sharing.
 *
 * Reads the history through the screen (ui_shown/snap_hist); the key
 * table's `r` forgets it.  Draws only inside the box it is given.
 */
#include <math.h>
#include <stdlib.h>

#include "ui/ui_internal.h"

/* Its columns: the numbers, then the history in the rest of the pane. */
static const enum col_id snoop_ids[] = {
	COL_HIT, COL_HITM, COL_HITM_SHARE, COL_RMT_HIT, COL_RMT_HITM, COL_HISTORY,
};
#define NIDS ((int)(sizeof(snoop_ids) / sizeof(snoop_ids[0])))
#define NNUM (NIDS - 1)

/* A burst: this many times the median of the previous samples, and this much above it. */
#define HOT_RATIO 3.0
#define HOT_ABOVE 1e4
#define HOT_MIN_SAMPLES 3

static const struct ui_col snoop_cols[] = {
	{ NULL, &columns[COL_HIT], 0 },
	{ NULL, &columns[COL_HITM], 0 },
	{ NULL, &columns[COL_HITM_SHARE], 0 },
	{ NULL, &columns[COL_RMT_HIT], 0 },
	{ NULL, &columns[COL_RMT_HITM], 0 },
};

/* The numbers' width, up to the history. */
static int snoop_fixed(const struct ui *ui)
{
	return pane_width(ui, snoop_ids, NNUM) + 1;
}

static void snoop_width(const struct ui *ui, int *pref, int *max)
{
	*pref = snoop_fixed(ui);
	if (pane_shows(ui, COL_HISTORY))
		*pref += UI_HIST + 1;    /* and a blank column after it */
	*max = *pref;
}

static int snoop_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The largest sample of any CPU (or core) row: one scale for all of them. */
static void snoop_prepare(const struct ui *ui, struct pane_view *v)
{
	const struct ui_snap *s = ui_shown(ui);
	int n = ui->per_core ? s->f.ncore : s->f.ncpu;
	double h[UI_HIST];

	v->scale = 0;
	for (int i = 0; i < n; i++) {
		int k = snap_hist(s, snap_hist_row(s, ui->per_core, i), h, UI_HIST);

		for (int j = 0; j < k; j++)
			if (h[j] > v->scale)
				v->scale = h[j];
	}
}

static void snoop_head(struct ui *ui, const struct pane_view *v, int y, int x, int w)
{
	int fixed = snoop_fixed(ui);

	(void)v;
	draw_fill(ui, y, x, w, UA_COLHDR);
	pane_heads(ui, &pane_snoop, snoop_ids, NNUM, y, x);
	if (w > fixed && pane_shows(ui, COL_HISTORY))
		draw_text(ui, y, x + fixed, w - fixed, UA_COLHDR, columns[COL_HISTORY].screen.head);
}

/* Is the newest sample of @h (n of them) far above the median of the others? */
static bool snoop_hot(const double *h, int n)
{
	double prev[UI_HIST], med, cur;
	int k = 0;

	if (n < HOT_MIN_SAMPLES + 1 || isnan(h[n - 1]))
		return false;
	cur = h[n - 1];
	for (int i = 0; i < n - 1; i++)
		if (!isnan(h[i]))
			prev[k++] = h[i];
	if (k < HOT_MIN_SAMPLES)
		return false;
	qsort(prev, k, sizeof(*prev), snoop_cmp);
	med = k % 2 ? prev[k / 2] : (prev[k / 2 - 1] + prev[k / 2]) / 2;
	return cur > HOT_RATIO * med && cur - med > HOT_ABOVE;
}

static void snoop_row(struct ui *ui, const struct pane_view *v, int y, int x, int w,
		      const struct pane_row *r)
{
	const struct metrics *m = r->m;
	const struct ui_snap *s = ui_shown(ui);
	double h[UI_HIST], scale = v->scale, share;
	int n = snap_hist(s, r->hist, h, UI_HIST);
	int fixed = snoop_fixed(ui);
	enum ui_attr base, attr[NNUM];
	bool hot;

	if (!r->ok || !m->snoop.supported) {
		pane_cells(ui, snoop_ids, NNUM, y, x, m, false, UA_NORMAL, NULL);
		return;
	}
	hot = snoop_hot(h, n);
	base = hot ? UA_HOT : r->total ? UA_TOTAL : UA_NORMAL;
	share = columns_value(&columns[COL_HITM_SHARE], m, 0);
	for (int k = 0; k < NNUM; k++)
		attr[k] = snoop_ids[k] == COL_HITM ? (hot ? UA_HOT_CELL : base) :
			  snoop_ids[k] != COL_HITM_SHARE ? base :
			  hot ? UA_HOT : !isnan(share) && share >= 50 ? UA_WARN : base;
	pane_cells(ui, snoop_ids, NNUM, y, x, m, true, base, attr);
	if (w > fixed + 1 && pane_shows(ui, COL_HISTORY)) {
		if (r->total) {
			/* The total has its own scale: it is the sum of the others. */
			scale = 0;
			for (int i = 0; i < n; i++)
				if (h[i] > scale)
					scale = h[i];
		}
		int sw = w - fixed - 1 > UI_HIST ? UI_HIST : w - fixed - 1;

		draw_spark(ui, y, x + fixed, sw, h, n, scale, hot ? UA_BAR_HIGH : UA_SPARK);
	}
	/* The label column is the screen's: make the whole row stand out. */
	if (hot)
		mvchgat(y, v->x, v->lw, ui->attr[UA_HOT] & ~A_COLOR,
			(short)PAIR_NUMBER(ui->attr[UA_HOT]), NULL);
}

const struct pane pane_snoop = {
	.name = "Snoop", .what = "snoop", .toggle = '2',
	.about = "reads served by another core, clean or modified (R: another package)",
	PANE_OF(snoop), .section = CS_SNOOP,
	.prepare = snoop_prepare,
};
