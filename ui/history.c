/*
 * history.c: the history view ('H'): each row's numbers over the last
 * HIST_LEN frames, drawn over the whole screen below the header for one
 * row at a time (the total, a CPU or a core, chosen with Up and Down).
 *
 * Owns the long history (struct ui_history): per frame its time and its
 * thresholds, per row and frame the share of loads slower than each
 * threshold, HITM/s, Hit/s and the offcore latency.  A frame's thresholds
 * are kept with it, so a change of thresholds starts a series of its own
 * and the old ones stay until they scroll out; a change of interval only
 * spaces the frames differently.  It is reset when the rows change (CPUs
 * or cores in a frame) and by 'r'.  Draws into the box it is given; owns
 * no terminal state.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ui/ui_internal.h"

#define SHARE_NONE 255          /* no such threshold in that frame, or not measured */

static int hist_rows(const struct ui_frame *f)
{
	return f->ncpu + f->ncore + 1;
}

void history_free(struct ui_history *h)
{
	free(h->s);
	memset(h, 0, sizeof(*h));
}

void history_reset(struct ui_history *h)
{
	ring_reset(&h->ring);
	h->pushed = 0;
}

static void history_sample(struct hist_sample *d, const struct row *r, const struct metrics *m)
{
	bool ok = !r || r->ok;

	for (int i = 0; i < THRESH_MAX; i++) {
		double v = i < m->lat.nthresh ? m->lat.above_share[i] : NAN;

		d->share[i] = ok && !isnan(v) ? (uint8_t)lround(fmin(fmax(v, 0), 1) * 250) : SHARE_NONE;
	}
	d->hitm = ok && m->snoop.supported ? (float)m->snoop.hitm_per_sec : NAN;
	d->hit = ok && m->snoop.supported ? (float)m->snoop.hit_per_sec : NAN;
	d->lat = ok && m->off.supported ? (float)m->off.avg_latency_cycles : NAN;
}

int history_push(struct ui_history *h, const struct ui_frame *f)
{
	int rows = hist_rows(f), k;

	if (rows != h->rows || f->ncpu != h->ncpu || f->ncore != h->ncore) {
		struct hist_sample *s = realloc(h->s, (size_t)rows * HIST_LEN * sizeof(*s));

		if (!s)
			return -1;
		h->s = s;
		h->rows = rows;
		h->ncpu = f->ncpu;
		h->ncore = f->ncore;
		ring_init(&h->ring, HIST_LEN);
		h->pushed = 0;
		if (h->sel >= rows - 1)
			h->sel = -1;
	}
	k = ring_push(&h->ring);
	h->pushed++;
	h->time[k] = f->time;
	h->nthresh[k] = f->total.lat.nthresh;
	memcpy(h->thr[k], f->total.lat.thresholds, sizeof(h->thr[k]));
	for (int i = 0; i < f->ncpu; i++)
		history_sample(&h->s[(size_t)i * HIST_LEN + k], &f->cpu[i], &f->cpu[i].m);
	for (int i = 0; i < f->ncore; i++)
		history_sample(&h->s[(size_t)(f->ncpu + i) * HIST_LEN + k], &f->core[i],
			       &f->core[i].m);
	history_sample(&h->s[(size_t)(rows - 1) * HIST_LEN + k], NULL, &f->total);
	return 0;
}

/* Up (-1) or Down (+1): the total, then the CPUs (or the cores, per core). */
bool history_select(struct ui_history *h, bool per_core, int dir)
{
	int n = per_core ? h->ncore : h->ncpu;
	int sel = h->sel + dir;

	if (sel < -1)
		sel = -1;
	if (sel > n - 1)
		sel = n - 1;
	if (sel == h->sel)
		return false;
	h->sel = sel;
	return true;
}

/* Shade of a share: 5 levels, log-spaced, so that 1% and 30% both show. */
static int shade(uint8_t q, enum ui_attr *a)
{
	double v = q / 250.0;

	*a = v >= 0.15 ? UA_BAR_HIGH : v >= 0.05 ? UA_BAR_MID : UA_BAR_LOW;
	return v >= 0.5 ? 5 : v >= 0.15 ? 4 : v >= 0.05 ? 3 : v >= 0.01 ? 2 : v > 0 ? 1 : 0;
}

