/*
 * sharing_sampler.c: sampling the contended lines through
 * perf_event_open(2) (see sharing_sampler.h).
 *
 * Owns which sampling events are opened per family, their rings and
 * periods, and the decoding of each record into the line table.  Does not
 * count (perf_sampler.c) nor decide what a line's verdict is (lines.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "cpu/events.h"
#include "cpu/perf_attr.h"
#include "engine/sharing_sampler.h"
#include "engine/symbols.h"

/*
 * What a family samples beside its load-latency row: the kernel's
 * "mem-stores" alias (K61 arch/x86/events/intel/core.c: mem_st_snb
 * "event=0xcd,umask=0x2", mem_st_hsw "event=0xd0,umask=0x82"; none on
 * Nehalem and Westmere), whether the load event needs the auxiliary
 * leader 0x8203 (PMU_FL_MEM_LOADS_AUX, K612 intel_pmu_init's
 * sapphire_rapids case; pmu-facts 9.3, 9.7), and whether its precise
 * retired-load events sample the data address (Data_LA, Haswell on:
 * pmu-facts 4.3, 10.5; Sandy and Ivy Bridge's do not), so that the
 * table's HITM rows (snoop_row) are sample sources.  Haswell's table
 * counts the package's HITM through an offcore response, which samples
 * no address: its MEM_LOAD_UOPS_L3_HIT_RETIRED.XSNP_HITM (0xD2/0x04,
 * PEBS, Data_LA, pmu-facts 4.3) is named here.
 */
struct sharing_family {
	const char *uarch;
	uint64_t store_config;
	bool loads_aux;
	bool datala;
	uint64_t hitm_config;           /* when the table has no retired-load HITM row */
};

static const struct sharing_family families[] = {
	{ "sandybridge", 0x02cd, false, false, 0 },
	{ "ivybridge", 0x02cd, false, false, 0 },
	{ "haswell", 0x82d0, false, true, 0x04d2 },
	{ "broadwell", 0x82d0, false, true, 0x04d2 },
	{ "skylake", 0x82d0, false, true, 0 },
	{ "icelake", 0x82d0, false, true, 0 },
	/* Tiger Lake's 0xD2/0x04 adds clean forwards: no HITM row (UARCH_F_XSNP_HITM) */
	{ "tigerlake", 0x82d0, false, true, 0 },
	{ "rocketlake", 0x82d0, false, true, 0 },
	{ "sapphirerapids", 0x82d0, true, true, 0 },
	{ "emeraldrapids", 0x82d0, true, true, 0 },
	/* the granite_rapids case has no PMU_FL_MEM_LOADS_AUX (pmu-facts 9.9) */
	{ "graniterapids", 0x82d0, false, true, 0 },
	/*
	 * The hybrids' core types, each on its own PMU (K612 core.c:
	 * mem_ld_adl "event=0xd0,umask=0x5,ldlat=3;event=0xcd,umask=0x1,ldlat=3",
	 * mem_st_adl "event=0xd0,umask=0x6;event=0xcd,umask=0x2", small;big).
	 * The aux leader on the alderlake_hybrid cpu_core alone (hybrid_big),
	 * none in the meteorlake_hybrid and lunarlake_hybrid cases (pmu-facts
	 * 9.3, 9.9); Arrow Lake-H's cpu_lowpower takes the E-core's strings
	 * (K618 mem_st_arl_h "...;event=0xd0,umask=0x6", ML-ARLH).  No snoop
	 * events (datala false): lattop samples none on the E-cores, and a
	 * snoop event counts a HITM for every CPU or for none (hitm_ev), so a
	 * hybrid's HITM is the load latency's, a lower bound, said.
	 */
	{ "goldencove", 0x02cd, true, false, 0 },
	{ "raptorcove", 0x02cd, true, false, 0 },
	{ "redwoodcove", 0x02cd, false, false, 0 },
	{ "gracemont", 0x06d0, false, false, 0 },
	{ "crestmont", 0x06d0, false, false, 0 },
	{ "lioncove", 0x02cd, false, false, 0 },
	{ "skymont", 0x06d0, false, false, 0 },
	{ "crestmont-lpe", 0x06d0, false, false, 0 },
	{ NULL, 0, false, false, 0 },
};

