/*
 * lines.c: the contended cache lines on the screen (struct sharing_frame
 * of the frame shown): the lines view ('L'), one row a line, sorted by a
 * column of the lines' table (output/sharecols.c), a line chosen with Up
 * and Down; the detail of that line (Enter): its numbers, its processes,
 * and its 64 bytes as a map of the 8-byte words read and written, with
 * the threads and the code of each; and the pane of the costliest lines
 * below the CPU panes, where the layout leaves room (layout.c).  The
 * title of each says how many samples the interval took, lost and
 * throttled, so that a thin view shows as thin.
 *
 * Owns the view's state in struct ui (lsort, lsel, ...); the line chosen
 * is followed by its address from frame to frame, as the lines move in
 * the order.  Draws only inside the box it is given; never reads a key
 * itself (keys.c hands them over through keys_table[]).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/ui_internal.h"

#define PANE_ROWS 5             /* lines the pane shows at most */

static const struct sharing_frame *lines_frame(const struct ui_snap *s)
{
	return s->valid ? s->f.sharing : NULL;
}

/* ---- the order ---- */

struct lines_ctx {
	const struct sharing_frame *fr;
	int col;
	bool reverse;
};

static int lines_cmp(const void *a, const void *b, void *arg)
{
	const struct lines_ctx *c = arg;

	return shcols_cmp((enum shcol_id)c->col, c->reverse, &c->fr->line[*(const int *)a],
			  &c->fr->line[*(const int *)b]);
}

/* The lines of @fr in the order shown, into @order: how many. */
static int lines_order(const struct ui *ui, const struct sharing_frame *fr, int col, int *order)
{
	int n = fr->supported ? (fr->nlines < SHARING_TOP ? fr->nlines : SHARING_TOP) : 0;
	struct lines_ctx c = { fr, col, col == ui->lsort && ui->lreverse };

	for (int i = 0; i < n; i++)
		order[i] = i;
	if (n > 1)
		qsort_r(order, (size_t)n, sizeof(*order), lines_cmp, &c);
	return n;
}

/* The line chosen, at its place in this frame's order: lsel follows its address. */
static void lines_follow(struct ui *ui, const struct sharing_frame *fr, const int *order, int n)
{
	for (int i = 0; i < n; i++)
		if (fr->line[order[i]].addr == ui->lsel_addr) {
			ui->lsel = i;
			return;
		}
	if (ui->lsel >= n)
		ui->lsel = n - 1;
	if (ui->lsel < 0)
		ui->lsel = 0;
	ui->lsel_addr = n ? fr->line[order[ui->lsel]].addr : 0;
}

/* ---- the columns that fit ---- */

/*
 * Which columns go in @w cells: all of them, less Phys where no line has
 * one, less the highest ranks until the rest fit; the symbol, last, takes
 * what is left.  Into @show; the width of the left-aligned ones in @wid.
 */
static void lines_fit(const struct sharing_frame *fr, int w, bool show[SHC__COUNT],
		      int wid[SHC__COUNT])
{
	bool phys = shcols_phys(fr);

	for (int c = 0; c < SHC__COUNT; c++) {
		show[c] = !shcols[c].phys || phys;
		wid[c] = shcols[c].width;
	}
	for (;;) {
		int used = -1, worst = -1;

		for (int c = 0; c < SHC__COUNT; c++) {
			if (!show[c])
				continue;
			used += 1 + wid[c];
			if (c != SHC_ADDR && (worst < 0 || shcols[c].rank > shcols[worst].rank))
				worst = c;
		}
		if (used <= w || worst < 0)
			break;
		show[worst] = false;
	}
}

/* One row (@l NULL: the column headers) from @x in @w cells, the sort column marked. */
static void lines_row(struct ui *ui, const struct sharing_frame *fr,
		      const struct sharing_line *l, int y, int x, int w,
		      const bool show[SHC__COUNT], const int wid[SHC__COUNT], int sort,
		      enum ui_attr base)
{
	int cx = x, last = -1;
	char b[SHARING_SYM + 32];

	for (int c = 0; c < SHC__COUNT; c++)
		if (show[c])
			last = c;
	if (!l)
		draw_fill(ui, y, x, w, base);
	for (int c = 0; c < SHC__COUNT && cx < x + w; c++) {
		const struct shcol *k = &shcols[c];
		int cw = c == last ? x + w - cx : wid[c];
		enum ui_attr a = !l && c == sort ? UA_COLHDR_SORT : base;

		if (!show[c])
			continue;
		if (l)
			shcols_cell(fr, (enum shcol_id)c, l, b, sizeof(b));
		else
			snprintf(b, sizeof(b), "%s", k->head);
		if (cw > x + w - cx)
			cw = x + w - cx;
		if (k->left) {
			/* A label too long for its cell ends with the "more" glyph. */
			if ((int)strlen(b) > cw && cw > 1) {
				draw_text(ui, y, cx, cw - 1, a, b);
				draw_text(ui, y, cx + cw - 1, 1, a, ui->g->more);
			} else {
				draw_text(ui, y, cx, cw, a, b);
			}
		} else {
			draw_right(ui, y, cx, cw, a, b);
		}
		cx += cw + 1;
	}
}

