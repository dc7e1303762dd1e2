/*
 * layout.c: what is drawn where: the header, the panes side by side or
 * stacked (iterated through `struct pane`, never switched on), the rows in
 * their sort order, the status line and the prompt on it; layout_draw is
 * the one drawing of the whole screen.
 *
 * Every drawing is erase(), draw, then one doupdate(), so ncurses sends
 * only the cells that changed.  Reads the screen's state, changes only the
 * scroll position it keeps in range and the row order; never reads a key,
 * never opens or closes the terminal (ui.c), never draws a pane's cells
 * (pane_*.c) or the help (help.c).
 *
 * The visible strings (header, titles, column headers, `total`, `n/a`,
 * `sort: `, `per CPU`/`per core`, `h help  q quit`, `thresholds: `,
 * `PAUSED`, `SIMULATED`, `REPLAY`, `jump to: `) are a contract with
 * tests/e2e_screen.sh and the man page.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ui/ui_internal.h"

/* ---- layout ---- */

#define MIN_ROWS 2       /* a pane is drawn with at least this many rows, or not at all */


int layout_nrows(const struct ui *ui, const struct ui_snap *s)
{
	return ui->per_core ? s->f.ncore : s->f.ncpu;
}

static const struct row *layout_rows(const struct ui *ui, const struct ui_snap *s)
{
	return ui->per_core ? s->f.core : s->f.cpu;
}

static void layout_label(const struct ui *ui, const struct row *r, char *buf, size_t len)
{
	if (ui->per_core)
		snprintf(buf, len, "%d/%d%s", r->package, r->core, row_type_mark(r));
	else
		snprintf(buf, len, "%d%s", r->cpu, row_type_mark(r));
}

/*
 * Header line 2 and, when it is not alone there, the rotation.  A hybrid
 * part's counters per core type ("P 8 GP + 4 fixed, E 6 GP + 3 fixed"),
 * which CPUID leaf 0xA's common subset would understate; two types alike
 * (Arrow Lake-H's two kinds of E-core) once.
 */
static void layout_pmu_text(const struct ui_snap *s, char *buf, size_t len)
{
	const struct cpu_desc *d = s->f.desc;
	const struct pmu_caps *c = &d->id.pmu;
	size_t o;

	if (d->ntypes <= 0) {
		snprintf(buf, len, "PMU v%u, %u GP x %u-bit + %u fixed", c->version, c->gp_counters,
			 c->gp_width, c->fixed_counters);
		return;
	}
	o = (size_t)snprintf(buf, len, "PMU v%u, %u-bit:", c->version, c->gp_width);
	for (int t = 0; t < d->ntypes && o < len; t++) {
		const struct core_type_desc *ct = &d->type[t], *p = t ? &d->type[t - 1] : NULL;
		const char *mark = core_type_mark(core_type_row_name(d, t));

		if (p && p->type == ct->type && p->pmu.gp_counters == ct->pmu.gp_counters &&
		    p->pmu.fixed_counters == ct->pmu.fixed_counters)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s %s %u GP + %u fixed", t ? "," : "", mark,
				      ct->pmu.gp_counters, ct->pmu.fixed_counters);
	}
}

