/* SPDX-License-Identifier: MIT */
/*
 * Compile step: a checked program (checker.h) becomes configuration for the
 * generic BPF program (bpf/sidetrace.h). Nothing here runs a compiler: each
 * traced event gets one st_probe_cfg (its index is the USDT cookie) holding
 * the field loads and the stack-machine code of every SIDE clause that
 * matched it; each map gets one st_map_cfg and a key layout that tells
 * maps_read.c how to turn hash keys back into typed key values.
 *
 * BEGIN, END and interval clauses stay in user space (run.c): the compile
 * step only validates that their statements are actions.
 */
#ifndef SIDETRACE_COMPILE_COMPILE_H
#define SIDETRACE_COMPILE_COMPILE_H

#include <stdbool.h>
#include <stdint.h>

#include "parse/ast.h"
#include "parse/builtins.h"
#include "parse/diag.h"
#include "parse/format.h"
#include "parse/helpers.h"
#include "events/events.h"
#include "sidetrace.h"

/* How one key part is stored in the hash key. */
enum st_kpart_kind {
	ST_KPART_INT, /* 8 bytes, st_map_info.key_types says how to print */
	ST_KPART_STR, /* ST_STR_LEN bytes, NUL-padded */
	ST_KPART_PROBE, /* 8 bytes: a probe index, printed as its name */
	ST_KPART_USTACK, /* 8 bytes: a user stack (ST_USTACK), printed as its frames */
	ST_KPART_KSTACK, /* 8 bytes: a kernel stack's id, printed as its frames */
	ST_KPART_KSYM, /* 8 bytes: a kernel address (ksym()), printed as its function */
	/* 16 bytes: a user address (usym()), then its process's id: printed as its function */
	ST_KPART_USYM,
	/* 8 bytes: an integer printed as text, by st_kpart.text (st_kept_is_text) */
	ST_KPART_TEXT,
	/* ST_STR_LEN bytes: a byte buffer (ST_BUF_HDR), never compact, printed as its kind says */
	ST_KPART_BUF,
};

/* Where an ST_KPART_USYM part holds its process's id, after the address. */
#define ST_KPART_USYM_PID 8

/* The bytes of a key part of kind k, in a full key or a compact one. */
static inline uint32_t st_kpart_size(enum st_kpart_kind k, bool compact)
{
	if (k == ST_KPART_STR)
		return compact ? ST_COMPACT_STR_LEN : ST_STR_LEN;
	if (k == ST_KPART_BUF)
		return ST_STR_LEN;
	return k == ST_KPART_USYM ? ST_KPART_USYM_PID + 8 : 8;
}

struct st_kpart {
	enum st_kpart_kind kind;
	/*
	 * ST_KPART_INT always the pid builtin: a process's engine may key
	 * such a part with its own pid only (readout/inproc_read.c).
	 */
	bool pid;
	uint32_t frames; /* ST_KPART_USTACK, ST_KPART_KSTACK: frames printed, 0: all */
	bool perf; /* ST_KPART_USTACK, ST_KPART_KSTACK: printed as perf prints them */
	enum st_kept text; /* ST_KPART_TEXT: what the integer is */
	uint32_t off; /* from the first key part byte */
	uint32_t coff; /* the same in a compact key (ST_COMPACT_STR_LEN) */
};

struct st_map_layout {
	uint32_t nr_parts;
	struct st_kpart parts[ST_MAX_MAP_KEYS];
	uint32_t parts_size; /* == st_map_cfg.key_size */
};

/*
 * Which specialized program serves a probe (specialize.c): the stack
 * machine, or one that runs a probe of that shape alone. PLAIN and the
 * ones after it are plain: their statements are in cfg.plain[].
 */
enum st_special {
	ST_SPECIAL_NONE, /* the stack machine */
	ST_SPECIAL_COUNT, /* only counts: sidetrace_count (see st_site) */
	ST_SPECIAL_PLAIN, /* plain statements: sidetrace_plain */
	ST_SPECIAL_FLAT, /* integers into maps without keys: sidetrace_flat */
	ST_SPECIAL_KEYED, /* one statement into a keyed map: sidetrace_keyed */
};