/*
 * The table's retired-load row for @metric (M_SNOOP_HITM, M_SNOOP_REMOTE_HITM)
 * this CPU has (@flags): a general-purpose event, no offcore response,
 * which PEBS can sample.  NULL: none.
 */
static const struct pmu_event *snoop_row(const struct uarch *u, unsigned flags, enum metric metric)
{
	for (const struct pmu_event *e = u->table ? u->table->events : NULL; e && e->name; e++)
		if (e->metric == metric && !e->offcore && !e->ldlat && e->fixed == PMU_FIXED_NONE &&
		    (e->needs & flags) == e->needs)
			return e;
	return NULL;
}

#define AUX_CONFIG 0x8203       /* LD_BLOCKS.STORE_FORWARD (pmu-facts 9.3) */

#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
	PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC)

void sharing_frame_unsupported(struct sharing_frame *f, const char *why)
{
	memset(f, 0, sizeof(*f));
	f->supported = false;
	snprintf(f->reason, sizeof(f->reason), "%s", why);
}

static const struct pmu_event *ldlat_row(const struct uarch *u)
{
	for (const struct pmu_event *e = u->table ? u->table->events : NULL; e && e->name; e++)
		if (e->ldlat)
			return e;
	return NULL;
}

/*
 * What a read of a sampling event gives: its times, and the samples it
 * lost (PERF_FORMAT_LOST) where the kernel has it: those are counted at
 * the read, in the interval they were lost, where a LOST record comes
 * only with the next record that fits (pmu-facts 10.5), in the interval
 * after when the ring was full.
 */
static uint64_t read_format(const struct sharing_sampler *s)
{
	return PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
	       (s->lost_by_read ? PERF_FORMAT_LOST : 0);
}

/* Open one sampling event; PHYS_ADDR is dropped when the kernel refuses it (perf_allow_kernel). */
static int open_sampling(struct sharing_sampler *s, struct perf_event_attr *a, pid_t pid, int cpu,
			 int group, unsigned long flags)
{
	int fd;

	a->sample_type = s->sample_type;
	fd = perfdev_open_event(s->dev, a, pid, cpu, group, flags);
	if ((fd == -EACCES || fd == -EINVAL) && (s->sample_type & PERF_SAMPLE_PHYS_ADDR)) {
		s->sample_type &= ~(uint64_t)PERF_SAMPLE_PHYS_ADDR;
		a->sample_type = s->sample_type;
		fd = perfdev_open_event(s->dev, a, pid, cpu, group, flags);
	}
	/* PERF_FORMAT_LOST is Linux 6.0's: before it, the LOST records alone */
	if (fd == -EINVAL && (a->read_format & PERF_FORMAT_LOST)) {
		s->lost_by_read = false;
		a->read_format = read_format(s);
		fd = perfdev_open_event(s->dev, a, pid, cpu, group, flags);
	}
	/* precise_ip 2 (the eventing IP) where the PMU has it, else 1 (x86_pmu_max_precise) */
	if (fd == -EOPNOTSUPP && a->precise_ip > 1) {
		a->precise_ip = 1;
		fd = perfdev_open_event(s->dev, a, pid, cpu, group, flags);
	}
	return fd;
}

static int map_ring(struct sharing_sampler *s, struct sharing_ev *ev)
{
	size_t len = (size_t)(1 + SHARING_RING_PAGES) * PERFDEV_PAGE;
	int rc = perfdev_mmap(s->dev, ev->fd, len, &ev->map);

	if (rc < 0)
		return rc;
	ev->ring = malloc(sizeof(*ev->ring));
	if (!ev->ring)
		return -ENOMEM;
	return perf_ring_init(ev->ring, ev->map, len, PERFDEV_PAGE);
}

