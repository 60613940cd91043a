// SPDX-License-Identifier: MIT
/* libcapstone loaded on first use (capstone.h). */
#include "objfile/capstone.h"
#include "util/lazy_lib.h"

#define ST_STR_(x) #x
#define ST_STR(x) ST_STR_(x)

enum { CS_OPEN, CS_MALLOC, CS_DISASM_ITER, CS_FREE, CS_CLOSE, NR_CS_FNS };

static const char *const st_cs_names[NR_CS_FNS + 1] = {
	[CS_OPEN] = "cs_open", [CS_MALLOC] = "cs_malloc", [CS_DISASM_ITER] = "cs_disasm_iter",
	[CS_FREE] = "cs_free", [CS_CLOSE] = "cs_close",
};
static void *st_cs_fns[NR_CS_FNS];

static struct st_lazy_lib st_cs_lib = {
	/* The library the build's header describes: its soname carries its API version. */
	.soname = "libcapstone.so." ST_STR(CS_API_MAJOR),
	.package = "libcapstone" ST_STR(CS_API_MAJOR),
	.names = st_cs_names,
	.fns = st_cs_fns,
};

static struct st_capstone st_cs;

const struct st_capstone *st_capstone(char *err, size_t errlen)
{
	if (!st_lazy_lib_load(&st_cs_lib, err, errlen))
		return NULL;
	if (st_cs.open)
		return &st_cs;
	/* POSIX: a function's address from dlsym() converts to its own type. */
	st_cs.open = (cs_err(*)(cs_arch, cs_mode, csh *))st_cs_fns[CS_OPEN];
	st_cs.insn_alloc = (cs_insn * (*)(csh)) st_cs_fns[CS_MALLOC];
	st_cs.disasm_iter = (bool (*)(csh, const uint8_t **, size_t *, uint64_t *,
				      cs_insn *))st_cs_fns[CS_DISASM_ITER];
	st_cs.insn_free = (void (*)(cs_insn *, size_t))st_cs_fns[CS_FREE];
	st_cs.close = (cs_err(*)(csh *))st_cs_fns[CS_CLOSE];
	return &st_cs;
}
