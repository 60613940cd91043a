/* SPDX-License-Identifier: MIT */
/*
 * libcapstone, loaded when an instruction is first decoded: relocating
 * its tables (77,375 relocations) took 7-9 ms of every start of
 * sidetrace, and only +OFFSET probes and Go's returns decode anything
 * (docs/PERFORMANCE.md, Part 9).
 */
#ifndef SIDETRACE_OBJFILE_CAPSTONE_H
#define SIDETRACE_OBJFILE_CAPSTONE_H

#include <stddef.h>
#include <capstone/capstone.h>

/* The functions of libcapstone that insns.c calls. */
struct st_capstone {
	cs_err (*open)(cs_arch arch, cs_mode mode, csh *handle);
	cs_insn *(*insn_alloc)(csh handle);
	bool (*disasm_iter)(csh handle, const uint8_t **code, size_t *size, uint64_t *address,
			    cs_insn *insn);
	void (*insn_free)(cs_insn *insn, size_t count);
	cs_err (*close)(csh *handle);
};

/* libcapstone, loaded at the first call; NULL if it cannot be, with why in err. */
const struct st_capstone *st_capstone(char *err, size_t errlen);

#endif /* SIDETRACE_OBJFILE_CAPSTONE_H */
