/*
 * sharing.h: the contended cache lines of one interval, as every sink reads them.
 *
 * The perf backend samples loads (and stores, where the family can) with
 * their data address, latency and data source; the line table
 * (engine/lines.c) folds the samples into cache lines with decayed rates
 * and hands the top lines of each interval over in a struct sharing_frame.
 * The screen, the report writers and the recorder read that frame and
 * nothing else, as they read struct row for the counters: the frame is
 * plain data with no pointer into the line table, so a recording can hold
 * it and a replay can give it back.
 *
 * A frame that is not supported says why (the msr backend has no PEBS
 * buffer; the family has no sampled data source; the kernel refused the
 * sampling event); its lines are then none.
 */
#ifndef LATTOP_SHARING_H
#define LATTOP_SHARING_H

#include <stdbool.h>
#include <stdint.h>

#define SHARING_LINE_BYTES 64
#define SHARING_WORD_BYTES 8
#define SHARING_WORDS (SHARING_LINE_BYTES / SHARING_WORD_BYTES)
#define SHARING_TOP 32          /* lines one frame carries, by cost */
#define SHARING_PROCS 4         /* processes named per line */
#define SHARING_TIDS 8          /* threads named per word */
#define SHARING_SYM 96          /* "function+0x1f" or "lib.so+0x1234" */
#define SHARING_COMM 16         /* TASK_COMM_LEN */

enum sharing_verdict {
	SHARING_UNKNOWN,        /* too few samples to say */
	SHARING_FALSE,          /* different threads, different words, one writing */
	SHARING_TRUE,           /* the same words */
};

/* One 8-byte word of a line: who reads and writes it, from where. */
struct sharing_word {
	unsigned offset;                /* 0, 8, ..., 56 */
	double reads, writes;           /* sampled accesses, decayed */
	int ntids;
	int tids[SHARING_TIDS];
	uint64_t top_ip;                /* the word's hottest instruction; 0 none */
	char symbol[SHARING_SYM];       /* top_ip symbolised; "" unknown */
};

struct sharing_proc {
	int pid;
	char comm[SHARING_COMM];
};

struct sharing_line {
	uint64_t addr;                  /* the line's virtual address (64-byte aligned) */
	uint64_t phys;                  /* its physical address; 0 unknown */
	double hitm_per_sec;            /* every HITM, local and remote, estimated */
	double remote_hitm_per_sec;     /* those served from another package */
	double loads_per_sec, stores_per_sec;   /* sampled accesses, estimated */
	double mean_latency_cycles;     /* of its load samples; NAN none */
	enum sharing_verdict verdict;
	int nthreads, ncpus;
	int node;                       /* NUMA node of the line; -1 unknown */
	int nprocs;
	struct sharing_proc procs[SHARING_PROCS];
	int nwords;                     /* words touched, in offset order */
	struct sharing_word words[SHARING_WORDS];
	uint64_t top_ip;
	char top_symbol[SHARING_SYM];
};

struct sharing_frame {
	bool supported;
	char reason[160];               /* why not, when !supported */
	double interval_s;
	/* This interval, as the kernel counted them. */
	uint64_t samples, lost, throttled;
	uint64_t period;                /* the sample period in force */
	/*
	 * The HITM rates are lower bounds: some come from the load-latency
	 * event's data sources, which see the tagged loads only; false where
	 * the family's precise snoop events sample every HITM load.
	 */
	bool hitm_lower_bound;
	int nlines;
	struct sharing_line line[SHARING_TOP];
};

#endif
