/*
 * journal.h: the state journal, so that no register stays changed even
 * after a SIGKILL, a crash or a power cut of the process.
 *
 * Before its first MSR write, lattop records the original value of every
 * register it may write (and which bits of a shared one are its own) in
 * STATE_DIR/journal, synced to disk, and holds an flock on it while it
 * runs.  A clean exit empties the journal; an exit that could not put a
 * register back keeps only the registers that still differ.
 * `lattop --restore` reads each register the journal names, writes back
 * only those that differ, reads them back, and empties the journal when
 * every one matches; it is idempotent.  A lattop that finds a non-empty
 * journal nobody holds refuses to start (it would save already-modified
 * values as "original") and says why it is there and what to do: run
 * --restore after a crash, wait for a lattop still running, load the msr
 * driver, or remove a journal whose device or content is gone.
 *
 * Format, text: "lattop-journal 1", "pid N", "dev DIR", "fw_write 0|1",
 * "gp_width N", "fixed_width N" (the counters' widths; either may be
 * missing, then those counters compare in full), then "r CPU REG VALUE
 * MASK" lines (hex), then "end".
 */
#ifndef LATTOP_JOURNAL_H
#define LATTOP_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "cpu/msrdev.h"
#include "cpu/pmu.h"

#define JOURNAL_DEFAULT_DIR "/run/lattop"

struct journal {
	int dirfd;
	int fd;          /* STATE_DIR/journal, locked; -1 when none */
};

/*
 * Open (creating the default one, mode 0700) the state directory and lock
 * the journal in it.  Refuses a path that is a symlink, not a directory,
 * not owned by the effective user or writable by others; refuses when
 * another lattop holds the lock or a stale journal is there.  0, or -1
 * with a message.
 */
int journal_open(struct journal *j, const char *state_dir, char *err, size_t errlen);

/*
 * Record the saved registers of @p (device @dev), synced: every one, or
 * with @pending only those not yet written back (pmu_reg.dirty), which
 * is what an exit that could not restore everything leaves.  0 or -1.
 */
int journal_write(struct journal *j, const struct pmu *p, const char *dev, bool pending,
		  char *err, size_t errlen);

/* Empty the journal: every register is back.  Async-signal-safe. */
void journal_clear(struct journal *j);

void journal_close(struct journal *j);

/*
 * lattop --restore: write back what a journal in @state_dir records, on the
 * device @dev_dir (what the journal names must match), through
 * pmu_writeback() CPU by CPU, as an exit would, and empty it; only what
 * still differs stays.  @dev is that device already open (a test's), or
 * NULL to open @dev_dir.  Returns 0 (also when there was nothing to
 * restore; @msg says which), or -1 with a message.
 */
int journal_restore(const char *state_dir, const char *dev_dir, struct msrdev *dev, char *msg,
		    size_t len);

/*
 * The exact command that restores the journal in @state_dir (NULL: the
 * default) for the device @dev (NULL or /dev/cpu: the default), for every
 * message that tells it: "lattop --restore [--state-dir S] [--msr-dir D]".
 */
void journal_restore_cmd(char *buf, size_t len, const char *state_dir, const char *dev);

/* What a state directory holds, for --doctor: nothing is created or changed. */
enum journal_state {
	JOURNAL_NONE,           /* no journal, or an empty one: every register is back */
	JOURNAL_RUNNING,        /* a lattop holds it: it restores its registers when it ends */
	JOURNAL_STALE,          /* left behind: registers may still be changed */
	JOURNAL_BROKEN,         /* left behind, but damaged or unreadable */
};

/*
 * Is a journal left in @dir (a path as given, not created)?  @what says
 * what was found, @fix the exact command or step that clears it ("" for
 * JOURNAL_NONE and JOURNAL_RUNNING).  @state_dir is what --state-dir was
 * (NULL: the default), to write it into the command.
 */
enum journal_state journal_check(const char *dir, const char *state_dir, char *what, size_t wlen,
				 char *fix, size_t flen);

#endif