struct st_compiled_probe {
	const struct st_event *event;
	char *name; /* "side:TARGET:PROVIDER:EVENT", the probe builtin */
	uint32_t nr_strs; /* string literals used in cfg.strs */
	uint32_t nr_sdt_values; /* top-level fields passed as SDT arguments */
	enum st_special special;
	bool reads_kernel; /* reads the kernel's memory: never a process's engine's */
	uint32_t nr_counts;
	uint32_t counts[ST_MAX_COUNTS]; /* ST_SPECIAL_COUNT: st_flat slots */
	/*
	 * It runs system() or cat(), whose records the collector acts on: only
	 * the kernel runs it, never a process that could forge such records.
	 */
	bool acts;
	/* What path() names before the clauses run (ST_DPATH_*), in its instance's constant. */
	uint32_t dpath;
	/* One of the events a glob matched (kprobe:vfs_*), not one named alone. */
	bool from_glob;
	/*
	 * The event's registers it reads (reg(), uaddr()): SDT arguments of
	 * its own, register i the site's last but i (st_probe_regs_arg()),
	 * which no field it reads may be (compile/regs.c); the loader puts
	 * them in every site, an ST_LOC_REG_OFFSET's val made relative to
	 * the site's address. Never a process's engine's.
	 */
	uint32_t nr_regs;
	struct st_arg_spec regs[ST_MAX_SDT_ARGS];
	struct st_probe_cfg cfg;
};

/* The SDT argument of p's register i. */
static inline uint32_t st_probe_regs_arg(uint32_t i)
{
	return ST_MAX_SDT_ARGS - 1 - i;
}

/* The SDT arguments of p's registers, a mask. */
static inline uint32_t st_probe_regs_args(const struct st_compiled_probe *p)
{
	return p->nr_regs ? ((1U << ST_MAX_SDT_ARGS) - 1) &
				    ~((1U << (ST_MAX_SDT_ARGS - p->nr_regs)) - 1)
			  : 0;
}

/* Whether p's statements are plain (cfg.plain[]). */
static inline bool st_special_plain(const struct st_compiled_probe *p)
{
	return p->special >= ST_SPECIAL_PLAIN;
}

/* What a printf record holds of one value. */
enum st_rec_arg {
	ST_RA_INT, /* an integer (an enum's value, a float's bits): ST_REC_INT_SIZE bytes */
	ST_RA_STR, /* a string or a buffer (its vtype says): ST_REC_STR_SIZE bytes */
	ST_RA_PROBE, /* the probe builtin: its index, the collector prints its name */
	/* ksym(), usym() printed with %s: the address, the collector names its function */
	ST_RA_KSYM,
	ST_RA_USYM, /* in the record's process */
	/* An integer the collector prints as text, by what is kept of it (st_kept_is_text) */
	ST_RA_TEXT,
	/* kstack, ustack printed with %s: the stack's value, the collector prints its frames */
	ST_RA_KSTACK,
	ST_RA_USTACK,
};

/*
 * Where the values of one printf statement are in its records (the
 * bytes after st_rec_hdr): chosen here, read by the collector.
 */
struct st_printf_layout {
	const struct st_expr *call; /* the printf; its format is call->fmt */
	uint32_t nr_args;
	uint32_t off[ST_MAX_PRINTF_ARGS];
	enum st_rec_arg sent[ST_MAX_PRINTF_ARGS];
	/* An enum field printed with %s: its value is sent, the collector prints its label. */
	const struct st_type *label_type[ST_MAX_PRINTF_ARGS];
	/* A float field: its bits are sent, the collector prints the value (32 or 64; else 0). */
	uint8_t float_bits[ST_MAX_PRINTF_ARGS];
	uint32_t size; /* the record's bytes after the header */
};

