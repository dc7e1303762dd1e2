/*
 * keys.c: the key table, keys_table[]: every key of the screen once, with
 * what it does and its help.  The table dispatches the keys (keys_handle),
 * and the help screen (help.c), `lattop --help` (ui_keys_help), README and
 * the man page's KEYS list it (tests/e2e_keys.sh compares the man page).
 * What the keys do: the actions of ui.h for the main loop (quit, a new
 * interval or thresholds, the replay's keys), the display's own state
 * (pause, sort, panes, per CPU or per core, scrolling, history, help) and
 * the prompt on the status line ('t' thresholds, 'g' a time).
 *
 * Changes the screen's state only; never draws (layout.c draws what the
 * state says) and never touches the terminal's modes (ui.c).
 */
#include <stdio.h>
#include <string.h>

#include "ui/ui_internal.h"

/* The + and - keys move through these (seconds). */
static const double keys_steps[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60 };

static bool keys_scroll(struct ui *ui, int key)
{
	const struct ui_snap *s = ui_shown(ui);
	struct ui_layout L;
	int n, page, max, top = ui->top;

	if (!s->valid)
		return false;
	layout_compute(ui, s, &L);
	n = layout_nrows(ui, s);
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

/* Move the sort column by @dir, skipping the columns not on the screen. */
static bool keys_sort_move(struct ui *ui, int dir)
{
	int c = ui->sort;

	for (int i = 0; i < ui->ncols; i++) {
		c = (c + dir + ui->ncols) % ui->ncols;
		if (ui_col_shown(ui, c))
			break;
	}
	if (c == ui->sort)
		return false;
	ui->sort = c;
	return true;
}

static bool keys_step(struct ui *ui, int dir)
{
	int n = (int)(sizeof(keys_steps) / sizeof(keys_steps[0]));
	double cur = ui->interval_s, next = cur;

	if (dir > 0) {
		for (int i = 0; i < n; i++)
			if (keys_steps[i] > cur + 1e-9) {
				next = keys_steps[i];
				break;
			}
	} else {
		for (int i = n - 1; i >= 0; i--)
			if (keys_steps[i] < cur - 1e-9) {
				next = keys_steps[i];
				break;
			}
	}
	if (next == cur)
		return false;
	ui->interval_s = next;
	return true;
}

static void keys_prompt_open(struct ui *ui)
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
static void keys_jump_open(struct ui *ui)
{
	ui->pbuf[0] = 0;
	ui->plen = 0;
	ui->prompt = true;
	ui->pfresh = false;
	ui->pjump = true;
}

static enum ui_action keys_prompt(struct ui *ui, int ch)
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
		unsigned t[THRESH_MAX];
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

/* ---- what each key does: the handlers of the rows below ---- */

static enum ui_action keys_pause(struct ui *ui, int ch)
{
	(void)ch;
	ui->paused = !ui->paused;
	if (ui->paused && snap_clone(&ui->frozen, &ui->live) < 0) {
		ui->paused = false;
		ui_set_message(ui, "out of memory: cannot pause");
	}
	ui->dirty = true;
	return UI_NONE;
}

static enum ui_action keys_sort(struct ui *ui, int ch)
{
	ui->dirty |= keys_sort_move(ui, ch == '<' ? -1 : +1);
	return UI_NONE;
}

/* The panes' toggles: one stays shown. */
static enum ui_action keys_toggle(struct ui *ui, int ch)
{
	char m[128], names[32];
	int i = 0;

	while (i < UI_MAX_PANES && ui_panes[i]->toggle != ch)
		i++;
	if (i == UI_MAX_PANES)
		return UI_NONE;
	if (ui->visible[i]) {
		int shown = 0;

		for (int k = 0; k < UI_MAX_PANES; k++)
			shown += ui->visible[k];
		if (shown == 1) {
			keys_toggles(names, sizeof(names));
			snprintf(m, sizeof(m), "the %s pane is the last one shown: it stays "
				 "(show another first: %s)", ui_panes[i]->what, names);
			ui_set_message(ui, m);
			return UI_NONE;
		}
	}
	ui->visible[i] = !ui->visible[i];
	/* The sort column never sits in a hidden pane: the order would look random. */
	if (!ui->visible[i] && ui->col_pane[ui->sort] == i) {
		char name[32];

		ui_col_name(ui, ui->cols[ui->sort], name, sizeof(name));
		snprintf(m, sizeof(m), "sorted by %s again (%s is in the hidden %s pane)",
			 ui->per_core ? "Core" : "CPU", name, ui_panes[i]->what);
		ui->sort = 0;
		ui_set_message(ui, m);
	}
	ui->dirty = true;
	return UI_NONE;
}

static enum ui_action keys_reverse(struct ui *ui, int ch)
{
	(void)ch;
	ui->reverse = !ui->reverse;
	ui->dirty = true;
	return UI_NONE;
}

static enum ui_action keys_per_core(struct ui *ui, int ch)
{
	(void)ch;
	ui->per_core = !ui->per_core;
	ui->top = 0;
	ui->dirty = true;
	return UI_NONE;
}

static enum ui_action keys_interval(struct ui *ui, int ch)
{
	if (!keys_step(ui, ch == '+' || ch == '=' ? +1 : -1))
		return UI_NONE;
	ui->dirty = true;
	return UI_INTERVAL;
}

static enum ui_action keys_thresholds(struct ui *ui, int ch)
{
	(void)ch;
	keys_prompt_open(ui);
	ui->dirty = true;
	return UI_NONE;
}

static enum ui_action keys_rows(struct ui *ui, int ch)
{
	ui->dirty |= keys_scroll(ui, ch);
	return UI_NONE;
}

static enum ui_action keys_reset(struct ui *ui, int ch)
{
	(void)ch;
	ui_reset_history(ui);
	ui->dirty = true;
	return UI_NONE;
}

static enum ui_action keys_history(struct ui *ui, int ch)
{
	(void)ch;
	ui->history = !ui->history;
	ui->lines = false;
	ui->dirty = true;
	return UI_NONE;
}

static enum ui_action keys_history_row(struct ui *ui, int ch)
{
	ui->dirty |= history_select(&ui->hist, ui->per_core, ch == KEY_UP ? -1 : 1);
	return UI_NONE;
}

static enum ui_action keys_help_open(struct ui *ui, int ch)
{
	(void)ch;
	ui->help = true;
	ui->help_top = 0;
	ui->dirty = true;
	return UI_NONE;
}

static enum ui_action keys_redraw(struct ui *ui, int ch)
{
	(void)ch;
	ui->dirty = true;
	return UI_NONE;
}

static enum ui_action keys_replay_step(struct ui *ui, int ch)
{
	(void)ui;
	return ch == KEY_LEFT ? UI_STEP_BACK : UI_STEP_FWD;
}

static enum ui_action keys_speed(struct ui *ui, int ch)
{
	(void)ui;
	return ch == '+' || ch == '=' ? UI_FASTER : UI_SLOWER;
}

static enum ui_action keys_jump(struct ui *ui, int ch)
{
	(void)ch;
	keys_jump_open(ui);
	ui->dirty = true;
	return UI_NONE;
}

/* ---- the table ---- */

/*
 * Every key of the screen, once.  The first row that answers a key in the
 * mode at hand runs (so the replay's rows come first, and the history
 * view's before the scrolling); the rows with a help are what the help
 * screen, `lattop --help`, README and the man page's KEYS list, in this
 * order (tests/e2e_keys.sh compares them), each named by its first @named
 * keys (the others are aliases).  A row without a help is a key of a view
 * whose own row explains it.
 */
const struct key_row keys_table[] = {
	/* Replaying a recording (--replay). */
	{ { ' ' }, 1, KW_REPLAY, NULL, UI_PLAY, NULL, "pause or resume the replay" },
	{ { KEY_LEFT, KEY_RIGHT }, 2, KW_REPLAY, keys_replay_step, 0, NULL,
	  "one snapshot back or forward" },
	{ { '+', '-', '=', '_' }, 2, KW_REPLAY | KW_SPEEDS, keys_speed, 0, NULL,
	  "play faster or slower (x1/%g to x%g)" },
	{ { 'g' }, 1, KW_REPLAY, keys_jump, 0, NULL, "jump to a time, typed as --begin takes it" },
	{ { 't' }, 0, KW_REPLAY, NULL, UI_NONE, "a replay shows the thresholds recorded", NULL },
	{ { 'c' }, 0, KW_REPLAY, NULL, UI_NONE, "a recording holds per-CPU rows only", NULL },
	/* The history view ('H'), which the H row explains. */
	{ { KEY_UP, KEY_DOWN }, 0, KW_ALL | KW_HISTORY, keys_history_row, 0, NULL, NULL },
	{ { '\n', '\r', KEY_ENTER }, 0, KW_ALL | KW_HISTORY, keys_history, 0, NULL, NULL },
	/* The lines view ('L'), which the L row explains. */
	{ { KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END }, 0, KW_ALL | KW_LINES,
	  lines_move, 0, NULL, NULL },
	{ { '\n', '\r', KEY_ENTER }, 0, KW_ALL | KW_LINES, lines_enter, 0, NULL, NULL },
	{ { 27 }, 0, KW_ALL | KW_LINES, lines_back, 0, NULL, NULL },
	{ { '<', '>', 's' }, 0, KW_ALL | KW_LINES, lines_sort, 0, NULL, NULL },
	{ { 'I', 'R' }, 0, KW_ALL | KW_LINES, lines_reverse, 0, NULL, NULL },
	/* The screen. */
	{ { 'q', KEY_F(10), 'Q' }, 2, KW_ALL, NULL, UI_QUIT, NULL, "quit" },
	{ { ' ' }, 1, KW_LIVE, keys_pause, 0, NULL, "pause or resume the display" },
	{ { '<', '>' }, 2, KW_ALL, keys_sort, 0, NULL, "move the sort column left or right" },
	{ { 's' }, 1, KW_ALL, keys_sort, 0, NULL, "next sort column" },
	{ { 'I', 'R' }, 2, KW_ALL, keys_reverse, 0, NULL,
	  "reverse the sort order (n/a stays last)" },
	{ { 0 }, 0, KW_ALL | KW_PANES, keys_toggle, 0, NULL,
	  "show or hide the load-latency, snoop and offcore panes" },
	{ { 'c' }, 1, KW_LIVE, keys_per_core, 0, NULL, "per logical CPU or per core" },
	{ { '+', '-', '=', '_' }, 2, KW_LIVE | KW_STEPS, keys_interval, 0, NULL,
	  "longer or shorter interval (steps %s s)" },
	{ { 't' }, 1, KW_LIVE, keys_thresholds, 0, NULL,
	  "type new load-latency thresholds, applied at once" },
	{ { KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END }, 6, KW_ALL, keys_rows, 0, NULL,
	  "scroll the rows" },
	{ { 'r' }, 1, KW_ALL, keys_reset, 0, NULL, "reset the history" },
	{ { 'H' }, 1, KW_ALL, keys_history, 0, NULL,
	  "the history view: a row's numbers over time; Up Down choose the row, Enter or H goes back" },
	{ { 'L' }, 1, KW_ALL, lines_toggle, 0, NULL,
	  "the contended cache lines (--backend perf), costliest first: Up Down choose one, Enter "
	  "its detail (Enter or Esc back), s < > I sort, L goes back" },
	{ { 'h', '?', KEY_F(1) }, 3, KW_ALL, keys_help_open, 0, NULL, "this help" },
	/* What top and htop users press, told what does it here. */
	{ { '/' }, 0, KW_ALL, NULL, UI_NONE,
	  "no search here: s and < > sort the rows, c per core; --cpus chooses the CPUs", NULL },
	{ { 'd' }, 0, KW_LIVE, NULL, UI_NONE, "the interval: + and - (or -d when starting)", NULL },
	/* The terminal turns it into SIGTSTP: app/main.c stops, the screen given back (ui_suspend). */
	{ { 'Z' & 0x1f }, 1, KW_ALL | KW_TERMINAL, NULL, 0, NULL,
	  "stop, registers and terminal put back; fg resumes" },
	{ { KEY_RESIZE }, 0, KW_ALL, keys_redraw, 0, NULL, NULL },
};

/* What the help calls a key that is not a character of its own. */
static const struct {
	int key;
	const char *label;
} keys_labels[] = {
	{ ' ', "space" },
	{ KEY_LEFT, "Left" }, { KEY_RIGHT, "Right" }, { KEY_UP, "Up" }, { KEY_DOWN, "Down" },
	{ KEY_PPAGE, "PgUp" }, { KEY_NPAGE, "PgDn" }, { KEY_HOME, "Home" }, { KEY_END, "End" },
	{ KEY_F(1), "F1" }, { KEY_F(10), "F10" },
};

const int keys_count = (int)(sizeof(keys_table) / sizeof(keys_table[0]));

/* The panes' toggles, as the help writes them: "1 2 3". */
void keys_toggles(char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; i < UI_MAX_PANES && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%c", i ? " " : "", ui_panes[i]->toggle);
}

void keys_name(const struct key_row *k, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	if (k->when & KW_PANES) {
		keys_toggles(buf, len);
		return;
	}
	for (int i = 0; i < k->named && o < len; i++) {
		const char *label = NULL;
		int ch = k->keys[i];

		for (size_t j = 0; j < sizeof(keys_labels) / sizeof(keys_labels[0]); j++)
			if (keys_labels[j].key == ch)
				label = keys_labels[j].label;
		if (label)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "", label);
		else if (ch < 0x20)
			o += (size_t)snprintf(buf + o, len - o, "%sCtrl-%c", i ? " " : "", ch + '@');
		else
			o += (size_t)snprintf(buf + o, len - o, "%s%c", i ? " " : "", ch);
	}
}

