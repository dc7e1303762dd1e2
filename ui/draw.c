/*
 * draw.c: the screen's drawing primitives: attributes (colour or
 * monochrome), glyphs (UTF-8 blocks or ASCII), text clipped to a width and
 * where a line of it breaks, blank fills, bars, sparklines, separators and
 * n/a cells.  It formats no number: output/numfmt.c does.
 *
 * Owns the choice of colours and characters; knows nothing of panes,
 * layout or frames.  Draws on stdscr only; never refreshes or clears.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/ui_internal.h"

static const struct ui_glyphs glyphs_utf8 = {
	.bar = { " ", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589",
		 "\u2588" },
	.spark = { " ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587",
		   "\u2588" },
	.nspark = 9,
	.shade = { " ", ".", "\u2591", "\u2592", "\u2593", "\u2588" },
	.vline = "\u2502",
	.more = "\u2026",
};

static const struct ui_glyphs glyphs_ascii = {
	.bar = { " ", ".", ".", ":", ":", "+", "+", "#", "#" },
	.spark = { " ", ".", ":", "-", "=", "+", "*", "#", "%", "@" },
	.nspark = 10,
	.shade = { " ", ".", ":", "+", "*", "#" },
	.vline = "|",
	.more = "~",
};

enum { P_RED = 1, P_GREEN, P_YELLOW, P_CYAN, P_BLUE, P_MAGENTA, P_DEFAULT };

void draw_init(struct ui *ui)
{
	attr_t *a = ui->attr;

	ui->g = ui->utf8 ? &glyphs_utf8 : &glyphs_ascii;
	for (int i = 0; i < UA__COUNT; i++)
		a[i] = A_NORMAL;
	/* Monochrome: reverse and bold only (and dim where the terminal has it). */
	a[UA_BRAND] = A_BOLD;
	a[UA_UARCH] = A_BOLD;
	a[UA_SIMULATED] = A_REVERSE | A_BOLD;
	a[UA_PAUSED] = A_REVERSE | A_BOLD;
	a[UA_TITLE] = A_BOLD;
	a[UA_DIM] = A_DIM;
	a[UA_COLHDR] = A_REVERSE;
	a[UA_COLHDR_SORT] = A_REVERSE | A_BOLD | A_UNDERLINE;
	a[UA_TOTAL] = A_BOLD;
	a[UA_NA] = A_DIM;
	a[UA_STATUS] = A_REVERSE;
	a[UA_STATUS_MSG] = A_REVERSE | A_BOLD;
	a[UA_WARN] = A_BOLD;
	a[UA_HOT] = A_BOLD;
	a[UA_HOT_CELL] = A_BOLD | A_REVERSE;
	a[UA_SELECTED] = A_BOLD | A_REVERSE;
	if (!ui->color)
		return;

	{
		short bg = use_default_colors() == OK ? -1 : COLOR_BLACK;

		/*
		 * With the terminal's own colours, the plain text and the blanks
		 * are a pair of their own, both colours the terminal's: from a
		 * coloured cell back to plain text ncurses then sends the one
		 * colour (ESC[39m), where from a pair to no pair at all it sends
		 * that and a reset of every attribute (ESC[m), at each bar and
		 * sparkline of every refresh.
		 */
		if (bg < 0 && init_pair(P_DEFAULT, -1, -1) == OK) {
			for (int i = 0; i < UA__COUNT; i++)
				a[i] |= COLOR_PAIR(P_DEFAULT);
			bkgdset(' ' | COLOR_PAIR(P_DEFAULT));
		}
		init_pair(P_RED, COLOR_RED, bg);
		init_pair(P_GREEN, COLOR_GREEN, bg);
		init_pair(P_YELLOW, COLOR_YELLOW, bg);
		init_pair(P_CYAN, COLOR_CYAN, bg);
		init_pair(P_BLUE, COLOR_BLUE, bg);
		init_pair(P_MAGENTA, COLOR_MAGENTA, bg);
	}
	a[UA_BRAND] = A_BOLD | COLOR_PAIR(P_CYAN);
	a[UA_SIMULATED] = A_REVERSE | A_BOLD | COLOR_PAIR(P_RED);
	a[UA_PAUSED] = A_REVERSE | A_BOLD | COLOR_PAIR(P_YELLOW);
	a[UA_TITLE] = A_BOLD | COLOR_PAIR(P_CYAN);
	a[UA_COLHDR] = A_REVERSE | COLOR_PAIR(P_GREEN);
	a[UA_COLHDR_SORT] = A_REVERSE | A_BOLD | COLOR_PAIR(P_CYAN);
	a[UA_STATUS] = A_REVERSE | COLOR_PAIR(P_CYAN);
	a[UA_STATUS_MSG] = A_REVERSE | A_BOLD | COLOR_PAIR(P_YELLOW);
	a[UA_BAR_LOW] = COLOR_PAIR(P_GREEN);
	a[UA_BAR_MID] = COLOR_PAIR(P_YELLOW);
	a[UA_BAR_HIGH] = COLOR_PAIR(P_RED);
	a[UA_SPARK] = COLOR_PAIR(P_MAGENTA);
	a[UA_WARN] = A_BOLD | COLOR_PAIR(P_YELLOW);
	a[UA_HOT] = A_BOLD | COLOR_PAIR(P_RED);
	a[UA_HOT_CELL] = A_BOLD | A_REVERSE | COLOR_PAIR(P_RED);
}

