/* SPDX-License-Identifier: MIT */
/*
 * The checker's state and the helpers its parts share (internal to check/):
 * check_points.c matches probes to events, check_fields.c resolves args.*
 * paths and types dynamic fields, check_exprs.c types expressions,
 * checker.c checks statements and maps and runs the whole (st_check).
 */
#ifndef SIDETRACE_CHECK_CHECK_H
#define SIDETRACE_CHECK_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check/checker.h"
#include "parse/functions.h"
#include "kinds/probe_kinds.h"

/* Names a scope holds: the variables, and the whole values kept in some of them. */
#define CK_MAX_SCOPE (2 * ST_MAX_VARS)

/* The type of a dynamic field once a use fixed it, and that use. */
struct dyn_type {
	const char *name;
	enum st_vtype vtype; /* ST_VT_INT or ST_VT_STR */
	struct st_pos pos;
	const char *why;
};

struct checker {
	struct st_program *prog;
	const struct st_event_source *src;
	struct st_diag *diag;
	struct st_clause *clause; /* being checked */
	const struct st_attach_point *no_args; /* a probe of it without args */
	/* The expression being checked is a printf argument: a float may be one. */
	bool float_ok;
	/*
	 * The expression being checked may be a whole value (ST_VT_WHOLE):
	 * it is assigned, printed, a key, compared, or read by member or
	 * element. Reset for the expressions inside it.
	 */
	bool whole_ok;
	uint32_t nr_incr; /* x++ made $+N: the next N in this statement (check_incr.c) */
	/* Dynamic fields of the clause; reset per clause. */
	struct dyn_type *dyn;
	uint32_t nr_dyn;
	/* Variables visible where the check is, innermost last. */
	struct {
		const char *name;
		int slot; /* -1: a whole value's, kept in the variables of its leaves */
		struct st_ctype *whole;
	} scope[CK_MAX_SCOPE];
	uint32_t nr_scope;
	/*
	 * if and while blocks open (not the checker's own blocks, which
	 * always run): a variable first assigned in one may be read where it
	 * did not run, so the clause starts it at 0 or "" (var_deep, by slot)
	 */
	uint32_t depth;
	bool var_deep[ST_MAX_VARS];
	/* The program's events so far, and its iter: probe (check_points.c: it runs alone) */
	uint32_t nr_events;
	const struct st_attach_point *iter;
};

/* A bounded string builder for messages listing names. */
struct names {
	char buf[320];
	size_t len;
	unsigned int n;
};

