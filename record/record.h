/*
 * record.h: lattop's recordings (--record, --replay): the file format, the
 * writer that appends one frame per snapshot, and the reader.  The format
 * is described in the man page, RECORDING FORMAT; record.c's top comment
 * has the byte layout.
 *
 * A recorded snapshot holds exactly what the report writers (report.c)
 * consume: the struct report of the interval, its per-CPU and total struct
 * metrics and their strings.  Replayed through report_write() it prints
 * what the live run printed, to the last digit.
 */
#ifndef LATTOP_RECORD_H
#define LATTOP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu/events.h"
#include "cpu/uarch.h"
#include "output/report.h"
#include "record/rotate.h"

#define RECORD_VERSION 4        /* 2: the counts of tagged loads; 3: the contended lines;
				   4: each row's core type (record.c) */
#define RECORD_KEEP 8          /* --record-max keeps FILE.1 .. FILE.8 */

/* A growing byte buffer; @oom set when an allocation failed. */
struct record_buf {
	uint8_t *p;
	size_t n, cap;
	bool oom;
};

/* What a recording's header says of its session. */
struct record_head {
	const char *source;            /* "msr" or "simulator" */
	const struct cpu_desc *desc;
	const unsigned *thresholds;
	int nthresh;
	const char *plan;              /* the plan, as --list-events prints it */
	const char *const *strings;    /* the plan's reasons etc., stored once per header */
	int nstrings;
};

struct record_writer {
	int fd;
	char *path;
	long long max;                 /* --record-max, 0: no limit */
	long long size;                /* bytes in the current file */
	int frames;                    /* frames in the current file */
	uint8_t *head;                 /* the header block, written again after a rotation */
	size_t headlen;
	bool headed;                   /* the current file has it */
	struct record_buf hraw;        /* the header before its dictionary */
	void *cdict;                   /* ZSTD_CDict of the session's first frame */
	char **str;                    /* the header's strings */
	int nstr;
	void *cctx;                    /* ZSTD_CCtx */
	struct record_buf raw, dbl, out;
	struct rotator rot;            /* --record-max: who renames (rotate.h) */
};

/*
 * Open @path for recording: a new file, or a recording to append to (a
 * file that is neither is refused, untouched), and write the header.  @max
 * 0: no rotation; else what rotating will need is checked now.  The file
 * stays locked while open: a second recorder on it is refused, since the
 * two would spoil each other's frames.  0; -2 with a message when @path
 * itself is wrong (not a recording, another version, no such directory);
 * -1 with a message when it cannot be recorded to now (permissions, a full
 * disk, another recorder).
 */
int record_open(struct record_writer *w, const char *path, long long max,
		const struct record_head *h, char *err, size_t errlen);

/*
 * Append @r as one frame, in one write(): rotates first when @max would be
 * passed.  0, or -1 with a message; then nothing of the frame is left in
 * the file (a torn block is cut off when the file lets it be), and the
 * writer may be called again with the next frame: a full disk pauses a
 * recording, it does not end it.
 */
int record_write(struct record_writer *w, const struct report *r, char *err, size_t errlen);

void record_close(struct record_writer *w);

/* ---- reading ---- */

struct record_session {
	char *source;
	struct cpu_desc desc;          /* desc.uarch points to uarch below */
	struct uarch uarch;
	struct pmu_table table;
	unsigned thresholds[THRESH_MAX];
	int nthresh;
	char *plan;
	char **str;
	int nstr;
	uint8_t *dict;                 /* the first frame, the zstd dictionary of all */
	size_t dictlen;
	char *names[4];                /* uarch name, pretty, table name, plan strings owned */
};

struct record_frame {
	int session;
	struct report rep;             /* rep.cpu, rep.note and the metrics' strings point
					* into the session or into str[] below */
	struct row *cpu;
	struct sharing_frame *sharing; /* rep.sharing: its contended lines, or NULL */
	char **str;                    /* the frame's own strings */
	int nstr;
};

/* Called with each intact frame in turn; non-zero stops the reading. */
typedef int (*record_each_fn)(const struct record_frame *f, void *arg);

struct record_file {
	struct record_session **s;
	int ns;
	struct record_frame *f;        /* the frames, unless they went to @each */
	int nf;
	size_t capf;
	int skipped;                   /* torn or corrupt stretches skipped */
	unsigned version;              /* the file's format version */
	record_each_fn each;
	void *arg;
	bool stopped;                  /* @each asked to stop */
};

/*
 * Decode a whole recording held in memory.  Intact frames are kept, a torn
 * or corrupt stretch is skipped and counted; -1 with a message when @buf is
 * not a recording (or of a newer version, or no header is intact).
 */
int record_decode(const uint8_t *buf, size_t len, struct record_file *out,
		  char *err, size_t errlen);

/*
 * Read and decode @path.  0; -2 with a message naming the file when it is
 * not a recording this lattop reads (or there is no such file); -1 when it
 * could not be read (permissions, an I/O error, out of memory).
 */
int record_load(const char *path, struct record_file *out, char *err, size_t errlen);

/*
 * The same, handing each frame to @each instead of keeping it (a long
 * recording is not held in memory): out->nf stays 0.
 */
int record_decode_each(const uint8_t *buf, size_t len, struct record_file *out,
		       record_each_fn each, void *arg, char *err, size_t errlen);
int record_load_each(const char *path, struct record_file *out, record_each_fn each, void *arg,
		     char *err, size_t errlen);

void record_file_free(struct record_file *f);

/*
 * --begin/--end TIME: seconds since the epoch ("1795356101.5"), a local
 * date and time ("2026-11-22 14:05:00", seconds optional), a time of day
 * on the day of @first ("14:05", "14:05:30"), or seconds after @first
 * ("+90").  0, or -1 with a message.
 */
int record_parse_time(const char *s, double first, double *out, char *err, size_t errlen);

/* --record-max SIZE: bytes, with an optional k, M or G in either case (powers of 1024). */
int record_parse_size(const char *s, long long *out, char *err, size_t errlen);

#endif
