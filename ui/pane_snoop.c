/*
 * pane_snoop.c: the snoop pane: demand reads served by another core, clean
 * (Hit/s; on the Atoms another module) or from a modified line (HITM/s),
 * the HITM share, where measured the same from another package (RHit/s,
 * RHITM/s), and a
 * sparkline of each row's recent HITM/s.  A row whose HITM/s is far above
 * its own recent median is highlighted: a burst of false sharing.
 *
 * Reads the history through the screen (ui_shown/snap_hist); owns the `r`
 * key that forgets it.  Draws only inside the box it is given.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ui/ui_internal.h"

#define W_HIT   8               /* "   Hit/s" */
#define W_HITM  8               /* "  HITM/s" */
#define W_SHARE 7               /* "  HITM%" */
#define W_RHIT  8               /* "  RHit/s" */
#define W_RHITM 9               /* " RHITM/s" */
#define W_LOCAL (W_HIT + W_HITM + W_SHARE)
#define W_REMOTE (W_RHIT + W_RHITM)

/* A burst: this many times the median of the previous samples, and this much above it. */
#define HOT_RATIO 3.0
#define HOT_ABOVE 1e4
#define HOT_MIN_SAMPLES 3

static double snoop_hit(const struct metrics *m)
{
	return m->snoop.supported ? m->snoop.hit_per_sec : NAN;
}

static double snoop_hitm(const struct metrics *m)
{
	return m->snoop.supported ? m->snoop.hitm_per_sec : NAN;
}

/* HITM share of the snoop responses, in percent; NAN without any. */
static double snoop_share(const struct metrics *m)
{
	double all;

	if (!m->snoop.supported)
		return NAN;
	all = m->snoop.hit_per_sec + m->snoop.hitm_per_sec;
	return all > 0 ? 100 * m->snoop.hitm_per_sec / all : NAN;
}

static const struct ui_col snoop_cols[] = {
	{ "Hit/s", snoop_hit },
	{ "HITM/s", snoop_hitm },
	{ "HITM%", snoop_share },
};

/* Reads another package served: columns of their own where they are measured. */
static bool snoop_remote(const struct ui *ui)
{
	const struct ui_snap *s = ui_shown(ui);

	return s && s->valid && s->f.total.snoop.remote.supported;
}

/* The numbers' width, up to the history. */
static int snoop_fixed(const struct ui *ui)
{
	return W_LOCAL + (snoop_remote(ui) ? W_REMOTE : 0) + 1;
}

static void snoop_width(const struct ui *ui, int *pref, int *max)
{
	*pref = snoop_fixed(ui) + UI_HIST + 1;    /* and a blank column after it */
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
	static const int cw[] = { W_HIT, W_HITM, W_SHARE };
	int cx = x, fixed = snoop_fixed(ui);

	(void)v;
	draw_fill(ui, y, x, w, UA_COLHDR);
	for (int i = 0; i < 3; i++) {
		draw_right(ui, y, cx, cw[i],
			   ui_sorted(ui, &snoop_cols[i]) ? UA_COLHDR_SORT : UA_COLHDR,
			   snoop_cols[i].name);
		cx += cw[i];
	}
	if (snoop_remote(ui)) {
		draw_right(ui, y, cx, W_RHIT, UA_COLHDR, "RHit/s");
		draw_right(ui, y, cx + W_RHIT, W_RHITM, UA_COLHDR, "RHITM/s");
	}
	if (w > fixed)
		draw_text(ui, y, x + fixed, w - fixed, UA_COLHDR, "History");
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
	bool hot, remote = snoop_remote(ui);
	int fixed = snoop_fixed(ui);
	enum ui_attr base;
	char b[32];

	if (!r->ok || !m->snoop.supported) {
		draw_na(ui, y, x, W_HIT);
		draw_na(ui, y, x + W_HIT, W_HITM);
		draw_na(ui, y, x + W_HIT + W_HITM, W_SHARE);
		if (remote) {
			draw_na(ui, y, x + W_LOCAL, W_RHIT);
			draw_na(ui, y, x + W_LOCAL + W_RHIT, W_RHITM);
		}
		return;
	}
	hot = snoop_hot(h, n);
	base = hot ? UA_HOT : r->total ? UA_TOTAL : UA_NORMAL;
	draw_si(b, sizeof(b), m->snoop.hit_per_sec);
	draw_right(ui, y, x, W_HIT, base, b);
	draw_si(b, sizeof(b), m->snoop.hitm_per_sec);
	draw_right(ui, y, x + W_HIT, W_HITM, hot ? UA_HOT_CELL : base, b);
	share = snoop_share(m);
	if (isnan(share))
		snprintf(b, sizeof(b), "-");
	else
		snprintf(b, sizeof(b), "%.1f%%", share);
	draw_right(ui, y, x + W_HIT + W_HITM, W_SHARE,
		   hot ? UA_HOT : !isnan(share) && share >= 50 ? UA_WARN : base, b);
	if (remote) {
		draw_si(b, sizeof(b), m->snoop.remote.hit_per_sec);
		draw_right(ui, y, x + W_LOCAL, W_RHIT, base, b);
		draw_si(b, sizeof(b), m->snoop.remote.hitm_per_sec);
		draw_right(ui, y, x + W_LOCAL + W_RHIT, W_RHITM, base, b);
	}
	if (w > fixed + 1) {
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

static const char *snoop_reason(const struct metrics *m)
{
	return m->snoop.supported ? NULL : m->snoop.reason ? m->snoop.reason : "not measured";
}

static bool snoop_key(struct ui *ui, int ch)
{
	if (ch != 'r')
		return false;
	ui_reset_history(ui);
	return true;
}

const struct pane pane_snoop = {
	.name = "Snoop",
	.what = "snoop",
	.about = "reads served by another core, clean or modified (R: another package)",
	.toggle = '2',
	.cols = snoop_cols,
	.ncols = sizeof(snoop_cols) / sizeof(snoop_cols[0]),
	.width = snoop_width,
	.prepare = snoop_prepare,
	.head = snoop_head,
	.row = snoop_row,
	.reason = snoop_reason,
	.key = snoop_key,
};