void keys_help(const struct key_row *k, char *buf, size_t len)
{
	char steps[128];
	size_t o = 0;

	if (k->when & KW_SPEEDS) {
		snprintf(buf, len, k->help, 1 / UI_SPEED_MIN, UI_SPEED_MAX);
		return;
	}
	if (!(k->when & KW_STEPS)) {
		snprintf(buf, len, "%s", k->help ? k->help : "");
		return;
	}
	steps[0] = 0;
	for (size_t i = 0; i < sizeof(keys_steps) / sizeof(keys_steps[0]) && o < sizeof(steps); i++)
		o += (size_t)snprintf(steps + o, sizeof(steps) - o, "%s%g", i ? " " : "", keys_steps[i]);
	snprintf(buf, len, k->help, steps);
}

bool keys_listed(const struct key_row *k, unsigned mode)
{
	return k->help && (k->named || (k->when & KW_PANES)) && (k->when & mode);
}

static bool keys_match(const struct key_row *k, int ch)
{
	if (k->when & KW_PANES) {
		for (int i = 0; i < UI_MAX_PANES; i++)
			if (ui_panes[i]->toggle == ch)
				return true;
		return false;
	}
	for (size_t i = 0; i < sizeof(k->keys) / sizeof(k->keys[0]) && k->keys[i]; i++)
		if (k->keys[i] == ch)
			return true;
	return false;
}

