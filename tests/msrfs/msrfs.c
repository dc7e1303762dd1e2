/*
 * msrfs.c: a FUSE stand-in for the kernel's msr driver, for tests.
 *
 *	msrfs MNT --cpus N --store FILE [--width 48] [--fw-write]
 *		  [--threads-per-core 1|2] [FUSE options]
 *	msrfs MNT --simulate UARCH [--sim-profile FILE] [FUSE options]
 *
 * Serves MNT/N/msr with the semantics of arch/x86/kernel/msr.c: a read or
 * write of 8 bytes (or a multiple of 8, repeating the same register) at
 * offset = MSR address (the low 32 bits of it); another count is EINVAL, a
 * missing register or a refused write EIO, an offline CPU ENXIO.  Beside the
 * msr files: MNT/N/{core_id,physical_package_id,module_id}, and the test
 * interface MNT/state, MNT/log, MNT/control and, with the simulator,
 * MNT/stats (formats below).  Files are
 * direct_io (every pread reaches this process) and requests are served one at
 * a time (single-threaded loop).
 *
 * /state: `CPU 0xREG 0xVALUE` (value as %016llx) for every register of every
 *	online CPU, sorted by CPU then address.
 * /log: `W CPU 0xREG 0xVALUE` for every register write that succeeded,
 *	`E CPU 0xREG ERRNO` for every failed read or write, `E CPU open ENXIO`
 *	for a refused open, then `reads N writes M`: the read and write
 *	requests received on msr files, successful or not.
 * /stats: the simulator's statistics (sim.h struct sim_stats), `NAME N` a
 *	line: `pebs_write_while_counting N`.  Only with --simulate.
 * /control: one command a line, applied at once; a bad one fails the write
 *	with EINVAL (the lines before it are applied):
 *	fail-read CPU REG ERRNO [COUNT]   CPU, REG may be `*`; COUNT default forever
 *	fail-write CPU REG ERRNO [COUNT]
 *	fail-nth-write N ERRNO            the N-th write request from now fails
 *	offline CPU | online CPU
 *	set CPU REG VALUE                 bypasses read-only and faults, not logged
 *	clear-faults | log-reset
 *
 * Owns the file tree, faults, the log and offline CPUs; registers belong to
 * the backends (msrfs_store.c, msrfs_sim.c).  Must not link anything of
 * lattop's but the simulator.
 */
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests/msrfs/msrfs.h"

#define MSR_FILE_SIZE  (1ll << 33)   /* past 0xffffffff + 8: no read is cut at EOF */
#define LOG_MAX_LINES  200000
#define MAX_NTH        64
#define MSRFS_MAX_ARGS 64

enum msrfs_node {
	NODE_NONE,
	NODE_ROOT,
	NODE_STATE,
	NODE_LOG,
	NODE_CONTROL,
	NODE_STATS,
	NODE_CPUDIR,
	NODE_MSR,
	NODE_CORE,
	NODE_PACKAGE,
	NODE_MODULE,
};

static const char *const msrfs_cpu_files[] = {
	[NODE_MSR] = "msr",
	[NODE_CORE] = "core_id",
	[NODE_PACKAGE] = "physical_package_id",
	[NODE_MODULE] = "module_id",
};

struct msrfs_text {
	char *s;
	size_t len, cap;
};

struct msrfs_fault {
	bool write;
	int cpu;        /* -1: any */
	int64_t reg;    /* -1: any */
	int err;
	long count;     /* -1: forever */
};

struct msrfs_nth {
	long left;
	int err;
};

/* An open file. */
struct msrfs_handle {
	enum msrfs_node node;
	int cpu;
	struct msrfs_text snap;   /* text files: the content at open */
};

static struct msrfs {
	struct msrfs_backend b;
	bool *offline;
	struct msrfs_fault *faults;
	int nfaults, faults_cap;
	struct msrfs_nth nth[MAX_NTH];
	int nnth;
	struct msrfs_text log;
	long log_lines, log_dropped;
	unsigned long long reads, writes;
	time_t start;
} fs;

/* ---- text buffers ---- */