/*
 * The title line: @name, then the interval's counts where they fit (the
 * view is thin when samples are few or lost), @right at the right.
 * Unsupported: the name and why, on one line.
 */
static void lines_title(struct ui *ui, const struct sharing_frame *fr, const char *name,
			const char *right, int y, int x, int w)
{
	int tx = x + 1 + draw_text(ui, y, x + 1, w - 1, UA_TITLE, name) + 2, rl;
	char counts[160];

	if (!fr->supported) {
		tx += draw_text(ui, y, tx, x + w - tx, UA_NA, "n/a: ");
		if ((int)strlen(fr->reason) > x + w - tx && x + w - tx > 1) {
			draw_text(ui, y, tx, x + w - tx - 1, UA_DIM, fr->reason);
			draw_text(ui, y, x + w - 1, 1, UA_DIM, ui->g->more);
		} else {
			draw_text(ui, y, tx, x + w - tx, UA_DIM, fr->reason);
		}
		return;
	}
	/* The counts first: they say how far the rest can be trusted; then @right. */
	shcols_counts(fr, counts, sizeof(counts));
	if ((int)strlen(counts) <= x + w - 1 - tx)
		tx += draw_text(ui, y, tx, w, fr->lost || fr->throttled ? UA_WARN : UA_NORMAL, counts);
	rl = right ? (int)strlen(right) : 0;
	if (rl && rl + 2 <= x + w - 1 - tx)
		draw_right(ui, y, x, w - 1, UA_DIM, right);
}

/* ---- the view ---- */

static void lines_list(struct ui *ui, const struct sharing_frame *fr, int y, int x, int w, int h)
{
	int order[SHARING_TOP], n = lines_order(ui, fr, ui->lsort, order), rows = h - 2;
	bool show[SHC__COUNT];
	int wid[SHC__COUNT];
	char where[64];

	lines_follow(ui, fr, order, n);
	if (rows < 1)
		rows = 1;
	/* The line chosen stays in sight. */
	if (ui->lsel < ui->ltop)
		ui->ltop = ui->lsel;
	if (ui->lsel >= ui->ltop + rows)
		ui->ltop = ui->lsel - rows + 1;
	if (ui->ltop > n - rows)
		ui->ltop = n - rows;
	if (ui->ltop < 0)
		ui->ltop = 0;
	if (n > rows)
		snprintf(where, sizeof(where), "lines %d-%d of %d", ui->ltop + 1,
			 ui->ltop + rows < n ? ui->ltop + rows : n, n);
	else
		snprintf(where, sizeof(where), "%d line%s", n, n == 1 ? "" : "s");
	lines_title(ui, fr, "Contended lines", where, y, x, w);
	if (!fr->supported || h < 2)
		return;
	lines_fit(fr, w - 1, show, wid);
	draw_fill(ui, y + 1, x, 1, UA_COLHDR);
	lines_row(ui, fr, NULL, y + 1, x + 1, w - 1, show, wid, ui->lsort, UA_COLHDR);
	if (!n) {
		if (h >= 3)
			draw_text(ui, y + 2, x + 1, w - 1, UA_DIM,
				  "none now: no line was contended in this interval");
		return;
	}
	for (int j = 0; j < rows && ui->ltop + j < n && j + 2 < h; j++) {
		int i = ui->ltop + j;
		enum ui_attr a = i == ui->lsel ? UA_SELECTED : UA_NORMAL;

		if (a == UA_SELECTED)
			draw_fill(ui, y + 2 + j, x, w, a);
		lines_row(ui, fr, &fr->line[order[i]], y + 2 + j, x + 1, w - 1, show, wid, -1, a);
	}
}

