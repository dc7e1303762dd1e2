/*
 * doctor.c: `lattop --doctor`.  Owns the checks of what stands between the
 * user and a measurement, and what each says to do.
 *
 * Must not write anything, anywhere: files are only read (the msr files
 * are opened read-write and closed at once, which the msr driver answers
 * without touching a register), and MSRs are only read, by pmu_open().
 * Knows the kernel facts below; everything about the CPU comes from the
 * struct cpu_desc, everything about counters from pmu.c.
 *
 * Kernel facts (arch/x86/kernel/msr.c as in github intel-lab-lkp/linux @
 * 4a77d71e0d59; kernel/panic.c taint_flags[]; include/linux/panic.h;
 * security/lockdown/lockdown.c; include/linux/security.h;
 * kernel/watchdog_perf.c; arch/x86/events/core.c __perf_sched_find_counter;
 * arch/x86/events/intel/core.c FIXED_EVENT_CONSTRAINT(0x003c, 1)):
 *   - msr_open() refuses without CAP_SYS_RAWIO (EPERM); the node is 0600 root.
 *   - msr_write() calls security_locked_down(LOCKDOWN_MSR), then
 *     filter_write(): allow_writes "off" -> EPERM, "on" -> allowed,
 *     "default" -> allowed with a rate-limited "Write to unrecognized MSR"
 *     log line.  Then add_taint(TAINT_CPU_OUT_OF_SPEC) for EVERY write
 *     that passes, "on" included.  The filter (and the taint) came with
 *     "x86/msr: Filter MSR writes" (tip x86-misc-2020-08-03, Linux 5.9).
 *   - The parameter reads "on", "off" or "default"; its mode is 0600.
 *   - TAINT_CPU_OUT_OF_SPEC is bit 2, letter 'S' (taint_flags[]).
 *   - LOCKDOWN_MSR sits below LOCKDOWN_INTEGRITY_MAX: both "integrity" and
 *     "confidentiality" refuse MSR writes (not reads).  The securityfs file
 *     reads "none [integrity] confidentiality", the level in brackets.
 *     lockdown= accepts only integrity|confidentiality and a level cannot
 *     be lowered at runtime: there is no "lockdown=none".
 *   - Lockdown stops perf_event_open(2) only for PERF_SAMPLE_REGS_INTR
 *     (LOCKDOWN_PERF, a confidentiality reason; kernel/events/core.c,
 *     "REGS_INTR can leak data"), which lattop never asks for: the perf
 *     backend measures under either level.
 *   - The perf hard-lockup detector (nmi_watchdog) is a pinned
 *     PERF_COUNT_HW_CPU_CYCLES event; on Intel, cycles (0x003c) may use
 *     fixed counter 1 and the scheduler prefers fixed counters, so it
 *     usually holds IA32_FIXED_CTR1.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/perf_attr.h"
#include "cpu/perfdev.h"
#include "cpu/pmu.h"
#include "safety/doctor.h"
#include "safety/journal.h"
#include "output/report.h"

#define TAINT_CPU_OUT_OF_SPEC_BIT 2     /* kernel include/linux/panic.h */

/* Below this many samples per second per CPU the contended-lines view is thin. */
#define DOCTOR_MIN_SAMPLE_RATE 1000

#define SIM_HINT "to see lattop work: lattop --simulate haswell"
#define HV_FIX "enable the guest's virtual PMU (QEMU/KVM: -cpu host,pmu=on; libvirt: <pmu state='on'/>; " \
	       "VMware: virtualize CPU performance counters) or run on bare metal; " SIM_HINT
#define AW_PATH "/sys/module/msr/parameters/allow_writes"

enum aw { AW_ABSENT, AW_UNREADABLE, AW_ON, AW_DEFAULT, AW_OFF, AW_OTHER };

/* What one check learns that a later one needs. */
struct ctx {
	const struct doctor_env *env;
	char dir[PATH_MAX];             /* msr directory in use */
	bool custom_dir;                /* --msr-dir other than the kernel's */
	int *ids;                       /* CPUs with DIR/N/msr */
	int nids;
	bool driver_loaded;
	bool dev_ok;                    /* every DIR/N/msr opened read-write */
	bool locked;                    /* lockdown refuses MSR writes */
	enum aw aw;
	int nmi;                        /* -1: unknown */
};

static void set(struct doctor_check *k, enum doctor_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set(struct doctor_check *k, enum doctor_status st, const char *fmt, ...)
{
	va_list ap;

	k->status = st;
	va_start(ap, fmt);
	vsnprintf(k->detail, sizeof(k->detail), fmt, ap);
	va_end(ap);
}

static void fix(struct doctor_check *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fix(struct doctor_check *k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(k->fix, sizeof(k->fix), fmt, ap);
	va_end(ap);
}

/* ROOT + @p, or @p itself when ROOT is "/". */
static const char *rpath(const struct doctor_env *e, const char *p, char *buf, size_t len)
{
	const char *root = e->root ? e->root : "/";
	size_t n = strlen(root);

	while (n > 0 && root[n - 1] == '/')
		n--;
	snprintf(buf, len, "%.*s%s", (int)n, root, p);
	return buf;
}

/* A small text file, trailing white space cut: 0 or -errno. */
static int read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = 0;
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = 0;
	return 0;
}

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The CPUs N having DIR/N/msr, sorted: how many, or -errno. */
static int list_cpus(const char *dir, int **out)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	int n = 0, cap = 0, *ids = NULL;

	*out = NULL;
	if (!dh)
		return -errno;
	while ((de = readdir(dh))) {
		char path[PATH_MAX + 32], *end;
		long id = strtol(de->d_name, &end, 10);

		if (!de->d_name[0] || *end || id < 0 || id > 65535)
			continue;
		snprintf(path, sizeof(path), "%s/%ld/msr", dir, id);
		if (!exists(path))
			continue;
		if (n == cap) {
			int *t;

			cap = cap ? cap * 2 : 64;
			t = realloc(ids, cap * sizeof(*ids));
			if (!t) {
				free(ids);
				closedir(dh);
				return -ENOMEM;
			}
			ids = t;
		}
		ids[n++] = (int)id;
	}
	closedir(dh);
	if (n)
		qsort(ids, n, sizeof(*ids), cmp_int);
	*out = ids;
	return n;
}