struct st_compiled {
	struct st_compiled_probe *probes; /* index = cookie */
	uint32_t nr_probes;
	struct st_map_cfg maps[ST_MAX_MAPS]; /* index = st_program map id */
	struct st_map_layout layouts[ST_MAX_MAPS];
	uint32_t nr_maps;
	uint32_t key_size; /* hash key bytes: header, largest parts, bucket */
	uint32_t compact_key_size; /* the same for compact keys (st_aggr_compact) */
	uint32_t nr_flat; /* st_flat slots of the maps without keys */
	struct st_printf_layout *printfs; /* index = st_rec_hdr.id */
	uint32_t nr_printfs;
	/* -k, -kk: ST_CHECK_* (0: none), from st_compile()'s flags */
	uint8_t helper_checks;
	/* the places whose helpers' failures are reported: index = st_insn.site - 1 */
	struct st_helper_site *sites;
	uint32_t nr_sites;
	size_t sites_cap;
	bool streams; /* some probe prints the whole event */
	/* a function's watchpoint: its addresses come as records (bpfload/watch.h) */
	bool watches;
	/* some BEGIN, END or interval clause aggregates (bpf/user.bpf.h) */
	bool user_aggs;
	/* some BEGIN, END or interval clause reads the kernel's memory or curtask (user.bpf.h) */
	bool kernel_reads;
	/* some BEGIN, END or interval clause calls debugf() (user.bpf.h) */
	bool user_debugf;
	/*
	 * The probe builtin of each BEGIN, END and interval attach point:
	 * the probe key nr_probes + i (st_compiled_probe_name()).
	 */
	char **user_probes;
	uint32_t nr_user_probes;
	/* CLOCK_MONOTONIC at compile time: where elapsed counts from. */
	uint64_t start_ns;
	uint32_t cpid; /* the program's (st_program.cpid), for sidetrace's own clauses */
	/* The ring buffer's bytes, a power of 2 (0: st_compiled_events_size()'s default); set by
	 * the caller. */
	uint32_t events_size;
	/* Keys of each keyed map (0: ST_DEFAULT_MAP_KEYS); set by the caller. */
	uint32_t map_keys;
	/* cat()'s bytes printed at most (0: ST_DEFAULT_CAT_BYTES); set by the caller. */
	uint32_t cat_bytes;
	/* -c: the command's descendants are traced too; set by the caller. */
	bool follow;
	/*
	 * -c: the command's executable, where its stacks' frames are named
	 * from when it exited before its mappings were read; set by the caller.
	 */
	const char *cmd_path;
	/*
	 * --in-process of every process: the kernel probes the side: sites'
	 * fallbacks, which a process whose engine runs the probes disarms;
	 * set by the caller.
	 */
	bool inproc_all;
	/* Every process traced (system-wide, serve): a traced file replaced on disk is
	 * attached again (bpfload/replaced.h); set by the caller. */
	bool reattach;
};

/* cat()'s bytes printed at most, as bpftrace's BPFTRACE_CAT_BYTES_MAX defaults. */
#define ST_DEFAULT_CAT_BYTES 10240

static inline uint32_t st_compiled_cat_bytes(const struct st_compiled *c)
{
	return c->cat_bytes ? c->cat_bytes : ST_DEFAULT_CAT_BYTES;
}

/* Keys of each keyed map, as bpftrace's BPFTRACE_MAP_KEYS_MAX. */
static inline uint32_t st_compiled_map_keys(const struct st_compiled *c)
{
	return c->map_keys ? c->map_keys : ST_DEFAULT_MAP_KEYS;
}

/* True when probes send records (-k's reports too): the ring buffer is needed. */
static inline bool st_compiled_streams(const struct st_compiled *c)
{
	return c->nr_printfs > 0 || c->streams || c->watches || c->nr_sites > 0;
}

/*
 * The least power of 2 from least up to ST_EVENTS_MAX_SIZE that holds
 * pages pages for each possible CPU, as bpftrace's perf buffers do.
 */
uint32_t st_events_cpu_pages_size(unsigned long long pages, uint32_t least);

/* The ring buffer's bytes: -b's, else the default for what the probes send. */
uint32_t st_compiled_events_size(const struct st_compiled *c);

/*
 * The precompiled programs, in the order the loader lists them: the
 * uprobe ones first (ST_PROG_EVENT the last of them).
 */