/* "HEAD value" pairs of the columns @ids, from (y, x), a new line where one does not fit. */
static int lines_pairs(struct ui *ui, const struct sharing_frame *fr, const struct sharing_line *l,
		       const enum shcol_id *ids, int nids, int y, int x, int w, int ymax)
{
	int cx = x;
	char b[SHARING_SYM + 32];

	for (int i = 0; i < nids && y < ymax; i++) {
		const struct shcol *k = &shcols[ids[i]];
		int need;

		shcols_cell(fr, ids[i], l, b, sizeof(b));
		need = (int)strlen(k->head) + 1 + (int)strlen(b);
		if (cx > x && cx + need > x + w) {
			y++;
			cx = x;
			if (y >= ymax)
				break;
		}
		cx += draw_text(ui, y, cx, x + w - cx, UA_DIM, k->head) + 1;
		cx += draw_text(ui, y, cx, x + w - cx, UA_NORMAL, b) + 2;
	}
	return y + 1;
}

/* Which of the 8-byte words of @l is @off, or NULL when none of its samples touched it. */
static const struct sharing_word *lines_word(const struct sharing_line *l, unsigned off)
{
	for (int i = 0; i < l->nwords && i < SHARING_WORDS; i++)
		if (l->words[i].offset == off)
			return &l->words[i];
	return NULL;
}

/* A word's mark on the map: R read, W written, B both, . untouched. */
static char lines_mark(const struct sharing_word *wd)
{
	const char *rw = wd ? shcols_rw(wd) : "-";

	return !strcmp(rw, "RW") ? 'B' : !strcmp(rw, "W") ? 'W' : !strcmp(rw, "R") ? 'R' : '.';
}

