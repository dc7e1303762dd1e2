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
 * `lattop keys`, `PAUSED`, `SIMULATED`) are a contract with
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
}

/* ---- layout ---- */

struct ui_layout {
	int nhead;                              /* header lines */
	int n;                                  /* panes shown */
	const struct pane *pane[UI_MAX_PANES];
	struct pane_view view[UI_MAX_PANES];
	bool sep[UI_MAX_PANES];                 /* a separator left of it */
	int lw;
	int page;                               /* rows shown in the smallest pane */
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

static void ui_rotation_text(const struct ui_snap *s, char *buf, size_t len)
{
	const struct ui_frame *f = &s->f;
	size_t o;

	buf[0] = 0;
	if (f->nslots <= 1)
		return;
	o = (size_t)snprintf(buf, len, "rotation: %d slots", f->nslots);
	if (f->share_lat > 0 && o < len)
		o += (size_t)snprintf(buf + o, len - o, " latency %.0f%%/threshold",
				      100 * f->share_lat);
	if (f->share_snoop > 0 && o < len)
		o += (size_t)snprintf(buf + o, len - o, " snoop %.0f%%", 100 * f->share_snoop);
	if (f->share_offcore > 0 && o < len)
		snprintf(buf + o, len - o, " offcore %.0f%%", 100 * f->share_offcore);
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
		ui_panes[i]->width(ui, &pref[L->n], &max[L->n]);
		L->n++;
	}
	if (!L->n)
		return;
	for (int cut = 0; cut < 1 << (L->n - 1); cut++) {
		int bands = 1, widest = 0, w = 0, k = 0;

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
	/* Heights: three lines each (title, column header, total) and a share of the rows. */
	avail = LINES - L->nhead - 1;
	{
		int spare = avail - 3 * nb, each = nb ? spare / nb : 0, rem = nb ? spare % nb : 0;
		int band_h[UI_MAX_PANES], band_rows[UI_MAX_PANES];

		L->page = -1;
		for (int b = 0; b < nb; b++) {
			if (spare >= 0) {
				band_rows[b] = each + (b < rem);
				if (band_rows[b] > nrows)
					band_rows[b] = nrows;
				band_h[b] = 3 + band_rows[b];
			} else {
				band_rows[b] = 0;
				band_h[b] = avail / nb + (b < avail % nb);
			}
			if (L->page < 0 || band_rows[b] < L->page)
				L->page = band_rows[b];
		}
		y = L->nhead;
		for (int b = 0; b < nb; b++) {
			for (int i = 0; i < L->n; i++) {
				if (band_of[i] != b)
					continue;
				L->view[i].y = y;
				L->view[i].h = band_h[b];
				L->view[i].rows = band_rows[b];
			}
			y += band_h[b];
		}
	}
	if (L->page < 0)
		L->page = 0;
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
	char clock[16], iv[32], b[256];
	const char *pretty = s->valid ? s->f.desc->uarch->pretty : "";
	int x, rw, left;
	bool sim = s->valid && s->f.simulated, show_iv = true, show_clock = true;
	time_t t;
	struct tm tm;

	t = s->valid ? (time_t)s->f.time : time(NULL);
	localtime_r(&t, &tm);
	strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
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
		rw = (ui->paused ? 10 : 0) + (show_iv ? (int)strlen(iv) + 2 : 0) +
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
	if (show_iv)
		x += 2 + draw_text(ui, 0, x, COLS - x, UA_NORMAL, iv);
	if (show_clock)
		draw_text(ui, 0, x, COLS - x, UA_NORMAL, clock);

	if (!s->valid)
		return;
	ui_pmu_text(s, b, sizeof(b));
	x = 1 + draw_text(ui, 1, 1, COLS - 1, UA_NORMAL, b);
	ui_rotation_text(s, b, sizeof(b));
	if (b[0])
		draw_text(ui, nhead == 2 ? 1 : 2, nhead == 2 ? x + 3 : 1, COLS, UA_DIM, b);
}

static void ui_draw_pane(struct ui *ui, const struct ui_snap *s, const struct ui_layout *L, int k)
{
	const struct pane *p = L->pane[k];
	struct pane_view v = L->view[k];
	const struct ui_row *rows = ui_rows(ui, s);
	int n = ui_nrows(ui, s), x = v.x, y = v.y, w = v.w;
	int top = ui->top;
	char b[64];

	/* Scrolled together; a pane with more room than the rest still ends full. */
	if (top > n - v.rows)
		top = n - v.rows;
	if (top < 0)
		top = 0;

	if (v.h < 1)
		return;
	if (L->sep[k])
		draw_vline(ui, y, x - 1, v.h);

	/* Title, what it shows, and where the rows are. */
	{
		int tx = x + draw_text(ui, y, x + 1, w - 1, UA_TITLE, p->name) + 1, rl;
		char widest[64];

		if (n > v.rows && v.rows > 0)
			snprintf(b, sizeof(b), "rows %d-%d of %d", top + 1, top + v.rows, n);
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
	for (int j = 0; j < v.rows && top + j < n; j++) {
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
	for (int i = 0; i < UI_MAX_PANES; i++) {
		const char *why;

		if (!ui->visible[i])
			continue;
		why = ui_panes[i]->reason(&s->f.total);
		if (why)
			ADD("%s%s n/a: %s", o ? "; " : "", ui_panes[i]->what, why);
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

static void ui_draw_status(struct ui *ui, const struct ui_snap *s)
{
	int y = LINES - 1, rw;
	char right[64], left[1024];
	const struct ui_col *c = ui->cols[ui->sort];

	if (ui->prompt) {
		static const char hint[] = "type to replace  Backspace edit  Enter apply  Esc cancel ";
		int x;

		int room, skip;

		draw_fill(ui, y, 0, COLS, UA_NORMAL);
		x = draw_text(ui, y, 0, COLS, UA_TITLE, "thresholds: ");
		/* A long line shows its end, where the typing is. */
		room = COLS - x - 1;
		skip = ui->plen > room && room > 0 ? ui->plen - room : 0;
		x += draw_text(ui, y, x, room, UA_NORMAL, ui->pbuf + skip);
		if (COLS - x - 2 > (int)sizeof(hint))
			draw_right(ui, y, 0, COLS, UA_DIM, hint);
		move(y, x < COLS ? x : COLS - 1);
		return;
	}
	snprintf(right, sizeof(right), "sort: %s  %s ",
		 c == &col_cpu && ui->per_core ? "Core" : c->name,
		 ui->per_core ? "per core" : "per CPU");
	rw = (int)strlen(right);
	ui_status_text(ui, s, left, sizeof(left));
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

/* Words of @text wrapped at @w columns from line @y; the next free line. */
static int ui_wrap(struct ui *ui, int y, int x, int w, enum ui_attr a, const char *text)
{
	const char *p = text;

	while (*p && y < LINES - 1) {
		int len = (int)strlen(p), cut = len;

		if (len > w) {
			cut = w;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = w;
		}
		{
			char line[512];

			snprintf(line, sizeof(line), "%.*s", cut, p);
			draw_text(ui, y++, x, w, a, line);
		}
		p += cut;
		while (*p == ' ')
			p++;
	}
	return y;
}

static void ui_draw_help(struct ui *ui)
{
	static const char *const keys[][2] = {
		{ "q", "quit" },
		{ "space", "pause or resume the display" },
		{ "< >", "move the sort column left or right" },
		{ "s", "next sort column" },
		{ "1 2 3", "show or hide the load-latency, snoop and offcore panes" },
		{ "c", "per logical CPU or per core" },
		{ "+ -", "longer or shorter interval (steps 0.1 0.2 0.5 1 2 5 10 30 60 s)" },
		{ "t", "type new load-latency thresholds" },
		{ "Up Down PgUp PgDn Home End", "scroll the rows" },
		{ "r", "reset the history" },
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
	const struct ui_snap *s = ui_shown(ui);
	int y = 0, kw = 12, w = COLS - 2;
	char reasons[1024];

	draw_text(ui, y++, 1, w, UA_TITLE, "lattop keys");
	y++;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && y < LINES - 1; i++) {
		int l = (int)strlen(keys[i][0]);

		draw_text(ui, y, 3, w - 2, UA_BRAND, keys[i][0]);
		if (l >= kw)
			y++;
		if (y < LINES - 1)
			draw_text(ui, y, 3 + kw + 1, COLS - 4 - kw, UA_NORMAL, keys[i][1]);
		y++;
	}
	/* The columns, when the screen has room for them all. */
	if (y + 2 + (int)(sizeof(cols) / sizeof(cols[0])) < LINES - 1) {
		y++;
		draw_text(ui, y++, 1, w, UA_TITLE, "columns");
		for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
			draw_text(ui, y, 3, kw, UA_BRAND, cols[i][0]);
			draw_text(ui, y++, 3 + kw + 1, COLS - 4 - kw, UA_NORMAL, cols[i][1]);
		}
	}
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
	if (reasons[0] && y + 2 < LINES - 1) {
		y++;
		draw_text(ui, y++, 1, w, UA_TITLE, "not measured on this CPU (n/a)");
		y = ui_wrap(ui, y, 3, COLS - 4, UA_NORMAL, reasons);
	}
	draw_fill(ui, LINES - 1, 0, COLS, UA_STATUS);
	draw_text(ui, LINES - 1, 0, COLS, UA_STATUS, "any key closes this help");
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
	ui->page = L.page;
	ui_draw_header(ui, s, L.nhead);
	if (s->valid && ui_sort_rows(ui, s) == 0) {
		n = ui_nrows(ui, s);
		if (ui->top > n - (L.page > 0 ? L.page : 1))
			ui->top = n - (L.page > 0 ? L.page : 1);
		if (ui->top < 0)
			ui->top = 0;
		for (int k = 0; k < L.n; k++)
			ui_draw_pane(ui, s, &L, k);
	}
	ui_draw_status(ui, s);
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
	page = L.page > 0 ? L.page : 1;
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
		/* Any key closes the help; a resize only redraws it. */
		if (ch != KEY_RESIZE)
			ui->help = false;
		ui->dirty = true;
		return UI_NONE;
	}
	if (ui->prompt)
		return ui_prompt_key(ui, ch);
	switch (ch) {
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
			if (shown == 1)
				return UI_NONE;
		}
		ui->visible[i] = !ui->visible[i];
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
	free(ui->order);
	ui->order = NULL;
	ui->order_cap = 0;
	ui->open = false;
}

void ui_frame(struct ui *ui, const struct ui_frame *f)
{
	if (!ui || !ui->open || !f)
		return;
	if (snap_copy(&ui->live, f) < 0) {
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

void ui_message(struct ui *ui, const char *msg)
{
	if (!ui || !ui->open)
		return;
	ui_set_message(ui, msg);
	if (!ui->help)
		ui_draw(ui);
}
