/* SPDX-License-Identifier: MIT */
/*
 * Printing of aggregated maps, byte for byte as bpftrace 0.17 prints them
 * (text) or as `bpftrace -f json` does (one JSON document a line).
 *
 * The printer takes plain data: whoever reads the BPF maps fills one
 * st_map_result per map, entries in any order; the printer sorts them the
 * way bpftrace does (see st_output_map) and never modifies them.
 *
 * Deliberate differences from bpftrace 0.17, where it prints wrong data:
 * - hist buckets go up to [2^63, 2^64) with correct JSON bounds (bpftrace
 *   caps them and prints "min": -2147483648 for [2G, 4G));
 * - JSON strings pass well-formed UTF-8 through and are always valid
 *   UTF-8 (util/json.h), where bpftrace escapes bytes >= 0x80 as invalid
 *   "\uffffffc3";
 * - in text, a string key's control and malformed bytes show as \xNN
 *   (util/escape.h) instead of reaching the terminal raw;
 * - equal values are ordered by key, so the output is deterministic;
 * - in JSON, st_output_exit_maps prints no blank lines between documents.
 */
#ifndef SIDETRACE_OUTPUT_MAPS_PRINT_H
#define SIDETRACE_OUTPUT_MAPS_PRINT_H

#include <stdio.h>

#include "parse/ast.h"

enum st_output_format {
	ST_OUTPUT_TEXT,
	ST_OUTPUT_JSON,
	/*
	 * Text, but a map keyed by a stack prints one line per key, its
	 * frames root first joined by ';' (other key parts first), then its
	 * value: the collapsed stacks that flame-graph tools read.
	 */
	ST_OUTPUT_FOLDED,
};

/* One key element; type is ST_VT_INT, ST_VT_UINT, ST_VT_BOOL or ST_VT_STR. */
struct st_key_val {
	enum st_vtype type;
	bool stack; /* ST_VT_STR: a stack's frames, one a line, innermost first */
	bool perf_stack; /* a stack's frames as perf prints them, each with its address */
	/* ST_VT_STR: text sidetrace wrote, escaped already (a buffer's), printed as it is */
	bool made;
	union {
		int64_t i; /* ST_VT_INT */
		uint64_t u; /* ST_VT_UINT, ST_VT_BOOL */
		double d; /* ST_VT_FLOAT */
		/* ST_VT_STR, NUL-terminated; ST_VT_BUF: its slot, ST_STR_LEN bytes */
		const char *s;
	};
};

/* One key of a map and its aggregated value, all CPUs already combined. */
struct st_map_entry {
	const struct st_key_val *keys; /* st_map_result.nr_keys of them */
	/* COUNT, SUM, MIN, MAX, VALUE: an int64_t when value_signed */
	uint64_t value;
	const char *str; /* VALUE of a map of strings */
	const char *json; /* VALUE of a whole value's map: its JSON, written as it is */
	bool str_made; /* str is text sidetrace wrote, escaped already (a buffer's) */
	/* number of values (every kind); AVG, STATS, HIST, LHIST: their sum */
	int64_t count;
	int64_t total;
	/* HIST: ST_HIST_BUCKETS counts; LHIST: st_lhist_buckets() counts */
	const uint64_t *buckets;
};

struct st_map_result {
	const char *name; /* "@x", or "@" */
	enum st_agg_kind agg;
	uint32_t nr_keys; /* 0: one entry with keys == NULL */
	bool value_signed; /* SUM, MIN, MAX: print value as int64_t */
	int64_t lhist_min, lhist_max, lhist_step; /* LHIST */
	const struct st_map_entry *entries;
	size_t nr_entries;
	/* print(@m, top, div): only the last top entries (0: all), values / div */
	size_t top;
	uint64_t div;
	bool leaf; /* a leaf of a whole value's map: printed in it, never alone */
};

/*
 * Prints one map as print(@x) does. Entries are sorted ascending by value
 * (COUNT, SUM, MIN, MAX), by average (AVG, STATS) or by the total of their
 * buckets (HIST, LHIST). A map with no entry prints as bpftrace prints it:
 * blank line(s) in text, nothing in JSON. 0, or -ENOMEM.
 */
int st_output_map(FILE *f, enum st_output_format fmt, const struct st_map_result *map);

/* Prints every map, ordered by name, as bpftrace does on SIGUSR1. 0, or -ENOMEM. */
int st_output_all_maps(FILE *f, enum st_output_format fmt, const struct st_map_result *maps,
		       size_t nr_maps);

/*
 * Prints every map as bpftrace does when the program ends: in text, two
 * newlines then the maps ordered by name. 0, or -ENOMEM.
 */
int st_output_exit_maps(FILE *f, enum st_output_format fmt, const struct st_map_result *maps,
			size_t nr_maps);

/* "Attaching N probes..." or its JSON document. */
void st_output_attached(FILE *f, enum st_output_format fmt, unsigned int nr_probes);

#endif /* SIDETRACE_OUTPUT_MAPS_PRINT_H */
