// SPDX-License-Identifier: MIT
/*
 * Parsing of x86-64 SDT argument strings (sdt_args.h). Operands are
 * separated by spaces; each is "[-]SIZE@OPERAND" (or a bare operand, 8
 * bytes) with OPERAND %reg, $constant or [displacement](%base[,%index[,scale]]).
 */
#include <asm/ptrace.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "objfile/sdt_args.h"

/* x86-64 registers by SDT operand name, as words of struct pt_regs. */
static const struct {
	const char *names[4]; /* 64, 32, 16 and 8-bit names */
	size_t off;
} regs[] = {
	{{"rax", "eax", "ax", "al"}, offsetof(struct pt_regs, rax)},
	{{"rbx", "ebx", "bx", "bl"}, offsetof(struct pt_regs, rbx)},
	{{"rcx", "ecx", "cx", "cl"}, offsetof(struct pt_regs, rcx)},
	{{"rdx", "edx", "dx", "dl"}, offsetof(struct pt_regs, rdx)},
	{{"rsi", "esi", "si", "sil"}, offsetof(struct pt_regs, rsi)},
	{{"rdi", "edi", "di", "dil"}, offsetof(struct pt_regs, rdi)},
	{{"rbp", "ebp", "bp", "bpl"}, offsetof(struct pt_regs, rbp)},
	{{"rsp", "esp", "sp", "spl"}, offsetof(struct pt_regs, rsp)},
	{{"rip", "eip", NULL, NULL}, offsetof(struct pt_regs, rip)},
	{{"r8", "r8d", "r8w", "r8b"}, offsetof(struct pt_regs, r8)},
	{{"r9", "r9d", "r9w", "r9b"}, offsetof(struct pt_regs, r9)},
	{{"r10", "r10d", "r10w", "r10b"}, offsetof(struct pt_regs, r10)},
	{{"r11", "r11d", "r11w", "r11b"}, offsetof(struct pt_regs, r11)},
	{{"r12", "r12d", "r12w", "r12b"}, offsetof(struct pt_regs, r12)},
	{{"r13", "r13d", "r13w", "r13b"}, offsetof(struct pt_regs, r13)},
	{{"r14", "r14d", "r14w", "r14b"}, offsetof(struct pt_regs, r14)},
	{{"r15", "r15d", "r15w", "r15b"}, offsetof(struct pt_regs, r15)},
};

/* bpftrace's names of the words of struct pt_regs, in their order. */
static const struct {
	const char *name;
	size_t off;
} pt_regs[] = {
	{"r15", offsetof(struct pt_regs, r15)},
	{"r14", offsetof(struct pt_regs, r14)},
	{"r13", offsetof(struct pt_regs, r13)},
	{"r12", offsetof(struct pt_regs, r12)},
	{"bp", offsetof(struct pt_regs, rbp)},
	{"bx", offsetof(struct pt_regs, rbx)},
	{"r11", offsetof(struct pt_regs, r11)},
	{"r10", offsetof(struct pt_regs, r10)},
	{"r9", offsetof(struct pt_regs, r9)},
	{"r8", offsetof(struct pt_regs, r8)},
	{"ax", offsetof(struct pt_regs, rax)},
	{"cx", offsetof(struct pt_regs, rcx)},
	{"dx", offsetof(struct pt_regs, rdx)},
	{"si", offsetof(struct pt_regs, rsi)},
	{"di", offsetof(struct pt_regs, rdi)},
	{"orig_ax", offsetof(struct pt_regs, orig_rax)},
	{"ip", offsetof(struct pt_regs, rip)},
	{"cs", offsetof(struct pt_regs, cs)},
	{"flags", offsetof(struct pt_regs, eflags)},
	{"sp", offsetof(struct pt_regs, rsp)},
	{"ss", offsetof(struct pt_regs, ss)},
};

int st_pt_regs_word(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(pt_regs) / sizeof(pt_regs[0]); i++)
		if (!strcmp(pt_regs[i].name, name))
			return pt_regs[i].off / 8;
	return -1;
}

const char *st_pt_regs_names(void)
{
	static char names[160];
	size_t i, off = 0;

	if (names[0])
		return names;
	for (i = 0; i < sizeof(pt_regs) / sizeof(pt_regs[0]); i++)
		off += snprintf(names + off, sizeof(names) - off, "%s%s", i ? ", " : "",
				pt_regs[i].name);
	return names;
}

const char *const st_abi_args[ST_NR_ABI_ARGS] = {"%rdi", "%rsi", "%rdx", "%rcx", "%r8", "%r9"};

int st_sdt_reg_word(const char *name, size_t len)
{
	size_t i, k;

	if (len < 2 || name[0] != '%')
		return -1;
	for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		for (k = 0; k < 4; k++)
			if (regs[i].names[k] && strlen(regs[i].names[k]) == len - 1 &&
			    !strncmp(regs[i].names[k], name + 1, len - 1))
				return regs[i].off / 8;
	return -1;
}

/*
 * The memory operand "(%base)", "(%base,%index[,scale])" or
 * "(,%index[,scale])" at paren (its displacement already read): spec's
 * registers and scale.
 */