__attribute__((format(printf, 2, 3)))
static void msrfs_text_printf(struct msrfs_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = t->cap - t->len;

		va_start(ap, fmt);
		n = vsnprintf(t->s ? t->s + t->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if ((size_t)n < room) {
			t->len += n;
			return;
		}
		size_t cap = t->cap ? t->cap * 2 : 4096;
		while (cap - t->len <= (size_t)n)
			cap *= 2;
		char *s = realloc(t->s, cap);
		if (!s)
			return;     /* out of memory: the line is lost */
		t->s = s;
		t->cap = cap;
	}
}

static void msrfs_text_free(struct msrfs_text *t)
{
	free(t->s);
	*t = (struct msrfs_text){ 0 };
}

/* ---- errno names ---- */

static const char *msrfs_errname(int e)
{
	const char *s = strerrorname_np(e);

	return s ? s : "E?";
}

/* An errno name (EIO) or number; 0 when not one. */
static int msrfs_parse_errno(const char *s)
{
	char *end;
	long v;

	if (!s)
		return 0;
	for (int e = 1; e < 512; e++) {
		const char *n = strerrorname_np(e);

		if (n && !strcmp(n, s))
			return e;
	}
	v = strtol(s, &end, 10);
	return (*end || end == s || v < 1 || v > 511) ? 0 : (int)v;
}

/* ---- the log ---- */