static void close_ev(struct sharing_sampler *s, struct sharing_ev *ev)
{
	size_t len = (size_t)(1 + SHARING_RING_PAGES) * PERFDEV_PAGE;

	/* the threads writing into this ring first, each before its leader */
	for (int m = 0; m < ev->nmore; m++) {
		perfdev_close_event(s->dev, ev->more[m].fd);
		if (ev->more[m].aux >= 0)
			perfdev_close_event(s->dev, ev->more[m].aux);
	}
	free(ev->more);
	ev->more = NULL;
	ev->nmore = 0;
	if (ev->map)
		perfdev_munmap(s->dev, ev->fd, ev->map, len);
	free(ev->ring);
	if (ev->fd >= 0)
		perfdev_close_event(s->dev, ev->fd);
	ev->map = NULL;
	ev->ring = NULL;
	ev->fd = -1;
}

static void close_all(struct sharing_sampler *s)
{
	for (int c = 0; s->cpu && c < s->ncpu; c++) {
		for (int i = 0; i < SHARING_EV_N; i++)
			close_ev(s, &s->cpu[c].ev[i]);
		if (s->cpu[c].aux_fd >= 0)
			perfdev_close_event(s->dev, s->cpu[c].aux_fd);
		s->cpu[c].aux_fd = -1;
	}
}

int sharing_sampler_init(struct sharing_sampler *s, uint64_t sample_type)
{
	memset(s, 0, sizeof(*s));
	s->sample_type = sample_type;
	s->sym = symbols_new();
	if (!s->sym || lines_init(&s->lines) < 0) {
		symbols_free(s->sym);
		s->sym = NULL;
		return -1;
	}
	return 0;
}

unsigned sharing_sampler_threshold(const struct plan *pl)
{
	unsigned best = SHARING_LDLAT;
	bool found = false;

	for (int i = 0; pl && i < pl->nthresh; i++) {
		unsigned t = pl->thresholds[i];

		if (pl->ldlat_unit[i] < 0 || t < SHARING_LDLAT_MIN)
			continue;
		if (!found || (t > SHARING_LDLAT ? t - SHARING_LDLAT : SHARING_LDLAT - t) <
			      (best > SHARING_LDLAT ? best - SHARING_LDLAT : SHARING_LDLAT - best))
			best = t;
		found = true;
	}
	return best;
}

/*
 * Open kind @kind's event, table row @row (or raw event @raw) on the PMU
 * of attr.type @type, loads above @ldlat for load latency (with the group
 * leader the kernel demands into *@aux, else -1) for task @pid (-1: every
 * task; a cgroup's directory with PERF_FLAG_PID_CGROUP in @flags) on
 * @cpu: its descriptor, or a negative errno.
 */
static int open_one(struct sharing_sampler *s, const struct pmu_event *row, uint64_t raw,
		    const struct sharing_family *fam, unsigned ldlat, uint32_t type, int kind,
		    pid_t pid, int cpu, unsigned long flags, int *aux)
{
	struct perf_event_attr a;
	int group = -1, fd;

	*aux = -1;
	memset(&a, 0, sizeof(a));
	if (row) {
		perf_attr_of(row, kind == SHARING_EV_LOADS ? ldlat : 0, &a);
	} else {
		a.size = sizeof(a);
		a.config = raw;
	}
	a.type = type;
	if (kind == SHARING_EV_LOADS && fam && fam->loads_aux) {
		struct perf_event_attr x = { .size = sizeof(x), .type = type,
					     .config = AUX_CONFIG };

		x.exclude_kernel = a.exclude_kernel;
		x.inherit = s->pid > 0;
		group = perfdev_open_event(s->dev, &x, pid, cpu, -1, flags);
		if (group < 0)
			return group;
	}
	a.sample_period = SHARING_PERIOD;
	a.precise_ip = 2;
	a.read_format = read_format(s);
	/* --pid: the threads a thread creates after the open too, on this CPU's ring */
	a.inherit = s->pid > 0;
	/*
	 * The side-band, on each CPU's load event (the kernel tells a CPU's
	 * events what happens on that CPU, a task's what its task does):
	 * names, executable mappings, forks and exits, for the symbols.
	 */
	a.comm = a.mmap2 = a.task = kind == SHARING_EV_LOADS;
	a.mmap_data = 0;
	fd = open_sampling(s, &a, pid, cpu, group, flags);
	if (fd < 0 && group >= 0)
		perfdev_close_event(s->dev, group);
	else
		*aux = group;
	return fd;
}

