/*
 * journal.c: the state journal (see journal.h).
 *
 * Owns STATE_DIR/journal and its lock.  Every path is opened without
 * following symlinks, and a directory that is not the effective user's, or
 * that others may write, is refused: lattop runs as root and must not be
 * tricked into writing through someone else's link.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/msr_allow.h"
#include "lib/grow.h"
#include "safety/journal.h"

#define JOURNAL_NAME "journal"

static int open_dir(const char *dir, bool create, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	if (create && mkdir(dir, 0700) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "state directory %s: %s%s", dir, strerror(errno),
			 errno == EACCES ? ": run as root, or choose one with --state-dir" : "");
		return -1;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "--state-dir %s: %s", dir,
			 errno == ELOOP || errno == ENOTDIR ? "not a directory (symlinks are not followed)"
							    : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 022)) {
		snprintf(err, errlen, "--state-dir %s: %s", dir,
			 st.st_uid != geteuid() ? "owned by another user; lattop writes only in its own"
						: "writable by others; lattop needs a directory only it can write");
		close(fd);
		return -1;
	}
	return fd;
}

static int open_journal(int dirfd, const char *dir, char *err, size_t errlen)
{
	struct stat st;
	int fd = openat(dirfd, JOURNAL_NAME, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0) {
		snprintf(err, errlen, "%s/%s: %s", dir, JOURNAL_NAME, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
		snprintf(err, errlen, "%s/%s: not a plain file of lattop's own", dir, JOURNAL_NAME);
		close(fd);
		return -1;
	}
	return fd;
}

/* The whole journal as a string (caller frees), or NULL. */
static char *slurp(int fd)
{
	struct stat st;
	char *buf;
	ssize_t n;

	if (fstat(fd, &st) < 0 || st.st_size > (64 << 20))
		return NULL;
	buf = malloc(st.st_size + 1);
	if (!buf)
		return NULL;
	n = pread(fd, buf, st.st_size, 0);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	return buf;
}

static const char *dir_name(const char *state_dir)
{
	return state_dir ? state_dir : JOURNAL_DEFAULT_DIR;
}

struct jrec {
	int cpu;
	uint32_t reg;
	uint64_t value, mask;
};

/* A journal as read back. */
struct jfile {
	long pid;                /* -1: none recorded */
	char dev[PATH_MAX];
	int fw;
	unsigned gp_width;       /* 0: not recorded (then counters compare in full) */
	unsigned fixed_width;    /* the same for the fixed counters */
	bool end;                /* finished: written before the first MSR write */
	struct jrec *rec;
	int n;
	size_t cap;
	char bad[160];           /* why it is not a journal lattop can use, or "" */
};

/* Cut @s to something printable, at most @max characters, for a message. */
static void printable(char *dst, size_t len, const char *s, size_t max)
{
	size_t o = 0;

	for (; *s && *s != '\n' && o + 1 < len && o < max; s++) {
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f) {
			o = 0;          /* not text: not shown */
			break;
		}
		dst[o++] = *s;
	}
	dst[o] = 0;
}

/*
 * Parse @text strictly: a header, known keys, register records, "end".
 * Anything else makes it damaged (@jf->bad says where); 0 or -1 (memory).
 */
