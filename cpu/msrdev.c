/*
 * msrdev.c: the msr driver's device, /dev/cpu/N/msr or a directory of the
 * same shape (--msr-dir), and what every device shares.
 *
 * Owns: the open file descriptors and the topology read beside them.
 * Does not decide what is written (msr_allow.c) or what it means (pmu.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/msrdev.h"

struct dir_priv {
	int *fd;                /* by index into d->cpu[] */
	bool *locked;           /* this process holds the file's lock (dir_lock) */
	char *path;
};

void msrdev_close(struct msrdev *d)
{
	if (d)
		d->ops->destroy(d);
}

int msrdev_index(const struct msrdev *d, int id)
{
	int lo = 0, hi = d->ncpu - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (d->cpu[mid].id == id)
			return mid;
		if (d->cpu[mid].id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

static int dir_fd(struct msrdev *d, int cpu)
{
	struct dir_priv *p = d->priv;
	int i = msrdev_index(d, cpu);

	return i < 0 ? -1 : p->fd[i];
}

static int dir_read(struct msrdev *d, int cpu, uint32_t reg, uint64_t *val)
{
	int fd = dir_fd(d, cpu);
	ssize_t n;

	if (fd < 0)
		return -ENXIO;
	n = pread(fd, val, sizeof(*val), reg);
	if (n == (ssize_t)sizeof(*val))
		return 0;
	return n < 0 ? -errno : -EIO;
}

static int dir_write(struct msrdev *d, int cpu, uint32_t reg, uint64_t val)
{
	int fd = dir_fd(d, cpu);
	ssize_t n;

	if (fd < 0)
		return -ENXIO;
	n = pwrite(fd, &val, sizeof(val), reg);
	if (n == (ssize_t)sizeof(val))
		return 0;
	return n < 0 ? -errno : -EIO;
}

/*
 * A lattop measuring a CPU holds a write lock on the whole of its msr file
 * (fcntl): the file is what every lattop on the machine shares, whatever
 * its state directory (a container given the host's /dev/cpu sees the same
 * file), and the kernel drops the lock when the process ends, however it
 * ends.  F_GETLK names the holder, as a pid of our namespace (0 when it
 * is not in it).
 */
static int dir_lock(struct msrdev *d, int cpu, bool take, int *holder)
{
	struct dir_priv *p = d->priv;
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int i = msrdev_index(d, cpu), fd = dir_fd(d, cpu);

	if (fd < 0)
		return -ENXIO;
	if (take) {
		if (fcntl(fd, F_SETLK, &fl) == 0) {
			p->locked[i] = true;
			return 0;
		}
		if (errno != EAGAIN && errno != EACCES)
			return -errno;
		fl = (struct flock){ .l_type = F_WRLCK, .l_whence = SEEK_SET };
	}
	if (fcntl(fd, F_GETLK, &fl) < 0)
		return -errno;
	if (fl.l_type == F_UNLCK)
		return take ? -EAGAIN : 0;      /* let go between the two calls */
	*holder = fl.l_pid > 0 ? fl.l_pid : 0;
	return -EBUSY;
}

static int dir_reopen(struct msrdev *d, int cpu)
{
	struct dir_priv *p = d->priv;
	int i = msrdev_index(d, cpu), fd;
	char path[4096];

	if (i < 0)
		return -ENXIO;
	snprintf(path, sizeof(path), "%s/%d/msr", p->path, cpu);
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	/* Closing any descriptor of the file drops the process's lock on it: taken again. */
	if (p->fd[i] >= 0)
		close(p->fd[i]);
	p->fd[i] = fd;
	if (p->locked[i]) {
		int holder;

		p->locked[i] = false;
		return dir_lock(d, cpu, true, &holder);
	}
	return 0;
}

static void dir_destroy(struct msrdev *d)
{
	struct dir_priv *p = d->priv;

	for (int i = 0; i < d->ncpu; i++)
		if (p->fd[i] >= 0)
			close(p->fd[i]);
	free(p->fd);
	free(p->locked);
	free(p->path);
	free(p);
	free(d->cpu);
	free(d);
}

static const struct msrdev_ops dir_ops = {
	.read = dir_read,
	.write = dir_write,
	.reopen = dir_reopen,
	.lock = dir_lock,
	.destroy = dir_destroy,
};

/* A small decimal text file, or @def when it cannot be read. */
static int read_int_file(const char *path, int def)
{
	char buf[32];
	FILE *f = fopen(path, "re");
	int v;

	if (!f)
		return def;
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%d", &v) != 1)
		v = def;
	fclose(f);
	return v;
}

/* First CPU of a sysfs cpu list ("0-1", "2,6"), or @def. */
static int read_list_first(const char *path, int def)
{
	return read_int_file(path, def);
}

static void read_topology(const char *dir, bool sysfs, struct msrdev_cpu *c)
{
	char path[4096];

	if (sysfs) {
		const char *base = "/sys/devices/system/cpu";

		snprintf(path, sizeof(path), "%s/cpu%d/topology/core_id", base, c->id);
		c->core = read_int_file(path, c->id);
		snprintf(path, sizeof(path), "%s/cpu%d/topology/physical_package_id", base, c->id);
		c->package = read_int_file(path, 0);
		/*
		 * Silvermont/Airmont modules are the CPUs sharing an L2 (SDM16
		 * p.661): named by the first CPU of that cache's shared_cpu_list.
		 * The cache whose level file says 2, not a fixed index.
		 */
		c->module = -1;
		for (int k = 0; k < 8 && c->module < 0; k++) {
			snprintf(path, sizeof(path), "%s/cpu%d/cache/index%d/level", base, c->id, k);
			if (read_int_file(path, -1) != 2)
				continue;
			snprintf(path, sizeof(path), "%s/cpu%d/cache/index%d/shared_cpu_list", base,
				 c->id, k);
			c->module = read_list_first(path, -1);
		}
		if (c->module < 0)
			c->module = c->core;
		return;
	}
	snprintf(path, sizeof(path), "%s/%d/core_id", dir, c->id);
	c->core = read_int_file(path, c->id);
	snprintf(path, sizeof(path), "%s/%d/physical_package_id", dir, c->id);
	c->package = read_int_file(path, 0);
	snprintf(path, sizeof(path), "%s/%d/module_id", dir, c->id);
	c->module = read_int_file(path, c->core);
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct msrdev_cpu *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static void open_error(const char *dir, const char *file, int e, bool devcpu,
		       char *err, size_t errlen)
{
	if (devcpu && e == ENOENT)
		snprintf(err, errlen, "%s: no msr driver: load it with 'modprobe msr'", file);
	else if (e == EACCES || e == EPERM)
		snprintf(err, errlen, "%s: permission denied: run as root (or with CAP_SYS_RAWIO)", file);
	else if (e == ENOENT || e == ENOTDIR)
		snprintf(err, errlen, "%s: no CPU msr files (DIR/N/msr) under it", dir);
	else
		snprintf(err, errlen, "%s: %s", file, strerror(e));
}

struct msrdev *msrdev_dir_open(const char *dir, char *err, size_t errlen)
{
	bool devcpu = strcmp(dir, "/dev/cpu") == 0;
	struct msrdev *d = calloc(1, sizeof(*d));
	struct dir_priv *p = calloc(1, sizeof(*p));
	struct dirent *de;
	int cap = 0, n = 0;
	char path[4096];
	DIR *dh;

	if (!d || !p)
		goto nomem;
	d->ops = &dir_ops;
	d->kind = devcpu ? "msr" : "msr-dir";
	d->priv = p;
	p->path = strdup(dir);
	if (!p->path)
		goto nomem;
	d->path = p->path;

	dh = opendir(dir);
	if (!dh) {
		int e = errno;

		if (e == ENOENT || e == ENOTDIR)
			snprintf(err, errlen, devcpu ? "%s: no msr driver: load it with 'modprobe msr'"
					      : "--msr-dir %s: not a directory", dir);
		else
			open_error(dir, dir, e, devcpu, err, errlen);
		goto fail;
	}
	while ((de = readdir(dh))) {
		char *end;
		long id = strtol(de->d_name, &end, 10);

		if (!de->d_name[0] || *end || id < 0 || id > 65535)
			continue;
		if (n == cap) {
			struct msrdev_cpu *c;

			cap = cap ? cap * 2 : 64;
			c = realloc(d->cpu, cap * sizeof(*c));
			if (!c) {
				closedir(dh);
				goto nomem;
			}
			d->cpu = c;
		}
		d->cpu[n++] = (struct msrdev_cpu){ .id = (int)id };
	}
	closedir(dh);
	if (n == 0) {
		if (devcpu)
			snprintf(err, errlen, "%s: no msr driver: load it with 'modprobe msr'", dir);
		else
			snprintf(err, errlen, "--msr-dir %s: no CPU msr files (DIR/N/msr) under it", dir);
		goto fail;
	}
	qsort(d->cpu, n, sizeof(*d->cpu), cmp_cpu);
	d->ncpu = n;
	p->locked = calloc(n, sizeof(*p->locked));
	if (!p->locked)
		goto nomem;
	p->fd = malloc(n * sizeof(*p->fd));
	if (!p->fd)
		goto nomem;
	for (int i = 0; i < n; i++)
		p->fd[i] = -1;
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%d/msr", dir, d->cpu[i].id);
		p->fd[i] = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
		if (p->fd[i] < 0) {
			open_error(dir, path, errno, devcpu, err, errlen);
			goto fail;
		}
		read_topology(dir, devcpu, &d->cpu[i]);
	}
	return d;
nomem:
	snprintf(err, errlen, "out of memory");
fail:
	if (d && p && p->fd)
		dir_destroy(d);
	else {
		if (p) {
			free(p->path);
			free(p->locked);
		}
		free(p);
		if (d)
			free(d->cpu);
		free(d);
	}
	return NULL;
}

/* ---- the online CPUs alone (msrdev_cpus_open) ---- */

static int cpus_rw(struct msrdev *d, int cpu, uint32_t reg, uint64_t *val)
{
	(void)d, (void)cpu, (void)reg, (void)val;
	return -EOPNOTSUPP;
}

static int cpus_write(struct msrdev *d, int cpu, uint32_t reg, uint64_t val)
{
	(void)d, (void)cpu, (void)reg, (void)val;
	return -EOPNOTSUPP;
}

static void cpus_destroy(struct msrdev *d)
{
	free(d->cpu);
	free(d);
}

static const struct msrdev_ops cpus_ops = {
	.read = cpus_rw,
	.write = cpus_write,
	.destroy = cpus_destroy,
};

/* Is CPU @id online?  cpuN/online; a CPU without that file (often cpu0) cannot go offline. */
static bool cpu_online(int id)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", id);
	return read_int_file(path, 1) == 1;
}

struct msrdev *msrdev_cpus_open(char *err, size_t errlen)
{
	const char *base = "/sys/devices/system/cpu";
	struct msrdev *d = calloc(1, sizeof(*d));
	struct dirent *de;
	int cap = 0, n = 0;
	DIR *dh;

	if (!d) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	d->ops = &cpus_ops;
	d->kind = "cpus";
	if (!(dh = opendir(base))) {
		snprintf(err, errlen, "%s: %s", base, strerror(errno));
		free(d);
		return NULL;
	}
	while ((de = readdir(dh))) {
		char *end;
		long id;

		if (strncmp(de->d_name, "cpu", 3) || !de->d_name[3])
			continue;
		id = strtol(de->d_name + 3, &end, 10);
		if (*end || id < 0 || id > 65535 || !cpu_online((int)id))
			continue;
		if (n == cap) {
			struct msrdev_cpu *c;

			cap = cap ? cap * 2 : 64;
			c = realloc(d->cpu, cap * sizeof(*c));
			if (!c) {
				closedir(dh);
				free(d->cpu);
				free(d);
				snprintf(err, errlen, "out of memory");
				return NULL;
			}
			d->cpu = c;
		}
		d->cpu[n] = (struct msrdev_cpu){ .id = (int)id };
		read_topology(NULL, true, &d->cpu[n]);
		n++;
	}
	closedir(dh);
	if (n == 0) {
		snprintf(err, errlen, "%s: no online CPU", base);
		cpus_destroy(d);
		return NULL;
	}
	qsort(d->cpu, n, sizeof(*d->cpu), cmp_cpu);
	d->ncpu = n;
	return d;
}
