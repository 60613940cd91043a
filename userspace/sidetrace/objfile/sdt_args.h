/* SPDX-License-Identifier: MIT */
/*
 * SDT argument strings of stapsdt notes ("-4@%eax 8@$5 8@-16(%rbp)"),
 * parsed once by discovery into the locations the BPF program reads
 * (struct st_arg_spec of the kernel contract), for the compile step to
 * count and the loader to copy.
 */
#ifndef SIDETRACE_OBJFILE_SDT_ARGS_H
#define SIDETRACE_OBJFILE_SDT_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "sidetrace.h"

struct st_sdt_args {
	uint32_t nr; /* operands in the note, possibly more than ST_MAX_SDT_ARGS */
	/* bit i: operand i has a form the BPF side cannot read (SIB, unknown) */
	uint32_t bad;
	struct st_arg_spec spec[ST_MAX_SDT_ARGS];
};

/* "%rax" (len bytes; any of its 64, 32, 16 or 8-bit names) -> word of struct pt_regs, or -1. */
int st_sdt_reg_word(const char *name, size_t len);

/*
 * A register by bpftrace's name for it, reg("sp") (the names of x86-64's
 * struct pt_regs without their r: "ax", "ip", "flags", "r8") -> its word,
 * or -1; st_pt_regs_names(): every name, for messages.
 */
int st_pt_regs_word(const char *name);
const char *st_pt_regs_names(void);

/* The System V ABI's integer argument registers, in order: arg0..arg5. */
#define ST_NR_ABI_ARGS 6
extern const char *const st_abi_args[ST_NR_ABI_ARGS];

/* Parses an argument string; an operand it cannot read is marked in bad. */
void st_sdt_args_parse(const char *args, struct st_sdt_args *out);

/* Operand i of args as written, for messages ("" when absent or too long). */
void st_sdt_arg_text(const char *args, uint32_t i, char *buf, size_t len);

/* Why an operand (as written) that the parser refused cannot be read, for a person. */
const char *st_sdt_arg_why(const char *operand);

#endif /* SIDETRACE_OBJFILE_SDT_ARGS_H */