static int jfile_parse(char *text, struct jfile *jf)
{
	char *line, *save = NULL, shown[64];
	int lineno = 0;

	memset(jf, 0, sizeof(*jf));
	jf->pid = -1;
	if (strncmp(text, "lattop-journal 1\n", 17)) {
		printable(shown, sizeof(shown), text, 40);
		snprintf(jf->bad, sizeof(jf->bad), "it does not start with \"lattop-journal 1\"%s%s%s",
			 shown[0] ? " (it starts \"" : "", shown, shown[0] ? "\")" : "");
		return 0;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct jrec x;
		unsigned long long v, m;
		unsigned reg;
		char extra;

		lineno++;
		if (lineno == 1)
			continue;
		if (jf->end) {
			snprintf(jf->bad, sizeof(jf->bad), "line %d comes after \"end\"", lineno);
			return 0;
		}
		if (!strncmp(line, "dev ", 4))
			snprintf(jf->dev, sizeof(jf->dev), "%s", line + 4);
		else if (sscanf(line, "pid %ld %c", &jf->pid, &extra) == 1)
			;
		else if (sscanf(line, "fw_write %d %c", &jf->fw, &extra) == 1 && (jf->fw == 0 || jf->fw == 1))
			;
		else if (sscanf(line, "gp_width %u %c", &jf->gp_width, &extra) == 1 && jf->gp_width <= 64)
			;
		else if (sscanf(line, "fixed_width %u %c", &jf->fixed_width, &extra) == 1 &&
			 jf->fixed_width <= 64)
			;
		else if (!strcmp(line, "end"))
			jf->end = true;
		else if (sscanf(line, "r %d %x %llx %llx %c", &x.cpu, &reg, &v, &m, &extra) == 4 &&
			 x.cpu >= 0 && msr_allowed(reg) && msr_apmc_index(reg) < 0) {
			struct jrec *nr = grow_array(jf->rec, &jf->cap, (size_t)jf->n + 1, sizeof(*nr), 256);

			if (!nr)
				return -1;
			jf->rec = nr;
			x.reg = reg;
			x.value = v;
			x.mask = m;
			jf->rec[jf->n++] = x;
		} else {
			printable(shown, sizeof(shown), line, 40);
			snprintf(jf->bad, sizeof(jf->bad), "line %d (\"%s\") is not a journal line", lineno,
				 shown);
			return 0;
		}
	}
	if (jf->end && !jf->dev[0])
		snprintf(jf->bad, sizeof(jf->bad), "it names no device (no \"dev\" line)");
	else if (jf->end && jf->pid <= 0)
		snprintf(jf->bad, sizeof(jf->bad), "it names no lattop (no \"pid\" line)");
	return 0;
}

static void jfile_free(struct jfile *jf)
{
	free(jf->rec);
	jf->rec = NULL;
}

void journal_restore_cmd(char *buf, size_t len, const char *state_dir, const char *dev)
{
	snprintf(buf, len, "lattop --restore%s%s%s%s", state_dir ? " --state-dir " : "",
		 state_dir ? state_dir : "", dev && strcmp(dev, "/dev/cpu") ? " --msr-dir " : "",
		 dev && strcmp(dev, "/dev/cpu") ? dev : "");
}

/* Is @pid a running lattop?  (Its name in /proc, so a reused pid is told apart.) */
static bool pid_is_lattop(long pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	if (pid <= 0 || pid == (long)getpid() || (kill((pid_t)pid, 0) < 0 && errno == ESRCH))
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = 0;
	fclose(f);
	return !strcmp(comm, "lattop\n");
}

/*
 * Why a non-empty journal nobody holds is there, and the exact fix.
 * @text is its content (NULL: unreadable).  JOURNAL_STALE or _BROKEN.
 */
