/*
 * fleet.h: lattop as an exporter, --listen and --textfile: binds the
 * socket and checks the file before any register is written, starts the
 * server once root is dropped, and each interval turns the numbers into
 * the exposition (export.c), publishes it (httpd.c) and writes the file
 * (textfile.c).  main.c calls these four and nothing else of the export.
 */
#ifndef LATTOP_FLEET_H
#define LATTOP_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include "export/export.h"
#include "export/listen.h"

struct fleet {
	bool active;                    /* --listen or --textfile given */
	bool listening;
	struct listen_addr addr;
	int fd;                         /* bound socket until the server takes it, or -1 */
	char where[80];                 /* "127.0.0.1:10123" */
	char path[4096];                /* the textfile, or "" */
	struct export x;
	struct httpd *httpd;
	char last_err[256];             /* the last textfile error told, not to repeat it */
	bool written;                   /* the textfile holds numbers: at the end, lattop_up 0 */
};

/* What lattop_info says. */
struct fleet_info {
	const char *microarch, *pmu_table, *source, *version;
	double interval_s;
};

/*
 * Before any register is written: parse @listen and bind it, resolve
 * @textfile and check a file can be made there (either may be NULL).
 * 0, or -1 with a message (@usage set when the value itself is wrong).
 */
int fleet_open(struct fleet *f, const char *listen, const char *textfile, bool *usage,
	       char *err, size_t errlen);

/*
 * After root is dropped, before counting: check the textfile again as the
 * user now running, and start the server (503 until the first interval
 * ends).  The CPUs are the rows @rows[0..@n).  0, or -1 with a message.
 */
int fleet_start(struct fleet *f, const struct row *rows, int n, const struct fleet_info *info,
		const struct plan *pl, char *err, size_t errlen);

/*
 * An interval ended at @now (seconds since the epoch): its CPU rows
 * @rows, in the order of fleet_start.  0, or -1 with a message to tell (a
 * textfile that could not be written; the same message is not returned
 * twice in a row).
 */
int fleet_tick(struct fleet *f, const struct plan *pl, const struct row *rows, double now,
	       char *err, size_t errlen);

/* The end: the server stopped, and a textfile written says lattop_up 0, without counters. */
void fleet_close(struct fleet *f);

#endif
