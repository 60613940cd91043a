/* SPDX-License-Identifier: MIT */
/*
 * Abstract syntax tree of a sidetrace program.
 *
 * The parser (parser.h) builds it; the checker (checker.h) validates it and
 * fills the fields marked "checker:" (resolved types, matched events, field
 * index paths, the map table); a compile step turns the checked tree into
 * configuration for the BPF program. Every node carries the source position
 * of its first character so that any later stage can point at it.
 */
#ifndef SIDETRACE_PARSE_AST_H
#define SIDETRACE_PARSE_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctypes/ctypes.h"
#include "events/events.h"
#include "kinds/probe_kinds.h"
#include "sidetrace.h"

/* 1-based line and column; columns count bytes, a tab is one column. */
struct st_format;

struct st_pos {
	uint32_t line;
	uint32_t col;
};

/* Most keys a map may have, as in bpftrace's tuple limit for our BPF side. */
#define ST_MAX_MAP_KEYS 8

/*
 * Levels an expression may nest (operators, parentheses, calls): far more
 * than the BPF side's ST_MAX_INSNS lets a probe run, and few enough that
 * every pass may walk the tree recursively.
 */
#define ST_MAX_EXPR_DEPTH 64
/* if blocks nest at most this deep (an else-if chain nests too). */
#define ST_MAX_BLOCK_DEPTH 64

/* Bytes of a program's text (-e or a file). */
#define ST_MAX_PROGRAM_BYTES (1 << 20)

/* lhist() bucket limit, as bpftrace: keeps the BPF value array bounded. */
#define ST_LHIST_MAX_BUCKETS 1000

/*
 * Where a clause attaches, as written (bpftrace's attach point). A side:
 * attach point may match many events; each event a program traces is one
 * "probe" of the compiled program (compile.h), at one or more "sites"
 * (the event's call sites, each a USDT note).
 */
struct st_attach_point {
	enum st_ap_kind kind;
	struct st_pos pos; /* its first character */
	/*
	 * ST_AP_SIDE, ST_AP_USDT; provider and event may hold '*' wildcards.
	 * ST_AP_UPROBE, ST_AP_URETPROBE: provider is "", event the function.
	 * ST_AP_TRACEPOINT: target is "", provider the category, event the name.
	 * ST_AP_KPROBE, ST_AP_KRETPROBE, ST_AP_FENTRY, ST_AP_FEXIT: target and
	 * provider "", event the function.
	 * ST_AP_PROFILE, ST_AP_INTERVAL: target "", provider the unit, event
	 * the count's digits.
	 * ST_AP_SOFTWARE, ST_AP_HARDWARE: target "", provider the event,
	 * event the count's digits or "".
	 * ST_AP_ITER: target and provider "", event the iterator.
	 */
	char *target;
	char *provider;
	char *event;
	struct st_pos target_pos, provider_pos, event_pos;
	/* ST_AP_PROFILE, ST_AP_INTERVAL: the period the count of units makes */
	uint64_t interval_ns;
	/*
	 * One of the kinds a glob over kinds (t*point:) expanded to: where
	 * it matches nothing it is skipped without a word, as bpftrace's
	 */
	bool kind_glob;
	/* checker: why a probe that matched nothing was skipped, or NULL */
	char *missing;
	/* checker: the events it matched (not owned) */
	const struct st_event **events;
	uint32_t nr_events;
};

/* Builtins: one row each in parse/builtins.c, in the order messages list them. */
enum st_builtin {
	ST_BUILTIN_PID,
	ST_BUILTIN_TID,
	ST_BUILTIN_COMM,
	ST_BUILTIN_NSECS,
	ST_BUILTIN_ELAPSED,
	ST_BUILTIN_CPU,
	ST_BUILTIN_UID,
	ST_BUILTIN_GID,
	ST_BUILTIN_CGROUP,
	ST_BUILTIN_USTACK,
	ST_BUILTIN_KSTACK,
	ST_BUILTIN_FUNC,
	ST_BUILTIN_PROBE,
	ST_BUILTIN_LOGLEVEL,
	ST_BUILTIN_RAND,
	ST_BUILTIN_NUMAID, /* the NUMA node of the CPU */
	ST_BUILTIN_CPID, /* the -c command's pid */
	ST_BUILTIN_USERNAME, /* the name of uid's user */
	ST_BUILTIN_CURTASK, /* the task's struct task_struct */
	ST_BUILTIN_CTX, /* the probe's program's context */
	ST_NR_BUILTINS,
};

