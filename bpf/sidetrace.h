/* SPDX-License-Identifier: MIT */
/*
 * Configuration and map layouts shared by the generic BPF program
 * (sidetrace.bpf.c) and the collector that fills and reads them.
 *
 * A one-liner never becomes code: the collector compiles it into one
 * st_probe_cfg per traced event (the "probe"), plus one st_map_cfg per
 * @map. Each probe site of an event gets one st_site_cfg, whose index is the
 * uprobe's cookie: it says where the site's SDT arguments are (st_arg_spec,
 * parsed from the note by the collector) and which probe it serves. At
 * every hit the program
 *
 *   1. reads the SDT arguments the probe needs straight from the registers,
 *   2. decodes the fields the probe's clauses read (st_load: a top-level
 *      value from its SDT argument, an index path into the SIDE argument
 *      vector, or a dynamic field found by name),
 *   3. runs a small stack machine (st_insn) per clause: filter, key parts,
 *      aggregation,
 *   4. aggregates into a per-CPU array slot (maps without keys) or one
 *      per-CPU hash keyed by (map id, key parts).
 *
 * A probe that only counts (no filter, no keys, no fields) is served by a
 * program of its own that does just that (st_site_cfg.counts). A probe
 * whose fields are all top-level SDT values and whose clauses have no
 * filter and only aggregate fields or constants by fields and builtins
 * is served by sidetrace_plain, which runs st_probe_cfg.plain[] without the
 * stack machine; the collector derives those from the instructions. Of
 * those, a probe that reads only integers into maps without keys is
 * served by sidetrace_flat, which needs no scratch either, and one of a
 * single statement into a keyed map by sidetrace_keyed, which builds the
 * key on its stack when the session's keys fit there (ST_KEYED_KEY_MAX).
 *
 * Everything is bounded by the constants below, which the compile step
 * enforces with an error message before anything is loaded.
 */
#ifndef SIDETRACE_BPF_SHARED_H
#define SIDETRACE_BPF_SHARED_H

#ifndef __bpf__
#include <linux/types.h>
#endif

#include "sidetrace_arith.h"

#define ST_STR_LEN 64 /* string values, NUL included */
/* str(s, n)'s bytes with its NUL: n characters, as bpftrace reads, within ST_STR_LEN. */
#define ST_STR_BYTES(n) ((n) <= 0 ? 1 : (n) >= ST_STR_LEN - 1 ? ST_STR_LEN : (n) + 1)
#define ST_MAX_LOADS 16 /* fields decoded per probe */
#define ST_MAX_STEPS 4 /* index path depth: field, member, element... */
#define ST_MAX_INSNS 256 /* instructions per probe, all clauses */
/* Instructions one event runs at most, its while loops' included (ST_C_STEPS past them) */
#define ST_MAX_RUN_STEPS 8192
#define ST_MAX_STRCONST 8 /* string literals per probe */
#define ST_NAME_LEN 32 /* dynamic field names, NUL included */
#define ST_MAX_DYN_FIELDS 32 /* dynamic fields searched per event */
#define ST_STACK_DEPTH 16 /* stack machine depth */
#define ST_MAX_MAPS 64
#define ST_KEY_MAX 512 /* kernel limit of a hash key */
/* Key part bytes available to a map; hist and lhist need the bucket too. */
#define ST_KEY_PARTS_MAX (ST_KEY_MAX - ST_KEY_HDR - ST_KEY_BUCKET_SIZE)
/* Keys of each keyed map unless told (bpftrace's BPFTRACE_MAP_KEYS_MAX default) */
#define ST_DEFAULT_MAP_KEYS 4096
#define ST_MAX_SDT_ARGS 12 /* SDT arguments of a probe site */
#define ST_MAX_COUNTS 4 /* count-only probe: maps it counts in */
#define ST_NR_SCRATCH 4 /* runs that can overlap on one CPU */
#define ST_MAX_FLAT_SLOTS 4096 /* array slots of maps without keys */
#define ST_MAX_PLAIN 4 /* statements of a sidetrace_plain probe */
#define ST_MAX_PLAIN_PARTS 8 /* key parts of one (ST_MAX_MAP_KEYS) */
#define ST_KEYED_KEY_MAX 192 /* the largest key sidetrace_keyed builds on its stack */
#define ST_KEYED_MAX_LOADS (ST_MAX_PLAIN_PARTS + 1) /* its loads: a statement's parts and value */
#define ST_KEYED1_MAX_LOADS 2 /* sidetrace_keyed1's: one key part and the value */
#define ST_MAX_VARS 16 /* variables ($name) of a clause */
/* strings and buffers a clause makes: str(s, n), buf(), string map values (a power of 2) */
#define ST_MAX_TMPSTR 8

