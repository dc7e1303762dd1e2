/*
 * options.c: parse and validate the command line (see options.h).
 *
 * The help text here is the reference wording: the man page and README say
 * the same things in the same words.  The keys between options_help and
 * options_notes are ui/keys.c's table (ui_keys_help).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/sim.h"
#include "output/columns.h"
#include "export/listen.h"
#include "app/options.h"
#include "record/record.h"

const char options_usage[] =
	"Usage: lattop [--once | -b] [-d SECS] [-n N] [-c LIST] [--format text|csv|json]\n"
	"              [--thresholds LIST] [--simulate UARCH [--sim-profile FILE]]\n"
	"              [--msr-dir DIR] [--cpuid-file FILE] [--state-dir DIR] [--force]\n"
	"              [--no-color] [--ascii] [--listen PORT] [--textfile PATH]\n"
	"              [--record FILE [--record-max SIZE]] [--show LIST] [--hide LIST]\n"
	"              [--backend auto|msr|perf [--cgroup PATH] [--pid PID]]\n"
	"       lattop --replay FILE [-b] [--format text|csv|json] [--begin TIME]\n"
	"                            [--end TIME] [-n N] [--no-color] [--ascii]\n"
	"                            [--show LIST] [--hide LIST]\n"
	"       lattop --detect [--cpuid-file FILE | --simulate UARCH [--sim-profile FILE]]\n"
	"                       [--format text|json]\n"
	"       lattop --list-events [--cpuid-file FILE | --simulate UARCH [--sim-profile FILE]]\n"
	"                            [--thresholds LIST] [--backend msr|perf] [--format text|json]\n"
	"       lattop --list-uarchs [--format text|json]\n"
	"       lattop --doctor [--msr-dir DIR] [--cpuid-file FILE] [--state-dir DIR]\n"
	"                       [--format text|json] [--no-color]\n"
	"       lattop --restore [--msr-dir DIR] [--state-dir DIR]\n"
	"       lattop --restore --reset --yes [--msr-dir DIR] [--cpuid-file FILE]\n";

const char options_help[] =
	"lattop: a top-like monitor of memory behaviour on Intel CPUs: load latency,\n"
	"snoop hits and HITM, and offcore read latency, per logical CPU, measured with\n"
	"the core performance counters through /dev/cpu/N/msr.\n"
	"\n"
	"Modes:\n"
	"      --once              print one snapshot after one interval, then exit\n"
	"  -b, --batch             print one snapshot every interval\n"
	"      --detect            print the CPU detected and whether lattop can measure it\n"
	"                          (exit status 1 when it cannot)\n"
	"      --list-events       print the events lattop would program, and on which counters,\n"
	"                          for a whole machine measured: the simulator's, or else one of\n"
	"                          the CPU's model (two threads per core but on the Atoms, two\n"
	"                          packages on a server model)\n"
	"      --list-uarchs       print the microarchitectures lattop supports: their\n"
	"                          CPUID models, what CPUID leaf 0xA must report, and\n"
	"                          which metrics each measures and on what condition;\n"
	"                          of a hybrid part, each core type, on which models\n"
	"      --doctor            check everything between you and a measurement, and\n"
	"                          say how to fix each problem (--format json: as JSON)\n"
	"      --restore           write back the registers a lattop that was killed or\n"
	"                          crashed left changed, from its state journal\n"
	"      --restore --reset --yes\n"
	"                          without a journal: put the power-on values back in\n"
	"                          the counters that hold lattop's own events and that\n"
	"                          no running lattop holds (root only; --yes confirms)\n"
	"  -h, --help              print this help\n"
	"  -V, --version           print the version\n"
	"      --replay FILE       replay a recording (--record) on the screen; with -b\n"
	"                          or --format, or without a terminal, print it as\n"
	"                          --batch printed it (torn or corrupt frames are\n"
	"                          skipped and counted)\n"
	"  With none of these, lattop opens the interactive screen; when standard\n"
	"  input or output is not a terminal, or --format is given, it behaves as\n"
	"  --batch. An option that the mode has no use for is refused. The screen\n"
	"  shows its first numbers within a second, whatever the interval.\n"
	"\n"
	"Options:\n"
	"  -d, --delay SECS        the interval, 0.05 to 3600 decimal seconds (default 1);\n"
	"                          counters are read often enough that none wraps unseen\n"
	"  -n, --iterations N      stop after N snapshots (not with --once)\n"
	"  -c, --cpus LIST         measure only these logical CPUs, e.g. 0-3,8\n"
	"      --format FMT        text, csv or json (default text)\n"
	"      --thresholds LIST   load-latency thresholds in core cycles, 3 to 65535,\n"
	"                          at most 16 (default 8,16,32,64,128,256,512); 3 is\n"
	"                          measured as well, the base of the estimates\n"
	"      --force             take over counters another user holds; they are\n"
	"                          still restored at exit\n"
	"      --simulate UARCH    measure a simulated CPU instead: UARCH is one of the\n"
	"                          names lattop --list-uarchs prints, in any case (the\n"
	"                          profile key model picks another of its models:\n"
	"                          Arrow Lake-S/HX or -H for arrowlake)\n"
	"      --sim-profile FILE  the simulated workload (with --simulate)\n"
	"      --msr-dir DIR       use DIR/N/msr instead of /dev/cpu/N/msr\n"
	"      --cpuid-file FILE   detect the CPU from a dump, not CPUID: libcpuid's raw\n"
	"                          format (cpuid_tool --save=FILE makes one), or Debian's\n"
	"                          cpuid -r; a dump of every CPU tells a hybrid's core\n"
	"                          types apart\n"
	"      --backend NAME      how the counters are reached: msr (the registers,\n"
	"                          through /dev/cpu/N/msr) or perf (perf_event_open(2):\n"
	"                          the kernel schedules the events, beside other perf\n"
	"                          users, and multiplexes what does not fit); auto,\n"
	"                          the default, is perf where the kernel lets lattop\n"
	"                          count on every CPU (no register is written, and\n"
	"                          the kernel shares the counters), msr otherwise and\n"
	"                          with --simulate or --msr-dir; on a hybrid part each\n"
	"                          core type's events go to its own kernel PMU\n"
	"                          (cpu_core, cpu_atom, cpu_lowpower), whose cpus list\n"
	"                          must agree with CPUID; --list-events --backend perf\n"
	"                          shows the perf_event_attr of each event\n"
	"      --cgroup PATH       with --backend perf: count only what the tasks of the\n"
	"                          cgroup PATH (a directory of the cgroup v2 tree, such\n"
	"                          as a container's or a service's) do, on every CPU;\n"
	"                          rates are per second of the interval\n"
	"      --pid PID           with --backend perf: sample the contended lines of the\n"
	"                          threads of process PID only (and of the threads it\n"
	"                          starts later); the counters still count whole CPUs\n"
	"      --state-dir DIR     keep the state journal in DIR (default /run/lattop)\n"
	"      --no-color          no colour (also when NO_COLOR is set and not empty)\n"
	"      --ascii             ASCII-only drawing on the screen\n"
	"      --listen PORT       serve the numbers to Prometheus at /metrics on PORT\n"
	"                          of 127.0.0.1 (also localhost:PORT), of every address\n"
	"                          with :PORT, or of ADDR with ADDR:PORT ([ADDR]:PORT\n"
	"                          for IPv6); 10123 is lattop's port, 0 any free one\n"
	"      --textfile PATH     after each interval, write the same numbers to PATH\n"
	"                          (a directory: PATH/lattop.prom) for node_exporter\n"
	"      --record FILE       append every snapshot to the recording FILE (with the\n"
	"                          screen or --batch; without a terminal, quietly)\n"
	"      --record-max SIZE   when FILE would pass SIZE (bytes, or with k, M, G in\n"
	"                          either case), move it to FILE.1 (FILE.1 to FILE.2,\n"
	"                          ..., keeping 8) and start FILE anew\n"
	"      --show LIST         show only these columns in text, csv and on the screen:\n"
	"                          names from COLUMNS in the man page, or the headers\n"
	"                          the outputs print, in any case, separated by\n"
	"                          commas; refused with JSON, which keeps every field,\n"
	"                          and for a name the output has no column for; the\n"
	"                          counts and standard errors of the estimates appear\n"
	"                          only when named, and on the screen GHz and IPC\n"
	"      --hide LIST         leave out these columns, named and refused as for --show\n"
	"                          (and a column --show names too is refused)\n"
	"      --begin TIME        replay from TIME: seconds since the epoch,\n"
	"                          YYYY-MM-DD HH:MM[:SS], HH:MM[:SS] on the day of the\n"
	"                          first snapshot, or +SECS after the first snapshot\n"
	"      --end TIME          replay up to TIME, as --begin\n"
	"  With --listen or --textfile and standard output not a terminal, lattop\n"
	"  prints no snapshots unless --once, -b or --format asks for them.\n"
	"\n";

/* After the keys (ui_keys_help). */
const char options_notes[] =
	"The load-latency event counts only loads the hardware tags at random: the\n"
	"loads slower than each threshold and the mean are estimates, from the share\n"
	"of tagged loads slower than each threshold.\n"
	"\n"
	"Every register lattop writes is saved first and written back on exit,\n"
	"including on SIGINT, SIGTERM, SIGHUP and SIGQUIT: each is read first,\n"
	"written only if it differs, and read back. Ctrl-Z puts every register back\n"
	"before lattop stops, and SIGCONT programs them again; batch output that\n"
	"nobody reads stops the counting until it is read. Counters in use by\n"
	"someone else, and registers shared with CPUs that use them, are left alone.\n"
	"\n"
	"Exit status: 0 success, 1 cannot measure or a runtime error (a failed write\n"
	"included), 2 bad usage; stopped by SIGINT (Ctrl-C), lattop restores the\n"
	"registers, then dies of SIGINT, as shells expect (130).\n"
	"The manual: man lattop.\n";

