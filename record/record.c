/*
 * record.c: lattop's recording format: the writer behind --record and
 * --record-max, and the reader behind --replay (see record.h).
 *
 * Owns the format and the recording file; knows no terminal, no register
 * and no clock.  The encoding of a frame and its decoding are pure (bytes
 * to struct report and back) and share one walk over the fields, so that
 * the two cannot disagree on the order.
 *
 * Layout (integers little-endian; "u" is an unsigned LEB128 varint, "z" a
 * zigzag one, "s" a u length then the bytes):
 *
 *   file    "LATTOPRC" u32 version, then blocks
 *   block   "LTBK" kind(1) clen(u32) rlen(u32) crc32(u32) payload(clen)
 *           kind 'H' a header, 'F' a frame; payload is one zstd frame of
 *           rlen bytes; crc32 (zlib's) covers kind, clen, rlen and payload.
 *           An intact block of another kind is passed over: room for what
 *           a later version adds without breaking this reader.
 *           Each block is written with one write(): a crash loses at most
 *           the block being written, and a reader that finds a torn or
 *           corrupt block looks for the next "LTBK".
 *   header  s source, s vendor, u family, u model, u stepping, s brand,
 *           u hypervisor, s microarch, s its long name, s pmu table ("" none),
 *           u supported, s reason, u perfmon version, gp counters, gp width,
 *           fixed counters, fixed width; u nthresh, u thresholds; s plan
 *           (as --list-events prints it); u nstrings, s strings; s the
 *           session's first frame (raw), the zstd dictionary (raw content)
 *           every frame of the session is compressed with.  Frames
 *           after a header belong to its session; appending to a recording
 *           starts a new header.
 *   frame   u length of the structure, the structure, then the doubles,
 *           byte-shuffled (all first bytes, then all second bytes...).
 *           structure: u flags (1: a note, 2: contended lines), [string
 *           note], u ncpu, per CPU: z cpu, z core, z package, [version 4:
 *           u core type, 0 none (not a hybrid part), 1 core, 2 atom, 3
 *           lowpower], u ok,
 *           [string error when not ok], metrics; then the total's metrics; [version
 *           3, flag 2: the interval's contended lines, struct sharing_frame,
 *           laid out as record_sharing.c says].  string: u 0 none, 1..n the
 *           header's string n, above: the frame's own strings in order of
 *           first use, the first use followed by s.  metrics: u supported
 *           bits (1 load latency, 2 snoop, 4 remote snoop, 8 offcore), 12
 *           strings (reasons and scopes), u nthresh, u thresholds, then one
 *           code byte per number: 0 not measured (NAN), 1 the next double
 *           XOR the same number of the row before (of 0.0 on the first row),
 *           2 derived exactly from numbers before it (above_per_sec =
 *           share x loads, the bounds of the mean from the shares, the
 *           mean the middle of its bounds, the standard errors from the
 *           shares and counts, ns = cycles / GHz, a share the same as the
 *           share before it, the total's rates and counts the sum of those
 *           of the CPUs read), 3 the same as the row before, 4 zero.  The
 *           numbers, in order: ghz, ipc, loads, tagged, the shares, the
 *           loads above, the mean's min, max and middle, [version 2: the
 *           tagged count and the tagged loads of each threshold (walk_count:
 *           varints in the structure), u 1 when every standard error is
 *           derived, else u 0 and the shares' and the loads' standard
 *           errors, a pair per threshold,] snoop hit, HITM, remote hit,
 *           HITM, offcore reads, latency in cycles and ns.  The interval's
 *           time and measured length are the first two doubles.
 *
 * Version 1 has no counts of tagged loads: its frames replay without them,
 * and so without standard errors.  Versions 1 and 2 have no contended
 * lines: their frames replay without them (rep.sharing NULL).  Versions
 * 1 to 3 have no core types: a hybrid's rows replay without theirs.  A file is appended to only in its own
 * version; a reader reads its version and the older ones.
 *
 * The writer uses code 2 only when the number derived is bit for bit the
 * one recorded, so a replay prints what the live run printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "lib/grow.h"
#include "engine/metrics.h"
#include "record/record.h"
#include "record/record_internal.h"

#define FILE_MAGIC "LATTOPRC"
#define FILE_HEAD 12
#define BLOCK_MAGIC "LTBK"
#define BLOCK_HEAD 17
#define RAW_MAX (64u << 20)     /* no block decompresses to more */
#define CLEN_MAX ZSTD_COMPRESSBOUND(RAW_MAX)    /* nor is compressed to more */
#define NCPU_MAX 65536
#define ZSTD_LEVEL 3
#define TIME_MAX 253402300800.0  /* 10000-01-01 */

enum { CODE_NAN, CODE_NEXT, CODE_DERIVED, CODE_PREV, CODE_ZERO, CODE__N };

/* ---- bytes ---- */

