/*
 * ui.c: the interactive screen: the terminal's lifecycle, frames in, keys
 * in, and what is drawn where: the header, the panes (iterated through
 * `struct pane`, never switched on), the status line, the threshold prompt
 * and the help screen.
 *
 * Owns the terminal between ui_open and ui_close and the state of the
 * display (sort, panes shown, rows per CPU or per core, scrolling, pause,
 * help).  Turns keys into the actions of ui.h for the main loop; never
 * touches an MSR, the simulator or the sampler.  Every drawing is erase(),
 * draw, then one doupdate(), so ncurses sends only the cells that changed;
 * nothing is drawn when nothing changed.
 *
 * The visible strings (header, titles, column headers, `all`, `n/a`,
 * `sort: `, `per CPU`/`per core`, `h help  q quit`, `thresholds: `,
 * `lattop keys`, `PAUSED`, `SIMULATED`, `REPLAY`, `jump to: `) are a contract with
 * tests/e2e_screen.sh and the man page.
 */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "ui/ui_internal.h"

#define MSG_SECONDS 10.0        /* a message stays this long on the status line */
#define ESC_DELAY_MS 25

static const struct pane *const ui_panes[UI_MAX_PANES] = {
	&pane_latency, &pane_snoop, &pane_offcore,
};

static const struct ui_col col_cpu = { "CPU", NULL };

/* The + and - keys move through these (seconds). */
static const double ui_steps[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60 };

/* One screen per process: ui_close can then be called twice safely. */
static struct ui the_ui;

static double ui_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

const struct ui_snap *ui_shown(const struct ui *ui)
{
	return ui->paused ? &ui->frozen : &ui->live;
}

bool ui_sorted(const struct ui *ui, const struct ui_col *c)
{
	return ui->cols[ui->sort] == c;
}

void ui_reset_history(struct ui *ui)
{
	snap_reset(&ui->live);
	snap_reset(&ui->frozen);
	history_reset(&ui->hist);
}

/* ---- layout ---- */

#define MIN_ROWS 2       /* a pane is drawn with at least this many rows, or not at all */

struct ui_layout {
	int nhead;                              /* header lines */
	int n;                                  /* panes shown */
	const struct pane *pane[UI_MAX_PANES];
	struct pane_view view[UI_MAX_PANES];
	bool sep[UI_MAX_PANES];                 /* a separator left of it */
	bool compact[UI_MAX_PANES];             /* measures nothing here: one line, the reason */
	int off[UI_MAX_PANES];                  /* its first row, counted from ui->top */
	int lw;
	int page;                               /* rows each pane shows */
	int window;                             /* rows shown in all: what scrolling moves over */
	int ndropped;                           /* panes with no room on the screen */
	const char *dropped[UI_MAX_PANES];
};

static int ui_nrows(const struct ui *ui, const struct ui_snap *s)
{
	return ui->per_core ? s->f.ncore : s->f.ncpu;
}

static const struct ui_row *ui_rows(const struct ui *ui, const struct ui_snap *s)
{
	return ui->per_core ? s->f.core : s->f.cpu;
}

static void ui_label(const struct ui *ui, const struct ui_row *r, char *buf, size_t len)
{
	if (ui->per_core)
		snprintf(buf, len, "%d/%d", r->package, r->core);
	else
		snprintf(buf, len, "%d", r->cpu);
}

/* Header line 2 and, when it is not alone there, the rotation. */
static void ui_pmu_text(const struct ui_snap *s, char *buf, size_t len)
{
	const struct pmu_caps *c = &s->f.desc->id.pmu;

	snprintf(buf, len, "PMU v%u, %u GP x %u-bit + %u fixed", c->version, c->gp_counters,
		 c->gp_width, c->fixed_counters);
}

/* The rotation line, its measurements whole, in at most @room cells ("" if none fits). */
static void ui_rotation_fit(const struct ui_snap *s, char *buf, size_t len, int room)
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

static void ui_rotation_text(const struct ui_snap *s, char *buf, size_t len)
{
	ui_rotation_fit(s, buf, len, (int)len);
}

static int ui_header_lines(const struct ui_snap *s)
{
	char pmu[128], rot[256];

	if (!s->valid)
		return 2;
	ui_pmu_text(s, pmu, sizeof(pmu));
	ui_rotation_text(s, rot, sizeof(rot));
	if (!rot[0])
		return 2;
	return 1 + (int)strlen(pmu) + 3 + (int)strlen(rot) + 1 <= COLS ? 2 : 3;
}