/* String references on the machine's stack: which buffer holds the bytes. */
#define ST_STR_REF_COMM ST_MAX_LOADS /* the comm builtin */
/* path(): the path the kernel named before the clauses ran (ST_DPATH_ON) */
#define ST_STR_REF_DPATH (ST_MAX_LOADS + 1)
#define ST_STR_REF_CONST (ST_MAX_LOADS + 2) /* + literal index */
#define ST_STR_REF_TMP (ST_STR_REF_CONST + ST_MAX_STRCONST) /* + slot */
#define ST_NR_STR_REFS (ST_STR_REF_TMP + ST_MAX_TMPSTR)

/*
 * path(): what the kernel names (bpf_d_path()) before an iterator's or a
 * trampoline's clauses run, a constant of the program's instance: word
 * ST_DPATH_WORD(v) of the context (a trampoline's argument, an
 * iterator's member) holds a struct path *, or with ST_DPATH_FILE a
 * struct file * whose f_path is named, ST_DPATH_OFF(v) bytes in (as the
 * kernel's BTF says, read by the checker: no CO-RE, which would have
 * libbpf parse that BTF at every load); 0: nothing.
 */
#define ST_DPATH_ON (1U << 31)
#define ST_DPATH_FILE (1U << 30)
#define ST_DPATH_WORDS 6 /* the context's words it can be in */
#define ST_DPATH_WORD(v) ((v)&0x3f)
#define ST_DPATH_OFF_SHIFT 8
#define ST_DPATH_OFF_MAX 0xffff
#define ST_DPATH_OFF(v) (((v) >> ST_DPATH_OFF_SHIFT) & ST_DPATH_OFF_MAX)

/* Where a load starts. */
enum st_load_src {
	ST_SRC_VEC, /* index path from the event's argument vector */
	ST_SRC_DYN, /* variadic event: dynamic field named name[] */
	/*
	 * A top-level integer, bool or string field among the first SDT
	 * arguments: side/probe.h makes argument i the value of field i
	 * (integers widened with their sign, strings as their pointer), so
	 * nothing is read from the argument vector.
	 */
	ST_SRC_SDT,
	/*
	 * Memory reached from an SDT argument, a pointer (a function's
	 * parameter, args.r->name): each step adds its index, a byte offset,
	 * and where its size is ST_MEM_DEREF reads the pointer found there
	 * before the next step; the last step's address holds the value, of
	 * its label and size (a string: its bytes there when size is 0, or a
	 * pointer to them when it is 8).
	 */
	ST_SRC_MEM,
	ST_NR_LOAD_SRCS,
};

#define ST_MEM_DEREF 0xffff

/* What a load produces. */
enum st_load_want {
	ST_WANT_INT, /* 64-bit integer in vals[] */
	ST_WANT_STR, /* NUL-padded string in the load's string slot */
};

/*
 * Expected label of the last step of a static field whose SIDE type is
 * "dynamic", and of every dynamic field of a variadic event: the value
 * carries its own type, one of the basic SIDE_TYPE_DYNAMIC_* labels.
 */
#define ST_LABEL_ANY_DYNAMIC 0xffff

