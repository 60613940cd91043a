/* SPDX-License-Identifier: MIT */
/*
 * What the parts of the compile step share (internal to compile/):
 * compile.c walks the clauses, codegen.c emits a clause's instructions,
 * loads.c its field loads, layout.c the maps, specialize.c picks the
 * program that serves each probe.
 */
#ifndef SIDETRACE_COMPILE_CODEGEN_H
#define SIDETRACE_COMPILE_CODEGEN_H

#include "compile/compile.h"
#include "lang/checker.h"

/* State while compiling one clause for one of its events. */
struct cctx {
	const struct st_program *prog;
	struct st_diag *diag;
	struct st_compiled *out;
	struct st_compiled_probe *probe;
	uint32_t probe_idx;
	uint32_t ev_idx; /* index of the event in clause->events */
	unsigned int flags; /* ST_COMPILE_* */
	uint32_t depth; /* stack depth at the current instruction */
};

/* Records msg at pos; returns -EINVAL. */
int cg_fail(struct cctx *c, struct st_pos pos, const char *msg);
/* The load slot that reads field expression e, added unless already there. */
int cg_add_load(struct cctx *c, const struct st_expr *e);
/* Appends one instruction; fails past ST_MAX_INSNS or the stack's depth. */
int cg_emit(struct cctx *c, struct st_pos pos, uint8_t op, uint8_t a, int64_t imm);
/* Appends the code of expression e, which leaves its value on the stack. */
int cg_expr(struct cctx *c, const struct st_expr *e);
/* printf: the values into a record, then the record sent. */
int cg_printf(struct cctx *c, const struct st_stmt *st);
/* print(args): the whole event into a record, sent. */
int cg_print_event(struct cctx *c, const struct st_stmt *st);
/* Appends the code of clause cl for the event c->ev_idx to c->probe. */
int cg_clause(struct cctx *c, const struct st_clause *cl);
/* Map configurations and key layouts from the checker's map table. */
int cg_layout_maps(const struct st_program *prog, struct st_compiled *out, struct st_diag *diag);
/* Which specialized program serves p, if any (count-only, plain, flat). */
void cg_find_count_only(struct st_compiled *out, struct st_compiled_probe *p);
void cg_find_plain(struct st_compiled_probe *p);
void cg_find_flat(const struct st_compiled *out, struct st_compiled_probe *p);

#endif /* SIDETRACE_COMPILE_CODEGEN_H */