enum st_prog {
	ST_PROG_COUNT, /* uprobes that only count */
	ST_PROG_FLAT, /* plain statements, integers into maps without keys */
	ST_PROG_KEYED, /* one plain statement into a keyed map */
	ST_PROG_KEYED1, /* the same, a key of one part (sidetrace_keyed1) */
	ST_PROG_PLAIN, /* plain statements, no stack machine */
	ST_PROG_EVENT, /* the stack machine */
	ST_PROG_TP, /* a tracepoint's stack machine */
	ST_PROG_KPROBE, /* kprobes and kretprobes */
	ST_PROG_PROFILE, /* profile:, software:, hardware: */
	ST_PROG_TP_COUNT,
	ST_PROG_TP_PLAIN, /* also the flat ones at tracepoints */
	ST_PROG_TP_KEYED,
	ST_PROG_PROFILE_FLAT, /* perf events' flat ones */
	ST_PROG_TP_PRINT, /* a tracepoint's clauses that only print (ST_PRINT_OPS) */
	ST_PROG_TP_BUILTINS, /* ... that print builtins only (ST_BUILTINS_PRINT_OPS) */
	/* Loaded per function (bpfload/trampolines.h), never with the others */
	ST_PROG_FENTRY,
	ST_PROG_FEXIT,
	ST_PROG_ITER, /* loaded for its iterator (bpfload/iters.h) */
	ST_NR_PROGS,
};

/*
 * Whether p may be served by a specialized program (its kind's family has
 * them, and it takes no stacks): else the stack machine serves it.
 */
bool st_compiled_specializable(const struct st_compiled_probe *p);

/* The program that serves p: the most specialized one its kind of probe has. */
enum st_prog st_compiled_prog(const struct st_compiled_probe *p);

/* A program's name for -d: "count", "tracepoint keyed", ... */
const char *st_prog_name(enum st_prog prog);

/* The stacks (ST_STACK_*) that some probe of c takes. */
static inline uint8_t st_compiled_stacks(const struct st_compiled *c)
{
	uint8_t st = 0;
	uint32_t i;

	for (i = 0; i < c->nr_probes; i++)
		st |= c->probes[i].cfg.stacks;
	return st;
}

/* The instructions (a bit per enum st_opcode) that some probe of c has: st_ops_used. */
static inline uint64_t st_compiled_ops(const struct st_compiled *c)
{
	uint64_t ops = 0;
	uint32_t i, k;

	for (i = 0; i < c->nr_probes; i++)
		for (k = 0; k < c->probes[i].cfg.nr_insns && k < ST_MAX_INSNS; k++)
			if (c->probes[i].cfg.insns[k].op < ST_NR_OPCODES)
				ops |= 1ULL << c->probes[i].cfg.insns[k].op;
	return ops;
}

/* The sources (a bit per enum st_load_src) that some load of c reads: st_srcs_used. */
static inline uint32_t st_compiled_srcs(const struct st_compiled *c)
{
	uint32_t srcs = 0, i, k;

	for (i = 0; i < c->nr_probes; i++)
		for (k = 0; k < c->probes[i].cfg.nr_loads && k < ST_MAX_LOADS; k++)
			if (c->probes[i].cfg.loads[k].src < ST_NR_LOAD_SRCS)
				srcs |= 1U << c->probes[i].cfg.loads[k].src;
	return srcs;
}

/*
 * The sources (a bit per enum st_plain_src) of plain statements' key
 * parts, st_parts_used; the most parts of one in *most, st_plain_parts_max.
 */
static inline uint32_t st_compiled_parts(const struct st_compiled *c, uint32_t *most)
{
	uint32_t parts = 0, i, k, n;

	*most = 0;
	for (i = 0; i < c->nr_probes; i++)
		for (k = 0; k < c->probes[i].cfg.nr_plain && k < ST_MAX_PLAIN; k++) {
			const struct st_plain_stmt *st = &c->probes[i].cfg.plain[k];

			for (n = 0; n < st->nr_parts && n < ST_MAX_PLAIN_PARTS; n++)
				parts |= 1U << st->parts[n].src;
			if (n > *most)
				*most = n;
		}
	return parts;
}

/* The kinds (a bit per enum st_agg_kind) of c's maps: st_kinds_used. */
static inline uint32_t st_compiled_kinds(const struct st_compiled *c)
{
	uint32_t kinds = 0, m;

	for (m = 0; m < c->nr_maps; m++)
		if (c->maps[m].kind < ST_NR_AGG_KINDS)
			kinds |= 1U << c->maps[m].kind;
	return kinds;
}

