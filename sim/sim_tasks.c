/*
 * sim_tasks.c: the simulated machine's tasks, for the simulated kernel
 * (sim_kernel.c): the processes and threads of the profile's lines, their
 * lives, the side-band records the kernel writes of them, and where their
 * memory is (physical addresses, NUMA nodes and the kernel's files that
 * say so).
 *
 * The tasks are the profile's: the processes of its lines (the pid, its
 * main thread, always) and their threads (the TIDs of the accesses), each
 * thread running on CPU TID % cpus all the time, there before the kernel
 * opens or from its line's start=, a process ending at its line's exit=.
 * A process that starts tells the events of its main thread's CPU that
 * ask for it, as the kernel's side-band does (perf_event_task,
 * perf_event_comm, perf_event_mmap: K61 kernel/events/core.c): FORK, then
 * COMM with the exec flag, then MMAP2 of its exe= (the exec maps the
 * binary after naming the task); one that ends, EXIT.  A process running
 * before the open is told nothing here (the kernel's side-band starts at
 * the open; perf synthesizes the rest from /proc, which is not this
 * machine's).  Times are seconds since the kernel opened.  Owns no event:
 * what an event is told, the kernel decides.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <linux/perf_event.h>

#include "sim/sim_internal.h"

void sim_task_life(const struct sim_profile *p, int pid, double *from, double *to)
{
	*from = *to = 0;
	for (int i = 0; i < p->nlines; i++) {
		const struct sim_line *l = &p->lines[i];

		if (l->pid != pid)
			continue;
		if (l->exit_s > 0 && (!*to || l->exit_s < *to))
			*to = l->exit_s;
		if (l->start_s > *from)
			*from = l->start_s;
	}
}

int sim_task_pid(const struct sim_profile *p, int tid, double t)
{
	for (int i = 0; i < p->nlines; i++) {
		const struct sim_line *l = &p->lines[i];
		bool his = l->pid == tid;

		for (int j = 0; !his && j < l->nacc; j++)
			his = l->acc[j].tid == tid;
		if (his) {
			double from, to;

			sim_task_life(p, l->pid, &from, &to);
			return t < from || (to && t >= to) ? 0 : l->pid;
		}
	}
	return 0;
}

/* Is access @j of line @i the first of its thread among process @pid's? */
static bool first_access(const struct sim_profile *p, int pid, int i, int j)
{
	int tid = p->lines[i].acc[j].tid;

	if (tid == pid)
		return false;           /* the main thread, told first */
	for (int a = 0; a <= i; a++)
		for (int b = 0; p->lines[a].pid == pid && b < (a < i ? p->lines[a].nacc : j); b++)
			if (p->lines[a].acc[b].tid == tid)
				return false;
	return true;
}

int sim_tasks(const struct sim_profile *p, int pid, double t, int *tids, int max)
{
	int n = 1;

	if (pid <= 0 || sim_task_pid(p, pid, t) != pid)
		return -ESRCH;
	if (max > 0)
		tids[0] = pid;
	for (int i = 0; i < p->nlines; i++)
		for (int j = 0; p->lines[i].pid == pid && j < p->lines[i].nacc; j++)
			if (first_access(p, pid, i, j)) {
				if (n < max)
					tids[n] = p->lines[i].acc[j].tid;
				n++;
			}
	return n;
}

double sim_task_seen(const struct sim_profile *p, const struct sim_line *l, double a, double b)
{
	double from, to;

	sim_task_life(p, l->pid, &from, &to);
	if (from > a)
		a = from;
	if (to && to < b)
		b = to;
	return b > a ? b - a : 0;
}