static const unsigned default_thresholds[] = { 8, 16, 32, 64, 128, 256, 512 };

enum {
	OPT_ONCE = 256, OPT_DETECT, OPT_LIST_EVENTS, OPT_FORMAT, OPT_THRESHOLDS, OPT_FORCE,
	OPT_SIMULATE, OPT_SIM_PROFILE, OPT_MSR_DIR, OPT_CPUID_FILE, OPT_NO_COLOR, OPT_ASCII,
	OPT_DOCTOR, OPT_RESTORE, OPT_STATE_DIR, OPT_LISTEN, OPT_TEXTFILE, OPT_RECORD,
	OPT_RECORD_MAX, OPT_REPLAY, OPT_BEGIN, OPT_END, OPT_LIST_UARCHS, OPT_SHOW, OPT_HIDE,
	OPT_RESET, OPT_YES, OPT_BACKEND, OPT_CGROUP, OPT_PID,
};

static const struct option longopts[] = {
	{ "once", no_argument, NULL, OPT_ONCE },
	{ "batch", no_argument, NULL, 'b' },
	{ "detect", no_argument, NULL, OPT_DETECT },
	{ "list-events", no_argument, NULL, OPT_LIST_EVENTS },
	{ "list-uarchs", no_argument, NULL, OPT_LIST_UARCHS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "cpus", required_argument, NULL, 'c' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "thresholds", required_argument, NULL, OPT_THRESHOLDS },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "simulate", required_argument, NULL, OPT_SIMULATE },
	{ "sim-profile", required_argument, NULL, OPT_SIM_PROFILE },
	{ "msr-dir", required_argument, NULL, OPT_MSR_DIR },
	{ "cpuid-file", required_argument, NULL, OPT_CPUID_FILE },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "ascii", no_argument, NULL, OPT_ASCII },
	{ "doctor", no_argument, NULL, OPT_DOCTOR },
	{ "restore", no_argument, NULL, OPT_RESTORE },
	{ "reset", no_argument, NULL, OPT_RESET },
	{ "yes", no_argument, NULL, OPT_YES },
	{ "state-dir", required_argument, NULL, OPT_STATE_DIR },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "textfile", required_argument, NULL, OPT_TEXTFILE },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "record-max", required_argument, NULL, OPT_RECORD_MAX },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "begin", required_argument, NULL, OPT_BEGIN },
	{ "end", required_argument, NULL, OPT_END },
	{ "show", required_argument, NULL, OPT_SHOW },
	{ "hide", required_argument, NULL, OPT_HIDE },
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "pid", required_argument, NULL, OPT_PID },
	{ NULL, 0, NULL, 0 },
};