struct st_step {
	__u32 index; /* element of the current argument vector */
	__u16 label; /* SIDE_TYPE_* the argument must carry */
	__u16 size; /* last step, bool: bool_size in bytes */
};

struct st_load {
	__u8 src; /* enum st_load_src */
	__u8 want; /* enum st_load_want */
	__u8 nr_steps; /* ST_SRC_VEC, ST_SRC_MEM: 1..ST_MAX_STEPS */
	__u8 sdt_arg; /* ST_SRC_SDT, ST_SRC_MEM: the SDT argument */
	/*
	 * ST_SRC_SDT string: 1 + the SDT argument that holds its length (a
	 * Go string: its bytes have no NUL); 0: the string ends at its NUL.
	 */
	__u8 len_arg1;
	/*
	 * The memory read is the kernel's: an ST_SRC_SDT string (in a
	 * tracepoint's record, a kernel string), or every read of an
	 * ST_SRC_MEM load (a kernel function's argument and what it points to).
	 */
	__u8 kernel;
	__u8 reserved[2];
	struct st_step steps[ST_MAX_STEPS];
	char name[ST_NAME_LEN]; /* ST_SRC_DYN */
};

#include "opcodes.h"

/*
 * A byte buffer (buf(), macaddr(), ntop() of an array, pton()) is a
 * string slot of ST_STR_LEN bytes, so that every path that keeps, keys,
 * compares, stores and sends a string carries it unchanged: its first
 * byte is its header, its kind (how the collector prints it, enum
 * st_buf_kind) in the top 2 bits and the count of bytes that follow in
 * the low 6; the bytes after them are zero. Its bytes may hold NULs, so
 * the count is what tells them from the padding (buf(p, 8) of "ok_key"
 * prints ok_key\x00\x00). A buffer holds ST_BUF_MAX bytes, one fewer than
 * bpftrace's 64: the header takes the slot's 64th byte.
 */
#define ST_BUF_MAX (ST_STR_LEN - 1)
#define ST_BUF_HDR(kind, len) ((__u8)((kind) << 6 | (len)))
#define ST_BUF_KIND(hdr) ((__u8)(hdr) >> 6)
#define ST_BUF_LEN(hdr) ((__u8)(hdr)&0x3f)
enum st_buf_kind {
	ST_BUF_BYTES, /* buf(): printable ASCII as it is, other bytes \xNN */
	ST_BUF_INET, /* an IPv4 (4 bytes) or IPv6 (16) address, as inet_ntop() writes it */
	ST_BUF_MAC, /* macaddr(): 6 bytes, AA:BB:CC:DD:EE:FF */
	ST_BUF_ARRAY, /* pton(): a uint8 array, [127,0,0,1] */
};
_Static_assert(ST_BUF_MAX < 64, "a buffer's length fits the header's 6 bits");

enum st_builtin_id {
	ST_BI_PID,
	ST_BI_TID,
	ST_BI_NSECS,
	ST_BI_CPU,
	ST_BI_UID,
	ST_BI_PROBE, /* the probe's index: printed as its name */
	ST_BI_RAND, /* bpf_get_prandom_u32() */
	ST_BI_CGROUP, /* bpf_get_current_cgroup_id() */
	ST_BI_USTACK, /* the event's user stack (ST_USTACK), taken before the clauses */
	ST_BI_KSTACK, /* its kernel stack's id in st_stacks */
	/*
	 * From here, only the stack machine computes them: each case the
	 * specialized programs have costs every one of them verifier steps.
	 */
	ST_BI_FIRST_INTERP,
	ST_BI_GID = ST_BI_FIRST_INTERP,
	ST_BI_NUMAID, /* the NUMA node of the CPU it runs on */
	ST_BI_CURTASK, /* the task's struct task_struct, in the kernel's memory */
	ST_BI_CTX, /* the program's context (struct pt_regs, a tracepoint's record), in the kernel's
		    */
};

