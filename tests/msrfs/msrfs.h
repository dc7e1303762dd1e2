/*
 * msrfs.h: what the FUSE front end (msrfs.c) asks of a register backend.
 *
 * Two backends exist: a register store read from a file (msrfs_store.c) and
 * the PMU simulator (msrfs_sim.c).  A backend only holds registers; faults,
 * the log, offline CPUs and the file tree belong to msrfs.c.
 */
#ifndef LATTOP_MSRFS_H
#define LATTOP_MSRFS_H

#include <stddef.h>
#include <stdint.h>

struct msrfs_backend {
	int ncpus;
	void *priv;
	/* rdmsr/wrmsr: 0, -EIO (missing register, read-only register written) */
	int (*read)(void *priv, int cpu, uint32_t reg, uint64_t *val);
	int (*write)(void *priv, int cpu, uint32_t reg, uint64_t val);
	/* The `set` control command: another user's write, past read-only. */
	int (*set)(void *priv, int cpu, uint32_t reg, uint64_t val);
	void (*topology)(void *priv, int cpu, int *core, int *package, int *module);
	/* Every register /state lists for @cpu, in ascending address order. */
	void (*state)(void *priv, int cpu,
		      void (*emit)(void *arg, uint32_t reg, uint64_t val), void *arg);
	/* What /stats lists (NULL: no /stats): one call of @emit a statistic. */
	void (*stats)(void *priv, void (*emit)(void *arg, const char *name, unsigned long long v),
		      void *arg);
	void (*destroy)(void *priv);
};

/*
 * Build a backend; on error return -1 with a one-line message in @err.
 * @tpc is the threads per core (1 or 2).
 */
int msrfs_store_open(struct msrfs_backend *b, const char *path, int ncpus,
		     int width, int fw_write, int tpc, char *err, size_t errlen);
int msrfs_sim_open(struct msrfs_backend *b, const char *uarch, const char *profile,
		   char *err, size_t errlen);

#endif
