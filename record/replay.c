/*
 * replay.c: --replay FILE printed as --batch printed it (see replay.h).
 *
 * Owns the walk over a recording's frames and the choice of those between
 * --begin and --end; the format is record.c's, the printing report.c's.
 * Frames are handed over one at a time, so a long recording is never held
 * in memory.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "record/record.h"
#include "record/replay.h"

struct replay_walk {
	const struct replay_opts *o;
	FILE *out;
	struct replay_result *res;
	double begin, end;
	bool resolved;                  /* begin and end known: after the first frame */
	int status;
	char *csv_head;                 /* the csv header printed last */
	char *err;
	size_t errlen;
};

static int replay_one(const struct record_frame *f, void *arg)
{
	struct replay_walk *w = arg;
	const struct replay_opts *o = w->o;
	struct report shown = f->rep;
	const struct report *rep = &shown;

	shown.hidden = o->hidden;
	w->res->frames++;
	/* --begin +SECS and HH:MM count from the first snapshot. */
	if (!w->resolved) {
		w->resolved = true;
		if ((o->begin && record_parse_time(o->begin, rep->time, &w->begin, w->err,
						   w->errlen) < 0) ||
		    (o->end && record_parse_time(o->end, rep->time, &w->end, w->err, w->errlen) < 0)) {
			w->status = REPLAY_BAD_INPUT;
			return 1;
		}
	}
	if (rep->time < w->begin || rep->time > w->end)
		return 0;
	errno = 0;
	/* csv: a header again where the columns change (another session's thresholds). */
	if (report_write(w->out, o->format, rep,
			 (o->format == FORMAT_CSV && report_csv_new_head(rep, &w->csv_head)) ||
			 w->res->printed == 0) < 0) {
		w->res->write_errno = errno ? errno : EIO;
		w->status = REPLAY_WRITE;
		return 1;
	}
	w->res->printed++;
	return o->count && w->res->printed >= o->count;
}

int replay_print(const struct replay_opts *o, FILE *out, struct replay_result *res,
		 char *err, size_t errlen)
{
	struct replay_walk w = {
		.o = o, .out = out, .res = res, .begin = -INFINITY, .end = INFINITY,
		.err = err, .errlen = errlen,
	};
	struct record_file rf;
	int rc;

	res->printed = 0;
	res->skipped = 0;
	res->frames = 0;
	res->write_errno = 0;
	if ((rc = record_load_each(o->path, &rf, replay_one, &w, err, errlen)) < 0) {
		free(w.csv_head);
		return rc == -2 ? REPLAY_BAD_INPUT : REPLAY_CANNOT;
	}
	res->skipped = rf.skipped;
	record_file_free(&rf);
	free(w.csv_head);
	return w.status;
}
