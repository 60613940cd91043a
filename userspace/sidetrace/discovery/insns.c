// SPDX-License-Identifier: MIT
/* Instruction boundaries with libcapstone (insns.h). */
#include <capstone/capstone.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "discovery/insns.h"

/* Functions longer than this are decoded up to the offset only. */
#define ST_MAX_FUNC_BYTES (1U << 20)

int st_insn_boundary(const struct st_elf *e, uint64_t addr, uint64_t size, uint64_t offset,
		     char *err, size_t errlen)
{
	const uint8_t *code;
	uint64_t at, prev = 0;
	uint8_t *buf = NULL;
	size_t left;
	cs_insn *insn = NULL;
	csh cs;
	int ret = -EINVAL;

	if (size && offset >= size) {
		snprintf(err, errlen, "+%" PRIu64 " is past the function's end (%" PRIu64 " bytes)",
			 offset, size);
		return -EINVAL;
	}
	left = offset + 16 < ST_MAX_FUNC_BYTES ? offset + 16 : ST_MAX_FUNC_BYTES;
	buf = malloc(left);
	if (!buf || !st_elf_read(e, addr, buf, left) ||
	    cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		snprintf(err, errlen, "cannot read the function's instructions");
		free(buf);
		return buf ? -EINVAL : -ENOMEM;
	}
	insn = cs_malloc(cs);
	code = buf;
	at = addr;
	while (insn && at <= addr + offset && cs_disasm_iter(cs, &code, &left, &at, insn)) {
		if (insn->address == addr + offset) {
			ret = 0;
			break;
		}
		prev = insn->address;
	}
	if (ret)
		snprintf(err, errlen,
			 "+%" PRIu64
			 " is not the start of an instruction (the one before starts at "
			 "+%" PRIu64 "): a breakpoint there would corrupt it",
			 offset, prev - addr);
	if (insn)
		cs_free(insn, 1);
	cs_close(&cs);
	free(buf);
	return ret;
}
