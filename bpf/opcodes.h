/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The stack machine's instructions (interp.bpf.h), as the collector
 * compiles a probe's clauses into them (compile/codegen*.c), and the
 * copies of the machine that hold some of them. Part of sidetrace.h,
 * which includes it.
 */
#ifndef SIDETRACE_OPCODES_H
#define SIDETRACE_OPCODES_H

enum st_opcode {
	/*
	 * Starts a clause: resets the stack; imm = pc after the clause,
	 * mask = the loads it reads. An event that failed to decode one of
	 * them skips the whole clause, never half of it.
	 */
	ST_I_CLAUSE,
	/* Pops; zero skips to the end of the clause. */
	ST_I_FILTER,
	/* Pushes imm. */
	ST_I_CONST,
	/* Pushes the integer of load a; a failed load skips the clause. */
	ST_I_FIELD,
	/* Pushes string reference a (a load, comm or a literal). */
	ST_I_STR,
	/* Pushes integer builtin a (enum st_builtin_id); comm is ST_I_STR. */
	ST_I_BUILTIN,
	/* Pops one: a = enum st_unop. Pushes the result. */
	ST_I_UNARY,
	/* Pops right, then left: a = enum st_binop. Pushes the result. */
	ST_I_BINARY,
	/* Pops two string references; pushes 1 if they are (not) equal. */
	ST_I_STREQ,
	ST_I_STRNE,
	/*
	 * Key and record stores (KEY_INT, KEY_STR, OUT_INT, OUT_STR, OUT_LOAD) write
	 * 8-byte words at imm, a multiple of 8: the engine in a process
	 * refuses others (validate.c).
	 */
	/* Pops an integer into key part bytes [imm, imm + 8). */
	ST_I_KEY_INT,
	/* Pops a string reference into key part bytes [imm, imm + ST_STR_LEN). */
	ST_I_KEY_STR,
	/* Pops the value and aggregates it into map a; clears the key. */
	ST_I_AGG,
	/* Asks the collector to stop (exit()). */
	ST_I_EXIT,
	/* Pops an integer into record bytes [imm, imm + 8) after the header. */
	ST_I_OUT_INT,
	/* Pops a string reference into record bytes [imm, imm + ST_STR_LEN). */
	ST_I_OUT_STR,
	/*
	 * Sends the record: header kind a (enum st_rec_kind), id the low 16
	 * bits of mask, imm bytes after the header; with ST_EMIT_WAKE in
	 * mask, the collector is woken when it is sent. A full buffer counts
	 * ST_C_LOST.
	 */
	ST_I_OUT_EMIT,
	/* print(args): the whole event as items (st_item) into a record, sent. */
	ST_I_OUT_EVENT,
	/*
	 * Continues at pc imm, within the clause: forward, or back to a while
	 * loop's condition (ST_MAX_RUN_STEPS bounds the rounds).
	 */
	ST_I_JUMP,
	/* Pops; zero continues at pc imm. */
	ST_I_JZ,
	/* Pushes variable a; pops into variable a. */
	ST_I_VAR_GET,
	ST_I_VAR_SET,
	/*
	 * Map a (ST_K_VALUE) at the key built: pushes its value, 0 when the
	 * key is absent; a string value is copied into string reference imm
	 * (a ST_STR_REF_TMP), "" when absent. Clears the key.
	 */
	ST_I_MAP_GET,
	/* Pops the value (a string reference for ST_MAPF_STR) into map a; clears the key. */
	ST_I_MAP_SET,
	/* Pops an integer and adds it atomically to map a's value; clears the key. */
	ST_I_MAP_ADD,
	/* Deletes the key built from map a (st_values or st_aggr); clears the key. */
	ST_I_MAP_DEL,
	/*
	 * Pops a string reference; its first imm - 1 bytes into reference a,
	 * pushed; with mask ST_READ_LEN, pops a length first, whose
	 * ST_STR_BYTES() stand for imm.
	 */
	ST_I_STRN,
	/*
	 * Load a into record bytes at imm: its string (ST_STR_LEN bytes) if
	 * it reads one, else its integer (8). A printf's field, as FIELD or
	 * STR then OUT_INT or OUT_STR in one: a dispatch costs more than the
	 * store. Last, so that a runtime without it refuses it (validate.c).
	 */
	ST_I_OUT_LOAD,
	/*
	 * join(): pops the address of an array of string pointers in user
	 * memory and sends an ST_REC_JOIN record, id mask: its strings, each
	 * in ST_JOIN_ARG_LEN bytes, up to the first that cannot be read (the
	 * NULL that ends the array). Too large for the scratch's record: it is
	 * written in the ring buffer itself.
	 */
	ST_I_OUT_JOIN,
	/* signal(): pops a signal's number and sends it to the current process. */
	ST_I_SIGNAL,
	/*
	 * Pops an address; pushes the integer of a & ST_READ_SIZE bytes
	 * there (1, 2, 4 or 8), its sign extended with ST_READ_SIGNED, from
	 * the kernel's memory with ST_READ_KERNEL; 0 where it cannot be read,
	 * as bpftrace reads. After the others, so that an engine without
	 * them refuses them (validate.c).
	 */
	ST_I_READ,
	/*
	 * Pops an address; reads the string there, at most imm bytes with
	 * its NUL (at most ST_STR_LEN), into string reference a (a
	 * ST_STR_REF_TMP), pushed; mask: ST_READ_KERNEL, ST_READ_ARRAY,
	 * ST_READ_LEN (a length popped before the address, its
	 * ST_STR_BYTES() for imm). Unreadable: "".
	 */
	ST_I_READ_STR,
	/*
	 * buf(), macaddr(), ntop() of an array: pops a length, then an
	 * address; reads that many bytes there (at most ST_BUF_MAX, as they
	 * are, NULs included) into string reference a (a ST_STR_REF_TMP) as
	 * a byte buffer of kind imm (ST_BUF_HDR), pushed; mask:
	 * ST_READ_KERNEL. Unreadable: a buffer of no bytes.
	 */
	ST_I_READ_BUF,
	/* strcontains(): pops the needle, then the haystack; pushes 1 if it holds it, else 0. */
	ST_I_STRSTR,
	/*
	 * debugf(): pops imm values (at most ST_DEBUGF_ARGS), the last first,
	 * a string reference among them (mask bit i: value i) as its bytes'
	 * address; prints with string reference a as bpf_trace_printk()'s format.
	 */
	ST_I_DEBUGF,
	ST_NR_OPCODES,
};

