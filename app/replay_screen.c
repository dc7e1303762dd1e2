/*
 * replay_screen.c: --replay FILE on a terminal: the screen over the frames
 * of a recording, played at the speed they were recorded (or faster,
 * slower, paused, stepped, or from a time typed after 'g').  The frames'
 * rows are the recorder's struct row, given to the screen as they are.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "record/record.h"
#include "ui/ui.h"

/* A time typed after 'g' on the replay screen, +SECS and HH:MM from the first snapshot. */
static int replay_parse_time(void *arg, const char *text, double *out, char *err, size_t errlen)
{
	return record_parse_time(text, *(const double *)arg, out, err, errlen);
}

/* The first frame of [lo, hi] at or after @t (@hi when none is). */
static int replay_find(const struct record_file *rf, int lo, int hi, double t)
{
	while (lo < hi && rf->f[lo].rep.time < t)
		lo++;
	return lo;
}

/* --replay FILE on a terminal: the screen over the recorded frames. */
int replay_screen(const struct options *o)
{
	struct record_file rf;
	struct ui *ui;
	char err[1024];
	double first, begin = -INFINITY, end = INFINITY, speed = 1;
	bool playing = true;
	int lo, hi, i;

	if (record_load(o->replay, &rf, err, sizeof(err)) < 0)
		return fail(EXIT_USAGE, err);
	first = rf.nf ? rf.f[0].rep.time : 0;
	if ((o->begin && record_parse_time(o->begin, first, &begin, err, sizeof(err)) < 0) ||
	    (o->end && record_parse_time(o->end, first, &end, err, sizeof(err)) < 0)) {
		record_file_free(&rf);
		return fail(EXIT_USAGE, err);
	}
	for (lo = 0; lo < rf.nf && rf.f[lo].rep.time < begin; lo++)
		;
	for (hi = rf.nf - 1; hi >= lo && rf.f[hi].rep.time > end; hi--)
		;
	if (hi < lo) {
		snprintf(err, sizeof(err), "--replay %s: no snapshot%s", o->replay,
			 rf.nf ? " between --begin and --end" : "");
		record_file_free(&rf);
		return fail(EXIT_CANNOT, err);
	}
	{
		struct ui_opts uo = {
			.no_color = o->no_color || no_color_env(),
			.ascii = o->ascii,
			.hidden = o->hidden,
			.interval_s = rf.f[lo].rep.interval_s,
			.replay = true,
			.parse_time = replay_parse_time,
			.parse_arg = &first,
		};

		crash_save_tty();
		ui = ui_open(&uo, err, sizeof(err));
	}
	if (!ui) {
		record_file_free(&rf);
		return fail(EXIT_CANNOT, err);
	}
	install_signals();
	install_crash_handlers(NULL, NULL);     /* the terminal back, should anything crash */
	for (i = lo; !stop_ending(); ) {
		const struct report *rep;
		struct ui_frame f;
		double wait = 1;

		if (is_stop_signal(stop_signal)) {
			/* Ctrl-Z: the terminal back while stopped, as when measuring. */
			int sig = stop_signal;

			ui_suspend(ui);
			if (!stop_here(sig))
				break;
			ui_resume(ui);
		}
		rep = &rf.f[i].rep;
		f = (struct ui_frame){
			.desc = rep->desc,
			.simulated = report_simulated(rep->source),
			.interval_s = rep->interval_s,
			.measured_s = rep->interval_s,
			.time = rep->time,
			.ncpu = rep->ncpu,
			.cpu = rep->cpu,
			.total = rep->total,
			.note = rep->note,
			.replay = true,
			.replay_paused = !playing,
			.replay_speed = speed,
		};

		ui_frame(ui, &f);
		/* The next snapshot after the time that separated them when recorded. */
		if (playing && i < hi)
			wait = fmin(fmax((rf.f[i + 1].rep.time - rep->time) / speed, 0.01), 60);
		switch (ui_wait(ui, sampler_now() + wait)) {
		case UI_QUIT:
			stop_signal = -1;
			break;
		case UI_PLAY:
			playing = !playing;
			break;
		case UI_STEP_BACK:
			playing = false;
			i = i > lo ? i - 1 : lo;
			break;
		case UI_STEP_FWD:
			playing = false;
			i = i < hi ? i + 1 : hi;
			break;
		case UI_FASTER:
			speed = fmin(speed * 2, UI_SPEED_MAX);
			break;
		case UI_SLOWER:
			speed = fmax(speed / 2, UI_SPEED_MIN);
			break;
		case UI_JUMP:
			i = replay_find(&rf, lo, hi, ui_jump_time(ui));
			break;
		case UI_NONE:
			if (playing && i < hi)
				i++;
			else if (playing)
				playing = false;        /* the end: it stays, paused */
			break;
		case UI_INTERVAL:
		case UI_THRESHOLDS:
			break;
		}
	}
	ui_close(ui);
	record_file_free(&rf);
	return EXIT_OK;
}