const char *doctor_taint_letters(unsigned long taint, char *buf, size_t len)
{
	/* kernel/panic.c taint_flags[], bit 0 upwards ('P' for bit 0 set, else 'G'). */
	static const char letters[] = "PFSRMBUDAWCIOELKXTNJ";
	size_t o = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < 8 * sizeof(taint) && o + 3 < len; i++) {
		char ch;

		if (!(taint & (1ul << i)))
			continue;
		ch = i < sizeof(letters) - 1 ? letters[i] : '?';
		if (ch == '?' && o && strchr(buf, '?'))
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%c", o ? " " : "", ch);
	}
	return buf;
}

/* ------------------------------------------------------------ the checks */

static void supported_list(char *buf, size_t len)
{
	size_t o = 0;
	int n = 0, i;

	for (i = 0; uarch_supported[i]; i++)
		n++;
	buf[0] = 0;
	for (i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ",
				      uarch_supported[i]->pretty);
}

/* The PMU is not visible at all (no leaf 0xA, or version 0): "" if it is. */
static const char *pmu_hidden(const struct cpuid_info *id, char *buf, size_t len)
{
	buf[0] = 0;
	if (id->max_leaf < 0xa)
		snprintf(buf, len, "no CPUID leaf 0xA (max basic leaf 0x%x)", id->max_leaf);
	else if (id->pmu.version == 0)
		snprintf(buf, len, "CPUID leaf 0xA version 0");
	return buf;
}

static void check_cpu(struct ctx *c, struct doctor_check *k)
{
	const struct cpu_desc *d = c->env->desc;
	char hidden[64], list[384];

	k->name = "CPU supported";
	if (!d) {
		set(k, DOC_SKIP, "CPUID could not be read");
		return;
	}
	if (d->supported) {
		set(k, DOC_OK, "%s (%02X_%02X)%s%s", d->uarch->pretty, d->id.family, d->id.model,
		    d->id.brand[0] ? ", " : "", d->id.brand);
		return;
	}
	pmu_hidden(&d->id, hidden, sizeof(hidden));
	if (d->id.hypervisor && d->uarch->table && hidden[0]) {
		set(k, DOC_FAIL, "a hypervisor hides the PMU: %s (%02X_%02X) under a hypervisor "
		    "(CPUID.01H:ECX[31]) shows %s", d->uarch->pretty, d->id.family, d->id.model, hidden);
		fix(k, "%s", HV_FIX);
		return;
	}
	set(k, DOC_FAIL, "%s", d->reason);
	if (d->id.hypervisor && d->uarch->table) {
		fix(k, "%s", HV_FIX);
		return;
	}
	supported_list(list, sizeof(list));
	fix(k, "lattop measures %s; %s", list, SIM_HINT);
}

static void check_pmu(struct ctx *c, struct doctor_check *k)
{
	const struct cpu_desc *d = c->env->desc;
	const struct pmu_caps *p;
	const struct uarch *u;
	char hidden[64], caps[96];

	k->name = "PMU";
	if (!d) {
		set(k, DOC_SKIP, "CPUID could not be read");
		return;
	}
	p = &d->id.pmu;
	u = d->uarch;
	snprintf(caps, sizeof(caps), "perfmon v%u, %u general-purpose x %u-bit, %u fixed",
		 p->version, p->gp_counters, p->gp_width, p->fixed_counters);
	pmu_hidden(&d->id, hidden, sizeof(hidden));
	if (!u->table) {
		/* Nothing to judge against: say what is there. */
		set(k, DOC_SKIP, "%s (no lattop table for %s)", hidden[0] ? hidden : caps, u->pretty);
		return;
	}
	if (hidden[0]) {
		set(k, DOC_FAIL, "no architectural PMU visible: %s%s", hidden,
		    d->id.hypervisor ? " (under a hypervisor)" : "");
		if (d->id.hypervisor)
			fix(k, "%s", HV_FIX);
		else
			fix(k, "%s", SIM_HINT);
		return;
	}
	if (p->version < u->min_version || p->gp_counters < u->gp_needed ||
	    p->gp_width != u->gp_width || p->fixed_counters < 3) {
		set(k, DOC_FAIL, "%s; the %s table needs v%u, %u general-purpose x %u-bit, 3 fixed",
		    caps, u->pretty, u->min_version, u->gp_needed, u->gp_width);
		if (d->id.hypervisor)
			fix(k, "%s", HV_FIX);
		else
			fix(k, "%s", SIM_HINT);
		return;
	}
	set(k, DOC_OK, "%s", caps);
}

