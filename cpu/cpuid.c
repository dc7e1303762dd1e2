/*
 * cpuid.c: CPUID leaves in, struct cpuid_info out.
 *
 * Owns reading CPUID through libcpuid (the running CPU, or a libcpuid raw
 * dump as cpuid_serialize_raw_data() writes it) and decoding the few
 * leaves lattop needs: vendor, display family/model, brand string, the
 * hypervisor and PDCM bits of leaf 1, and leaf 0xA (architectural perfmon).
 * It must not classify microarchitectures (uarch.c does), print, exit, or
 * touch any device; libcpuid's own codename guess is never used.
 *
 * libcpuid 0.6.2's reader accepts anything: a missing or garbage file reads
 * as all zeros with ERR_OK, unknown lines go to stderr as warnings, and some
 * lines make it crash (both seen to segfault: a data line before the first
 * basic_cpuid line, a NULL write in cpuid_deserialize_all_raw_data(); and
 * "Logical CPU #65535", an index past its array).  It also reads "version="
 * with an unbounded %s (into char version[8] upstream), and "" means stdin.
 * So cpuid_raw_file() checks every line against the format first and hands
 * libcpuid only what it writes itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libcpuid/libcpuid.h>

#include "cpu/uarch.h"

#define DUMP_MAX_BYTES  (8u << 20)  /* a 0.6.2 dump is ~5 KiB per logical CPU */
#define DUMP_MAX_CPUS   1024u       /* lattop's cap; libcpuid's logical_cpu_t is 16 bits */
#define DUMP_MAX_INDEX  32u         /* the largest of the arrays below */
#define DUMP_LINE_MAX   98          /* libcpuid reads with fgets(line, 100): longer lines split */
#define DUMP_VERSION_MAX 7          /* sscanf("version=%s") into char version[8] */
#define DUMP_END "--------------------------------------------------------------------------------"
#define DUMP_CPU_HEAD "_________________ Logical CPU #"
#define DUMP_CPU_TAIL " _________________"

/* The arrays of struct cpu_raw_data_t, as named in the dump. */
static const struct {
	const char *name;
	unsigned entries;
} cpuid_dump_arrays[] = {
	{ "basic_cpuid",     MAX_CPUID_LEVEL },
	{ "ext_cpuid",       MAX_EXT_CPUID_LEVEL },
	{ "intel_fn4",       MAX_INTELFN4_LEVEL },
	{ "intel_fn11",      MAX_INTELFN11_LEVEL },
	{ "intel_fn12h",     MAX_INTELFN12H_LEVEL },
	{ "intel_fn14h",     MAX_INTELFN14H_LEVEL },
	{ "amd_fn8000001dh", MAX_AMDFN8000001DH_LEVEL },
};
#define DUMP_ARRAYS (sizeof(cpuid_dump_arrays) / sizeof(cpuid_dump_arrays[0]))
_Static_assert(MAX_CPUID_LEVEL <= DUMP_MAX_INDEX && MAX_EXT_CPUID_LEVEL <= DUMP_MAX_INDEX &&
	       MAX_INTELFN4_LEVEL <= DUMP_MAX_INDEX && MAX_INTELFN11_LEVEL <= DUMP_MAX_INDEX &&
	       MAX_INTELFN12H_LEVEL <= DUMP_MAX_INDEX && MAX_INTELFN14H_LEVEL <= DUMP_MAX_INDEX &&
	       MAX_AMDFN8000001DH_LEVEL <= DUMP_MAX_INDEX, "DUMP_MAX_INDEX too small");

enum dump_line {
	DUMP_BLANK,
	DUMP_VERSION,
	DUMP_CPU,       /* a "Logical CPU #n" separator */
	DUMP_BASIC,     /* basic_cpuid[i]= */
	DUMP_DATA,      /* any other array */
	DUMP_STOP,      /* the 80-dash line: libcpuid stops reading there */
	DUMP_BAD,
};

