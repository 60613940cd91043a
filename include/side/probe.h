/* SPDX-License-Identifier: MIT */
/*
 * The probe site emitted at every side_event() call: a USDT (SystemTap SDT)
 * note plus one probe instruction, so that any USDT tool can attach.
 *
 * SDT arguments: the first k = min(fields, SIDE_SDT_MAX_VALUES) top-level
 * fields as 8-byte values, then the event description pointer, then the
 * argument vector pointer, then (variadic events only) the dynamic field
 * struct pointer. libbpf reads at most 12 arguments, hence one value fewer
 * for variadic events.
 */
#ifndef SIDE_PROBE_H
#define SIDE_PROBE_H

#include <stdint.h>
#include <side/macros.h>
#include <side/abi/type-argument.h>

#define SIDE_SDT_MAX_VALUES 10
#define SIDE_SDT_MAX_VALUES_VARIADIC 9

/*
 * The probe instruction, chosen in this one place. A 5-byte nop lets kernels
 * that optimize uprobes (6.18 here) replace the trap by a call; that call
 * writes below %rsp, which is safe only outside a leaf function's red zone.
 * The enabled branch of every side_event() calls side_call(), so a function
 * holding a probe site is never a leaf. The bytes are explicit because the
 * assembler shrinks "nopl 0x0(%rax,%rax,1)" to a single-stepped 4-byte nop.
 */
#define SIDE_PROBE_INSN ".byte 0x0f, 0x1f, 0x44, 0x00, 0x00"

/*
 * The value of a top-level field as seen by plain USDT tools: integers
 * widened with their sign, bool as 0/1, floats truncated to integers,
 * strings and compound types as the pointer they carry.
 */
static inline __attribute__((always_inline)) int64_t side_sdt_value(const struct side_arg *sav,
								    uint32_t nr, uint32_t i)
{
	const union side_arg_static *v;

	if (i >= nr)
		return 0;
	v = &sav[i].u.side_static;
	switch (sav[i].type.v) {
	case SIDE_TYPE_BOOL:
		return v->bool_value.side_bool64 != 0;
	case SIDE_TYPE_BYTE:
		return v->byte_value;
	case SIDE_TYPE_U8:
		return v->integer_value.side_u8;
	case SIDE_TYPE_U16:
		return v->integer_value.side_u16;
	case SIDE_TYPE_U32:
		return v->integer_value.side_u32;
	case SIDE_TYPE_S8:
		return v->integer_value.side_s8;
	case SIDE_TYPE_S16:
		return v->integer_value.side_s16;
	case SIDE_TYPE_S32:
		return v->integer_value.side_s32;
	case SIDE_TYPE_U64:
	case SIDE_TYPE_S64:
	case SIDE_TYPE_U128:
	case SIDE_TYPE_S128:
	case SIDE_TYPE_POINTER:
		return v->integer_value.side_s64;
	case SIDE_TYPE_FLOAT_BINARY32:
		return (int64_t)v->float_value.side_float_binary32;
	case SIDE_TYPE_FLOAT_BINARY64:
		return (int64_t)v->float_value.side_float_binary64;
	case SIDE_TYPE_DYNAMIC_NULL ... SIDE_TYPE_DYNAMIC_VLA_VISITOR:
		return (int64_t)(uintptr_t)&sav[i];
	default:
		/* Strings, compound and gather types all carry a pointer first. */
		return (int64_t)(uintptr_t)side_ptr_get(v->string_value);
	}
}

/* Assembler templates: one directive or operand a line. */
/* clang-format off */
#define _SIDE_SDT_ARG(i) \
	".if %c[nr] > " #i "\n\t.ascii \"-8@%[a" #i "] \"\n\t.endif\n\t"

#define _SIDE_SDT_VALUE_OPERANDS(sav, nr) \
	[a0] "nr"(side_sdt_value(sav, nr, 0)), \
	[a1] "nr"(side_sdt_value(sav, nr, 1)), \
	[a2] "nr"(side_sdt_value(sav, nr, 2)), \
	[a3] "nr"(side_sdt_value(sav, nr, 3)), \
	[a4] "nr"(side_sdt_value(sav, nr, 4)), \
	[a5] "nr"(side_sdt_value(sav, nr, 5)), \
	[a6] "nr"(side_sdt_value(sav, nr, 6)), \
	[a7] "nr"(side_sdt_value(sav, nr, 7)), \
	[a8] "nr"(side_sdt_value(sav, nr, 8))

/*
 * One probe site. The provider and event strings come from the assembler
 * macro that the event definition emitted (side_sdt_names__<identifier>),
 * so a call site needs its event defined in the same translation unit.
 */
