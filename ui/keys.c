/*
 * keys.c: what each key does: the actions of ui.h for the main loop
 * (quit, a new interval or thresholds, the replay's keys), the display's
 * own state (pause, sort, panes, per CPU or per core, scrolling, history,
 * help) and the prompt on the status line ('t' thresholds, 'g' a time).
 *
 * Changes the screen's state only; never draws (layout.c draws what the
 * state says) and never touches the terminal's modes (term.c).
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

/* Move the sort column by @dir, skipping the columns of hidden panes. */
static bool keys_sort_move(struct ui *ui, int dir)
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

enum ui_action keys_handle(struct ui *ui, int ch)
{
	if (ui->help) {
		/* The scrolling keys scroll it, any other closes it; a resize only redraws it. */
		if (ch != KEY_RESIZE && !help_scroll(ui, ch))
			ui->help = false;
		ui->dirty = true;
		return UI_NONE;
	}
	if (ui->prompt)
		return keys_prompt(ui, ch);
	if (ui->opts.replay) {
		switch (ch) {
		case ' ': return UI_PLAY;
		case KEY_LEFT: return UI_STEP_BACK;
		case KEY_RIGHT: return UI_STEP_FWD;
		case '+': case '=': return UI_FASTER;
		case '-': case '_': return UI_SLOWER;
		case 'g':
			keys_jump_open(ui);
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
		ui->dirty |= keys_sort_move(ui, -1);
		return UI_NONE;
	case '>':
	case 's':
		ui->dirty |= keys_sort_move(ui, +1);
		return UI_NONE;
	case 'c':
		ui->per_core = !ui->per_core;
		ui->top = 0;
		ui->dirty = true;
		return UI_NONE;
	case '+':
	case '=':
		if (!keys_step(ui, +1))
			return UI_NONE;
		ui->dirty = true;
		return UI_INTERVAL;
	case '-':
	case '_':
		if (!keys_step(ui, -1))
			return UI_NONE;
		ui->dirty = true;
		return UI_INTERVAL;
	case 't':
		keys_prompt_open(ui);
		ui->dirty = true;
		return UI_NONE;
	case KEY_UP:
	case KEY_DOWN:
	case KEY_PPAGE:
	case KEY_NPAGE:
	case KEY_HOME:
	case KEY_END:
		ui->dirty |= keys_scroll(ui, ch);
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
