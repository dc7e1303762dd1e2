/*
 * fuzz_profile.c: libFuzzer harness for the simulator's profile parser.
 *
 * Owns nothing but the harness: each input goes to sim_profile_parse() as
 * a buffer; an accepted profile is then handed to sim_new() (which applies
 * cpus, threads_per_core and the msr.0x... presets) for one
 * microarchitecture picked by a hash of the input, and the simulated
 * machine is run: the fixed counters and PMC0 are enabled, the manual clock
 * advanced twice, and the counters read back on the first and last CPU, so
 * that a value the parser let through cannot upset the counting either.
 * Besides the sanitizers' findings it aborts when a refusal comes without a
 * one-line "NAME:LINE: ..." message (no control characters, so binary junk
 * is never echoed to a terminal).  Touches no file.
 *
 * Build: make tests/fuzz/fuzz_profile (clang -fsanitize=fuzzer,address,undefined).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_NAME "fuzz.prof"

/* Architectural registers (SDM Vol.3B ch.18), the same on every simulated uarch. */
#define MSR_TSC            0x10
#define MSR_PMC0           0xc1
#define MSR_EVTSEL0        0x186
#define MSR_FIXED_CTR0     0x309
#define MSR_FIXED_CTR_CTRL 0x38d
#define MSR_GLOBAL_CTRL    0x38f

static double fuzz_time;

static double fuzz_clock(void *arg)
{
	(void)arg;
	return fuzz_time;
}

static void fuzz_die(const char *what, const char *err)
{
	fprintf(stderr, "fuzz_profile: %s: \"%s\"\n", what, err);
	abort();
}

/*
 * A message is one line of text: no control characters but tabs (a value echoed
 * back may make it long: snprintf cuts it, which is fine).
 */
static void fuzz_check_err(const char *err, const char *prefix)
{
	const char *s;

	if (!*err || (prefix && strncmp(err, prefix, strlen(prefix))))
		fuzz_die("refusal without a message naming the file", err);
	for (s = err; *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7f)
			fuzz_die("a control character in the message", err);
}

/* Run @sim a little: count cycles and instructions, read them back. */
static void fuzz_run(struct sim *sim)
{
	int n = sim_ncpus(sim), cpus[2] = { 0, n - 1 }, i, r, core, pkg, mod;
	uint64_t v;

	fuzz_time = 0;
	sim_set_clock(sim, fuzz_clock, NULL);
	for (i = 0; i < 2; i++) {
		sim_topology(sim, cpus[i], &core, &pkg, &mod);
		/* the writes may be refused (presets can lock things): only no crash matters */
		sim_wrmsr(sim, cpus[i], MSR_FIXED_CTR_CTRL, 0x333);
		sim_wrmsr(sim, cpus[i], MSR_EVTSEL0, 0x43003c);  /* unhalted core cycles */
		sim_wrmsr(sim, cpus[i], MSR_GLOBAL_CTRL, 0x700000001ULL);
	}
	for (r = 0; r < 2; r++) {
		fuzz_time += r ? 1e6 : 1.5;
		for (i = 0; i < 2; i++) {
			sim_rdmsr(sim, cpus[i], MSR_TSC, &v);
			sim_rdmsr(sim, cpus[i], MSR_PMC0, &v);
			sim_rdmsr(sim, cpus[i], MSR_FIXED_CTR0, &v);
			sim_rdmsr(sim, cpus[i], MSR_FIXED_CTR0 + 1, &v);
			sim_rdmsr(sim, cpus[i], MSR_FIXED_CTR0 + 2, &v);
		}
	}
	if (sim_rdmsr(sim, n, MSR_TSC, &v) != -ENXIO)
		fuzz_die("a CPU past the last one answered", "");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_profile *prof;
	struct sim *sim;
	char err[512];
	uint32_t h = 2166136261u;
	size_t i, nu;

	memset(err, 'x', sizeof(err));
	err[sizeof(err) - 1] = '\0';
	prof = sim_profile_parse((const char *)data, size, FUZZ_NAME, err, sizeof(err));
	if (!prof) {
		fuzz_check_err(err, FUZZ_NAME ":");
		return 0;
	}
	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	for (nu = 0; sim_uarch_name(nu); nu++)
		;
	memset(err, 'x', sizeof(err));
	err[sizeof(err) - 1] = '\0';
	sim = sim_new(sim_uarch_name(h % nu), prof, err, sizeof(err));
	sim_profile_free(prof);
	if (!sim) {
		fuzz_check_err(err, NULL);
		return 0;
	}
	fuzz_run(sim);
	sim_free(sim);
	return 0;
}
