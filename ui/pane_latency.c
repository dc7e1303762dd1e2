/*
 * pane_latency.c: the load-latency pane: loads retired per second, the
 * loads above each threshold (a number and a bar of their share of all
 * loads, one cell per threshold of the frame) and the estimated mean.
 * The hardware counts tagged loads only (pmu-facts 8.1): the bar is the
 * share of tagged loads slower than N, the number that share times
 * Loads/s, an estimate; ~Mean is the middle of the mean's bounds.
 *
 * Draws only inside the box it is given; the thresholds come from the
 * frame.  Knows nothing of the other panes or of the layout.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/ui_internal.h"

#define W_LOADS 8               /* " Loads/s" */
#define W_MEAN  9               /* "    ~Mean", "   20-40" */
#define CELL_MIN 5              /* " 270M" */
#define CELL_BAR 7              /* " 270M " and one cell of bar */
#define CELL_PREF 11
#define CELL_MAX 20

static double latency_loads(const struct metrics *m)
{
	return m->lat.supported ? m->lat.loads_per_sec : NAN;
}

static double latency_mean(const struct metrics *m)
{
	return m->lat.supported ? m->lat.mean_cycles_est : NAN;
}

static const struct ui_col latency_cols[] = {
	{ "Loads/s", latency_loads },
	{ "~Mean", latency_mean },
};

static int latency_nthresh(const struct ui *ui)
{
	const struct ui_snap *s = ui_shown(ui);
	int n = s && s->valid ? s->f.total.lat.nthresh : 0;

	return n < 0 ? 0 : n > PLAN_MAX_THRESH ? PLAN_MAX_THRESH : n;
}

static void latency_width(const struct ui *ui, int *pref, int *max)
{
	int n = latency_nthresh(ui);

	*pref = W_LOADS + n * CELL_PREF + W_MEAN;
	*max = W_LOADS + n * CELL_MAX + W_MEAN;
}

/* Width of one threshold cell when the pane is @w wide. */
static int latency_cell(const struct ui *ui, int w)
{
	int n = latency_nthresh(ui);
	int c;

	if (!n)
		return 0;
	c = (w - W_LOADS - W_MEAN - 1) / n;     /* and a blank column at the end */
	if (c > CELL_MAX)
		c = CELL_MAX;
	return c < 2 ? 2 : c;
}

/*
 * The header of a threshold in style @level: ">1536", "1536", ">1.5k",
 * "1.5k".  Every header of the pane uses the same style: the first in
 * which they all fit (latency_style).
 */
static void latency_label(char *buf, size_t len, unsigned t, int level)
{
	char si[16];

	draw_si(si, sizeof(si), t);
	switch (level) {
	case 0: snprintf(buf, len, ">%u", t); break;
	case 1: snprintf(buf, len, "%u", t); break;
	case 2: snprintf(buf, len, ">%.8s", si); break;
	default: snprintf(buf, len, "%.8s", si); break;
	}
}

/* The style in which every threshold's header fits @w cells; -1: none does. */
static int latency_style(const struct ui_snap *s, int n, int w)
{
	for (int level = 0; level < 4; level++) {
		int i;

		for (i = 0; i < n; i++) {
			char h[24];

			latency_label(h, sizeof(h), s->f.total.lat.thresholds[i], level);
			if ((int)strlen(h) > w)
				break;
		}
		if (i == n)
			return level;
	}
	return -1;
}