static int parse_mem(char *paren, struct st_arg_spec *spec)
{
	char *inner = paren + 1, *close = inner + strlen(inner) - 1, *comma, *end;
	int base = ST_NO_REG, idx;
	long scale = 1;

	if (*close != ')')
		return -EINVAL;
	*close = '\0';
	comma = strchr(inner, ',');
	if (!comma) {
		base = st_sdt_reg_word(inner, strlen(inner));
		if (base < 0)
			return -EINVAL;
		spec->loc = ST_LOC_MEM;
		spec->reg = base;
		return 0;
	}
	if (comma != inner) {
		base = st_sdt_reg_word(inner, comma - inner);
		if (base < 0)
			return -EINVAL;
	}
	inner = comma + 1;
	comma = strchr(inner, ',');
	idx = st_sdt_reg_word(inner, comma ? (size_t)(comma - inner) : strlen(inner));
	if (idx < 0)
		return -EINVAL;
	if (comma) {
		scale = strtol(comma + 1, &end, 10);
		if (*end || (scale != 1 && scale != 2 && scale != 4 && scale != 8))
			return -EINVAL;
	}
	spec->loc = ST_LOC_MEM_INDEX;
	spec->reg = base;
	spec->idx_reg = idx;
	spec->scale = scale;
	return 0;
}

/*
 * A constant is its SIZE bytes, as a register's value is: the assembler
 * writes "4@$-202182160" for the unsigned 4092785136, which bpftrace reads.
 */
static int64_t sized(int64_t v, long size)
{
	unsigned int shift = 64 - 8 * (size < 0 ? -size : size);

	if (!shift)
		return v;
	return size < 0 ? (int64_t)((uint64_t)v << shift) >> shift
			: (int64_t)((uint64_t)v << shift >> shift);
}

/*
 * Parses one SDT argument of x86-64 notes, "[-]SIZE@OPERAND" with OPERAND
 * %reg, $constant or [displacement](memory operand), the index forms
 * included, which libbpf 1.1 refuses. Vector registers (%xmm0) are
 * refused: a BPF program cannot read them (st_sdt_arg_why() says so).
 * "%rip" is refused too: the note's text does not say which instruction's
 * address it means.
 */
static int parse_arg(const char *arg, size_t len, struct st_arg_spec *spec)
{
	char buf[64], *at, *end, *paren;
	long size = 8;
	int reg;

	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, arg, len);
	buf[len] = '\0';
	memset(spec, 0, sizeof(*spec));
	at = strchr(buf, '@');
	if (at) {
		size = strtol(buf, &end, 10);
		if (end != at || !size || size < -8 || size > 8)
			return -EINVAL;
		at++;
	} else {
		at = buf;
	}
	spec->size = size;
	if (at[0] == '$') {
		spec->loc = ST_LOC_CONST;
		errno = 0;
		spec->val = sized(strtoll(at + 1, &end, 0), size);
		return errno || *end || end == at + 1 ? -EINVAL : 0;
	}
	if (at[0] == '%') {
		reg = st_sdt_reg_word(at, strlen(at));
		if (reg < 0)
			return -EINVAL;
		spec->loc = ST_LOC_REG;
		spec->reg = reg;
		return 0;
	}
	paren = strchr(at, '(');
	if (!paren)
		return -EINVAL;
	if (paren != at) {
		errno = 0;
		spec->val = strtoll(at, &end, 0);
		if (errno || end != paren)
			return -EINVAL;
	}
	return parse_mem(paren, spec);
}

void st_sdt_args_parse(const char *args, struct st_sdt_args *out)
{
	const char *a = args ? args : "";
	size_t len;

	memset(out, 0, sizeof(*out));
	while (*a) {
		if (*a == ' ') {
			a++;
			continue;
		}
		len = strcspn(a, " ");
		if (out->nr < ST_MAX_SDT_ARGS && parse_arg(a, len, &out->spec[out->nr]))
			out->bad |= 1U << out->nr;
		out->nr++;
		a += len;
	}
}

void st_sdt_arg_text(const char *args, uint32_t i, char *buf, size_t len)
{
	const char *a = args ? args : "";
	size_t n;

	buf[0] = '\0';
	for (;;) {
		a += strspn(a, " ");
		if (!*a)
			return;
		n = strcspn(a, " ");
		if (!i--) {
			if (n < len)
				snprintf(buf, len, "%.*s", (int)n, a);
			return;
		}
		a += n;
	}
}

const char *st_sdt_arg_why(const char *operand)
{
	if (strstr(operand, "%xmm") || strstr(operand, "%ymm") || strstr(operand, "%zmm"))
		return "a floating-point or vector value in a vector register, which a BPF "
		       "program cannot read";
	if (strstr(operand, "%st"))
		return "a value in an x87 register, which a BPF program cannot read";
	if (strstr(operand, "(%rip)") || strchr(operand, ':'))
		return "a symbol-relative or segment operand, which sidetrace does not resolve";
	return "an operand form sidetrace does not know";
}
