/*
 * ui.c: the screen between frames: frames in (ui_frame), waiting for keys
 * until the next interval (ui_wait), the values handed back to the main
 * loop, the status line's message, and the state the other files share
 * (the panes in their order, the frame shown, the CPU column).
 *
 * Owns the screen's state between ui_open and ui_close (sort, panes shown,
 * rows per CPU or per core, scrolling, pause, help), which term.c sets up
 * and keys.c changes.  Never touches an MSR, the simulator or the sampler;
 * never draws but through layout_draw.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ui/ui_internal.h"

#define MSG_SECONDS 10.0        /* a message stays this long on the status line */

const struct pane *const ui_panes[UI_MAX_PANES] = {
	&pane_latency, &pane_snoop, &pane_offcore,
};

const struct ui_col ui_col_cpu = { "CPU", NULL };

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

const char *ui_col_name(const struct ui_col *c)
{
	return c->col ? c->col->screen.head : c->name;
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

void ui_set_message(struct ui *ui, const char *msg)
{
	snprintf(ui->msg, sizeof(ui->msg), "%s", msg ? msg : "");
	ui->msg_until = ui_now() + MSG_SECONDS;
	ui->dirty = true;
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
	if (!ui->help)
		layout_draw(ui);
}