static enum journal_state diagnose(char *text, const char *dir, const char *state_dir,
				   char *what, size_t wlen, char *fix, size_t flen)
{
	struct jfile jf;
	struct stat st;
	char cmd[PATH_MAX + 64];
	enum journal_state r = JOURNAL_STALE;

	if (!text || jfile_parse(text, &jf) < 0) {
		journal_restore_cmd(cmd, sizeof(cmd), state_dir, NULL);
		snprintf(what, wlen, "%s/%s cannot be read", dir, JOURNAL_NAME);
		snprintf(fix, flen, "check its permissions, then run '%s'", cmd);
		return JOURNAL_BROKEN;
	}
	journal_restore_cmd(cmd, sizeof(cmd), state_dir, jf.dev);
	if (jf.bad[0]) {
		snprintf(what, wlen, "%s/%s is damaged: %s, so which registers it would put back is "
			 "unknown", dir, JOURNAL_NAME, jf.bad);
		snprintf(fix, flen, "remove it (rm %s/%s); if a lattop was killed since the last boot, "
			 "reboot first: that resets every counter", dir, JOURNAL_NAME);
		r = JOURNAL_BROKEN;
	} else if (pid_is_lattop(jf.pid)) {
		snprintf(what, wlen, "%s/%s was written by lattop pid %ld, which is still running but "
			 "no longer holds it", dir, JOURNAL_NAME, jf.pid);
		snprintf(fix, flen, "let it end (kill %ld: it restores its registers as it ends), then "
			 "run '%s' if the journal is still there", jf.pid, cmd);
	} else if (!jf.end) {
		snprintf(what, wlen, "%s/%s was never finished: the lattop that began it stopped before "
			 "writing any register", dir, JOURNAL_NAME);
		snprintf(fix, flen, "run '%s' (it only empties the journal)", cmd);
	} else if (stat(jf.dev, &st) < 0 && !strcmp(jf.dev, "/dev/cpu")) {
		snprintf(what, wlen, "a previous lattop (pid %ld) ended without restoring its registers "
			 "(%s/%s), and /dev/cpu is gone: the msr driver is not loaded", jf.pid, dir,
			 JOURNAL_NAME);
		snprintf(fix, flen, "load it (modprobe msr), then run '%s'", cmd);
	} else if (stat(jf.dev, &st) < 0) {
		snprintf(what, wlen, "%s/%s is for %s, which no longer exists: its registers went with "
			 "it", dir, JOURNAL_NAME, jf.dev);
		snprintf(fix, flen, "remove the journal (rm %s/%s)", dir, JOURNAL_NAME);
		r = JOURNAL_BROKEN;
	} else {
		snprintf(what, wlen, "a previous lattop (pid %ld) was killed or crashed before restoring "
			 "its registers (%s/%s)", jf.pid, dir, JOURNAL_NAME);
		snprintf(fix, flen, "run '%s'", cmd);
	}
	jfile_free(&jf);
	return r;
}

/* The pid a journal names, or -1. */
static long journal_pid(char *text)
{
	struct jfile jf;
	long pid;

	if (!text || jfile_parse(text, &jf) < 0)
		return -1;
	pid = jf.pid;
	jfile_free(&jf);
	return pid;
}

/* Open, lock, and check: 0 with @j ready, 1 when a non-empty journal is there. */
static int lock_journal(struct journal *j, const char *state_dir, bool running_ok,
			char *err, size_t errlen)
{
	const char *dir = dir_name(state_dir);
	struct stat st;

	j->fd = -1;
	j->dirfd = open_dir(dir, !state_dir, err, errlen);
	if (j->dirfd < 0)
		return -1;
	j->fd = open_journal(j->dirfd, dir, err, errlen);
	if (j->fd < 0)
		goto fail;
	if (flock(j->fd, LOCK_EX | LOCK_NB) < 0) {
		char *text = slurp(j->fd);
		long pid = journal_pid(text);
		char who[48] = "";

		if (pid > 0)
			snprintf(who, sizeof(who), " (pid %ld)", pid);
		snprintf(err, errlen, "another lattop%s is running with state in %s; %s", who, dir,
			 running_ok ? "it restores its registers when it ends"
				    : "lattop never fights over the counters");
		free(text);
		goto fail;
	}
	if (fstat(j->fd, &st) == 0 && st.st_size > 0)
		return 1;
	return 0;
fail:
	journal_close(j);
	return -1;
}

int journal_open(struct journal *j, const char *state_dir, char *err, size_t errlen)
{
	int r = lock_journal(j, state_dir, false, err, errlen);

	if (r == 1) {
		char *text = slurp(j->fd), what[PATH_MAX + 256], fix[2 * PATH_MAX];

		diagnose(text, dir_name(state_dir), state_dir, what, sizeof(what), fix, sizeof(fix));
		snprintf(err, errlen, "%s: %s first", what, fix);
		free(text);
		journal_close(j);
		return -1;
	}
	return r;
}

