/*
 * doctor.h: `lattop --doctor`, the check of everything between the user and
 * a measurement, each with what to do about it.
 *
 * Every file is read under env->root ("/" normally, a fake tree in tests):
 * ROOT/dev/cpu/N/msr, ROOT/sys/module/msr, ROOT/sys/kernel/security/lockdown,
 * ROOT/sys/module/msr/parameters/allow_writes, ROOT/proc/sys/kernel/{tainted,
 * nmi_watchdog,osrelease,perf_event_paranoid}, ROOT/proc/cmdline, ROOT/run/lattop/journal,
 * and for the perf backend ROOT/sys/bus/event_source/devices/cpu/ and
 * ROOT/proc/self/status (the capabilities).
 * Nothing is written, anywhere: the msr files are opened read-write only to
 * learn whether lattop could, and MSRs are read only through pmu_open().
 */
#ifndef LATTOP_DOCTOR_H
#define LATTOP_DOCTOR_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "cpu/msrdev.h"
#include "cpu/uarch.h"

#define DOCTOR_STATE_DIR "/run/lattop"     /* under ROOT when env->state_dir is NULL */

struct doctor_env {
	const char *root;               /* "/" normally; tests pass a fake tree */
	const char *msr_dir;            /* --msr-dir, as given; NULL: ROOT/dev/cpu */
	const char *state_dir;          /* as given; NULL: ROOT/run/lattop */
	const struct cpu_desc *desc;    /* NULL: CPUID could not be read */
	uid_t euid;
	/*
	 * The open-file limit the perf backend needs on this machine
	 * (perf_sampler_nofile): 0 when unknown (a CPU lattop cannot measure).
	 */
	long perf_nofile;
	/* For tests; NULL in lattop. */
	const struct rlimit *nofile;    /* instead of getrlimit(RLIMIT_NOFILE) */
	struct msrdev *dev;             /* probe this device instead of opening msr_dir (not closed) */
	int (*open_msr)(const char *path, int flags);  /* instead of open(2), for the permission check */
};

enum doctor_status { DOC_OK, DOC_WARN, DOC_FAIL, DOC_SKIP };

/* The checks, in the order doctor_run() fills them. */
enum doctor_id {
	DOCTOR_CPU,             /* CPU supported (a hypervisor hiding the PMU included) */
	DOCTOR_PMU,             /* PMU version and counters */
	DOCTOR_DRIVER,          /* msr driver: DIR/N/msr exist */
	DOCTOR_PERM,            /* every DIR/N/msr opens read-write */
	DOCTOR_LOCKDOWN,        /* kernel lockdown refuses MSR writes */
	DOCTOR_ALLOW_WRITES,    /* msr.allow_writes */
	DOCTOR_TAINT,           /* MSR writes taint the kernel (S) */
	DOCTOR_NMI_WATCHDOG,    /* holds a fixed counter */
	DOCTOR_COUNTERS,        /* counters in use by someone else */
	DOCTOR_JOURNAL,         /* a stale state journal */
	/* --backend perf: a failure here fails the perf backend's verdict only */
	DOCTOR_PERF_PMU,        /* the kernel's core PMU and the formats lattop needs */
	DOCTOR_PERF_ACCESS,     /* perf_event_paranoid and the capabilities */
	DOCTOR_PERF_FILES,      /* the open-file limit against CPUs x events */
	DOCTOR_PERF_RATE,       /* kernel.perf_event_max_sample_rate, for sampling */
	DOCTOR__COUNT
};

/* Which backend a check stands in the way of. */
enum doctor_backend { DOCB_BOTH, DOCB_MSR, DOCB_PERF };

struct doctor_check {
	const char *name;
	enum doctor_backend backend;
	enum doctor_status status;
	char detail[256];
	char fix[512];          /* "" when there is nothing to do */
};

/*
 * Run every check; fills at most @max entries of @out (DOCTOR__COUNT
 * suffice; out[DOCTOR_x] is check x) and returns how many.
 */
int doctor_run(const struct doctor_env *env, struct doctor_check *out, int max);

/*
 * Whether each backend can measure: no check of its own or of both
 * failed (the perf backend also needs the kernel's core PMU found).
 */
void doctor_backends(const struct doctor_check *checks, int n, bool *msr, bool *perf);

/* True when a backend can measure (exit status 0). */
bool doctor_can_measure(const struct doctor_check *checks, int n);

/*
 * One line per check ("[ ok ]", "[warn]", "[FAIL]", "[skip]", name,
 * detail), an indented "fix:" line under each that is not ok, and a last
 * line saying whether lattop can measure.
 */
void doctor_print(FILE *f, const struct doctor_check *checks, int n, bool color);

/*
 * The same as one JSON object, for scripts: {"checks": [{"name", "status"
 * ("ok", "warn", "fail", "skip"), "backend" ("both", "msr", "perf"),
 * "detail", "fix" (null when there is nothing to do)}], "backends": {"msr",
 * "perf"}, "can_measure"}.
 */
void doctor_print_json(FILE *f, const struct doctor_check *checks, int n);

/* "S" style letters of a /proc/sys/kernel/tainted value ("P O E"), for messages. */
const char *doctor_taint_letters(unsigned long taint, char *buf, size_t len);

#endif