enum st_op {
	ST_OP_NONE,
	/* unary */
	ST_OP_NEG, /* -x */
	ST_OP_NOT, /* !x */
	ST_OP_BNOT, /* ~x */
	/* binary, by decreasing precedence */
	ST_OP_MUL,
	ST_OP_DIV,
	ST_OP_MOD,
	ST_OP_ADD,
	ST_OP_SUB,
	ST_OP_SHL,
	ST_OP_SHR,
	ST_OP_LT,
	ST_OP_LE,
	ST_OP_GT,
	ST_OP_GE,
	ST_OP_EQ,
	ST_OP_NE,
	ST_OP_BAND,
	ST_OP_BXOR,
	ST_OP_BOR,
	ST_OP_LAND,
	ST_OP_LOR,
};

/* Functions: one row each in parse/functions.c. */
enum st_func {
	ST_FN_COUNT,
	ST_FN_SUM,
	ST_FN_AVG,
	ST_FN_MIN,
	ST_FN_MAX,
	ST_FN_STATS,
	ST_FN_HIST,
	ST_FN_LHIST,
	ST_FN_PRINT,
	ST_FN_CLEAR,
	ST_FN_ZERO,
	ST_FN_EXIT,
	ST_FN_PRINTF,
	ST_FN_DELETE,
	ST_FN_STR,
	ST_FN_TIME,
	ST_FN_STRFTIME,
	ST_FN_KSYM,
	ST_FN_USYM,
	ST_FN_KADDR,
	ST_FN_JOIN,
	ST_FN_NTOP,
	ST_FN_PTON,
	ST_FN_STRERROR,
	ST_FN_KPTR,
	ST_FN_UPTR,
	ST_FN_CGROUPID,
	ST_FN_SYSTEM,
	ST_FN_CAT,
	ST_FN_SIGNAL,
	ST_FN_SIZEOF,
	ST_FN_STRNCMP,
	ST_FN_BSWAP,
	ST_FN_BUF,
	ST_FN_MACADDR,
	ST_FN_UNWATCH,
	ST_FN_REG,
	ST_FN_UADDR,
	ST_FN_CGROUP_PATH,
	ST_FN_STRCONTAINS,
	ST_FN_DEBUGF,
	ST_FN_OVERRIDE,
	ST_FN_SKBOUTPUT,
	ST_FN_PATH,
	ST_NR_FUNCS,
};

/* Value types the checker resolves expressions to. */
enum st_vtype {
	ST_VT_NONE, /* not yet checked, or not a value (map ref) */
	ST_VT_INT, /* signed 64-bit */
	ST_VT_UINT, /* unsigned 64-bit */
	ST_VT_BOOL, /* 0 or 1; usable as an integer */
	ST_VT_STR,
	/*
	 * A floating-point field's bits (its type says binary32 or 64): BPF
	 * has no floating point, so it is printed (printf %f, print(args)),
	 * never computed with
	 */
	ST_VT_FLOAT,
	/*
	 * A whole struct, union, array or a tuple (ctype says which): kept
	 * leaf by leaf (ctypes/composite.h), never one value of the machine
	 */
	ST_VT_WHOLE,
	/*
	 * Bytes: buf(), macaddr(), ntop() of an array, pton(); kept as a
	 * string is, in one string slot with its header (bpf/sidetrace.h
	 * ST_BUF_HDR), which says how many bytes and how they print
	 */
	ST_VT_BUF,
};

/* Whether a value of type t is kept in a string slot (ST_STR_LEN bytes): a string or a buffer. */
static inline bool st_vt_slot(enum st_vtype t)
{
	return t == ST_VT_STR || t == ST_VT_BUF;
}