void sim_task_sideband(const struct sim_profile *p, int cpu, int ncpus, double a, double b,
		       double t0, unsigned want, sim_record_fn fn, void *arg)
{
	for (int i = 0; i < p->nlines; i++) {
		const struct sim_line *l = &p->lines[i];
		double from, to;
		bool first = true;

		for (int j = 0; j < i && first; j++)
			first = p->lines[j].pid != l->pid;
		if (!first || l->pid % ncpus != cpu)
			continue;
		sim_task_life(p, l->pid, &from, &to);
		if (from > a && from <= b) {
			/* FORK and EXIT: { u32 pid, ppid, tid, ptid; u64 time } (perf_event_task_output) */
			struct { struct perf_event_header h; uint32_t pid, ppid, tid, ptid; uint64_t time; }
				f = { { PERF_RECORD_FORK, 0, sizeof(f) }, (uint32_t)l->pid, 1,
				      (uint32_t)l->pid, 1, (uint64_t)((t0 + from) * 1e9) };
			/* COMM: { u32 pid, tid; char comm[] } padded to 8 (perf_event_comm_output) */
			struct { struct perf_event_header h; uint32_t pid, tid; char comm[16]; } c = {
				{ PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, sizeof(c) },
				(uint32_t)l->pid, (uint32_t)l->pid, { 0 },
			};
			/*
			 * MMAP2: { u32 pid, tid; u64 addr, len, pgoff; u32 maj, min; u64 ino,
			 * ino_generation; u32 prot, flags; char filename[] } (perf_event_mmap_output)
			 */
			struct { struct perf_event_header h; uint32_t pid, tid; uint64_t addr, len, pgoff;
				 uint32_t maj, min; uint64_t ino, gen; uint32_t prot, flags;
				 char name[sizeof(l->exe)]; } m = {
				{ PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 0 }, (uint32_t)l->pid,
				(uint32_t)l->pid, SIM_EXE_BASE, SIM_EXE_LEN, 0, 0, 0, 0, 0,
				PROT_READ | PROT_EXEC, MAP_PRIVATE, { 0 },
			};

			if (want & SIM_SB_TASK)
				fn(arg, &f, sizeof(f));
			memcpy(c.comm, l->comm, sizeof(c.comm));
			if (want & SIM_SB_COMM)
				fn(arg, &c, sizeof(c));
			memcpy(m.name, l->exe, sizeof(m.name));
			/* the name padded to 8 bytes with its NUL (perf_event_mmap_event) */
			m.h.size = (uint16_t)(offsetof(__typeof__(m), name) + ((strlen(l->exe) + 8) & ~7u));
			if ((want & SIM_SB_MMAP2) && l->exe[0])
				fn(arg, &m, m.h.size);
		}
		if (to && to > a && to <= b && (want & SIM_SB_TASK)) {
			struct { struct perf_event_header h; uint32_t pid, ppid, tid, ptid; uint64_t time; }
				x = { { PERF_RECORD_EXIT, 0, sizeof(x) }, (uint32_t)l->pid, 1,
				      (uint32_t)l->pid, 1, (uint64_t)((t0 + to) * 1e9) };

			fn(arg, &x, sizeof(x));
		}
	}
}

/*
 * Memory: node N's is [(N + 1) << SIM_NODE_SHIFT, (N + 2) << SIM_NODE_SHIFT),
 * a frame made up from the page and the pid, the offset in the page kept.
 */
#define SIM_NODE_SHIFT  38
#define SIM_BLOCK_BYTES 0x8000000ULL    /* memory_block_size_bytes(): 128 MiB on x86-64 */

uint64_t sim_phys(uint64_t addr, int pid, int node)
{
	if (node < 0)
		return 0;       /* not translated: the kernel writes 0 */
	return ((uint64_t)(node + 1) << SIM_NODE_SHIFT) |
	       ((((addr >> 12) ^ (uint64_t)pid) & 0x3ffffffULL) << 12) | (addr & 0xfff);
}

int sim_node_file(const struct sim_profile *p, const char *rest, char *buf, size_t len)
{
	int nodes = p->packages > 1 ? p->packages : 1;
	unsigned long long blk;
	int node, at = 0;

	if (!strcmp(rest, "memory/block_size_bytes"))
		return snprintf(buf, len, "%llx\n", SIM_BLOCK_BYTES);
	if (!strcmp(rest, "node/online"))
		return nodes > 1 ? snprintf(buf, len, "0-%d\n", nodes - 1) : snprintf(buf, len, "0\n");
	if (sscanf(rest, "node/node%d/memory%llu/phys_index%n", &node, &blk, &at) == 2 &&
	    !rest[at] && node >= 0 && node < nodes &&
	    (blk * SIM_BLOCK_BYTES) >> SIM_NODE_SHIFT == (unsigned long long)node + 1)
		return snprintf(buf, len, "%08llx\n", blk);
	return -ENOENT;
}
