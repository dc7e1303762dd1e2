/*
 * symbols.c: process mappings and binaries' symbol tables (see symbols.h).
 *
 * Owns the mapping table, the binary cache and the ELF reading.  Does not
 * read rings: the sharing sampler hands over the side-band records.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/symbols.h"

struct sym_map {
	uint64_t start, end, pgoff;
	char path[SYMBOLS_PATH];
};

struct sym_proc {
	int pid;                        /* 0: free */
	int nmaps;
	unsigned long born;             /* for the oldest to give way */
	struct sym_map map[SYMBOLS_MAPS];
};

struct sym_fn {
	uint64_t addr, size;
	const char *name;
};

#define SYM_LOADS 16                    /* PT_LOAD segments kept per binary */

struct sym_bin {
	char path[SYMBOLS_PATH];        /* "": free */
	unsigned long used;
	int nfn;
	struct sym_fn *fn;              /* sorted by addr */
	char *names;
	int nload;
	struct { uint64_t offset, vaddr, filesz; } load[SYM_LOADS];
};

struct symbols {
	struct sym_proc *proc;          /* [SYMBOLS_PROCS] */
	struct sym_bin bin[SYMBOLS_BINS];
	unsigned long clock;
	char procdir[64];
};

struct symbols *symbols_new(void)
{
	struct symbols *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->proc = calloc(SYMBOLS_PROCS, sizeof(*s->proc));
	if (!s->proc) {
		free(s);
		return NULL;
	}
	snprintf(s->procdir, sizeof(s->procdir), "/proc");
	elf_version(EV_CURRENT);
	return s;
}

static void bin_drop(struct sym_bin *b)
{
	free(b->fn);
	free(b->names);
	memset(b, 0, sizeof(*b));
}

void symbols_free(struct symbols *s)
{
	if (!s)
		return;
	for (int i = 0; i < SYMBOLS_BINS; i++)
		bin_drop(&s->bin[i]);
	free(s->proc);
	free(s);
}

void symbols_set_proc(struct symbols *s, const char *proc)
{
	snprintf(s->procdir, sizeof(s->procdir), "%s", proc);
}

static struct sym_proc *proc_find(struct symbols *s, int pid)
{
	for (int i = 0; i < SYMBOLS_PROCS; i++)
		if (s->proc[i].pid == pid)
			return &s->proc[i];
	return NULL;
}

/* A slot for @pid: its own, a free one, or the oldest process's. */
static struct sym_proc *proc_get(struct symbols *s, int pid)
{
	struct sym_proc *p = proc_find(s, pid), *old = &s->proc[0];

	if (p)
		return p;
	for (int i = 0; i < SYMBOLS_PROCS; i++) {
		if (!s->proc[i].pid) {
			old = &s->proc[i];
			break;
		}
		if (s->proc[i].born < old->born)
			old = &s->proc[i];
	}
	memset(old, 0, sizeof(*old));
	old->pid = pid;
	old->born = ++s->clock;
	return old;
}

static void proc_add(struct sym_proc *p, uint64_t start, uint64_t len, uint64_t pgoff,
		     const char *path)
{
	struct sym_map *m = NULL;

	/* a new mapping over an old one replaces it */
	for (int i = 0; i < p->nmaps; i++)
		if (p->map[i].start < start + len && start < p->map[i].end)
			m = &p->map[i];
	if (!m && p->nmaps < SYMBOLS_MAPS)
		m = &p->map[p->nmaps++];
	if (!m)
		return;
	m->start = start;
	m->end = start + len;
	m->pgoff = pgoff;
	snprintf(m->path, sizeof(m->path), "%s", path);
}

void symbols_mmap(struct symbols *s, int pid, uint64_t start, uint64_t len, uint64_t pgoff,
		  const char *path)
{
	if (pid > 0 && path[0] == '/')
		proc_add(proc_get(s, pid), start, len, pgoff, path);
}

void symbols_fork(struct symbols *s, int pid, int ppid)
{
	struct sym_proc *parent = proc_find(s, ppid), *child;

	if (!parent || pid == ppid)
		return;
	child = proc_get(s, pid);
	parent = proc_find(s, ppid);    /* the child may have taken its slot */
	if (parent && parent != child) {
		child->nmaps = parent->nmaps;
		memcpy(child->map, parent->map, sizeof(child->map));
	}
}

void symbols_forget(struct symbols *s, int pid)
{
	struct sym_proc *p = proc_find(s, pid);

	if (p)
		memset(p, 0, sizeof(*p));
}

/* A process running before its mappings were told: read its executable ones once. */
static struct sym_proc *proc_seed(struct symbols *s, int pid)
{
	char path[96], line[512 + SYMBOLS_PATH];
	struct sym_proc *p = proc_get(s, pid);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/maps", s->procdir, pid);
	f = s->procdir[0] ? fopen(path, "re") : NULL;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long a, b, off;
		char perms[8], file[SYMBOLS_PATH];

