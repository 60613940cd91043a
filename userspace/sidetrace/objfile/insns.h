/* SPDX-License-Identifier: MIT */
/*
 * A function's instructions, decoded with libcapstone: a probe at an
 * offset into a function must sit on an instruction's first byte, or its
 * breakpoint would corrupt the instruction it lands in.
 */
#ifndef SIDETRACE_OBJFILE_INSNS_H
#define SIDETRACE_OBJFILE_INSNS_H

#include <stddef.h>
#include <stdint.h>

#include "objfile/elf.h"

/*
 * 0 when an instruction of the function at addr (size bytes) starts at
 * addr + offset; else -EINVAL with the reason in err (inside an
 * instruction, past the function's end, undecodable bytes).
 */
int st_insn_boundary(const struct st_elf *e, uint64_t addr, uint64_t size, uint64_t offset,
		     char *err, size_t errlen);

/*
 * The RET instructions of the function at addr (size bytes): their
 * addresses in *rets (malloc'ed), their number in *nr. A Go function's
 * returns are probed there: a uretprobe's planted return address breaks
 * Go's stack walks and copies. 0, or a negative errno with the reason in err.
 */
int st_insn_rets(const struct st_elf *e, uint64_t addr, uint64_t size, uint64_t **rets, size_t *nr,
		 char *err, size_t errlen);

/*
 * A Go function's stack-growth check at its entry ("cmp ..., [r14 + 16];
 * jbe morestack"): the address right after it, or addr when there is none.
 * Go runs the prologue again after growing the stack: a probe there would
 * count that call twice.
 */
uint64_t st_insn_after_go_stack_check(const struct st_elf *e, uint64_t addr, uint64_t size);

#endif /* SIDETRACE_OBJFILE_INSNS_H */
