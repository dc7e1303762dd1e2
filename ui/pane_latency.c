/*
 * pane_latency.c: the load-latency pane: (named by --show) the clock and
 * IPC, as turbostat puts them beside its counters; loads retired per second, the
 * loads above each threshold (a number and a bar of their share of all
 * loads, one cell per threshold of the frame) and the estimated mean.
 * The hardware counts tagged loads only (pmu-facts 8.1): the bar is the
 * share of tagged loads slower than N, the number that share times
 * Loads/s, an estimate; ~Mean is the middle of the mean's bounds.  An
 * estimate from few tagged loads (metrics_above_unsure) is drawn dim, with
 * a "?" after its number where the cell has room.
 *
 * Draws only inside the box it is given; the thresholds come from the
 * frame.  Knows nothing of the other panes or of the layout.
 */
#include <stdio.h>
#include <string.h>

#include "ui/ui_internal.h"

/* The threshold cells: at least the number, a cell of bar from CELL_BAR on. */
#define CELL_MIN (columns[COL_ABOVE].screen.width)      /* " 270M" */
#define CELL_BAR (CELL_MIN + 2)                         /* " 270M " and one cell of bar */
#define CELL_PREF 11
#define CELL_MAX 20

/* The columns before the thresholds' (GHz and IPC only when --show names them), then ~Mean. */
static const enum col_id latency_ids[] = { COL_GHZ, COL_IPC, COL_LOADS, COL_ABOVE, COL_MEAN };
#define NLEAD 3
#define MEAN (&latency_ids[NLEAD + 1])

static const struct ui_col latency_cols[] = {
	{ NULL, &columns[COL_GHZ], 0 },
	{ NULL, &columns[COL_IPC], 0 },
	{ NULL, &columns[COL_LOADS], 0 },
	UI_COL_LIST(COL_ABOVE),
	{ NULL, &columns[COL_MEAN], 0 },
};

/* The width of column @id, 0 when --show or --hide leave it out. */
static int latency_w(const struct ui *ui, enum col_id id)
{
	return pane_shows(ui, id) ? columns[id].screen.width : 0;
}

static int latency_nthresh(const struct ui *ui)
{
	const struct ui_snap *s = ui_shown(ui);
	int n = s && s->valid && pane_shows(ui, COL_ABOVE) ? s->f.total.lat.nthresh : 0;

	return n < 0 ? 0 : n > THRESH_MAX ? THRESH_MAX : n;
}

static void latency_width(const struct ui *ui, int *pref, int *max)
{
	int n = latency_nthresh(ui), wl = pane_width(ui, latency_ids, NLEAD);
	int wm = latency_w(ui, COL_MEAN);

	*pref = wl + n * CELL_PREF + wm;
	*max = wl + n * CELL_MAX + wm;
}

/* Width of one threshold cell when the pane is @w wide. */
static int latency_cell(const struct ui *ui, int w)
{
	int n = latency_nthresh(ui);
	int c;

	if (!n)
		return 0;
	/* and a blank column at the end */
	c = (w - pane_width(ui, latency_ids, NLEAD) - latency_w(ui, COL_MEAN) - 1) / n;
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

	numfmt_si(si, sizeof(si), t, 1);
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
	int wl = pane_width(ui, latency_ids, NLEAD), wm = latency_w(ui, COL_MEAN);
	int xm = x + wl + n * c;

	(void)v;
	draw_fill(ui, y, x, w, UA_COLHDR);
	pane_heads(ui, &pane_latency, latency_ids, NLEAD, y, x);
	/* Too narrow for a header per threshold: one for them all, ">8..512", when it fits. */
	level = latency_style(s, n, c - 1);
	if (n && level < 0) {
		char h[32];

		snprintf(h, sizeof(h), ">%u..%u", s->f.total.lat.thresholds[0],
			 s->f.total.lat.thresholds[n - 1]);
		if ((int)strlen(h) <= n * c - 1)
			draw_text(ui, y, x + wl + 1, n * c - 1, UA_COLHDR, h);
		n = 0;
	}
	for (int i = 0; i < n; i++) {
		char h[24];

		const struct ui_col *sc = ui->cols[ui->sort];
		enum ui_attr a = sc->col == &columns[COL_ABOVE] && sc->thr == i ? UA_COLHDR_SORT :
				 UA_COLHDR;

		latency_label(h, sizeof(h), s->f.total.lat.thresholds[i], level);
		/* Ending over the number when there is one, else over the bar. */
		if (c >= CELL_MIN) {
			int start = CELL_MIN - (int)strlen(h);

			if (start < 1)
				start = 1;
			draw_text(ui, y, x + wl + i * c + start, c - start, a, h);
		} else {
			draw_text(ui, y, x + wl + i * c + 1, c - 1, a, h);
		}
	}
	if (xm + wm <= x + w)
		pane_heads(ui, &pane_latency, MEAN, 1, y, xm);
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
	int wl = pane_width(ui, latency_ids, NLEAD), wm = latency_w(ui, COL_MEAN);
	int xm = x + wl + n * c;
	enum ui_attr base = r->total ? UA_TOTAL : UA_NORMAL;
	bool ok = r->ok && m->lat.supported;
	char b[32];

	(void)v;
	pane_cells(ui, latency_ids, NLEAD, y, x, m, ok, base, NULL);
	for (int i = 0; i < n; i++) {
		int cx = x + wl + i * c;
		bool unsure;
		enum ui_attr bar;

		if (!ok) {
			draw_na(ui, y, cx, c >= CELL_MIN ? CELL_MIN : c);
			continue;
		}
		unsure = metrics_above_unsure(m, i);
		bar = unsure ? UA_DIM : latency_bar_attr(i, n);
		if (c >= CELL_MIN) {
			pane_format(COL_ABOVE, m, i, b, sizeof(b));
			draw_right(ui, y, cx, CELL_MIN, unsure ? UA_DIM : base, b);
		}
		/* In the blank between the number and its bar: dim alone may not show. */
		if (unsure && c > CELL_MIN)
			draw_text(ui, y, cx + CELL_MIN, 1, UA_DIM, "?");
		if (c >= CELL_BAR)
			draw_bar(ui, y, cx + CELL_MIN + 1, c - CELL_MIN - 1, m->lat.above_share[i], bar);
		else if (c < CELL_MIN)
			draw_bar(ui, y, cx + 1, c - 1, m->lat.above_share[i], bar);
	}
	if (xm + wm <= x + w)
		pane_cells(ui, MEAN, 1, y, xm, m, ok, base, NULL);
}

const struct pane pane_latency = {
	.name = "Load latency", .what = "load latency", .toggle = '1',
	.about = "loads/s slower than N core cycles, estimated from tagged loads; bar: share; "
		 "?: few tagged loads",
	PANE_OF(latency), .section = CS_LATENCY,
};