enum ui_action keys_handle(struct ui *ui, int ch)
{
	unsigned mode = ui->opts.replay ? KW_REPLAY : KW_LIVE;

	if (ui->help) {
		/* The scrolling keys scroll it, any other closes it; a resize only redraws it. */
		if (ch != KEY_RESIZE && !help_scroll(ui, ch))
			ui->help = false;
		ui->dirty = true;
		return UI_NONE;
	}
	if (ui->prompt)
		return keys_prompt(ui, ch);
	for (int i = 0; i < keys_count; i++) {
		const struct key_row *k = &keys_table[i];

		if ((k->when & KW_TERMINAL) || !(k->when & mode) ||
		    ((k->when & KW_HISTORY) && !ui->history) ||
		    ((k->when & KW_LINES) && (!ui->lines || ui->history)) || !keys_match(k, ch))
			continue;
		if (k->say)
			ui_set_message(ui, k->say);
		return k->run ? k->run(ui, ch) : k->act;
	}
	/* A pane's own keys. */
	for (int i = 0; i < UI_MAX_PANES; i++)
		if (ui_panes[i]->key && ui_panes[i]->key(ui, ch)) {
			ui->dirty = true;
			break;
		}
	return UI_NONE;
}

/* `lattop --help`: names from column 2, what they do from 26, lines of 80 at most. */
#define KEYS_HELP_COL   26
#define KEYS_HELP_WIDTH 80