/* The options a mode may be given, as bits of (1u << G_x). */
enum { G_D, G_N, G_C, G_FORMAT, G_THRESHOLDS, G_FORCE, G_SIMULATE, G_SIM_PROFILE, G_MSR_DIR,
       G_CPUID_FILE, G_STATE_DIR, G_NO_COLOR, G_ASCII, G_LISTEN, G_TEXTFILE, G_RECORD,
       G_RECORD_MAX, G_BEGIN, G_END, G_SHOW, G_HIDE, G_BACKEND, G_CGROUP, G_PID,
       G__COUNT };

static const char *const given_name[G__COUNT] = {
	"-d", "-n", "-c", "--format", "--thresholds", "--force", "--simulate", "--sim-profile",
	"--msr-dir", "--cpuid-file", "--state-dir", "--no-color", "--ascii", "--listen", "--textfile",
	"--record", "--record-max", "--begin", "--end", "--show", "--hide", "--backend", "--cgroup",
	"--pid",
};

#define GB(x) (1u << G_##x)
static const struct {
	enum mode mode;
	const char *name;
	unsigned allowed;
	const char *takes;
} mode_opts[] = {
	/* A profile's packages make the simulator a server part: its model and events. */
	{ MODE_DETECT, "--detect", GB(CPUID_FILE) | GB(SIMULATE) | GB(SIM_PROFILE) | GB(FORMAT),
	  "--cpuid-file, --simulate, --sim-profile and --format" },
	{ MODE_LIST_EVENTS, "--list-events",
	  GB(CPUID_FILE) | GB(SIMULATE) | GB(SIM_PROFILE) | GB(FORMAT) | GB(THRESHOLDS) | GB(BACKEND),
	  "--cpuid-file, --simulate, --sim-profile, --thresholds, --backend and --format" },
	{ MODE_LIST_UARCHS, "--list-uarchs", GB(FORMAT), "--format" },
	{ MODE_DOCTOR, "--doctor", GB(MSR_DIR) | GB(CPUID_FILE) | GB(STATE_DIR) | GB(FORMAT) | GB(NO_COLOR),
	  "--msr-dir, --cpuid-file, --state-dir, --format and --no-color" },
	{ MODE_RESTORE, "--restore", GB(MSR_DIR) | GB(STATE_DIR) | GB(CPUID_FILE),
	  "--msr-dir, --state-dir and, with --reset, --cpuid-file" },
	{ MODE_REPLAY, "--replay",
	  GB(FORMAT) | GB(N) | GB(BEGIN) | GB(END) | GB(NO_COLOR) | GB(ASCII) | GB(SHOW) | GB(HIDE),
	  "--batch, --format, -n, --begin, --end, --no-color, --ascii, --show and --hide" },
};
#undef GB

