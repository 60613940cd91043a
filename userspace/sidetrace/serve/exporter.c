// SPDX-License-Identifier: MIT
/*
 * A scrape of `sidetrace serve` (exporter.h): the maps of every program,
 * read as print() reads them, then the exporter's health.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "readout/aggregations.h"
#include "readout/problems.h"
#include "parse/functions.h"
#include "serve/exporter.h"
#include "bpfload/replaced.h"

/* The exporter's own families: no map may take their names. */
enum { H_LOST, H_TRUNC, H_SITES, H_PROCS, H_REPLACED, H_DURATION, NR_HEALTH };

static const struct {
	const char *name;
	enum st_prom_type type;
	const char *help;
} health[NR_HEALTH] = {
	[H_LOST] = {"sidetrace_events_lost", ST_PROM_COUNTER,
		    "Events of a probe not counted: decode errors and drops, by reason"},
	[H_TRUNC] = {"sidetrace_strings_truncated", ST_PROM_COUNTER,
		     "Strings longer than 63 bytes, cut to 63 before they were used"},
	[H_SITES] = {"sidetrace_probe_sites", ST_PROM_GAUGE, "Call sites of a probe attached"},
	[H_PROCS] = {"sidetrace_processes", ST_PROM_GAUGE,
		     "Running processes that map a traced file"},
	[H_REPLACED] = {"sidetrace_replaced_files", ST_PROM_COUNTER,
			"Traced files replaced on disk: the new file attached, or refused"},
	[H_DURATION] = {"sidetrace_scrape_duration_seconds", ST_PROM_GAUGE,
			"Time this scrape took"},
};

/*
 * clear() and zero() of a map exported as a counter, summary or
 * histogram would make it go down: serve refuses them.
 */
static int check_resets(const struct st_program *prog, const struct st_prom_family *fams,
			struct st_diag *diag)
{
	uint32_t i, j;

	for (i = 0; i < prog->nr_clauses; i++) {
		for (j = 0; j < prog->clauses[i].nr_stmts; j++) {
			const struct st_expr *call = prog->clauses[i].stmts[j].call;
			int m;

			if (prog->clauses[i].stmts[j].kind != ST_STMT_CALL ||
			    st_func(call->func)->args != ST_FA_MAP || !call->nr_kids)
				continue;
			m = call->kids[0]->map_id;
			if (m < 0 || fams[m].type == ST_PROM_GAUGE)
				continue;
			st_diag_set(diag, prog->filename, call->pos,
				    "%s(%s): serve exports %s as a Prometheus %s, whose values "
				    "never go down",
				    st_func_name(call->func), prog->maps[m].name,
				    prog->maps[m].name,
				    fams[m].type == ST_PROM_COUNTER ? "counter"
								    : "histogram or summary");
			st_diag_hint(diag, "drop it: Prometheus computes the change over any "
					   "interval (rate(), increase()); clear() and zero() "
					   "apply to gauges: avg, min, max, sum of signed values");
			return -EINVAL;
		}
	}
	return 0;
}

int st_exporter_add(struct st_exporter *x, const char *name, const struct st_program *prog,
		    const struct st_compiled *compiled, const struct st_tracer *tracer,
		    struct st_diag *diag)
{
	struct st_export_unit *units, *u;
	uint32_t m;
	int ret;

	units = realloc(x->units, (x->nr_units + 1) * sizeof(*units));
	if (!units)
		return -ENOMEM;
	x->units = units;
	u = &units[x->nr_units];
	memset(u, 0, sizeof(*u));
	u->families = calloc(prog->nr_maps + 1, sizeof(*u->families));
	if (!u->families)
		return -ENOMEM;
	x->nr_units++;
	u->name = name;
	u->prog = prog;
	u->compiled = compiled;
	u->tracer = tracer;
	for (m = 0; m < prog->nr_maps; m++) {
		ret = st_prom_family_init(&u->families[m], prog, m, diag);
		if (ret)
			return ret;
	}
	return check_resets(prog, u->families, diag);
}

/* Every name a family (or a health family) puts in an exposition. */
struct name_use {
	char name[ST_PROM_NAME_MAX + 8];
	const char *map; /* "@x", or NULL for serve's own */
	const char *unit;
};