enum st_expr_kind {
	ST_EXPR_INT, /* integer literal: uval (is_unsigned if > INT64_MAX) */
	/*
	 * string literal: str (escapes decoded); of vtype ST_VT_BUF, a byte
	 * buffer the checker computed (pton("::1")): str is its whole slot,
	 * ST_STR_LEN bytes
	 */
	ST_EXPR_STR,
	ST_EXPR_BUILTIN, /* builtin */
	ST_EXPR_FIELD, /* args.a.b[2]: path */
	ST_EXPR_UNARY, /* op kids[0] */
	ST_EXPR_BINARY, /* kids[0] op kids[1] */
	ST_EXPR_CALL, /* func(kids...); str is the name as written */
	/*
	 * @name or @name[kids...]: an argument of print/clear/zero/delete, or
	 * in an expression the map's value (0 or "" for a missing key)
	 */
	ST_EXPR_MAP,
	ST_EXPR_ARGS, /* args alone: the whole event, an argument of print */
	ST_EXPR_VAR, /* $name: str is "$name" */
	ST_EXPR_TERNARY, /* kids[0] ? kids[1] : kids[2] */
	ST_EXPR_CAST, /* (cast_type)kids[0] */
	/* kids[0]->str (arrow) or kids[0].str: a member of a C struct or union */
	ST_EXPR_MEMBER,
	ST_EXPR_INDEX, /* kids[0][kids[1]]: an element of a C array, or at a pointer */
	ST_EXPR_DEREF, /* *kids[0]: what a C pointer points to */
	/* str: an identifier the language does not define; the checker makes it an enum's constant
	 */
	ST_EXPR_IDENT,
	ST_EXPR_TUPLE, /* (kids[0], kids[1], ...) */
	/*
	 * ++kids[0], kids[0]++ (post), -- with op ST_OP_SUB: kids[0] a
	 * variable or a map element; the checker makes it statements before
	 * the one it is in (check_incr.c)
	 */
	ST_EXPR_INCR,
};

/* Where the memory a C pointer points to is (checker: st_expr.mem). */
enum st_mem {
	ST_MEM_PROBE, /* the probe's: the kernel's for a kernel probe, else the process's */
	ST_MEM_KERNEL,
	ST_MEM_USER,
};

/*
 * The type of a cast: an integer as bpftrace spells it (bits, is_signed),
 * or a C type the checker looks up (name, and how many '*' follow it).
 */
struct st_cast_type {
	uint8_t bits; /* 8, 16, 32 or 64 */
	bool is_signed;
	char *name; /* "struct sock", "unsigned int"; NULL: bits and is_signed say it */
	uint8_t ptrs;
};

enum st_seg_kind {
	ST_SEG_NAME, /* .name */
	ST_SEG_INDEX, /* [index] */
};

struct st_path_seg {
	enum st_seg_kind kind;
	struct st_pos pos;
	char *name; /* ST_SEG_NAME */
	uint64_t index; /* ST_SEG_INDEX */
	bool arrow; /* ST_SEG_NAME written "->NAME" */
};

/*
 * checker: how one field expression reads one matched event. idx[0] is the
 * index of the top-level field in event->fields; each further entry is, per
 * path segment, a member index in a struct or an element index in an
 * array/vla. type is the SIDE type of the value read (never a compound).
 */
struct st_field_ref {
	const struct st_event *event;
	const struct st_type *type;
	uint32_t *idx;
	uint32_t nr_idx;
};