enum journal_state journal_check(const char *dir, const char *state_dir, char *what, size_t wlen,
				 char *fix, size_t flen)
{
	char path[PATH_MAX + 16], *text;
	enum journal_state r;
	struct stat st;
	int fd;

	what[0] = fix[0] = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, JOURNAL_NAME);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR)) {
		snprintf(what, wlen, "no journal in %s", dir);
		return JOURNAL_NONE;
	}
	if (fd < 0) {
		int e = errno;
		struct stat lst;

		if (lstat(path, &lst) < 0 && errno == EACCES) {
			/* The directory is closed to this user: whether a journal is there is unknown. */
			snprintf(what, wlen, "%s cannot be checked (%s)", path, strerror(e));
			snprintf(fix, flen, "run lattop --doctor as root");
		} else {
			char cmd[PATH_MAX + 64];

			journal_restore_cmd(cmd, sizeof(cmd), state_dir, NULL);
			snprintf(what, wlen, "%s exists but cannot be read (%s)", path, strerror(e));
			snprintf(fix, flen, "run '%s' as root", cmd);
		}
		return JOURNAL_BROKEN;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
		snprintf(what, wlen, "%s is empty: every register is back", path);
		close(fd);
		return JOURNAL_NONE;
	}
	text = slurp(fd);
	if (flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
		long pid = journal_pid(text);

		snprintf(what, wlen, "a lattop is running and holds %s; it restores its registers when it "
			 "ends", path);
		if (pid > 0)
			snprintf(what, wlen, "a lattop (pid %ld) is running and holds %s; it restores its "
				 "registers when it ends", pid, path);
		free(text);
		close(fd);
		return JOURNAL_RUNNING;
	}
	r = diagnose(text, dir, state_dir, what, wlen, fix, flen);
	free(text);
	close(fd);
	return r;
}

/*
 * Write @jf as the journal, synced: every record, or with @keep only those
 * flagged.  0, or -1 with errno.
 */
static int jfile_put(struct journal *j, const struct jfile *jf, const bool *keep)
{
	size_t cap = 256 + strlen(jf->dev) + (size_t)jf->n * 64, len = 0;
	char *buf = malloc(cap);
	int r = 0;

	if (!buf)
		return -1;
	len += (size_t)snprintf(buf, cap, "lattop-journal 1\npid %ld\ndev %s\nfw_write %d\ngp_width %u\n"
				"fixed_width %u\n", jf->pid, jf->dev, jf->fw, jf->gp_width, jf->fixed_width);
	for (int k = 0; k < jf->n; k++)
		if (!keep || keep[k])
			len += (size_t)snprintf(buf + len, cap - len, "r %d 0x%x 0x%llx 0x%llx\n",
						jf->rec[k].cpu, jf->rec[k].reg,
						(unsigned long long)jf->rec[k].value,
						(unsigned long long)jf->rec[k].mask);
	len += (size_t)snprintf(buf + len, cap - len, "end\n");
	if (pwrite(j->fd, buf, len, 0) != (ssize_t)len || ftruncate(j->fd, (off_t)len) < 0 ||
	    fsync(j->fd) < 0 || fsync(j->dirfd) < 0)
		r = -1;
	free(buf);
	return r;
}

int journal_write(struct journal *j, const struct pmu *p, const char *dev, bool pending,
		  char *err, size_t errlen)
{
	struct jfile jf;
	int n = 0, r;

	memset(&jf, 0, sizeof(jf));
	jf.pid = (long)getpid();
	snprintf(jf.dev, sizeof(jf.dev), "%s", dev);
	jf.fw = p->fw_write;
	jf.gp_width = p->gp_width;
	jf.fixed_width = p->fixed_width;
	for (int i = 0; i < p->ncpu; i++)
		n += p->cpu[i].nregs;
	jf.rec = malloc((n ? n : 1) * sizeof(*jf.rec));
	if (!jf.rec) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < p->ncpu; i++)
		for (int k = 0; k < p->cpu[i].nregs; k++) {
			const struct pmu_reg *s = &p->cpu[i].regs[k];

			if (s->mask && p->cpu[i].saved && (!pending || s->dirty))
				jf.rec[jf.n++] = (struct jrec){ p->cpu[i].id, s->reg, s->saved, s->mask };
		}
	r = jfile_put(j, &jf, NULL);
	if (r < 0)
		snprintf(err, errlen, "writing the state journal: %s", strerror(errno));
	jfile_free(&jf);
	return r;
}

void journal_clear(struct journal *j)
{
	if (j->fd >= 0 && ftruncate(j->fd, 0) == 0)
		fsync(j->fd);
}

void journal_close(struct journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	if (j->dirfd >= 0)
		close(j->dirfd);
	j->fd = j->dirfd = -1;
}