static int cmp_u(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* The smallest of 1, 2, 5 times a power of ten that is at least @v (> 0; else @v). */
static double nice_ceil(double v)
{
	double p;

	if (!(v > 0) || isinf(v))
		return v;
	p = pow(10, floor(log10(v)));
	for (int i = 0; i < 3; i++) {
		double c = p * (i == 0 ? 1 : i == 1 ? 2 : 5);

		if (c >= v * (1 - 1e-9))
			return c;
	}
	return 10 * p;
}

/*
 * One graph of @hh lines: the values of the last @n frames as columns of
 * eighths, the newest on the right; or, @sweep, as a line (each value's
 * cell alone), each frame in a column of its own that the frame @w later
 * writes over, the column after the newest left blank (a heart monitor's
 * sweep): a refresh then sends a cell or two a graph, where shifting bars
 * send every column, and a bar its whole height.
 */
static void graph(struct ui *ui, int y, int x, int w, int hh, const char *name,
		  struct ui_history *h, int row, int n, int which, bool sweep)
{
	const struct hist_sample *s = &h->s[(size_t)row * HIST_LEN];
	double max = 0, min = INFINITY, lo = 0, raw_max;
	char b[48], m[24], base[24];
	int top = ui->g->nspark - 1, lw = HIST_LABEL;

	for (int i = 0; i < n; i++) {
		const struct hist_sample *d = &s[ring_slot(&h->ring, n, i)];
		double v = which == 0 ? d->hitm : which == 1 ? d->hit : d->lat;

		if (!isnan(v) && v > max)
			max = v;
		if (!isnan(v) && v < min)
			min = v;
	}
	/*
	 * Values that vary little, all in the upper half: the axis starts
	 * below the smallest, not at 0, where every column would look alike;
	 * the labels say where it starts.  Both ends are round numbers (1, 2
	 * or 5 times a power of ten, and their multiples), so that the scale
	 * stays put from one refresh to the next: a new scale redraws every
	 * cell of the graph, a steady one only what moved.
	 */
	raw_max = max;
	if (min > 0 && max > min && max - min < 0.5 * max) {
		double step = nice_ceil((max - min) / 2);

		lo = floor(min / step) * step;
		max = ceil(max / step) * step;
		if (max <= lo)
			max = lo + step;
	} else {
		max = nice_ceil(max);
	}
	/*
	 * The last scale stays while the values still fit it and fill a third
	 * of it: a scale that follows every frame redraws the whole graph.
	 */
	{
		struct hist_scale *sc = &h->scale[sweep][which];

		if (sc->row == row && sc->hi > sc->lo && min >= sc->lo && raw_max <= sc->hi &&
		    raw_max - (lo > 0 ? min : 0) >= (sc->hi - sc->lo) / 3 && (lo > 0) == (sc->lo > 0)) {
			lo = sc->lo;
			max = sc->hi;
		}
		*sc = (struct hist_scale){ row, lo, max };
	}
	numfmt_si(m, sizeof(m), max, 1);
	numfmt_si(base, sizeof(base), lo, 1);
	draw_text(ui, y, x + 1, lw - 1, UA_TITLE, name);
	snprintf(b, sizeof(b), "%s", m);
	if (hh >= 3) {
		draw_right(ui, y + 1, x, lw - 1, UA_DIM, b);
		draw_right(ui, y + hh - 1, x, lw - 1, UA_DIM, base);
	} else if (hh == 2) {
		/* One line for the scale: the range, where the axis does not start at 0. */
		if (lo > 0 && (int)(strlen(base) + 1 + strlen(m)) < lw)
			snprintf(b, sizeof(b), "%s-%s", base, m);
		draw_right(ui, y + 1, x, lw - 1, UA_DIM, b);
	} else {
		size_t l = strlen(name);

		if ((int)(l + strlen(b) + 2) < lw)
			draw_right(ui, y, x, lw - 1, UA_DIM, b);
	}
	if (sweep && n >= w)
		n = w - 1;              /* the blank column */
	for (int i = 0; i < n && i < w; i++) {
		const struct hist_sample *d = &s[ring_slot(&h->ring, n, n - (n < w ? n : w) + i)];
		double v = which == 0 ? d->hitm : which == 1 ? d->hit : d->lat;
		long e;
		int cx = x + lw + (w - (n < w ? n : w)) + i;

		if (sweep)
			cx = x + lw + (int)((h->pushed - (unsigned long)n + (unsigned long)i) % (unsigned long)w);
		if (isnan(v))
			continue;
		e = max > lo ? lround((v - lo) / (max - lo) * hh * 8) : 0;
		if (e == 0 && v > 0)
			e = 1;
		for (int k = 0; k < hh && e > 0; k++, e -= 8) {
			long lvl = (e >= 8 ? 8 : e) * top / 8;

			if (lvl < 1)
				lvl = 1;
			/* Sweeping, the value's cell alone: a line, a cell a column to send. */
			if (!sweep || e <= 8 || k == hh - 1)
				draw_text(ui, y + hh - 1 - k, cx, 1, UA_SPARK, ui->g->spark[lvl]);
		}
	}
}

static void span_text(char *buf, size_t len, double s)
{
	if (s >= 3600)
		snprintf(buf, len, "%.0fh%02.0fm", floor(s / 3600), fmod(floor(s / 60), 60));
	else if (s >= 60)
		snprintf(buf, len, "%.0fm%02.0fs", floor(s / 60), fmod(floor(s), 60));
	else
		snprintf(buf, len, "%.1fs", s);
}

/* Cells @s takes: its characters, not its bytes (the legend's blocks). */
static int cells(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/*
 * A line of @w cells: @left from its start, in @a, and @right at its end
 * only where both fit with two blanks between; never one over the other.
 */
static void history_line(struct ui *ui, int y, int x, int w, enum ui_attr a, const char *left,
			 const char *right)
{
	int lw = draw_text(ui, y, x + 1, w - 1, a, left);

	if (right && 1 + lw + 2 + cells(right) <= w)
		draw_right(ui, y, x, w, UA_DIM, right);
}

/* The row of the history shown (the selected one) and its name in @title. */
static int history_row(const struct ui_history *h, const struct ui_snap *sn, bool per_core,
		       char *title, size_t len)
{
	if (per_core && h->sel >= 0 && h->sel < h->ncore && sn->valid && sn->f.ncore == h->ncore) {
		snprintf(title, len, "core %d/%d", sn->f.core[h->sel].package,
			 sn->f.core[h->sel].core);
		return h->ncpu + h->sel;
	}
	if (!per_core && h->sel >= 0 && h->sel < h->ncpu && sn->valid && sn->f.ncpu == h->ncpu) {
		snprintf(title, len, "cpu %d", sn->f.cpu[h->sel].cpu);
		return h->sel;
	}
	snprintf(title, len, "the total");
	return h->rows - 1;
}

static const char *const series[3] = { "HITM/s", "Hit/s", "Lat(cyc)" };
#define METER_MIN_W 50          /* a graph of the meter side by side: its label and 40 frames */
/* Their columns: the meter leaves out what --show or --hide leave out. */
static const enum col_id series_col[3] = { COL_HITM, COL_HIT, COL_OFF_CYCLES };

/* Does series @which of row @row have a measured value in the last @n frames? */
static bool history_measured(const struct ui_history *h, int row, int n, int which)
{
	const struct hist_sample *s = &h->s[(size_t)row * HIST_LEN];

	for (int i = 0; i < n; i++) {
		const struct hist_sample *d = &s[ring_slot(&h->ring, n, i)];

		if (!isnan(which == 0 ? d->hitm : which == 1 ? d->hit : d->lat))
			return true;
	}
	return false;
}

void history_meter(struct ui *ui, struct ui_history *h, const struct ui_snap *sn,
		   bool per_core, int y, int x, int w, int ht)
{
	int gw = w - HIST_LABEL - 1, n, row, which[3], ns = 0, lines;
	char name[48], b[96];

	if (ht < 1 || gw < 4 || !h->ring.len || !h->s)
		return;
	row = history_row(h, sn, per_core, name, sizeof(name));
	n = h->ring.len < gw ? h->ring.len : gw;
	for (int g = 0; g < 3; g++)
		if (pane_chosen(ui, series_col[g]) && history_measured(h, row, n, g))
			which[ns++] = g;
	if (!ns)
		return;
	/* A title when there is a line for it and one for each graph. */
	lines = ht;
	if (ht > ns) {
		snprintf(b, sizeof(b), "History of %s", name);
		history_line(ui, y, x, w, UA_TITLE, b, "H: the whole history ");
		y++;
		lines--;
	}
	/*
	 * Side by side where each has room (htop's graph meters): fewer
	 * columns, each taller, so a refresh shifts fewer cells; else one
	 * above the other.
	 */
	if ((w + 1) / ns - 1 >= METER_MIN_W && lines >= 2) {
		int cw = (w + 1) / ns - 1;

		for (int g = 0; g < ns; g++) {
			int gx = x + g * (cw + 1), gwg = (g == ns - 1 ? x + w - gx : cw) - HIST_LABEL - 1;

			graph(ui, y, gx, gwg, lines, series[which[g]], h, row,
			      h->ring.len < gwg ? h->ring.len : gwg, which[g], true);
		}
		return;
	}
	if (lines < ns)
		ns = lines;
	for (int g = 0; g < ns; g++) {
		int hh = lines / ns + (g < lines % ns ? 1 : 0);

		graph(ui, y, x, gw, hh, series[which[g]], h, row, n, which[g], true);
		y += hh;
	}
}

void history_draw(struct ui *ui, struct ui_history *h, const struct ui_snap *sn,
		  bool per_core, int y, int x, int w, int ht)
{
	unsigned thr[64];
	int nthr = 0, row, gw = w - HIST_LABEL - 1, n, lines, hh[3], y0 = y;
	char title[96], name[48], b[96], sp[32];

	row = history_row(h, sn, per_core, name, sizeof(name));
	snprintf(title, sizeof(title), "History of %s", name);
	if (ht < 4 || gw < 4 || !h->ring.len || !h->s)
		return;
	n = h->ring.len < gw ? h->ring.len : gw;
	/* Every threshold of the frames shown, each its own series. */
	for (int i = 0; i < n; i++) {
		int k = ring_slot(&h->ring, n, i);

		for (int t = 0; t < h->nthresh[k]; t++) {
			bool seen = false;

			for (int j = 0; j < nthr; j++)
				seen |= thr[j] == h->thr[k][t];
			if (!seen && nthr < (int)(sizeof(thr) / sizeof(thr[0])))
				thr[nthr++] = h->thr[k][t];
		}
	}
	qsort(thr, nthr, sizeof(*thr), cmp_u);

	history_line(ui, y, x, w, UA_TITLE, title, 1 + (int)strlen(title) + 2 + 31 <= w ?
		     "Up Down: another row  H: back " : "H: back ");
	y++;
	/* Lines: the heat map gets one per threshold, the three graphs share the rest. */
	lines = ht - 2 - 1;
	if (nthr > lines - 3)
		nthr = lines - 3 > 0 ? lines - 3 : 0;
	lines -= nthr + 1;
	for (int g = 0; g < 3; g++)
		hh[g] = lines / 3 + (g < lines % 3 ? 1 : 0);

	{
		const char *legend = ui->utf8 ? "\u2588 50%+ \u2593 15% \u2592 5% \u2591 1% . >0 "
					       : "# 50%+ * 15% + 5% : 1% . >0 ";
		const char *what = "Load latency: share of loads slower than N";

		/* The legend says what the shades mean: it keeps its place before the words. */
		if (1 + (int)strlen(what) + 2 + cells(legend) > w)
			what = "Loads slower than N";
		if (1 + (int)strlen(what) + 2 + cells(legend) > w)
			what = "";
		history_line(ui, y, x, w, UA_TITLE, what, legend);
	}
	y++;
	for (int t = 0; t < nthr; t++) {
		const struct hist_sample *s = &h->s[(size_t)row * HIST_LEN];

		snprintf(b, sizeof(b), ">%u", thr[t]);
		draw_right(ui, y, x, HIST_LABEL - 1, UA_NORMAL, b);
		for (int i = 0; i < n; i++) {
			int k = ring_slot(&h->ring, n, i), j, lvl;
			enum ui_attr a;

			for (j = 0; j < h->nthresh[k] && h->thr[k][j] != thr[t]; j++)
				;
			if (j == h->nthresh[k] || s[k].share[j] == SHARE_NONE)
				continue;
			lvl = shade(s[k].share[j], &a);
			draw_text(ui, y, x + HIST_LABEL + gw - n + i, 1, a, ui->g->shade[lvl]);
		}
		y++;
	}
	for (int g = 0; g < 3; g++) {
		if (hh[g] <= 0)
			continue;
		graph(ui, y, x, gw, hh[g], series[g], h, row, n, g, false);
		y += hh[g];
	}
	/* The axis: the time the columns span, oldest on the left, and its scale. */
	if (y < y0 + ht) {
		span_text(sp, sizeof(sp),
			  h->time[ring_slot(&h->ring, n, n - 1)] - h->time[ring_slot(&h->ring, n, 0)]);
		snprintf(b, sizeof(b), "%d frames over %s, one a column, the newest right", n, sp);
		if ((int)strlen(b) > gw)
			snprintf(b, sizeof(b), "%d frames, %s", n, sp);
		draw_text(ui, y, x + HIST_LABEL, gw, UA_DIM, b);
	}
}