struct st_expr {
	enum st_expr_kind kind;
	struct st_pos pos;
	struct st_pos paren; /* the outermost '(' around it (line 0: none) */
	enum st_op op;
	struct st_expr **kids; /* operands, call arguments */
	uint32_t nr_kids;
	/* ST_EXPR_INT: the value as written (two's complement); ustack(N), kstack(N): N */
	uint64_t uval;
	/* ustack(perf), kstack(perf, N): frames printed as perf prints them, each with its address
	 */
	bool perf_stack;
	bool is_unsigned; /* ST_EXPR_INT: does not fit in int64_t */
	char *str; /* STR literal, CALL name, MAP name ("@x") */
	enum st_builtin builtin;
	enum st_func func; /* ST_EXPR_CALL */
	struct st_path_seg *path; /* ST_EXPR_FIELD, after "args" */
	uint32_t nr_path;
	struct st_cast_type cast; /* ST_EXPR_CAST */
	/* checker: */
	int var_id; /* ST_EXPR_VAR: the clause's variable slot */
	/*
	 * checker: ST_EXPR_VAR, a map read: how what it holds is kept (enum
	 * st_kept), when it stays so there (st_kept_carried())
	 */
	uint8_t kept;
	struct st_format *fmt; /* printf: its format, parsed */
	enum st_vtype vtype;
	int map_id; /* ST_EXPR_MAP: index in st_program.maps, else -1 */
	bool map_read; /* ST_EXPR_MAP: read as a value */
	/* ST_EXPR_FIELD: one per event of the enclosing clause, same order */
	struct st_field_ref *refs;
	uint32_t nr_refs;
	/* ST_EXPR_FIELD: a usdt: operand read as the address of a string (str(argN)) */
	bool str_at;
	/*
	 * ST_EXPR_FIELD: a kernel probe's string field read as the address of
	 * its bytes, a pointer or the record's array (buf(args->buf, n))
	 */
	bool addr_of;
	/* ST_EXPR_CALL printf: made by the checker from print(args) of located fields */
	bool print_args;
	/* ST_EXPR_CALL printf: made by the checker from time(), whose -f json record it prints */
	bool from_time;
	/* ST_EXPR_CALL printf made from print(whole): the whole as -f json's value, same leaves */
	struct st_format *json_fmt;
	/* ST_EXPR_INT, ST_EXPR_STR: a positional parameter $N, its text in str */
	bool positional;
	bool arrow; /* ST_EXPR_MEMBER: kids[0] is a pointer (->), not a struct (.) */
	/* ST_EXPR_BINARY: the checker's n * size of pointer arithmetic, not scaled again in a clone
	 */
	bool scaled;
	bool post; /* ST_EXPR_INCR: x++ (the value before), not ++x */
	/*
	 * checker: the C type of a value that has one (a cast, a member, a
	 * variable or map assigned one), and where a pointer points or a
	 * member, element or pointee is read. A struct, union or array
	 * (ST_EXPR_MEMBER, _INDEX, _DEREF) is not a value but where one is:
	 * only '.', '[]' and, for chars, a string read it.
	 */
	struct st_ctype *ctype;
	enum st_mem mem;
	/* ST_EXPR_MEMBER: the member's offset, and a bit field's place */
	uint32_t bit_off, bit_size;
};

enum st_stmt_kind {
	ST_STMT_AGG, /* @map[keys] = call (an aggregation) */
	ST_STMT_CALL, /* call (an action) */
	/*
	 * @map[keys] op= value or $var op= value; op is ST_OP_NONE for '=',
	 * "++" is += 1 and "--" -= 1
	 */
	ST_STMT_ASSIGN,
	/* if (value) { then } else { els }; with loop, while (value) { then } */
	ST_STMT_IF,
	ST_STMT_BREAK, /* leaves the innermost while loop */
	ST_STMT_CONTINUE, /* goes back to the condition of the innermost while loop */
	ST_STMT_RETURN, /* leaves the clause, as bpftrace's return */
};