static void latency_head(struct ui *ui, const struct pane_view *v, int y, int x, int w)
{
	const struct ui_snap *s = ui_shown(ui);
	int n = latency_nthresh(ui), c = latency_cell(ui, w), level;
	int xm = x + W_LOADS + n * c;

	(void)v;
	draw_fill(ui, y, x, w, UA_COLHDR);
	draw_right(ui, y, x, W_LOADS, ui_sorted(ui, &latency_cols[0]) ? UA_COLHDR_SORT : UA_COLHDR,
		   latency_cols[0].name);
	/* Too narrow for a header per threshold: one for them all, ">8..512", when it fits. */
	level = latency_style(s, n, c - 1);
	if (n && level < 0) {
		char h[32];

		snprintf(h, sizeof(h), ">%u..%u", s->f.total.lat.thresholds[0],
			 s->f.total.lat.thresholds[n - 1]);
		if ((int)strlen(h) <= n * c - 1)
			draw_text(ui, y, x + W_LOADS + 1, n * c - 1, UA_COLHDR, h);
		n = 0;
	}
	for (int i = 0; i < n; i++) {
		char h[24];

		latency_label(h, sizeof(h), s->f.total.lat.thresholds[i], level);
		/* Ending over the number when there is one, else over the bar. */
		if (c >= CELL_MIN) {
			int start = CELL_MIN - (int)strlen(h);

			if (start < 1)
				start = 1;
			draw_text(ui, y, x + W_LOADS + i * c + start, c - start, UA_COLHDR, h);
		} else {
			draw_text(ui, y, x + W_LOADS + i * c + 1, c - 1, UA_COLHDR, h);
		}
	}
	if (xm + W_MEAN <= x + w)
		draw_right(ui, y, xm, W_MEAN,
			   ui_sorted(ui, &latency_cols[1]) ? UA_COLHDR_SORT : UA_COLHDR,
			   latency_cols[1].name);
}

static enum ui_attr latency_bar_attr(int i, int n)
{
	int band = n > 1 ? i * 3 / n : 0;

	return band == 0 ? UA_BAR_LOW : band == 1 ? UA_BAR_MID : UA_BAR_HIGH;
}

static void latency_row(struct ui *ui, const struct pane_view *v, int y, int x, int w,
		    const struct pane_row *r)
{
	const struct metrics *m = r->m;
	int n = latency_nthresh(ui), c = latency_cell(ui, w);
	int xm = x + W_LOADS + n * c;
	enum ui_attr base = r->total ? UA_TOTAL : UA_NORMAL;
	bool ok = r->ok && m->lat.supported;
	char b[32];

	(void)v;
	if (!ok) {
		draw_na(ui, y, x, W_LOADS);
		for (int i = 0; i < n; i++)
			draw_na(ui, y, x + W_LOADS + i * c, c >= CELL_MIN ? CELL_MIN : c);
		if (xm + W_MEAN <= x + w)
			draw_na(ui, y, xm, W_MEAN);
		return;
	}
	draw_si(b, sizeof(b), m->lat.loads_per_sec);
	draw_right(ui, y, x, W_LOADS, base, b);
	for (int i = 0; i < n; i++) {
		int cx = x + W_LOADS + i * c;
		double above = m->lat.above_per_sec[i];
		double share = m->lat.above_share[i];

		if (c >= CELL_MIN) {
			draw_si(b, sizeof(b), above);
			draw_right(ui, y, cx, CELL_MIN, base, b);
		}
		if (c >= CELL_BAR)
			draw_bar(ui, y, cx + CELL_MIN + 1, c - CELL_MIN - 1, share,
				 latency_bar_attr(i, n));
		else if (c < CELL_MIN)
			draw_bar(ui, y, cx + 1, c - 1, share, latency_bar_attr(i, n));
	}
	if (xm + W_MEAN <= x + w) {
		double mean = m->lat.mean_cycles_est;

		/* The bounds far apart: their range, not a middle that means little. */
		if (!isnan(mean) && metrics_mean_is_range(m)) {
			char lo[16], hi[16];

			draw_si(lo, sizeof(lo), m->lat.mean_cycles_min);
			draw_si(hi, sizeof(hi), m->lat.mean_cycles_max);
			snprintf(b, sizeof(b), "%s-%s", lo, hi);
		} else {
			draw_fixed(b, sizeof(b), mean, !isnan(mean) && mean < 10 ? 1 : 0);
		}
		draw_right(ui, y, xm, W_MEAN, base, b);
	}
}

static const char *latency_reason(const struct metrics *m)
{
	return m->lat.supported ? NULL : m->lat.reason ? m->lat.reason : "not measured";
}

const struct pane pane_latency = {
	.name = "Load latency",
	.what = "load latency",
	.about = "loads/s slower than N core cycles, estimated from tagged loads; bar: share",
	.toggle = '1',
	.cols = latency_cols,
	.ncols = sizeof(latency_cols) / sizeof(latency_cols[0]),
	.width = latency_width,
	.prepare = NULL,
	.head = latency_head,
	.row = latency_row,
	.reason = latency_reason,
	.key = NULL,
};