/* --pid: the threads of process @pid now, into *@tids (malloc'd): how many, or a negative errno. */
static int task_list(struct perfdev *dev, int pid, int **tids)
{
	int n = perfdev_tasks(dev, pid, NULL, 0), m;

	for (;;) {
		if (n <= 0)
			return n ? n : -ESRCH;
		*tids = malloc(sizeof(**tids) * (size_t)n);
		if (!*tids)
			return -ENOMEM;
		m = perfdev_tasks(dev, pid, *tids, n);
		if (m <= n)
			return m;
		free(*tids);            /* a thread more since: again */
		*tids = NULL;
		n = m;
	}
}

int sharing_sampler_start(struct sharing_sampler *s, struct perfdev *dev, const struct uarch *u,
			  unsigned uflags, unsigned ldlat, const int *cpus, int ncpu, int cgroup_fd,
			  int pid)
{
	struct sharing_types t = { .ntypes = 1, .pmu = { PERF_TYPE_RAW }, .uarch = { u },
				   .flags = { uflags }, .ldlat = { ldlat } };

	return sharing_sampler_start_types(s, dev, &t, cpus, ncpu, cgroup_fd, pid);
}

/* The family row of @u, or NULL: the load-latency event alone. */
static const struct sharing_family *family_of(const struct uarch *u)
{
	for (const struct sharing_family *f = families; f->uarch; f++)
		if (!strcmp(f->uarch, u->name))
			return f;
	return NULL;
}

