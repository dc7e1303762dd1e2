/*
 * help.c: the help screen ('h' or '?'): the keys, the columns and why some
 * columns are n/a on this CPU, as lines that scroll when the screen is
 * shorter than they are.
 *
 * Owns the help's lines and its scrolling; draws only while ui->help is
 * set.  Never changes the rest of the screen's state, never reads a key
 * itself (keys.c hands it the scrolling ones).  `lattop keys` and `any key
 * closes this help` are a contract with tests/e2e_screen.sh.
 */
#include <stdio.h>
#include <string.h>

#include "ui/ui_internal.h"

/* The help as lines: a key or column name (at x 3), then what it does. */
#define HELP_LINES 128

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

/* Words of @text wrapped at @w columns, as lines from @x; the first begins with @key (or NULL) at x 3. */
static int help_wrap(struct help_line *h, int n, const char *key, int x, int w, const char *text)
{
	const char *p = text;

	while (*p && n < HELP_LINES) {
		int cut = draw_cut(p, w);
		char line[512];

		snprintf(line, sizeof(line), "%.*s", cut, p);
		n = help_add(h, n, 3, UA_BRAND, key, x, UA_NORMAL, line);
		key = NULL;
		p += cut;
		while (*p == ' ')
			p++;
	}
	return n;
}

static int help_lines(struct ui *ui, struct help_line *h)
{
	const struct ui_snap *s = ui_shown(ui);
	int n = 0, kw = 12, w = COLS - (3 + kw + 1) - 1 > 10 ? COLS - (3 + kw + 1) - 1 : 10;
	unsigned mode = ui->opts.replay ? KW_REPLAY : KW_LIVE;
	char reasons[1024], notes[1024];

	n = help_add(h, n, 1, UA_TITLE, "lattop keys", 0, UA_NORMAL, NULL);
	n = help_add(h, n, 0, UA_NORMAL, NULL, 0, UA_NORMAL, NULL);
	/* The key table's rows of this mode: replaying, its own keys come first. */
	for (int i = 0; i < keys_count; i++) {
		const struct key_row *k = &keys_table[i];
		char name[64], help[256];

		if (!keys_listed(k, mode))
			continue;
		keys_name(k, name, sizeof(name));
		keys_help(k, help, sizeof(help));
		if ((int)strlen(name) >= kw) {
			n = help_add(h, n, 3, UA_BRAND, name, 0, UA_NORMAL, NULL);
			n = help_wrap(h, n, NULL, 3 + kw + 1, w, help);
		} else {
			n = help_wrap(h, n, name, 3 + kw + 1, w, help);
		}
	}
	/*
	 * The lines view's columns (L), from the lines' table, after the key
	 * that shows them: where the run has lines (--backend perf).
	 */
	if (s->valid && s->f.sharing) {
		n = help_add(h, n, 0, UA_NORMAL, NULL, 0, UA_NORMAL, NULL);
		n = help_add(h, n, 1, UA_TITLE, "contended lines (L)", 0, UA_NORMAL, NULL);
		for (int c = 0; c < SHC__COUNT; c++)
			n = help_wrap(h, n, shcols[c].head, 3 + kw + 1, w, shcols[c].help);
	}
	n = help_add(h, n, 0, UA_NORMAL, NULL, 0, UA_NORMAL, NULL);
	n = help_add(h, n, 1, UA_TITLE, "columns", 0, UA_NORMAL, NULL);
	/* The panes' columns --show and --hide leave, from the column table: header, help. */
	for (int i = 0; i < UI_MAX_PANES; i++)
		for (int k = 0; k < ui_panes[i]->nids; k++) {
			const struct column *c = &columns[ui_panes[i]->ids[k]];

			if (!pane_chosen(ui, ui_panes[i]->ids[k]))
				continue;
			n = help_wrap(h, n, c->kind == CK_LIST ? ">N" : c->screen.head, 3 + kw + 1, w,
				      c->help);
		}
	/* Why some columns show n/a, in full. */
	reasons[0] = 0;
	if (s->valid) {
		size_t o = 0;

		for (int i = 0; i < UI_MAX_PANES; i++) {
			const char *why = pane_why(ui_panes[i], &s->f.total);
			char note[256];

			if (why && o < sizeof(reasons))
				o += (size_t)snprintf(reasons + o, sizeof(reasons) - o, "%s%s: %s.",
						      o ? " " : "", ui_panes[i]->what, why);
			else if (pane_note(ui, ui_panes[i], &s->f.total, note, sizeof(note)) &&
				 o < sizeof(reasons))
				o += (size_t)snprintf(reasons + o, sizeof(reasons) - o, "%s%s %s.",
						      o ? " " : "", ui_panes[i]->what, note);
		}
	}
	if (reasons[0]) {
		n = help_add(h, n, 0, UA_NORMAL, NULL, 0, UA_NORMAL, NULL);
		n = help_add(h, n, 1, UA_TITLE, "not measured on this CPU (n/a)", 0, UA_NORMAL, NULL);
		n = help_wrap(h, n, NULL, 3, COLS - 4 > 10 ? COLS - 4 : 10, reasons);
	}
	/* The status line's notes, whole: there they may be cut. */
	layout_notes(ui, notes, sizeof(notes));
	if (notes[0]) {
		n = help_add(h, n, 0, UA_NORMAL, NULL, 0, UA_NORMAL, NULL);
		n = help_add(h, n, 1, UA_TITLE, "the status line", 0, UA_NORMAL, NULL);
		for (char *p = notes, *e; p; p = e) {
			if ((e = strstr(p, "; ")))
				*e = 0, e += 2;
			n = help_wrap(h, n, NULL, 3, COLS - 4 > 10 ? COLS - 4 : 10, p);
		}
	}
	return n;
}

/* The help, from line ui->help_top: it scrolls when the screen is shorter. */
void help_draw(struct ui *ui)
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
bool help_scroll(struct ui *ui, int key)
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
