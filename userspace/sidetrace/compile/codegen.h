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
#include "check/checker.h"
#include "parse/functions.h"

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
	const struct st_clause *clause; /* being compiled */
	uint32_t nr_tmp; /* temporary strings of the clause (ST_STR_REF_TMP) */
	/*
	 * The innermost while loop: its condition's pc (continue), and its
	 * breaks' jumps, each one's imm the previous one's pc until the
	 * loop's end is known (-1: none). in_loop false: outside any.
	 */
	bool in_loop;
	uint32_t loop_top;
	int64_t breaks;
};

/* Records msg at pos; returns -EINVAL. */
int cg_fail(struct cctx *c, struct st_pos pos, const char *msg);
/* The load slot that reads field expression e, added unless already there. */
int cg_add_load(struct cctx *c, const struct st_expr *e);
/* The load slot that reads the integer of SDT argument arg, added unless already there. */
int cg_add_sdt_load(struct cctx *c, const struct st_expr *e, uint32_t arg);
/* reg(), uaddr(): a value of the event's registers (regs.c). */
int cg_regs(struct cctx *c, const struct st_expr *e);
/* Appends one instruction; fails past ST_MAX_INSNS or the stack's depth. */
int cg_emit(struct cctx *c, struct st_pos pos, uint8_t op, uint8_t a, int64_t imm);
/* Appends the code of expression e, which leaves its value on the stack. */
int cg_expr(struct cctx *c, const struct st_expr *e);
/* printf: the values into a record, then the record sent. */
int cg_printf(struct cctx *c, const struct st_stmt *st);
/*
 * The entry of a statement that sends records (printf, join(), ...) in
 * out->printfs, its index the records' id: *added when it is new, zeroed
 * but for its call.
 */
int cg_record_layout(struct cctx *c, const struct st_expr *call, bool *added);
/* join(): the array's strings into a record of its own (codegen_calls.c). */
int cg_join(struct cctx *c, const struct st_stmt *st);
/*
 * print(@m), clear(@m), zero(@m) in a probe: a record of no values, on
 * which the collector acts as bpftrace's user space does, when it reads it
 * (session/stream.c).
 */
int cg_map_action(struct cctx *c, const struct st_stmt *st);
/* The record emitted last is one the collector acts on: it wakes it at once (ST_EMIT_WAKE). */
int cg_wake(struct cctx *c);
/* print(args): the whole event into a record, sent. */
int cg_print_event(struct cctx *c, const struct st_stmt *st);
/* The code of a block's statements. */
int cg_stmts(struct cctx *c, const struct st_stmt *stmts, uint32_t nr);
/* True if value or a key reads a map: keys are then built stacked (cg_keys). */
bool cg_reads_map(const struct st_expr *value, struct st_expr *const *keys, uint32_t nr_keys);
/* The key of map m into the key buffer; stacked when parts read maps. */
int cg_keys(struct cctx *c, int m, struct st_expr *const *keys, uint32_t nr_keys, bool stacked);
/* Expressions of state.c: @m[k], ?:, casts, str(). */
int cg_map_read(struct cctx *c, const struct st_expr *e);
int cg_ternary(struct cctx *c, const struct st_expr *e);
int cg_cast(struct cctx *c, const struct st_expr *e);
int cg_str(struct cctx *c, const struct st_expr *e);
/* A temporary string slot of the clause: its string reference, or -EINVAL. */
int cg_tmp_str(struct cctx *c, struct st_pos pos);
/*
 * -k: the instruction emitted last reports the failures of helper h at
 * pos (helper_sites.c, parse/helpers.h), when the level asks for them;
 * 0 or -errno.
 */
int cg_check(struct cctx *c, struct st_pos pos, enum st_helper h);
/* Sets the mask of the instruction emitted last (ST_I_READ_STR's flags). */
int cg_read_flags(struct cctx *c, uint32_t mask);
/* C values of codegen_mem.c: a member, element or pointee read; str(address). */
int cg_mem_read(struct cctx *c, const struct st_expr *e);
int cg_str_at(struct cctx *c, const struct st_expr *e);
/*
 * str()'s length n (NULL: none) for ST_I_READ_STR or ST_I_STRN: a constant
 * is the instruction's *imm, in bytes with the NUL (ST_STR_BYTES()); one
 * computed per event is emitted here, for the instruction to pop
 * (ST_READ_LEN in *mask).
 */
int cg_str_len(struct cctx *c, const struct st_expr *n, int64_t *imm, uint32_t *mask);
/* buf(), macaddr(), ntop() of an array: the bytes read into a buffer. */
int cg_buf(struct cctx *c, const struct st_expr *e);
/* Statements of state.c: assignments, if/else, delete(). */
int cg_assign(struct cctx *c, const struct st_stmt *st);
int cg_if(struct cctx *c, const struct st_stmt *st);
int cg_loop_jump(struct cctx *c, const struct st_stmt *st);
int cg_delete(struct cctx *c, const struct st_expr *call);
/* Appends the code of clause cl for the event c->ev_idx to c->probe. */
int cg_clause(struct cctx *c, const struct st_clause *cl);
/* Map configurations and key layouts from the checker's map table. */
int cg_layout_maps(const struct st_program *prog, struct st_compiled *out, struct st_diag *diag);
/* Which specialized program serves p, if any (count-only, plain, flat). */
void cg_find_count_only(struct st_compiled *out, struct st_compiled_probe *p);
void cg_find_plain(const struct st_compiled *out, struct st_compiled_probe *p);
void cg_find_flat(const struct st_compiled *out, struct st_compiled_probe *p);
void cg_find_keyed(const struct st_compiled *out, struct st_compiled_probe *p);
void cg_find_ro_loads(const struct st_compiled *out, struct st_compiled_probe *p);

#endif /* SIDETRACE_COMPILE_CODEGEN_H */