__attribute__((format(printf, 1, 2)))
static void msrfs_log(const char *fmt, ...)
{
	char line[128];
	va_list ap;

	if (fs.log_lines >= LOG_MAX_LINES) {
		fs.log_dropped++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	msrfs_text_printf(&fs.log, "%s\n", line);
	fs.log_lines++;
}

static void msrfs_log_error(int cpu, uint32_t reg, int err)
{
	msrfs_log("E %d 0x%x %s", cpu, reg, msrfs_errname(-err));
}

/* ---- faults ---- */

/* The injected error for this access, or 0. */
static int msrfs_fault(bool write, int cpu, uint32_t reg)
{
	for (int i = 0; i < fs.nfaults; i++) {
		struct msrfs_fault *f = &fs.faults[i];
		int err;

		if (f->write != write || (f->cpu >= 0 && f->cpu != cpu) ||
		    (f->reg >= 0 && f->reg != reg))
			continue;
		err = f->err;
		if (f->count > 0 && --f->count == 0) {
			memmove(f, f + 1, (fs.nfaults - i - 1) * sizeof(*f));
			fs.nfaults--;
		}
		return -err;
	}
	return 0;
}

/* Count one write request against every fail-nth-write; its error or 0. */
static int msrfs_fault_nth(void)
{
	int err = 0;

	for (int i = 0; i < fs.nnth; i++) {
		if (--fs.nth[i].left > 0)
			continue;
		if (!err)
			err = -fs.nth[i].err;
		fs.nth[i--] = fs.nth[--fs.nnth];
	}
	return err;
}

static int msrfs_add_fault(bool write, int cpu, int64_t reg, int err, long count)
{
	if (fs.nfaults == fs.faults_cap) {
		int cap = fs.faults_cap ? fs.faults_cap * 2 : 16;
		struct msrfs_fault *f = realloc(fs.faults, cap * sizeof(*f));

		if (!f)
			return -ENOMEM;
		fs.faults = f;
		fs.faults_cap = cap;
	}
	fs.faults[fs.nfaults++] = (struct msrfs_fault){
		.write = write, .cpu = cpu, .reg = reg, .err = err, .count = count,
	};
	return 0;
}

/* ---- paths ---- */

static bool msrfs_parse_cpu(const char *s, size_t len, int *cpu)
{
	int v = 0;

	if (len == 0 || len > 5 || (s[0] == '0' && len > 1))
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*cpu = v;
	return v < fs.b.ncpus;
}

static enum msrfs_node msrfs_lookup(const char *path, int *cpu)
{
	const char *slash;

	*cpu = -1;
	if (!strcmp(path, "/"))
		return NODE_ROOT;
	if (!strcmp(path, "/state"))
		return NODE_STATE;
	if (!strcmp(path, "/log"))
		return NODE_LOG;
	if (!strcmp(path, "/control"))
		return NODE_CONTROL;
	if (!strcmp(path, "/stats"))
		return fs.b.stats ? NODE_STATS : NODE_NONE;
	path++;
	slash = strchr(path, '/');
	if (!msrfs_parse_cpu(path, slash ? (size_t)(slash - path) : strlen(path), cpu))
		return NODE_NONE;
	if (!slash)
		return NODE_CPUDIR;
	for (int n = NODE_MSR; n <= NODE_MODULE; n++)
		if (!strcmp(slash + 1, msrfs_cpu_files[n]))
			return n;
	return NODE_NONE;
}

/* ---- generated text ---- */

struct msrfs_state_arg {
	struct msrfs_text *t;
	int cpu;
};

static void msrfs_state_emit(void *arg, uint32_t reg, uint64_t val)
{
	struct msrfs_state_arg *a = arg;

	msrfs_text_printf(a->t, "%d 0x%x 0x%016llx\n", a->cpu, reg, (unsigned long long)val);
}

static void msrfs_stats_emit(void *arg, const char *name, unsigned long long v)
{
	msrfs_text_printf(arg, "%s %llu\n", name, v);
}

static void msrfs_render(enum msrfs_node node, int cpu, struct msrfs_text *t)
{
	int core, package, module;

	switch (node) {
	case NODE_STATE:
		for (int c = 0; c < fs.b.ncpus; c++) {
			struct msrfs_state_arg arg = { .t = t, .cpu = c };

			if (!fs.offline[c])
				fs.b.state(fs.b.priv, c, msrfs_state_emit, &arg);
		}
		break;
	case NODE_LOG:
		if (fs.log.len)
			msrfs_text_printf(t, "%.*s", (int)fs.log.len, fs.log.s);
		if (fs.log_dropped)
			msrfs_text_printf(t, "# %ld lines dropped\n", fs.log_dropped);
		msrfs_text_printf(t, "reads %llu writes %llu\n", fs.reads, fs.writes);
		break;
	case NODE_STATS:
		fs.b.stats(fs.b.priv, msrfs_stats_emit, t);
		break;
	case NODE_CORE:
	case NODE_PACKAGE:
	case NODE_MODULE:
		fs.b.topology(fs.b.priv, cpu, &core, &package, &module);
		msrfs_text_printf(t, "%d\n", node == NODE_CORE ? core :
					     node == NODE_PACKAGE ? package : module);
		break;
	default:
		break;
	}
}

/* ---- control ---- */

static bool msrfs_arg_cpu(const char *s, bool star, int *cpu)
{
	if (!s)
		return false;
	if (star && !strcmp(s, "*")) {
		*cpu = -1;
		return true;
	}
	return msrfs_parse_cpu(s, strlen(s), cpu);
}

static bool msrfs_arg_u64(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && !*end && *v <= max;
}

static bool msrfs_arg_reg(const char *s, bool star, int64_t *reg)
{
	uint64_t v;

	if (star && s && !strcmp(s, "*")) {
		*reg = -1;
		return true;
	}
	if (!msrfs_arg_u64(s, 0xffffffffu, &v))
		return false;
	*reg = (int64_t)v;
	return true;
}

/* One command; 0 or -EINVAL. */
static int msrfs_command(char *line)
{
	char *save = NULL, *tok[6] = { 0 };
	int ntok = 0, cpu, err;
	int64_t reg;
	uint64_t v;

	for (char *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
		if (ntok == 6)
			return -EINVAL;
		tok[ntok++] = t;
	}
	if (ntok == 0 || tok[0][0] == '#')
		return 0;

	if (!strcmp(tok[0], "fail-read") || !strcmp(tok[0], "fail-write")) {
		long count = -1;

		if (ntok < 4 || ntok > 5 || !msrfs_arg_cpu(tok[1], true, &cpu) ||
		    !msrfs_arg_reg(tok[2], true, &reg) || !(err = msrfs_parse_errno(tok[3])))
			return -EINVAL;
		if (ntok == 5) {
			if (!msrfs_arg_u64(tok[4], 1000000000, &v) || v == 0)
				return -EINVAL;
			count = (long)v;
		}
		return msrfs_add_fault(tok[0][5] == 'w', cpu, reg, err, count) ? -EINVAL : 0;
	}
	if (!strcmp(tok[0], "fail-nth-write")) {
		if (ntok != 3 || !msrfs_arg_u64(tok[1], 1000000000, &v) || v == 0 ||
		    !(err = msrfs_parse_errno(tok[2])) || fs.nnth == MAX_NTH)
			return -EINVAL;
		fs.nth[fs.nnth++] = (struct msrfs_nth){ .left = (long)v, .err = err };
		return 0;
	}
	if (!strcmp(tok[0], "offline") || !strcmp(tok[0], "online")) {
		if (ntok != 2 || !msrfs_arg_cpu(tok[1], false, &cpu))
			return -EINVAL;
		fs.offline[cpu] = tok[0][1] == 'f';
		return 0;
	}
	if (!strcmp(tok[0], "set")) {
		if (ntok != 4 || !msrfs_arg_cpu(tok[1], true, &cpu) ||
		    !msrfs_arg_reg(tok[2], false, &reg) || !msrfs_arg_u64(tok[3], UINT64_MAX, &v))
			return -EINVAL;
		for (int c = 0; c < fs.b.ncpus; c++)
			if ((cpu < 0 || c == cpu) && fs.b.set(fs.b.priv, c, (uint32_t)reg, v))
				return -EINVAL;
		return 0;
	}
	if (!strcmp(tok[0], "clear-faults") && ntok == 1) {
		fs.nfaults = 0;
		fs.nnth = 0;
		return 0;
	}
	if (!strcmp(tok[0], "log-reset") && ntok == 1) {
		msrfs_text_free(&fs.log);
		fs.log_lines = fs.log_dropped = 0;
		fs.reads = fs.writes = 0;
		return 0;
	}
	return -EINVAL;
}

static int msrfs_control(const char *buf, size_t size)
{
	char *text = strndup(buf, size), *save = NULL;

	if (!text)
		return -ENOMEM;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char copy[256];

		snprintf(copy, sizeof(copy), "%s", l);
		if (msrfs_command(l)) {
			fprintf(stderr, "msrfs: control: bad command: %s\n", copy);
			free(text);
			return -EINVAL;
		}
	}
	free(text);
	return (int)size;
}