int sharing_sampler_start_types(struct sharing_sampler *s, struct perfdev *dev,
				const struct sharing_types *ty, const int *cpus, int ncpu,
				int cgroup_fd, int pid)
{
	/* per core type: the rows or raw events of each kind, the family */
	const struct pmu_event *rows[CORE_TYPES_MAX][SHARING_EV_N] = { { NULL } };
	uint64_t raw[CORE_TYPES_MAX][SHARING_EV_N] = { { 0 } };
	const struct sharing_family *fams[CORE_TYPES_MAX] = { NULL };
	unsigned long flags = cgroup_fd >= 0 ? PERF_FLAG_PID_CGROUP : 0;
	int one = cgroup_fd >= 0 ? cgroup_fd : -1, *tids = &one, ntids = 1;
	bool remote_events = false;
	char why[160];
	int rc = 0;

	if (sharing_sampler_init(s, SAMPLE_TYPE | PERF_SAMPLE_PHYS_ADDR) < 0)
		return -1;
	s->dev = dev;
	s->pid = pid > 0 ? pid : 0;
	s->lost_by_read = true;
	s->cpu = calloc((size_t)ncpu, sizeof(*s->cpu));
	if (!s->cpu)
		return -1;
	s->ncpu = ncpu;
	for (int c = 0; c < ncpu; c++) {
		s->cpu[c].aux_fd = -1;
		for (int i = 0; i < SHARING_EV_N; i++) {
			s->cpu[c].ev[i].fd = -1;
			s->cpu[c].ev[i].period = SHARING_PERIOD;
		}
	}
	for (int t = 0; t < ty->ntypes; t++) {
		const struct uarch *u = ty->uarch[t];
		const struct sharing_family *fam = family_of(u);
		const struct pmu_event *row = ldlat_row(u);

		fams[t] = fam;
		if (!row) {
			snprintf(why, sizeof(why), "%s has no load-latency event: no sampled data "
				 "address or data source", u->pretty);
			goto unsupported;
		}
		rows[t][SHARING_EV_LOADS] = row;
		raw[t][SHARING_EV_STORES] = fam ? fam->store_config : 0;
		if (fam && fam->datala) {
			rows[t][SHARING_EV_HITM] = snoop_row(u, ty->flags[t], M_SNOOP_HITM);
			raw[t][SHARING_EV_HITM] = fam->hitm_config;
			rows[t][SHARING_EV_RHITM] = snoop_row(u, ty->flags[t], M_SNOOP_REMOTE_HITM);
		}
		remote_events |= (ty->flags[t] & UARCH_F_REMOTE_EVENTS) != 0;
	}
	/*
	 * A snoop event counts a HITM for every CPU, or for none: where a core
	 * type has none, every type's HITM is the load latency's.
	 */
	for (int i = SHARING_EV_HITM; i < SHARING_EV_N; i++) {
		bool all = true;

		for (int t = 0; t < ty->ntypes; t++)
			all &= rows[t][i] || raw[t][i];
		for (int t = 0; !all && t < ty->ntypes; t++) {
			rows[t][i] = NULL;
			raw[t][i] = 0;
		}
	}
	if (s->pid) {
		ntids = task_list(dev, s->pid, &tids);
		if (ntids == -ENOMEM)
			return -1;
		if (ntids < 0) {
			tids = NULL;
			rc = ntids;
			goto ended;
		}
	}
	for (int c = 0; c < ncpu; c++) {
		struct sharing_cpu *sc = &s->cpu[c];
		int ct = ty->of ? ty->of[c] : 0;

		for (int i = 0; i < SHARING_EV_N; i++) {
			struct sharing_ev *ev = &sc->ev[i];

			if (!rows[ct][i] && !raw[ct][i])
				continue;
			if (ntids > 1) {
				ev->more = calloc((size_t)ntids - 1, sizeof(*ev->more));
				if (!ev->more) {
					rc = -ENOMEM;
					goto refused;
				}
			}
			for (int t = 0; t < ntids; t++) {
				int aux;

				rc = open_one(s, rows[ct][i], raw[ct][i], fams[ct], ty->ldlat[ct],
					      ty->pmu[ct], i, tids[t], cpus[c], flags, &aux);
				if (rc == -ESRCH && s->pid)
					continue;       /* the thread ended since the list */
				if (rc >= 0 && ev->fd >= 0) {
					struct sharing_task_fd *m = &ev->more[ev->nmore++];

					m->fd = rc;
					m->aux = aux;
					rc = perfdev_ioctl(dev, m->fd, PERF_EVENT_IOC_SET_OUTPUT,
							   (unsigned long)ev->fd);
				} else if (rc >= 0) {
					ev->fd = rc;
					if (i == SHARING_EV_LOADS)
						sc->aux_fd = aux;
					rc = map_ring(s, ev);
				}
				if (rc >= 0)
					continue;
				if (i < SHARING_EV_HITM)
					goto refused;
				/*
				 * A snoop event the kernel refuses (its constraints, an
				 * older kernel): the HITM of load latency then, a lower
				 * bound, rather than nothing.
				 */
				for (int o = 0; o <= c; o++)
					close_ev(s, &s->cpu[o].ev[i]);
				for (int o = 0; o < ty->ntypes; o++) {
					rows[o][i] = NULL;
					raw[o][i] = 0;
				}
				break;
			}
			if (!rows[ct][i] && !raw[ct][i])
				continue;
			if (ev->fd < 0) {
				rc = -ESRCH;
				goto ended;
			}
		}
	}
	if (tids != &one)
		free(tids);
	s->hitm_ev = rows[0][SHARING_EV_HITM] || raw[0][SHARING_EV_HITM];
	s->rhitm_ev = rows[0][SHARING_EV_RHITM];
	/* every HITM from an event: the package's, and another package's where there are two */
	s->hitm_lower_bound = !s->hitm_ev || (!s->rhitm_ev && remote_events);
	s->frame.supported = true;
	return 0;
ended:
	snprintf(why, sizeof(why), "process %d (--pid): %s", s->pid,
		 rc == -ESRCH ? "no such process, or it ended" : strerror(-rc));
	goto unsupported;
refused:
	snprintf(why, sizeof(why), "the kernel refused the sampling events: %s", strerror(-rc));
unsupported:
	if (tids != &one)
		free(tids);
	close_all(s);
	sharing_frame_unsupported(&s->frame, why);
	return 0;
}

