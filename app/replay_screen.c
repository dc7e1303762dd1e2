/*
 * replay_screen.c: --replay FILE on a terminal: the screen over the frames
 * of a recording, played at the speed they were recorded (or faster,
 * slower, paused, stepped, or from a time typed after 'g').  The frames'
 * rows are the recorder's struct row, given to the screen as they are.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static void clock_of(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;

	localtime_r(&s, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
}

/* Where the replay is, for the header: "frame 40 of 600, 12:00:02 of 12:00:00-12:00:30". */
static void replay_where(const struct record_file *rf, int i, char *buf, size_t len)
{
	char at[16], first[16], last[16];

	clock_of(rf->f[i].rep.time, at, sizeof(at));
	clock_of(rf->f[0].rep.time, first, sizeof(first));
	clock_of(rf->f[rf->nf - 1].rep.time, last, sizeof(last));
	snprintf(buf, len, "frame %d of %d, %s of %s-%s", i + 1, rf->nf, at, first, last);
}

/* The end, of the recording or of the part --end chose (@cut). */
static void the_end(char *buf, size_t len, bool cut)
{
	snprintf(buf, len, "the end of the %s", cut ? "replay (--end)" : "recording");
}

/* --replay FILE on a terminal: the screen over the recorded frames. */
int replay_screen(const struct options *o)
{
	struct record_file rf;
	struct ui *ui;
	char err[1024], endmsg[160] = "", told[160] = "";
	double first, begin = -INFINITY, end = INFINITY, speed = 1, anchor_wall, anchor_rec;
	bool playing = true, ended = false, reanchor = false;
	int lo, hi, i;

	if ((lo = record_load(o->replay, &rf, err, sizeof(err))) < 0)
		return fail(lo == -2 ? EXIT_USAGE : EXIT_CANNOT, err);
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
	/*
	 * Played against the clock: the snapshot shown is the last one due
	 * since the anchor (a wall-clock time and the recorded time shown
	 * then), so that at any speed the replay keeps the pace the header
	 * says, skipping the snapshots drawing cannot keep up with.
	 */
	anchor_wall = sampler_now();
	anchor_rec = rf.f[lo].rep.time;
	for (i = lo; !stop_ending(); ) {
		const struct report *rep;
		struct ui_frame f;
		char where[128];
		double wait = 1;
		enum ui_action a;

		if (is_stop_signal(stop_signal)) {
			/* Ctrl-Z: the terminal back while stopped, as when measuring. */
			int sig = stop_signal;

			ui_suspend(ui);
			if (!stop_here(sig))
				break;
			ui_resume(ui);
			reanchor = true;
		}
		rep = &rf.f[i].rep;
		if (reanchor) {
			anchor_wall = sampler_now();
			anchor_rec = rep->time;
			reanchor = false;
		}
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
			.replay_paused = !playing && !ended,
			.replay_speed = speed,
			.replay_where = where,
			.sharing = rep->sharing,
		};

		replay_where(&rf, i, where, sizeof(where));
		ui_frame(ui, &f);
		/*
		 * At the end, the end is said, not a pause: once, when it is
		 * reached (the header keeps the position), so that what a key
		 * says there is not written over.
		 */
		if (ended && strcmp(told, endmsg)) {
			ui_message(ui, endmsg);
			snprintf(told, sizeof(told), "%s", endmsg);
		} else if (!ended) {
			told[0] = 0;
		}
		/* The next snapshot when it is due, however long drawing this one took. */
		if (playing && i < hi)
			wait = fmin(fmax(anchor_wall + (rf.f[i + 1].rep.time - anchor_rec) / speed -
					 sampler_now(), 0), 60);
		else if (playing)
			wait = 0;               /* the last one: the end is said at once */
		a = ui_wait(ui, sampler_now() + wait);
		if (a != UI_NONE && a != UI_QUIT)
			reanchor = true;
		switch (a) {
		case UI_QUIT:
			stop_signal = -1;
			break;
		case UI_PLAY:
			playing = !playing && !ended;
			break;
		case UI_STEP_BACK:
			playing = ended = false;
			i = i > lo ? i - 1 : lo;
			break;
		case UI_STEP_FWD:
			playing = false;
			i = i < hi ? i + 1 : hi;
			ended = i == hi;
			if (ended)
				the_end(endmsg, sizeof(endmsg), hi < rf.nf - 1);
			break;
		case UI_FASTER:
			speed = fmin(speed * 2, UI_SPEED_MAX);
			break;
		case UI_SLOWER:
			speed = fmax(speed / 2, UI_SPEED_MIN);
			break;
		case UI_JUMP: {
			double t = ui_jump_time(ui);
			char when[16];

			i = replay_find(&rf, lo, hi, t);
			ended = false;
			if (t > rf.f[hi].rep.time) {
				/* Past the last snapshot: said, and the last one shown. */
				clock_of(rf.f[hi].rep.time, when, sizeof(when));
				snprintf(endmsg, sizeof(endmsg), "past the end: the %s ends at %s",
					 hi < rf.nf - 1 ? "replay (--end)" : "recording", when);
				playing = false;
				ended = true;
			}
			break;
		}
		case UI_NONE:
			if (playing && i < hi) {
				double due = anchor_rec + (sampler_now() - anchor_wall) * speed;

				i++;
				while (i < hi && rf.f[i + 1].rep.time <= due)
					i++;
			} else if (playing) {
				playing = false;        /* the end: it stays there */
				ended = true;
				the_end(endmsg, sizeof(endmsg), hi < rf.nf - 1);
			}
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
