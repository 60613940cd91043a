/* SPDX-License-Identifier: MIT */
/*
 * A function's instructions, decoded with libcapstone: a probe at an
 * offset into a function must sit on an instruction's first byte, or its
 * breakpoint would corrupt the instruction it lands in.
 */
#ifndef SIDETRACE_DISCOVERY_INSNS_H
#define SIDETRACE_DISCOVERY_INSNS_H

#include <stddef.h>
#include <stdint.h>

#include "discovery/elf.h"

/*
 * 0 when an instruction of the function at addr (size bytes) starts at
 * addr + offset; else -EINVAL with the reason in err (inside an
 * instruction, past the function's end, undecodable bytes).
 */
int st_insn_boundary(const struct st_elf *e, uint64_t addr, uint64_t size, uint64_t offset,
		     char *err, size_t errlen);

#endif /* SIDETRACE_DISCOVERY_INSNS_H */