/* The rotation line, its measurements whole, in at most @room cells ("" if none fits). */
static void layout_rotation_fit(const struct ui_snap *s, char *buf, size_t len, int room)
{
	const struct ui_frame *f = &s->f;
	char item[4][48];
	int n = 0;
	size_t o = 0;

	buf[0] = 0;
	if (f->nslots <= 1)
		return;
	snprintf(item[n++], sizeof(item[0]), "rotation: %d slots", f->nslots);
	if (f->share_lat > 0)
		snprintf(item[n++], sizeof(item[0]), " latency %.0f%%/threshold", 100 * f->share_lat);
	if (f->share_snoop > 0)
		snprintf(item[n++], sizeof(item[0]), " snoop %.0f%%", 100 * f->share_snoop);
	if (f->share_offcore > 0)
		snprintf(item[n++], sizeof(item[0]), " offcore %.0f%%", 100 * f->share_offcore);
	for (int i = 0; i < n && (int)(o + strlen(item[i])) <= room && o + strlen(item[i]) < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s", item[i]);
}

static void layout_rotation_text(const struct ui_snap *s, char *buf, size_t len)
{
	layout_rotation_fit(s, buf, len, (int)len);
}

/*
 * What else is done with the numbers, in at most @room cells (0: any):
 * "serving http://127.0.0.1:10123/metrics  recording FILE 1.2M", or where
 * that does not fit "serving :10123  recording ...ILE 1.2M", the file's path
 * cut from the left.
 */
static void layout_io_text(const struct ui_snap *s, char *buf, size_t len, int room)
{
	const struct ui_frame *f = &s->f;
	const char *port = f->serving ? strrchr(f->serving, ':') : NULL;
	char size[16];
	size_t o = 0;
	int fixed;

	buf[0] = 0;
	if (f->serving)
		o += (size_t)snprintf(buf, len, "serving http://%s/metrics", f->serving);
	if (f->recording && o < len) {
		numfmt_si(size, sizeof(size), (double)f->recorded, 1);
		snprintf(buf + o, len - o, "%srecording %s %s%s", o ? "  " : "", f->recording, size,
			 f->record_paused ? " paused" : "");
	}
	if (!room || (int)strlen(buf) <= room)
		return;
	o = f->serving ? (size_t)snprintf(buf, len, "serving %s", port ? port : f->serving) : 0;
	if (!f->recording || o >= len)
		return;
	if (f->record_paused && strlen(size) + 8 < sizeof(size))
		strcat(size, " paused");
	fixed = (int)o + (o ? 2 : 0) + 10 + 1 + (int)strlen(size);
	if (fixed + (int)strlen(f->recording) <= room) {
		snprintf(buf + o, len - o, "%srecording %s %s", o ? "  " : "", f->recording, size);
	} else {
		int keep = room - fixed - 3;
		size_t l = strlen(f->recording);

		snprintf(buf + o, len - o, "%srecording ...%s %s", o ? "  " : "",
			 f->recording + l - (size_t)(keep < 1 ? 1 : keep > (int)l ? (int)l : keep), size);
	}
}

/* Does the replay's position fit on the PMU line, right of it? */
static bool layout_where_fits(const struct ui_snap *s)
{
	char pmu[128];

	layout_pmu_text(s, pmu, sizeof(pmu));
	return 1 + (int)strlen(pmu) + 3 + (int)strlen(s->f.replay_where) + 1 <= COLS;
}

static int layout_header_lines(const struct ui_snap *s)
{
	char pmu[128], rot[256], io[512];

	if (!s->valid)
		return 2;
	/* Replaying: where, on the PMU line or on a line of its own (there is no rotation). */
	if (s->f.replay_where && s->f.replay_where[0])
		return layout_where_fits(s) ? 2 : 3;
	layout_pmu_text(s, pmu, sizeof(pmu));
	layout_rotation_text(s, rot, sizeof(rot));
	layout_io_text(s, io, sizeof(io), 0);
	if (!rot[0])
		return 2;
	return 1 + (int)strlen(pmu) + 3 + (int)strlen(rot) + (io[0] ? 2 + (int)strlen(io) : 0) + 1 <=
	       COLS ? 2 : 3;
}

static int layout_label_width(const struct ui *ui, const struct ui_snap *s)
{
	const struct row *rows = layout_rows(ui, s);
	int n = layout_nrows(ui, s), w = (int)strlen("total");    /* the last row's label */
	char b[32];

	for (int i = 0; i < n; i++) {
		int l;

		layout_label(ui, &rows[i], b, sizeof(b));
		l = (int)strlen(b);
		if (l > w)
			w = l;
	}
	return w + 1;
}

/*
 * Which panes go side by side.  The panes shown, in order, are cut into
 * bands (a band: panes side by side, or one pane on the whole width); of
 * the cuts where every pane side by side gets the width it wants at ease,
 * the one with the fewest bands wins, then the narrowest.  One pane a band
 * always fits.
 */
void layout_compute(const struct ui *ui, const struct ui_snap *s, struct ui_layout *L)
{
	int pref[UI_MAX_PANES], max[UI_MAX_PANES];
	int best = -1, best_bands = 0, best_w = 0, nrows = layout_nrows(ui, s);
	int band_of[UI_MAX_PANES], nb = 0, avail, y;

	memset(L, 0, sizeof(*L));
	L->nhead = layout_header_lines(s);
	L->lw = layout_label_width(ui, s);
	for (int i = 0; i < UI_MAX_PANES; i++) {
		if (!ui->visible[i])
			continue;
		L->pane[L->n] = ui_panes[i];
		L->compact[L->n] = s->valid && pane_why(ui_panes[i], &s->f.total) != NULL;
		ui_panes[i]->width(ui, &pref[L->n], &max[L->n]);
		L->n++;
	}
	if (!L->n)
		return;
	for (int cut = 0; cut < 1 << (L->n - 1); cut++) {
		int bands = 1, widest = 0, w = 0, k = 0;
		bool alone = true;

		/* A pane that measures nothing here is a band of its own. */
		for (int i = 0; i < L->n; i++)
			if (L->compact[i] && ((i < L->n - 1 && !(cut >> i & 1)) ||
					      (i > 0 && !(cut >> (i - 1) & 1))))
				alone = false;
		if (!alone)
			continue;

		for (int i = 0; i < L->n; i++) {
			w += (w ? 1 : 0) + L->lw + pref[i];
			k++;
			if (i == L->n - 1 || (cut >> i & 1)) {
				/* A pane alone has the whole line, whatever it wants. */
				if (k > 1 && w > widest)
					widest = w;
				w = 0;
				k = 0;
				bands += i < L->n - 1;
			}
		}
		if (widest > COLS)
			continue;
		if (best < 0 || bands < best_bands || (bands == best_bands && widest < best_w)) {
			best = cut;
			best_bands = bands;
			best_w = widest;
		}
	}
	if (best < 0)
		best = (1 << (L->n - 1)) - 1;

	/*
	 * Widths: each pane of a band its preferred width; what is left goes
	 * first to the panes that can use it (up to their most useful width),
	 * then in proportion to all.  A pane alone has the whole line.
	 */
	for (int i = 0, first = 0; i < L->n; i++) {
		int w[UI_MAX_PANES], x = 0, extra, room = 0, sum = 0;

		band_of[i] = nb;
		if (i < L->n - 1 && !(best >> i & 1))
			continue;
		extra = COLS;
		for (int j = first; j <= i; j++) {
			/* A pane right of another has a separator in its first column. */
			w[j] = (j > first) + L->lw + pref[j];
			extra -= w[j];
			room += max[j] - pref[j];
			sum += pref[j];
		}
		if (first == i) {
			w[i] = COLS;
		} else if (extra > 0) {
			int give = extra < room ? extra : room, left;

			for (int j = first; j <= i && room > 0; j++)
				w[j] += (int)((long)give * (max[j] - pref[j]) / room);
			left = COLS;
			for (int j = first; j <= i; j++)
				left -= w[j];
			for (int j = first; j <= i; j++)
				w[j] += (int)((long)left * pref[j] / (sum ? sum : 1));
		}
		for (int j = first; j <= i; j++) {
			if (j == i)
				w[j] = COLS - x;        /* rounding: the last one takes the rest */
			L->sep[j] = j > first;
			L->view[j].x = x + L->sep[j];
			L->view[j].w = w[j] - L->sep[j];
			L->view[j].lw = L->lw;
			x += w[j];
		}
		nb++;
		first = i + 1;
	}
	/*
	 * Heights.  A pane that measures nothing here has one line (its title
	 * and why).  The others have three (title, column header, total) and
	 * the same number of rows each, MIN_ROWS at least: bands that cannot
	 * have them are left out, from the last, and the status line says so.
	 */
	avail = LINES - L->nhead - 1;
	{
		bool band_compact[UI_MAX_PANES] = { false };
		int ncomp = 0, nfull, shown, rows, need = nrows < MIN_ROWS ? nrows : MIN_ROWS, k = 0;
		int left;

		for (int i = 0; i < L->n; i++)
			band_compact[band_of[i]] = L->compact[i];
		for (int b = 0; b < nb; b++)
			ncomp += band_compact[b];
		nfull = nb - ncomp;
		shown = nfull;
		while (shown > 1 && avail - ncomp < shown * (3 + need))
			shown--;
		rows = shown ? (avail - ncomp - 3 * shown) / shown : 0;
		if (rows > nrows)
			rows = nrows;
		if (rows < 0)
			rows = 0;
		/*
		 * Every pane shows the same rows, from ui->top, in the same
		 * order: a row is one CPU (or core) across the screen, and the
		 * scrolling keys move over every row.
		 */
		L->window = rows;
		left = avail;
		y = L->nhead;
		for (int b = 0; b < nb; b++) {
			int h, r = 0;

			if (band_compact[b]) {
				h = left >= 1 ? 1 : 0;
			} else if (k < shown && left >= 3) {
				r = rows;
				h = 3 + r;
				k++;
			} else {
				h = 0;
				k++;
			}
			if (h > left)
				h = left;
			for (int i = 0; i < L->n; i++) {
				if (band_of[i] != b)
					continue;
				L->view[i].y = y;
				L->view[i].h = h;
				L->view[i].rows = r;
				if (!h)
					L->dropped[L->ndropped++] = L->pane[i]->what;
			}
			y += h;
			left -= h;
		}
		/* What the panes leave below them: the costliest lines, then the history. */
		L->lines_y = y;
		L->lines_h = lines_pane_height(s, left);
		L->meter_y = y + L->lines_h;
		L->meter_h = left - L->lines_h;
	}
	if (L->window < 0)
		L->window = 0;
}

/* ---- sorting ---- */

struct ui_sort_ctx {
	const struct row *rows;
	const struct ui_col *col;
	bool core;
	bool reverse;
};

static double layout_value(const struct ui_sort_ctx *c, int i)
{
	const struct row *r = &c->rows[i];

	return r->ok ? columns_sort_value(c->col->col, &r->m, c->col->thr) : NAN;
}

static int layout_cmp(const void *pa, const void *pb, void *arg)
{
	const struct ui_sort_ctx *c = arg;
	int a = *(const int *)pa, b = *(const int *)pb;
	const struct row *x = &c->rows[a], *y = &c->rows[b];
	int r = c->reverse ? -1 : 1;

	/* The largest first (reversed: the smallest); not measured last either way. */
	if (c->col->col) {
		double u = layout_value(c, a), v = layout_value(c, b);

		if (isnan(u) != isnan(v))
			return isnan(u) ? 1 : -1;
		if (!isnan(u) && u != v)
			return u > v ? -r : r;
	} else if (c->core) {
		if (x->package != y->package)
			return x->package < y->package ? -r : r;
		if (x->core != y->core)
			return x->core < y->core ? -r : r;
	} else if (x->cpu != y->cpu) {
		return x->cpu < y->cpu ? -r : r;
	}
	return (a > b) - (a < b);
}

static int layout_sort_rows(struct ui *ui, const struct ui_snap *s)
{
	int n = layout_nrows(ui, s);
	struct ui_sort_ctx c = { layout_rows(ui, s), ui->cols[ui->sort], ui->per_core, ui->reverse };

	if (n > ui->order_cap) {
		int *o = realloc(ui->order, (size_t)n * sizeof(*o));

		if (!o)
			return -1;
		ui->order = o;
		ui->order_cap = n;
	}
	for (int i = 0; i < n; i++)
		ui->order[i] = i;
	if (n > 1)
		qsort_r(ui->order, n, sizeof(*ui->order), layout_cmp, &c);
	return 0;
}

/* ---- drawing ---- */

static void layout_draw_header(struct ui *ui, const struct ui_snap *s, int nhead)
{
	char clock[24], iv[32], b[256], rl[48] = "", via[16] = "";
	const char *pretty = s->valid ? s->f.desc->uarch->pretty : "";
	int x, rw, left;
	bool sim = s->valid && s->f.simulated, show_iv = true, show_clock = true;
	bool rep = s->valid && s->f.replay;
	time_t t;
	struct tm tm;

	t = s->valid ? (time_t)s->f.time : time(NULL);
	localtime_r(&t, &tm);
	strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	if (rep) {
		/* The recorded time, to the tenth: snapshots can be 0.05 s apart. */
		size_t n = strlen(clock);

		snprintf(clock + n, sizeof(clock) - n, ".%d",
			 (int)((s->f.time - floor(s->f.time)) * 10) % 10);
		snprintf(rl, sizeof(rl), " REPLAY%s", s->f.replay_paused ? " PAUSED" : "");
		if (s->f.replay_speed != 1) {
			n = strlen(rl);
			snprintf(rl + n, sizeof(rl) - n, s->f.replay_speed < 1 ? " x1/%g" : " x%g",
				 s->f.replay_speed < 1 ? 1 / s->f.replay_speed : s->f.replay_speed);
		}
		n = strlen(rl);
		snprintf(rl + n, sizeof(rl) - n, " ");
	}
	if (ui->interval_s < 0.1)
		snprintf(iv, sizeof(iv), "interval %.2fs", ui->interval_s);
	else
		snprintf(iv, sizeof(iv), "interval %.1fs", ui->interval_s);

	/*
	 * Left: lattop, SIMULATED, the microarchitecture, then the brand in
	 * what is left.  Right: PAUSED, the interval, the clock; on a narrow
	 * screen the clock goes first, then the interval.
	 */
	if (s->valid && s->f.backend)
		snprintf(via, sizeof(via), "through %s", s->f.backend);
	left = 1 + 6 + (sim ? 12 : 0) + 1 + (int)strlen(pretty) + 1;
	for (;;) {
		rw = (ui->paused ? 10 : 0) + (rep ? (int)strlen(rl) + 2 : 0) +
		     (show_iv ? (int)strlen(iv) + 2 : 0) +
		     (show_clock ? (int)strlen(clock) + 1 : 0);
		if (left + rw <= COLS || (!show_iv && !show_clock))
			break;
		if (show_clock)
			show_clock = false;
		else
			show_iv = false;
	}

	x = 1 + draw_text(ui, 0, 1, COLS, UA_BRAND, "lattop");
	if (!s->valid) {
		draw_text(ui, 0, x + 2, COLS - x - rw - 3, UA_DIM,
			  "waiting for the first interval");
	} else {
		if (sim)
			x += 1 + draw_text(ui, 0, x + 1, COLS - x - 1, UA_SIMULATED, " SIMULATED ");
		x += 1 + draw_text(ui, 0, x + 1, COLS - x - 1, UA_UARCH, pretty);
		/* The backend that measured, where the brand leaves room for it first. */
		if (via[0] && COLS - x - rw - 3 >= (int)strlen(via))
			x += 2 + draw_text(ui, 0, x + 2, COLS - x - 2, UA_NORMAL, via);
		if (s->f.desc->id.brand[0] && COLS - x - rw - 3 >= 8) {
			int room = COLS - x - rw - 3;
			const char *brand = s->f.desc->id.brand;

			if ((int)strlen(brand) <= room) {
				draw_text(ui, 0, x + 2, room, UA_NORMAL, brand);
			} else {
				draw_text(ui, 0, x + 2, room - 1, UA_NORMAL, brand);
				draw_text(ui, 0, x + 2 + room - 1, 1, UA_DIM, ui->g->more);
			}
		}
	}
	x = COLS - rw;
	if (x < left)
		x = left;
	if (ui->paused)
		x += 2 + draw_text(ui, 0, x, COLS - x, UA_PAUSED, " PAUSED ");
	if (rep)
		x += 2 + draw_text(ui, 0, x, COLS - x, UA_PAUSED, rl);
	if (show_iv)
		x += 2 + draw_text(ui, 0, x, COLS - x, UA_NORMAL, iv);
	if (show_clock)
		draw_text(ui, 0, x, COLS - x, UA_NORMAL, clock);

	if (!s->valid)
		return;
	layout_pmu_text(s, b, sizeof(b));
	x = 1 + draw_text(ui, 1, 1, COLS - 1, UA_NORMAL, b);
	/* Serving and recording, at the right of the PMU line. */
	{
		char io[512];

		layout_io_text(s, io, sizeof(io), COLS - x - 3);
		if (io[0] && (int)strlen(io) <= COLS - x - 3)
			draw_right(ui, 1, 0, COLS - 1, UA_UARCH, io);
	}
	/*
	 * Replaying: where in the recording ("frame 40 of 600, 12:00:02 of
	 * 12:00:00-12:00:30"), right of the PMU line, or on the line under it;
	 * cut to the frame's number ("frame 40 of 600") where it must be.
	 */
	if (s->f.replay_where && s->f.replay_where[0]) {
		const char *wh = s->f.replay_where, *comma = strchr(wh, ',');
		int len = (int)strlen(wh);

		if (nhead == 2) {
			draw_right(ui, 1, 0, COLS - 1, UA_UARCH, wh);
		} else if (len <= COLS - 2) {
			draw_text(ui, 2, 1, COLS - 2, UA_UARCH, wh);
		} else if (comma && comma - wh <= COLS - 2) {
			snprintf(b, sizeof(b), "%.*s", (int)(comma - wh), wh);
			draw_text(ui, 2, 1, COLS - 2, UA_UARCH, b);
		}
	}
	layout_rotation_text(s, b, sizeof(b));
	if (b[0]) {
		int ry = nhead == 2 ? 1 : 2, rx = nhead == 2 ? x + 3 : 1, room = COLS - rx - 1;

		/* Too long: whole measurements only, never a number cut in two, then "...". */
		if ((int)strlen(b) > room) {
			layout_rotation_fit(s, b, sizeof(b), room - 1);
			if (b[0]) {
				rx += draw_text(ui, ry, rx, COLS - rx, UA_DIM, b);
				draw_text(ui, ry, rx, 1, UA_DIM, ui->g->more);
			}
		} else {
			draw_text(ui, ry, rx, COLS, UA_DIM, b);
		}
	}
}

/* The Offcore pane's mark for struct ui_frame.off_caveat. */
#define UI_OFF_CAVEAT "HT on: unverified"
#define UI_OFF_CAVEAT_SHORT "HT: unverified"

static void layout_draw_pane(struct ui *ui, const struct ui_snap *s, const struct ui_layout *L, int k)
{
	const struct pane *p = L->pane[k];
	struct pane_view v = L->view[k];
	const struct row *rows = layout_rows(ui, s);
	int n = layout_nrows(ui, s), x = v.x, y = v.y, w = v.w;
	int top = ui->top, last;
	char b[64];

	/* Scrolled together: layout_draw keeps ui->top in range. */
	last = top + v.rows < n ? top + v.rows : n;
	if (v.h < 1)
		return;
	if (L->sep[k])
		draw_vline(ui, y, x - 1, v.h);
	if (L->compact[k]) {
		/* Nothing measured here: the title and why, on one line. */
		int tx = x + draw_text(ui, y, x + 1, w - 1, UA_TITLE, p->name) + 2;
		const char *why = pane_why(p, &s->f.total);

		tx += draw_text(ui, y, tx, x + w - tx, UA_NA, "n/a: ");
		if ((int)strlen(why) > x + w - tx && x + w - tx > 1) {
			draw_text(ui, y, tx, x + w - tx - 1, UA_DIM, why);
			draw_text(ui, y, x + w - 1, 1, UA_DIM, ui->g->more);
		} else {
			draw_text(ui, y, tx, x + w - tx, UA_DIM, why);
		}
		return;
	}

	/* Title, what it shows, and where the rows are. */
	{
		int tx = x + draw_text(ui, y, x + 1, w - 1, UA_TITLE, p->name) + 1, rl;
		char widest[64], note[256];
		const char *mark = p->section == CS_OFFCORE ? s->f.off_caveat : NULL;
		bool scrolled = top > 0 || last < n;

		if (scrolled && last == top + 1)
			snprintf(b, sizeof(b), "row %d of %d", last, n);
		else if (scrolled && last > top)
			snprintf(b, sizeof(b), "rows %d-%d of %d", top + 1, last, n);
		else
			snprintf(b, sizeof(b), "%d %s%s", n, ui->per_core ? "core" : "CPU",
				 n == 1 ? "" : "s");
		rl = (int)strlen(b);
		/*
		 * A doubt about every number of the pane (struct ui_frame.off_caveat;
		 * man page, MEASUREMENT), short when it must be: it goes before the
		 * count of rows, not before where the rows are when they scroll.
		 */
		if (mark) {
			int room = x + w - 1 - (tx + 1) - (scrolled ? rl + 1 : 0);

			mark = (int)strlen(UI_OFF_CAVEAT) <= room ? UI_OFF_CAVEAT :
			       (int)strlen(UI_OFF_CAVEAT_SHORT) <= room ? UI_OFF_CAVEAT_SHORT : NULL;
			if (mark) {
				tx += 1 + draw_text(ui, y, tx + 1, w, UA_NA, mark);
				if (!scrolled && rl + 1 > x + w - 1 - tx)
					rl = 0, b[0] = 0;
			}
		}
		if (rl && rl + 1 <= w - (tx - x) - 1)
			draw_right(ui, y, x, w - 1, UA_DIM, b);
		else
			rl = 0;
		/* What the pane shows, when it fits whole beside the widest range. */
		snprintf(widest, sizeof(widest), "rows %d-%d of %d", n, n, n);
		if ((int)strlen(widest) > rl && n > v.rows)
			rl = (int)strlen(widest);
		/* Or, where some of its columns are not measured, why: cut, the help has it whole. */
		if (pane_note(ui, p, &s->f.total, note, sizeof(note))) {
			int room = x + w - 1 - rl - 2 - (tx + 1);

			if ((int)strlen(note) > room && room > 1) {
				draw_text(ui, y, tx + 1, room - 1, UA_NA, note);
				draw_text(ui, y, tx + room, 1, UA_NA, ui->g->more);
			} else {
				draw_text(ui, y, tx + 1, room, UA_NA, note);
			}
		} else if ((int)strlen(p->about) <= x + w - 1 - rl - 2 - (tx + 1)) {
			draw_text(ui, y, tx + 1, w, UA_DIM, p->about);
		}
	}
	if (v.h < 2)
		return;

	/* Column headers. */
	draw_fill(ui, y + 1, x, w, UA_COLHDR);
	draw_right(ui, y + 1, x, v.lw - 1, ui->sort == 0 ? UA_COLHDR_SORT : UA_COLHDR,
		   ui->per_core ? "Core" : "CPU");
	if (p->prepare)
		p->prepare(ui, &v);
	p->head(ui, &v, y + 1, x + v.lw, w - v.lw);

	/* The rows, from the first one scrolled to. */
	for (int j = 0; j < v.rows && top + j < n && top + j >= 0; j++) {
		int i = ui->order[top + j];
		struct pane_row r = {
			.m = &rows[i].m, .ok = rows[i].ok, .total = false,
			.hist = snap_hist_row(s, ui->per_core, i),
		};

		layout_label(ui, &rows[i], b, sizeof(b));
		draw_right(ui, y + 2 + j, x, v.lw - 1, UA_NORMAL, b);
		p->row(ui, &v, y + 2 + j, x + v.lw, w - v.lw, &r);
	}

	/* The total, pinned at the bottom. */
	if (v.h >= 3) {
		struct pane_row r = {
			.m = &s->f.total, .ok = true, .total = true,
			.hist = snap_hist_row(s, false, -1),
		};
		int ty = y + v.h - 1;

		draw_right(ui, ty, x, v.lw - 1, UA_TOTAL, "total");
		p->row(ui, &v, ty, x + v.lw, w - v.lw, &r);
	}
}

/*
 * Sorted by a column whose cells all read the same (a mean shown as one
 * range, a rate rounded to one figure): the order is not what is seen, so
 * say what it is.
 */
static void layout_alike(const struct ui *ui, const struct ui_snap *s, char *buf, size_t len,
			 size_t *o)
{
	const struct ui_col *c = ui->cols[ui->sort];
	const struct row *rows = layout_rows(ui, s);
	int n = layout_nrows(ui, s), k = 0;
	char first[32] = "", b[32], name[32];
	double lo = INFINITY, hi = -INFINITY;

	if (!c->col || n < 2)
		return;
	for (int i = 0; i < n; i++) {
		double v;

		if (!rows[i].ok)
			continue;
		v = columns_sort_value(c->col, &rows[i].m, c->thr);
		if (isnan(v))
			continue;
		pane_format(columns_id(c->col), &rows[i].m, c->thr, b, sizeof(b));
		if (k++ && strcmp(b, first))
			return;
		snprintf(first, sizeof(first), "%s", b);
		lo = fmin(lo, v);
		hi = fmax(hi, v);
	}
	if (k < 2)
		return;
	ui_col_name(ui, c, name, sizeof(name));
	if (*o < len)
		*o += (size_t)snprintf(buf + *o, len - *o, "%severy row's %s reads %s: %s", *o ? "; " : "",
				       name, first, lo == hi ? (ui->per_core ? "in core order" : "in CPU order") :
				       c->col->screen.fmt == CF_MEAN ? "ordered by the middle of its bounds" :
				       "ordered by the unrounded values");
}

void layout_notes(const struct ui *ui, char *buf, size_t len)
{
	const struct ui_snap *s = ui_shown(ui);
	size_t o = 0;
	struct ui_layout L;

	buf[0] = 0;
#define ADD(...) do { if (o < len) o += (size_t)snprintf(buf + o, len - o, __VA_ARGS__); } while (0)
	if (ui_message_shown(ui))
		ADD("%s", ui->msg);
	if (!s->valid)
		return;
	layout_alike(ui, s, buf, len, &o);
	/* A short first interval (at the start, after a change) says how long it covered. */
	if (s->f.measured_s > 0 && s->f.measured_s < 0.9 * s->f.interval_s)
		ADD("%sfirst numbers, over %.1f s; then every %g s", o ? "; " : "", s->f.measured_s,
		    s->f.interval_s);
	if (s->f.note && s->f.note[0])
		ADD("%s%s", o ? "; " : "", s->f.note);
	/* A pane that measures nothing here says why on its own line. */
	for (int i = 0; i < UI_MAX_PANES; i++) {
		if (!ui->visible[i])
			continue;
		/* What a snoop number counts, where the families differ (pmu-facts 8.2). */
		if (ui_panes[i] == &pane_snoop && s->f.total.snoop.hit_scope &&
		    !strcmp(s->f.total.snoop.hit_scope, "other_module"))
			ADD("%sHit/s: other modules only; HITM/s: any other core", o ? "; " : "");
	}
	{
		const struct row *bad = NULL;
		int nbad = 0;

		for (int i = 0; i < s->f.ncpu; i++) {
			if (s->f.cpu[i].ok)
				continue;
			if (!bad)
				bad = &s->f.cpu[i];
			nbad++;
		}
		if (bad) {
			ADD("%scpu %d not read: %s", o ? "; " : "", bad->cpu,
			    bad->error ? bad->error : "unknown error");
			if (nbad > 1)
				ADD(" (and %d more CPU%s)", nbad - 1, nbad > 2 ? "s" : "");
		}
	}
	layout_compute(ui, s, &L);
	if (L.ndropped) {
		char toggles[32];

		ADD("%sno room: ", o ? "; " : "");
		for (int i = 0; i < L.ndropped; i++)
			ADD("%s%s", i ? ", " : "", L.dropped[i]);
		keys_toggles(toggles, sizeof(toggles));
		ADD(" (a taller terminal, or %s to hide panes)", toggles);
	}
#undef ADD
}

static void layout_draw_status(struct ui *ui)
{
	int y = LINES - 1, rw;
	char right[80], left[1024], name[32];
	const struct ui_col *c = ui->cols[ui->sort];

	if (ui->prompt) {
		static const char thint[] = "type to replace  Backspace edit  Enter apply  Esc cancel ";
		static const char jhint[] = "HH:MM[:SS], +SECS or YYYY-MM-DD HH:MM  Enter jump  Esc cancel ";
		const char *hint = ui->pjump ? jhint : thint;
		int x;

		int room, skip;

		draw_fill(ui, y, 0, COLS, UA_NORMAL);
		x = draw_text(ui, y, 0, COLS, UA_TITLE, ui->pjump ? "jump to: " : "thresholds: ");
		/* A long line shows its end, where the typing is. */
		room = COLS - x - 1;
		skip = ui->plen > room && room > 0 ? ui->plen - room : 0;
		x += draw_text(ui, y, x, room, UA_NORMAL, ui->pbuf + skip);
		if (COLS - x - 2 > (int)strlen(hint) + 1)
			draw_right(ui, y, 0, COLS, UA_DIM, hint);
		move(y, x < COLS ? x : COLS - 1);
		return;
	}
	ui_col_name(ui, c, name, sizeof(name));
	if (ui->lines && !ui->history)
		snprintf(right, sizeof(right), "sort: %s%s  lines ", shcols[ui->lsort].head,
			 ui->lreverse ? " reversed" : "");
	else
		snprintf(right, sizeof(right), "sort: %s%s  %s ", name, ui->reverse ? " reversed" : "",
			 ui->per_core ? "per core" : "per CPU");
	rw = (int)strlen(right);
	layout_notes(ui, left, sizeof(left));
	draw_fill(ui, y, 0, COLS, left[0] ? UA_STATUS_MSG : UA_STATUS);
	if (left[0]) {
		int room = COLS - rw - 1;
		/* Cut: the help (h) has it whole, and says so where there is room. */
		const char *whole = " (h: in full)";
		int wl = room > 30 ? (int)strlen(whole) : 0;

		if ((int)strlen(left) > room && room > 1) {
			draw_text(ui, y, 0, room - 1 - wl, UA_STATUS_MSG, left);
			draw_text(ui, y, room - 1 - wl, 1, UA_STATUS_MSG, ui->g->more);
			if (wl)
				draw_text(ui, y, room - wl, wl, UA_STATUS_MSG, whole);
		} else {
			draw_text(ui, y, 0, room, UA_STATUS_MSG, left);
		}
	} else {
		draw_text(ui, y, 0, COLS - rw - 1, UA_STATUS, "h help  q quit");
	}
	draw_right(ui, y, 0, COLS, left[0] ? UA_STATUS_MSG : UA_STATUS, right);
}

void layout_draw(struct ui *ui)
{
	const struct ui_snap *s = ui_shown(ui);
	struct ui_layout L;
	int n;

	ui->dirty = false;
	erase();
	if (COLS < 20 || LINES < 5) {
		draw_text(ui, 0, 0, COLS, UA_NORMAL, "lattop: the terminal is too small");
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	if (ui->help) {
		help_draw(ui);
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	layout_compute(ui, s, &L);
	ui->page = L.window;
	layout_draw_header(ui, s, L.nhead);
	if (ui->history && s->valid) {
		history_draw(ui, &ui->hist, s, ui->per_core, L.nhead, 0, COLS, LINES - 1 - L.nhead);
	} else if (ui->lines && s->valid) {
		lines_draw(ui, s, L.nhead, 0, COLS, LINES - 1 - L.nhead);
	} else if (s->valid && (ui_col_shown(ui, ui->sort) || (ui->sort = 0, true)) &&
		   layout_sort_rows(ui, s) == 0) {
		n = layout_nrows(ui, s);
		if (ui->top > n - (L.window > 0 ? L.window : 1))
			ui->top = n - (L.window > 0 ? L.window : 1);
		if (ui->top < 0)
			ui->top = 0;
		for (int k = 0; k < L.n; k++)
			layout_draw_pane(ui, s, &L, k);
		lines_pane(ui, s, L.lines_y, 0, COLS, L.lines_h);
		history_meter(ui, &ui->hist, s, ui->per_core, L.meter_y, 0, COLS, L.meter_h);
	}
	layout_draw_status(ui);
	if (ui->cursor != ui->prompt) {
		/* at the prompt the cursor is where the answer goes (ui.c) */
		leaveok(stdscr, curs_set(ui->prompt ? 1 : 0) != ERR && !ui->prompt);
		ui->cursor = ui->prompt;
	}
	wnoutrefresh(stdscr);
	doupdate();
}