static int ui_label_width(const struct ui *ui, const struct ui_snap *s)
{
	const struct ui_row *rows = ui_rows(ui, s);
	int n = ui_nrows(ui, s), w = (int)strlen("total");    /* the last row's label */
	char b[32];

	for (int i = 0; i < n; i++) {
		int l;

		ui_label(ui, &rows[i], b, sizeof(b));
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
static void ui_layout(const struct ui *ui, const struct ui_snap *s, struct ui_layout *L)
{
	int pref[UI_MAX_PANES], max[UI_MAX_PANES];
	int best = -1, best_bands = 0, best_w = 0, nrows = ui_nrows(ui, s);
	int band_of[UI_MAX_PANES], nb = 0, avail, y;

	memset(L, 0, sizeof(*L));
	L->nhead = ui_header_lines(s);
	L->lw = ui_label_width(ui, s);
	for (int i = 0; i < UI_MAX_PANES; i++) {
		if (!ui->visible[i])
			continue;
		L->pane[L->n] = ui_panes[i];
		L->compact[L->n] = s->valid && ui_panes[i]->reason(&s->f.total) != NULL;
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
		bool cont;

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
		 * Sorted by CPU, stacked panes that cannot each show every row
		 * continue one another, so that together they show as many as
		 * they can; sorted by a column, each shows the top rows.
		 */
		cont = ui->sort == 0 && shown > 1 && rows < nrows && nrows >= shown;
		L->window = cont ? (rows * shown < nrows ? rows * shown : nrows) : rows;
		L->page = rows;
		left = avail;
		y = L->nhead;
		for (int b = 0, next = 0; b < nb; b++) {
			int h, off = 0, r = 0;

			if (band_compact[b]) {
				h = left >= 1 ? 1 : 0;
			} else if (k < shown && left >= 3) {
				r = rows;
				/* Continuing: the rows as evenly as they go, when fewer than room for them. */
				if (cont && rows * shown >= nrows)
					r = nrows / shown + (k < nrows % shown);
				if (cont) {
					off = next;
					next += r;
				}
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
				L->off[i] = off;
				if (!h)
					L->dropped[L->ndropped++] = L->pane[i]->what;
			}
			y += h;
			left -= h;
		}
	}
	if (L->window < 0)
		L->window = 0;
}

/* ---- sorting ---- */

struct ui_sort_ctx {
	const struct ui_row *rows;
	const struct ui_col *col;
	bool core;
};

static double ui_value(const struct ui_sort_ctx *c, int i)
{
	const struct ui_row *r = &c->rows[i];

	return r->ok ? c->col->value(&r->m) : NAN;
}

static int ui_cmp(const void *pa, const void *pb, void *arg)
{
	const struct ui_sort_ctx *c = arg;
	int a = *(const int *)pa, b = *(const int *)pb;
	const struct ui_row *x = &c->rows[a], *y = &c->rows[b];

	if (c->col->value) {
		double u = ui_value(c, a), v = ui_value(c, b);

		if (isnan(u) != isnan(v))
			return isnan(u) ? 1 : -1;
		if (!isnan(u) && u != v)
			return u > v ? -1 : 1;
	} else if (c->core) {
		if (x->package != y->package)
			return x->package < y->package ? -1 : 1;
		if (x->core != y->core)
			return x->core < y->core ? -1 : 1;
	} else if (x->cpu != y->cpu) {
		return x->cpu < y->cpu ? -1 : 1;
	}
	return (a > b) - (a < b);
}

static int ui_sort_rows(struct ui *ui, const struct ui_snap *s)
{
	int n = ui_nrows(ui, s);
	struct ui_sort_ctx c = { ui_rows(ui, s), ui->cols[ui->sort], ui->per_core };

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
		qsort_r(ui->order, n, sizeof(*ui->order), ui_cmp, &c);
	return 0;
}

/* ---- drawing ---- */

static void ui_draw_header(struct ui *ui, const struct ui_snap *s, int nhead)
{
	char clock[24], iv[32], b[256], rl[48] = "";
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
	ui_pmu_text(s, b, sizeof(b));
	x = 1 + draw_text(ui, 1, 1, COLS - 1, UA_NORMAL, b);
	ui_rotation_text(s, b, sizeof(b));
	if (b[0]) {
		int ry = nhead == 2 ? 1 : 2, rx = nhead == 2 ? x + 3 : 1, room = COLS - rx - 1;

		/* Too long: whole measurements only, never a number cut in two, then "...". */
		if ((int)strlen(b) > room) {
			ui_rotation_fit(s, b, sizeof(b), room - 1);
			if (b[0]) {
				rx += draw_text(ui, ry, rx, COLS - rx, UA_DIM, b);
				draw_text(ui, ry, rx, 1, UA_DIM, ui->g->more);
			}
		} else {
			draw_text(ui, ry, rx, COLS, UA_DIM, b);
		}
	}
}

static void ui_draw_pane(struct ui *ui, const struct ui_snap *s, const struct ui_layout *L, int k)
{
	const struct pane *p = L->pane[k];
	struct pane_view v = L->view[k];
	const struct ui_row *rows = ui_rows(ui, s);
	int n = ui_nrows(ui, s), x = v.x, y = v.y, w = v.w;
	int top = ui->top + L->off[k], last;
	char b[64];

	/* Scrolled together (ui_draw keeps ui->top in range); stacked panes may continue one another. */
	last = top + v.rows < n ? top + v.rows : n;
	if (v.h < 1)
		return;
	if (L->sep[k])
		draw_vline(ui, y, x - 1, v.h);
	if (L->compact[k]) {
		/* Nothing measured here: the title and why, on one line. */
		int tx = x + draw_text(ui, y, x + 1, w - 1, UA_TITLE, p->name) + 2;
		const char *why = p->reason(&s->f.total);

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
		char widest[64];

		if ((top > 0 || last < n) && last == top + 1)
			snprintf(b, sizeof(b), "row %d of %d", last, n);
		else if ((top > 0 || last < n) && last > top)
			snprintf(b, sizeof(b), "rows %d-%d of %d", top + 1, last, n);
		else
			snprintf(b, sizeof(b), "%d %s%s", n, ui->per_core ? "core" : "CPU",
				 n == 1 ? "" : "s");
		rl = (int)strlen(b);
		if (rl + 1 <= w - (tx - x) - 1)
			draw_right(ui, y, x, w - 1, UA_DIM, b);
		else
			rl = 0;
		/* What the pane shows, when it fits whole beside the widest range. */
		snprintf(widest, sizeof(widest), "rows %d-%d of %d", n, n, n);
		if ((int)strlen(widest) > rl && n > v.rows)
			rl = (int)strlen(widest);
		if ((int)strlen(p->about) <= x + w - 1 - rl - 2 - (tx + 1))
			draw_text(ui, y, tx + 1, w, UA_DIM, p->about);
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

		ui_label(ui, &rows[i], b, sizeof(b));
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

/* What the status line has to say, most important first; "" for nothing. */
static void ui_status_text(const struct ui *ui, const struct ui_snap *s, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
#define ADD(...) do { if (o < len) o += (size_t)snprintf(buf + o, len - o, __VA_ARGS__); } while (0)
	if (ui->msg[0] && ui_now() < ui->msg_until)
		ADD("%s", ui->msg);
	if (!s->valid)
		return;
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
		const struct ui_row *bad = NULL;
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
#undef ADD
}

static void ui_draw_status(struct ui *ui, const struct ui_snap *s, const struct ui_layout *L)
{
	int y = LINES - 1, rw;
	char right[64], left[1024];
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
	snprintf(right, sizeof(right), "sort: %s  %s ",
		 c == &col_cpu && ui->per_core ? "Core" : c->name,
		 ui->per_core ? "per core" : "per CPU");
	rw = (int)strlen(right);
	ui_status_text(ui, s, left, sizeof(left));
	if (L->ndropped && strlen(left) + 200 < sizeof(left)) {
		size_t o = strlen(left);

		o += (size_t)snprintf(left + o, sizeof(left) - o, "%sno room: ", o ? "; " : "");
		for (int i = 0; i < L->ndropped; i++)
			o += (size_t)snprintf(left + o, sizeof(left) - o, "%s%s", i ? ", " : "",
					      L->dropped[i]);
		snprintf(left + o, sizeof(left) - o, " (a taller terminal, or 1 2 3 to hide panes)");
	}
	draw_fill(ui, y, 0, COLS, left[0] ? UA_STATUS_MSG : UA_STATUS);
	if (left[0]) {
		int room = COLS - rw - 1;

		if ((int)strlen(left) > room && room > 1) {
			draw_text(ui, y, 0, room - 1, UA_STATUS_MSG, left);
			draw_text(ui, y, room - 1, 1, UA_STATUS_MSG, ui->g->more);
		} else {
			draw_text(ui, y, 0, room, UA_STATUS_MSG, left);
		}
	} else {
		draw_text(ui, y, 0, COLS - rw - 1, UA_STATUS, "h help  q quit");
	}
	draw_right(ui, y, 0, COLS, left[0] ? UA_STATUS_MSG : UA_STATUS, right);
}

/* The help as lines: a key or column name (at x 3), then what it does. */
#define HELP_LINES 96

struct help_line {
	enum ui_attr a1, a2;
	int x1, x2;
	char t1[512], t2[512];
};

static int help_add(struct help_line *h, int n, int x1, enum ui_attr a1, const char *t1,
		    int x2, enum ui_attr a2, const char *t2)
{
	if (n >= HELP_LINES)
		return n;
	h[n].x1 = x1;
	h[n].a1 = a1;
	snprintf(h[n].t1, sizeof(h[n].t1), "%s", t1 ? t1 : "");
	h[n].x2 = x2;
	h[n].a2 = a2;
	snprintf(h[n].t2, sizeof(h[n].t2), "%s", t2 ? t2 : "");
	return n + 1;
}

/* Words of @text wrapped at @w columns, as lines from @x. */
static int help_wrap(struct help_line *h, int n, int x, int w, const char *text)
{
	const char *p = text;

	while (*p && n < HELP_LINES) {
		int len = (int)strlen(p), cut = len;
		char line[512];

		if (len > w) {
			cut = w;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = w;
		}
		snprintf(line, sizeof(line), "%.*s", cut, p);
		n = help_add(h, n, x, UA_NORMAL, line, 0, UA_NORMAL, NULL);
		p += cut;
		while (*p == ' ')
			p++;
	}
	return n;
}

static int help_lines(struct ui *ui, struct help_line *h)
{
	static const char *const keys[][2] = {
		{ "q", "quit" },
		{ "space", "pause or resume the display" },
		{ "< >", "move the sort column left or right" },
		{ "s", "next sort column" },
		{ "1 2 3", "show or hide the load-latency, snoop and offcore panes" },
		{ "c", "per logical CPU or per core" },
		{ "+ -", "longer or shorter interval (steps 0.1 0.2 0.5 1 2 5 10 30 60 s)" },
		{ "t", "type new load-latency thresholds, applied at once" },
		{ "Up Down PgUp PgDn Home End", "scroll the rows" },
		{ "r", "reset the history" },
		{ "H", "the history view: a row's numbers over time (Up Down: which row)" },
		{ "h ?", "this help" },
	};
	static const char *const cols[][2] = {
		{ "Loads/s", "loads retired per second" },
		{ ">N", "loads slower than N cycles per second, estimated: share of tagged loads x Loads/s; bar: the share" },
		{ "~Mean", "estimated mean load latency in core cycles: the middle of its bounds" },
		{ "Hit/s", "demand reads served by a clean line in another core (Atoms: another module)" },
		{ "HITM/s", "... by a modified line in another core (false or true sharing)" },
		{ "RHit/s RHITM/s", "... by a clean or modified line in another package's cache" },
		{ "HITM%", "HITM share; a row in bold red: HITM/s far above its recent median" },
		{ "Reads/s", "demand data reads that miss the L2 (Atoms: leave the module)" },
		{ "Lat(cyc)", "their mean latency in core cycles (and ns)" },
	};
	static const char *const replay_keys[][2] = {
		{ "space", "pause or resume the replay" },
		{ "Left Right", "one snapshot back or forward" },
		{ "+ -", "play faster or slower (x1/4 to x64)" },
		{ "g", "jump to a time" },
	};
	const struct ui_snap *s = ui_shown(ui);
	int n = 0, kw = 12;
	char reasons[1024];

	n = help_add(h, n, 1, UA_TITLE, "lattop keys", 0, UA_NORMAL, NULL);
	n = help_add(h, n, 0, UA_NORMAL, NULL, 0, UA_NORMAL, NULL);
	for (size_t i = 0; ui->opts.replay && i < sizeof(replay_keys) / sizeof(replay_keys[0]); i++)
		n = help_add(h, n, 3, UA_BRAND, replay_keys[i][0], 3 + kw + 1, UA_NORMAL,
			     replay_keys[i][1]);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		/* Replaying, these keys do what the replay's say above, or nothing. */
		if (ui->opts.replay && (!strcmp(keys[i][0], "space") || !strcmp(keys[i][0], "+ -") ||
					!strcmp(keys[i][0], "t") || !strcmp(keys[i][0], "c")))
			continue;
		if ((int)strlen(keys[i][0]) >= kw) {
			n = help_add(h, n, 3, UA_BRAND, keys[i][0], 0, UA_NORMAL, NULL);
			n = help_add(h, n, 0, UA_NORMAL, NULL, 3 + kw + 1, UA_NORMAL, keys[i][1]);
		} else {
			n = help_add(h, n, 3, UA_BRAND, keys[i][0], 3 + kw + 1, UA_NORMAL, keys[i][1]);
		}
	}
	n = help_add(h, n, 0, UA_NORMAL, NULL, 0, UA_NORMAL, NULL);
	n = help_add(h, n, 1, UA_TITLE, "columns", 0, UA_NORMAL, NULL);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		n = help_add(h, n, 3, UA_BRAND, cols[i][0], 3 + kw + 1, UA_NORMAL, cols[i][1]);
	/* Why some columns show n/a, in full. */
	reasons[0] = 0;
	if (s->valid) {
		size_t o = 0;

		for (int i = 0; i < UI_MAX_PANES; i++) {
			const char *why = ui_panes[i]->reason(&s->f.total);

			if (why && o < sizeof(reasons))
				o += (size_t)snprintf(reasons + o, sizeof(reasons) - o, "%s%s: %s.",
						      o ? " " : "", ui_panes[i]->what, why);
		}
	}
	if (reasons[0]) {
		n = help_add(h, n, 0, UA_NORMAL, NULL, 0, UA_NORMAL, NULL);
		n = help_add(h, n, 1, UA_TITLE, "not measured on this CPU (n/a)", 0, UA_NORMAL, NULL);
		n = help_wrap(h, n, 3, COLS - 4 > 10 ? COLS - 4 : 10, reasons);
	}
	return n;
}

/* The help, from line ui->help_top: it scrolls when the screen is shorter. */
static void ui_draw_help(struct ui *ui)
{
	static struct help_line h[HELP_LINES];
	int n = help_lines(ui, h), room = LINES - 1;

	if (ui->help_top > n - room)
		ui->help_top = n - room;
	if (ui->help_top < 0)
		ui->help_top = 0;
	for (int y = 0; y < room && ui->help_top + y < n; y++) {
		const struct help_line *l = &h[ui->help_top + y];

		if (l->t1[0])
			draw_text(ui, y, l->x1, COLS - l->x1 - 1, l->a1, l->t1);
		if (l->t2[0])
			draw_text(ui, y, l->x2, COLS - l->x2 - 1, l->a2, l->t2);
	}
	draw_fill(ui, LINES - 1, 0, COLS, UA_STATUS);
	if (n > room) {
		char b[160];

		snprintf(b, sizeof(b), "lines %d-%d of %d  Up Down PgUp PgDn scroll  "
			 "any other key closes this help", ui->help_top + 1,
			 ui->help_top + room < n ? ui->help_top + room : n, n);
		draw_text(ui, LINES - 1, 0, COLS, UA_STATUS, b);
	} else {
		draw_text(ui, LINES - 1, 0, COLS, UA_STATUS, "any key closes this help");
	}
}

/* Scroll the help by a key; false when the key is not a scrolling one. */
static bool ui_help_scroll(struct ui *ui, int key)
{
	int page = LINES - 2 > 1 ? LINES - 2 : 1;

	switch (key) {
	case KEY_UP: ui->help_top--; break;
	case KEY_DOWN: ui->help_top++; break;
	case KEY_PPAGE: ui->help_top -= page; break;
	case KEY_NPAGE: ui->help_top += page; break;
	case KEY_HOME: ui->help_top = 0; break;
	case KEY_END: ui->help_top = HELP_LINES; break;
	default: return false;
	}
	if (ui->help_top < 0)
		ui->help_top = 0;
	return true;
}

static void ui_draw(struct ui *ui)
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
		ui_draw_help(ui);
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	ui_layout(ui, s, &L);
	ui->page = L.window;
	ui_draw_header(ui, s, L.nhead);
	if (ui->history && s->valid) {
		history_draw(ui, &ui->hist, s, ui->per_core, L.nhead, 0, COLS, LINES - 1 - L.nhead);
	} else if (s->valid && ui_sort_rows(ui, s) == 0) {
		n = ui_nrows(ui, s);
		if (ui->top > n - (L.window > 0 ? L.window : 1))
			ui->top = n - (L.window > 0 ? L.window : 1);
		if (ui->top < 0)
			ui->top = 0;
		for (int k = 0; k < L.n; k++)
			ui_draw_pane(ui, s, &L, k);
	}
	ui_draw_status(ui, s, &L);
	if (ui->cursor != ui->prompt) {
		curs_set(ui->prompt ? 1 : 0);
		ui->cursor = ui->prompt;
	}
	wnoutrefresh(stdscr);
	doupdate();
}

/* ---- keys ---- */

static bool ui_scroll(struct ui *ui, int key)
{
	const struct ui_snap *s = ui_shown(ui);
	struct ui_layout L;
	int n, page, max, top = ui->top;

	if (!s->valid)
		return false;
	ui_layout(ui, s, &L);
	n = ui_nrows(ui, s);
	page = L.window > 0 ? L.window : 1;
	max = n - page > 0 ? n - page : 0;
	switch (key) {
	case KEY_UP:
		top--;
		break;
	case KEY_DOWN:
		top++;
		break;
	case KEY_PPAGE:
		top -= page;
		break;
	case KEY_NPAGE:
		top += page;
		break;
	case KEY_HOME:
		top = 0;
		break;
	case KEY_END:
		top = max;
		break;
	}
	if (top > max)
		top = max;
	if (top < 0)
		top = 0;
	if (top == ui->top)
		return false;
	ui->top = top;
	return true;
}

/* Move the sort column by @dir, skipping the columns of hidden panes. */
static bool ui_sort_move(struct ui *ui, int dir)
{
	int c = ui->sort;

	for (int i = 0; i < ui->ncols; i++) {
		c = (c + dir + ui->ncols) % ui->ncols;
		if (ui->col_pane[c] < 0 || ui->visible[ui->col_pane[c]])
			break;
	}
	if (c == ui->sort)
		return false;
	ui->sort = c;
	return true;
}

static bool ui_step(struct ui *ui, int dir)
{
	int n = (int)(sizeof(ui_steps) / sizeof(ui_steps[0]));
	double cur = ui->interval_s, next = cur;

	if (dir > 0) {
		for (int i = 0; i < n; i++)
			if (ui_steps[i] > cur + 1e-9) {
				next = ui_steps[i];
				break;
			}
	} else {
		for (int i = n - 1; i >= 0; i--)
			if (ui_steps[i] < cur - 1e-9) {
				next = ui_steps[i];
				break;
			}
	}
	if (next == cur)
		return false;
	ui->interval_s = next;
	return true;
}

static void ui_prompt_open(struct ui *ui)
{
	const struct ui_snap *s = &ui->live;
	const unsigned *t = ui->thresh;
	int n = ui->nthresh;
	size_t o = 0;

	if (s->valid && s->f.total.lat.nthresh > 0) {
		t = s->f.total.lat.thresholds;
		n = s->f.total.lat.nthresh;
	}
	ui->pbuf[0] = 0;
	for (int i = 0; i < n && o < sizeof(ui->pbuf); i++)
		o += (size_t)snprintf(ui->pbuf + o, sizeof(ui->pbuf) - o, "%s%u", i ? "," : "",
				      t[i]);
	ui->plen = (int)strlen(ui->pbuf);
	ui->prompt = true;
	ui->pfresh = true;
	ui->pjump = false;
}

/* Replaying: 'g' asks for a time to jump to. */
static void ui_jump_open(struct ui *ui)
{
	ui->pbuf[0] = 0;
	ui->plen = 0;
	ui->prompt = true;
	ui->pfresh = false;
	ui->pjump = true;
}

static void ui_set_message(struct ui *ui, const char *msg)
{
	snprintf(ui->msg, sizeof(ui->msg), "%s", msg ? msg : "");
	ui->msg_until = ui_now() + MSG_SECONDS;
	ui->dirty = true;
}

static enum ui_action ui_prompt_key(struct ui *ui, int ch)
{
	bool fresh = ui->pfresh;

	/* The current list is shown as a starting point: typing replaces it, editing keeps it. */
	ui->pfresh = false;
	switch (ch) {
	case 27:                /* Esc */
		ui->prompt = false;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER: {
		unsigned t[PLAN_MAX_THRESH];
		int n = 0;
		char err[512];

		ui->prompt = false;
		ui->dirty = true;
		if (ui->pjump) {
			double when;

			err[0] = 0;
			if (!ui->opts.parse_time ||
			    ui->opts.parse_time(ui->opts.parse_arg, ui->pbuf, &when, err, sizeof(err)) < 0) {
				ui_set_message(ui, err[0] ? err : "not a time");
				return UI_NONE;
			}
			ui->jump_t = when;
			ui->msg[0] = 0;
			return UI_JUMP;
		}
		if (!ui->opts.parse_thresholds) {
			ui_set_message(ui, "thresholds cannot be changed here");
			return UI_NONE;
		}
		err[0] = 0;
		if (ui->opts.parse_thresholds(ui->pbuf, t, &n, err, sizeof(err)) < 0) {
			ui_set_message(ui, err[0] ? err : "thresholds refused");
			return UI_NONE;
		}
		memcpy(ui->thresh, t, (size_t)n * sizeof(*t));
		ui->nthresh = n;
		ui->msg[0] = 0;
		return UI_THRESHOLDS;
	}
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (!ui->plen)
			return UI_NONE;
		ui->pbuf[--ui->plen] = 0;
		break;
	case 21:                /* ^U */
		if (!ui->plen)
			return UI_NONE;
		ui->plen = 0;
		ui->pbuf[0] = 0;
		break;
	case KEY_RESIZE:
		break;
	default:
		if (ch < 0x20 || ch > 0x7e)
			return UI_NONE;
		if (fresh)
			ui->plen = 0;
		if (ui->plen + 1 >= (int)sizeof(ui->pbuf))
			return UI_NONE;
		ui->pbuf[ui->plen++] = (char)ch;
		ui->pbuf[ui->plen] = 0;
		break;
	}
	ui->dirty = true;
	return UI_NONE;
}

static enum ui_action ui_key(struct ui *ui, int ch)
{
	if (ui->help) {
		/* The scrolling keys scroll it, any other closes it; a resize only redraws it. */
		if (ch != KEY_RESIZE && !ui_help_scroll(ui, ch))
			ui->help = false;
		ui->dirty = true;
		return UI_NONE;
	}
	if (ui->prompt)
		return ui_prompt_key(ui, ch);
	if (ui->opts.replay) {
		switch (ch) {
		case ' ': return UI_PLAY;
		case KEY_LEFT: return UI_STEP_BACK;
		case KEY_RIGHT: return UI_STEP_FWD;
		case '+': case '=': return UI_FASTER;
		case '-': case '_': return UI_SLOWER;
		case 'g':
			ui_jump_open(ui);
			ui->dirty = true;
			return UI_NONE;
		case 't':
			ui_set_message(ui, "a replay shows the thresholds recorded");
			return UI_NONE;
		case 'c':
			ui_set_message(ui, "a recording holds per-CPU rows only");
			return UI_NONE;
		}
	}
	if (ui->history) {
		switch (ch) {
		case KEY_UP:
		case KEY_DOWN:
			ui->dirty |= history_select(&ui->hist, ui->per_core, ch == KEY_UP ? -1 : 1);
			return UI_NONE;
		case '\n':
		case '\r':
		case KEY_ENTER:
			ui->history = false;
			ui->dirty = true;
			return UI_NONE;
		}
	}
	switch (ch) {
	case 'H':
		ui->history = !ui->history;
		ui->dirty = true;
		return UI_NONE;
	case 'q':
	case 'Q':
		return UI_QUIT;
	case ' ':
		ui->paused = !ui->paused;
		if (ui->paused && snap_clone(&ui->frozen, &ui->live) < 0) {
			ui->paused = false;
			ui_set_message(ui, "out of memory: cannot pause");
		}
		ui->dirty = true;
		return UI_NONE;
	case 'h':
	case '?':
		ui->help = true;
		ui->help_top = 0;
		ui->dirty = true;
		return UI_NONE;
	case '<':
		ui->dirty |= ui_sort_move(ui, -1);
		return UI_NONE;
	case '>':
	case 's':
		ui->dirty |= ui_sort_move(ui, +1);
		return UI_NONE;
	case 'c':
		ui->per_core = !ui->per_core;
		ui->top = 0;
		ui->dirty = true;
		return UI_NONE;
	case '+':
	case '=':
		if (!ui_step(ui, +1))
			return UI_NONE;
		ui->dirty = true;
		return UI_INTERVAL;
	case '-':
	case '_':
		if (!ui_step(ui, -1))
			return UI_NONE;
		ui->dirty = true;
		return UI_INTERVAL;
	case 't':
		ui_prompt_open(ui);
		ui->dirty = true;
		return UI_NONE;
	case KEY_UP:
	case KEY_DOWN:
	case KEY_PPAGE:
	case KEY_NPAGE:
	case KEY_HOME:
	case KEY_END:
		ui->dirty |= ui_scroll(ui, ch);
		return UI_NONE;
	case KEY_RESIZE:
		ui->dirty = true;
		return UI_NONE;
	}
	/* The panes: their toggles (one stays shown), then their own keys. */
	for (int i = 0; i < UI_MAX_PANES; i++) {
		if (ch != ui_panes[i]->toggle)
			continue;
		if (ui->visible[i]) {
			int shown = 0;

			for (int k = 0; k < UI_MAX_PANES; k++)
				shown += ui->visible[k];
			if (shown == 1) {
				char m[128];

				snprintf(m, sizeof(m), "the %s pane is the last one shown: it stays "
					 "(show another first: 1 2 3)", ui_panes[i]->what);
				ui_set_message(ui, m);
				return UI_NONE;
			}
		}
		ui->visible[i] = !ui->visible[i];
		/* The sort column never sits in a hidden pane: the order would look random. */
		if (!ui->visible[i] && ui->col_pane[ui->sort] == i) {
			char m[128];

			snprintf(m, sizeof(m), "sorted by %s again (%s is in the hidden %s pane)",
				 ui->per_core ? "Core" : "CPU", ui->cols[ui->sort]->name,
				 ui_panes[i]->what);
			ui->sort = 0;
			ui_set_message(ui, m);
		}
		ui->dirty = true;
		return UI_NONE;
	}
	for (int i = 0; i < UI_MAX_PANES; i++)
		if (ui_panes[i]->key && ui_panes[i]->key(ui, ch)) {
			ui->dirty = true;
			break;
		}
	return UI_NONE;
}

/* ---- ui.h ---- */

static bool ui_ascii_term(const char *term)
{
	static const char *const names[] = { "vt100", "vt220", "dumb", "linux" };

	if (!term)
		return true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t l = strlen(names[i]);

		if (!strncmp(term, names[i], l) && (term[l] == 0 || term[l] == '-'))
			return true;
	}
	return false;
}

struct ui *ui_open(const struct ui_opts *opts, char *err, size_t errlen)
{
	struct ui *ui = &the_ui;
	const char *term = getenv("TERM");

	if (ui->open) {
		snprintf(err, errlen, "the screen is already open");
		return NULL;
	}
	if (!term || !*term) {
		snprintf(err, errlen, "TERM is not set, so the screen cannot be drawn: "
			 "use --once or -b for a text report");
		return NULL;
	}
	/* The character set from the environment; numbers stay "0.5", not "0,5". */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	memset(ui, 0, sizeof(*ui));
	ui->hist.sel = -1;               /* the history view starts on the total */
	ui->scr = newterm(NULL, stdout, stdin);
	if (!ui->scr) {
		snprintf(err, errlen, "cannot use the terminal '%s' (no terminfo entry for it?): "
			 "use --once or -b for a text report", term);
		return NULL;
	}
	set_term(ui->scr);
	if (!tigetstr("cup") || tigetstr("cup") == (char *)-1) {
		endwin();
		delscreen(ui->scr);
		ui->scr = NULL;
		snprintf(err, errlen, "the terminal '%s' cannot move its cursor: "
			 "use --once or -b for a text report", term);
		return NULL;
	}
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(ESC_DELAY_MS);
	curs_set(0);
	ui->cursor = false;

	ui->open = true;
	ui->opts = *opts;
	ui->color = !opts->no_color && has_colors() && start_color() == OK;
	ui->utf8 = !opts->ascii && !ui_ascii_term(term) && !strcmp(nl_langinfo(CODESET), "UTF-8");
	draw_init(ui);
	ui->interval_s = opts->interval_s;
	for (int i = 0; i < UI_MAX_PANES; i++)
		ui->visible[i] = true;
	ui->cols[ui->ncols] = &col_cpu;
	ui->col_pane[ui->ncols++] = -1;
	for (int i = 0; i < UI_MAX_PANES; i++)
		for (int j = 0; j < ui_panes[i]->ncols && ui->ncols < UI_MAX_COLS; j++) {
			ui->cols[ui->ncols] = &ui_panes[i]->cols[j];
			ui->col_pane[ui->ncols++] = i;
		}
	ui_draw(ui);
	return ui;
}

void ui_close(struct ui *ui)
{
	if (!ui || !ui->open)
		return;
	curs_set(1);
	endwin();
	delscreen(ui->scr);
	ui->scr = NULL;
	snap_free(&ui->live);
	snap_free(&ui->frozen);
	history_free(&ui->hist);
	free(ui->order);
	ui->order = NULL;
	ui->order_cap = 0;
	ui->open = false;
}

void ui_close_keep(struct ui *ui)
{
	size_t cap, o = 0, keep = 0;
	wchar_t *w;
	char *text;

	if (!ui || !ui->open)
		return;
	/* The last frame read back as text before the screen goes, then printed after. */
	cap = (size_t)LINES * ((size_t)COLS * MB_CUR_MAX + 1) + 1;
	text = malloc(cap);
	w = calloc((size_t)COLS + 1, sizeof(*w));
	if (text && w) {
		for (int y = 0; y < LINES; y++) {
			size_t n;

			if (mvwinnwstr(stdscr, y, 0, w, COLS) == ERR)
				w[0] = 0;
			n = wcstombs(text + o, w, cap - o - 2);
			if (n == (size_t)-1)
				n = 0;
			o += n;
			while (o > 0 && text[o - 1] == ' ')
				o--;
			text[o++] = '\n';
			if (o > 1 && text[o - 2] != '\n')
				keep = o;       /* blank lines at the end are left out */
		}
	}
	ui_close(ui);
	if (text && keep) {
		fwrite(text, 1, keep, stdout);
		fflush(stdout);
	}
	free(text);
	free(w);
}

void ui_frame(struct ui *ui, const struct ui_frame *f)
{
	if (!ui || !ui->open || !f)
		return;
	if (snap_copy(&ui->live, f) < 0 || history_push(&ui->hist, f) < 0) {
		ui_set_message(ui, "out of memory: the last interval is not shown");
	} else {
		snap_push(&ui->live);
		ui->interval_s = f->interval_s;
		if (!ui->paused)
			ui->dirty = true;
	}
	if (ui->msg[0] && ui_now() >= ui->msg_until) {
		ui->msg[0] = 0;
		ui->dirty = true;
	}
	if (ui->dirty && !ui->help)
		ui_draw(ui);
}

enum ui_action ui_wait(struct ui *ui, double deadline)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };

	if (!ui || !ui->open)
		return UI_NONE;
	for (;;) {
		double now, wake;
		int ch, r, ms;

		while ((ch = getch()) != ERR) {
			enum ui_action a = ui_key(ui, ch);

			if (a != UI_NONE) {
				if (ui->dirty)
					ui_draw(ui);
				return a;
			}
		}
		now = ui_now();
		if (ui->msg[0] && now >= ui->msg_until) {
			ui->msg[0] = 0;
			ui->dirty = true;
		}
		if (ui->dirty)
			ui_draw(ui);
		if (now >= deadline)
			return UI_NONE;
		wake = deadline;
		if (ui->msg[0] && ui->msg_until < wake)
			wake = ui->msg_until;
		ms = (int)ceil((wake - now) * 1000);
		if (ms < 1)
			ms = 1;
		r = poll(&pfd, 1, ms);
		if (r < 0 && errno == EINTR)
			return UI_NONE;         /* a signal: the caller looks at its flags */
		if (r < 0) {
			/* Cannot wait for keys: wait for the deadline at least, not in a spin. */
			struct timespec ts = {
				.tv_sec = (time_t)deadline,
				.tv_nsec = (long)((deadline - floor(deadline)) * 1e9),
			};

			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
			return UI_NONE;
		}
		if (r > 0 && (pfd.revents & (POLLHUP | POLLERR | POLLNVAL)))
			return UI_QUIT;         /* the terminal is gone */
	}
}

double ui_interval(const struct ui *ui)
{
	return ui ? ui->interval_s : 0;
}

int ui_thresholds(const struct ui *ui, unsigned *out, int max)
{
	int n;

	if (!ui)
		return 0;
	n = ui->nthresh < max ? ui->nthresh : max;
	memcpy(out, ui->thresh, (size_t)(n > 0 ? n : 0) * sizeof(*out));
	return n;
}

double ui_jump_time(const struct ui *ui)
{
	return ui ? ui->jump_t : 0;
}

void ui_message(struct ui *ui, const char *msg)
{
	if (!ui || !ui->open)
		return;
	ui_set_message(ui, msg);
	if (!ui->help)
		ui_draw(ui);
}

void ui_suspend(struct ui *ui)
{
	if (!ui || !ui->open)
		return;
	curs_set(1);
	endwin();
}

void ui_resume(struct ui *ui)
{
	if (!ui || !ui->open)
		return;
	curs_set(ui->cursor ? 1 : 0);
	clearok(curscr, TRUE);
	ui_draw(ui);
}