/* One record of the ring being drained. */
static void on_record(void *arg, const struct perf_event_header *h, size_t len)
{
	struct sharing_sampler *s = arg;
	struct perf_sample smp;
	struct perf_mem m;
	struct lines_access a;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (s->discard || perf_sample_parse(h, len, s->sample_type, &smp) < 0 || !smp.addr)
			return;
		s->samples++;
		s->cur->samples++;
		perf_mem_decode(smp.data_src, &m);
		memset(&a, 0, sizeof(a));
		a.addr = smp.addr;
		a.phys = smp.phys_addr;
		a.ip = smp.ip;
		a.pid = (int)smp.pid;
		a.tid = (int)smp.tid;
		a.cpu = (int)smp.cpu;
		/* the store event's samples are stores whatever their data source says */
		a.store = s->cur_kind == SHARING_EV_STORES || m.store;
		if (s->cur_kind == SHARING_EV_HITM || s->cur_kind == SHARING_EV_RHITM) {
			/* the event implies the snoop; its data source says only "load" (pmu-facts 10.5) */
			a.store = false;
			a.hitm_event = a.hitm = true;
			a.remote = s->cur_kind == SHARING_EV_RHITM;
		} else {
			/*
			 * A load-latency sample's HITM counts where no snoop event
			 * samples that HITM (the package's, another package's):
			 * those count every one, the tagged loads a share of them.
			 */
			a.remote = m.remote;
			a.hitm = !a.store && m.snoop == RING_SNOOP_HITM &&
				 !(a.remote ? s->rhitm_ev : s->hitm_ev);
		}
		a.weight = (double)smp.weight;
		a.period = (double)(smp.period ? smp.period : s->cur->period) * s->cur->scale;
		lines_add(&s->lines, &a);
		break;
	case PERF_RECORD_LOST:
		/* the reads counted them already, where the kernel has PERF_FORMAT_LOST */
		if (!s->lost_by_read && !s->discard)
			s->lost += perf_record_lost(h, len);
		break;
	case PERF_RECORD_THROTTLE:
		if (s->discard)
			break;
		s->throttled++;
		s->cur->throttled = true;
		break;
	case PERF_RECORD_MMAP2:
		/* { u32 pid, tid; u64 addr, len, pgoff; 24 bytes of device or build id; u32 prot, flags; char filename[] } */
		if (len > sizeof(*h) + 64) {
			const unsigned char *p = (const unsigned char *)h + sizeof(*h);
			uint64_t addr, size, pgoff;
			uint32_t pid, prot;
			char path[SYMBOLS_PATH];
			size_t n = len - sizeof(*h) - 64;

			memcpy(&pid, p, 4);
			memcpy(&addr, p + 8, 8);
			memcpy(&size, p + 16, 8);
			memcpy(&pgoff, p + 24, 8);
			memcpy(&prot, p + 56, 4);
			if (n >= sizeof(path))
				n = sizeof(path) - 1;
			memcpy(path, p + 64, n);
			path[n] = '\0';
			if (prot & 4)   /* PROT_EXEC: code, where the IPs are */
				symbols_mmap(s->sym, (int)pid, addr, size, pgoff, path);
		}
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		/* { u32 pid, ppid, tid, ptid; u64 time }: a process, when pid == tid */
		if (len >= sizeof(*h) + 16) {
			uint32_t id[4];

			memcpy(id, (const char *)h + sizeof(*h), sizeof(id));
			if (id[0] != id[2])
				break;
			if (h->type == PERF_RECORD_FORK)
				symbols_fork(s->sym, (int)id[0], (int)id[1]);
			else
				symbols_forget(s->sym, (int)id[0]);
		}
		break;
	case PERF_RECORD_COMM:
		/* an exec replaces the process's mappings: they come again as MMAP2 */
		if (h->misc & PERF_RECORD_MISC_COMM_EXEC && len >= sizeof(*h) + 4) {
			uint32_t pid;

			memcpy(&pid, (const char *)h + sizeof(*h), 4);
			symbols_forget(s->sym, (int)pid);
		}
		if (len > sizeof(*h) + 8) {
			char comm[SHARING_COMM];
			uint32_t pid;
			size_t n = len - sizeof(*h) - 8;

			memcpy(&pid, (const char *)h + sizeof(*h), sizeof(pid));
			if (n >= sizeof(comm))
				n = sizeof(comm) - 1;
			memcpy(comm, (const char *)h + sizeof(*h) + 8, n);
			comm[n] = '\0';
			lines_comm(&s->lines, (int)pid, comm);
		}
		break;
	default:
		/* UNTHROTTLE, and what a side-band may add: nothing to count */
		break;
	}
}