struct st_stmt {
	enum st_stmt_kind kind;
	struct st_pos pos;
	/* ST_STMT_AGG, ST_STMT_ASSIGN to a map */
	char *map; /* "@name", "@" alone is a valid name */
	struct st_pos map_pos;
	struct st_expr **keys;
	uint32_t nr_keys;
	/* the aggregation (ST_STMT_AGG) or the action (ST_STMT_CALL) */
	struct st_expr *call;
	/* ST_STMT_ASSIGN: the value; ST_STMT_IF: the condition */
	struct st_expr *value;
	char *var; /* ST_STMT_ASSIGN to a variable: "$name" */
	enum st_op op; /* ST_STMT_ASSIGN */
	/* ST_STMT_IF: the blocks; an "else if" is an else block of one if */
	struct st_stmt *then;
	uint32_t nr_then;
	struct st_stmt *els;
	uint32_t nr_els;
	bool loop; /* ST_STMT_IF: then runs again while value holds (while), no els */
	/*
	 * ST_STMT_IF of no blocks: an expression as a statement, checked as
	 * any value (a string too), then dropped, as bpftrace drops it.
	 */
	bool discard;
	/* checker: index in st_program.maps, or -1 */
	int map_id;
	/* checker: ST_STMT_ASSIGN to a variable: its slot */
	int var_id;
};

struct st_clause {
	struct st_pos pos;
	struct st_attach_point *points;
	uint32_t nr_points;
	struct st_expr *filter; /* NULL when there is none */
	struct st_stmt *stmts;
	uint32_t nr_stmts;
	/* checker: union of the events of all SIDE probes, no duplicates */
	const struct st_event **events;
	uint32_t nr_events;
	/* checker: what path() names in each event (ST_DPATH_*); NULL: no path() */
	uint32_t *dpath;
	/* checker: the variables' types, by slot; their C types, where they hold pointers */
	enum st_vtype var_types[ST_MAX_VARS];
	struct st_ctype *var_ctypes[ST_MAX_VARS];
	enum st_mem var_mems[ST_MAX_VARS];
	/* checker: what each holds is kept as (enum st_kept; ST_KEPT_VALUE when mixed) */
	uint8_t var_kept[ST_MAX_VARS];
	uint32_t nr_vars;
};

/* checker: one entry per distinct map name. */
struct st_map_info {
	char *name; /* "@name" */
	struct st_pos pos; /* first assignment */
	enum st_agg_kind agg; /* ST_K_VALUE: a plain value, of value_type */
	enum st_vtype value_type; /* ST_K_VALUE: INT, UINT or STR */
	uint32_t nr_keys;
	enum st_vtype key_types[ST_MAX_MAP_KEYS]; /* INT, UINT, BOOL or STR */
	bool value_signed; /* sum/min/max/avg/stats of a signed value */
	int64_t lhist_min, lhist_max, lhist_step; /* ST_K_LHIST */
	bool checked; /* an aggregation of it was checked: bounds set */
	bool elem_used; /* an element is read or deleted by its key */
	/*
	 * Keys and plain values that are always an enum field print as its
	 * labels: the type of the first such use; the mask (key k: bit k,
	 * value: bit ST_MAX_MAP_KEYS) marks uses that are not one.
	 */
	const struct st_type *key_enum[ST_MAX_MAP_KEYS];
	const struct st_type *value_enum;
	uint32_t not_enum;
	/*
	 * A plain value read before any assignment typed it (@n = @n + 1):
	 * read as an integer, where the first such read is; a map that turns
	 * out to hold strings is then an error there.
	 */
	bool read_untyped;
	struct st_pos untyped_pos;
	/*
	 * Read only as str()'s argument (gethostlatency.bt's str(@name[tid])):
	 * an address operand assigned to it (@name[tid] = arg0) stores the
	 * string there, read at once, as str(arg0) would.
	 */
	bool str_only;
	bool read_other; /* read as anything else: not str_only */
	/* A plain value that is a C pointer: its type and where it points, from its first
	 * assignment */
	struct st_ctype *value_ctype;
	enum st_mem value_mem;
	/* What every assignment keeps of its value: ntop()'s, ksym()'s... printed as text */
	uint8_t value_kept; /* enum st_kept (parse/builtins.h) */
	bool value_typed; /* that first assignment was checked */
	/*
	 * A whole value's map (@t = (1, "a")): its type. The map itself is
	 * never written: its leaves' maps, first_leaf and the nr_leaves after
	 * it, hold the values (ctypes/composite.h), and are printed with it
	 * (leaf), never alone.
	 */
	struct st_ctype *whole;
	uint32_t first_leaf, nr_leaves;
	bool leaf;
	/*
	 * Key parts where a whole key starts (@x[arr]): its type, and how
	 * many parts its leaves take; the printer joins them again.
	 */
	struct st_ctype *key_whole[ST_MAX_MAP_KEYS];
	uint8_t key_parts[ST_MAX_MAP_KEYS];
	bool keys_checked; /* nr_keys counts key parts, a whole key's leaves each */
};

