/*
 * cpuid_all.c: every logical CPU's own CPUID.
 *
 * Owns reading CPUID on each CPU of the running machine (lattop's own
 * reader: sched_setaffinity(2) onto the CPU, then the cpuid instruction)
 * and reading Debian's `cpuid -r` dumps, which hold every CPU and every
 * subleaf.  A hybrid part's CPUs differ in leaves 0x1A, 0xA and 0x23, and
 * each must be read on that CPU (pmu-facts 9.6): libcpuid reads one CPU
 * and keeps no leaf past 0x1F, so neither comes from it.  libcpuid's own
 * raw format stays with cpuid.c.  Must not classify (uarch.c does), print,
 * or touch any device.
 */
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/uarch.h"

#define CPUIDR_MAX_BYTES (32u << 20)    /* `cpuid -r` writes ~6 KiB per logical CPU */

void cpuid_set_free(struct cpuid_set *s)
{
	free(s->cpu);
	free(s->raw);
	s->cpu = NULL;
	s->raw = NULL;
	s->n = 0;
}

/* Room for CPU index @n; 0, or -1 out of memory. */
static int cpuid_set_grow(struct cpuid_set *s, int n)
{
	int *cpu;
	struct cpuid_raw *raw;

	if (n < s->n)
		return 0;
	cpu = realloc(s->cpu, (size_t)(n + 1) * sizeof(*cpu));
	if (!cpu)
		return -1;
	s->cpu = cpu;
	raw = realloc(s->raw, (size_t)(n + 1) * sizeof(*raw));
	if (!raw)
		return -1;
	s->raw = raw;
	memset(&s->raw[n], 0, sizeof(*raw));
	s->cpu[n] = n;
	s->n = n + 1;
	return 0;
}

/* Leaf @leaf subleaf @sub into @raw, where lattop keeps it; false when it keeps none. */
static bool cpuid_store(struct cpuid_raw *raw, uint32_t leaf, uint32_t sub, const uint32_t r[4])
{
	uint32_t *to = NULL;

	if (leaf < CPUID_RAW_BASIC && sub == 0) {
		to = raw->basic[leaf];
		raw->basic_present |= 1u << leaf;
	} else if (leaf == 0x23 && sub < 2) {
		to = raw->leaf23[sub];
		raw->has_leaf23 = true;
	} else if (leaf >= 0x80000000u && leaf - 0x80000000u < CPUID_RAW_EXT && sub == 0) {
		to = raw->ext[leaf - 0x80000000u];
	}
	if (to)
		memcpy(to, r, 4 * sizeof(*r));
	return to != NULL;
}

void cpuid_raw_read(struct cpuid_raw *raw, cpuid_fn *fn, void *arg)
{
	uint32_t r[4], max, ext_max;

	memset(raw, 0, sizeof(*raw));
	fn(arg, 0, 0, r);
	max = r[0];
	cpuid_store(raw, 0, 0, r);
	for (uint32_t l = 1; l <= max && l < CPUID_RAW_BASIC; l++) {
		fn(arg, l, 0, r);
		cpuid_store(raw, l, 0, r);
	}
	for (uint32_t sub = 0; max >= 0x23 && sub < 2; sub++) {
		fn(arg, 0x23, sub, r);
		cpuid_store(raw, 0x23, sub, r);
	}
	fn(arg, 0x80000000u, 0, r);
	ext_max = r[0];
	if ((ext_max & 0xffff0000u) != 0x80000000u)
		return;
	for (uint32_t l = 0x80000000u; l <= ext_max && l - 0x80000000u < CPUID_RAW_EXT; l++) {
		fn(arg, l, 0, r);
		cpuid_store(raw, l, 0, r);
	}
}

/* One CPU of a cpuid_cpu_fn reader, as the cpuid_fn cpuid_raw_read() calls. */
struct cpuid_on {
	cpuid_cpu_fn *fn;
	const void *ctx;
	int cpu;
};

static void cpuid_on_cpu(void *arg, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	const struct cpuid_on *on = arg;

	on->fn(on->ctx, on->cpu, leaf, sub, r);
}

int cpuid_set_read(struct cpuid_set *s, int n, cpuid_cpu_fn *fn, const void *ctx)
{
	s->n = n;
	s->cpu = calloc((size_t)n, sizeof(*s->cpu));
	s->raw = calloc((size_t)n, sizeof(*s->raw));
	if (!s->cpu || !s->raw) {
		cpuid_set_free(s);
		return -1;
	}
	for (int c = 0; c < n; c++) {
		s->cpu[c] = c;
		cpuid_raw_read(&s->raw[c], cpuid_on_cpu, &(struct cpuid_on){ fn, ctx, c });
	}
	return 0;
}