static void cpuid_copy(struct cpuid_raw *raw, const struct cpu_raw_data_t *src)
{
	unsigned nb = CPUID_RAW_BASIC < MAX_CPUID_LEVEL ? CPUID_RAW_BASIC : MAX_CPUID_LEVEL;
	unsigned ne = CPUID_RAW_EXT < MAX_EXT_CPUID_LEVEL ? CPUID_RAW_EXT : MAX_EXT_CPUID_LEVEL;
	unsigned i, r;

	memset(raw, 0, sizeof(*raw));
	for (i = 0; i < nb; i++)
		for (r = 0; r < 4; r++)
			raw->basic[i][r] = src->basic_cpuid[i][r];
	for (i = 0; i < ne; i++)
		for (r = 0; r < 4; r++)
			raw->ext[i][r] = src->ext_cpuid[i][r];
}

int cpuid_raw_running(struct cpuid_raw *raw, char *err, size_t errlen)
{
	struct cpu_raw_data_t data;

	memset(&data, 0, sizeof(data));
	if (cpuid_get_raw_data(&data) < 0) {
		snprintf(err, errlen, "cannot read CPUID: %s", cpuid_error());
		return -1;
	}
	cpuid_copy(raw, &data);
	raw->basic_present = ~0u;
	return 0;
}

int cpuid_raw_complete(const struct cpuid_raw *raw, const char *path, char *err, size_t errlen)
{
	/*
	 * The leaves lattop reads must be there when leaf 0 says they exist:
	 * a missing line reads as zeros, and a zero leaf 0xA would pass for a
	 * hypervisor hiding the PMU.  (Dumps may leave the other leaves out.)
	 */
	static const struct { unsigned leaf; const char *what; } need[] = {
		{ 0x1, "family, model and features" },
		{ 0xa, "the architectural PMU: version and counters" },
	};

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (raw->basic[0][0] >= need[i].leaf && !(raw->basic_present & (1u << need[i].leaf))) {
			snprintf(err, errlen, "%s: leaf 0 says leaves up to 0x%x exist, but there is no "
				 "basic_cpuid[%u] line (leaf 0x%x, %s): not a complete CPUID dump",
				 path, raw->basic[0][0], need[i].leaf, need[i].leaf, need[i].what);
			return -1;
		}
	return 0;
}

/* Parse a decimal number of at most 5 digits at *s; advance *s. */
static int cpuid_parse_dec(const char **s, unsigned *out)
{
	unsigned v = 0, n = 0;

	while (**s >= '0' && **s <= '9' && n < 6) {
		v = v * 10 + (unsigned)(**s - '0');
		(*s)++;
		n++;
	}
	if (n == 0 || n > 5)
		return -1;
	*out = v;
	return 0;
}