#define _side_sdt_probe(_identifier, _sema, _sav, _nr, _desc, _vec, _tail, ...) \
	__asm__ __volatile__( \
		"990:\t" SIDE_PROBE_INSN "\n" \
		"\t.pushsection .note.stapsdt,\"?\",\"note\"\n" \
		"\t.balign 4\n" \
		"\t.4byte 992f-991f, 994f-993f, 3\n" \
		"991:\t.asciz \"stapsdt\"\n" \
		"992:\t.balign 4\n" \
		"993:\t.8byte 990b\n" \
		"\t.8byte _.stapsdt.base\n" \
		"\t.8byte %c[sema]\n" \
		"\tside_sdt_names__" #_identifier "\n\t" \
		_SIDE_SDT_ARG(0) _SIDE_SDT_ARG(1) _SIDE_SDT_ARG(2) \
		_SIDE_SDT_ARG(3) _SIDE_SDT_ARG(4) _SIDE_SDT_ARG(5) \
		_SIDE_SDT_ARG(6) _SIDE_SDT_ARG(7) _SIDE_SDT_ARG(8) \
		_tail \
		"994:\t.balign 4\n" \
		"\t.popsection\n" \
		"\t.ifndef _.stapsdt.base\n" \
		"\t.pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n" \
		"\t.weak _.stapsdt.base\n" \
		"\t.hidden _.stapsdt.base\n" \
		"_.stapsdt.base:\n" \
		"\t.space 1\n" \
		"\t.size _.stapsdt.base, 1\n" \
		"\t.popsection\n" \
		"\t.endif\n" \
		: \
		: [sema] "i"(_sema), [nr] "n"(_nr), \
		  _SIDE_SDT_VALUE_OPERANDS(_sav, _nr), \
		  [desc] "r"(_desc), [vec] "r"(_vec), ##__VA_ARGS__)

#define _side_sdt_nr(_sav, _max) \
	(SIDE_ARRAY_SIZE(_sav) < (_max) ? SIDE_ARRAY_SIZE(_sav) : (_max))

#define side_sdt_probe(_identifier, _sema, _sav, _desc, _vec) \
	_side_sdt_probe(_identifier, _sema, _sav, \
		_side_sdt_nr(_sav, SIDE_SDT_MAX_VALUES), _desc, _vec, \
		".if %c[nr] > 9\n\t.ascii \"-8@%[a9] \"\n\t.endif\n\t" \
		".asciz \"8@%[desc] 8@%[vec]\"\n", \
		[a9] "nr"(side_sdt_value(_sav, _side_sdt_nr(_sav, SIDE_SDT_MAX_VALUES), 9)))

#define side_sdt_probe_variadic(_identifier, _sema, _sav, _desc, _vec, _var) \
	_side_sdt_probe(_identifier, _sema, _sav, \
		_side_sdt_nr(_sav, SIDE_SDT_MAX_VALUES_VARIADIC), _desc, _vec, \
		".asciz \"8@%[desc] 8@%[vec] 8@%[var]\"\n", \
		[var] "r"(_var))

/*
 * Emitted once per event definition: the assembler macro that writes the
 * provider and event strings into each of the event's notes.
 *
 * USDT names are [A-Za-z0-9_]: the GNU assembler rewrites every other
 * character to '_' while it copies the name (.irpc walks its characters).
 * LLVM's integrated assembler cannot walk punctuation that way, so clang
 * builds keep the names verbatim; sidetrace matches both spellings.
 */
#ifdef __clang__
#define _side_sdt_define_names(_identifier, _provider, _event) \
	__asm__(".macro side_sdt_names__" #_identifier "\n" \
		"\t.asciz \"" _provider "\"\n" \
		"\t.asciz \"" _event "\"\n" \
		".endm\n")
#else
#define _side_sdt_define_names(_identifier, _provider, _event) \
	__asm__(".ifndef .Lside_sdt_sanitize_defined\n" \
		".set .Lside_sdt_sanitize_defined, 1\n" \
		".macro side_sdt_sanitize name:vararg\n" \
		".irpc c,\\name\n" \
		".set .Lside_sdt_ok, 0\n" \
		".irpc a,ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_\n" \
		".ifc \"\\c\",\"\\a\"\n" \
		".set .Lside_sdt_ok, 1\n" \
		".endif\n" \
		".endr\n" \
		".if .Lside_sdt_ok\n" \
		".ascii \"\\c\"\n" \
		".else\n" \
		".ascii \"_\"\n" \
		".endif\n" \
		".endr\n" \
		".byte 0\n" \
		".endm\n" \
		".endif\n" \
		".macro side_sdt_names__" #_identifier "\n" \
		"\tside_sdt_sanitize " _provider "\n" \
		"\tside_sdt_sanitize " _event "\n" \
		".endm\n")
#endif
/* clang-format on */

#endif /* SIDE_PROBE_H */