/* What journal_restore() tells of the registers it puts back. */
struct replay {
	bool fw;                /* the journal's full-width writes, for the words */
	int bad, written, inexact, offline_cpu;
	char what[PATH_MAX + 256];
	size_t o;
};

static void replay_told(void *arg, int cpu, const struct pmu_reg *s, const struct pmu_wb_res *res)
{
	struct replay *t = arg;

	switch (res->result) {
	case PMU_WB_SAME:
		return;
	case PMU_WB_INEXACT:
		t->inexact++;
		/* fall through */
	case PMU_WB_WRITTEN:
		t->written++;
		return;
	case PMU_WB_COUNTS:
		/* Its control stays, and is named: the counter stays with it. */
		t->bad++;
		return;
	default:
		break;
	}
	t->bad++;
	if (res->err == -ENXIO)
		t->offline_cpu = cpu;
	if (t->o < sizeof(t->what) / 2)
		t->o = pmu_wb_describe(t->what, sizeof(t->what), t->o, t->fw, cpu, s, res);
}

/* Record indices by CPU, and in the order they came within one. */
static int by_cpu(const void *a, const void *b, void *arg)
{
	const struct jrec *rec = arg;
	int x = *(const int *)a, y = *(const int *)b;

	if (rec[x].cpu != rec[y].cpu)
		return rec[x].cpu < rec[y].cpu ? -1 : 1;
	return (x > y) - (x < y);
}

/* Groups of one CPU's records (their first place in the sorted order) by their first record. */
static int by_first(const void *a, const void *b, void *arg)
{
	const int *order = arg;
	int x = order[*(const int *)a], y = order[*(const int *)b];

	return (x > y) - (x < y);
}

/*
 * Put back what @jf records on @dev, CPU by CPU, through pmu_writeback():
 * @keep flags the records that still differ, @t says what happened.  0, or
 * -1 when out of memory.
 */
static int replay(const struct jfile *jf, struct msrdev *dev, bool *keep, struct replay *t)
{
	struct pmu_wb w = { .dev = dev, .fw_write = jf->fw, .gp_width = jf->gp_width,
			    .fixed_width = jf->fixed_width };
	size_t n = jf->n ? (size_t)jf->n : 1;
	struct pmu_reg *regs = calloc(n, sizeof(*regs));
	int *order = calloc(n, sizeof(*order)), *group = calloc(n, sizeof(*group)), ngroup = 0;

	if (!regs || !order || !group) {
		free(regs);
		free(order);
		free(group);
		return -1;
	}
	t->fw = jf->fw;
	/*
	 * CPU by CPU in the order the journal names them, which is the order
	 * of the run's CPUs (journal_write()): the exit's order.
	 */
	for (int k = 0; k < jf->n; k++)
		order[k] = k;
	qsort_r(order, jf->n, sizeof(*order), by_cpu, jf->rec);
	for (int m = 0; m < jf->n; m++) {
		const struct jrec *x = &jf->rec[order[m]];

		regs[m] = (struct pmu_reg){ .reg = x->reg, .saved = x->value, .mask = x->mask,
					    .dirty = true };
		if (m == 0 || jf->rec[order[m - 1]].cpu != x->cpu)
			group[ngroup++] = m;
	}
	qsort_r(group, ngroup, sizeof(*group), by_first, order);
	/*
	 * PEBS off on every CPU before any is written back: on Nehalem and
	 * Westmere a thread's threshold is its sibling's too (pmu_wb_disarm).
	 */
	for (int g = 0; g < ngroup; g++) {
		int m = group[g], end, cpu = jf->rec[order[m]].cpu;

		for (end = m; end < jf->n && jf->rec[order[end]].cpu == cpu; end++)
			;
		pmu_wb_disarm(&w, cpu, regs + m, end - m);
	}
	for (int g = 0; g < ngroup; g++) {
		int m = group[g], end, cpu = jf->rec[order[m]].cpu;

		for (end = m; end < jf->n && jf->rec[order[end]].cpu == cpu; end++)
			;
		pmu_writeback(&w, cpu, regs + m, end - m, replay_told, t);
	}
	for (int m = 0; m < jf->n; m++)
		keep[order[m]] = regs[m].dirty && regs[m].mask;
	free(regs);
	free(order);
	free(group);
	return 0;
}