static void lines_detail(struct ui *ui, const struct sharing_frame *fr, int y, int x, int w, int h)
{
	static const enum shcol_id nums[] = {
		SHC_HITM, SHC_RHITM, SHC_LOADS, SHC_STORES, SHC_LAT, SHC_THREADS, SHC_CPUS,
		SHC_NODE, SHC_PHYS,
	};
	const struct sharing_line *l = NULL;
	int ymax = y + h, cx;
	char b[SHARING_SYM + 64];

	for (int i = 0; fr->supported && i < fr->nlines && i < SHARING_TOP; i++)
		if (fr->line[i].addr == ui->lsel_addr)
			l = &fr->line[i];
	snprintf(b, sizeof(b), "Line 0x%" PRIx64, ui->lsel_addr);
	cx = x + 1 + draw_text(ui, y, x + 1, w - 1, UA_TITLE, b) + 2;
	if (!l) {
		draw_text(ui, y, cx, x + w - cx, UA_DIM, "no longer among the contended lines");
		if (y + 1 < ymax)
			draw_text(ui, y + 1, x + 1, w - 1, UA_DIM, "Enter or Esc: back to the lines");
		return;
	}
	snprintf(b, sizeof(b), "%s sharing", shcols_verdict(l->verdict));
	if (l->verdict == SHARING_UNKNOWN)
		snprintf(b, sizeof(b), "sharing: too few samples to say");
	cx += draw_text(ui, y, cx, x + w - cx, l->verdict == SHARING_FALSE ? UA_WARN : UA_NORMAL, b);
	if (x + w - cx > 32)
		draw_right(ui, y, x, w - 1, UA_DIM, "Enter or Esc: back");
	y = lines_pairs(ui, fr, l, nums, (int)(sizeof(nums) / sizeof(nums[0])), y + 1, x + 1, w - 2,
			ymax);
	if (y < ymax) {
		size_t o = 0;
		int np = l->nprocs < SHARING_PROCS ? l->nprocs : SHARING_PROCS;

		b[0] = 0;
		for (int i = 0; i < np && o < sizeof(b); i++)
			o += (size_t)snprintf(b + o, sizeof(b) - o, "%s%d %.*s", i ? ", " : "",
					      l->procs[i].pid, SHARING_COMM, l->procs[i].comm);
		if (l->nprocs > np && o < sizeof(b))
			snprintf(b + o, sizeof(b) - o, " and %d more", l->nprocs - np);
		cx = x + 1 + draw_text(ui, y, x + 1, w - 1, UA_DIM, "Processes ");
		draw_text(ui, y, cx, x + w - cx, UA_NORMAL, np ? b : "unknown");
		y++;
	}
	if (y < ymax) {
		char sym[SHARING_SYM + 32];

		shcols[SHC_SYMBOL].cell(l, sym, sizeof(sym));
		if (l->top_symbol[0] && l->top_ip)
			snprintf(b, sizeof(b), "%s (0x%" PRIx64 ")", sym, l->top_ip);
		else
			snprintf(b, sizeof(b), "%s", sym);
		cx = x + 1 + draw_text(ui, y, x + 1, w - 1, UA_DIM, "Hottest code ");
		draw_text(ui, y, cx, x + w - cx, UA_NORMAL, b);
		y += 2;
	}
	/* The map: a cell a byte where it fits, else a cell a word. */
	if (y + 1 < ymax) {
		int per = w - 2 - 7 >= SHARING_LINE_BYTES ? SHARING_WORD_BYTES : 1;
		char map[SHARING_LINE_BYTES + 1];

		cx = x + 1 + draw_text(ui, y, x + 1, w - 1, UA_DIM, "Bytes ");
		for (unsigned off = 0; off < SHARING_LINE_BYTES; off += SHARING_WORD_BYTES) {
			snprintf(b, sizeof(b), "%u", off);
			draw_text(ui, y, x + 7 + (int)(off / SHARING_WORD_BYTES) * per, per, UA_DIM,
				  per > 1 ? b : "");
		}
		if (per == 1)
			draw_text(ui, y, x + 7, w - 7, UA_DIM, "words 0-56, 8 bytes each");
		for (unsigned off = 0, k = 0; off < SHARING_LINE_BYTES; off += SHARING_WORD_BYTES)
			for (int j = 0; j < per; j++)
				map[k++] = lines_mark(lines_word(l, off));
		map[SHARING_WORDS * per] = 0;
		draw_text(ui, y + 1, x + 7, w - 8, UA_WARN, map);
		if (x + 7 + SHARING_WORDS * per + 2 + 38 <= x + w)
			draw_text(ui, y + 1, x + 7 + SHARING_WORDS * per + 2, 38, UA_DIM,
				  "R read  W written  B both  . untouched");
		y += 3;
	}
	/* Each word: who reads and writes it, from which code. */
	if (y < ymax) {
		static const char *const head[] = { "Offset", "R/W", "Reads", "Writes", "Threads", "Code" };
		static const int hw[] = { 6, 3, 7, 7, 18, 0 };

		draw_fill(ui, y, x, w, UA_COLHDR);
		cx = x + 1;
		for (int i = 0; i < 6 && cx < x + w; i++) {
			if (hw[i] && i < 4)
				draw_right(ui, y, cx, hw[i], UA_COLHDR, head[i]);
			else
				draw_text(ui, y, cx, x + w - cx, UA_COLHDR, head[i]);
			cx += hw[i] + 1;
		}
		y++;
	}
	for (unsigned off = 0; off < SHARING_LINE_BYTES && y < ymax; off += SHARING_WORD_BYTES, y++) {
		const struct sharing_word *wd = lines_word(l, off);
		char t[64], code[SHARING_SYM + 32];

		cx = x + 1;
		snprintf(b, sizeof(b), "+%u", off);
		draw_right(ui, y, cx, 6, wd ? UA_NORMAL : UA_DIM, b);
		cx += 7;
		draw_right(ui, y, cx, 3, wd ? UA_WARN : UA_DIM, wd ? shcols_rw(wd) : "-");
		cx += 4;
		if (!wd)
			continue;
		numfmt_si(t, sizeof(t), wd->reads, 1);
		draw_right(ui, y, cx, 7, UA_NORMAL, t);
		cx += 8;
		numfmt_si(t, sizeof(t), wd->writes, 1);
		draw_right(ui, y, cx, 7, UA_NORMAL, t);
		cx += 8;
		shcols_tids(wd, t, sizeof(t) < 19 ? sizeof(t) : 19);
		draw_text(ui, y, cx, 18 < x + w - cx ? 18 : x + w - cx, UA_NORMAL, t);
		cx += 19;
		if (wd->symbol[0] && wd->top_ip)
			snprintf(code, sizeof(code), "%s (0x%" PRIx64 ")", wd->symbol, wd->top_ip);
		else if (wd->symbol[0])
			snprintf(code, sizeof(code), "%s", wd->symbol);
		else if (wd->top_ip)
			snprintf(code, sizeof(code), "0x%" PRIx64, wd->top_ip);
		else
			snprintf(code, sizeof(code), "-");
		if (cx < x + w)
			draw_text(ui, y, cx, x + w - cx, UA_NORMAL, code);
	}
}

void lines_draw(struct ui *ui, const struct ui_snap *s, int y, int x, int w, int h)
{
	const struct sharing_frame *fr = lines_frame(s);

	if (h < 1 || w < 10)
		return;
	if (!fr) {
		draw_text(ui, y, x + 1, w - 1, UA_DIM, "no contended lines in this frame; L goes back");
		return;
	}
	if (ui->line_detail && fr->supported)
		lines_detail(ui, fr, y, x, w, h);
	else
		lines_list(ui, fr, y, x, w, h);
}

/* ---- the pane ---- */