struct st_insn {
	__u8 op; /* enum st_opcode */
	__u8 a;
	/*
	 * -k: 1 + the collector's index of the place in the program whose
	 * helper this instruction calls (a map's update, delete or lookup,
	 * a read): a failure sends it (ST_REC_HELPER_ERR). 0: not reported.
	 */
	__u16 site;
	__u32 mask; /* ST_I_CLAUSE: bit i = load i */
	__s64 imm;
};

/* The plain statements of the specialized programs (st_probe_cfg.plain). */
#include "plain_stmt.h"

struct st_probe_cfg {
	__u8 vec_arg; /* SDT argument holding the argument vector */
	__u8 dyn_arg; /* variadic: SDT argument of the dynamic struct */
	__u8 variadic;
	__u8 nr_loads;
	__u16 str_loads; /* bit i: load i reads a string (fault-in) */
	__u16 sdt_mask; /* bit i: SDT argument i is needed */
	__u8 need_vec; /* some load follows the argument vector */
	__u8 nr_plain; /* sidetrace_plain: statements in plain[] */
	__u8 whole; /* print(args): the argument vector is read for it */
	__u8 stacks; /* ST_STACK_*: the stacks its clauses read (ustack, kstack) */
	__u32 nr_insns;
	__u32 nr_fields; /* print(args): the static fields the event declares */
	/*
	 * sidetrace_plain: bit i: string load i is only a key part of
	 * ST_MAPF_READ_WHOLE maps, so a string in the site's read-only
	 * segment is keyed by its address (struct st_ro_ref), not read.
	 */
	__u32 ro_loads;
	struct st_load loads[ST_MAX_LOADS];
	struct st_insn insns[ST_MAX_INSNS];
	char strs[ST_MAX_STRCONST][ST_STR_LEN];
	struct st_plain_stmt plain[ST_MAX_PLAIN];
};

/* st_probe_cfg.stacks: taken once per event, before the clauses run. */
#define ST_STACK_USER 0x1
#define ST_STACK_KERNEL 0x2
/* No stack: the process's mappings are wanted (usym()), announced as a user stack's */
#define ST_STACK_MAPS 0x4
/* Frames kept per stack (the kernel's default perf_event_max_stack). */
#define ST_STACK_FRAMES 127
/*
 * Stacks kept per session (bpftrace's default too), and processes whose
 * user stacks are kept. A stack map is allocated whole: 4096 user stacks
 * of 127 build-id frames are 16 MiB of kernel memory, kernel stacks 4.
 */
#define ST_MAX_STACKS 4096
#define ST_MAX_STACK_PIDS 4096
/*
 * The kernel keeps one stack per hash bucket of a stack map and refuses
 * a different one there: such a stack goes to a second map, a quarter of
 * the size (st_ustacks_spill, st_stacks_spill), its id marked so. Its
 * bucket there is the same low bits of the same hash: two colliding stacks
 * collide again, so a stack is lost where both come in two copies (by
 * build id, and by address where the kernel could not read one in time).
 */
#define ST_MAX_SPILL_STACKS (ST_MAX_STACKS / 4)
#define ST_STACK_SPILL 0x40000000U
/*
 * A ustack value: the stack's id in st_ustacks or, ST_STACK_SPILL set,
 * st_ustacks_spill (low 32 bits) and its
 * process (high 32), whose mappings the collector keeps to symbolize it
 * after the process exits. A kstack value is its id in st_stacks (or
 * st_stacks_spill). Either
 * id may instead say there was none: ST_STACK_EMPTY (a sample in user
 * mode has no kernel stack, a kernel thread no user stack), or
 * ST_STACK_FAILED (the kernel could not take it).
 */
#define ST_STACK_FAILED 0xffffffffU
#define ST_STACK_EMPTY 0xfffffffeU
#define ST_USTACK(tgid, id) ((__u64)(tgid) << 32 | (__u32)(id))
#define ST_USTACK_ID(v) ((__u32)(v))
#define ST_USTACK_PID(v) ((__u32)((v) >> 32))