int journal_restore(const char *state_dir, const char *dev_dir, struct msrdev *on, char *msg,
		    size_t len)
{
	const char *dir = dir_name(state_dir);
	struct journal j;
	struct jfile jf;
	struct msrdev *dev = NULL;
	char *text = NULL, err[512], cmd[PATH_MAX + 64], what[PATH_MAX + 256], fix[2 * PATH_MAX];
	bool *keep = NULL;
	struct replay t = { .offline_cpu = -1 };
	int r, ok = -1;
	struct stat st;

	memset(&jf, 0, sizeof(jf));
	what[0] = 0;
	r = lock_journal(&j, state_dir, true, msg, len);
	if (r < 0)
		return -1;
	if (r == 0) {
		snprintf(msg, len, "nothing to restore: %s/%s is empty", dir, JOURNAL_NAME);
		journal_close(&j);
		return 0;
	}
	text = slurp(j.fd);
	if (!text || jfile_parse(text, &jf) < 0 || jf.bad[0]) {
		/* The same words as a lattop refusing to start, and the same fix. */
		free(text);
		text = slurp(j.fd);
		diagnose(text, dir, state_dir, what, sizeof(what), fix, sizeof(fix));
		snprintf(msg, len, "%s: %s", what, fix);
		goto out;
	}
	if (!jf.end) {
		/* Written before the first MSR write: an unfinished one means none happened. */
		snprintf(msg, len, "the journal in %s was never finished: lattop stopped before writing "
			 "any register; nothing to restore", dir);
		journal_clear(&j);
		ok = 0;
		goto out;
	}
	journal_restore_cmd(cmd, sizeof(cmd), state_dir, jf.dev);
	if (strcmp(jf.dev, dev_dir)) {
		if (stat(jf.dev, &st) < 0 && strcmp(jf.dev, "/dev/cpu"))
			snprintf(msg, len, "%s/%s is for %s, which no longer exists: its registers went "
				 "with it: remove the journal (rm %s/%s)", dir, JOURNAL_NAME, jf.dev, dir,
				 JOURNAL_NAME);
		else
			snprintf(msg, len, "the journal in %s is for %s: run '%s'", dir, jf.dev, cmd);
		goto out;
	}
	dev = on ? on : msrdev_dir_open(dev_dir, err, sizeof(err));
	if (!dev) {
		snprintf(msg, len, "%s; the journal is kept: run '%s' once that is fixed", err, cmd);
		goto out;
	}
	keep = calloc(jf.n ? jf.n : 1, sizeof(*keep));
	if (!keep || replay(&jf, dev, keep, &t) < 0) {
		snprintf(msg, len, "out of memory");
		goto out;
	}
	if (t.bad) {
		if (jfile_put(&j, &jf, keep) < 0) {
			snprintf(msg, len, "%d of %d registers still differ (%s), and rewriting %s/%s failed: "
				 "%s", t.bad, jf.n, t.what, dir, JOURNAL_NAME, strerror(errno));
			goto out;
		}
		if (t.offline_cpu >= 0)
			snprintf(fix, sizeof(fix), "bring cpu %d online (echo 1 > /sys/devices/system/cpu/"
				 "cpu%d/online), then run '%s' again", t.offline_cpu, t.offline_cpu, cmd);
		else
			snprintf(fix, sizeof(fix), "run '%s' again once that is fixed; a reboot resets every "
				 "counter", cmd);
		snprintf(msg, len, "%d of %d registers still differ and stay in %s/%s: %s: %s", t.bad,
			 jf.n, dir, JOURNAL_NAME, t.what, fix);
		goto out;
	}
	journal_clear(&j);
	snprintf(msg, len, "restored %d registers from %s/%s (%d written back, %d already as saved)%s",
		 jf.n, dir, JOURNAL_NAME, t.written, jf.n - t.written,
		 t.inexact ? "; counters without full-width writes were put back as the sign extension "
			   "of their low 32 bits" : "");
	ok = 0;
out:
	if (dev != on)
		msrdev_close(dev);
	free(keep);
	jfile_free(&jf);
	free(text);
	journal_close(&j);
	return ok;
}
