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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/msr_allow.h"
#include "src/journal.h"

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

static long journal_pid(const char *text)
{
	const char *p = strstr(text, "\npid ");

	return p ? strtol(p + 5, NULL, 10) : -1;
}

static const char *dir_name(const char *state_dir)
{
	return state_dir ? state_dir : JOURNAL_DEFAULT_DIR;
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

		snprintf(err, errlen, "another lattop (pid %ld) is running with state in %s; %s",
			 text ? journal_pid(text) : -1L, dir,
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
		char *text = slurp(j->fd);

		snprintf(err, errlen, "a previous lattop (pid %ld) stopped before restoring its registers "
			 "(%s/%s): run 'lattop --restore'%s first", text ? journal_pid(text) : -1L,
			 dir_name(state_dir), JOURNAL_NAME,
			 text && !strstr(text, "\ndev /dev/cpu\n") ? " with the same --msr-dir" : "");
		free(text);
		journal_close(j);
		return -1;
	}
	return r;
}

int journal_write(struct journal *j, const struct pmu *p, const char *dev, char *err, size_t errlen)
{
	size_t cap = 256 + strlen(dev), len = 0;
	char *buf;

	for (int i = 0; i < p->ncpu; i++)
		cap += (size_t)p->cpu[i].nregs * 64;
	buf = malloc(cap);
	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	len += (size_t)snprintf(buf + len, cap - len, "lattop-journal 1\npid %ld\ndev %s\nfw_write %d\n",
				(long)getpid(), dev, p->fw_write);
	for (int i = 0; i < p->ncpu; i++)
		for (int k = 0; k < p->cpu[i].nregs; k++) {
			const struct pmu_reg *s = &p->cpu[i].regs[k];

			if (s->mask)
				len += (size_t)snprintf(buf + len, cap - len, "r %d 0x%x 0x%llx 0x%llx\n",
							p->cpu[i].id, s->reg, (unsigned long long)s->saved,
							(unsigned long long)s->mask);
		}
	len += (size_t)snprintf(buf + len, cap - len, "end\n");
	if (pwrite(j->fd, buf, len, 0) != (ssize_t)len || ftruncate(j->fd, (off_t)len) < 0 ||
	    fsync(j->fd) < 0 || fsync(j->dirfd) < 0) {
		snprintf(err, errlen, "writing the state journal: %s", strerror(errno));
		free(buf);
		return -1;
	}
	free(buf);
	return 0;
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

struct jrec {
	int cpu;
	uint32_t reg;
	uint64_t value, mask;
};

int journal_restore(const char *state_dir, const char *dev_dir, char *msg, size_t len)
{
	struct journal j;
	struct jrec *rec = NULL;
	struct msrdev *dev = NULL;
	char *text = NULL, *line, *save = NULL, jdev[4096] = "", err[512];
	int r, n = 0, cap = 0, bad = 0, fw = 0, ok = -1;
	bool end = false;

	r = lock_journal(&j, state_dir, true, msg, len);
	if (r < 0)
		return -1;
	if (r == 0) {
		snprintf(msg, len, "nothing to restore: %s/%s is empty", dir_name(state_dir), JOURNAL_NAME);
		journal_close(&j);
		return 0;
	}
	text = slurp(j.fd);
	if (!text || strncmp(text, "lattop-journal 1\n", 17)) {
		snprintf(msg, len, "%s/%s: not a lattop journal", dir_name(state_dir), JOURNAL_NAME);
		goto out;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct jrec x;
		unsigned long long v, m;
		unsigned reg;

		if (!strncmp(line, "dev ", 4))
			snprintf(jdev, sizeof(jdev), "%s", line + 4);
		else if (!strncmp(line, "fw_write ", 9))
			fw = atoi(line + 9);
		else if (!strcmp(line, "end"))
			end = true;
		else if (sscanf(line, "r %d %x %llx %llx", &x.cpu, &reg, &v, &m) == 4) {
			if (n == cap) {
				struct jrec *nr;

				cap = cap ? 2 * cap : 256;
				nr = realloc(rec, cap * sizeof(*rec));
				if (!nr) {
					snprintf(msg, len, "out of memory");
					goto out;
				}
				rec = nr;
			}
			x.reg = reg;
			x.value = v;
			x.mask = m;
			rec[n++] = x;
		}
	}
	if (!end) {
		/* Written before the first MSR write: an unfinished one means none happened. */
		snprintf(msg, len, "the journal in %s was never finished: lattop stopped before writing "
			 "any register; nothing to restore", dir_name(state_dir));
		journal_clear(&j);
		ok = 0;
		goto out;
	}
	if (strcmp(jdev, dev_dir)) {
		snprintf(msg, len, "the journal in %s is for %s: run 'lattop --restore%s%s'",
			 dir_name(state_dir), jdev, strcmp(jdev, "/dev/cpu") ? " --msr-dir " : "",
			 strcmp(jdev, "/dev/cpu") ? jdev : "");
		goto out;
	}
	dev = msrdev_dir_open(dev_dir, err, sizeof(err));
	if (!dev) {
		snprintf(msg, len, "%s", err);
		goto out;
	}
	for (int rank = 0; rank < 4; rank++)
		for (int k = 0; k < n; k++) {
			uint64_t v = rec[k].value, now;
			uint32_t reg = rec[k].reg;

			if (pmu_restore_rank(reg) != rank || !rec[k].mask)
				continue;
			if (rec[k].mask != ~0ull) {
				if (msrdev_read(dev, rec[k].cpu, reg, &now) < 0) {
					bad++;
					continue;
				}
				v = (now & ~rec[k].mask) | (v & rec[k].mask);
			}
			if (fw && reg >= MSR_PMC(0) && reg < MSR_PMC(PMU_MAX_GP))
				reg = MSR_A_PMC(reg - MSR_PMC(0));
			if (msr_write(dev, rec[k].cpu, reg, v) < 0)
				bad++;
		}
	if (bad) {
		snprintf(msg, len, "%d of %d registers could not be written back from %s/%s; the journal "
			 "is kept", bad, n, dir_name(state_dir), JOURNAL_NAME);
		goto out;
	}
	journal_clear(&j);
	snprintf(msg, len, "restored %d registers from %s/%s", n, dir_name(state_dir), JOURNAL_NAME);
	ok = 0;
out:
	msrdev_close(dev);
	free(rec);
	free(text);
	journal_close(&j);
	return ok;
}