/* `lattop --help`: the rows of one mode, wrapped as the rest of the help is. */
static void keys_print(FILE *out, unsigned mode, unsigned not)
{
	for (int i = 0; i < keys_count; i++) {
		const struct key_row *k = &keys_table[i];
		char name[64], help[256];
		const char *p = help;
		int col;

		if (!keys_listed(k, mode) || (k->when & not))
			continue;
		keys_name(k, name, sizeof(name));
		keys_help(k, help, sizeof(help));
		col = fprintf(out, "  %s", name);
		while (*p) {
			int cut = draw_cut(p, KEYS_HELP_WIDTH - KEYS_HELP_COL);

			/* A long name has a line of its own. */
			if (col > KEYS_HELP_COL - 2) {
				fputc('\n', out);
				col = 0;
			}
			fprintf(out, "%*s%.*s\n", KEYS_HELP_COL - col, "", cut, p);
			col = 0;
			p += cut;
			while (*p == ' ')
				p++;
		}
	}
}

void ui_keys_help(FILE *out)
{
	fputs("Keys on the screen:\n", out);
	keys_print(out, KW_LIVE, 0);
	fputs("\nKeys replaying a recording on the screen (--replay), besides these:\n", out);
	keys_print(out, KW_REPLAY, KW_LIVE);
	fputc('\n', out);
}