#define ST_MAPF_SIGNED 0x1 /* min/max compare as signed */
#define ST_MAPF_FLAT 0x2 /* no keys: slots of st_flat, not st_aggr */
#define ST_MAPF_STR 0x4 /* ST_K_VALUE: holds strings */
/*
 * An aggregation that nothing reads or deletes by key, only the collector
 * reads it whole: its string key parts may be struct st_ro_ref, and its
 * keys may be compact (st_map_cfg.str_parts). The collector restores the
 * bytes and the full form, and merges the keys that then read alike.
 */
#define ST_MAPF_READ_WHOLE 0x8

struct st_map_cfg {
	__u8 kind; /* enum st_agg_kind */
	__u8 flags; /* ST_MAPF_* */
	__u16 key_size; /* bytes of key parts, a multiple of 8 */
	__u32 flat_base; /* ST_MAPF_FLAT: first slot in st_flat */
	__u32 flat_len; /* ST_MAPF_FLAT: slots (buckets, or 1) */
	__u16 compact_size; /* bytes of key parts in a compact key */
	/*
	 * ST_MAPF_READ_WHOLE: bit k: key part k is a string. A plain
	 * statement whose string parts are all by address or short this
	 * time writes its key to st_aggr_compact.
	 */
	__u8 str_parts;
	__u8 reserved;
	__s64 lmin, lmax, lstep; /* ST_K_LHIST */
};

/*
 * A plain value (ST_K_VALUE) in st_values: an integer in the first 8
 * bytes, or a NUL-padded string.
 */
struct st_value {
	char b[ST_STR_LEN];
};

/* Hash key: header then key parts then (hist, lhist) the bucket (st_key_len). */
struct st_key_hdr {
	__u32 map_id;
	__u32 addr_parts; /* bit k: string key part k is a struct st_ro_ref */
};

/*
 * A string key part by address: a string in the read-only segment of the
 * object of site (the uprobe cookie), at off bytes from the site's
 * address; the rest of the part is zero. Such bytes cannot change while
 * the object is mapped, so the collector reads them from the file.
 */
struct st_ro_ref {
	__u64 site;
	__s64 off;
};

/*
 * A compact key (st_aggr_compact) is laid out as a full one, except that a
 * string part takes ST_COMPACT_STR_LEN bytes: its struct st_ro_ref (bit
 * set in addr_parts) or its bytes, when they fit with their NUL. Hashing
 * and comparing 16 bytes instead of ST_STR_LEN is most of what a keyed
 * update costs.
 */
#define ST_COMPACT_STR_LEN 16

/*
 * Aggregated value (one per CPU). Runs preempted on one CPU may update the
 * same value, so every field is updated atomically: count and sum by
 * addition, min and max as an atomic unsigned maximum of their encoding
 * (st_min_encode, st_max_encode). Only ST_K_MIN and ST_K_MAX keep them;
 * COUNT, MIN and MAX keep no sum; a HIST or LHIST bucket keeps the sum of
 * its values.
 */
struct st_val {
	__s64 count;
	__s64 sum;
	__u64 min;
	__u64 max;
};

/* What sidetrace's own clauses ask of the programs it runs itself (user.bpf.h). */
#include "user_reqs.h"

/*
 * Per-event output (printf, print(args)): the stack machine builds one
 * record in its scratch at a time. The BPF side writes raw values only;
 * the collector formats. A record is the header, then len bytes whose
 * layout the compile step chose (see st_printf_layout in compile.h): 8
 * bytes per integer, ST_STR_LEN per string, in argument order.
 *
 * An event's records are batched in its scratch and reach the st_events
 * ring buffer as one sample when its clauses are done: records of events
 * on other CPUs never come between them (time() and the printf after it).
 * A sample is one or more records, each at an offset that is a multiple
 * of ST_REC_ALIGN (ST_REC_SPAN()). A record that does not fit in
 * ST_REC_BATCH_MAX, join()'s and the requests of ST_REC_STACK_PID and
 * ST_REC_WATCH are samples of their own.
 */