/* Digits with at most one '.': what -d takes. */
static bool options_decimal(const char *s)
{
	int digits = 0, dots = 0;

	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			digits++;
		else if (*s == '.' && !dots)
			dots++;
		else
			return false;
	}
	return digits > 0;
}

static int bad(char *err, size_t errlen, const char *opt, const char *val, const char *why)
{
	if (*val)
		snprintf(err, errlen, "%s '%s': %s", opt, val, why);
	else
		snprintf(err, errlen, "%s: %s", opt, why);
	return -1;
}

bool options_screen(const struct options *o)
{
	return (o->mode == MODE_SCREEN || (o->mode == MODE_REPLAY && !o->replay_batch)) &&
	       isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
}

/*
 * --show and --hide choose among the columns of the output at hand: the
 * screen, text or csv.  JSON keeps every field, so they are refused there,
 * as is a name the output has no column for (the screen's history in csv).
 */
static int options_columns(const struct options *o, col_set show, col_set hide,
			   const char *show_arg, const char *hide_arg, char *err, size_t errlen)
{
	static const char *const out_name[] = {
		[COL_OUT_TEXT] = "text", [COL_OUT_CSV] = "csv", [COL_OUT_SCREEN] = "the screen",
	};
	bool screen = options_screen(o);
	const char *opt = show_arg ? "--show" : "--hide", *arg = show_arg ? show_arg : hide_arg;
	enum col_out out;
	const struct column *c;
	char why[96];

	if (!screen && o->format == FORMAT_JSON)
		return bad(err, errlen, opt, arg, "JSON keeps every field; --show and --hide choose "
			   "the columns of text, csv and the screen");
	out = screen ? COL_OUT_SCREEN : o->format == FORMAT_CSV ? COL_OUT_CSV : COL_OUT_TEXT;
	/* The screen's label column is always there: named, it is what --show means. */
	if (screen && hide_arg && (hide & (COL_BIT(COL_CPU) | COL_BIT(COL_CORE))))
		return bad(err, errlen, "--hide", hide_arg, "the screen always shows the CPU (or "
			   "core) column");
	if (show_arg && (c = columns_absent(show, out)))
		opt = "--show", arg = show_arg;
	else if (hide_arg && (c = columns_absent(hide, out)))
		opt = "--hide", arg = hide_arg;
	else
		return 0;
	snprintf(why, sizeof(why), "%s has no column in %s", c->name, out_name[out]);
	return bad(err, errlen, opt, arg, why);
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int options_parse_thresholds(const char *s, unsigned *out, int *nout, char *err, size_t errlen)
{
	unsigned t[THRESH_MAX];
	const char *p = s;
	int n = 0;

	if (!*s)
		return bad(err, errlen, "--thresholds", s, "empty list");
	while (*p) {
		char *end;
		unsigned long v;

		if (*p < '0' || *p > '9')
			return bad(err, errlen, "--thresholds", s, "not a list of numbers");
		errno = 0;
		v = strtoul(p, &end, 10);
		if (errno == ERANGE)
			return bad(err, errlen, "--thresholds", s,
				   "a threshold is too large: each must be 3 to 65535 core cycles");
		if (errno || v < 3 || v > 65535)
			return bad(err, errlen, "--thresholds", s,
				   "each threshold must be 3 to 65535 core cycles "
				   "(MSR_PEBS_LD_LAT_THRESHOLD's minimum is 3)");
		if (n == THRESH_MAX)
			return bad(err, errlen, "--thresholds", s, "at most 16 thresholds");
		t[n++] = (unsigned)v;
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return bad(err, errlen, "--thresholds", s, "not a list of numbers");
	}
	qsort(t, n, sizeof(*t), cmp_unsigned);
	for (int i = 1; i < n; i++)
		if (t[i] == t[i - 1])
			return bad(err, errlen, "--thresholds", s, "a threshold is repeated");
	memcpy(out, t, n * sizeof(*t));
	*nout = n;
	return 0;
}

/* The same name but for case, spaces, hyphens and underscores ("Sandy Bridge", "sandybridge"). */
static bool same_name(const char *a, const char *b)
{
	for (;; a++, b++) {
		a += strspn(a, " -_");
		b += strspn(b, " -_");
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
		if (!*a)
			return true;
	}
}

/*
 * The simulator's name for @u, written as lattop prints it anywhere
 * (--list-uarchs, --detect, the screen: "Haswell", "Sandy Bridge",
 * "goldmont-plus"), or NULL.
 */
static const char *known_uarch(const char *u)
{
	const char *name;

	for (size_t i = 0; (name = sim_uarch_name(i)); i++)
		if (*u && same_name(name, u))
			return name;
	return NULL;
}

int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	bool once = false, batch = false, detect = false, list = false;
	const char *given[G__COUNT] = { NULL };
	bool doctor = false, restore = false, uarchs = false;
	col_set show = 0, hide = 0;
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	o->interval = 1.0;
	o->format = FORMAT_TEXT;
	o->nthresh = (int)(sizeof(default_thresholds) / sizeof(default_thresholds[0]));
	memcpy(o->thresholds, default_thresholds, sizeof(default_thresholds));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":bhVd:n:c:", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_ONCE: once = true; break;
		case 'b': batch = true; break;
		case OPT_DETECT: detect = true; break;
		case OPT_LIST_EVENTS: list = true; break;
		case OPT_LIST_UARCHS: uarchs = true; break;
		case 'h': o->mode = MODE_HELP; return 0;
		case 'V': o->mode = MODE_VERSION; return 0;
		case 'd':
			given[G_D] = optarg;
			/* A negative interval: the range says what is wanted. */
			if (optarg[0] == '-' && options_decimal(optarg + 1))
				return bad(err, errlen, "-d", optarg,
					   "the interval must be 0.05 to 3600 seconds");
			/* Decimal seconds only: strtod would take 0x10, 1e1, inf. */
			if (!options_decimal(optarg))
				return bad(err, errlen, "-d", optarg,
					   "not a number of seconds (decimal, such as 0.5 or 2)");
			errno = 0;
			o->interval = strtod(optarg, &end);
			if (errno == ERANGE && o->interval != 0)
				return bad(err, errlen, "-d", optarg,
					   "too large: the interval must be 0.05 to 3600 seconds");
			if (errno || end == optarg || *end || !isfinite(o->interval))
				return bad(err, errlen, "-d", optarg, "not a number of seconds");
			if (o->interval < INTERVAL_MIN || o->interval > INTERVAL_MAX)
				return bad(err, errlen, "-d", optarg, "the interval must be 0.05 to 3600 seconds");
			break;
		case 'n':
			given[G_N] = optarg;
			errno = 0;
			o->count = strtol(optarg, &end, 10);
			if (errno == ERANGE && o->count > 0 && optarg[0] >= '0' && optarg[0] <= '9')
				return bad(err, errlen, "-n", optarg, "too large");
			if (errno || end == optarg || *end || o->count < 1 ||
			    optarg[0] < '0' || optarg[0] > '9')
				return bad(err, errlen, "-n", optarg, "not a positive whole number");
			break;
		case 'c':
			given[G_C] = optarg;
			o->cpus = optarg;
			if (options_cpu_list(optarg, NULL, NULL, err, errlen) < 0)
				return -1;
			break;
		case OPT_FORMAT:
			given[G_FORMAT] = optarg;
			if (!strcmp(optarg, "text"))
				o->format = FORMAT_TEXT;
			else if (!strcmp(optarg, "csv"))
				o->format = FORMAT_CSV;
			else if (!strcmp(optarg, "json"))
				o->format = FORMAT_JSON;
			else
				return bad(err, errlen, "--format", optarg, "must be text, csv or json");
			break;
		case OPT_THRESHOLDS:
			given[G_THRESHOLDS] = optarg;
			if (options_parse_thresholds(optarg, o->thresholds, &o->nthresh, err, errlen) < 0)
				return -1;
			break;
		case OPT_FORCE: o->force = true; given[G_FORCE] = ""; break;
		case OPT_SIMULATE:
			if (!(o->simulate = known_uarch(optarg))) {
				char names[512], why[560];

				sim_uarch_list(names, sizeof(names));
				snprintf(why, sizeof(why), "not one of %s", names);
				return bad(err, errlen, "--simulate", optarg, why);
			}
			given[G_SIMULATE] = optarg;
			break;
		case OPT_SIM_PROFILE: o->sim_profile = given[G_SIM_PROFILE] = optarg; break;
		case OPT_MSR_DIR: o->msr_dir = given[G_MSR_DIR] = optarg; break;
		case OPT_CPUID_FILE: o->cpuid_file = given[G_CPUID_FILE] = optarg; break;
		case OPT_NO_COLOR: o->no_color = true; given[G_NO_COLOR] = ""; break;
		case OPT_ASCII: o->ascii = true; given[G_ASCII] = ""; break;
		case OPT_DOCTOR: doctor = true; break;
		case OPT_RESTORE: restore = true; break;
		case OPT_RESET: o->reset = true; break;
		case OPT_YES: o->yes = true; break;
		case OPT_STATE_DIR: o->state_dir = given[G_STATE_DIR] = optarg; break;
		case OPT_LISTEN: {
			struct listen_addr a;

			if (listen_parse(optarg, &a, err, errlen) < 0)
				return -1;
			o->listen = given[G_LISTEN] = optarg;
			break;
		}
		case OPT_TEXTFILE: o->textfile = given[G_TEXTFILE] = optarg; break;
		case OPT_RECORD: o->record = given[G_RECORD] = optarg; break;
		case OPT_RECORD_MAX: {
			char why[128];

			given[G_RECORD_MAX] = optarg;
			if (record_parse_size(optarg, &o->record_max, why, sizeof(why)) < 0)
				return bad(err, errlen, "--record-max", optarg, why);
			break;
		}
		case OPT_REPLAY: o->replay = optarg; break;
		case OPT_BEGIN:
		case OPT_END: {
			char why[160];
			double t;

			given[c == OPT_BEGIN ? G_BEGIN : G_END] = optarg;
			*(c == OPT_BEGIN ? &o->begin : &o->end) = optarg;
			if (record_parse_time(optarg, 0, &t, why, sizeof(why)) < 0)
				return bad(err, errlen, c == OPT_BEGIN ? "--begin" : "--end", optarg, why);
			break;
		}
		case OPT_BACKEND:
			given[G_BACKEND] = optarg;
			if (!strcmp(optarg, "auto"))
				o->backend = BACKEND_AUTO;
			else if (!strcmp(optarg, "msr"))
				o->backend = BACKEND_MSR;
			else if (!strcmp(optarg, "perf"))
				o->backend = BACKEND_PERF;
			else
				return bad(err, errlen, "--backend", optarg, "must be auto, msr or perf");
			break;
		case OPT_CGROUP: o->cgroup = given[G_CGROUP] = optarg; break;
		case OPT_PID: {
			long v;

			given[G_PID] = optarg;
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] < '0' || optarg[0] > '9')
				return bad(err, errlen, "--pid", optarg, "not a process id (a number)");
			if (v < 1 || v > INT_MAX)
				return bad(err, errlen, "--pid", optarg, "not a process id (1 and up)");
			o->pid = (int)v;
			break;
		}
		case OPT_SHOW:
		case OPT_HIDE: {
			char why[768];
			bool shw = c == OPT_SHOW;
			col_set set;

			given[shw ? G_SHOW : G_HIDE] = optarg;
			if (columns_parse(optarg, &set, why, sizeof(why)) < 0)
				return bad(err, errlen, shw ? "--show" : "--hide", optarg, why);
			if (shw)
				show = set;
			else
				hide |= set;
			break;
		}
		case ':':
			snprintf(err, errlen, "%s: needs a value", argv[optind - 1]);
			return -1;
		default:
			snprintf(err, errlen, "%s: unknown option", argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc)
		return bad(err, errlen, "argument", argv[optind], "lattop takes no arguments");
	if (once + batch + detect + list + uarchs + doctor + restore > 1 ||
	    (o->replay && once + detect + list + uarchs + doctor + restore)) {
		snprintf(err, errlen, "--once, --batch, --detect, --list-events, --list-uarchs, --doctor "
			 "and --restore exclude each other%s",
			 o->replay ? ", and all but --batch exclude --replay" : "");
		return -1;
	}
	o->mode = o->replay ? MODE_REPLAY : once ? MODE_ONCE : batch ? MODE_BATCH : detect ? MODE_DETECT :
		  list ? MODE_LIST_EVENTS : uarchs ? MODE_LIST_UARCHS : doctor ? MODE_DOCTOR :
		  restore ? MODE_RESTORE : MODE_SCREEN;
	/* An option the mode has no use for is refused, not ignored. */
	for (size_t m = 0; m < sizeof(mode_opts) / sizeof(mode_opts[0]); m++) {
		if (mode_opts[m].mode != o->mode)
			continue;
		for (int g = 0; g < G__COUNT; g++) {
			char why[160];

			if (!given[g] || (mode_opts[m].allowed & (1u << g)))
				continue;
			snprintf(why, sizeof(why), "%s takes only %s", mode_opts[m].name,
				 mode_opts[m].takes);
			return bad(err, errlen, given_name[g], given[g], why);
		}
	}
	if (o->reset && o->mode != MODE_RESTORE)
		return bad(err, errlen, "--reset", "", "needs --restore");
	if (o->yes && !o->reset)
		return bad(err, errlen, "--yes", "", "confirms --restore --reset, and nothing else");
	if (o->mode == MODE_RESTORE && !o->reset && given[G_CPUID_FILE])
		return bad(err, errlen, "--cpuid-file", given[G_CPUID_FILE], "--restore takes it only with "
			   "--reset, which must know the CPU's events");
	if (o->reset && !o->yes)
		return bad(err, errlen, "--restore --reset", "", "writes power-on values to the counters "
			   "that hold lattop's own events: add --yes to confirm");
	if ((given[G_BEGIN] || given[G_END]) && !o->replay)
		return bad(err, errlen, given[G_BEGIN] ? "--begin" : "--end",
			   given[G_BEGIN] ? given[G_BEGIN] : given[G_END], "needs --replay FILE");
	if (o->record_max && !o->record)
		return bad(err, errlen, "--record-max", given[G_RECORD_MAX], "needs --record FILE");
	if (once && given[G_N])
		return bad(err, errlen, "-n", given[G_N], "not with --once, which is one snapshot");
	if (o->pid && o->backend != BACKEND_PERF)
		return bad(err, errlen, "--pid", given[G_PID], "needs --backend perf: the msr backend "
			   "samples nothing");
	if (o->pid && o->cgroup)
		return bad(err, errlen, "--pid", given[G_PID], "not with --cgroup: one narrows or the "
			   "other");
	if (o->cgroup && o->backend != BACKEND_PERF)
		return bad(err, errlen, "--cgroup", o->cgroup, "needs --backend perf: the msr backend "
			   "counts whole CPUs");
	if (o->msr_dir && o->backend == BACKEND_PERF)
		return bad(err, errlen, "--msr-dir", o->msr_dir, "is the msr backend's device: not with "
			   "--backend perf");
	if (o->sim_profile && !o->simulate)
		return bad(err, errlen, "--sim-profile", o->sim_profile, "needs --simulate UARCH");
	if (o->simulate && o->msr_dir)
		return bad(err, errlen, "--msr-dir", o->msr_dir, "not with --simulate");
	if (o->simulate && o->cpuid_file)
		return bad(err, errlen, "--cpuid-file", o->cpuid_file,
			   "not with --simulate (the simulator has its own CPUID)");
	if (o->simulate && o->state_dir)
		return bad(err, errlen, "--state-dir", o->state_dir,
			   "not with --simulate (the simulator keeps no state journal)");
	if (o->simulate && o->force)
		return bad(err, errlen, "--force", "",
			   "not with --simulate (nobody else holds the simulator's counters)");
	if (given[G_SHOW] && given[G_HIDE] && (show & hide)) {
		char why[160];

		snprintf(why, sizeof(why), "%s is named by --show too: name a column in one of them",
			 columns[__builtin_ctzll(show & hide)].name);
		return bad(err, errlen, "--hide", given[G_HIDE], why);
	}
	if ((detect || list || uarchs || doctor) && o->format == FORMAT_CSV)
		return bad(err, errlen, "--format", "csv",
			   "--detect, --list-events, --list-uarchs and --doctor print text or json");
	/* A format asks for a report: the screen has none, so --format means --batch. */
	if (o->mode == MODE_SCREEN && given[G_FORMAT])
		o->mode = MODE_BATCH;
	if (once)
		o->count = 1;
	/* Without --show, what the output shows unless named: the screen has fewer. */
	if (!given[G_SHOW])
		show = COL_ALL & ~columns_optional(options_screen(o) ? COL_OUT_SCREEN : COL_OUT_TEXT);
	o->hidden = (COL_ALL & ~show) | hide;
	o->replay_batch = o->replay && (batch || given[G_FORMAT]);
	/* The screen's options where it was asked for no screen. */
	if ((o->mode == MODE_ONCE || o->mode == MODE_BATCH || o->replay_batch) &&
	    (given[G_NO_COLOR] || given[G_ASCII]))
		return bad(err, errlen, given[G_ASCII] ? "--ascii" : "--no-color", "",
			   "the screen's option: --once, -b and --format draw no screen");
	if ((given[G_SHOW] || given[G_HIDE]) && options_columns(o, show, hide, given[G_SHOW],
								given[G_HIDE], err, errlen) < 0)
		return -1;
	return 0;
}