/*
 * A new period for @ev after an interval of @seconds: raised by the
 * ratio when it gave more than SHARING_RATE_MAX a second, at least
 * doubled when the kernel throttled it.
 */
static void adapt(struct sharing_sampler *s, struct sharing_ev *ev, int kind, double seconds)
{
	double rate = seconds > 0 ? ev->samples / seconds : 0;
	uint64_t p = ev->period;

	if (rate > SHARING_RATE_MAX)
		p = (uint64_t)ceil(p * rate / SHARING_RATE_MAX);
	if (ev->throttled && p < 2 * ev->period)
		p = 2 * ev->period;
	if (p != ev->period && perfdev_ioctl(s->dev, ev->fd, PERF_EVENT_IOC_PERIOD,
					     (unsigned long)&p) == 0) {
		ev->period = p;
		for (int m = 0; m < ev->nmore; m++)
			perfdev_ioctl(s->dev, ev->more[m].fd, PERF_EVENT_IOC_PERIOD, (unsigned long)&p);
		/*
		 * What came at the old period between the drain and the new one
		 * (samples, a THROTTLE) is this interval's: read it now, so that
		 * the next interval's throttles are the new period's alone.
		 */
		sharing_sampler_drain(s, ev, kind);
	}
	ev->samples = 0;
	ev->throttled = false;
}

/*
 * The times of @fd since the last read (*@en, *@run) added to *@de,
 * *@dr; the samples it lost since (*@lost) to the interval's.
 */
static void read_times(struct sharing_sampler *s, int fd, uint64_t *en, uint64_t *run,
		       uint64_t *lost, uint64_t *de, uint64_t *dr)
{
	struct perfdev_counts k;

	if (perfdev_read_counts(s->dev, fd, read_format(s), &k) < 0)
		return;
	*de += k.enabled - *en;
	*dr += k.running - *run;
	*en = k.enabled;
	*run = k.running;
	if (s->lost_by_read) {
		s->lost += k.lost[0] - *lost;
		*lost = k.lost[0];
	}
}

const struct sharing_frame *sharing_sampler_interval(struct sharing_sampler *s, double seconds)
{
	char why[96];

	if (!s->frame.supported)
		return &s->frame;
	/* --pid: a process that ended has nothing more to sample; the view says so */
	if (s->pid && perfdev_tasks(s->dev, s->pid, NULL, 0) == -ESRCH) {
		close_all(s);
		snprintf(why, sizeof(why), "process %d (--pid) ended", s->pid);
		sharing_frame_unsupported(&s->frame, why);
		return &s->frame;
	}
	for (int c = 0; c < s->ncpu; c++)
		for (int i = 0; i < SHARING_EV_N; i++) {
			struct sharing_ev *ev = &s->cpu[c].ev[i];
			uint64_t de = 0, dr = 0;

			if (ev->fd < 0)
				continue;
			/*
			 * The times first: the samples in the ring are those of the
			 * time the event ran since the last read (dr), so each stands
			 * for period x interval / dr accesses of the interval: a rate
			 * is samples x period / running, the kernel's own scaling.
			 * A task's events (--pid) are enabled only while their
			 * thread runs on the CPU: each sample stands for period x
			 * enabled / running, summed over the threads' events.
			 */
			ev->scale = 1;
			read_times(s, ev->fd, &ev->enabled, &ev->running, &ev->lost, &de, &dr);
			for (int m = 0; m < ev->nmore; m++)
				read_times(s, ev->more[m].fd, &ev->more[m].enabled, &ev->more[m].running,
					   &ev->more[m].lost, &de, &dr);
			if (dr > 0 && de > 0)
				ev->scale = s->pid ? (double)de / (double)dr : seconds * 1e9 / (double)dr;
			sharing_sampler_drain(s, ev, i);
			adapt(s, ev, i, seconds);
		}
	return sharing_sampler_end(s, seconds);
}