/* The cpuid instruction, on the CPU this thread runs on. */
static void cpuid_here(void *arg, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	(void)arg;
	__cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}

int cpuid_set_running(struct cpuid_set *s, char *err, size_t errlen)
{
	cpu_set_t *mask, *one;
	size_t size = CPU_ALLOC_SIZE(CPUSET_MAX);
	int rc = -1;

	memset(s, 0, sizeof(*s));
	mask = CPU_ALLOC(CPUSET_MAX);
	one = CPU_ALLOC(CPUSET_MAX);
	if (!mask || !one) {
		snprintf(err, errlen, "cannot read CPUID: out of memory");
		goto out;
	}
	if (sched_getaffinity(0, size, mask) < 0) {
		snprintf(err, errlen, "cannot read CPUID: sched_getaffinity: %s", strerror(errno));
		goto out;
	}
	for (int c = 0; c < CPUSET_MAX; c++) {
		if (!CPU_ISSET_S(c, size, mask))
			continue;
		CPU_ZERO_S(size, one);
		CPU_SET_S(c, size, one);
		if (sched_setaffinity(0, size, one) < 0)
			continue;       /* gone offline meanwhile: not read, not measured */
		if (cpuid_set_grow(s, s->n) < 0) {
			snprintf(err, errlen, "cannot read CPUID: out of memory");
			goto restore;
		}
		s->cpu[s->n - 1] = c;
		cpuid_raw_read(&s->raw[s->n - 1], cpuid_here, NULL);
	}
	rc = 0;
	if (!s->n) {
		snprintf(err, errlen, "cannot read CPUID: no CPU to run on");
		rc = -1;
	}
restore:
	/* Back where it may run; a failure here would pin lattop to the last CPU. */
	if (sched_setaffinity(0, size, mask) < 0 && rc == 0) {
		snprintf(err, errlen, "cannot read CPUID: sched_setaffinity back: %s", strerror(errno));
		rc = -1;
	}
out:
	if (rc < 0)
		cpuid_set_free(s);
	CPU_FREE(mask);
	CPU_FREE(one);
	return rc;
}

/* "0x%x" of 1..8 hex digits at *p; advance *p. */
static bool cpuidr_hex(const char **p, uint32_t *out)
{
	const char *s = *p;
	uint32_t v = 0;
	int n = 0;

	if (s[0] != '0' || s[1] != 'x')
		return false;
	s += 2;
	for (; n < 9; n++, s++) {
		int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 :
			*s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : -1;

		if (d < 0)
			break;
		v = v << 4 | (uint32_t)d;
	}
	if (n == 0 || n > 8)
		return false;
	*out = v;
	*p = s;
	return true;
}

static bool cpuidr_lit(const char **p, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(*p, lit, n))
		return false;
	*p += n;
	return true;
}

/* "   0xLEAF 0xSUB: eax=0x... ebx=0x... ecx=0x... edx=0x..." */
static bool cpuidr_regs(const char *s, uint32_t *leaf, uint32_t *sub, uint32_t r[4])
{
	static const char *const name[4] = { "eax=", " ebx=", " ecx=", " edx=" };

	s += strspn(s, " \t");
	if (!cpuidr_hex(&s, leaf) || !cpuidr_lit(&s, " ") || !cpuidr_hex(&s, sub) ||
	    !cpuidr_lit(&s, ": "))
		return false;
	for (int i = 0; i < 4; i++)
		if (!cpuidr_lit(&s, name[i]) || !cpuidr_hex(&s, &r[i]))
			return false;
	s += strspn(s, " \t\r");
	return *s == '\0';
}

/* Is @line a `cpuid -r` line ("CPU n:", or a register line)? */
static bool cpuidr_line(const char *line)
{
	uint32_t leaf, sub, r[4];

	return !strncmp(line, "CPU ", 4) || cpuidr_regs(line, &leaf, &sub, r);
}

/*
 * Is @path a `cpuid -r` dump?  By its first line: a file of neither
 * format goes to libcpuid's reader, whose checks say what is wrong.
 */
