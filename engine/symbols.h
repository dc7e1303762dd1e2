/*
 * symbols.h: code addresses of sampled processes as "function+0xOFF".
 *
 * The side-band records (PERF_RECORD_MMAP2, FORK, EXIT) keep a map from
 * (pid, address) to the executable mapping and its binary; a process seen
 * before its mappings were told (it was running when sampling began) is
 * read once from /proc/PID/maps, as perf synthesizes them.  Each binary's
 * symbol table is loaded once, with elfutils' libelf (.symtab, else
 * .dynsym), and an address in it is "function+0xOFF", or in a stripped
 * binary "binary+0xOFF" (the file offset).  Bounded: SYMBOLS_PROCS
 * processes of SYMBOLS_MAPS executable mappings each (the oldest process
 * gives way), SYMBOLS_BINS binaries' tables (the least recently used is
 * dropped); one table is as large as its binary's.
 */
#ifndef LATTOP_SYMBOLS_H
#define LATTOP_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#define SYMBOLS_PROCS 256
#define SYMBOLS_MAPS 64
#define SYMBOLS_BINS 32
#define SYMBOLS_PATH 256

struct symbols;

struct symbols *symbols_new(void);
void symbols_free(struct symbols *s);

/* An executable mapping of @pid (PERF_RECORD_MMAP2 with PROT_EXEC). */
void symbols_mmap(struct symbols *s, int pid, uint64_t start, uint64_t len, uint64_t pgoff,
		  const char *path);
/* PERF_RECORD_FORK of a process: @pid starts with @ppid's mappings. */
void symbols_fork(struct symbols *s, int pid, int ppid);
/* PERF_RECORD_EXIT of a process, or an exec (COMM with the exec flag): its mappings go. */
void symbols_forget(struct symbols *s, int pid);

/*
 * @ip of @pid as "function+0xOFF" or "binary+0xOFF" into @buf; "" when no
 * mapping holds it.  Returns @buf.
 */
const char *symbols_resolve(struct symbols *s, int pid, uint64_t ip, char *buf, size_t len);

/*
 * Where /proc is (tests); "/proc" unless changed; "": nowhere (the
 * simulated kernel's processes are not this machine's: the side-band only).
 */
void symbols_set_proc(struct symbols *s, const char *proc);

#endif
