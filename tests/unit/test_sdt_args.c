// SPDX-License-Identifier: MIT
/*
 * SDT argument strings (objfile/sdt_args.c) come from the notes of any
 * ELF file `sidetrace list` is pointed at: the forms it reads, the forms
 * it refuses, and a bounded fuzz run from a seed corpus of real operand
 * strings (mutated bytes, cut and doubled strings) that must never crash
 * and must keep the parser's invariants.
 */
#include <asm/ptrace.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "objfile/sdt_args.h"

#include "unit.h"

static void test_forms(void)
{
	struct st_sdt_args a;
	char buf[64];

	st_sdt_args_parse("-4@%eax 8@$5 8@-16(%rbp) %r12", &a);
	ok(a.nr == 4 && !a.bad, "register, constant, memory and bare operands read");
	ok(a.spec[0].loc == ST_LOC_REG && a.spec[0].size == -4, "-4@%eax: signed 4-byte register");
	ok(a.spec[1].loc == ST_LOC_CONST && a.spec[1].val == 5, "8@$5: the constant 5");
	ok(a.spec[2].loc == ST_LOC_MEM && a.spec[2].val == -16, "8@-16(%rbp): memory at -16");
	ok(a.spec[3].loc == ST_LOC_REG && a.spec[3].size == 8, "a bare operand is 8 bytes");
	st_sdt_args_parse("4@$-202182160 -4@$4092785136 -2@$65535 1@$-1 -8@$-3", &a);
	ok(a.nr == 5 && a.spec[0].val == 4092785136, "4@$-202182160: unsigned, 4092785136");
	ok(a.spec[1].val == -202182160, "-4@$4092785136: signed, -202182160");
	ok(a.spec[2].val == -1 && a.spec[3].val == 255, "-2@$65535 is -1, 1@$-1 is 255");
	ok(a.spec[4].val == -3, "-8@$-3: -3");
	st_sdt_args_parse("8@8(%rax,%rdx,8) -4@(,%rcx,4) 1@(%rsi,%rdi) 8@(%rbx)", &a);
	ok(a.nr == 4 && !a.bad, "index forms read");
	ok(a.spec[0].loc == ST_LOC_MEM_INDEX && a.spec[0].val == 8 &&
		   a.spec[0].reg == offsetof(struct pt_regs, rax) / 8 &&
		   a.spec[0].idx_reg == offsetof(struct pt_regs, rdx) / 8 && a.spec[0].scale == 8,
	   "8@8(%rax,%rdx,8): base, index, scale, displacement");
	ok(a.spec[1].loc == ST_LOC_MEM_INDEX && a.spec[1].reg == ST_NO_REG &&
		   a.spec[1].scale == 4 && a.spec[1].size == -4,
	   "-4@(,%rcx,4): no base");
	ok(a.spec[2].loc == ST_LOC_MEM_INDEX && a.spec[2].scale == 1, "(%rsi,%rdi): scale 1");
	ok(a.spec[3].loc == ST_LOC_MEM && !a.spec[3].val, "8@(%rbx): memory at the register");
	st_sdt_args_parse("8@(%rax,%rdx,3) 8@%xyz 9@%rax 8@$x 8@%xmm0 8@(%rax", &a);
	ok(a.nr == 6 && a.bad == 0x3f,
	   "scale 3, unknown register, size 9, bad constant, vector register, no ')': refused");
	ok(strstr(st_sdt_arg_why("8@%xmm1"), "vector register") != NULL,
	   "a vector register: the reason says a BPF program cannot read it");
	st_sdt_args_parse("  ", &a);
	ok(a.nr == 0 && !a.bad, "blanks only: no operand");
	st_sdt_args_parse(NULL, &a);
	ok(a.nr == 0, "no string: no operand");
	st_sdt_args_parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14", &a);
	ok(a.nr == 14, "operands beyond ST_MAX_SDT_ARGS are counted");
	st_sdt_arg_text("8@%rax  -4@%ebx ", 1, buf, sizeof(buf));
	ok_str("operand 1 as written", buf, "-4@%ebx");
	st_sdt_arg_text("8@%rax", 3, buf, sizeof(buf));
	ok_str("an absent operand is empty", buf, "");
}

/* Counts space-separated operands the slow way. */
static uint32_t count_operands(const char *s)
{
	uint32_t n = 0;
	int in = 0;

	for (; *s; s++) {
		if (*s == ' ')
			in = 0;
		else if (!in++)
			n++;
	}
	return n;
}

static void test_fuzz(void)
{
	static const char *const seeds[] = {
		"-4@%eax 8@%rbx 8@-16(%rbp) 8@$5",
		"8@%rax 8@%rbx 8@%rcx 8@%rdx 8@%rsi 8@%rdi 8@%r8 8@%r9 8@%r10 8@%r11 8@%r12",
		"8@(%rax,%rdx,8) -1@%al 2@%si 8@0x10(%r15) 8@$-9223372036854775808",
		"8@$99999999999999999999 8@(%rip) 8@-0(%rsp)",
	};
	const unsigned int rounds = 200000;
	unsigned int i, bad_inv = 0;
	char s[160];

	srand(7);
	for (i = 0; i < rounds; i++) {
		const char *seed = seeds[i % (sizeof(seeds) / sizeof(seeds[0]))];
		size_t len = strlen(seed), k, flips = 1 + rand() % 4;
		struct st_sdt_args a;
		uint32_t limit;

		/* Mutate: cut, double, and flip bytes (never NUL inside). */
		len = rand() % 3 ? len : (size_t)rand() % (len + 1);
		memcpy(s, seed, len);
		if (rand() % 5 == 0 && 2 * len < sizeof(s)) {
			memcpy(s + len, s, len);
			len *= 2;
		}
		s[len] = '\0';
		for (k = 0; k < flips && len; k++)
			s[rand() % len] = 1 + rand() % 255;
		st_sdt_args_parse(s, &a);
		limit = a.nr < ST_MAX_SDT_ARGS ? a.nr : ST_MAX_SDT_ARGS;
		bad_inv += a.nr != count_operands(s);
		bad_inv += limit < 32 && (a.bad >> limit) != 0;
		for (k = 0; k < limit; k++)
			bad_inv += !(a.bad & (1U << k)) &&
				   (a.spec[k].size < -8 || a.spec[k].size > 8 || !a.spec[k].size ||
				    a.spec[k].loc == ST_LOC_NONE ||
				    (a.spec[k].loc != ST_LOC_CONST &&
				     a.spec[k].reg >= sizeof(struct pt_regs) / 8 &&
				     !(a.spec[k].loc == ST_LOC_MEM_INDEX &&
				       a.spec[k].reg == ST_NO_REG)) ||
				    (a.spec[k].loc == ST_LOC_MEM_INDEX &&
				     (a.spec[k].idx_reg >= sizeof(struct pt_regs) / 8 ||
				      (a.spec[k].scale != 1 && a.spec[k].scale != 2 &&
				       a.spec[k].scale != 4 && a.spec[k].scale != 8))));
	}
	ok(!bad_inv,
	   "fuzz: 200,000 mutated strings, no crash, operands counted, "
	   "every accepted operand has a size of 1 to 8 bytes, registers of pt_regs and a "
	   "scale of 1, 2, 4 or 8");
}

int main(void)
{
	test_forms();
	test_fuzz();
	return unit_summary();
}