/* ---- msr files ---- */

static int msrfs_msr_read(int cpu, char *buf, size_t size, off_t off)
{
	uint32_t reg = (uint32_t)off;    /* the driver's `u32 reg = *ppos` */
	size_t done = 0;
	int err = 0;

	fs.reads++;
	if (size % 8) {
		msrfs_log_error(cpu, reg, -EINVAL);
		return -EINVAL;
	}
	for (; done < size; done += 8) {
		uint64_t v;

		if (fs.offline[cpu])
			err = -ENXIO;
		else if (!(err = msrfs_fault(false, cpu, reg)))
			err = fs.b.read(fs.b.priv, cpu, reg, &v);
		if (err) {
			msrfs_log_error(cpu, reg, err);
			break;
		}
		memcpy(buf + done, &v, 8);
	}
	return done ? (int)done : err;
}

static int msrfs_msr_write(int cpu, const char *buf, size_t size, off_t off)
{
	uint32_t reg = (uint32_t)off;
	size_t done = 0;
	int err = 0;

	fs.writes++;
	if (size % 8) {
		msrfs_log_error(cpu, reg, -EINVAL);
		return -EINVAL;
	}
	if (size && !fs.offline[cpu])
		err = msrfs_fault_nth();
	for (; !err && done < size; done += 8) {
		uint64_t v;

		memcpy(&v, buf + done, 8);
		if (fs.offline[cpu])
			err = -ENXIO;
		else if (!(err = msrfs_fault(true, cpu, reg)))
			err = fs.b.write(fs.b.priv, cpu, reg, v);
		if (err)
			break;
		msrfs_log("W %d 0x%x 0x%016llx", cpu, reg, (unsigned long long)v);
	}
	if (err)
		msrfs_log_error(cpu, reg, err);
	return done ? (int)done : err;
}

/* ---- FUSE operations ---- */

static void *msrfs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	cfg->entry_timeout = 0;
	cfg->attr_timeout = 0;
	cfg->negative_timeout = 0;
	return NULL;
}

