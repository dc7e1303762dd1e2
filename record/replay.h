/*
 * replay.h: --replay FILE printed as --batch printed it: the frames of a
 * recording (record/record.c) between --begin and --end, through the report
 * writers (output/report.c).  Prints the snapshots only: messages go back to
 * main, which prints them and decides the exit status.
 */
#ifndef LATTOP_REPLAY_H
#define LATTOP_REPLAY_H

#include <stdio.h>

#include "output/report.h"

struct replay_opts {
	const char *path;
	enum report_format format;
	const char *begin, *end;       /* --begin, --end TIME, or NULL */
	long count;                    /* -n; 0: all */
	col_set hidden;                /* --show, --hide */
};

struct replay_result {
	long printed;                  /* snapshots written */
	int skipped;                   /* torn or corrupt stretches skipped */
	int frames;                    /* intact frames seen */
	int write_errno;               /* why writing failed, with REPLAY_WRITE */
};

enum { REPLAY_OK = 0, REPLAY_BAD_INPUT = -1, REPLAY_WRITE = -2, REPLAY_CANNOT = -3 };

/*
 * Print the snapshots of @o->path to @out.  REPLAY_OK; REPLAY_BAD_INPUT
 * with a message (no such file, not a recording, a TIME that cannot be
 * resolved); REPLAY_CANNOT with a message when the file could not be read
 * (permissions, an I/O error); REPLAY_WRITE when writing @out failed
 * (@res->write_errno says why).
 */
int replay_print(const struct replay_opts *o, FILE *out, struct replay_result *res,
		 char *err, size_t errlen);

#endif
