/*
 * fuzz_record.c: libFuzzer harness for the recording reader (record/record.c).
 *
 * Owns nothing but the harness.  Each input is read twice: as a whole
 * recording file by record_decode(), and as the raw content of one frame,
 * wrapped here (by the format of record.c's top comment, with zstd and
 * zlib's crc32) after a valid header, so that the fuzzer reaches the frame
 * decoder past the checksum.  Every frame the reader accepts is then
 * printed through report_write() in the three formats, so that a value the
 * reader let through (a count, a string, a threshold) cannot upset the
 * writers either.  Besides the sanitizers' findings it aborts when a
 * refusal comes without a message.  Touches no file.
 *
 * Build: make tests/fuzz/fuzz_record (clang -fsanitize=fuzzer,address,undefined).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include "record/record.h"
#include "output/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct out {
	uint8_t *p;
	size_t n, cap;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->n + n > o->cap) {
		o->cap = (o->n + n) * 2;
		o->p = realloc(o->p, o->cap);
		if (!o->p)
			abort();
	}
	memcpy(o->p + o->n, p, n);
	o->n += n;
}

static void put_u(struct out *o, uint64_t v)
{
	do {
		uint8_t b = (uint8_t)((v & 0x7f) | (v >> 7 ? 0x80 : 0));

		put(o, &b, 1);
		v >>= 7;
	} while (v);
}

static void put_s(struct out *o, const char *s)
{
	put_u(o, strlen(s));
	put(o, s, strlen(s));
}

static void put32(struct out *o, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	put(o, b, 4);
}

static void block(struct out *o, char kind, const uint8_t *raw, size_t n)
{
	size_t bound = ZSTD_compressBound(n);
	uint8_t *c = malloc(bound), head[9];
	size_t clen = ZSTD_compress(c, bound, raw, n, 1);
	uLong crc;

	if (ZSTD_isError(clen))
		abort();
	head[0] = (uint8_t)kind;
	for (int i = 0; i < 4; i++) {
		head[1 + i] = (uint8_t)(clen >> (8 * i));
		head[5 + i] = (uint8_t)(n >> (8 * i));
	}
	crc = crc32(crc32(0L, Z_NULL, 0), head, 9);
	crc = crc32(crc, c, (uInt)clen);
	put(o, "LTBK", 4);
	put(o, head, 9);
	put32(o, (uint32_t)crc);
	put(o, c, clen);
	free(c);
}

static void print_all(const struct record_file *rf)
{
	static char buf[1 << 16];

	for (int i = 0; i < rf->nf; i++)
		for (int fmt = 0; fmt < 3; fmt++) {
			FILE *f = fmemopen(buf, sizeof(buf), "w");

			if (!f)
				abort();
			report_write(f, (enum report_format)fmt, &rf->f[i].rep, i == 0);
			fclose(f);
		}
}

static void decode(const uint8_t *p, size_t n)
{
	struct record_file rf;
	char err[256];

	err[0] = 0;
	if (record_decode(p, n, &rf, err, sizeof(err)) < 0) {
		if (!err[0]) {
			fprintf(stderr, "fuzz_record: refused without a message\n");
			abort();
		}
		return;
	}
	print_all(&rf);
	record_file_free(&rf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct out h = { 0 }, f = { 0 };

	decode(data, size);

	/* A header of the format's own, then the input as a frame. */
	put_s(&h, "simulator");
	put_s(&h, "GenuineIntel");
	put_u(&h, 6);
	put_u(&h, 60);
	put_u(&h, 3);
	put_s(&h, "Intel(R) fuzzed");
	put_u(&h, 0);
	put_s(&h, "haswell");
	put_s(&h, "Haswell");
	put_s(&h, "haswell");
	put_u(&h, 1);
	put_s(&h, "");
	put_u(&h, 3);
	put_u(&h, 4);
	put_u(&h, 48);
	put_u(&h, 3);
	put_u(&h, 48);
	put_u(&h, 2);
	put_u(&h, 8);
	put_u(&h, 64);
	put_s(&h, "# plan\n");
	put_u(&h, 2);
	put_s(&h, "other_core");
	put_s(&h, "a reason");
	put_u(&h, 0);           /* no dictionary */
	/* The current version: its frames hold the most (the contended lines from version 3). */
	{
		uint8_t fh[12] = "LATTOPRC";

		fh[8] = RECORD_VERSION;
		put(&f, fh, sizeof(fh));
	}
	block(&f, 'H', h.p, h.n);
	block(&f, 'F', data, size);
	decode(f.p, f.n);
	free(h.p);
	free(f.p);
	return 0;
}
