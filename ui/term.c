/*
 * term.c: the terminal's lifecycle: taking it (locale, terminfo, curses
 * modes, colours and glyphs), giving it back (also with the last frame
 * left on it as text), and giving it back and taking it again around a
 * Ctrl-Z (the signals themselves are app/main.c's).
 *
 * Owns the one `struct ui` of the process between ui_open and ui_close.
 * Never draws anything but through layout_draw, never handles a key.
 */
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui/ui_internal.h"

#define ESC_DELAY_MS 25

/* One screen per process: ui_close can then be called twice safely. */
static struct ui the_ui;

static bool term_ascii(const char *term)
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
	ui->utf8 = !opts->ascii && !term_ascii(term) && !strcmp(nl_langinfo(CODESET), "UTF-8");
	draw_init(ui);
	ui->interval_s = opts->interval_s;
	for (int i = 0; i < UI_MAX_PANES; i++)
		ui->visible[i] = true;
	ui->cols[ui->ncols] = &ui_col_cpu;
	ui->col_pane[ui->ncols++] = -1;
	for (int i = 0; i < UI_MAX_PANES; i++)
		for (int j = 0; j < ui_panes[i]->ncols && ui->ncols < UI_MAX_COLS; j++) {
			/* A column --show or --hide leaves out is no sort column either. */
			if (!pane_chosen(ui, columns_id(ui_panes[i]->cols[j].col)))
				continue;
			ui->cols[ui->ncols] = &ui_panes[i]->cols[j];
			ui->col_pane[ui->ncols++] = i;
		}
	layout_draw(ui);
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
	layout_draw(ui);
}
