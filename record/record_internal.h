/*
 * record_internal.h: what the files of record/ share, and nothing outside
 * record/ may include: the bytes of the format (varints, strings, the
 * reading position), which record.c owns, and the frame's optional
 * sections, each in a file of its own (record_sharing.c: the contended lines).
 */
#ifndef LATTOP_RECORD_INTERNAL_H
#define LATTOP_RECORD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/sharing.h"
#include "record/record.h"

/* ---- bytes (record.c) ---- */

void buf_put(struct record_buf *b, const void *p, size_t n);
/* An unsigned LEB128 varint. */
void buf_u(struct record_buf *b, uint64_t v);
/* A varint length, then the bytes. */
void buf_s(struct record_buf *b, const char *s);

/* A reading position; @bad once anything was out of bounds or malformed. */
struct cur {
	const uint8_t *p;
	size_t n, off;
	bool bad;
};

uint64_t cur_u(struct cur *c);
/* A zigzag varint. */
int64_t cur_z(struct cur *c);
/* A varint of at most @max (else @bad). */
unsigned cur_small(struct cur *c, unsigned max);
/* A string, as a new allocation (NUL-terminated; a NUL inside ends it). */
char *cur_s(struct cur *c);

/* ---- the contended lines of a frame (record_sharing.c; version 3) ---- */

/* @fr after the total's metrics, in the frame's structure. */
void record_sharing_put(struct record_buf *b, const struct sharing_frame *fr);
/* The same read back into @fr; @c->bad when it is malformed. */
void record_sharing_get(struct cur *c, struct sharing_frame *fr);

#endif