static int draw_cells(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += (*s & 0xc0) != 0x80;
	return n;
}

int draw_text(struct ui *ui, int y, int x, int w, enum ui_attr attr, const char *s)
{
	char buf[1024];
	size_t o = 0;
	int n = 0;

	if (w <= 0 || y < 0 || y >= LINES || x < 0 || x >= COLS)
		return 0;
	if (x + w > COLS)
		w = COLS - x;
	/* One cell per character; control characters become spaces, and an
	 * ASCII screen never gets a byte above 0x7e. */
	while (*s && n < w && o + 8 < sizeof(buf)) {
		unsigned char c = (unsigned char)*s++;

		if (c < 0x80) {
			buf[o++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
		} else if (!ui->utf8) {
			buf[o++] = '?';
			while ((*s & 0xc0) == 0x80)
				s++;
		} else {
			buf[o++] = (char)c;
			while ((*s & 0xc0) == 0x80 && o + 1 < sizeof(buf))
				buf[o++] = *s++;
		}
		n++;
	}
	buf[o] = 0;
	attrset(ui->attr[attr]);
	mvaddstr(y, x, buf);
	attrset(A_NORMAL);
	return n;
}

int draw_cut(const char *s, int w)
{
	int len = (int)strlen(s), cut = len;

	if (len > w) {
		cut = w;
		while (cut > 0 && s[cut] != ' ')
			cut--;
		if (cut == 0)
			cut = w;
	}
	return cut;
}

void draw_right(struct ui *ui, int y, int x, int w, enum ui_attr attr, const char *s)
{
	int n = draw_cells(s);

	if (n >= w)
		draw_text(ui, y, x, w, attr, s);
	else
		draw_text(ui, y, x + w - n, n, attr, s);
}

void draw_fill(struct ui *ui, int y, int x, int w, enum ui_attr attr)
{
	if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
		return;
	if (x + w > COLS)
		w = COLS - x;
	attrset(ui->attr[attr]);
	mvhline(y, x, ' ', w);
	attrset(A_NORMAL);
}

void draw_bar(struct ui *ui, int y, int x, int w, double frac, enum ui_attr attr)
{
	long eighths;

	if (w <= 0 || isnan(frac))
		return;
	if (frac < 0)
		frac = 0;
	if (frac > 1)
		frac = 1;
	eighths = lround(frac * w * 8);
	if (eighths == 0 && frac > 0)
		eighths = 1;            /* something is there: show it */
	for (int i = 0; i < w && eighths > 0; i++, eighths -= 8)
		draw_text(ui, y, x + i, 1, attr, ui->g->bar[eighths >= 8 ? 8 : eighths]);
}

void draw_spark(struct ui *ui, int y, int x, int w, const double *v, int n, double max,
		enum ui_attr attr)
{
	int top = ui->g->nspark - 1;

	if (n > w) {
		v += n - w;
		n = w;
	}
	x += w - n;
	for (int i = 0; i < n; i++) {
		long lvl;

		if (isnan(v[i]))
			continue;
		lvl = max > 0 ? lround(v[i] / max * top) : 0;
		if (lvl == 0 && v[i] > 0)
			lvl = 1;
		if (lvl > top)
			lvl = top;
		if (lvl < 0)
			lvl = 0;
		draw_text(ui, y, x + i, 1, attr, ui->g->spark[lvl]);
	}
}

void draw_vline(struct ui *ui, int y, int x, int h)
{
	for (int i = 0; i < h; i++)
		draw_text(ui, y + i, x, 1, UA_DIM, ui->g->vline);
}

void draw_na(struct ui *ui, int y, int x, int w)
{
	draw_right(ui, y, x, w, UA_NA, "n/a");
}