static bool cpuidr_is(FILE *f)
{
	char line[256];
	bool yes = false;

	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[strspn(line, " \t\r")])
			continue;
		yes = cpuidr_line(line);
		break;
	}
	rewind(f);
	return yes;
}

/* A `cpuid -r` dump, already open as @f. */
static int cpuidr_read(FILE *f, const char *path, struct cpuid_set *s, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0, total = 0;
	unsigned lineno = 0;
	int cur = -1;
	ssize_t n;
	/* (leaf, subleaf) pairs seen in this CPU's block: lattop's kept leaves only */
	uint32_t seen_basic = 0, seen_ext = 0, seen23 = 0;

	while ((n = getline(&line, &cap, f)) >= 0) {
		uint32_t leaf, sub, r[4];
		unsigned c;
		char tail;

		lineno++;
		total += (size_t)n;
		if (total > CPUIDR_MAX_BYTES) {
			snprintf(err, errlen, "%s: larger than %u MiB: not a cpuid -r dump", path,
				 CPUIDR_MAX_BYTES >> 20);
			goto bad;
		}
		if (memchr(line, '\0', (size_t)n)) {
			snprintf(err, errlen, "%s: line %u: binary data, not a cpuid -r dump", path, lineno);
			goto bad;
		}
		line[strcspn(line, "\n")] = '\0';
		if (!line[strspn(line, " \t\r")])
			continue;
		if (!strncmp(line, "CPU ", 4)) {
			if (sscanf(line + 4, "%u%c", &c, &tail) != 2 || tail != ':' || c != (unsigned)(cur + 1)) {
				snprintf(err, errlen, "%s: line %u: a CPU line must read \"CPU %d:\"", path,
					 lineno, cur + 1);
				goto bad;
			}
			if (c >= CPUSET_MAX) {
				snprintf(err, errlen, "%s: line %u: more than %u logical CPUs, lattop's limit "
					 "for a dump", path, lineno, CPUSET_MAX);
				goto bad;
			}
			cur = (int)c;
			if (cpuid_set_grow(s, cur) < 0)
				goto oom;
			seen_basic = seen_ext = seen23 = 0;
			continue;
		}
		if (!cpuidr_regs(line, &leaf, &sub, r)) {
			snprintf(err, errlen, "%s: line %u: not a cpuid -r line (\"CPU n:\", or "
				 "\"0xLEAF 0xSUB: eax=0x... ebx=0x... ecx=0x... edx=0x...\")", path, lineno);
			goto bad;
		}
		if (cur < 0) {          /* a dump of one CPU, without its "CPU 0:" line */
			cur = 0;
			if (cpuid_set_grow(s, 0) < 0)
				goto oom;
		}
		{
			uint32_t *seen = leaf < CPUID_RAW_BASIC ? &seen_basic : leaf == 0x23 ? &seen23 :
					 &seen_ext;
			uint32_t bit = leaf == 0x23 ? 1u << sub : 1u << (leaf & 31);

			if (!cpuid_store(&s->raw[cur], leaf, sub, r))
				continue;
			if (*seen & bit) {
				snprintf(err, errlen, "%s: line %u: leaf 0x%x subleaf 0x%x twice for CPU %d",
					 path, lineno, leaf, sub, cur);
				goto bad;
			}
			*seen |= bit;
		}
	}
	free(line);
	if (s->n == 0) {
		snprintf(err, errlen, "%s: an empty cpuid -r dump", path);
		return -1;
	}
	for (int i = 0; i < s->n; i++)
		if (!(s->raw[i].basic_present & 1)) {
			snprintf(err, errlen, "%s: CPU %d has no leaf 0 line: truncated", path, i);
			return -1;
		}
	return 0;
oom:
	snprintf(err, errlen, "%s: out of memory", path);
bad:
	free(line);
	return -1;
}

int cpuid_set_file(const char *path, struct cpuid_set *s, char *err, size_t errlen)
{
	struct stat st;
	FILE *f;
	int rc;
	bool r;

	memset(s, 0, sizeof(*s));
	if (!path || !*path) {
		snprintf(err, errlen, "empty CPUID dump file name");
		return -1;
	}
	if (!(f = cpuid_dump_open(path, &st, err, errlen)))
		return -1;
	r = cpuidr_is(f);
	rc = r ? cpuidr_read(f, path, s, err, errlen) : 0;
	fclose(f);
	if (!r)
		rc = cpuid_set_libcpuid(path, s, err, errlen);
	if (rc < 0)
		cpuid_set_free(s);
	return rc;
}