/* Whether processes are announced for their mappings (user stacks, usym()): stacks.h. */
static inline bool st_compiled_wants_maps(const struct st_compiled *c)
{
	return st_compiled_stacks(c) & (ST_STACK_USER | ST_STACK_MAPS);
}

/* The kernel hashes that maps live in (hashes.c). */
#define ST_HASH_AGGR 0x1 /* st_aggr: keyed aggregations */
#define ST_HASH_COMPACT 0x2 /* st_aggr_compact: those read whole (ST_MAPF_READ_WHOLE) */
#define ST_HASH_VALUES 0x4 /* st_values: plain values */

/* The hashes that map m of c may live in; none for a map without keys. */
uint8_t st_compiled_map_hashes(const struct st_compiled *c, uint32_t m);
/* The hashes that some map of c may live in. */
uint8_t st_compiled_hashes(const struct st_compiled *c);
/*
 * Entries of hash: st_compiled_map_keys() for each map that may live in
 * it; one when none may (its buckets and caches are sized by its entries).
 */
uint32_t st_compiled_hash_entries(const struct st_compiled *c, uint8_t hash);

/*
 * Read every field through the SIDE argument vector, even top-level ones
 * that the probe's SDT arguments carry: for tests of the vector decoder
 * with hand-made vectors that disagree with the SDT arguments.
 */
#define ST_COMPILE_VECTOR_ONLY 0x1
/* -k: failed map updates and deletes reported where they fail (parse/helpers.h) */
#define ST_COMPILE_CHECK_HELPERS 0x2
/* -kk: failed memory reads and map lookups too */
#define ST_COMPILE_CHECK_ALL 0x4

/*
 * Compiles prog, which st_check() annotated. Returns 0, -EINVAL with the
 * reason and position in *diag (a limit of the BPF side exceeded, a
 * construct it cannot evaluate), or -ENOMEM. Free out with
 * st_compiled_free() in every case.
 */
int st_compile(const struct st_program *prog, unsigned int flags, struct st_compiled *out,
	       struct st_diag *diag);

void st_compiled_free(struct st_compiled *c);

/*
 * The probe builtin of a BEGIN, END or interval attach point ("BEGIN",
 * "interval:ms:100"), as bpftrace's: written into buf of len bytes
 * (ST_USER_PROBE_NAME_MAX holds any).
 */
#define ST_USER_PROBE_NAME_MAX 64
void st_user_probe_name(const struct st_attach_point *p, char *buf, size_t len);

/* The name of probe index u as a key holds it, a probe's or a user point's; NULL if none. */
static inline const char *st_compiled_probe_name(const struct st_compiled *c, uint64_t u)
{
	if (u < c->nr_probes)
		return c->probes[u].name;
	if (u - c->nr_probes < c->nr_user_probes)
		return c->user_probes[u - c->nr_probes];
	return NULL;
}

/*
 * The operator (enum st_binop) of a checked binary expression on
 * integers, by its operands' signedness; -1 if it has none.
 */
int st_binop_of(const struct st_expr *e);
/* The same for operator op on operands of types l and r, giving res. */
int st_binop_for(enum st_op op, enum st_vtype l, enum st_vtype r, enum st_vtype res);
/* The operator (enum st_unop) of a unary operator; -1 if none. */
int st_unop_of(enum st_op op);

/*
 * Whether probe p can run in a process: a side: probe of a SIDE event,
 * without stacks, whose every site has a fallback (side/probe.h).
 */
bool st_probe_served_in_process(const struct st_compiled_probe *p);
/* Whether some probe of c can run in a process (--in-process has work). */
bool st_compiled_in_process_any(const struct st_compiled *c);

/*
 * How far past its note the kernel probes site of probe p: a session of
 * every process (-c, or neither -c nor -p) probes a side: probe it can
 * serve at the site's fallback (side/probe.h), which a process serving
 * itself disarms, so that it takes no trap and its engine counts the
 * event instead; other tracers stay armed.
 */
uint32_t st_site_probe_delta(const struct st_compiled *c, const struct st_compiled_probe *p,
			     const struct st_site *site);

#endif /* SIDETRACE_COMPILE_COMPILE_H */