static bool modules_has_msr(const struct doctor_env *e)
{
	char path[PATH_MAX], line[512];
	bool found = false;
	FILE *f = fopen(rpath(e, "/proc/modules", path, sizeof(path)), "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strncmp(line, "msr ", 4) == 0;
	fclose(f);
	return found;
}

static void check_driver(struct ctx *c, struct doctor_check *k)
{
	const struct doctor_env *e = c->env;
	char devcpu[PATH_MAX], path[PATH_MAX];
	int n;

	k->name = "msr driver";
	rpath(e, "/dev/cpu", devcpu, sizeof(devcpu));
	if (e->msr_dir) {
		size_t l = strlen(e->msr_dir);

		while (l > 1 && e->msr_dir[l - 1] == '/')
			l--;
		snprintf(c->dir, sizeof(c->dir), "%.*s", (int)l, e->msr_dir);
		c->custom_dir = strcmp(c->dir, devcpu) != 0;
	} else {
		snprintf(c->dir, sizeof(c->dir), "%s", devcpu);
	}
	c->driver_loaded = exists(rpath(e, "/sys/module/msr", path, sizeof(path))) ||
			   modules_has_msr(e);
	n = list_cpus(c->dir, &c->ids);
	c->nids = n > 0 ? n : 0;

	if (c->custom_dir) {
		if (n > 0) {
			set(k, DOC_OK, "--msr-dir %s: %d CPU%s (DIR/N/msr); the kernel's driver is not used",
			    c->dir, n, n > 1 ? "s" : "");
			return;
		}
		set(k, DOC_FAIL, "--msr-dir %s: %s", c->dir,
		    n < 0 ? strerror(-n) : "no CPU msr files (DIR/N/msr) under it");
		fix(k, "give --msr-dir a directory of N/msr files, or leave it out to use /dev/cpu");
		return;
	}
	if (n > 0) {
		set(k, DOC_OK, "%d CPU%s have %s/N/msr", n, n > 1 ? "s" : "", c->dir);
		return;
	}
	if (c->driver_loaded) {
		set(k, DOC_FAIL, "the msr driver is loaded, but there is no %s/N/msr", c->dir);
		fix(k, "the nodes come from devtmpfs and udev: check that /dev is devtmpfs, or run "
		    "'udevadm trigger --subsystem-match=msr'");
		return;
	}
	set(k, DOC_FAIL, "not loaded: no %s/0/msr", c->dir);
	fix(k, "modprobe msr; to load it at every boot: echo msr > /etc/modules-load.d/msr.conf "
	    "(if modprobe finds no module, the kernel was built without CONFIG_X86_MSR)");
}

static void check_perm(struct ctx *c, struct doctor_check *k)
{
	const struct doctor_env *e = c->env;
	int (*op)(const char *, int) = e->open_msr;
	char path[PATH_MAX + 32], bad[PATH_MAX + 32] = "";
	int nbad = 0, err = 0, badcpu = -1;

	k->name = "device permissions";
	if (!c->nids) {
		set(k, DOC_SKIP, "no msr files to open (see msr driver)");
		return;
	}
	for (int i = 0; i < c->nids; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/%d/msr", c->dir, c->ids[i]);
		/* Read-write, as lattop opens them; nothing is written. */
		fd = op ? op(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
			: open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
		if (fd >= 0) {
			close(fd);
			continue;
		}
		if (!nbad++) {
			err = errno;
			badcpu = c->ids[i];
			snprintf(bad, sizeof(bad), "%s", path);
		}
	}
	c->dev_ok = nbad == 0;
	if (!nbad) {
		set(k, DOC_OK, "%d of %d open read-write%s", c->nids, c->nids,
		    e->euid == 0 ? " (root)" : " (not root, but allowed)");
		return;
	}
	switch (err) {
	case EACCES:
	case EPERM:
		if (e->euid != 0) {
			set(k, DOC_FAIL, "%s: permission denied, not root (%d of %d CPUs)", bad, nbad,
			    c->nids);
			fix(k, "run as root (sudo lattop ...), or grant CAP_SYS_RAWIO "
			    "(setcap cap_sys_rawio=ep lattop) plus read-write access to /dev/cpu/*/msr");
		} else {
			set(k, DOC_FAIL, "%s: permission denied although root: CAP_SYS_RAWIO is missing "
			    "(%d of %d CPUs)", bad, nbad, c->nids);
			fix(k, "grant CAP_SYS_RAWIO (in a container: --cap-add SYS_RAWIO and the "
			    "/dev/cpu/N/msr devices)");
		}
		break;
	case ENXIO:
		set(k, DOC_FAIL, "%s: cpu %d is offline (%d of %d CPUs)", bad, badcpu, nbad, c->nids);
		fix(k, "bring it online: echo 1 > /sys/devices/system/cpu/cpu%d/online", badcpu);
		break;
	case EIO:
		set(k, DOC_FAIL, "%s: the CPU has no MSRs (EIO) (%d of %d CPUs)", bad, nbad, c->nids);
		break;
	default:
		set(k, DOC_FAIL, "%s: %s (%d of %d CPUs)", bad, strerror(err), nbad, c->nids);
		break;
	}
}

/* "skip: not the kernel's driver" for the checks about the kernel's msr driver. */
static bool skip_custom(struct ctx *c, struct doctor_check *k)
{
	if (!c->custom_dir)
		return false;
	set(k, DOC_SKIP, "not used: --msr-dir %s is not the kernel's msr driver", c->dir);
	return true;
}

/* Value of "lockdown=" on the kernel command line, or "". */
static void cmdline_lockdown(const struct doctor_env *e, char *val, size_t len)
{
	char path[PATH_MAX], line[4096];
	const char *p;

	val[0] = 0;
	if (read_text(rpath(e, "/proc/cmdline", path, sizeof(path)), line, sizeof(line)) < 0)
		return;
	for (p = line; (p = strstr(p, "lockdown=")); p++)
		if (p == line || p[-1] == ' ') {
			p += strlen("lockdown=");
			snprintf(val, len, "%.*s", (int)strcspn(p, " "), p);
			return;
		}
}

static void check_lockdown(struct ctx *c, struct doctor_check *k)
{
	const struct doctor_env *e = c->env;
	char path[PATH_MAX], text[256], sel[256] = "", cmd[64];
	bool any = false, msr = false, other = false;
	const char *p;
	int r;

	k->name = "kernel lockdown";
	if (skip_custom(c, k))
		return;
	r = read_text(rpath(e, "/sys/kernel/security/lockdown", path, sizeof(path)), text, sizeof(text));
	if (r == -ENOENT) {
		set(k, DOC_SKIP, "no %s (securityfs not mounted, or no lockdown LSM): taken as none", path);
		return;
	}
	if (r < 0) {
		set(k, DOC_SKIP, "%s: %s", path, strerror(-r));
		return;
	}
	/* "none [integrity] confidentiality": the selected level is in brackets. */
	for (p = text; (p = strchr(p, '[')); ) {
		const char *q = strchr(p, ']');
		size_t n, o = strlen(sel);

		if (!q)
			break;
		n = (size_t)(q - p - 1);
		snprintf(sel + o, sizeof(sel) - o, "%s[%.*s]", o ? " " : "", (int)n, p + 1);
		any = true;
		if ((n == 9 && !strncmp(p + 1, "integrity", n)) ||
		    (n == 15 && !strncmp(p + 1, "confidentiality", n)) ||
		    (n == 14 && !strncmp(p + 1, "raw MSR access", n)))
			msr = true;
		else if (!(n == 4 && !strncmp(p + 1, "none", n)))
			other = true;
		p = q + 1;
	}
	if (!any) {
		set(k, DOC_WARN, "unrecognised content of %s: '%.100s'", path, text);
		return;
	}
	if (msr) {
		c->locked = true;
		set(k, DOC_FAIL, "%s: the kernel refuses every MSR write under lockdown (EPERM)", sel);
		cmdline_lockdown(e, cmd, sizeof(cmd));
		if (cmd[0])
			fix(k, "measure with --backend perf, which lockdown does not stop; or remove "
			    "lockdown=%s from the kernel command line and reboot (lockdown cannot be "
			    "lifted at runtime)", cmd);
		else
			fix(k, "measure with --backend perf, which lockdown does not stop; lockdown itself "
			    "cannot be lifted at runtime: it comes from UEFI Secure Boot or the kernel "
			    "config (disable Secure Boot, or 'mokutil --disable-validation', and reboot)");
		return;
	}
	set(k, DOC_OK, "%s%s", sel, other ? ": does not cover raw MSR access" : "");
}

static void check_allow_writes(struct ctx *c, struct doctor_check *k)
{
	char path[PATH_MAX], v[64];
	int r;

	k->name = "msr.allow_writes";
	c->aw = AW_ABSENT;
	if (skip_custom(c, k))
		return;
	r = read_text(rpath(c->env, AW_PATH, path, sizeof(path)), v, sizeof(v));
	if (r == -ENOENT) {
		if (c->driver_loaded)
			set(k, DOC_SKIP, "absent: this kernel has no MSR write filter (it came in Linux 5.9)");
		else
			set(k, DOC_SKIP, "unknown until the msr driver is loaded");
		return;
	}
	if (r < 0) {
		c->aw = AW_UNREADABLE;
		set(k, DOC_SKIP, "%s: %s%s", path, strerror(-r),
		    r == -EACCES ? " (the parameter is readable by root only)" : "");
		return;
	}
	if (!strcmp(v, "on")) {
		c->aw = AW_ON;
		set(k, DOC_OK, "on: MSR writes are allowed and not logged");
	} else if (!strcmp(v, "default")) {
		c->aw = AW_DEFAULT;
		set(k, DOC_WARN, "default: MSR writes are allowed, but each burst is logged "
		    "('Write to unrecognized MSR ... by lattop', rate-limited)");
		fix(k, "echo on > " AW_PATH " (or boot with msr.allow_writes=on)");
	} else if (!strcmp(v, "off")) {
		c->aw = AW_OFF;
		set(k, DOC_FAIL, "off: the kernel refuses every MSR write (EPERM)");
		fix(k, "echo on > " AW_PATH " (or boot with msr.allow_writes=on instead of =off)");
	} else {
		c->aw = AW_OTHER;
		set(k, DOC_WARN, "unrecognised value '%.40s' (expected on, off or default)", v);
	}
}

/* Linux version from osrelease as major * 1000 + minor, or -1. */
static int kernel_version(const struct doctor_env *e)
{
	char path[PATH_MAX], v[128];
	unsigned major, minor;

	if (read_text(rpath(e, "/proc/sys/kernel/osrelease", path, sizeof(path)), v, sizeof(v)) < 0 ||
	    sscanf(v, "%u.%u", &major, &minor) != 2)
		return -1;
	return (int)(major * 1000 + minor);
}

static void check_taint(struct ctx *c, struct doctor_check *k)
{
	char path[PATH_MAX], v[64], letters[64], now[96], *end;
	unsigned long t;
	bool taints;
	int r;

	k->name = "kernel taint";
	if (skip_custom(c, k))
		return;
	r = read_text(rpath(c->env, "/proc/sys/kernel/tainted", path, sizeof(path)), v, sizeof(v));
	if (r < 0) {
		set(k, DOC_SKIP, "%s: %s", path, strerror(-r));
		return;
	}
	errno = 0;
	t = strtoul(v, &end, 10);
	if (errno || end == v || *end) {
		set(k, DOC_SKIP, "%s: unrecognised content '%.40s'", path, v);
		return;
	}
	if (t)
		snprintf(now, sizeof(now), "now %lu (%s)", t, doctor_taint_letters(t, letters, sizeof(letters)));
	else
		snprintf(now, sizeof(now), "now 0 (not tainted)");

	if (c->locked || c->aw == AW_OFF) {
		set(k, DOC_OK, "lattop cannot write MSRs here (see above), so it adds no taint; %s", now);
		return;
	}
	switch (c->aw) {
	case AW_ABSENT:
		if (c->driver_loaded) {
			taints = false;         /* a driver without the write filter: before 5.9 */
		} else {
			int ver = kernel_version(c->env);

			taints = ver < 0 || ver >= 5009;
		}
		break;
	default:
		taints = true;
		break;
	}
	if (!taints) {
		set(k, DOC_OK, "this kernel's msr driver has no write filter: MSR writes do not taint; %s", now);
		return;
	}
	if (t & (1ul << TAINT_CPU_OUT_OF_SPEC_BIT)) {
		set(k, DOC_OK, "already tainted S (CPU_OUT_OF_SPEC): lattop's MSR writes add nothing; %s", now);
		return;
	}
	set(k, DOC_WARN, "lattop's MSR writes will taint the kernel 'S' (TAINT_CPU_OUT_OF_SPEC, bit 2) "
	    "until reboot; %s", now);
	fix(k, "nothing to fix for measuring: S marks kernel bug reports; every MSR write sets it "
	    "(Linux 5.9+), msr.allow_writes=on only silences the log");
}

static void check_nmi(struct ctx *c, struct doctor_check *k)
{
	char path[PATH_MAX], v[32];
	int r;

	k->name = "NMI watchdog";
	c->nmi = -1;
	if (skip_custom(c, k))
		return;
	r = read_text(rpath(c->env, "/proc/sys/kernel/nmi_watchdog", path, sizeof(path)), v, sizeof(v));
	if (r < 0) {
		set(k, DOC_SKIP, "%s: %s%s", path, strerror(-r),
		    r == -ENOENT ? " (no hard-lockup detector)" : "");
		return;
	}
	c->nmi = atoi(v) != 0;
	if (!c->nmi) {
		set(k, DOC_OK, "off");
		return;
	}
	set(k, DOC_WARN, "on: it holds a fixed counter (usually IA32_FIXED_CTR1): lattop measures "
	    "cycles on a general-purpose counter instead");
	fix(k, "sysctl kernel.nmi_watchdog=0 while measuring (=1 after), or boot with nmi_watchdog=0");
}

static void check_counters(struct ctx *c, struct doctor_check *k)
{
	const struct doctor_env *e = c->env;
	const struct cpu_desc *d = e->desc;
	struct msrdev *dev = e->dev;
	struct pmu p;
	char err[512], desc[384];
	int *ids = NULL, affected = 0, first = -1, full;

	k->name = "counters in use";
	memset(&p, 0, sizeof(p));
	if (!d || !d->supported) {
		set(k, DOC_SKIP, "needs a supported CPU (see above)");
		return;
	}
	if (!dev) {
		if (!c->dev_ok) {
			set(k, DOC_SKIP, "needs the msr device (see above)");
			return;
		}
		dev = msrdev_dir_open(c->dir, err, sizeof(err));
		if (!dev) {
			set(k, DOC_FAIL, "%s", err);
			return;
		}
	}
	ids = calloc(dev->ncpu ? dev->ncpu : 1, sizeof(*ids));
	if (!ids) {
		set(k, DOC_FAIL, "out of memory");
		goto out;
	}
	for (int i = 0; i < dev->ncpu; i++)
		ids[i] = dev->cpu[i].id;
	/* Reads only: pmu_open() probes and writes nothing. */
	if (pmu_open(&p, dev, d, ids, dev->ncpu, false, err, sizeof(err)) < 0) {
		set(k, DOC_FAIL, "probing the counters: %s", err);
		goto out;
	}
	/* Another lattop, running (the msr file's lock) or dead (its events), is not perf. */
	for (int i = 0; i < p.ncpu; i++) {
		int holder;

		if (msrdev_lock(dev, p.cpu[i].id, false, &holder) != -EBUSY)
			continue;
		if (holder)
			set(k, DOC_FAIL, "another lattop (pid %d) measures cpu %d", holder, p.cpu[i].id);
		else
			set(k, DOC_FAIL, "another lattop measures cpu %d", p.cpu[i].id);
		fix(k, "one lattop at a time, whatever the state directory: wait for it to end, or stop it");
		goto out;
	}
	if ((full = pmu_check_lattop(&p, err, sizeof(err))) >= 0) {
		int i = 0;

		while (i < p.ncpu - 1 && p.cpu[i].id != full)
			i++;
		pmu_describe_taken(&p, &p.cpu[i], desc, sizeof(desc));
		set(k, DOC_FAIL, "cpu %d holds another lattop's own events (%s), and no lattop here holds "
		    "it: one died without putting them back, or one measures from another /dev", full, desc);
		fix(k, "if it died: lattop --restore --state-dir DIR with its state directory, or without "
		    "its journal lattop --restore --reset --yes (power-on values); --force measures anyway");
		goto out;
	}
	for (int i = 0; i < p.ncpu; i++)
		if (p.cpu[i].gp_taken || p.cpu[i].fixed_taken) {
			if (first < 0)
				first = i;
			affected++;
		}
	full = pmu_check_free(&p, err, sizeof(err));
	if (full >= 0) {
		int i = 0;

		while (i < p.ncpu - 1 && p.cpu[i].id != full)
			i++;
		pmu_describe_taken(&p, &p.cpu[i], desc, sizeof(desc));
		set(k, DOC_FAIL, "cpu %d: no general-purpose counter is free (%s)", full, desc);
		fix(k, "stop their user (perf%s), or lattop --force takes them over and restores "
		    "them at exit", c->nmi == 1 ? "; the NMI watchdog: sysctl kernel.nmi_watchdog=0" : "");
		goto out;
	}
	if (affected) {
		pmu_describe_taken(&p, &p.cpu[first], desc, sizeof(desc));
		set(k, DOC_WARN, "%d of %d CPUs; cpu %d: %s%s", affected, p.ncpu, p.cpu[first].id, desc,
		    p.ldlat_taken ? "; PEBS in use" : "");
		fix(k, "lattop leaves them alone and uses the rest; to free them stop their user (%s), "
		    "or --force takes them over (restored at exit)",
		    c->nmi == 1 ? "likely the NMI watchdog: sysctl kernel.nmi_watchdog=0" : "perf or another tool");
		goto out;
	}
	set(k, DOC_OK, "all %u general-purpose and %u fixed counters free on %d CPU%s", p.ngp, p.nfixed,
	    p.ncpu, p.ncpu > 1 ? "s" : "");
out:
	pmu_close(&p);
	free(ids);
	if (dev != e->dev)
		msrdev_close(dev);
}

/* The journal module says whether a journal is left behind, and what to do (journal.h). */
static void check_journal(struct ctx *c, struct doctor_check *k)
{
	const struct doctor_env *e = c->env;
	char dir[PATH_MAX], what[PATH_MAX + 512], how[2 * PATH_MAX];

	k->name = "state journal";
	if (e->state_dir)
		snprintf(dir, sizeof(dir), "%s", e->state_dir);
	else
		rpath(e, DOCTOR_STATE_DIR, dir, sizeof(dir));
	switch (journal_check(dir, e->state_dir, what, sizeof(what), how, sizeof(how))) {
	case JOURNAL_NONE:
	case JOURNAL_RUNNING:
		set(k, DOC_OK, "%s", what);
		break;
	default:
		set(k, DOC_WARN, "%s", what);
		fix(k, "%s", how);
		break;
	}
}

/*
 * --backend perf: the kernel's core PMU, and the format attributes the
 * events use (pmu-facts 10.1).  A kernel without perf events at all (no
 * event_source) is skipped; one without a core PMU cannot measure through
 * perf (this is a warning: the msr backend may still).
 */
/*
 * A hybrid part: the PMU of each core type (pmu-facts 9.6), named, its
 * cpus file agreeing with CPUID (perf_attr_cpus_differ), with the ldlat
 * format where the type's table measures load latency.
 */
static void check_perf_hybrid(struct ctx *c, struct doctor_check *k)
{
	const struct cpu_desc *d = c->env->desc;
	char path[PATH_MAX], text[4096], want[128], got[128], bad[128], ok[600] = "";
	uint64_t set_[PERFDEV_CPUS_MAX / 64], off[PERFDEV_CPUS_MAX / 64];
	size_t o = 0;

	for (int t = 0; t < d->ntypes; t++) {
		const struct core_type_desc *ct = &d->type[t];
		const char *pmu = perf_attr_pmu_of(d, t), *tn = core_type_row_name(d, t);
		char rel[128];

		perfdev_cpulist_print(ct->cpus, want, sizeof(want));
		if (!pmu) {
			set(k, DOC_FAIL, "lattop knows no kernel PMU for the %s CPUs (%s, CPUs "
			    "%s): --backend perf cannot measure them", tn, ct->uarch->pretty, want);
			return;
		}
		snprintf(rel, sizeof(rel), "/sys/bus/event_source/devices/%s/cpus", pmu);
		if (read_text(rpath(c->env, rel, path, sizeof(path)), text, sizeof(text)) < 0) {
			set(k, DOC_FAIL, "no %s PMU in the kernel (%s is missing) for the %s "
			    "CPUs (%s, CPUs %s): --backend perf cannot measure here", pmu, path, tn,
			    ct->uarch->pretty, want);
			fix(k, "a kernel whose perf events know this hybrid part "
			    "(intel_pmu_init), or --backend msr");
			return;
		}
		if (perfdev_cpulist(text, set_) < 0) {
			set(k, DOC_FAIL, "%s: not a CPU list: '%.40s'", path, text);
			return;
		}
		if (perf_attr_cpus_differ(d, t, set_, off)) {
			perfdev_cpulist_print(set_, got, sizeof(got));
			perfdev_cpulist_print(off, bad, sizeof(bad));
			set(k, DOC_FAIL, "the kernel's %s PMU lists CPUs %s, CPUID says the %s "
			    "CPUs are %s (they disagree on CPU %s): --backend perf refuses", pmu,
			    got, tn, want, bad);
			fix(k, "--backend msr, which reads each CPU's core type itself");
			return;
		}
		snprintf(rel, sizeof(rel), "/sys/bus/event_source/devices/%s/format/ldlat", pmu);
		if (ct->uarch->table && !ct->uarch->table->unsupported[M_LOAD_LATENCY] &&
		    !exists(rpath(c->env, rel, path, sizeof(path)))) {
			set(k, DOC_WARN, "the kernel's %s PMU has no ldlat format: --backend perf "
			    "cannot measure load latency on the %s CPUs", pmu, tn);
			fix(k, "a kernel that knows this CPU's load-latency facility "
			    "(intel_pmu_init)");
			return;
		}
		o += (size_t)snprintf(ok + o, sizeof(ok) - o, "%s%s for the %s CPUs (%s, CPUs %s)",
				      t ? "; " : "", pmu, tn, ct->uarch->pretty, want);
		if (o >= sizeof(ok))
			o = sizeof(ok) - 1;
	}
	set(k, DOC_OK, "%s", ok);
}

static void check_perf_pmu(struct ctx *c, struct doctor_check *k)
{
	const struct cpu_desc *d = c->env->desc;
	char path[PATH_MAX], name[64];
	bool ldlat_needed = d && d->supported && d->uarch->table &&
			    !d->uarch->table->unsupported[M_LOAD_LATENCY];

	k->name = "perf: core PMU";
	if (!exists(rpath(c->env, "/sys/bus/event_source/devices", path, sizeof(path)))) {
		set(k, DOC_SKIP, "%s: no perf events in this kernel", path);
		return;
	}
	/* A hybrid part has no "cpu" PMU, but one per core type. */
	if (d && d->hybrid && d->ntypes) {
		check_perf_hybrid(c, k);
		return;
	}
	if (!exists(rpath(c->env, "/sys/bus/event_source/devices/cpu/type", path, sizeof(path)))) {
		set(k, DOC_FAIL, "no core PMU in the kernel (%s is missing): --backend perf cannot "
		    "measure here", path);
		fix(k, "none on this CPU or hypervisor: a virtual machine needs a virtual PMU "
		    "(KVM: -cpu host,pmu=on)");
		return;
	}
	if (read_text(rpath(c->env, "/sys/bus/event_source/devices/cpu/caps/pmu_name", path,
			    sizeof(path)), name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "core");
	if (ldlat_needed &&
	    !exists(rpath(c->env, "/sys/bus/event_source/devices/cpu/format/ldlat", path, sizeof(path)))) {
		set(k, DOC_WARN, "the kernel's %s PMU has no ldlat format: --backend perf cannot "
		    "measure load latency", name);
		fix(k, "a kernel that knows this CPU's load-latency facility (intel_pmu_init)");
		return;
	}
	set(k, DOC_OK, "%s%s", name, exists(rpath(c->env, "/sys/bus/event_source/devices/cpu/format/"
						  "offcore_rsp", path, sizeof(path))) ?
	    ", with the offcore_rsp format" : "");
}

/* The effective capability set of ROOT/proc/self/status (this process's): 0 when unknown. */
static unsigned long long cap_eff(const struct doctor_env *e)
{
	char path[PATH_MAX], line[256];
	unsigned long long v = 0;
	FILE *f = fopen(rpath(e, "/proc/self/status", path, sizeof(path)), "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/*
 * --backend perf: what kernel.perf_event_paranoid and the capabilities
 * allow CPU-wide events (pmu-facts 10.7): 0 or less, or CAP_PERFMON (38)
 * or CAP_SYS_ADMIN (21); at 3 and above (Debian's and Ubuntu's patch)
 * CAP_SYS_ADMIN only.
 */
static void check_perf_access(struct ctx *c, struct doctor_check *k)
{
	char path[PATH_MAX], v[32];
	unsigned long long caps = cap_eff(c->env);
	bool admin = caps & (1ULL << 21), perfmon = admin || (caps & (1ULL << 38));
	int level;

	k->name = "perf: permission";
	if (read_text(rpath(c->env, "/proc/sys/kernel/perf_event_paranoid", path, sizeof(path)),
		      v, sizeof(v)) < 0) {
		set(k, DOC_SKIP, "%s: not readable", path);
		return;
	}
	level = atoi(v);
	if (level > 2 ? admin : level <= 0 || perfmon) {
		set(k, DOC_OK, "perf_event_paranoid %d%s", level,
		    admin ? ", CAP_SYS_ADMIN" : perfmon ? ", CAP_PERFMON" : "");
		return;
	}
	set(k, DOC_FAIL, "perf_event_paranoid %d without %s: --backend perf is refused CPU-wide "
	    "events", level, level > 2 ? "CAP_SYS_ADMIN" : "CAP_PERFMON or CAP_SYS_ADMIN");
	if (level > 2)
		fix(k, "run as root, or sysctl kernel.perf_event_paranoid=0");
	else
		fix(k, "run as root, or setcap cap_perfmon+ep on lattop, or sysctl "
		    "kernel.perf_event_paranoid=0");
}

/*
 * --backend perf opens one descriptor per event per CPU (and the TSC's),
 * all held at once: on a large machine more than the usual soft limit of
 * 1024.  lattop raises its soft limit up to the hard one itself; only a
 * hard limit below the need stops it.
 */
static void check_perf_files(struct ctx *c, struct doctor_check *k)
{
	const struct doctor_env *e = c->env;
	struct rlimit rl;
	long need = e->perf_nofile;

	k->name = "perf: open files";
	if (need <= 0) {
		set(k, DOC_SKIP, "no plan to count descriptors for (this CPU is not measured)");
		return;
	}
	if (e->nofile)
		rl = *e->nofile;
	else if (getrlimit(RLIMIT_NOFILE, &rl) < 0) {
		set(k, DOC_SKIP, "getrlimit(RLIMIT_NOFILE): %s", strerror(errno));
		return;
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= (rlim_t)need) {
		set(k, DOC_OK, "%ld descriptors needed, the limit is %s", need,
		    rl.rlim_cur == RLIM_INFINITY ? "unlimited" : "higher");
		return;
	}
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= (rlim_t)need) {
		set(k, DOC_OK, "%ld descriptors needed: lattop raises its soft limit from %llu (the "
		    "hard limit is %s)", need, (unsigned long long)rl.rlim_cur,
		    rl.rlim_max == RLIM_INFINITY ? "unlimited" : "enough");
		return;
	}
	set(k, DOC_FAIL, "%ld descriptors needed (every CPU's events, held open), the hard limit "
	    "is %llu: --backend perf cannot open them all", need, (unsigned long long)rl.rlim_max);
	fix(k, "raise the hard limit: LimitNOFILE=%ld in the systemd unit, or a 'hard nofile %ld' "
	    "line in /etc/security/limits.conf (ulimit -Hn shows it)", need, need);
}

/*
 * The kernel's ceiling on samples per second per CPU, which it lowers by
 * itself when its interrupt handler takes too long (kernel/events/core.c
 * perf_sample_event_took, "lowering kernel.perf_event_max_sample_rate").
 * Counting does not sample; the view of contended lines does, and below
 * DOCTOR_MIN_SAMPLE_RATE it is thin.
 */
static void check_perf_rate(struct ctx *c, struct doctor_check *k)
{
	char path[PATH_MAX], v[32];
	long rate;

	k->name = "perf: sample rate";
	if (read_text(rpath(c->env, "/proc/sys/kernel/perf_event_max_sample_rate", path,
			    sizeof(path)), v, sizeof(v)) < 0) {
		set(k, DOC_SKIP, "%s: not readable", path);
		return;
	}
	rate = atol(v);
	if (rate >= DOCTOR_MIN_SAMPLE_RATE) {
		set(k, DOC_OK, "at most %ld samples per second per CPU", rate);
		return;
	}
	set(k, DOC_WARN, "at most %ld samples per second per CPU (under %d): the contended-lines "
	    "view sees few loads; counting is not affected", rate, DOCTOR_MIN_SAMPLE_RATE);
	fix(k, "sysctl kernel.perf_event_max_sample_rate=%d (the kernel lowers it again when its "
	    "sampling interrupts take too long: see dmesg)", DOCTOR_MIN_SAMPLE_RATE * 10);
}

/* The backend each check stands in the way of. */
static const enum doctor_backend check_backend[DOCTOR__COUNT] = {
	[DOCTOR_CPU] = DOCB_BOTH,        [DOCTOR_PMU] = DOCB_BOTH,
	[DOCTOR_DRIVER] = DOCB_MSR,      [DOCTOR_PERM] = DOCB_MSR,
	[DOCTOR_LOCKDOWN] = DOCB_MSR,    [DOCTOR_ALLOW_WRITES] = DOCB_MSR,
	[DOCTOR_TAINT] = DOCB_MSR,       [DOCTOR_NMI_WATCHDOG] = DOCB_BOTH,
	[DOCTOR_COUNTERS] = DOCB_MSR,    [DOCTOR_JOURNAL] = DOCB_MSR,
	[DOCTOR_PERF_PMU] = DOCB_PERF,   [DOCTOR_PERF_ACCESS] = DOCB_PERF,
	[DOCTOR_PERF_FILES] = DOCB_PERF, [DOCTOR_PERF_RATE] = DOCB_PERF,
};

int doctor_run(const struct doctor_env *env, struct doctor_check *out, int max)
{
	struct doctor_check all[DOCTOR__COUNT];
	struct ctx c;
	int n = max < DOCTOR__COUNT ? max : DOCTOR__COUNT;

	memset(all, 0, sizeof(all));
	memset(&c, 0, sizeof(c));
	c.env = env;
	c.nmi = -1;
	check_cpu(&c, &all[DOCTOR_CPU]);
	check_pmu(&c, &all[DOCTOR_PMU]);
	check_driver(&c, &all[DOCTOR_DRIVER]);
	check_perm(&c, &all[DOCTOR_PERM]);
	check_lockdown(&c, &all[DOCTOR_LOCKDOWN]);
	check_allow_writes(&c, &all[DOCTOR_ALLOW_WRITES]);
	check_taint(&c, &all[DOCTOR_TAINT]);
	check_nmi(&c, &all[DOCTOR_NMI_WATCHDOG]);
	check_counters(&c, &all[DOCTOR_COUNTERS]);
	check_journal(&c, &all[DOCTOR_JOURNAL]);
	check_perf_pmu(&c, &all[DOCTOR_PERF_PMU]);
	check_perf_access(&c, &all[DOCTOR_PERF_ACCESS]);
	check_perf_files(&c, &all[DOCTOR_PERF_FILES]);
	check_perf_rate(&c, &all[DOCTOR_PERF_RATE]);
	for (int i = 0; i < DOCTOR__COUNT; i++)
		all[i].backend = check_backend[i];
	free(c.ids);
	if (n > 0)
		memcpy(out, all, n * sizeof(*out));
	return n > 0 ? n : 0;
}

void doctor_backends(const struct doctor_check *checks, int n, bool *msr, bool *perf)
{
	*msr = true;
	/* A kernel whose core PMU was not seen (skipped: no perf events) cannot count. */
	*perf = n > DOCTOR_PERF_PMU && (checks[DOCTOR_PERF_PMU].status == DOC_OK ||
					 checks[DOCTOR_PERF_PMU].status == DOC_WARN);
	for (int i = 0; i < n; i++)
		if (checks[i].status == DOC_FAIL) {
			if (checks[i].backend != DOCB_PERF)
				*msr = false;
			if (checks[i].backend != DOCB_MSR)
				*perf = false;
		}
}

bool doctor_can_measure(const struct doctor_check *checks, int n)
{
	bool msr, perf;

	doctor_backends(checks, n, &msr, &perf);
	return msr || perf;
}

/* The verdict's last line: whether, and through which backends. */
static void verdict(FILE *f, const struct doctor_check *checks, int n, int warn)
{
	bool msr, perf;
	int failed = 0;

	doctor_backends(checks, n, &msr, &perf);
	for (int i = 0; i < n; i++)
		failed += checks[i].status == DOC_FAIL;
	if (!msr && !perf)
		fprintf(f, "lattop cannot measure here: %d check%s failed.\n", failed,
			failed > 1 ? "s" : "");
	else if (msr != perf && warn)
		fprintf(f, "lattop can measure through the %s backend only (--backend %s; %d "
			"warning%s).\n", msr ? "msr" : "perf", msr ? "msr" : "perf", warn,
			warn > 1 ? "s" : "");
	else if (msr != perf)
		fprintf(f, "lattop can measure through the %s backend only (--backend %s).\n",
			msr ? "msr" : "perf", msr ? "msr" : "perf");
	else if (warn)
		fprintf(f, "lattop can measure, through either backend (%d warning%s).\n", warn,
			warn > 1 ? "s" : "");
	else
		fprintf(f, "lattop can measure, through either backend.\n");
}

void doctor_print(FILE *f, const struct doctor_check *checks, int n, bool color)
{
	static const char *const tag[] = { "[ ok ]", "[warn]", "[FAIL]", "[skip]" };
	static const char *const col[] = { "\033[32m", "\033[33m", "\033[1;31m", "\033[2m" };
	int warn = 0;

	for (int i = 0; i < n; i++) {
		const struct doctor_check *k = &checks[i];
		unsigned s = (unsigned)k->status < 4 ? (unsigned)k->status : DOC_SKIP;

		fprintf(f, "%s%s%s %-18s %s\n", color ? col[s] : "", tag[s], color ? "\033[0m" : "",
			k->name ? k->name : "?", k->detail);
		if (s != DOC_OK && k->fix[0])
			fprintf(f, "       fix: %s\n", k->fix);
		warn += s == DOC_WARN;
	}
	verdict(f, checks, n, warn);
}

void doctor_print_json(FILE *f, const struct doctor_check *checks, int n)
{
	static const char *const word[] = { "ok", "warn", "fail", "skip" };
	static const char *const backend_word[] = { "both", "msr", "perf" };
	bool msr, perf;

	fputs("{\"checks\":[", f);
	for (int i = 0; i < n; i++) {
		const struct doctor_check *k = &checks[i];
		unsigned s = (unsigned)k->status < 4 ? (unsigned)k->status : DOC_SKIP;

		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		report_json_str(f, k->name ? k->name : "?");
		fprintf(f, ",\"status\":\"%s\",\"backend\":\"%s\",\"detail\":", word[s],
			backend_word[k->backend]);
		report_json_str(f, k->detail);
		fputs(",\"fix\":", f);
		if (k->fix[0])
			report_json_str(f, k->fix);
		else
			fputs("null", f);
		fputc('}', f);
	}
	doctor_backends(checks, n, &msr, &perf);
	fprintf(f, "],\"backends\":{\"msr\":%s,\"perf\":%s},\"can_measure\":%s}\n",
		msr ? "true" : "false", perf ? "true" : "false", msr || perf ? "true" : "false");
}