static int msrfs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	enum msrfs_node node;
	struct msrfs_text t = { 0 };
	int cpu;

	(void)fi;
	node = msrfs_lookup(path, &cpu);
	memset(st, 0, sizeof(*st));
	st->st_uid = getuid();
	st->st_gid = getgid();
	st->st_atime = st->st_mtime = st->st_ctime = fs.start;
	st->st_nlink = 1;
	switch (node) {
	case NODE_NONE:
		return -ENOENT;
	case NODE_ROOT:
	case NODE_CPUDIR:
		st->st_mode = S_IFDIR | 0555;
		st->st_nlink = 2;
		return 0;
	case NODE_CONTROL:
		st->st_mode = S_IFREG | 0200;
		return 0;
	case NODE_MSR:
		st->st_mode = S_IFREG | 0600;
		st->st_size = MSR_FILE_SIZE;
		return 0;
	case NODE_LOG:
		/* the log's size without copying it */
		st->st_mode = S_IFREG | 0444;
		st->st_size = fs.log.len;
		if (fs.log_dropped)
			st->st_size += snprintf(NULL, 0, "# %ld lines dropped\n", fs.log_dropped);
		st->st_size += snprintf(NULL, 0, "reads %llu writes %llu\n", fs.reads, fs.writes);
		return 0;
	default:
		st->st_mode = S_IFREG | 0444;
		msrfs_render(node, cpu, &t);
		st->st_size = t.len;
		msrfs_text_free(&t);
		return 0;
	}
}

static int msrfs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
			 struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	int cpu;
	enum msrfs_node node = msrfs_lookup(path, &cpu);

	(void)off;
	(void)fi;
	(void)flags;
	if (node != NODE_ROOT && node != NODE_CPUDIR)
		return node == NODE_NONE ? -ENOENT : -ENOTDIR;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	if (node == NODE_CPUDIR) {
		for (int n = NODE_MSR; n <= NODE_MODULE; n++)
			fill(buf, msrfs_cpu_files[n], NULL, 0, 0);
		return 0;
	}
	for (int c = 0; c < fs.b.ncpus; c++) {
		char name[16];

		if (fs.offline[c])
			continue;
		snprintf(name, sizeof(name), "%d", c);
		fill(buf, name, NULL, 0, 0);
	}
	fill(buf, "state", NULL, 0, 0);
	fill(buf, "log", NULL, 0, 0);
	fill(buf, "control", NULL, 0, 0);
	if (fs.b.stats)
		fill(buf, "stats", NULL, 0, 0);
	return 0;
}

static int msrfs_open(const char *path, struct fuse_file_info *fi)
{
	struct msrfs_handle *h;
	int cpu, acc = fi->flags & O_ACCMODE;
	enum msrfs_node node = msrfs_lookup(path, &cpu);

	switch (node) {
	case NODE_NONE:
		return -ENOENT;
	case NODE_ROOT:
	case NODE_CPUDIR:
		return -EISDIR;
	case NODE_MSR:
		if (fs.offline[cpu]) {
			msrfs_log("E %d open ENXIO", cpu);
			return -ENXIO;
		}
		break;
	case NODE_CONTROL:
		if (acc != O_WRONLY)
			return -EACCES;
		break;
	default:
		if (acc != O_RDONLY)
			return -EACCES;
		break;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->node = node;
	h->cpu = cpu;
	msrfs_render(node, cpu, &h->snap);
	fi->fh = (uintptr_t)h;
	fi->direct_io = 1;
	fi->keep_cache = 0;
	return 0;
}

static int msrfs_read(const char *path, char *buf, size_t size, off_t off,
		      struct fuse_file_info *fi)
{
	struct msrfs_handle *h = (struct msrfs_handle *)(uintptr_t)fi->fh;

	(void)path;
	if (h->node == NODE_MSR)
		return msrfs_msr_read(h->cpu, buf, size, off);
	if (h->node == NODE_CONTROL)
		return -EBADF;
	if (off < 0 || (size_t)off >= h->snap.len)
		return 0;
	if (size > h->snap.len - off)
		size = h->snap.len - off;
	memcpy(buf, h->snap.s + off, size);
	return (int)size;
}

static int msrfs_write(const char *path, const char *buf, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	struct msrfs_handle *h = (struct msrfs_handle *)(uintptr_t)fi->fh;

	(void)path;
	if (h->node == NODE_MSR)
		return msrfs_msr_write(h->cpu, buf, size, off);
	if (h->node == NODE_CONTROL)
		return msrfs_control(buf, size);
	return -EBADF;
}

/* O_TRUNC on `echo cmd > control` (and on an msr file, which ignores it). */
static int msrfs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	int cpu;
	enum msrfs_node node = msrfs_lookup(path, &cpu);

	(void)size;
	(void)fi;
	return node == NODE_CONTROL || node == NODE_MSR ? 0 :
	       node == NODE_NONE ? -ENOENT : -EACCES;
}