struct st_program {
	char *filename; /* "program" for -e, or the file name */
	struct st_clause *clauses;
	uint32_t nr_clauses;
	/* The -c command's, set by the trace command before the check: the cpid builtin. */
	bool has_command;
	uint32_t cpid; /* its pid; 0 in a dry run, which starts no command */
	/* --unsafe, set by the trace command: functions that act on the system allowed */
	bool unsafe;
	/* checker: */
	struct st_map_info *maps;
	uint32_t nr_maps;
	struct st_ctypes *ctypes; /* the C types its casts name, and its definitions */
	/* A BEGIN, END or interval clause reads the kernel's memory, or curtask (bpf/user.bpf.h) */
	bool kernel_reads;
	/* A BEGIN, END or interval clause calls debugf() (bpf/user.bpf.h) */
	bool user_debugf;
};

/*
 * Where e's text starts, its parentheses included, as bpftrace locates
 * an expression (e->pos is its operator's: the "->" of a member).
 */
struct st_pos st_expr_start(const struct st_expr *e);

/* A zeroed node of kind at pos, no map; NULL if out of memory. */
struct st_expr *st_expr_new(enum st_expr_kind kind, struct st_pos pos);
void st_expr_free(struct st_expr *e);
/* Frees what a statement owns, not s. */
void st_stmt_fini(struct st_stmt *s);
void st_program_free(struct st_program *prog);
/* Frees what an attach point owns (names, matched events), not p. */
void st_attach_point_fini(struct st_attach_point *p);

/* A clause with an attach point on probe sites runs in the kernel; others in user space. */
bool st_clause_on_sites(const struct st_clause *cl);
/* True if some clause runs in the kernel (the program loads BPF). */
bool st_program_on_sites(const struct st_program *prog);
/* True if some map keeps a whole value or key (a struct, an array, a tuple): printed from its type.
 */
bool st_program_keeps_wholes(const struct st_program *prog);
/* True if some clause probes a file: uprobes, or a watchpoint a uprobe sets. */
bool st_program_probes_files(const struct st_program *prog);

/*
 * The values a printf prints (after its format), or a print(value) (its
 * one argument, printed with the format the checker gave it): *args, and
 * how many.
 */
uint32_t st_print_args(const struct st_expr *call, struct st_expr *const **args);

/*
 * A new node of kind at pos over its nr (1 or 2) kids a and b, which it
 * owns from then on; NULL when out of memory or a kid is NULL, the kids
 * still the caller's.
 */
struct st_expr *st_expr_node(enum st_expr_kind kind, struct st_pos pos, uint32_t nr,
			     struct st_expr *a, struct st_expr *b);
/*
 * A copy of e as the parser makes one, for the checker to check anew
 * (a whole value's leaves): what the checker filled is left out. NULL
 * when out of memory.
 */
struct st_expr *st_expr_clone(const struct st_expr *e);
/* e becomes what from was (e's own freed), from's node freed. */
void st_expr_replace(struct st_expr *e, struct st_expr *from);
/* e made the integer literal v, what it held freed (a call the checker computed). */
void st_expr_make_int(struct st_expr *e, uint64_t v);
/* Whether pred holds for e or an expression in it (NULL: false). */
bool st_expr_any(const struct st_expr *e, bool (*pred)(const struct st_expr *e));
/* The same for the expressions of statements, their blocks' included. */
bool st_stmts_any(const struct st_stmt *stmts, uint32_t nr, bool (*pred)(const struct st_expr *e));

/* The enum type a field expression reads (its first event's), or NULL: not an enum field. */
const struct st_type *st_expr_enum(const struct st_expr *e);

const char *st_op_name(enum st_op op);

#endif /* SIDETRACE_PARSE_AST_H */