/* "H H H H": four hex numbers of 1..8 digits, blank separated. */
static int cpuid_parse_regs(const char *s)
{
	int r, n;

	for (r = 0; r < 4; r++) {
		if (r > 0) {
			if (*s != ' ' && *s != '\t')
				return -1;
			while (*s == ' ' || *s == '\t')
				s++;
		}
		for (n = 0; (s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f') ||
			    (s[n] >= 'A' && s[n] <= 'F'); n++)
			;
		if (n == 0 || n > 8)
			return -1;
		s += n;
	}
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	return *s == '\0' ? 0 : -1;
}

/*
 * Classify one line (without its '\n').  *cpu receives a separator's CPU
 * number, *array and *index a register line's array and index; @why a
 * short reason for DUMP_BAD.
 */
static enum dump_line cpuid_dump_line(const char *line, unsigned *cpu, unsigned *array,
				      unsigned *index, const char **why)
{
	size_t len = strlen(line), i;
	const char *s;

	if (len == 0)
		return DUMP_BLANK;
	if (len > DUMP_LINE_MAX) {
		*why = "line too long";
		return DUMP_BAD;
	}
	if (!strcmp(line, DUMP_END))
		return DUMP_STOP;
	if (!strncmp(line, "version=", 8)) {
		s = line + 8;
		for (i = 0; s[i] > ' ' && s[i] < 0x7f; i++)
			;
		if (i == 0 || i > DUMP_VERSION_MAX || strspn(s + i, " \t\r") != strlen(s + i)) {
			*why = "bad version line";
			return DUMP_BAD;
		}
		return DUMP_VERSION;
	}
	if (!strncmp(line, DUMP_CPU_HEAD, strlen(DUMP_CPU_HEAD))) {
		s = line + strlen(DUMP_CPU_HEAD);
		if (cpuid_parse_dec(&s, cpu) < 0 || strncmp(s, DUMP_CPU_TAIL, strlen(DUMP_CPU_TAIL)) ||
		    strspn(s + strlen(DUMP_CPU_TAIL), "\r") != strlen(s + strlen(DUMP_CPU_TAIL))) {
			*why = "bad Logical CPU line";
			return DUMP_BAD;
		}
		return DUMP_CPU;
	}
	for (i = 0; i < DUMP_ARRAYS; i++) {
		size_t nl = strlen(cpuid_dump_arrays[i].name);
		unsigned idx;

		if (strncmp(line, cpuid_dump_arrays[i].name, nl) || line[nl] != '[')
			continue;
		s = line + nl + 1;
		if (cpuid_parse_dec(&s, &idx) < 0 || s[0] != ']' || s[1] != '=' ||
		    cpuid_parse_regs(s + 2) < 0) {
			*why = "malformed register line";
			return DUMP_BAD;
		}
		if (idx >= cpuid_dump_arrays[i].entries) {
			*why = "register index out of range";
			return DUMP_BAD;
		}
		*array = (unsigned)i;
		*index = idx;
		return i == 0 ? DUMP_BASIC : DUMP_DATA;
	}
	/* Debian's cpuid tool writes another format ("CPU 0:", "0x00000000 0x00: eax=0x..."). */
	if (!strncmp(line, "CPU ", 4) || strstr(line, ": eax=0x"))
		*why = "a dump of the cpuid tool (cpuid -r), not a libcpuid raw dump: make one with "
		       "'cpuid_tool --save=FILE' (libcpuid's tool; Debian's package cpuidtool)";
	else
		*why = "not a libcpuid raw dump line";
	return DUMP_BAD;
}

/*
 * Where a good line may stand: @header until the first basic_cpuid or
 * "Logical CPU" line, @single after a basic_cpuid line with no separator
 * before it.  NULL when the line may stand here, else why not.
 */
static const char *cpuid_dump_order(enum dump_line kind, bool header, bool single,
				    unsigned cpu, unsigned next_cpu)
{
	if (kind == DUMP_VERSION && !header)
		return "version line after the data";
	if (kind == DUMP_CPU && single)
		return "Logical CPU line after data without one";
	if (kind == DUMP_CPU && cpu != next_cpu)
		return "Logical CPU numbers do not count up from 0";
	if (kind == DUMP_CPU && cpu >= DUMP_MAX_CPUS)
		return "more than 1024 logical CPUs, lattop's limit for a dump";
	if (kind == DUMP_DATA && header)
		return "register line before the first basic_cpuid line";
	return NULL;
}

/* A byte no text line holds (tabs and a CRLF's CR aside); -1 when none. */
static int cpuid_dump_binary(const char *line, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)line[i];

		if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c >= 0x7f)
			return c;
	}
	return -1;
}

/*
 * Check that @path is a libcpuid raw dump libcpuid can read safely: every
 * line is one it writes, no data comes before the first basic_cpuid line
 * or "Logical CPU #0", and the separators count up from 0.  And that it is
 * whole and says one thing: no version line twice, nor a register line
 * twice for one CPU, every "Logical CPU" part has its basic_cpuid[0], and
 * the last line ends in '\n'.
 */
