// SPDX-License-Identifier: MIT
/* Instruction boundaries with libcapstone (insns.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "objfile/capstone.h"
#include "objfile/insns.h"

/* Functions longer than this are decoded up to the offset only. */
#define ST_MAX_FUNC_BYTES (1U << 20)

struct decoder {
	const struct st_capstone *lib;
	csh cs;
	cs_insn *insn;
	uint8_t *buf;
	const uint8_t *code;
	size_t left;
	uint64_t at;
};

/*
 * A decoder over the bytes of [addr, addr + len) of e: 0; -ENOENT when
 * libcapstone cannot be loaded (why in err), -ENOMEM, or -EINVAL when
 * the bytes cannot be read. decoder_close() it either way.
 */
static int decoder_open(struct decoder *d, const struct st_elf *e, uint64_t addr, uint64_t len,
			char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	if (!len || len > ST_MAX_FUNC_BYTES)
		return -EINVAL;
	d->lib = st_capstone(err, errlen);
	if (!d->lib)
		return -ENOENT;
	d->buf = malloc(len);
	if (!d->buf)
		return -ENOMEM;
	if (!st_elf_read(e, addr, d->buf, len) ||
	    d->lib->open(CS_ARCH_X86, CS_MODE_64, &d->cs) != CS_ERR_OK) {
		free(d->buf);
		d->buf = NULL;
		return -EINVAL;
	}
	d->insn = d->lib->insn_alloc(d->cs);
	d->code = d->buf;
	d->left = len;
	d->at = addr;
	return d->insn ? 0 : -ENOMEM;
}

static bool decoder_next(struct decoder *d)
{
	return d->lib->disasm_iter(d->cs, &d->code, &d->left, &d->at, d->insn);
}

static void decoder_close(struct decoder *d)
{
	if (d->insn)
		d->lib->insn_free(d->insn, 1);
	if (d->buf)
		d->lib->close(&d->cs);
	free(d->buf);
}

int st_insn_boundary(const struct st_elf *e, uint64_t addr, uint64_t size, uint64_t offset,
		     char *err, size_t errlen)
{
	uint64_t prev = 0;
	struct decoder d;
	int ret;

	if (size && offset >= size) {
		snprintf(err, errlen, "+%" PRIu64 " is past the function's end (%" PRIu64 " bytes)",
			 offset, size);
		return -EINVAL;
	}
	/* The bytes up to the offset, and the longest instruction that may start there. */
	ret = decoder_open(&d, e, addr,
			   offset + 16 < ST_MAX_FUNC_BYTES ? offset + 16 : ST_MAX_FUNC_BYTES, err,
			   errlen);
	if (ret == -EINVAL)
		snprintf(err, errlen, "cannot read the function's instructions");
	if (!ret) {
		ret = -EINVAL;
		while (d.at <= addr + offset && decoder_next(&d)) {
			if (d.insn->address == addr + offset) {
				ret = 0;
				break;
			}
			prev = d.insn->address;
		}
		if (ret)
			snprintf(err, errlen,
				 "+%" PRIu64
				 " is not the start of an instruction (the one before starts at "
				 "+%" PRIu64 "): a breakpoint there would corrupt it",
				 offset, prev - addr);
	}
	decoder_close(&d);
	return ret;
}

int st_insn_rets(const struct st_elf *e, uint64_t addr, uint64_t size, uint64_t **rets, size_t *nr,
		 char *err, size_t errlen)
{
	struct decoder d;
	uint64_t *v;

	*rets = NULL;
	*nr = 0;
	err[0] = '\0';
	if (decoder_open(&d, e, addr, size, err, errlen)) {
		decoder_close(&d);
		if (!err[0])
			snprintf(err, errlen,
				 "cannot read the function's instructions to find its returns");
		return -EINVAL;
	}
	while (decoder_next(&d)) {
		if (d.insn->id != X86_INS_RET)
			continue;
		v = realloc(*rets, (*nr + 1) * sizeof(*v));
		if (!v) {
			decoder_close(&d);
			return -ENOMEM;
		}
		*rets = v;
		v[(*nr)++] = d.insn->address;
	}
	/* Decoding stopped early: bytes it could not read hide returns. */
	if (d.left) {
		snprintf(err, errlen,
			 "undecodable bytes at +%" PRIu64 ": its returns cannot all be found",
			 d.at - addr);
		free(*rets);
		*rets = NULL;
		*nr = 0;
		decoder_close(&d);
		return -EINVAL;
	}
	decoder_close(&d);
	if (!*nr)
		snprintf(err, errlen, "it has no return instruction");
	return *nr ? 0 : -ENOENT;
}

uint64_t st_insn_after_go_stack_check(const struct st_elf *e, uint64_t addr, uint64_t size)
{
	struct decoder d;
	uint64_t after = addr;
	bool compared = false;
	char why[256];
	int i;

	/* Undecodable, or no libcapstone: the entry itself (a restarted prologue counts twice). */
	if (decoder_open(&d, e, addr, size < 64 ? size : 64, why, sizeof(why))) {
		decoder_close(&d);
		return addr;
	}
	for (i = 0; i < 8 && decoder_next(&d); i++) {
		/* Go keeps the goroutine in %r14; its stack bound is at 16(%r14). */
		if (d.insn->id == X86_INS_CMP && strstr(d.insn->op_str, "[r14 + 0x10]")) {
			compared = true;
		} else if (compared && (d.insn->id == X86_INS_JBE || d.insn->id == X86_INS_JB)) {
			after = d.insn->address + d.insn->size;
			break;
		}
	}
	decoder_close(&d);
	return after;
}
