/* SPDX-License-Identifier: MIT */
/*
 * Aggregated maps as Prometheus metrics, in the text format 0.0.4 or in
 * OpenMetrics 1.0.0, whichever the scraper asks for (st_prom_negotiate).
 *
 * Each map is one metric family named sidetrace_<map name>:
 *   count()             counter
 *   sum()               counter; a gauge when its values are signed (it
 *                       can go down)
 *   avg() min() max()   gauge (avg as a float: sum / count)
 *   stats()             summary without quantiles: _sum and _count
 *   hist() lhist()      histogram: cumulative _bucket{le=...}, +Inf, _sum,
 *                       _count; le is the largest integer of a bucket
 *                       (values are integers): log2 edges -1 (negative
 *                       values), 0, 1, 3, 7, ... 2^63 - 1 for hist, and
 *                       min - 1, min + step - 1, ... for lhist.
 * A counter's samples end in _total in both formats (the family carries
 * it in 0.0.4, as Prometheus names the series), so a series has the same
 * name whichever format was scraped. Map keys become labels named after
 * the key expression (args.path -> path, args.peer.port -> peer_port, comm,
 * pid); other expressions, and names that would clash, get key0, key1...
 */
#ifndef SIDETRACE_OUTPUT_PROM_H
#define SIDETRACE_OUTPUT_PROM_H

#include <stdbool.h>
#include <stddef.h>

#include "parse/ast.h"
#include "parse/diag.h"
#include "output/maps_print.h"
#include "util/textbuf.h"

enum st_prom_format {
	ST_PROM_TEXT, /* text/plain; version=0.0.4 */
	ST_PROM_OPENMETRICS, /* application/openmetrics-text; version=1.0.0 */
};

enum st_prom_type {
	ST_PROM_COUNTER,
	ST_PROM_GAUGE,
	ST_PROM_SUMMARY,
	ST_PROM_HISTOGRAM,
};

/* Longest metric or label name; map names are shorter than that. */
#define ST_PROM_NAME_MAX 96

/* How one map is exported. */
struct st_prom_family {
	char name[ST_PROM_NAME_MAX]; /* a counter's without its _total */
	enum st_prom_type type;
	char help[160];
	uint32_t nr_labels;
	char labels[ST_MAX_MAP_KEYS][ST_PROM_NAME_MAX];
};

/*
 * The family of map map_id of a checked program. 0, or -EINVAL with the
 * reason in *diag (a map without a name cannot name a metric).
 */
int st_prom_family_init(struct st_prom_family *f, const struct st_program *prog, uint32_t map_id,
			struct st_diag *diag);

/* Most names one family puts in an exposition (st_prom_family_names). */
#define ST_PROM_FAMILY_NAMES 4

/*
 * The metric and sample names family f puts in either format: two
 * families that share one would make an exposition a scraper refuses.
 * Fills out[] and returns how many.
 */
size_t st_prom_family_names(const struct st_prom_family *f,
			    char out[ST_PROM_FAMILY_NAMES][ST_PROM_NAME_MAX + 8]);

/*
 * Appends map m (its entries read, st_maps_read) as family f. A map
 * without keys that has counted nothing yet shows zero as a counter,
 * summary or histogram (so that rate() sees it start), and nothing as
 * a gauge.
 */
void st_prom_map(struct st_textbuf *tb, enum st_prom_format fmt, const struct st_prom_family *f,
		 const struct st_map_result *m);

/* # HELP and # TYPE of a family (a counter's name without _total). */
void st_prom_header(struct st_textbuf *tb, enum st_prom_format fmt, const char *name,
		    enum st_prom_type type, const char *help);

/*
 * One sample line: name then suffix ("" or "_total", "_sum"...), labels
 * (nr pairs of names and values, values escaped here), then value as text.
 */
void st_prom_sample(struct st_textbuf *tb, const char *name, const char *suffix,
		    const char *const *lnames, const char *const *lvals, uint32_t nr,
		    const char *value);

/* Ends an exposition (OpenMetrics: "# EOF"). */
void st_prom_end(struct st_textbuf *tb, enum st_prom_format fmt);

/* The Content-Type header of fmt. */
const char *st_prom_content_type(enum st_prom_format fmt);

/*
 * The format an Accept header asks for: OpenMetrics when it weighs
 * application/openmetrics-text (version 1.0.0 or none) at least as much as
 * text/plain, else text 0.0.4; NULL (no header) is text.
 */
enum st_prom_format st_prom_negotiate(const char *accept);

#endif /* SIDETRACE_OUTPUT_PROM_H */