FILE *cpuid_dump_open(const char *path, struct stat *st, char *err, size_t errlen)
{
	FILE *f;
	int fd;

	/*
	 * Only a regular file: libcpuid opens @path again, so a pipe's data
	 * would be gone by then, a FIFO would block this open without
	 * O_NONBLOCK, and /dev/zero is one endless line for getline().
	 */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

/* Which basic_cpuid[i] lines (i < 32) one logical CPU of a dump has. */
static uint32_t cpuid_basic_seen(const unsigned *lines)
{
	uint32_t m = 0;

	for (unsigned i = 0; i < 32 && i < MAX_CPUID_LEVEL; i++)
		if (lines[i])
			m |= 1u << i;
	return m;
}

static int cpuid_dump_check(const char *path, uint32_t *basic_seen, char *err, size_t errlen)
{
	enum { HEADER, SINGLE, CPUS } state = HEADER;
	unsigned lineno = 0, next_cpu = 0, cpu = 0, array = 0, index = 0, version_line = 0;
	unsigned seen[DUMP_ARRAYS][DUMP_MAX_INDEX];     /* line of each register line, 0: none */
	char seen_why[96];
	size_t total = 0, cap = 0;
	char *line = NULL;
	const char *why = NULL;
	struct stat st;
	ssize_t n;
	FILE *f;
	int ret = -1, bin;

	memset(seen, 0, sizeof(seen));
	if (!(f = cpuid_dump_open(path, &st, err, errlen)))
		return -1;
	if (st.st_size > (off_t)DUMP_MAX_BYTES) {
		snprintf(err, errlen, "%s: larger than %u MiB, more than libcpuid's raw format "
			 "holds for %u logical CPUs (lattop's limit): not a CPUID dump",
			 path, DUMP_MAX_BYTES >> 20, DUMP_MAX_CPUS);
		goto out;
	}
	for (;;) {
		enum dump_line kind;
		bool cut;

		errno = 0;
		n = getline(&line, &cap, f);
		if (n < 0) {
			if (errno) {
				snprintf(err, errlen, "%s: %s", path, strerror(errno));
				goto out;
			}
			break;
		}
		lineno++;
		total += (size_t)n;
		if (total > DUMP_MAX_BYTES) {     /* it grew since fstat() */
			snprintf(err, errlen, "%s: larger than %u MiB, more than libcpuid's raw format "
				 "holds for %u logical CPUs (lattop's limit): not a CPUID dump",
				 path, DUMP_MAX_BYTES >> 20, DUMP_MAX_CPUS);
			goto out;
		}
		if (memchr(line, '\0', (size_t)n)) {
			snprintf(err, errlen, "%s: line %u: binary data, not a libcpuid raw dump",
				 path, lineno);
			goto out;
		}
		cut = line[n - 1] != '\n';
		if (!cut)
			line[n - 1] = '\0';
		kind = cpuid_dump_line(line, &cpu, &array, &index, &why);
		if (kind == DUMP_STOP)
			break;
		/* Other bytes no text holds: say binary, not "malformed" (before the STOP line only). */
		bin = cpuid_dump_binary(line, strlen(line));
		if (bin >= 0) {
			snprintf(err, errlen, "%s: line %u: binary data (byte 0x%02x), not a libcpuid raw dump",
				 path, lineno, (unsigned)bin);
			goto out;
		}
		if (cut) {
			/* libcpuid ends every line with '\n': without one, it was cut short. */
			snprintf(err, errlen, "%s: line %u: truncated: the file ends inside a line",
				 path, lineno);
			goto out;
		}
		if (kind == DUMP_BLANK)
			continue;
		if (kind != DUMP_BAD)
			why = cpuid_dump_order(kind, state == HEADER, state == SINGLE, cpu, next_cpu);
		if (!why && kind == DUMP_CPU && state == CPUS && !seen[0][0]) {
			snprintf(seen_why, sizeof(seen_why),
				 "Logical CPU #%u before this line has no basic_cpuid[0] line: truncated",
				 next_cpu - 1);
			why = seen_why;
		}
		if (!why && kind == DUMP_VERSION && version_line) {
			snprintf(seen_why, sizeof(seen_why), "duplicate version line (first on line %u)",
				 version_line);
			why = seen_why;
		}
		if (!why && (kind == DUMP_BASIC || kind == DUMP_DATA) && seen[array][index]) {
			/* libcpuid would keep the last; a dump says each register once. */
			snprintf(seen_why, sizeof(seen_why), "duplicate %s[%u] (first on line %u)",
				 cpuid_dump_arrays[array].name, index, seen[array][index]);
			why = seen_why;
		}
		if (why) {
			snprintf(err, errlen, "%s: line %u: %s", path, lineno, why);
			goto out;
		}
		if (kind == DUMP_VERSION) {
			version_line = lineno;
		} else if (kind == DUMP_CPU) {
			state = CPUS;
			if (next_cpu == 1)
				*basic_seen = cpuid_basic_seen(seen[0]);   /* the first CPU's, which lattop uses */
			next_cpu++;
			memset(seen, 0, sizeof(seen));
		} else if (kind == DUMP_BASIC || kind == DUMP_DATA) {
			seen[array][index] = lineno;
			if (state == HEADER)
				state = SINGLE;
		}
	}
	if (state == CPUS && !seen[0][0]) {
		snprintf(err, errlen, "%s: line %u: Logical CPU #%u has no basic_cpuid[0] line: truncated",
			 path, lineno, next_cpu - 1);
		goto out;
	}
	if (next_cpu <= 1)
		*basic_seen = cpuid_basic_seen(seen[0]);
	ret = 0;
out:
	free(line);
	fclose(f);
	return ret;
}

/* Not thread-safe, as libcpuid's warning hook is one global anyway. */
static int cpuid_dump_warned;

/* libcpuid warns (on stderr by default) about lines it does not understand. */
static void cpuid_dump_warn(const char *msg)
{
	(void)msg;
	cpuid_dump_warned = 1;
}

/*
 * Every CPU of a libcpuid raw dump into @s (one for a dump of one CPU);
 * each CPU's basic_present is the first CPU's, which cpuid_dump_check()
 * counts.  0, or -1 with a message.
 */
int cpuid_set_libcpuid(const char *path, struct cpuid_set *s, char *err, size_t errlen)
{
	struct cpu_raw_data_array_t all;
	libcpuid_warn_fn_t old;
	uint32_t basic_seen = 0;
	int rc, n;

	memset(s, 0, sizeof(*s));
	if (!path || !*path) {
		snprintf(err, errlen, "empty CPUID dump file name");
		return -1;
	}
	if (cpuid_dump_check(path, &basic_seen, err, errlen) < 0)
		return -1;

	memset(&all, 0, sizeof(all));
	cpuid_dump_warned = 0;
	old = cpuid_set_warn_function(cpuid_dump_warn);
	rc = cpuid_deserialize_all_raw_data(&all, path);
	cpuid_set_warn_function(old);
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", path, cpuid_error());
		cpuid_free_raw_data_array(&all);
		return -1;
	}
	if (cpuid_dump_warned) {
		snprintf(err, errlen, "%s: libcpuid did not understand a line of it", path);
		cpuid_free_raw_data_array(&all);
		return -1;
	}
	n = all.raw ? (int)all.num_raw : 0;
	s->cpu = calloc(n ? (size_t)n : 1, sizeof(*s->cpu));
	s->raw = calloc(n ? (size_t)n : 1, sizeof(*s->raw));
	if (!s->cpu || !s->raw) {
		cpuid_free_raw_data_array(&all);
		cpuid_set_free(s);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		s->cpu[i] = i;
		cpuid_copy(&s->raw[i], &all.raw[i]);
		s->raw[i].basic_present = basic_seen;
	}
	s->n = n;
	cpuid_free_raw_data_array(&all);

	if (!n || (!s->raw[0].basic[0][0] && !s->raw[0].basic[0][1] && !s->raw[0].basic[0][2] &&
		   !s->raw[0].basic[0][3])) {
		snprintf(err, errlen, "%s: not a CPUID dump: no basic_cpuid[0] line (leaf 0 is all zero)",
			 path);
		cpuid_set_free(s);
		return -1;
	}
	return 0;
}