enum st_rec_kind {
	ST_REC_PRINTF, /* id: the printf statement (st_compiled.printfs) */
	ST_REC_EVENT, /* print(args): items, id: ST_REC_F_* */
	/*
	 * A process whose user stack was taken for the first time (pid): the
	 * collector reads its mappings at once, while it most likely lives.
	 */
	ST_REC_STACK_PID,
	/*
	 * print(args) of located fields (usdt:, uprobe:, kernel probes): a
	 * printf record (id: its printf), printed as an event under -f json.
	 */
	ST_REC_ARGS,
	/* join(): id its printf layout's, ST_JOIN_SIZE bytes of strings (ST_I_OUT_JOIN) */
	ST_REC_JOIN,
	/*
	 * A function's watchpoint called (sidetrace_watch_arm): probe, the
	 * process, and ST_REC_INT_SIZE bytes, the address its argument holds
	 */
	ST_REC_WATCH,
	/*
	 * -k: a helper failed at a place of the program (id: st_insn.site -
	 * 1), and ST_REC_INT_SIZE bytes, what it returned, as bpftrace says
	 * it (a lookup's miss: 0)
	 */
	ST_REC_HELPER_ERR,
	ST_NR_REC_KINDS,
};

/* join(): strings read from the array, and the bytes of each, NUL included (bpftrace's) */
#define ST_JOIN_ARGS 16
#define ST_JOIN_ARG_LEN 1024
#define ST_JOIN_SIZE (ST_JOIN_ARGS * ST_JOIN_ARG_LEN)

#define ST_REC_F_CUT 0x1 /* ST_REC_EVENT: the event did not fit, items cut */

struct st_rec_hdr {
	__u16 kind; /* enum st_rec_kind */
	__u16 id;
	__u32 probe;
	__u64 time_ns; /* ST_REC_EVENT, _ARGS: bpf_ktime_get_ns(), CLOCK_MONOTONIC */
	__u32 pid;
	__u32 tid;
	__u32 len; /* bytes after the header */
	__u32 reserved;
};

#define ST_REC_HDR 32 /* sizeof(struct st_rec_hdr) */
#define ST_REC_MAX 4096 /* bytes after the header: a record has fewer */
#define ST_REC_ALIGN 8
#define ST_REC_BATCH_MAX 4096 /* bytes of a sample of batched records */
/* Where the record after one of len bytes after its header starts in a sample. */
#define ST_REC_SPAN(len) ((ST_REC_HDR + (len) + ST_REC_ALIGN - 1) & ~(ST_REC_ALIGN - 1))
#define ST_REC_INT_SIZE 8 /* an integer in a record */
#define ST_REC_STR_SIZE ST_STR_LEN /* a string in a record, NUL-padded */
/*
 * An ST_REC_EVENT record is the event's arguments in pre-order, one item
 * each: the static fields, then a variadic event's dynamic fields (each
 * after an ST_ITEM_NAME item). A struct, array or vla item is followed by
 * the items of its count elements. Payloads: a string's bytes with its
 * NUL (size rounded up to 8), any other value the struct side_arg as the
 * application passed it (ST_ITEM_ARG_SIZE), the collector decoding it
 * with the description or the dynamic type it carries.
 */
struct st_item {
	__u16 label; /* SIDE_TYPE_*, or ST_ITEM_NAME */
	__u16 err; /* enum st_counter: the value could not be read */
	__u16 size; /* payload bytes that follow, a multiple of 8 */
	__u16 count; /* struct, array, vla: elements that follow */
};