static int cmp_names(const void *a, const void *b)
{
	return strcmp(((const struct name_use *)a)->name, ((const struct name_use *)b)->name);
}

static int name_conflicts(const struct st_exporter *x, char *err, size_t errlen)
{
	struct name_use *uses;
	size_t n = 0, cap = NR_HEALTH * ST_PROM_FAMILY_NAMES, i, k, nk;
	char names[ST_PROM_FAMILY_NAMES][ST_PROM_NAME_MAX + 8];
	struct st_prom_family hf;
	uint32_t m;
	int ret = 0;

	for (i = 0; i < x->nr_units; i++)
		cap += x->units[i].prog->nr_maps * ST_PROM_FAMILY_NAMES;
	uses = calloc(cap, sizeof(*uses));
	if (!uses)
		return -ENOMEM;
	for (i = 0; i < NR_HEALTH; i++) {
		memset(&hf, 0, sizeof(hf));
		snprintf(hf.name, sizeof(hf.name), "%s", health[i].name);
		hf.type = health[i].type;
		nk = st_prom_family_names(&hf, names);
		for (k = 0; k < nk; k++)
			memcpy(uses[n++].name, names[k], sizeof(names[k]));
	}
	for (i = 0; i < x->nr_units; i++) {
		for (m = 0; m < x->units[i].prog->nr_maps; m++) {
			nk = st_prom_family_names(&x->units[i].families[m], names);
			for (k = 0; k < nk; k++, n++) {
				memcpy(uses[n].name, names[k], sizeof(names[k]));
				uses[n].map = x->units[i].prog->maps[m].name;
				uses[n].unit = x->units[i].name;
			}
		}
	}
	qsort(uses, n, sizeof(*uses), cmp_names);
	for (i = 0; i + 1 < n && !ret; i++) {
		const struct name_use *a = &uses[i], *b = &uses[i + 1];

		if (strcmp(a->name, b->name))
			continue;
		/* The health names come first in a tie: qsort is not stable. */
		if (!a->map || !b->map)
			snprintf(err, errlen,
				 "%s in %s would be the metric %s, which is serve's own",
				 a->map ? a->map : b->map, a->map ? a->unit : b->unit, a->name);
		else
			snprintf(err, errlen, "%s in %s and %s in %s would both be the metric %s",
				 a->map, a->unit, b->map, b->unit, a->name);
		ret = -EINVAL;
	}
	free(uses);
	return ret;
}

/*
 * Whether the ELF file at path is a program (ET_EXEC, or ET_DYN with an
 * interpreter): a process maps it as its /proc/PID/exe, so counting its
 * processes needs no read of every process's maps.
 */
static bool is_program(const char *path)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	bool interp = false;
	int fd, i;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (pread(fd, &eh, sizeof(eh), 0) == sizeof(eh) && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
	    eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(ph)) {
		for (i = 0; i < eh.e_phnum && !interp; i++)
			interp = pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) ==
					 sizeof(ph) &&
				 ph.p_type == PT_INTERP;
	}
	close(fd);
	return eh.e_type == ET_EXEC || interp;
}

/* Adds the file at path to the targets, by its real path, unless there. */
static int add_target(struct st_exporter *x, const char *path, char *err, size_t errlen)
{
	struct st_export_target *t;
	char *real = realpath(path, NULL);
	struct stat st;
	size_t k;
	int ret = 0;

	if (!real || stat(real, &st)) {
		snprintf(err, errlen, "cannot find %s: %s", path, strerror(errno));
		ret = -ENOENT;
		goto cleanup;
	}
	for (k = 0; k < x->nr_targets; k++)
		if (!strcmp(x->targets[k].path, real))
			goto cleanup;
	t = realloc(x->targets, (k + 1) * sizeof(*t));
	if (!t) {
		ret = -ENOMEM;
		goto cleanup;
	}
	x->targets = t;
	t[k] = (struct st_export_target){real, st.st_dev, st.st_ino, is_program(real)};
	x->libraries += !t[k].program;
	x->nr_targets++;
	real = NULL; /* the target owns it */
cleanup:
	free(real);
	return ret;
}