void buf_put(struct record_buf *b, const void *p, size_t n)
{
	uint8_t *q;

	if (b->oom || !n)
		return;
	q = grow_array(b->p, &b->cap, b->n + n, 1, 4096);
	if (!q) {
		b->oom = true;
		return;
	}
	b->p = q;
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

void buf_u(struct record_buf *b, uint64_t v)
{
	uint8_t t[10];
	int n = 0;

	do {
		t[n] = v & 0x7f;
		v >>= 7;
		t[n++] |= v ? 0x80 : 0;
	} while (v);
	buf_put(b, t, n);
}

void buf_s(struct record_buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	buf_u(b, n);
	buf_put(b, s, n);
}

static void buf_free(struct record_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t cur_u(struct cur *c)
{
	uint64_t v = 0;

	for (int shift = 0; shift < 64; shift += 7) {
		uint8_t b;

		if (c->off >= c->n)
			break;
		b = c->p[c->off++];
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	c->bad = true;
	return 0;
}

int64_t cur_z(struct cur *c)
{
	uint64_t v = cur_u(c);

	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

unsigned cur_small(struct cur *c, unsigned max)
{
	uint64_t v = cur_u(c);

	if (v > max) {
		c->bad = true;
		return 0;
	}
	return (unsigned)v;
}

/* A string, as a new allocation (NUL-terminated; a NUL inside ends it). */
char *cur_s(struct cur *c)
{
	uint64_t n = cur_u(c);
	char *s;

	if (c->bad || n > c->n - c->off) {
		c->bad = true;
		return NULL;
	}
	s = malloc(n + 1);
	if (!s) {
		c->bad = true;
		return NULL;
	}
	memcpy(s, c->p + c->off, n);
	s[n] = 0;
	c->off += n;
	return s;
}

static uint64_t dbits(double v)
{
	uint64_t b;

	memcpy(&b, &v, sizeof(b));
	return b;
}

static double bitsd(uint64_t b)
{
	double v;

	memcpy(&v, &b, sizeof(v));
	return v;
}

/* ---- one walk over a frame's fields, both ways ---- */

enum { F_GHZ, F_IPC, F_LOADS, F_TAGGED, F_SHARE, F_APS = F_SHARE + THRESH_MAX,
       F_MIN = F_APS + THRESH_MAX, F_MAX, F_EST, F_HIT, F_HITM, F_RHIT, F_RHITM, F_READS,
       F_LAT, F_NS, F_TCOUNT, F_TN, F_SSE = F_TN + THRESH_MAX, F_ASE = F_SSE + THRESH_MAX,
       F__N = F_ASE + THRESH_MAX };

struct codec {
	bool dec;
	unsigned version;                /* of the file: what a frame holds */
	struct record_buf *a, *d;        /* encoding: structure and doubles */
	struct cur ca;                   /* decoding: structure */
	const uint8_t *dp;               /* decoding: the shuffled doubles */
	size_t nd, di;
	/* strings */
	char *const *hstr;
	int nhstr;
	const char **fstr;               /* the frame's own strings, in order of first use */
	int nfstr;
	size_t capfstr;
	bool oom;
	double prev[F__N], cur[F__N];
	bool prev_ok;
	double sum[F__N];                /* the rates summed over the CPUs read, as the total is */
	int nsum;
};

/*
 * The rates a total is the sum of (metrics_sum()), in the order of the
 * CPUs; and the counts of tagged loads, F_TCOUNT to F_TN + THRESH_MAX.
 */
static const int summed[] = { F_LOADS, F_TAGGED, F_HIT, F_HITM, F_RHIT, F_RHITM, F_READS };

enum row_kind { ROW_UNREAD, ROW_READ, ROW_TOTAL };

static void enc_dbl(struct codec *c, double v)
{
	uint64_t b = dbits(v);

	buf_put(c->d, &b, sizeof(b));
}

static double dec_dbl(struct codec *c)
{
	uint64_t b = 0;

	if (c->di >= c->nd) {
		c->ca.bad = true;
		return NAN;
	}
	for (int k = 0; k < 8; k++)
		b |= (uint64_t)c->dp[k * c->nd + c->di] << (8 * k);
	c->di++;
	return bitsd(b);
}

static int fstr_add(struct codec *c, const char *s)
{
	const char **a = grow_array(c->fstr, &c->capfstr, (size_t)c->nfstr + 1, sizeof(*a), 16);

	if (!a) {
		c->oom = true;
		return -1;
	}
	c->fstr = a;
	c->fstr[c->nfstr++] = s;
	return 0;
}

static void walk_str(struct codec *c, const char **s)
{
	if (!c->dec) {
		if (!*s) {
			buf_u(c->a, 0);
			return;
		}
		for (int i = 0; i < c->nhstr; i++)
			if (!strcmp(c->hstr[i], *s)) {
				buf_u(c->a, 1 + i);
				return;
			}
		for (int i = 0; i < c->nfstr; i++)
			if (c->fstr[i] == *s || !strcmp(c->fstr[i], *s)) {
				buf_u(c->a, 1 + c->nhstr + i);
				return;
			}
		buf_u(c->a, 1 + c->nhstr + c->nfstr);
		buf_s(c->a, *s);
		fstr_add(c, *s);
		return;
	}
	{
		uint64_t k = cur_u(&c->ca);

		*s = NULL;
		if (c->ca.bad || k == 0)
			return;
		if (k <= (uint64_t)c->nhstr) {
			*s = c->hstr[k - 1];
			return;
		}
		k -= 1 + c->nhstr;
		if (k < (uint64_t)c->nfstr) {
			*s = c->fstr[k];
		} else if (k == (uint64_t)c->nfstr) {
			char *n = cur_s(&c->ca);

			if (n && fstr_add(c, n) < 0) {
				free(n);
				c->ca.bad = true;
			}
			*s = n;
		} else {
			c->ca.bad = true;
		}
	}
}

/* One number: @derived, when not NULL, is what it would be derived to. */
static void walk_dbl(struct codec *c, int id, double *v, const double *derived)
{
	if (!c->dec) {
		uint64_t b = dbits(*v);
		uint8_t code;

		if (isnan(*v))
			code = CODE_NAN;
		else if (derived && dbits(*derived) == b)
			code = CODE_DERIVED;
		else if (c->prev_ok && dbits(c->prev[id]) == b)
			code = CODE_PREV;
		else if (b == 0)
			code = CODE_ZERO;
		else
			code = CODE_NEXT;
		buf_put(c->a, &code, 1);
		if (code == CODE_NEXT)
			enc_dbl(c, bitsd(b ^ dbits(c->prev_ok ? c->prev[id] : 0)));
	} else {
		unsigned code = c->ca.off < c->ca.n ? c->ca.p[c->ca.off++] : CODE__N;

		switch (code) {
		case CODE_NAN: *v = NAN; break;
		case CODE_NEXT:
			*v = bitsd(dbits(dec_dbl(c)) ^ dbits(c->prev_ok ? c->prev[id] : 0));
			break;
		case CODE_DERIVED:
			if (!derived)
				c->ca.bad = true;
			*v = derived ? *derived : NAN;
			break;
		case CODE_PREV:
			if (!c->prev_ok)
				c->ca.bad = true;
			*v = c->prev[id];
			break;
		case CODE_ZERO: *v = 0; break;
		default:
			c->ca.bad = true;
			*v = NAN;
		}
	}
	/* What the reader has: a NAN of any bits reads back as NAN. */
	c->cur[id] = isnan(*v) ? NAN : *v;
}

static void walk_uint(struct codec *c, unsigned *v, unsigned max)
{
	if (!c->dec)
		buf_u(c->a, *v);
	else
		*v = cur_small(&c->ca, max);
}

/* A rate: on the total's row, derived as the sum of the rows read. */
static void walk_rate(struct codec *c, enum row_kind k, int id, double *v)
{
	walk_dbl(c, id, v, k == ROW_TOTAL && c->nsum ? &c->sum[id] : NULL);
}

/*
 * A count of whole loads (version 2): a varint in the structure, not a
 * double: the difference from the row before, zigzagged, after a code
 * (0 NAN, 1 the sum of the rows read on the total's row, 2 a whole
 * number, 3 anything else, as the next double).  Three bytes where a
 * double takes eight, and the compressor's time with them.
 */
#define COUNT_MAX 0x1p52

static void walk_count(struct codec *c, enum row_kind k, int id, double *v)
{
	double prev = c->prev_ok && !isnan(c->prev[id]) ? c->prev[id] : 0;
	const double *sum = k == ROW_TOTAL && c->nsum ? &c->sum[id] : NULL;

	if (!c->dec) {
		double d = *v - prev;
		unsigned code = isnan(*v) ? 0 : sum && dbits(*sum) == dbits(*v) ? 1 :
				*v == floor(*v) && fabs(*v) < COUNT_MAX && fabs(d) < COUNT_MAX ? 2 : 3;

		buf_u(c->a, code);
		if (code == 2)
			buf_u(c->a, ((uint64_t)(int64_t)d << 1) ^ (uint64_t)((int64_t)d >> 63));
		else if (code == 3)
			enc_dbl(c, *v);
	} else {
		switch (cur_small(&c->ca, 3)) {
		case 0: *v = NAN; break;
		case 1:
			if (!sum)
				c->ca.bad = true;
			*v = sum ? *sum : NAN;
			break;
		case 2: {
			int64_t d = cur_z(&c->ca);

			if (d <= -(int64_t)COUNT_MAX || d >= (int64_t)COUNT_MAX)
				c->ca.bad = true;
			*v = prev + (double)d;
			break;
		}
		default: *v = dec_dbl(c); break;
		}
	}
	c->cur[id] = isnan(*v) ? NAN : *v;
}

static void walk_metrics(struct codec *c, struct metrics *m, enum row_kind k)
{
	unsigned bits = (m->lat.supported ? 1 : 0) | (m->snoop.supported ? 2 : 0) |
			(m->snoop.remote.supported ? 4 : 0) | (m->off.supported ? 8 : 0);
	unsigned nthresh = (unsigned)m->lat.nthresh;
	double d, lo, hi, sse[THRESH_MAX], ase[THRESH_MAX];
	unsigned all;
	int first = 0, n;

	walk_uint(c, &bits, 15);
	if (c->dec) {
		memset(m, 0, sizeof(*m));
		m->lat.supported = bits & 1;
		m->snoop.supported = bits & 2;
		m->snoop.remote.supported = bits & 4;
		m->off.supported = bits & 8;
	}
	walk_str(c, &m->lat.reason);
	walk_str(c, &m->lat.loads_reason);
	walk_str(c, &m->lat.tagged_reason);
	walk_str(c, &m->snoop.reason);
	walk_str(c, &m->snoop.hit_reason);
	walk_str(c, &m->snoop.hitm_reason);
	walk_str(c, &m->snoop.hit_scope);
	walk_str(c, &m->snoop.hitm_scope);
	walk_str(c, &m->snoop.remote.reason);
	walk_str(c, &m->off.reason);
	walk_str(c, &m->off.reads_reason);
	walk_str(c, &m->off.latency_reason);
	walk_uint(c, &nthresh, THRESH_MAX);
	m->lat.nthresh = (int)nthresh;
	for (int i = 0; i < m->lat.nthresh; i++)
		walk_uint(c, &m->lat.thresholds[i], 65535);
	if (c->dec) {
		m->lat.tagged_count = NAN;
		for (int i = 0; i < THRESH_MAX; i++)
			m->lat.tagged_n[i] = m->lat.above_share_se[i] = m->lat.above_per_sec_se[i] = NAN;
		for (int i = m->lat.nthresh; i < THRESH_MAX; i++)
			m->lat.above_share[i] = m->lat.above_per_sec[i] = NAN;
	}

	walk_dbl(c, F_GHZ, &m->ghz, NULL);
	walk_dbl(c, F_IPC, &m->ipc, NULL);
	walk_rate(c, k, F_LOADS, &m->lat.loads_per_sec);
	walk_rate(c, k, F_TAGGED, &m->lat.tagged_per_sec);
	/* Shares pooled by metrics_shares() repeat the one before. */
	for (int i = 0; i < m->lat.nthresh; i++)
		walk_dbl(c, F_SHARE + i, &m->lat.above_share[i], i ? &m->lat.above_share[i - 1] : NULL);
	for (int i = 0; i < m->lat.nthresh; i++) {
		d = m->lat.above_share[i] * m->lat.loads_per_sec;
		walk_dbl(c, F_APS + i, &m->lat.above_per_sec[i], &d);
	}
	/* The bounds as metrics_compute() takes them: from the thresholds above 3. */
	while (first < m->lat.nthresh && m->lat.thresholds[first] <= THRESH_TAGGED)
		first++;
	n = m->lat.nthresh - first;
	metrics_mean_bounds(m->lat.thresholds + first, m->lat.above_share + first, n, &lo, &hi);
	walk_dbl(c, F_MIN, &m->lat.mean_cycles_min, &lo);
	walk_dbl(c, F_MAX, &m->lat.mean_cycles_max, &hi);
	d = (m->lat.mean_cycles_min + m->lat.mean_cycles_max) / 2;
	walk_dbl(c, F_EST, &m->lat.mean_cycles_est, &d);
	/* Version 2: the counts of tagged loads, and the standard errors derived from them. */
	if (c->version >= 2) {
		walk_count(c, k, F_TCOUNT, &m->lat.tagged_count);
		for (int i = 0; i < m->lat.nthresh; i++)
			walk_count(c, k, F_TN + i, &m->lat.tagged_n[i]);
		/*
		 * The errors as metrics_compute() sets them: derived, one code for
		 * them all; else each number coded on its own.
		 */
		metrics_stderr(m, sse, ase);
		all = 1;
		for (int i = 0; !c->dec && i < m->lat.nthresh; i++)
			all &= dbits(sse[i]) == dbits(m->lat.above_share_se[i]) &&
			       dbits(ase[i]) == dbits(m->lat.above_per_sec_se[i]);
		walk_uint(c, &all, 1);
		for (int i = 0; i < m->lat.nthresh; i++) {
			if (all && c->dec) {
				m->lat.above_share_se[i] = sse[i];
				m->lat.above_per_sec_se[i] = ase[i];
			} else if (!all) {
				walk_dbl(c, F_SSE + i, &m->lat.above_share_se[i], &sse[i]);
				walk_dbl(c, F_ASE + i, &m->lat.above_per_sec_se[i], &ase[i]);
			}
			c->cur[F_SSE + i] = m->lat.above_share_se[i];
			c->cur[F_ASE + i] = m->lat.above_per_sec_se[i];
		}
	}
	walk_rate(c, k, F_HIT, &m->snoop.hit_per_sec);
	walk_rate(c, k, F_HITM, &m->snoop.hitm_per_sec);
	walk_rate(c, k, F_RHIT, &m->snoop.remote.hit_per_sec);
	walk_rate(c, k, F_RHITM, &m->snoop.remote.hitm_per_sec);
	walk_rate(c, k, F_READS, &m->off.reads_per_sec);
	walk_dbl(c, F_LAT, &m->off.avg_latency_cycles, NULL);
	d = m->off.avg_latency_cycles / m->ghz;
	walk_dbl(c, F_NS, &m->off.avg_latency_ns, &d);
	memcpy(c->prev, c->cur, sizeof(c->prev));
	c->prev_ok = true;
	if (k == ROW_READ) {
		for (size_t i = 0; i < sizeof(summed) / sizeof(summed[0]); i++)
			c->sum[summed[i]] = c->nsum ? c->sum[summed[i]] + c->cur[summed[i]]
						    : c->cur[summed[i]];
		for (int id = F_TCOUNT; id < F_TN + THRESH_MAX; id++)
			c->sum[id] = c->nsum ? c->sum[id] + c->cur[id] : c->cur[id];
		c->nsum++;
	}
}

/* ---- blocks ---- */

static uint32_t block_crc(const uint8_t *head, const uint8_t *payload, size_t clen)
{
	uLong crc = crc32(0L, Z_NULL, 0);

	crc = crc32(crc, head + 4, 9);
	crc = crc32(crc, payload, (uInt)clen);
	return (uint32_t)crc;
}

/* @raw compressed into a block of @kind in @out (replacing what it held). */
static int block_make(ZSTD_CCtx *cctx, char kind, const struct record_buf *raw,
		      const ZSTD_CDict *dict, struct record_buf *out, char *err, size_t errlen)
{
	size_t bound = ZSTD_compressBound(raw->n), clen;
	uint8_t head[BLOCK_HEAD] = { 0 };

	out->n = 0;
	buf_put(out, head, BLOCK_HEAD);
	if (!out->oom && out->cap < BLOCK_HEAD + bound) {
		uint8_t *q = realloc(out->p, BLOCK_HEAD + bound);

		if (!q)
			out->oom = true;
		else {
			out->p = q;
			out->cap = BLOCK_HEAD + bound;
		}
	}
	if (raw->oom || out->oom) {
		snprintf(err, errlen, "recording: out of memory");
		return -1;
	}
	if (dict)
		clen = ZSTD_compress_usingCDict(cctx, out->p + BLOCK_HEAD, bound, raw->p, raw->n, dict);
	else
		clen = ZSTD_compressCCtx(cctx, out->p + BLOCK_HEAD, bound, raw->p, raw->n, ZSTD_LEVEL);
	if (ZSTD_isError(clen)) {
		snprintf(err, errlen, "recording: zstd: %s", ZSTD_getErrorName(clen));
		return -1;
	}
	memcpy(out->p, BLOCK_MAGIC, 4);
	out->p[4] = (uint8_t)kind;
	put32(out->p + 5, (uint32_t)clen);
	put32(out->p + 9, (uint32_t)raw->n);
	put32(out->p + 13, block_crc(out->p, out->p + BLOCK_HEAD, clen));
	out->n = BLOCK_HEAD + clen;
	return 0;
}

static void head_encode(struct record_buf *b, const struct record_head *h)
{
	const struct cpu_desc *d = h->desc;
	const struct pmu_caps *p = &d->id.pmu;

	buf_s(b, h->source);
	buf_s(b, d->id.vendor);
	buf_u(b, d->id.family);
	buf_u(b, d->id.model);
	buf_u(b, d->id.stepping);
	buf_s(b, d->id.brand);
	buf_u(b, d->id.hypervisor);
	buf_s(b, d->uarch->name);
	buf_s(b, d->uarch->pretty);
	buf_s(b, d->uarch->table ? d->uarch->table->name : "");
	buf_u(b, d->supported);
	buf_s(b, d->supported ? "" : d->reason);
	buf_u(b, p->version);
	buf_u(b, p->gp_counters);
	buf_u(b, p->gp_width);
	buf_u(b, p->fixed_counters);
	buf_u(b, p->fixed_width);
	buf_u(b, (uint64_t)h->nthresh);
	for (int i = 0; i < h->nthresh; i++)
		buf_u(b, h->thresholds[i]);
	buf_s(b, h->plan);
	buf_u(b, (uint64_t)h->nstrings);
	for (int i = 0; i < h->nstrings; i++)
		buf_s(b, h->strings[i]);
}

/* ---- writing ---- */

static int write_all(int fd, const void *p, size_t n)
{
	const uint8_t *q = p;

	while (n) {
		ssize_t k = write(fd, q, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		q += k;
		n -= (size_t)k;
	}
	return 0;
}

/*
 * @n bytes at the end of the file, in one write.  On failure (a full disk)
 * the part written is cut off again, so that the next block follows the
 * last intact one; should that fail too, a reader skips the torn block.
 */
static int put(struct record_writer *w, const void *p, size_t n, char *err, size_t errlen)
{
	int e;

	if (write_all(w->fd, p, n) == 0) {
		w->size += (long long)n;
		return 0;
	}
	e = errno ? errno : EIO;
	if (ftruncate(w->fd, w->size) < 0) {
		/* Left torn: skipped on replay. */
	}
	snprintf(err, errlen, "--record %s: %s", w->path, strerror(e));
	errno = e;
	return -1;
}

/* The file head, at the start of a new file. */
static int start_file(struct record_writer *w, char *err, size_t errlen)
{
	uint8_t fh[FILE_HEAD];

	memcpy(fh, FILE_MAGIC, 8);
	put32(fh + 8, RECORD_VERSION);
	return put(w, fh, sizeof(fh), err, errlen);
}

/* -2 for an error of the path itself (the caller's usage error), -1 for any other. */
static int open_error(int e)
{
	return e == ENOENT || e == ENOTDIR || e == EISDIR || e == ENAMETOOLONG || e == ELOOP ? -2 : -1;
}

int record_open(struct record_writer *w, const char *path, long long max,
		const struct record_head *h, char *err, size_t errlen)
{
	uint8_t fh[FILE_HEAD];
	struct stat st;
	int fd, rc = -1;

	memset(w, 0, sizeof(*w));
	w->fd = -1;
	w->rot.sock = -1;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);     /* a FIFO must not block */
	if (fd >= 0) {
		ssize_t k = fstat(fd, &st) == 0 && st.st_size > 0 ? read(fd, fh, sizeof(fh)) : 0;

		close(fd);
		if (k != 0 && (k != FILE_HEAD || memcmp(fh, FILE_MAGIC, 8))) {
			snprintf(err, errlen, "--record %s: exists and is not a lattop recording: "
				 "left alone", path);
			return -2;
		}
		if (k && get32(fh + 8) != RECORD_VERSION) {
			snprintf(err, errlen, "--record %s: a recording of format version %u, not %d: "
				 "left alone", path, get32(fh + 8), RECORD_VERSION);
			return -2;
		}
	}
	w->path = strdup(path);
	w->cctx = ZSTD_createCCtx();
	w->str = calloc(h->nstrings ? h->nstrings : 1, sizeof(*w->str));
	if (!w->path || !w->cctx || !w->str) {
		snprintf(err, errlen, "recording: out of memory");
		goto fail;
	}
	for (int i = 0; i < h->nstrings; i++)
		if (!(w->str[w->nstr++] = strdup(h->strings[i]))) {
			snprintf(err, errlen, "recording: out of memory");
			goto fail;
		}
	/* The header is written with the first frame, which it holds as the dictionary. */
	head_encode(&w->hraw, h);
	w->max = max;
	w->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (w->fd < 0 || fstat(w->fd, &st) < 0) {
		rc = open_error(errno);
		snprintf(err, errlen, "--record %s: %s", path, strerror(errno));
		goto fail;
	}
	/* Two recorders appending to one file would each spoil the other's frames. */
	if (flock(w->fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK)
			snprintf(err, errlen, "--record %s: another lattop is recording to it: two "
				 "recorders would spoil each other's frames", path);
		else
			snprintf(err, errlen, "--record %s: locking it: %s", path, strerror(errno));
		goto fail;
	}
	if (max && (rotate_check(path, err, errlen) < 0 ||
		    rotator_start(&w->rot, path, err, errlen) < 0))
		goto fail;
	w->size = st.st_size;
	if (st.st_size == 0 && start_file(w, err, errlen) < 0)
		goto fail;
	return 0;
fail:
	record_close(w);
	return rc;
}

/* FILE -> FILE.1 -> ... -> FILE.RECORD_KEEP (the oldest dropped), then a new FILE. */
static int rotate(struct record_writer *w, char *err, size_t errlen)
{
	int fd = rotator_rotate(&w->rot, w->path);

	if (fd < 0) {
		if (errno == ECHILD)
			snprintf(err, errlen, "--record %s: rotating: the helper that renames as root "
				 "has ended", w->path);
		else
			snprintf(err, errlen, "--record %s: rotating: %s", w->path, strerror(errno));
		return -1;
	}
	close(w->fd);
	w->fd = fd;
	flock(w->fd, LOCK_EX | LOCK_NB);
	w->size = 0;
	w->frames = 0;
	w->headed = false;
	return start_file(w, err, errlen);
}

/* The raw frame of @r into @raw: structure, then the shuffled doubles. */
static int frame_encode(struct record_writer *w, const struct report *r)
{
	struct record_buf a = { 0 };
	struct codec c = { .dec = false, .version = RECORD_VERSION, .a = &a, .d = &w->dbl,
			   .hstr = w->str, .nhstr = w->nstr };
	unsigned flags = (r->note ? 1 : 0) | (r->sharing ? 2 : 0);
	const char *note = r->note;
	size_t nd;

	w->dbl.n = 0;
	w->raw.n = 0;
	enc_dbl(&c, r->time);
	enc_dbl(&c, r->interval_s);
	buf_u(&a, flags);
	if (note)
		walk_str(&c, &note);
	buf_u(&a, (uint64_t)r->ncpu);
	for (int i = 0; i < r->ncpu; i++) {
		const struct row *rc = &r->cpu[i];
		const char *e = rc->error;
		struct metrics m = rc->m;

		buf_u(&a, ((uint64_t)rc->cpu << 1) ^ (uint64_t)(rc->cpu >> 31));
		buf_u(&a, ((uint64_t)rc->core << 1) ^ (uint64_t)(rc->core >> 31));
		buf_u(&a, ((uint64_t)rc->package << 1) ^ (uint64_t)(rc->package >> 31));
		buf_u(&a, !rc->core_type ? 0 : !strcmp(rc->core_type, "core") ? 1 :
			  !strcmp(rc->core_type, "lowpower") ? 3 : 2);
		buf_u(&a, rc->ok);
		if (!rc->ok)
			walk_str(&c, &e);
		walk_metrics(&c, &m, rc->ok ? ROW_READ : ROW_UNREAD);
	}
	{
		struct metrics m = r->total;

		walk_metrics(&c, &m, ROW_TOTAL);
	}
	if (r->sharing)
		record_sharing_put(&a, r->sharing);
	buf_u(&w->raw, a.n);
	buf_put(&w->raw, a.p, a.n);
	nd = w->dbl.n / 8;
	buf_put(&w->raw, w->dbl.p, w->dbl.n);          /* room, then shuffled in place */
	if (!w->raw.oom) {
		uint8_t *q = w->raw.p + w->raw.n - w->dbl.n;

		for (int k = 0; k < 8; k++)
			for (size_t i = 0; i < nd; i++)
				*q++ = w->dbl.p[i * 8 + k];
	}
	free(c.fstr);
	buf_free(&a);
	return c.oom || w->raw.oom || w->dbl.oom ? -1 : 0;
}

int record_write(struct record_writer *w, const struct report *r, char *err, size_t errlen)
{
	if (frame_encode(w, r) < 0) {
		snprintf(err, errlen, "recording: out of memory");
		return -1;
	}
	if (!w->head) {
		struct record_buf blk = { 0 };

		buf_u(&w->hraw, w->raw.n);
		buf_put(&w->hraw, w->raw.p, w->raw.n);
		w->cdict = ZSTD_createCDict(w->raw.p, w->raw.n, ZSTD_LEVEL);
		if (!w->cdict || w->hraw.oom) {
			snprintf(err, errlen, "recording: out of memory");
			return -1;
		}
		if (block_make(w->cctx, 'H', &w->hraw, NULL, &blk, err, errlen) < 0) {
			buf_free(&blk);
			return -1;
		}
		w->head = blk.p;
		w->headlen = blk.n;
	}
	if (block_make(w->cctx, 'F', &w->raw, w->cdict, &w->out, err, errlen) < 0)
		return -1;
	if (w->max && w->size + (long long)(w->out.n + (w->headed ? 0 : w->headlen)) > w->max &&
	    w->size > FILE_HEAD && rotate(w, err, errlen) < 0)
		return -1;
	/* A file head or header that a full disk refused is written before the next frame. */
	if (w->size == 0 && start_file(w, err, errlen) < 0)
		return -1;
	if (!w->headed) {
		if (put(w, w->head, w->headlen, err, errlen) < 0)
			return -1;
		w->headed = true;
	}
	if (put(w, w->out.p, w->out.n, err, errlen) < 0)
		return -1;
	w->frames++;
	return 0;
}

void record_close(struct record_writer *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	rotator_stop(&w->rot);
	for (int i = 0; i < w->nstr; i++)
		free(w->str[i]);
	free(w->str);
	free(w->path);
	free(w->head);
	ZSTD_freeCCtx(w->cctx);
	buf_free(&w->raw);
	buf_free(&w->hraw);
	ZSTD_freeCDict(w->cdict);
	buf_free(&w->dbl);
	buf_free(&w->out);
	memset(w, 0, sizeof(*w));
	w->fd = -1;
	w->rot.sock = -1;
}

/* ---- reading ---- */

static void session_free(struct record_session *s)
{
	if (!s)
		return;
	free(s->source);
	free(s->plan);
	for (int i = 0; i < s->nstr; i++)
		free(s->str[i]);
	free(s->str);
	free(s->dict);
	for (int i = 0; i < 4; i++)
		free(s->names[i]);
	free(s);
}

static void copy_to(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", s ? s : "");
}

static struct record_session *head_decode(const uint8_t *p, size_t n)
{
	struct cur c = { .p = p, .n = n };
	struct record_session *s = calloc(1, sizeof(*s));
	struct cpu_desc *d;
	struct pmu_caps *pc;
	char *t;
	unsigned nstr;

	if (!s)
		return NULL;
	d = &s->desc;
	pc = &d->id.pmu;
	s->source = cur_s(&c);
	t = cur_s(&c);
	copy_to(d->id.vendor, sizeof(d->id.vendor), t);
	free(t);
	d->id.family = cur_small(&c, ~0u);
	d->id.model = cur_small(&c, ~0u);
	d->id.stepping = cur_small(&c, ~0u);
	t = cur_s(&c);
	copy_to(d->id.brand, sizeof(d->id.brand), t);
	free(t);
	d->id.hypervisor = cur_small(&c, 1);
	s->names[0] = cur_s(&c);
	s->names[1] = cur_s(&c);
	s->names[2] = cur_s(&c);
	d->supported = cur_small(&c, 1);
	t = cur_s(&c);
	copy_to(d->reason, sizeof(d->reason), t);
	free(t);
	pc->version = cur_small(&c, ~0u);
	pc->gp_counters = cur_small(&c, ~0u);
	pc->gp_width = cur_small(&c, ~0u);
	pc->fixed_counters = cur_small(&c, ~0u);
	pc->fixed_width = cur_small(&c, ~0u);
	s->nthresh = (int)cur_small(&c, THRESH_MAX);
	for (int i = 0; i < s->nthresh; i++)
		s->thresholds[i] = cur_small(&c, 65535);
	s->plan = cur_s(&c);
	nstr = cur_small(&c, (unsigned)(n - c.off));
	if (!c.bad && nstr) {
		s->str = calloc(nstr, sizeof(*s->str));
		if (!s->str)
			c.bad = true;
	}
	for (unsigned i = 0; !c.bad && i < nstr; i++) {
		s->str[i] = cur_s(&c);
		s->nstr += s->str[i] != NULL;
	}
	{
		uint64_t len = cur_u(&c);

		if (!c.bad && len <= c.n - c.off) {
			s->dictlen = (size_t)len;
			s->dict = malloc(len ? len : 1);
			if (s->dict)
				memcpy(s->dict, c.p + c.off, len);
			c.off += len;
		}
		if (!s->dict)
			c.bad = true;
	}
	if (c.bad || c.off != c.n || !s->source || !s->plan) {
		session_free(s);
		return NULL;
	}
	s->table.name = s->names[2];
	s->uarch.name = s->names[0];
	s->uarch.pretty = s->names[1];
	s->uarch.table = s->names[2][0] ? &s->table : NULL;
	d->uarch = &s->uarch;
	return s;
}

static void frame_free(struct record_frame *f)
{
	for (int i = 0; i < f->nstr; i++)
		free(f->str[i]);
	free(f->str);
	free(f->cpu);
	free(f->sharing);
}

static int frame_decode(const struct record_session *s, int si, unsigned version,
			const uint8_t *p, size_t n, struct record_frame *f)
{
	struct cur top = { .p = p, .n = n };
	uint64_t alen = cur_u(&top);
	struct codec c = { .dec = true, .version = version, .hstr = s->str, .nhstr = s->nstr };
	unsigned flags, ncpu;

	memset(f, 0, sizeof(*f));
	if (top.bad || alen > n - top.off || (n - top.off - alen) % 8)
		return -1;
	c.ca = (struct cur){ .p = p + top.off, .n = alen };
	c.dp = p + top.off + alen;
	c.nd = (n - top.off - alen) / 8;
	f->session = si;
	f->rep.source = s->source;
	f->rep.desc = &s->desc;
	f->rep.time = dec_dbl(&c);
	f->rep.interval_s = dec_dbl(&c);
	/* A clock time the writers can convert (up to the year 9999), an interval of a clock. */
	if (!(f->rep.time >= 0 && f->rep.time < TIME_MAX) ||
	    !(f->rep.interval_s >= 0 && f->rep.interval_s < TIME_MAX))
		c.ca.bad = true;
	flags = cur_small(&c.ca, version >= 3 ? 3 : 1);
	if (flags & 1)
		walk_str(&c, &f->rep.note);
	ncpu = cur_small(&c.ca, NCPU_MAX);
	/* Each CPU takes more than 16 bytes of structure: a count that cannot fit is refused. */
	if (!c.ca.bad && ncpu > alen / 16)
		c.ca.bad = true;
	if (!c.ca.bad && ncpu) {
		f->cpu = calloc(ncpu, sizeof(*f->cpu));
		if (!f->cpu)
			c.ca.bad = true;
	}
	for (unsigned i = 0; !c.ca.bad && i < ncpu; i++) {
		struct row *rc = &f->cpu[i];

		rc->cpu = (int)cur_z(&c.ca);
		rc->core = (int)cur_z(&c.ca);
		rc->package = (int)cur_z(&c.ca);
		if (version >= 4) {
			unsigned t = cur_small(&c.ca, 3);

			rc->core_type = t == 1 ? "core" : t == 2 ? "atom" :
					t == 3 ? "lowpower" : NULL;
		}
		rc->nthreads = 1;
		rc->ok = cur_small(&c.ca, 1);
		if (!rc->ok)
			walk_str(&c, &rc->error);
		walk_metrics(&c, &rc->m, rc->ok ? ROW_READ : ROW_UNREAD);
	}
	if (!c.ca.bad)
		walk_metrics(&c, &f->rep.total, ROW_TOTAL);
	if (!c.ca.bad && (flags & 2)) {
		f->sharing = malloc(sizeof(*f->sharing));
		if (f->sharing)
			record_sharing_get(&c.ca, f->sharing);
		else
			c.ca.bad = true;
		f->rep.sharing = f->sharing;
	}
	f->rep.ncpu = (int)ncpu;
	f->rep.cpu = f->cpu;
	/* The frame's own strings are its to free. */
	f->str = (char **)c.fstr;
	f->nstr = c.nfstr;
	if (c.ca.bad || c.oom || c.ca.off != c.ca.n || c.di != c.nd) {
		frame_free(f);
		return -1;
	}
	return 0;
}

static int add_frame(struct record_file *out, const struct record_frame *f)
{
	struct record_frame *a = grow_array(out->f, &out->capf, (size_t)out->nf + 1, sizeof(*a), 64);

	if (!a)
		return -1;
	out->f = a;
	out->f[out->nf++] = *f;
	return 0;
}

static int add_session(struct record_file *out, struct record_session *s)
{
	struct record_session **a = realloc(out->s, (out->ns + 1) * sizeof(*a));

	if (!a)
		return -1;
	out->s = a;
	out->s[out->ns++] = s;
	return 0;
}

/* The block at @p (@n bytes left): its length, or 0 when it is not an intact block. */
static size_t block_at(struct record_file *out, ZSTD_DCtx *dctx, const uint8_t *p, size_t n,
		       int *oom)
{
	uint32_t clen, rlen;
	uint8_t *raw;
	size_t got;
	int ok = -1;

	if (n < BLOCK_HEAD || memcmp(p, BLOCK_MAGIC, 4))
		return 0;
	clen = get32(p + 5);
	rlen = get32(p + 9);
	if (clen > n - BLOCK_HEAD || clen > CLEN_MAX || rlen > RAW_MAX ||
	    block_crc(p, p + BLOCK_HEAD, clen) != get32(p + 13))
		return 0;
	/* An intact block of a kind a later version added: passed over, not counted. */
	if (p[4] != 'H' && p[4] != 'F')
		return BLOCK_HEAD + clen;
	raw = malloc(rlen ? rlen : 1);
	if (!raw) {
		*oom = 1;
		return 0;
	}
	if (p[4] == 'F' && out->ns) {
		const struct record_session *s = out->s[out->ns - 1];

		got = ZSTD_decompress_usingDict(dctx, raw, rlen, p + BLOCK_HEAD, clen, s->dict,
						s->dictlen);
	} else {
		got = ZSTD_decompressDCtx(dctx, raw, rlen, p + BLOCK_HEAD, clen);
	}
	if (!ZSTD_isError(got) && got == rlen) {
		if (p[4] == 'H') {
			struct record_session *s = head_decode(raw, rlen);

			if (s && add_session(out, s) == 0)
				ok = 0;
			else
				session_free(s);
		} else if (out->ns) {
			struct record_frame f;

			if (frame_decode(out->s[out->ns - 1], out->ns - 1, out->version, raw, rlen,
					 &f) == 0) {
				if (out->each) {
					out->stopped = out->each(&f, out->arg) != 0;
					frame_free(&f);
					ok = 0;
				} else if (add_frame(out, &f) == 0) {
					ok = 0;
				} else {
					frame_free(&f);
				}
			}
		}
	}
	free(raw);
	return ok == 0 ? BLOCK_HEAD + clen : 0;
}

/*
 * Could @p (@n bytes, the last read so far) begin an intact block that is
 * not all there yet?  A stream is read on before deciding.
 */
static bool block_partial(const uint8_t *p, size_t n)
{
	if (n < BLOCK_HEAD)
		return !memcmp(p, BLOCK_MAGIC, n < 4 ? n : 4);
	return !memcmp(p, BLOCK_MAGIC, 4) && get32(p + 5) <= CLEN_MAX &&
	       get32(p + 5) > n - BLOCK_HEAD;
}

/* A decoding under way: of a whole file in memory, or of a stream read piece by piece. */
struct decoding {
	struct record_file *out;
	ZSTD_DCtx *dctx;
	bool garbage;                   /* in a torn or corrupt stretch */
	int oom;
};

/*
 * The file head in @buf (@len bytes, FILE_HEAD of them when it is one).  0,
 * or -2 with a message: not a recording this lattop reads.
 */
static int decoding_start(struct decoding *d, const uint8_t *buf, size_t len,
			  struct record_file *out, record_each_fn each, void *arg,
			  char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	memset(out, 0, sizeof(*out));
	d->out = out;
	out->each = each;
	out->arg = arg;
	if (len < FILE_HEAD || memcmp(buf, FILE_MAGIC, 8) || get32(buf + 8) == 0) {
		snprintf(err, errlen, "not a lattop recording");
		return -2;
	}
	if (get32(buf + 8) > RECORD_VERSION) {
		snprintf(err, errlen, "a recording of format version %u: this lattop reads version %d "
			 "and older", get32(buf + 8), RECORD_VERSION);
		return -2;
	}
	out->version = get32(buf + 8);
	d->dctx = ZSTD_createDCtx();
	d->oom = !d->dctx;
	return 0;
}

/*
 * The blocks in @buf[0..@len): how many bytes were used.  With more to
 * come (!@eof), a block cut short at the end is left for the next call, as
 * are the last 3 bytes of a corrupt stretch (they may begin a block).
 */
static size_t decode_blocks(struct decoding *d, const uint8_t *buf, size_t len, bool eof)
{
	size_t pos = 0;

	while (pos < len && !d->oom && !d->out->stopped) {
		size_t n = len - pos, k;
		const uint8_t *next;

		if (!eof && block_partial(buf + pos, n))
			break;
		k = block_at(d->out, d->dctx, buf + pos, n, &d->oom);
		if (k) {
			pos += k;
			d->garbage = false;
			continue;
		}
		if (!d->garbage)
			d->out->skipped++;
		d->garbage = true;
		next = n > 1 ? memmem(buf + pos + 1, n - 1, BLOCK_MAGIC, 4) : NULL;
		if (next) {
			pos = (size_t)(next - buf);
		} else if (eof) {
			pos = len;
		} else {
			if (n > 3)
				pos = len - 3;
			break;
		}
	}
	return pos;
}

/* 0; -1 with a message (out of memory), or -2 (no intact header: not a recording to read). */
static int decoding_end(struct decoding *d, char *err, size_t errlen)
{
	ZSTD_freeDCtx(d->dctx);
	if (d->oom) {
		record_file_free(d->out);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!d->out->ns) {
		record_file_free(d->out);
		snprintf(err, errlen, "a lattop recording without an intact header");
		return -2;
	}
	return 0;
}

int record_decode(const uint8_t *buf, size_t len, struct record_file *out,
		  char *err, size_t errlen)
{
	return record_decode_each(buf, len, out, NULL, NULL, err, errlen);
}

/* A whole file in memory: 0, -1 (out of memory) or -2 (not a recording to read). */
static int decode_whole(const uint8_t *buf, size_t len, struct record_file *out,
			record_each_fn each, void *arg, char *err, size_t errlen)
{
	struct decoding d;
	int rc = decoding_start(&d, buf, len, out, each, arg, err, errlen);

	if (rc < 0)
		return rc;
	decode_blocks(&d, buf + FILE_HEAD, len - FILE_HEAD, true);
	return decoding_end(&d, err, errlen);
}

int record_decode_each(const uint8_t *buf, size_t len, struct record_file *out,
		       record_each_fn each, void *arg, char *err, size_t errlen)
{
	return decode_whole(buf, len, out, each, arg, err, errlen) < 0 ? -1 : 0;
}

/*
 * A pipe or a device, read as it comes: the file head first, so that what
 * is not a recording (/dev/zero) is refused after 12 bytes, then block by
 * block, holding at most one block and what is being read.
 */
static int load_stream(FILE *f, struct record_file *out, record_each_fn each, void *arg,
		       char *err, size_t errlen)
{
	uint8_t head[FILE_HEAD];
	struct record_buf b = { 0 };
	struct decoding d;
	size_t k;
	bool eof = false;
	int rc;

	errno = 0;
	k = fread(head, 1, sizeof(head), f);
	if (ferror(f)) {
		snprintf(err, errlen, "%s", strerror(errno ? errno : EIO));
		return open_error(errno);
	}
	if ((rc = decoding_start(&d, head, k, out, each, arg, err, errlen)) < 0)
		return rc;
	while (!eof && !d.oom && !out->stopped) {
		uint8_t chunk[65536];
		size_t used;

		k = fread(chunk, 1, sizeof(chunk), f);
		eof = k < sizeof(chunk);
		buf_put(&b, chunk, k);
		if (b.oom) {
			d.oom = 1;
			break;
		}
		if (!b.n)
			continue;
		used = decode_blocks(&d, b.p, b.n, eof);
		memmove(b.p, b.p + used, b.n - used);
		b.n -= used;
	}
	buf_free(&b);
	if (ferror(f) && !d.oom) {
		ZSTD_freeDCtx(d.dctx);
		record_file_free(out);
		snprintf(err, errlen, "%s", strerror(EIO));
		return -1;
	}
	return decoding_end(&d, err, errlen);
}

int record_load(const char *path, struct record_file *out, char *err, size_t errlen)
{
	return record_load_each(path, out, NULL, NULL, err, errlen);
}

int record_load_each(const char *path, struct record_file *out, record_each_fn each, void *arg,
		     char *err, size_t errlen)
{
	char m[200];
	FILE *f = fopen(path, "rb");
	struct stat st;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!f) {
		snprintf(err, errlen, "--replay %s: %s", path, strerror(errno));
		return open_error(errno);
	}
	/* A file is mapped, not copied; a pipe is read as it comes. */
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fileno(f), 0);

		if (p != MAP_FAILED) {
			fclose(f);
			rc = decode_whole(p, (size_t)st.st_size, out, each, arg, m, sizeof(m));
			munmap(p, (size_t)st.st_size);
			if (rc < 0)
				snprintf(err, errlen, "--replay %s: %s", path, m);
			return rc;
		}
	}
	rc = load_stream(f, out, each, arg, m, sizeof(m));
	fclose(f);
	if (rc < 0)
		snprintf(err, errlen, "--replay %s: %s", path, m);
	return rc;
}

void record_file_free(struct record_file *f)
{
	for (int i = 0; i < f->nf; i++)
		frame_free(&f->f[i]);
	free(f->f);
	for (int i = 0; i < f->ns; i++)
		session_free(f->s[i]);
	free(f->s);
	memset(f, 0, sizeof(*f));
}

/* ---- command-line values ---- */

/* "14:05" or "14:05:30" at @p: seconds into the day, or -1. */
static int clock_at(const char *p, const char **end)
{
	int h, m, s = 0, n = 0;

	if (sscanf(p, "%2d:%2d%n", &h, &m, &n) != 2 || n != 5)
		return -1;
	p += n;
	if (*p == ':') {
		int k = 0;

		if (sscanf(p + 1, "%2d%n", &s, &k) != 1 || k != 2)
			return -1;
		p += 3;
	}
	if (h > 23 || m > 59 || s > 60)
		return -1;
	*end = p;
	return h * 3600 + m * 60 + s;
}

int record_parse_time(const char *s, double first, double *out, char *err, size_t errlen)
{
	static const char why[] = "not a time: seconds since the epoch, \"YYYY-MM-DD HH:MM[:SS]\", "
				  "\"HH:MM[:SS]\" or \"+SECONDS\" after the first snapshot";
	const char *end = s;
	struct tm tm;
	int y, mo, d, n = 0, secs;
	char *e;

	if (*s == '+' || (*s >= '0' && *s <= '9' && !strchr(s, ':') && !strchr(s, '-'))) {
		double v;

		if (strspn(s + (*s == '+'), "0123456789.") != strlen(s + (*s == '+')) ||
		    !s[*s == '+'])
			goto bad;
		v = strtod(s + (*s == '+'), &e);
		if (*e || !isfinite(v))
			goto bad;
		*out = *s == '+' ? first + v : v;
		return 0;
	}
	memset(&tm, 0, sizeof(tm));
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) == 3 && n == 10) {
		if (s[10] != ' ' && s[10] != 'T')
			goto bad;
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
		s += 11;
	} else {
		time_t t = (time_t)first;

		localtime_r(&t, &tm);
	}
	secs = clock_at(s, &end);
	if (secs < 0 || *end || tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31)
		goto bad;
	tm.tm_hour = secs / 3600;
	tm.tm_min = secs / 60 % 60;
	tm.tm_sec = secs % 60;
	tm.tm_isdst = -1;
	*out = (double)mktime(&tm);
	return 0;
bad:
	snprintf(err, errlen, "%s", why);
	return -1;
}

int record_parse_size(const char *s, long long *out, char *err, size_t errlen)
{
	char *e;
	unsigned long long v;
	int shift = 0;

	if (*s < '0' || *s > '9')
		goto bad;
	errno = 0;
	v = strtoull(s, &e, 10);
	if (*e == 'k' || *e == 'K')
		shift = 10;
	else if (*e == 'm' || *e == 'M')
		shift = 20;
	else if (*e == 'g' || *e == 'G')
		shift = 30;
	if (shift)
		e++;
	if (errno || *e || v == 0 || v > (1ull << 50) >> shift)
		goto bad;
	*out = (long long)(v << shift);
	if (*out < 4096) {
		snprintf(err, errlen, "at least 4096 bytes (4k)");
		return -1;
	}
	return 0;
bad:
	snprintf(err, errlen, "not a size: bytes, or a number with k, M or G (either case)");
	return -1;
}