		file[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %255s", &a, &b, perms, &off, file) < 4)
			continue;
		if (perms[2] == 'x' && file[0] == '/')
			proc_add(p, a, b - a, off, file);
	}
	if (f)
		fclose(f);
	return p;
}

static int fn_cmp(const void *a, const void *b)
{
	const struct sym_fn *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* The functions of @b->path's .symtab, else .dynsym, and its PT_LOAD segments. */
static void bin_load(struct sym_bin *b)
{
	int fd = open(b->path, O_RDONLY | O_CLOEXEC);
	Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	Elf_Scn *scn = NULL, *sym = NULL;
	size_t nph = 0, names = 0, at = 0;
	GElf_Shdr sh;

	if (!e)
		goto out;
	if (elf_getphdrnum(e, &nph) == 0)
		for (size_t i = 0; i < nph && b->nload < SYM_LOADS; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD) {
				b->load[b->nload].offset = ph.p_offset;
				b->load[b->nload].vaddr = ph.p_vaddr;
				b->load[b->nload].filesz = ph.p_filesz;
				b->nload++;
			}
		}
	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_SYMTAB ||
					       (sh.sh_type == SHT_DYNSYM && !sym)))
			sym = scn;
	if (!sym || !gelf_getshdr(sym, &sh) || !sh.sh_entsize)
		goto out;
	Elf_Data *d = elf_getdata(sym, NULL);
	size_t n = sh.sh_size / sh.sh_entsize;

	/* two passes: the sizes, then the copies (one block of names) */
	for (int pass = 0; d && pass < 2; pass++) {
		int k = 0;

		for (size_t i = 0; i < n; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    !s.st_value || !(name = elf_strptr(e, sh.sh_link, s.st_name)) || !*name)
				continue;
			if (pass == 0) {
				names += strlen(name) + 1;
				k++;
				continue;
			}
			b->fn[k].addr = s.st_value;
			b->fn[k].size = s.st_size;
			b->fn[k].name = b->names + at;
			memcpy(b->names + at, name, strlen(name) + 1);
			at += strlen(name) + 1;
			k++;
		}
		if (pass == 0) {
			b->fn = calloc((size_t)k + 1, sizeof(*b->fn));
			b->names = malloc(names + 1);
			if (!b->fn || !b->names) {
				free(b->fn);
				free(b->names);
				b->fn = NULL;
				b->names = NULL;
				break;
			}
		} else
			b->nfn = k;
	}
	if (b->nfn)
		qsort(b->fn, (size_t)b->nfn, sizeof(*b->fn), fn_cmp);
out:
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
}

/* @path's table, loaded once; the least recently used one gives way. */
static struct sym_bin *bin_get(struct symbols *s, const char *path)
{
	struct sym_bin *old = &s->bin[0];

	for (int i = 0; i < SYMBOLS_BINS; i++) {
		if (!strcmp(s->bin[i].path, path)) {
			s->bin[i].used = ++s->clock;
			return &s->bin[i];
		}
		if (s->bin[i].used < old->used)
			old = &s->bin[i];
	}
	bin_drop(old);
	snprintf(old->path, sizeof(old->path), "%s", path);
	old->used = ++s->clock;
	bin_load(old);
	return old;
}

const char *symbols_resolve(struct symbols *s, int pid, uint64_t ip, char *buf, size_t len)
{
	struct sym_proc *p = proc_find(s, pid);
	const struct sym_map *m = NULL;
	struct sym_bin *b;
	uint64_t off, va;
	const char *base;
	int lo, hi;

	buf[0] = '\0';
	if (!p)
		p = proc_seed(s, pid);
	for (int i = 0; i < p->nmaps && !m; i++)
		if (ip >= p->map[i].start && ip < p->map[i].end)
			m = &p->map[i];
	if (!m)
		return buf;
	b = bin_get(s, m->path);
	off = ip - m->start + m->pgoff;
	/* the file offset to the binary's own address, through its segment */
	va = off;
	for (int i = 0; i < b->nload; i++)
		if (off >= b->load[i].offset && off < b->load[i].offset + b->load[i].filesz)
			va = off - b->load[i].offset + b->load[i].vaddr;
	for (lo = 0, hi = b->nfn - 1; lo <= hi;) {
		int mid = (lo + hi) / 2;

		if (b->fn[mid].addr <= va)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	/* hi: the last function starting at or below; within its size (or size unknown) */
	if (hi >= 0 && (va < b->fn[hi].addr + b->fn[hi].size || !b->fn[hi].size)) {
		snprintf(buf, len, "%s+0x%llx", b->fn[hi].name,
			 (unsigned long long)(va - b->fn[hi].addr));
		return buf;
	}
	base = strrchr(m->path, '/');
	snprintf(buf, len, "%s+0x%llx", base ? base + 1 : m->path, (unsigned long long)off);
	return buf;
}