/*
 * The stack machine's copies (enum st_machine), each compiled with the
 * instructions of its mask: all of them; those of clauses that only
 * print builtins, fields and strings, filtered (sidetrace_tp_print); and
 * those of clauses that print builtins and literals only, filtered by
 * integer tests (sidetrace_tp_builtins: no field read, two thirds of the
 * printing copy's size). The collector picks the smallest copy a
 * tracepoint's code fits, since the kernel checks and compiles the whole
 * of a program before it knows what is dead.
 */
#define ST_OP(op) (1ULL << (op))
#define ST_ALL_OPS (~0ULL)
#define ST_PRINT_OPS \
	(ST_OP(ST_I_CLAUSE) | ST_OP(ST_I_FILTER) | ST_OP(ST_I_CONST) | ST_OP(ST_I_FIELD) | \
	 ST_OP(ST_I_STR) | ST_OP(ST_I_BUILTIN) | ST_OP(ST_I_UNARY) | ST_OP(ST_I_BINARY) | \
	 ST_OP(ST_I_STREQ) | ST_OP(ST_I_STRNE) | ST_OP(ST_I_READ_STR) | ST_OP(ST_I_OUT_INT) | \
	 ST_OP(ST_I_OUT_STR) | ST_OP(ST_I_OUT_LOAD) | ST_OP(ST_I_OUT_EMIT) | ST_OP(ST_I_EXIT))
#define ST_BUILTINS_PRINT_OPS \
	(ST_OP(ST_I_CLAUSE) | ST_OP(ST_I_FILTER) | ST_OP(ST_I_CONST) | ST_OP(ST_I_STR) | \
	 ST_OP(ST_I_BUILTIN) | ST_OP(ST_I_UNARY) | ST_OP(ST_I_BINARY) | ST_OP(ST_I_OUT_INT) | \
	 ST_OP(ST_I_OUT_STR) | ST_OP(ST_I_OUT_EMIT) | ST_OP(ST_I_EXIT))

enum st_machine {
	ST_MACHINE_ALL, /* ST_ALL_OPS */
	ST_MACHINE_PRINT, /* ST_PRINT_OPS */
	ST_MACHINE_BUILTINS, /* ST_BUILTINS_PRINT_OPS */
};

/*
 * ST_I_OUT_EMIT: a record the collector acts on (print(@m), system()),
 * whose action waits for no later sample's wake-up.
 */
#define ST_EMIT_WAKE 0x10000

/* ST_I_READ's a, ST_I_READ_STR's mask. */
#define ST_READ_SIZE 0xf
#define ST_READ_SIGNED 0x10
#define ST_READ_KERNEL 0x20
/* ST_I_READ_STR: imm bytes as they are (a char array, full or not), not up to a NUL */
#define ST_READ_ARRAY 0x40
/* ST_I_READ_STR, ST_I_STRN: the length is popped (str(s, n) of a computed n), not imm */
#define ST_READ_LEN 0x80

#endif /* SIDETRACE_OPCODES_H */
