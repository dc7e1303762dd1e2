/*
 * ui.c: the screen between frames: frames in (ui_frame), waiting for keys
 * until the next interval (ui_wait), the values handed back to the main
 * loop, the status line's message, and the state the other files share
 * (the panes in their order, the frame shown, the CPU column); and the
 * terminal's lifecycle: taking it (locale, terminfo, curses modes, colours
 * and glyphs), giving it back (also with the last frame left on it as
 * text), and giving it back and taking it again around a Ctrl-Z (the
 * signals themselves are app/main.c's).
 *
 * Owns the one `struct ui` of the process and the screen's state between
 * ui_open and ui_close (sort, panes shown, rows per CPU or per core,
 * scrolling, pause, help, the lines view), which keys.c changes.  Never
 * touches an MSR, the simulator or the sampler; never draws but through
 * layout_draw, never handles a key itself.
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

const struct pane *const ui_panes[UI_MAX_PANES] = {
	&pane_latency, &pane_snoop, &pane_offcore,
};

const struct ui_col ui_col_cpu = { "CPU", NULL, 0 };

double ui_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

const struct ui_snap *ui_shown(const struct ui *ui)
{
	return ui->paused ? &ui->frozen : &ui->live;
}

void ui_col_name(const struct ui *ui, const struct ui_col *c, char *buf, size_t len)
{
	const struct ui_snap *s = ui_shown(ui);

	if (!c->col)
		snprintf(buf, len, "%s", ui->per_core ? "Core" : c->name);
	else if (c->col->kind == CK_LIST)
		snprintf(buf, len, c->col->screen.head,
			 s->valid && c->thr < s->f.total.lat.nthresh ? s->f.total.lat.thresholds[c->thr] : 0);
	else
		snprintf(buf, len, "%s", c->col->screen.head);
}

bool ui_col_shown(const struct ui *ui, int c)
{
	const struct ui_col *k = ui->cols[c];
	const struct ui_snap *s = ui_shown(ui);

	if (ui->col_pane[c] >= 0 && !ui->visible[ui->col_pane[c]])
		return false;
	if (k->col && k->col->kind == CK_LIST && (!s->valid || k->thr >= s->f.total.lat.nthresh))
		return false;
	return !k->col || (!s->valid || columns_present(k->col, &s->f.total));
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

/* What a message may speak of, as one number: it changes when any of it does. */
static unsigned long ui_state(const struct ui *ui)
{
	unsigned long h = 5381;

#define MIX(v) (h = h * 33 + (unsigned long)(v))
	MIX(ui->sort);
	MIX(ui->reverse);
	MIX(ui->per_core);
	MIX(ui->paused);
	MIX(ui->history);
	MIX(ui->lines);
	MIX(ui->lsort);
	MIX(ui->lreverse);
	MIX(ui->nthresh);
	for (int i = 0; i < ui->nthresh && i < THRESH_MAX; i++)
		MIX(ui->thresh[i]);
	for (int i = 0; i < UI_MAX_PANES; i++)
		MIX(ui->visible[i]);
	MIX(lround(ui->interval_s * 1000));
#undef MIX
	return h;
}

void ui_set_message(struct ui *ui, const char *msg)
{
	snprintf(ui->msg, sizeof(ui->msg), "%s", msg ? msg : "");
	ui->msg_until = ui_now() + MSG_SECONDS;
	ui->msg_state = ui_state(ui);
	ui->msg_tied = true;
	ui->dirty = true;
}

bool ui_message_shown(const struct ui *ui)
{
	return ui->msg[0] && ui_now() < ui->msg_until &&
	       (!ui->msg_tied || ui->msg_state == ui_state(ui));
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
		layout_draw(ui);
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
			enum ui_action a = keys_handle(ui, ch);

			if (a != UI_NONE) {
				if (ui->dirty)
					layout_draw(ui);
				return a;
			}
		}
		now = ui_now();
		if (ui->msg[0] && now >= ui->msg_until) {
			ui->msg[0] = 0;
			ui->dirty = true;
		}
		if (ui->dirty)
			layout_draw(ui);
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
	ui->msg_tied = false;
	if (!ui->help)
		layout_draw(ui);
}

/* ---- the terminal ---- */

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
	/*
	 * The cursor hidden, where it is left does not matter: ncurses
	 * then sends no move to put it back after each refresh, and the
	 * next one starts from the last cell it wrote (layout_draw).
	 */
	leaveok(stdscr, curs_set(0) != ERR);
	ui->cursor = false;

	ui->open = true;
	ui->opts = *opts;
	ui->color = !opts->no_color && has_colors() && start_color() == OK;
	ui->utf8 = !opts->ascii && !term_ascii(term) && !strcmp(nl_langinfo(CODESET), "UTF-8");
	draw_init(ui);
	ui->interval_s = opts->interval_s;
	for (int i = 0; i < UI_MAX_PANES; i++)
		ui->visible[i] = true;
	ui->lsort = SHC_HITM;           /* the lines by cost */
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
