/*
 * msrdev_sim.c: the simulator behind the MSR device interface, so that
 * --simulate runs exactly the code that runs on /dev/cpu.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu/msrdev.h"
#include "sim/sim.h"

static int sim_dev_read(struct msrdev *d, int cpu, uint32_t reg, uint64_t *val)
{
	return sim_rdmsr(d->priv, cpu, reg, val);
}

static int sim_dev_write(struct msrdev *d, int cpu, uint32_t reg, uint64_t val)
{
	return sim_wrmsr(d->priv, cpu, reg, val);
}

static void sim_dev_destroy(struct msrdev *d)
{
	free(d->cpu);
	free(d);
}

static const struct msrdev_ops sim_dev_ops = {
	.read = sim_dev_read,
	.write = sim_dev_write,
	.destroy = sim_dev_destroy,
};

struct msrdev *msrdev_sim_open(struct sim *sim, char *err, size_t errlen)
{
	struct msrdev *d = calloc(1, sizeof(*d));
	int n = sim_ncpus(sim);

	if (d)
		d->cpu = calloc(n, sizeof(*d->cpu));
	if (!d || !d->cpu) {
		free(d);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	d->ops = &sim_dev_ops;
	d->kind = "simulator";
	d->ncpu = n;
	d->priv = sim;
	for (int i = 0; i < n; i++) {
		d->cpu[i].id = i;
		sim_topology(sim, i, &d->cpu[i].core, &d->cpu[i].package, &d->cpu[i].module);
	}
	return d;
}
