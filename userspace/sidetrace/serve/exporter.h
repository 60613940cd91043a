/* SPDX-License-Identifier: MIT */
/*
 * What `sidetrace serve` answers to a scrape: every map of every program
 * it runs, read from the kernel at that moment (output/prom.h says how
 * each becomes a metric family), then its own health:
 *
 *   sidetrace_events_lost_total{program,probe,reason}  events not counted:
 *       decode errors and drops (map_full, busy), as st_counter_name()
 *       names them; a series appears with the first loss
 *   sidetrace_strings_truncated_total{program,probe}    strings cut short
 *   sidetrace_probe_sites{program,probe}     call sites attached per probe
 *   sidetrace_processes{target}  running processes that map a traced file
 *   sidetrace_replaced_files_total{program,target,result}  files replaced on disk
 *   sidetrace_scrape_duration_seconds        the time this scrape took
 */
#ifndef SIDETRACE_SERVE_EXPORTER_H
#define SIDETRACE_SERVE_EXPORTER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "compile/compile.h"
#include "parse/ast.h"
#include "parse/diag.h"
#include "output/prom.h"
#include "tracer/tracer.h"

/* One program served. */
struct st_export_unit {
	const char *name; /* its file, or "program" for -e: the program label */
	const struct st_program *prog;
	const struct st_compiled *compiled;
	const struct st_tracer *tracer;
	struct st_prom_family *families; /* one per map, owned */
};

/* A file that probes are attached in: processes that map it are counted. */
struct st_export_target {
	char *path; /* real path, owned */
	dev_t dev;
	ino_t ino;
	bool program; /* an executable, not a shared library */
};

struct st_exporter {
	struct st_export_unit *units;
	size_t nr_units;
	struct st_export_target *targets;
	size_t nr_targets;
	size_t libraries; /* targets that are shared libraries */
};

/*
 * Adds a checked and compiled program whose probes tracer will load and
 * attach (it is read at scrapes only), naming the families of its maps.
 * Returns 0, -EINVAL with the reason in *diag (a map that cannot name a
 * metric, clear() or zero() of a counter), or -ENOMEM.
 */
int st_exporter_add(struct st_exporter *x, const char *name, const struct st_program *prog,
		    const struct st_compiled *compiled, const struct st_tracer *tracer,
		    struct st_diag *diag);

/*
 * Checks that no two families, nor a family and the exporter's own
 * metrics, share a name; finds the files the probes attach in. 0, or
 * -EINVAL with a message in err, or -ENOMEM.
 */
int st_exporter_prepare(struct st_exporter *x, char *err, size_t errlen);

/*
 * The exposition in format fmt (malloc'ed, *len bytes), or NULL with
 * errno set when a map could not be read.
 */
char *st_exporter_scrape(const struct st_exporter *x, enum st_prom_format fmt, size_t *len);

void st_exporter_free(struct st_exporter *x);

#endif /* SIDETRACE_SERVE_EXPORTER_H */
