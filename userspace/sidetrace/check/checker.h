/* SPDX-License-Identifier: MIT */
/*
 * Semantic checker: validates a parsed program against the SIDE events of
 * its targets and annotates the tree for the compile step.
 *
 * Events come from the caller (st_event_source), so the checker does no I/O
 * and tests can build events by hand. The source returns every event of a
 * target rather than the matches of one pattern: the checker does the '*'
 * matching itself, and needs the full list to suggest a near name.
 *
 * What st_check() leaves in the tree (ast.h, fields marked "checker:"):
 * - st_attach_point.events: the events each side: attach point matched (provider and
 *   event names compared with '*' wildcards; the SIDE names, or failing that
 *   the sanitized USDT names);
 * - st_clause.events: the union over the clause's probes, no duplicates;
 * - st_expr.vtype on every value expression: ST_VT_INT, ST_VT_UINT,
 *   ST_VT_BOOL or ST_VT_STR (integer literals are INT unless too large;
 *   arithmetic is UINT when both operands are unsigned, else INT;
 *   comparisons and && || ! are BOOL; pid tid cpu uid nsecs are UINT,
 *   comm and probe are STR);
 * - st_expr.refs on every args.* expression: refs[i] tells how to read it
 *   from clause->events[i]: the index path (top-level field index, then a
 *   member index or an element index per segment) and the SIDE leaf type;
 *   or, with nr_idx 0 and a SIDE_TYPE_DYNAMIC type, a dynamic field of a
 *   variadic event, read by its name path[0].name (see below);
 * - st_program.maps: one st_map_info per map name (aggregation, key count
 *   and key types, value signedness, lhist bounds); st_stmt.map_id and
 *   st_expr.map_id (print/clear/zero arguments) index it.
 *
 * Dynamic fields: in a variadic event, args.NAME where NAME is no static
 * field names a dynamic field, found by name at run time (at most
 * ST_NAME_LEN - 1 bytes; no .member or [index] after it). Its type is
 * inferred from its uses, one type per name and clause, fixed by the first
 * use that needs one (the filter, then statements left to right):
 * - an integer (ST_VT_INT) as an operand of arithmetic, of < <= > >= && ||
 *   ! - ~, as the filter, as the value of an aggregation, or compared with
 *   an integer;
 * - a string (ST_VT_STR) when compared with a string;
 * - compared with another dynamic field: the type an earlier use fixed,
 *   else a string;
 * - in a clause whose other events have a static field NAME, that type.
 * A map key takes the type any use in the clause fixed, else a string
 * (args.NAME + 0 makes it an integer). A use that needs the other type is
 * an error. At run time a value of another type is a decode error
 * (ST_C_ERR_DYNTYPE), an absent field one too (ST_C_ERR_NOFIELD): the
 * clause is skipped for that event.
 */
#ifndef SIDETRACE_CHECK_CHECKER_H
#define SIDETRACE_CHECK_CHECKER_H

#include "parse/ast.h"
#include "parse/diag.h"
#include "events/events.h"

/* What a function probe that matches no function is (bpftrace's tools name some that a build
 * lacks). */
enum st_missing_probes {
	ST_MISSING_WARN, /* skipped, the reason in st_attach_point.missing, said as a warning */
	ST_MISSING_ERROR, /* an error, as any probe that matches nothing */
	ST_MISSING_IGNORE, /* skipped, the reason kept, said by nobody */
};

struct st_event_source {
	/*
	 * The events a probe's query names (events/events.h): every event
	 * of the target of the query's kind, or its matching functions; NULL
	 * with the reason in err ("no such file"). The list belongs to the
	 * source and must outlive the program.
	 */
	const struct st_event_list *(*probe_events)(void *ctx, const struct st_probe_query *q,
						    char *err, size_t err_size);
	void *ctx;
	enum st_missing_probes missing;
};

/*
 * Checks and annotates prog (once). Returns 0, or -EINVAL with the first
 * error in *diag, or -ENOMEM.
 */
int st_check(struct st_program *prog, const struct st_event_source *src, struct st_diag *diag);

#endif /* SIDETRACE_CHECK_CHECKER_H */