void sharing_sampler_begin(struct sharing_sampler *s)
{
	uint64_t de = 0, dr = 0;

	if (!s->frame.supported)
		return;
	s->discard = true;
	for (int c = 0; c < s->ncpu; c++)
		for (int i = 0; i < SHARING_EV_N; i++) {
			struct sharing_ev *ev = &s->cpu[c].ev[i];

			if (ev->fd < 0)
				continue;
			read_times(s, ev->fd, &ev->enabled, &ev->running, &ev->lost, &de, &dr);
			for (int m = 0; m < ev->nmore; m++)
				read_times(s, ev->more[m].fd, &ev->more[m].enabled, &ev->more[m].running,
					   &ev->more[m].lost, &de, &dr);
			sharing_sampler_drain(s, ev, i);
		}
	s->discard = false;
	s->lost = 0;
}

void sharing_sampler_drain(struct sharing_sampler *s, struct sharing_ev *ev, int kind)
{
	s->cur = ev;
	s->cur_kind = kind;
	perf_ring_drain(ev->ring, on_record, s);
}

/*
 * The NUMA node of physical address @phys: its memory block's, asked of
 * the kernel's files once per block (a direct-mapped cache); -1 unknown.
 */
static int phys_node(struct sharing_sampler *s, uint64_t phys)
{
	uint64_t block = phys >> SHARING_NODE_BLOCK;
	struct sharing_node *c = &s->nodes[block % SHARING_NODES];

	if (!phys || !s->dev)
		return -1;
	if (c->block != block + 1) {
		c->block = block + 1;
		c->node = perfdev_phys_node(s->dev, phys);
	}
	return c->node;
}

const struct sharing_frame *sharing_sampler_end(struct sharing_sampler *s, double seconds)
{
	char sym[SHARING_SYM];

	s->frame.interval_s = seconds;
	s->frame.samples = s->samples;
	s->frame.lost = s->lost;
	s->frame.throttled = s->throttled;
	s->frame.period = 0;
	s->frame.hitm_lower_bound = s->hitm_lower_bound;
	for (int c = 0; c < s->ncpu; c++)
		if (s->cpu[c].ev[SHARING_EV_LOADS].period > s->frame.period)
			s->frame.period = s->cpu[c].ev[SHARING_EV_LOADS].period;
	lines_interval(&s->lines, seconds, &s->frame);
	s->samples = s->lost = s->throttled = 0;
	/* the frame's code addresses as symbols, of the line's first process */
	for (int i = 0; i < s->frame.nlines; i++) {
		struct sharing_line *l = &s->frame.line[i];
		int pid = l->nprocs ? l->procs[0].pid : 0;

		l->node = phys_node(s, l->phys);
		for (int w = 0; w < l->nwords; w++)
			if (l->words[w].top_ip)
				snprintf(l->words[w].symbol, sizeof(l->words[w].symbol), "%s",
					 symbols_resolve(s->sym, pid, l->words[w].top_ip, sym, sizeof(sym)));
		if (l->top_ip)
			snprintf(l->top_symbol, sizeof(l->top_symbol), "%s",
				 symbols_resolve(s->sym, pid, l->top_ip, sym, sizeof(sym)));
	}
	return &s->frame;
}

void sharing_sampler_free(struct sharing_sampler *s)
{
	if (s->dev)
		close_all(s);
	free(s->cpu);
	lines_free(&s->lines);
	symbols_free(s->sym);
	memset(s, 0, sizeof(*s));
}