int cpuid_raw_file(const char *path, struct cpuid_raw *raw, char *err, size_t errlen)
{
	struct cpuid_set s;

	memset(raw, 0, sizeof(*raw));
	if (cpuid_set_libcpuid(path, &s, err, errlen) < 0)
		return -1;
	*raw = s.raw[0];                /* the first logical CPU */
	cpuid_set_free(&s);
	return 0;
}

/* Append the four little-endian bytes of @reg to @s at *pos. */
static void cpuid_put_reg(char *s, size_t *pos, uint32_t reg)
{
	int b;

	for (b = 0; b < 4; b++)
		s[(*pos)++] = (char)((reg >> (8 * b)) & 0xff);
}

/* Cut at the first NUL, replace what is not printable ASCII, trim spaces. */
static void cpuid_clean(char *s, size_t len)
{
	size_t i, start, end;

	s[len] = '\0';
	len = strlen(s);
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			s[i] = '?';
	for (start = 0; start < len && s[start] == ' '; start++)
		;
	for (end = len; end > start && s[end - 1] == ' '; end--)
		;
	memmove(s, s + start, end - start);
	s[end - start] = '\0';
}

void cpuid_decode(const struct cpuid_raw *raw, struct cpuid_info *out)
{
	const uint32_t *l0 = raw->basic[0];
	uint32_t ext_max = raw->ext[0][0];
	size_t pos = 0;

	memset(out, 0, sizeof(*out));

	/* Leaf 0: max leaf in EAX, vendor in EBX EDX ECX. */
	out->max_leaf = l0[0];
	cpuid_put_reg(out->vendor, &pos, l0[1]);
	cpuid_put_reg(out->vendor, &pos, l0[3]);
	cpuid_put_reg(out->vendor, &pos, l0[2]);
	cpuid_clean(out->vendor, 12);

	/* Leaf 1 EAX: stepping 3:0, model 7:4, family 11:8, ext model 19:16, ext family 27:20. */
	if (out->max_leaf >= 1) {
		uint32_t eax = raw->basic[1][0], ecx = raw->basic[1][2];
		unsigned base_family = (eax >> 8) & 0xf;

		out->stepping = eax & 0xf;
		out->family = base_family;
		if (base_family == 0xf)
			out->family += (eax >> 20) & 0xff;
		out->model = (eax >> 4) & 0xf;
		if (base_family == 0x6 || base_family == 0xf)
			out->model += ((eax >> 16) & 0xf) << 4;
		out->hypervisor = (ecx >> 31) & 1;
		out->pdcm = (ecx >> 15) & 1;
	}

	/* Brand string: leaves 0x80000002..4, 48 bytes. */
	if ((ext_max & 0xffff0000u) == 0x80000000u && ext_max >= 0x80000004u) {
		unsigned leaf, r;

		pos = 0;
		for (leaf = 2; leaf <= 4; leaf++)
			for (r = 0; r < 4; r++)
				cpuid_put_reg(out->brand, &pos, raw->ext[leaf][r]);
		cpuid_clean(out->brand, 48);
	}

	/* Leaf 0xA, architectural perfmon (K-pe union cpuid10_eax/ebx/edx). */
	if (out->max_leaf >= 0xa && !strcmp(out->vendor, "GenuineIntel")) {
		uint32_t eax = raw->basic[0xa][0], ebx = raw->basic[0xa][1], ecx = raw->basic[0xa][2];
		uint32_t edx = raw->basic[0xa][3];
		struct pmu_caps *p = &out->pmu;

		p->version = eax & 0xff;
		p->gp_counters = (eax >> 8) & 0xff;
		p->gp_width = (eax >> 16) & 0xff;
		p->ebx_len = (eax >> 24) & 0xff;
		p->unavailable = ebx & (p->ebx_len >= 32 ? 0xffffffffu : (1u << p->ebx_len) - 1);
		if (p->version > 1) {
			p->fixed_counters = edx & 0x1f;
			p->fixed_width = (edx >> 5) & 0xff;
			p->fixed_mask = p->fixed_counters >= 32 ? ~0u : (1u << p->fixed_counters) - 1;
		}
		/* Version 5: ECX enumerates fixed counters too (pmu-facts 9.2). */
		if (p->version >= 5)
			p->fixed_mask |= ecx;
		/*
		 * Leaf 0x23.1, when subleaf 0 says it is valid (EAX bit 1): this
		 * CPU's own counter bitmaps, beyond what leaf 0xA says (10 on
		 * Lion Cove; K612 update_pmu_cap, pmu-facts 9.2).
		 */
		if (raw->has_leaf23 && out->max_leaf >= 0x23 && (raw->leaf23[0][0] & 2)) {
			uint32_t gp = raw->leaf23[1][0];

			p->gp_counters = 0;
			while (p->gp_counters < 32 && (gp & (1u << p->gp_counters)))
				p->gp_counters++;
			p->fixed_mask = raw->leaf23[1][1];
		}
	}
	/* Hybrid: the flag of leaf 7, and this CPU's core type (pmu-facts 9.6). */
	if (out->max_leaf >= 7 && !strcmp(out->vendor, "GenuineIntel"))
		out->hybrid = (raw->basic[7][3] >> 15) & 1;
	if (out->max_leaf >= 0x1a && !strcmp(out->vendor, "GenuineIntel")) {
		out->core_type = (uint8_t)(raw->basic[0x1a][0] >> 24);
		out->native_model = raw->basic[0x1a][0] & 0xffffff;
	}
}