int options_cpu_list(const char *list, const struct msrdev *d, int *ids, char *err, size_t errlen)
{
	const char *p = list;
	int n = 0;

	if (!list) {
		for (int i = 0; d && i < d->ncpu; i++)
			ids[n++] = d->cpu[i].id;
		return n;
	}
	if (!*p)
		return bad(err, errlen, "-c", list, "empty CPU list");
	while (*p) {
		long lo, hi;
		char *end;

		if (*p < '0' || *p > '9')
			return bad(err, errlen, "-c", list, "not a CPU list such as 0-3,8");
		errno = 0;
		lo = hi = strtol(p, &end, 10);
		p = end;
		if (*p == '-') {
			if (p[1] < '0' || p[1] > '9')
				return bad(err, errlen, "-c", list, "not a CPU list such as 0-3,8");
			hi = strtol(p + 1, &end, 10);
			p = end;
		}
		if (errno == ERANGE)
			return bad(err, errlen, "-c", list, "a CPU number is too large");
		if (lo > hi)
			return bad(err, errlen, "-c", list, "a range is reversed");
		if (hi > 65535)
			return bad(err, errlen, "-c", list, "no such CPU");
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return bad(err, errlen, "-c", list, "not a CPU list such as 0-3,8");
		if (!d)
			continue;
		for (long id = lo; id <= hi; id++) {
			bool dup = false;

			if (msrdev_index(d, (int)id) < 0) {
				char why[64];

				snprintf(why, sizeof(why), "no CPU %ld here (CPUs %d-%d)", id,
					 d->cpu[0].id, d->cpu[d->ncpu - 1].id);
				return bad(err, errlen, "-c", list, why);
			}
			for (int k = 0; k < n; k++)
				dup |= ids[k] == id;
			if (!dup)
				ids[n++] = (int)id;
		}
	}
	if (ids && n)
		qsort(ids, n, sizeof(*ids), cmp_int);
	return n;
}
