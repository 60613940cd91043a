/* SPDX-License-Identifier: MIT */
/*
 * -k and -kk: the BPF helpers whose failures they report, one row each,
 * in bpftrace's words and at its levels, and the places of a program that
 * call them. The compile step gives an instruction of the stack machine
 * its place (st_insn.site); a failure there sends the place and the
 * helper's return (ST_REC_HELPER_ERR), and the collector says which
 * helper failed where. The collector's own clauses say it alike.
 */
#ifndef SIDETRACE_PARSE_HELPERS_H
#define SIDETRACE_PARSE_HELPERS_H

#include <stdbool.h>
#include <stdint.h>

#include "parse/ast.h"

enum st_helper {
	ST_H_MAP_LOOKUP,
	ST_H_MAP_UPDATE,
	ST_H_MAP_DELETE,
	ST_H_PROBE_READ,
	ST_H_PROBE_READ_STR,
	ST_H_PROBE_READ_KERNEL,
	ST_H_PROBE_READ_KERNEL_STR,
	ST_H_PROBE_READ_USER,
	ST_H_PROBE_READ_USER_STR,
	ST_NR_HELPERS,
};

/* The levels: -k, and -kk, which adds the helpers whose failure reads as 0 or "". */
#define ST_CHECK_HELPERS 1
#define ST_CHECK_ALL 2

struct st_helper_row {
	const char *name; /* bpftrace's, libbpf's name of the helper */
	uint8_t level; /* the least level that reports its failures */
};

const struct st_helper_row *st_helper(enum st_helper h);

/* Whether -k at level (0: none) reports h's failures. */
static inline bool st_helper_checked(uint8_t level, enum st_helper h)
{
	return level && st_helper(h)->level <= level;
}

/*
 * Which helper reads memory: the kernel's or a process's, or, where a
 * probe has no address space (BEGIN, END, interval), bpftrace's plain
 * probe_read; of a string or of bytes.
 */
enum st_read_space { ST_SPACE_NONE, ST_SPACE_KERNEL, ST_SPACE_USER };
enum st_helper st_read_helper(enum st_read_space space, bool str);

/* A call of a helper in the program: st_compiled.sites. */
struct st_helper_site {
	struct st_pos pos;
	uint8_t helper; /* enum st_helper */
};

#endif /* SIDETRACE_PARSE_HELPERS_H */