static int msrfs_release(const char *path, struct fuse_file_info *fi)
{
	struct msrfs_handle *h = (struct msrfs_handle *)(uintptr_t)fi->fh;

	(void)path;
	if (h) {
		msrfs_text_free(&h->snap);
		free(h);
	}
	return 0;
}

static const struct fuse_operations msrfs_ops = {
	.init = msrfs_init,
	.getattr = msrfs_getattr,
	.readdir = msrfs_readdir,
	.open = msrfs_open,
	.read = msrfs_read,
	.write = msrfs_write,
	.truncate = msrfs_truncate,
	.release = msrfs_release,
};

/* ---- main ---- */

static void msrfs_usage(FILE *f)
{
	fprintf(f,
		"usage: msrfs MNT --cpus N --store FILE [--width BITS] [--fw-write]\n"
		"             [--threads-per-core 1|2] [-f] [-d] [-o OPT]\n"
		"       msrfs MNT --simulate UARCH [--sim-profile FILE] [-f] [-d] [-o OPT]\n");
}

/* "--name VALUE" or "--name=VALUE" at argv[*i]; NULL when not that option. */
static const char *msrfs_optarg(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] || *i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static bool msrfs_atoi(const char *s, int *v)
{
	char *end;
	long l = strtol(s, &end, 10);

	*v = (int)l;
	return *s && !*end && l >= 0 && l <= 1 << 20;
}

int main(int argc, char **argv)
{
	const char *store = NULL, *uarch = NULL, *profile = NULL, *a;
	int ncpus = -1, width = 48, tpc = 1, fw_write = 0, fargc = 0, ret;
	char *fargv[MSRFS_MAX_ARGS + 4];
	char err[512], opts[128];
	pid_t parent;

	if (argc > MSRFS_MAX_ARGS) {
		fprintf(stderr, "msrfs: too many arguments\n");
		return 2;
	}
	fargv[fargc++] = argv[0];
	for (int i = 1; i < argc; i++) {
		bool ok = true;

		if ((a = msrfs_optarg(argc, argv, &i, "--cpus")))
			ok = msrfs_atoi(a, &ncpus);
		else if ((a = msrfs_optarg(argc, argv, &i, "--store")))
			store = a;
		else if ((a = msrfs_optarg(argc, argv, &i, "--width")))
			ok = msrfs_atoi(a, &width);
		else if ((a = msrfs_optarg(argc, argv, &i, "--threads-per-core")))
			ok = msrfs_atoi(a, &tpc);
		else if ((a = msrfs_optarg(argc, argv, &i, "--simulate")))
			uarch = a;
		else if ((a = msrfs_optarg(argc, argv, &i, "--sim-profile")))
			profile = a;
		else if (!strcmp(argv[i], "--fw-write"))
			fw_write = 1;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			msrfs_usage(stdout);
			return 0;
		} else
			fargv[fargc++] = argv[i];
		if (!ok) {
			fprintf(stderr, "msrfs: %s: not a number\n", a);
			return 2;
		}
	}
	if (!!store == !!uarch || (store && ncpus < 0) || (uarch && (ncpus >= 0 || fw_write)) ||
	    (store && profile)) {
		msrfs_usage(stderr);
		return 2;
	}
	ret = store ? msrfs_store_open(&fs.b, store, ncpus, width, fw_write, tpc, err, sizeof(err))
		    : msrfs_sim_open(&fs.b, uarch, profile, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "msrfs: %s\n", err);
		return 2;
	}
	fs.offline = calloc(fs.b.ncpus, sizeof(*fs.offline));
	if (!fs.offline)
		return 2;
	fs.start = time(NULL);

	/*
	 * Never outlive the test that started us: SIGTERM (which unmounts)
	 * when the parent dies, and auto_unmount (fusermount3 watching) when
	 * we die without unmounting.
	 */
	parent = getppid();
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		return 1;
	snprintf(opts, sizeof(opts), "fsname=msrfs,subtype=msrfs,auto_unmount%s",
		 geteuid() == 0 ? ",allow_other" : "");
	fargv[fargc++] = "-s";
	fargv[fargc++] = "-o";
	fargv[fargc++] = opts;
	fargv[fargc] = NULL;
	ret = fuse_main(fargc, fargv, &msrfs_ops, NULL);

	fs.b.destroy(fs.b.priv);
	free(fs.offline);
	free(fs.faults);
	msrfs_text_free(&fs.log);
	return ret;
}