/* Records an error at pos (the first one wins); returns -EINVAL. */
int ck_err(struct checker *c, struct st_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Records "out of memory"; returns -ENOMEM. */
int ck_oom(struct checker *c);
/* Appends "a" (or "a:b") to a list of names for a message. */
void ck_names_add(struct names *l, const char *a, const char *b);
/* have is a plausible misspelling of want ("did you mean"). */
bool ck_is_near(const char *want, const char *have);
/* "BEGIN", "END", "interval" for messages. */
const char *ck_point_kind_name(const struct st_attach_point *p);

/* After every clause: a map read before it was typed must not hold strings. */
int ck_maps_untyped(struct checker *c);

/* Whether the checked e is a whole 64-bit operand of a located probe (argN). */
bool ck_addr_operand(const struct st_expr *e);
/* str(argN): the usdt: operand e read as the address of a string. */
/*
 * A kernel probe's char * field (args->filename of a syscall) assigned
 * to a map read only by str() (opensnoop.bt's @filename[tid]): kept as
 * the pointer, and read where str() reads it, as bpftrace does, when the
 * syscall has paged the string in.
 */
int ck_string_pointer(struct checker *c, struct st_expr *e);
int ck_str_at(struct checker *c, struct st_expr *e);

/* Matches a side: or usdt: probe to the events of its target. */
int ck_sites_point(struct checker *c, struct st_attach_point *p);

/* "args.a.b[2]" up to (excluding) path segment n. */
void ck_path_text(const struct st_expr *e, uint32_t n, char *buf, size_t size);
bool ck_is_int(enum st_vtype t);
/* "a string" or "an integer". */
const char *ck_vtype_kind(enum st_vtype t);
/* Types a dynamic field from its use (vt) unless already typed. */
int ck_settle(struct checker *c, struct st_expr *e, enum st_vtype vt, const char *why);
/* Types a dynamic field from an earlier use, else as a string. */
int ck_settle_default(struct checker *c, struct st_expr *e, const char *why);
/* Resolves args.PATH in every event of the clause. */
int ck_field(struct checker *c, struct st_expr *e);

/* printf: its format parsed into call->fmt, the arguments matched with it. */
int ck_printf(struct checker *c, struct st_expr *call);
/* print(args) of a usdt:, uprobe: or uretprobe: probe: the printf of its arguments by name. */
int ck_print_located(struct checker *c, struct st_expr *call);
/* Whether some event of the clause is of a located kind (usdt:, uprobe:, uretprobe:). */
bool ck_clause_located(const struct checker *c);

/* The entry of the map s assigns made, or s checked against it: s->map_id. */
int ck_declare(struct checker *c, struct st_stmt *s);
/* Maps: entries for every assigned map, before any clause is checked. */
int ck_declare_maps(struct checker *c);
/* A map named by ref->str: ref->map_id, or an error naming the maps there are. */
int ck_map_ref(struct checker *c, struct st_expr *ref);
/* The keys of a use of map map_id: their number and kinds. */
int ck_map_keys(struct checker *c, int map_id, struct st_expr ***keys, uint32_t *nr_keys,
		struct st_pos pos);
/* @m[k] read as a value. */
int ck_map_read(struct checker *c, struct st_expr *e);
/* The checked value s assigns to its map: the map's value type. */
int ck_map_value(struct checker *c, struct st_stmt *s);

/* Statements of a block, in order. */
int ck_stmts(struct checker *c, struct st_stmt *stmts, uint32_t nr);
/* @m[k] = aggregation. */
int ck_agg_stmt(struct checker *c, struct st_stmt *s);
/* A call statement: printf, print, clear, zero, delete, exit. */
int ck_action(struct checker *c, struct st_stmt *s);
/* $name read: its slot and type. */
int ck_var(struct checker *c, struct st_expr *e);
/* time("fmt"): rewritten into the printf that prints the event's time. */
int ck_time(struct checker *c, struct st_expr *call);
/* print(value), the value checked: call->fmt becomes the format that prints it. */
int ck_print_value(struct checker *c, struct st_expr *call);

/* A call's arguments, by its function's rule (st_func_row.args). */
int ck_call_args(struct checker *c, struct st_expr *call);
/* str(s), str(s, n). */
int ck_str(struct checker *c, struct st_expr *e);
/* ksym(addr), usym(addr). */
int ck_sym(struct checker *c, struct st_expr *e);
/* kaddr("sym"): becomes the symbol's address, an integer literal. */
int ck_kaddr(struct checker *c, struct st_expr *e);
/* reg("sp"), uaddr("sym"): the event's registers (check_regs.c). */
int ck_reg(struct checker *c, struct st_expr *e);
int ck_uaddr(struct checker *c, struct st_expr *e);
/* strcontains(a, b): two strings (check_calls.c). */
int ck_strings(struct checker *c, struct st_expr *e);
/* cgroup_path(id): printed as the id's cgroup's paths (check_calls.c). */
int ck_cgroup_path(struct checker *c, struct st_expr *e);
/* strftime("fmt", ns). */
int ck_strftime(struct checker *c, struct st_expr *e);
/* An error where a clause of sidetrace's own runs call, which its row says it cannot run. */
int ck_host_has(struct checker *c, const struct st_expr *call);
/* join(arr), join(arr, "delim") (check_calls.c). */
int ck_join(struct checker *c, struct st_expr *call);
/* ntop(addr), ntop(af, addr). */
int ck_ntop(struct checker *c, struct st_expr *call);
/* pton("addr"): the address's bytes, a constant buffer. */
int ck_pton(struct checker *c, struct st_expr *call);
/* buf(addr, n), buf(array), buf("literal", n) (check_bufs.c). */
int ck_buf(struct checker *c, struct st_expr *call);
/* pton("addr")[i]: the constant's byte, an integer literal. */
int ck_buf_index(struct checker *c, struct st_expr *e);
/* macaddr(addr), macaddr(array). */
int ck_macaddr(struct checker *c, struct st_expr *call);
/* Checks x, an argument that may be an array: a whole one stands for its bytes. */
int ck_bytes_arg(struct checker *c, struct st_expr *x);
/* Whether checked x is bytes (an array, a constant buffer), not an integer address. */
bool ck_bytes_of(const struct st_expr *x);
/*
 * call, whose last argument is checked bytes (ck_bytes_of), made a buffer
 * of kind of n bytes (0: as many as they are).
 */
int ck_make_buf(struct checker *c, struct st_expr *call, enum st_buf_kind kind, uint32_t n);
/* e made the constant buffer of kind of the n bytes at bytes, what it held freed. */
int ck_buf_const(struct checker *c, struct st_expr *e, enum st_buf_kind kind, const void *bytes,
		 uint32_t n);
/* An error where call acts on the system (system(), signal()) without --unsafe. */
int ck_unsafe(struct checker *c, const struct st_expr *call);
/* signal(n), signal("SIGKILL"): a name becomes its number. */
int ck_signal(struct checker *c, struct st_expr *call);
/* unwatch(addr): an integer, sent as print(addr) would print it (ck_print_value()). */
int ck_unwatch(struct checker *c, struct st_expr *call);
/* cgroupid("path"): becomes the cgroup's id, an integer literal. */
int ck_cgroupid(struct checker *c, struct st_expr *call);

/* $name's slot where the check is, or -1. */
int ck_find_var(const struct checker *c, const char *name);
/* The map named name, or -1. */
int ck_find_map(const struct st_program *prog, const char *name);
/* An assignment (check_stmts.c). */
int ck_assign(struct checker *c, struct st_stmt *s);

/*
 * ++ and -- inside s's expressions made statements before it: s becomes
 * the block of them and itself (1), to be checked where s is; 0 when it
 * has none, or s is a while loop, whose condition's go into its block;
 * or an error.
 */
int ck_hoist_incr(struct checker *c, struct st_stmt *s);
/* A filter's ++ and --: the clause becomes their statements, then an if of the filter. */
int ck_hoist_filter(struct checker *c, struct st_clause *cl);
/* The clause's variables first assigned in a block, started at 0 or "" at its top. */
int ck_zero_vars(struct checker *c, struct st_clause *cl);
/*
 * The id of a call's literal that its value is kept with (lit: strftime()'s
 * format, cgroup_path()'s filter) into call->uval (parse/builtins.h).
 */
int ck_kept_arg(struct checker *c, struct st_expr *call, const struct st_expr *lit);
/* The C type ctx points to in ev's kind where its row names one (into buf), else NULL. */
const char *ck_ctx_ctype(const struct st_event *ev, char *buf, size_t size);
/* path() of a struct path or a file where the clause's probes find one (check_dpath.c). */
int ck_dpath(struct checker *c, struct st_expr *call);
/* ck_expr() where a whole value may stand. */
int ck_expr_whole(struct checker *c, struct st_expr *e);
/* Whole values (check_whole.c): (a, b) checked into a tuple. */
int ck_tuple(struct checker *c, struct st_expr *e);
/* $name read when it holds a whole value: 0, or 1 when it does not. */
int ck_whole_var(struct checker *c, struct st_expr *e);
bool ck_is_whole_var(const struct checker *c, const char *name);
/* $v = whole, @m[k] = whole: s becomes a block that assigns every leaf. */
int ck_whole_assign(struct checker *c, struct st_stmt *s);
/* e.NAME or e[i] of a whole value kept leaf by leaf: e becomes the leaf or part. */
int ck_whole_part(struct checker *c, struct st_expr *e);
/* Key k, a whole value checked, replaced by its leaves, checked: *parts of them. */
int ck_whole_key(struct checker *c, struct st_expr ***keys, uint32_t *nr, uint32_t k,
		 uint32_t *parts);
/* clear(), zero() or delete() of a whole value's map: s becomes a block acting on its leaves. */
int ck_whole_map_action(struct checker *c, struct st_stmt *s);
/* whole == whole, whole != whole: e becomes the comparison of every leaf. */
int ck_whole_compare(struct checker *c, struct st_expr *e);
/* print(whole): the call becomes the printf that prints it as bpftrace does. */
int ck_whole_print(struct checker *c, struct st_expr *call);

/* The program's C types (ctypes/), made when first needed; NULL when out of memory. */
struct st_ctypes *ck_ctypes(struct checker *c);
/* An identifier: the value of the enum constant it names (it becomes ST_EXPR_INT). */
int ck_enum_value(struct checker *c, struct st_expr *e);
/* e is a pointer to the kernel's type named to ("struct task_struct"). */
int ck_kernel_pointer(struct checker *c, struct st_expr *e, const char *to);
/* Refuses what reads at an address (what: "'->'") in BEGIN, END or interval. */
int ck_reads_memory(struct checker *c, struct st_pos pos, const char *what);
/* (type)value: to an integer, or to a C pointer. */
int ck_cast(struct checker *c, struct st_expr *e);
/*
 * p->m and s.m, a[i] and p[i], *p; any other expression as ck_expr().
 * object: e is the operand of another such read, where a struct, union
 * or array may stand.
 */
int ck_c_read(struct checker *c, struct st_expr *e, bool object);
/*
 * args.p->m where field p is a pointer its declaration types: rewritten
 * in place into ((T *)args.p)->m, then checked as such by the caller.
 */
int ck_c_path(struct checker *c, struct st_expr *e);
/*
 * args.saddr, a whole array of a kernel probe's record (a tracepoint's
 * __u8 saddr[4]): rewritten in place into *(its C array type *)its
 * address, so that whatever reads a C array (ntop(), buf(), print(), a
 * map's key or value) reads it.
 */
int ck_record_array(struct checker *c, struct st_expr *e);
/*
 * A function's parameter args.p, a C pointer its declaration names
 * ("struct Foo*"): its C type, from the program, the kernel's BTF or the
 * probed object's DWARF, so that *p, p->m and p[i] read through it.
 */
int ck_field_ctype(struct checker *c, struct st_expr *e);
/*
 * A checked binary expression on a pointer (p + n): the pointer's type
 * kept, n made n * the element's size.
 */
int ck_ctype_arith(struct checker *c, struct st_expr *e);
/* *n, a count of p's elements, made their bytes (n * size). */
int ck_elements(struct checker *c, struct st_expr **n, struct st_ctype *p);

/* sizeof(type), sizeof(value): the size, a constant (the call becomes ST_EXPR_INT). */
int ck_sizeof(struct checker *c, struct st_expr *e);
/* strncmp(a, b, n): made str(a, n + 1) != str(b, n + 1). */
int ck_strncmp(struct checker *c, struct st_expr *e);
/* bswap(v): the size of v's type into e->uval. */
int ck_bswap(struct checker *c, struct st_expr *e);
/* Checked e is an integer (a dynamic field typed one), for role ("buf()'s address"). */
int ck_need_int(struct checker *c, struct st_expr *e, const char *role);

/* Types an expression and its operands. */
int ck_expr(struct checker *c, struct st_expr *e);
/* Checks that e is an integer in its role ("a cast", "sum()'s value"). */
int ck_int(struct checker *c, struct st_expr *e, const char *role);
/* A condition in its role ("the filter"): a string one becomes *ep != "". */
int ck_cond(struct checker *c, struct st_expr **ep, const char *role);

#endif /* SIDETRACE_CHECK_CHECK_H */