/* The distinct files of the probes of every program. */
static int find_targets(struct st_exporter *x, char *err, size_t errlen)
{
	size_t i;
	uint32_t p;
	int ret;

	for (i = 0; i < x->nr_units; i++) {
		const struct st_compiled *c = x->units[i].compiled;

		for (p = 0; p < c->nr_probes; p++) {
			/* A kernel probe has no file that processes map. */
			if (st_event_kind(c->probes[p].event)->in_kernel)
				continue;
			ret = add_target(x, c->probes[p].event->path, err, errlen);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int st_exporter_prepare(struct st_exporter *x, char *err, size_t errlen)
{
	int ret = name_conflicts(x, err, errlen);

	if (!ret)
		ret = find_targets(x, err, errlen);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return ret;
}

/* Adds to found[t] whether process dir (a /proc entry) maps target t. */
static void process_maps(const struct st_exporter *x, const char *pid, bool *found)
{
	unsigned int maj, mnr;
	char path[sizeof("/proc//maps") + 256], line[512];
	unsigned long ino;
	size_t t;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return; /* gone meanwhile */
	while (fgets(line, sizeof(line), f)) {
		/* "start-end perms offset major:minor inode path" */
		if (sscanf(line, "%*s %*s %*s %x:%x %lu", &maj, &mnr, &ino) != 3 || !ino)
			continue;
		for (t = 0; t < x->nr_targets; t++)
			if (x->targets[t].ino == ino && x->targets[t].dev == makedev(maj, mnr))
				found[t] = true;
		/* A path longer than the line: skip the rest of it. */
		while (!strchr(line, '\n') && fgets(line, sizeof(line), f))
			;
	}
	fclose(f);
}

/* Marks in found[] the program targets that process pid runs. */
static void process_exe(const struct st_exporter *x, const char *pid, bool *found)
{
	char path[sizeof("/proc//exe") + 256];
	struct stat st;
	size_t t;

	snprintf(path, sizeof(path), "/proc/%s/exe", pid);
	if (stat(path, &st))
		return; /* gone, or a kernel thread */
	for (t = 0; t < x->nr_targets; t++)
		if (x->targets[t].program && x->targets[t].ino == st.st_ino &&
		    x->targets[t].dev == st.st_dev)
			found[t] = true;
}

/*
 * counts[t]: running processes that map target t. A program is found by
 * its processes' exe, cheaply; only shared libraries need every process's
 * maps read.
 */
static void count_processes(const struct st_exporter *x, unsigned long *counts, bool *found)
{
	struct dirent *de;
	DIR *d;
	size_t t;

	d = opendir("/proc");
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		memset(found, 0, x->nr_targets * sizeof(*found));
		if (x->libraries)
			process_maps(x, de->d_name, found);
		else
			process_exe(x, de->d_name, found);
		for (t = 0; t < x->nr_targets; t++)
			counts[t] += found[t];
	}
	closedir(d);
}

static void health_header(struct st_textbuf *tb, enum st_prom_format fmt, int h)
{
	st_prom_header(tb, fmt, health[h].name, health[h].type, health[h].help);
}

/* sidetrace_events_lost and sidetrace_strings_truncated of one program. */
static void unit_problems(struct st_textbuf *tb, const struct st_export_unit *u, bool truncated)
{
	const char *lnames[] = {"program", "probe", "reason"}, *lvals[3];
	struct st_problem *probs;
	char val[24];
	int n, i;

	n = st_problems_read(u->tracer, u->compiled, &probs);
	/* Counters that cannot be read leave the health samples out. */
	if (n < 0) {
		tb->failed = n == -ENOMEM;
		return;
	}
	for (i = 0; i < n; i++) {
		if ((probs[i].counter == ST_C_STR_TRUNC) != truncated)
			continue;
		lvals[0] = u->name;
		lvals[1] = u->compiled->probes[probs[i].probe].name;
		lvals[2] = st_counter_name(probs[i].counter);
		snprintf(val, sizeof(val), "%" PRIu64, probs[i].count);
		st_prom_sample(tb, health[truncated ? H_TRUNC : H_LOST].name, "_total", lnames,
			       lvals, truncated ? 2 : 3, val);
	}
	free(probs);
}

static void probe_sites(struct st_textbuf *tb, const struct st_export_unit *u)
{
	const char *lnames[] = {"program", "probe"}, *lvals[2];
	char val[24];
	uint32_t p;

	for (p = 0; p < u->compiled->nr_probes; p++) {
		lvals[0] = u->name;
		lvals[1] = u->compiled->probes[p].name;
		snprintf(val, sizeof(val), "%u", u->compiled->probes[p].event->nr_sites);
		st_prom_sample(tb, health[H_SITES].name, "", lnames, lvals, 2, val);
	}
}

/* sidetrace_replaced_files of one program (the poll in its thread updates the counts). */
static void replaced_files(struct st_textbuf *tb, const struct st_export_unit *u)
{
	const char *lnames[] = {"program", "target", "result"}, *lvals[3];
	const struct st_replaced *r = u->tracer->replaced;
	unsigned long n;
	char val[24];
	size_t i;
	int k;

	for (i = 0; r && i < r->nr; i++) {
		for (k = 0; k < 2; k++) {
			n = __atomic_load_n(k ? &r->files[i].refused : &r->files[i].attached,
					    __ATOMIC_RELAXED);
			if (!n)
				continue;
			lvals[0] = u->name;
			lvals[1] = r->files[i].path;
			lvals[2] = k ? "refused" : "attached";
			snprintf(val, sizeof(val), "%lu", n);
			st_prom_sample(tb, health[H_REPLACED].name, "_total", lnames, lvals, 3,
				       val);
		}
	}
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) + (t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The health families, after the maps. */
static void scrape_health(const struct st_exporter *x, struct st_textbuf *tb,
			  enum st_prom_format fmt, const struct timespec *t0)
{
	const char *lname = "target";
	unsigned long *counts;
	char val[32];
	bool *found;
	size_t i;

	health_header(tb, fmt, H_LOST);
	for (i = 0; i < x->nr_units; i++)
		unit_problems(tb, &x->units[i], false);
	health_header(tb, fmt, H_TRUNC);
	for (i = 0; i < x->nr_units; i++)
		unit_problems(tb, &x->units[i], true);
	health_header(tb, fmt, H_SITES);
	for (i = 0; i < x->nr_units; i++)
		probe_sites(tb, &x->units[i]);
	counts = calloc(x->nr_targets + 1, sizeof(*counts));
	found = calloc(x->nr_targets + 1, sizeof(*found));
	if (counts && found) {
		count_processes(x, counts, found);
		health_header(tb, fmt, H_PROCS);
		for (i = 0; i < x->nr_targets; i++) {
			snprintf(val, sizeof(val), "%lu", counts[i]);
			st_prom_sample(tb, health[H_PROCS].name, "", &lname,
				       (const char *const *)&x->targets[i].path, 1, val);
		}
	} else {
		tb->failed = true;
	}
	free(counts);
	free(found);
	health_header(tb, fmt, H_REPLACED);
	for (i = 0; i < x->nr_units; i++)
		replaced_files(tb, &x->units[i]);
	health_header(tb, fmt, H_DURATION);
	snprintf(val, sizeof(val), "%.6f", seconds_since(t0));
	st_prom_sample(tb, health[H_DURATION].name, "", NULL, NULL, 0, val);
}

char *st_exporter_scrape(const struct st_exporter *x, enum st_prom_format fmt, size_t *len)
{
	struct st_textbuf tb = {0};
	struct st_maps_snapshot snap;
	struct timespec t0;
	size_t i, m;
	char *text;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < x->nr_units; i++) {
		const struct st_export_unit *u = &x->units[i];

		if (!u->compiled->nr_maps)
			continue;
		ret = st_maps_read(u->tracer, u->prog, u->compiled, -1, &snap);
		if (ret) {
			st_tb_free(&tb);
			errno = -ret;
			return NULL;
		}
		for (m = 0; m < snap.nr_maps; m++)
			st_prom_map(&tb, fmt, &u->families[m], &snap.maps[m]);
		st_maps_snapshot_free(&snap);
	}
	scrape_health(x, &tb, fmt, &t0);
	st_prom_end(&tb, fmt);
	*len = tb.len;
	text = st_tb_take(&tb);
	if (!text)
		errno = ENOMEM;
	return text;
}

void st_exporter_free(struct st_exporter *x)
{
	size_t i;

	for (i = 0; i < x->nr_units; i++)
		free(x->units[i].families);
	for (i = 0; i < x->nr_targets; i++)
		free(x->targets[i].path);
	free(x->units);
	free(x->targets);
	memset(x, 0, sizeof(*x));
}
