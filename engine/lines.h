/*
 * lines.h: the line table, where sampled accesses become contended cache
 * lines with decayed rates, and each interval's struct sharing_frame.
 *
 * Bounded whatever the workload: LINES_SLOTS lines in an open-addressed
 * table probed over a window of LINES_PROBE slots; a new line that finds
 * no free slot in its window takes the place of the cheapest line there
 * (space-saving, Metwally et al. 2005), and carries that line's cost as
 * its error: a line's cost (its decayed HITM samples, then its accesses,
 * each times what it stands for)
 * is overestimated by at most its error, and a line evicted had at most
 * the cost of the cheapest line of its window.  Every count decays by
 * LINES_DECAY per interval, so the table follows what happens now: rates
 * are decayed samples x period over decayed seconds, an estimate
 * (samples x period / interval for a steady line), and a line with no
 * sample for LINES_IDLE intervals (or whose decayed samples fall below
 * LINES_FORGET) leaves.  The processes' names
 * live in a bounded table of their own (COMM records).
 */
#ifndef LATTOP_LINES_H
#define LATTOP_LINES_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/sharing.h"

#define LINES_SLOTS 8192        /* lines tracked (a power of two, at most 65536: uint16_t) */
#define LINES_PROBE 16          /* the window a line may sit in */
#define LINES_COMMS 1024        /* process names kept (a power of two) */
#define LINES_DECAY 0.5         /* what an interval's counts weigh one interval later */
#define LINES_FORGET 0.05       /* decayed samples below which a line leaves */
#define LINES_IDLE 3            /* intervals without a sample after which a line leaves */
#define LINES_CPUS 64           /* CPUs told apart per line (a bitmap) */

/* One access as the sampler decoded it. */
struct lines_access {
	uint64_t addr, phys;            /* data address; physical, 0 unknown */
	uint64_t ip;
	int pid, tid, cpu;
	bool store;                     /* else a load */
	bool hitm, remote;              /* a load served by a modified line; from another package */
	bool hitm_event;                /* of a snoop event: a HITM rate's, not one of the loads' */
	double weight;                  /* load latency, cycles; 0 unknown */
	double period;                  /* accesses this sample stands for */
};

struct lines_word {
	double reads, writes;           /* decayed samples */
	int ntids;
	int tids[SHARING_TIDS];
	uint64_t ip;                    /* the word's hottest instruction (majority vote) */
	double ip_votes;
};

struct lines_line {
	uint64_t key;                   /* 0: a free slot */
	uint64_t addr, phys;
	double cost, err;               /* decayed HITM + accesses / 1e3 (x period); space-saving error */
	double samples;                 /* decayed */
	int idle;                       /* intervals since its last sample */
	double hitm, rhitm, loads, stores;      /* decayed samples x period */
	double lat_sum, lat_n;
	uint64_t cpus;                  /* bitmap, CPU % LINES_CPUS */
	int npids;
	int pids[SHARING_PROCS];
	struct lines_word word[SHARING_WORDS];
};

struct lines_comm {
	int pid;                        /* 0: free */
	char comm[SHARING_COMM];
};

struct lines {
	struct lines_line *slot;        /* [LINES_SLOTS] */
	/*
	 * The slots holding a line, in no order: the end of an interval
	 * visits the lines, not every slot.
	 */
	uint16_t *used;                 /* [LINES_SLOTS] */
	unsigned nused;
	struct lines_comm *comm;        /* [LINES_COMMS] */
	double seconds;                 /* decayed interval seconds */
	uint64_t evicted;               /* lines pushed out by a new one, in all */
};

int lines_init(struct lines *t);
void lines_free(struct lines *t);

/* Fold one sampled access in. */
void lines_add(struct lines *t, const struct lines_access *a);

/* A process's name, from a COMM record (the latest wins). */
void lines_comm(struct lines *t, int pid, const char *comm);

/*
 * End an interval of @seconds: fill @f's lines with the top SHARING_TOP
 * lines by cost (rates over the decayed time), then decay every count and
 * let the lines that faded leave.  @f's counters and support are the
 * caller's.
 */
void lines_interval(struct lines *t, double seconds, struct sharing_frame *f);

#endif