#define ST_ITEM_HDR 8 /* sizeof(struct st_item) */
#define ST_ITEM_ARG_SIZE 64 /* sizeof(struct side_arg) */
#define ST_ITEM_NAME 0xfffe /* a dynamic field's name, as a string payload */
#define ST_PRINT_DEPTH 8 /* nesting print(args) follows; deeper is cut */
#define ST_PRINT_ITEMS 256 /* items per event; more are cut */

/* -c: tasks of the command and its descendants that can be followed at once. */
#define ST_MAX_FOLLOWED 65536
/*
 * A followed task's value in st_followed: alive, or exited and still
 * followed until its task is freed, so that a program the exit's
 * tracepoint runs after sidetrace_exit still sees it as followed.
 */
#define ST_FOLLOWED 1
#define ST_FOLLOWED_EXITED 2
/* A tracepoint field offset that the running kernel's record does not have. */
#define ST_NO_FIELD 0xffffffffU

/*
 * The ring buffer's sizes (a power of 2 of pages). For printf's records
 * by default as many bytes as bpftrace's perf buffers, ST_EVENTS_CPU_PAGES
 * pages on each possible CPU (its BPFTRACE_PERF_RB_PAGES), and at least
 * ST_EVENTS_PRINT_MIN, which a thread printing as fast as a uprobe
 * fires (600,000 events a second) does not fill before sidetrace reads
 * it on an Intel host whose scheduler pauses the reader for a few
 * milliseconds at times (half of it lost events in a third of runs); for
 * whole events (print(args)), whose records are larger; its least and its
 * most. The kernel allocates every page at start-up and maps it into
 * sidetrace twice: 2 MiB took 0.5 ms of it.
 */
#define ST_EVENTS_CPU_PAGES 64U
#define ST_EVENTS_PRINT_MIN (1U << 20)
#define ST_EVENTS_WHOLE_SIZE (16U << 20)
#define ST_EVENTS_MIN_SIZE 4096U
#define ST_EVENTS_MAX_SIZE (1U << 30)

/* Where an SDT argument is, as its note says ("-8@%rax", "8@$5", "8@-16(%rbp)"). */
enum st_arg_loc {
	ST_LOC_NONE,
	ST_LOC_CONST, /* the value is val */
	ST_LOC_REG, /* in register reg */
	ST_LOC_MEM, /* in memory at register reg + val */
	/* in memory at reg + idx_reg * scale + val ("8@-8(%rax,%rdx,8)"; reg may be ST_NO_REG) */
	ST_LOC_MEM_INDEX,
	/* A tracepoint's field (tracepoint.bpf.h): in its record at offset val */
	ST_LOC_TP,
	/* the address of the record's bytes at offset val: a char array in place */
	ST_LOC_TP_ADDR,
	/* a __data_loc field at offset val: its bytes at the record + its low 16 bits */
	ST_LOC_TP_DATA_LOC,
	/* A kernel function's argument val, as its trampoline hands it (fentry.bpf.h) */
	ST_LOC_FUNC_ARG,
	/* its return value, at fexit */
	ST_LOC_FUNC_RET,
	/* register reg + val: uaddr(), an address from the probed instruction's (ip) */
	ST_LOC_REG_OFFSET,
};

/* No register: sdt_reg() reads it as 0 (a SIB operand without a base). */
#define ST_NO_REG 0xff

struct st_arg_spec {
	__u8 loc; /* enum st_arg_loc */
	__u8 reg; /* 8-byte word of the register in struct pt_regs */
	__s8 size; /* bytes; negative: signed */
	__u8 idx_reg; /* ST_LOC_MEM_INDEX: the index register's word */
	__u8 scale; /* ST_LOC_MEM_INDEX: 1, 2, 4 or 8 */
	__u8 reserved[3];
	__s64 val;
};

/*
 * A uprobe's cookie: its site's index in st_sites (bits 0-31), the site's
 * probe in st_probes (bits 32-47) and, for a count-only site that counts
 * in one map, that map's st_flat slot + 1 (bits 48-63; 0: the site says).
 * The programs key their first lookups with it: an index loaded from the
 * site's configuration made each event about 25 ns slower than the same
 * index from a register (docs/PERFORMANCE.md, Part 6).
 */