int lines_pane_height(const struct ui_snap *s, int h)
{
	const struct sharing_frame *fr = lines_frame(s);
	int n;

	if (!fr || h < 1)
		return 0;
	if (!fr->supported)
		return 1;
	n = fr->nlines < PANE_ROWS ? fr->nlines : PANE_ROWS;
	if (!n)
		return 1;
	if (h < 3)
		return 0;
	return 2 + (n < h - 2 ? n : h - 2);
}

void lines_pane(struct ui *ui, const struct ui_snap *s, int y, int x, int w, int h)
{
	const struct sharing_frame *fr = lines_frame(s);
	int order[SHARING_TOP], n;
	bool show[SHC__COUNT];
	int wid[SHC__COUNT];

	if (!fr || h < 1 || w < 10)
		return;
	n = lines_order(ui, fr, SHC_HITM, order);
	lines_title(ui, fr, "Contended lines", n ? "L: all" : "none now", y, x, w);
	if (!fr->supported || !n || h < 3)
		return;
	lines_fit(fr, w - 1, show, wid);
	draw_fill(ui, y + 1, x, 1, UA_COLHDR);
	lines_row(ui, fr, NULL, y + 1, x + 1, w - 1, show, wid, SHC_HITM, UA_COLHDR);
	for (int j = 0; j < n && j + 2 < h; j++)
		lines_row(ui, fr, &fr->line[order[j]], y + 2 + j, x + 1, w - 1, show, wid, -1,
			  UA_NORMAL);
}

/* ---- keys ---- */

enum ui_action lines_toggle(struct ui *ui, int ch)
{
	(void)ch;
	if (!ui->lines && !lines_frame(ui_shown(ui))) {
		ui_set_message(ui, ui->opts.replay ?
			       "no contended lines in this recording: they are recorded with --backend perf" :
			       "the contended lines need --backend perf");
		return UI_NONE;
	}
	ui->lines = !ui->lines;
	ui->line_detail = false;
	ui->history = false;
	ui->dirty = true;
	return UI_NONE;
}

enum ui_action lines_move(struct ui *ui, int ch)
{
	const struct sharing_frame *fr = lines_frame(ui_shown(ui));
	int order[SHARING_TOP], n, sel, page = LINES - 6 > 1 ? LINES - 6 : 1;

	if (!fr || ui->line_detail)
		return UI_NONE;
	n = lines_order(ui, fr, ui->lsort, order);
	lines_follow(ui, fr, order, n);
	sel = ui->lsel;
	switch (ch) {
	case KEY_UP: sel--; break;
	case KEY_DOWN: sel++; break;
	case KEY_PPAGE: sel -= page; break;
	case KEY_NPAGE: sel += page; break;
	case KEY_HOME: sel = 0; break;
	case KEY_END: sel = n - 1; break;
	}
	if (sel > n - 1)
		sel = n - 1;
	if (sel < 0)
		sel = 0;
	if (n && sel != ui->lsel) {
		ui->lsel = sel;
		ui->lsel_addr = fr->line[order[sel]].addr;
		ui->dirty = true;
	}
	return UI_NONE;
}

enum ui_action lines_enter(struct ui *ui, int ch)
{
	const struct sharing_frame *fr = lines_frame(ui_shown(ui));
	int order[SHARING_TOP], n;

	(void)ch;
	if (ui->line_detail) {
		ui->line_detail = false;
	} else if (fr && fr->supported) {
		n = lines_order(ui, fr, ui->lsort, order);
		lines_follow(ui, fr, order, n);
		ui->line_detail = n > 0;
	}
	ui->dirty = true;
	return UI_NONE;
}

enum ui_action lines_back(struct ui *ui, int ch)
{
	(void)ch;
	if (ui->line_detail)
		ui->line_detail = false;
	else
		ui->lines = false;
	ui->dirty = true;
	return UI_NONE;
}

enum ui_action lines_sort(struct ui *ui, int ch)
{
	char m[64];

	ui->lsort = (ui->lsort + (ch == '<' ? SHC__COUNT - 1 : 1)) % SHC__COUNT;
	/* Phys where no line has one sorts nothing: past it. */
	if (shcols[ui->lsort].phys && !shcols_phys(lines_frame(ui_shown(ui))))
		ui->lsort = (ui->lsort + (ch == '<' ? SHC__COUNT - 1 : 1)) % SHC__COUNT;
	snprintf(m, sizeof(m), "lines sorted by %s%s", shcols[ui->lsort].head,
		 ui->lreverse ? ", reversed" : "");
	ui_set_message(ui, m);
	return UI_NONE;
}

enum ui_action lines_reverse(struct ui *ui, int ch)
{
	(void)ch;
	ui->lreverse = !ui->lreverse;
	ui->dirty = true;
	return UI_NONE;
}