#define ST_MAX_PROBES 0xffff
#define ST_COOKIE(site, probe, count_slot1) \
	((__u64)(site) | (__u64)(probe) << 32 | (__u64)(count_slot1) << 48)
#define ST_COOKIE_SITE(c) ((__u32)(c))
#define ST_COOKIE_PROBE(c) ((__u32)((c) >> 32) & 0xffff)
#define ST_COOKIE_COUNT_SLOT1(c) ((__u32)((c) >> 48))
_Static_assert(ST_MAX_FLAT_SLOTS < 0xffff, "a count slot + 1 fits the cookie");
/*
 * sidetrace_watch_arm's cookie, which has no site: the watchpoint's
 * probe, as ST_COOKIE's; the word of struct pt_regs that holds the
 * argument (bits 0-7); whether the process is stopped until its
 * breakpoint is set (bit 8).
 */
#define ST_WATCH_COOKIE(probe, reg, stop) ST_COOKIE((reg) | (stop) << 8, probe, 0)
#define ST_WATCH_COOKIE_REG(c) ((__u32)(c)&0xff)
#define ST_WATCH_COOKIE_STOP(c) (((__u32)(c) >> 8) & 1)
/* Key parts are 8-aligned in either form (sidetrace_keyed relies on it). */
_Static_assert(ST_STR_LEN % 8 == 0 && ST_COMPACT_STR_LEN % 8 == 0, "key parts are 8-aligned");

/* One probe site: see the cookie above. */
struct st_site_cfg {
	/* Its probe is in the cookie. */
	__u32 nr_counts; /* count-only probe: slots in counts[] */
	__u32 counts[ST_MAX_COUNTS]; /* st_flat slots it counts in */
	struct st_arg_spec args[ST_MAX_SDT_ARGS];
	/*
	 * The read-only segment of the site's object that holds its string
	 * literals, from the site's address: [ro_lo, ro_lo + ro_len); no
	 * segment: ro_len 0.
	 */
	__s64 ro_lo;
	__u64 ro_len;
	/*
	 * The site whose address a literal's struct st_ro_ref is an offset
	 * from: this one (its cookie's index) in the kernel; in a process's
	 * engine, which has no site address, a kernel site of the same object.
	 */
	__u32 ro_site;
	__u32 reserved;
};

/*
 * Per-probe counters, st_counters[probe * ST_NR_COUNTERS + counter].
 * An event counts at most one decode error: the first one met.
 */
enum st_counter {
	ST_C_ERR_USDT, /* an SDT argument could not be read */
	ST_C_ERR_VEC, /* argument vector unreadable (bad pointer) */
	ST_C_ERR_ARG, /* argument unreadable (bad pointer) */
	ST_C_ERR_INDEX, /* field index beyond the vector's length */
	ST_C_ERR_LABEL, /* argument type label not the declared one */
	ST_C_ERR_STR, /* string unreadable (bad or not paged in) */
	ST_C_ERR_NOFIELD, /* dynamic field absent from the event */
	ST_C_ERR_DYNTYPE, /* dynamic value of a type that cannot be used */
	ST_C_STR_TRUNC, /* string longer than ST_STR_LEN - 1: cut */
	ST_C_MAP_FULL, /* aggregation map full: value not counted */
	ST_C_BUSY, /* ST_NR_SCRATCH runs nested on a CPU: dropped */
	ST_C_LOST, /* output buffer full: a record was not sent */
	ST_C_MAP_ERR, /* a new key refused, the map not full (st_map_err says why) */
	ST_C_STEPS, /* a while loop ran past ST_MAX_RUN_STEPS instructions: the event stopped */
	ST_NR_COUNTERS,
};

#endif /* SIDETRACE_BPF_SHARED_H */
