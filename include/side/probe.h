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
#include <side/static-check.h>

#define SIDE_SDT_MAX_VALUES 10
#define SIDE_SDT_MAX_VALUES_VARIADIC 9

/*
 * The probe instruction, chosen in this one place. A 5-byte nop lets kernels
 * that optimize uprobes (6.18 here) replace the trap by a call; that call
 * writes below %rsp, which the site's asm has moved below the red zone
 * (_SIDE_SDT_LOAD). The bytes are explicit because the assembler shrinks
 * "nopl 0x0(%rax,%rax,1)" to a single-stepped 4-byte nop. In a forked
 * child the runtime gives an optimized site back the kernel's breakpoint
 * (userspace/lib/sites.c says why). A build may choose another probe
 * instruction, such as the classic 1-byte nop that no kernel optimizes
 * (-DSIDE_PROBE_INSN_BYTES=0x90); docs/PERFORMANCE.md compares them.
 */
/* nopl 0x0(%rax,%rax,1): the only instruction a kernel optimizes a uprobe on. */
#define SIDE_X86_NOP5_BYTES 0x0f, 0x1f, 0x44, 0x00, 0x00
#ifndef SIDE_PROBE_INSN_BYTES
#define SIDE_PROBE_INSN_BYTES SIDE_X86_NOP5_BYTES
#endif
#define _SIDE_PROBE_STR(...) #__VA_ARGS__
#define _SIDE_PROBE_XSTR(...) _SIDE_PROBE_STR(__VA_ARGS__)
#define SIDE_PROBE_INSN ".byte " _SIDE_PROBE_XSTR(SIDE_PROBE_INSN_BYTES)

/*
 * After the probe instruction comes the site's fallback, a 5-byte nop
 * that only an in-process session's kernel side probes (an address no
 * other tracer uses, which a kernel that optimizes uprobes turns into a
 * call as it does the probe instruction). It runs with every register as
 * at the probe, but %ebp, which the site zeroes between them (not before
 * the probe: a frame-pointer walk of the user stack starts from %rbp
 * there; a probe that takes stacks is never served at the fallback): a
 * process whose
 * engine serves the event itself disarms the fallback by writing
 * SIDE_PROBE_FALLBACK_DISARMED over its first byte, "mov $imm32, %ebp"
 * with the 4 bytes that follow, whatever they are (never 0: the nop's, or
 * the displacement of the kernel's call). After it, "test %ebp, %ebp"
 * tells the site which way the event went: trapped, or the nop run as it
 * is (%ebp 0: the kernel's, if anyone's), or disarmed (not 0: the
 * engine's). One instruction fetch decides, so no event is counted by
 * both, nor lost between them (userspace/lib/sites.c, inproc/engine.c).
 * The site then passes that to side_call_from_site().
 *
 * side_probe_fallback_delta(): the fallback's distance from the site, from
 * the first SIDE_PROBE_FALLBACK_SCAN bytes of the site as the file has
 * them or as a process does (a breakpoint or a kernel's call over either
 * nop, the fallback disarmed); 0: not a site of this layout. It finds the
 * bytes around the fallback, "xor %ebp, %ebp" before it and "test %ebp,
 * %ebp; pop %rbp; pop %r14" after it.
 */
#define SIDE_PROBE_FALLBACK_INSN ".byte " _SIDE_PROBE_XSTR(SIDE_X86_NOP5_BYTES)
#define SIDE_PROBE_FALLBACK_LEN 5
#define SIDE_PROBE_FALLBACK_DISARMED 0xbd /* mov $imm32, %ebp */
#define SIDE_PROBE_FALLBACK_SCAN 17
/* Whether a fallback starts at b + 2, b being a probe instruction's end. */
static inline int side_probe_fallback_at(const uint8_t *b)
{
	const uint8_t *after = b + 2 + SIDE_PROBE_FALLBACK_LEN;

	return b[0] == 0x31 && b[1] == 0xed && after[0] == 0x85 && after[1] == 0xed &&
	       after[2] == 0x5d && after[3] == 0x41 && after[4] == 0x5e;
}
static inline uint32_t side_probe_fallback_delta(const uint8_t *b)
{
	if (side_probe_fallback_at(b + 1))
		return 1 + 2;
	if (side_probe_fallback_at(b + 5))
		return 5 + 2;
	return 0;
}

/*
 * Every site also leaves a record in the side_probe_sites section of its
 * object, which the object registers with the runtime (side/trace.h): where
 * its probe instruction is and where its event's enable word is, each
 * relative to the record's field, so the section needs no relocation. The
 * record joins the comdat group of the site's function ("?"), so an inline
 * function's copy that the linker drops takes its record along.
 */
struct side_probe_site {
	int32_t insn;
	int32_t enabled;
};

#define _SIDE_PROBE_SITE_RECORD \
	"\t.pushsection side_probe_sites,\"a?\",@progbits\n" \
	"\t.balign 4\n" \
	"996:\t.4byte 990b - 996b\n" \
	"\t.4byte %c[sema] - (996b + 4)\n" \
	"\t.popsection\n"

/*
 * The value of a top-level field as seen by plain USDT tools: integers
 * widened with their sign, bool as 0/1, floats truncated to integers,
 * strings and compound types as the pointer they carry. The type comes
 * from sav (the compiler folds the switch), the value from mem: the same
 * array, read back from memory (_SIDE_SDT_ARGV says why).
 */
static inline __attribute__((always_inline)) int64_t
side_sdt_value(const struct side_arg *sav, const struct side_arg *mem, uint32_t nr, uint32_t i)
{
	const union side_arg_static *v;

	if (i >= nr)
		return 0;
	v = &mem[i].u.side_static;
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
		return (int64_t)(uintptr_t)&mem[i];
	default:
		/* Strings, compound and gather types all carry a pointer first. */
		return (int64_t)(uintptr_t)side_ptr_get(v->string_value);
	}
}

/*
 * Every site of an event writes the same note but for its address: the
 * provider and event names and the SDT argument string come from the
 * event's definition, which may be in another file, through 32 absolute
 * symbols that the definition sets (side_sdt_define_names() below). Each
 * holds 8 bytes of "provider\0event\0arguments", padded with blanks that
 * SDT readers skip at the end of the arguments (libbpf, bcc, gdb); the
 * linker copies their values into the note. A site therefore names its
 * event exactly as the definition does, from whichever file it is in, and
 * stock bpftrace lists one probe per event.
 *
 * The argument string can be the definition's only if every site puts the
 * values in the same registers: the i-th value in _SIDE_SDT_REG_i (the
 * caller-saved ones first), the description, the argument vector and the
 * dynamic fields of a variadic event in theirs. Only the registers of the
 * arguments a call passes are loaded (_SIDE_SDT_LOAD below).
 *
 * The symbol names also carry the number of arguments, so that a call in
 * another file that passes a number of arguments other than the number of
 * fields fails to link, naming the event and the count:
 * "undefined reference to `side_event_<identifier>_takes_<n>_arguments_0'".
 */
#define SIDE_SDT_TAIL_SIZE 256
#define _SIDE_SDT_REG_0 "rax"
#define _SIDE_SDT_REG_1 "rcx"
#define _SIDE_SDT_REG_2 "rdx"
#define _SIDE_SDT_REG_3 "r8"
#define _SIDE_SDT_REG_4 "r9"
#define _SIDE_SDT_REG_5 "r10"
#define _SIDE_SDT_REG_6 "r11"
#define _SIDE_SDT_REG_7 "rbx"
#define _SIDE_SDT_REG_8 "r12"
#define _SIDE_SDT_REG_9 "r13"
/* The description, the argument vector, a variadic call's dynamic fields. */
#define _SIDE_SDT_REG_DESC "rdi"
#define _SIDE_SDT_REG_VEC "rsi"
#define _SIDE_SDT_REG_VAR "rdx"
/* Variadic events: _SIDE_SDT_REG_VAR carries the dynamic fields. */
#define _SIDE_SDT_VREG_0 "rax"
#define _SIDE_SDT_VREG_1 "rcx"
#define _SIDE_SDT_VREG_2 "r8"
#define _SIDE_SDT_VREG_3 "r9"
#define _SIDE_SDT_VREG_4 "r10"
#define _SIDE_SDT_VREG_5 "r11"
#define _SIDE_SDT_VREG_6 "rbx"
#define _SIDE_SDT_VREG_7 "r12"
#define _SIDE_SDT_VREG_8 "r13"

/* clang-format off */
/* The argument strings, by 1 + number of values (side/pp.h counts that way). */
#define _SIDE_SDT_V(_i) "-8@%" _SIDE_SDT_REG_##_i " "
#define _SIDE_SDT_ARGS_1 ""
#define _SIDE_SDT_ARGS_2 _SIDE_SDT_ARGS_1 _SIDE_SDT_V(0)
#define _SIDE_SDT_ARGS_3 _SIDE_SDT_ARGS_2 _SIDE_SDT_V(1)
#define _SIDE_SDT_ARGS_4 _SIDE_SDT_ARGS_3 _SIDE_SDT_V(2)
#define _SIDE_SDT_ARGS_5 _SIDE_SDT_ARGS_4 _SIDE_SDT_V(3)
#define _SIDE_SDT_ARGS_6 _SIDE_SDT_ARGS_5 _SIDE_SDT_V(4)
#define _SIDE_SDT_ARGS_7 _SIDE_SDT_ARGS_6 _SIDE_SDT_V(5)
#define _SIDE_SDT_ARGS_8 _SIDE_SDT_ARGS_7 _SIDE_SDT_V(6)
#define _SIDE_SDT_ARGS_9 _SIDE_SDT_ARGS_8 _SIDE_SDT_V(7)
#define _SIDE_SDT_ARGS_10 _SIDE_SDT_ARGS_9 _SIDE_SDT_V(8)
#define _SIDE_SDT_ARGS_11 _SIDE_SDT_ARGS_10 _SIDE_SDT_V(9)
#define _SIDE_SDT_VV(_i) "-8@%" _SIDE_SDT_VREG_##_i " "
#define _SIDE_SDT_VARGS_1 ""
#define _SIDE_SDT_VARGS_2 _SIDE_SDT_VARGS_1 _SIDE_SDT_VV(0)
#define _SIDE_SDT_VARGS_3 _SIDE_SDT_VARGS_2 _SIDE_SDT_VV(1)
#define _SIDE_SDT_VARGS_4 _SIDE_SDT_VARGS_3 _SIDE_SDT_VV(2)
#define _SIDE_SDT_VARGS_5 _SIDE_SDT_VARGS_4 _SIDE_SDT_VV(3)
#define _SIDE_SDT_VARGS_6 _SIDE_SDT_VARGS_5 _SIDE_SDT_VV(4)
#define _SIDE_SDT_VARGS_7 _SIDE_SDT_VARGS_6 _SIDE_SDT_VV(5)
#define _SIDE_SDT_VARGS_8 _SIDE_SDT_VARGS_7 _SIDE_SDT_VV(6)
#define _SIDE_SDT_VARGS_9 _SIDE_SDT_VARGS_8 _SIDE_SDT_VV(7)
#define _SIDE_SDT_VARGS_10 _SIDE_SDT_VARGS_9 _SIDE_SDT_VV(8)
#define _SIDE_SDT_VARGS_11 _SIDE_SDT_VARGS_10
#define _SIDE_SDT_ARGS_VARIADIC_0(_n) \
	SIDE_PP_CAT(_SIDE_SDT_ARGS_, _n) "8@%" _SIDE_SDT_REG_DESC " 8@%" _SIDE_SDT_REG_VEC
#define _SIDE_SDT_ARGS_VARIADIC_1(_n) \
	SIDE_PP_CAT(_SIDE_SDT_VARGS_, _n) "8@%" _SIDE_SDT_REG_DESC " 8@%" _SIDE_SDT_REG_VEC \
	" 8@%" _SIDE_SDT_REG_VAR
/* _n1: 1 + number of fields, clamped to 11 */
#define _SIDE_SDT_ARGS(_variadic, _n1) _SIDE_SDT_ARGS_VARIADIC_##_variadic(_n1)

#define _SIDE_SDT_VARIADIC_0 ""
#define _SIDE_SDT_VARIADIC_1 "_and_variadic_fields"
#define _SIDE_SDT_SYM(_identifier, _nr_op, _variadic, _k) \
	"side_event_" #_identifier "_takes_%c[" #_nr_op "]_arguments" _SIDE_SDT_VARIADIC_##_variadic \
	"_" #_k
#define _SIDE_SDT_WORDS4(_identifier, _variadic, _k0, _k1, _k2, _k3) \
	"\t.8byte " _SIDE_SDT_SYM(_identifier, nargs, _variadic, _k0) \
	", " _SIDE_SDT_SYM(_identifier, nargs, _variadic, _k1) \
	", " _SIDE_SDT_SYM(_identifier, nargs, _variadic, _k2) \
	", " _SIDE_SDT_SYM(_identifier, nargs, _variadic, _k3) "\n"
#define _SIDE_SDT_TAIL_WORDS(_identifier, _variadic) \
	_SIDE_SDT_WORDS4(_identifier, _variadic, 0, 1, 2, 3) \
	_SIDE_SDT_WORDS4(_identifier, _variadic, 4, 5, 6, 7) \
	_SIDE_SDT_WORDS4(_identifier, _variadic, 8, 9, 10, 11) \
	_SIDE_SDT_WORDS4(_identifier, _variadic, 12, 13, 14, 15) \
	_SIDE_SDT_WORDS4(_identifier, _variadic, 16, 17, 18, 19) \
	_SIDE_SDT_WORDS4(_identifier, _variadic, 20, 21, 22, 23) \
	_SIDE_SDT_WORDS4(_identifier, _variadic, 24, 25, 26, 27) \
	_SIDE_SDT_WORDS4(_identifier, _variadic, 28, 29, 30, 31)

/*
 * Puts the probe's arguments in their registers: the description, the
 * argument vector (and the dynamic fields), then the first k = _n1 - 1
 * values. They are computed into an array on the stack of the enabled
 * branch (side_sdt_argv) and the asm loads them: it saves every register
 * it writes, loads them through %r14 (saved too), fires the probe and
 * restores them, stepping over the red zone first. Binding the arguments
 * to their registers as variables instead keeps up to thirteen registers
 * busy at once, callee-saved ones included, and the enclosing function
 * then saves registers in its prologue, on the disabled path too.
 *
 * _SIDE_SDT_SAVE_<variadic>_<k> pushes the k value registers,
 * _SIDE_SDT_LOADV_<variadic>_<k> loads them, _SIDE_SDT_POP_<variadic>_<k>
 * restores them; the pointers come first in the array (2 or 3 words).
 */
#define _SIDE_SDT_VAL(_sav, _i) , side_sdt_value(_sav, side_sdt_mem, SIDE_ARRAY_SIZE(_sav), _i)
#define _SIDE_SDT_PTR(_p) (int64_t)(uintptr_t)(_p)
#define _SIDE_SDT_VALS_0(_sav)
#define _SIDE_SDT_VALS_1(_sav) _SIDE_SDT_VALS_0(_sav) _SIDE_SDT_VAL(_sav, 0)
#define _SIDE_SDT_VALS_2(_sav) _SIDE_SDT_VALS_1(_sav) _SIDE_SDT_VAL(_sav, 1)
#define _SIDE_SDT_VALS_3(_sav) _SIDE_SDT_VALS_2(_sav) _SIDE_SDT_VAL(_sav, 2)
#define _SIDE_SDT_VALS_4(_sav) _SIDE_SDT_VALS_3(_sav) _SIDE_SDT_VAL(_sav, 3)
#define _SIDE_SDT_VALS_5(_sav) _SIDE_SDT_VALS_4(_sav) _SIDE_SDT_VAL(_sav, 4)
#define _SIDE_SDT_VALS_6(_sav) _SIDE_SDT_VALS_5(_sav) _SIDE_SDT_VAL(_sav, 5)
#define _SIDE_SDT_VALS_7(_sav) _SIDE_SDT_VALS_6(_sav) _SIDE_SDT_VAL(_sav, 6)
#define _SIDE_SDT_VALS_8(_sav) _SIDE_SDT_VALS_7(_sav) _SIDE_SDT_VAL(_sav, 7)
#define _SIDE_SDT_VALS_9(_sav) _SIDE_SDT_VALS_8(_sav) _SIDE_SDT_VAL(_sav, 8)
#define _SIDE_SDT_VALS_10(_sav) _SIDE_SDT_VALS_9(_sav) _SIDE_SDT_VAL(_sav, 9)
#define _SIDE_SDT_SAVE_0_0 ""
#define _SIDE_SDT_LOADV_0_0 ""
#define _SIDE_SDT_POP_0_0 ""
#define _SIDE_SDT_SAVE_0_1 _SIDE_SDT_SAVE_0_0 "\tpush %%" _SIDE_SDT_REG_0 "\n"
#define _SIDE_SDT_LOADV_0_1 _SIDE_SDT_LOADV_0_0 "\tmov 16(%%r14), %%" _SIDE_SDT_REG_0 "\n"
#define _SIDE_SDT_POP_0_1 "\tpop %%" _SIDE_SDT_REG_0 "\n" _SIDE_SDT_POP_0_0
#define _SIDE_SDT_SAVE_0_2 _SIDE_SDT_SAVE_0_1 "\tpush %%" _SIDE_SDT_REG_1 "\n"
#define _SIDE_SDT_LOADV_0_2 _SIDE_SDT_LOADV_0_1 "\tmov 24(%%r14), %%" _SIDE_SDT_REG_1 "\n"
#define _SIDE_SDT_POP_0_2 "\tpop %%" _SIDE_SDT_REG_1 "\n" _SIDE_SDT_POP_0_1
#define _SIDE_SDT_SAVE_0_3 _SIDE_SDT_SAVE_0_2 "\tpush %%" _SIDE_SDT_REG_2 "\n"
#define _SIDE_SDT_LOADV_0_3 _SIDE_SDT_LOADV_0_2 "\tmov 32(%%r14), %%" _SIDE_SDT_REG_2 "\n"
#define _SIDE_SDT_POP_0_3 "\tpop %%" _SIDE_SDT_REG_2 "\n" _SIDE_SDT_POP_0_2
#define _SIDE_SDT_SAVE_0_4 _SIDE_SDT_SAVE_0_3 "\tpush %%" _SIDE_SDT_REG_3 "\n"
#define _SIDE_SDT_LOADV_0_4 _SIDE_SDT_LOADV_0_3 "\tmov 40(%%r14), %%" _SIDE_SDT_REG_3 "\n"
#define _SIDE_SDT_POP_0_4 "\tpop %%" _SIDE_SDT_REG_3 "\n" _SIDE_SDT_POP_0_3
#define _SIDE_SDT_SAVE_0_5 _SIDE_SDT_SAVE_0_4 "\tpush %%" _SIDE_SDT_REG_4 "\n"
#define _SIDE_SDT_LOADV_0_5 _SIDE_SDT_LOADV_0_4 "\tmov 48(%%r14), %%" _SIDE_SDT_REG_4 "\n"
#define _SIDE_SDT_POP_0_5 "\tpop %%" _SIDE_SDT_REG_4 "\n" _SIDE_SDT_POP_0_4
#define _SIDE_SDT_SAVE_0_6 _SIDE_SDT_SAVE_0_5 "\tpush %%" _SIDE_SDT_REG_5 "\n"
#define _SIDE_SDT_LOADV_0_6 _SIDE_SDT_LOADV_0_5 "\tmov 56(%%r14), %%" _SIDE_SDT_REG_5 "\n"
#define _SIDE_SDT_POP_0_6 "\tpop %%" _SIDE_SDT_REG_5 "\n" _SIDE_SDT_POP_0_5
#define _SIDE_SDT_SAVE_0_7 _SIDE_SDT_SAVE_0_6 "\tpush %%" _SIDE_SDT_REG_6 "\n"
#define _SIDE_SDT_LOADV_0_7 _SIDE_SDT_LOADV_0_6 "\tmov 64(%%r14), %%" _SIDE_SDT_REG_6 "\n"
#define _SIDE_SDT_POP_0_7 "\tpop %%" _SIDE_SDT_REG_6 "\n" _SIDE_SDT_POP_0_6
#define _SIDE_SDT_SAVE_0_8 _SIDE_SDT_SAVE_0_7 "\tpush %%" _SIDE_SDT_REG_7 "\n"
#define _SIDE_SDT_LOADV_0_8 _SIDE_SDT_LOADV_0_7 "\tmov 72(%%r14), %%" _SIDE_SDT_REG_7 "\n"
#define _SIDE_SDT_POP_0_8 "\tpop %%" _SIDE_SDT_REG_7 "\n" _SIDE_SDT_POP_0_7
#define _SIDE_SDT_SAVE_0_9 _SIDE_SDT_SAVE_0_8 "\tpush %%" _SIDE_SDT_REG_8 "\n"
#define _SIDE_SDT_LOADV_0_9 _SIDE_SDT_LOADV_0_8 "\tmov 80(%%r14), %%" _SIDE_SDT_REG_8 "\n"
#define _SIDE_SDT_POP_0_9 "\tpop %%" _SIDE_SDT_REG_8 "\n" _SIDE_SDT_POP_0_8
#define _SIDE_SDT_SAVE_0_10 _SIDE_SDT_SAVE_0_9 "\tpush %%" _SIDE_SDT_REG_9 "\n"
#define _SIDE_SDT_LOADV_0_10 _SIDE_SDT_LOADV_0_9 "\tmov 88(%%r14), %%" _SIDE_SDT_REG_9 "\n"
#define _SIDE_SDT_POP_0_10 "\tpop %%" _SIDE_SDT_REG_9 "\n" _SIDE_SDT_POP_0_9
#define _SIDE_SDT_SAVE_1_0 ""
#define _SIDE_SDT_LOADV_1_0 ""
#define _SIDE_SDT_POP_1_0 ""
#define _SIDE_SDT_SAVE_1_1 _SIDE_SDT_SAVE_1_0 "\tpush %%" _SIDE_SDT_VREG_0 "\n"
#define _SIDE_SDT_LOADV_1_1 _SIDE_SDT_LOADV_1_0 "\tmov 24(%%r14), %%" _SIDE_SDT_VREG_0 "\n"
#define _SIDE_SDT_POP_1_1 "\tpop %%" _SIDE_SDT_VREG_0 "\n" _SIDE_SDT_POP_1_0
#define _SIDE_SDT_SAVE_1_2 _SIDE_SDT_SAVE_1_1 "\tpush %%" _SIDE_SDT_VREG_1 "\n"
#define _SIDE_SDT_LOADV_1_2 _SIDE_SDT_LOADV_1_1 "\tmov 32(%%r14), %%" _SIDE_SDT_VREG_1 "\n"
#define _SIDE_SDT_POP_1_2 "\tpop %%" _SIDE_SDT_VREG_1 "\n" _SIDE_SDT_POP_1_1
#define _SIDE_SDT_SAVE_1_3 _SIDE_SDT_SAVE_1_2 "\tpush %%" _SIDE_SDT_VREG_2 "\n"
#define _SIDE_SDT_LOADV_1_3 _SIDE_SDT_LOADV_1_2 "\tmov 40(%%r14), %%" _SIDE_SDT_VREG_2 "\n"
#define _SIDE_SDT_POP_1_3 "\tpop %%" _SIDE_SDT_VREG_2 "\n" _SIDE_SDT_POP_1_2
#define _SIDE_SDT_SAVE_1_4 _SIDE_SDT_SAVE_1_3 "\tpush %%" _SIDE_SDT_VREG_3 "\n"
#define _SIDE_SDT_LOADV_1_4 _SIDE_SDT_LOADV_1_3 "\tmov 48(%%r14), %%" _SIDE_SDT_VREG_3 "\n"
#define _SIDE_SDT_POP_1_4 "\tpop %%" _SIDE_SDT_VREG_3 "\n" _SIDE_SDT_POP_1_3
#define _SIDE_SDT_SAVE_1_5 _SIDE_SDT_SAVE_1_4 "\tpush %%" _SIDE_SDT_VREG_4 "\n"
#define _SIDE_SDT_LOADV_1_5 _SIDE_SDT_LOADV_1_4 "\tmov 56(%%r14), %%" _SIDE_SDT_VREG_4 "\n"
#define _SIDE_SDT_POP_1_5 "\tpop %%" _SIDE_SDT_VREG_4 "\n" _SIDE_SDT_POP_1_4
#define _SIDE_SDT_SAVE_1_6 _SIDE_SDT_SAVE_1_5 "\tpush %%" _SIDE_SDT_VREG_5 "\n"
#define _SIDE_SDT_LOADV_1_6 _SIDE_SDT_LOADV_1_5 "\tmov 64(%%r14), %%" _SIDE_SDT_VREG_5 "\n"
#define _SIDE_SDT_POP_1_6 "\tpop %%" _SIDE_SDT_VREG_5 "\n" _SIDE_SDT_POP_1_5
#define _SIDE_SDT_SAVE_1_7 _SIDE_SDT_SAVE_1_6 "\tpush %%" _SIDE_SDT_VREG_6 "\n"
#define _SIDE_SDT_LOADV_1_7 _SIDE_SDT_LOADV_1_6 "\tmov 72(%%r14), %%" _SIDE_SDT_VREG_6 "\n"
#define _SIDE_SDT_POP_1_7 "\tpop %%" _SIDE_SDT_VREG_6 "\n" _SIDE_SDT_POP_1_6
#define _SIDE_SDT_SAVE_1_8 _SIDE_SDT_SAVE_1_7 "\tpush %%" _SIDE_SDT_VREG_7 "\n"
#define _SIDE_SDT_LOADV_1_8 _SIDE_SDT_LOADV_1_7 "\tmov 80(%%r14), %%" _SIDE_SDT_VREG_7 "\n"
#define _SIDE_SDT_POP_1_8 "\tpop %%" _SIDE_SDT_VREG_7 "\n" _SIDE_SDT_POP_1_7
#define _SIDE_SDT_SAVE_1_9 _SIDE_SDT_SAVE_1_8 "\tpush %%" _SIDE_SDT_VREG_8 "\n"
#define _SIDE_SDT_LOADV_1_9 _SIDE_SDT_LOADV_1_8 "\tmov 88(%%r14), %%" _SIDE_SDT_VREG_8 "\n"
#define _SIDE_SDT_POP_1_9 "\tpop %%" _SIDE_SDT_VREG_8 "\n" _SIDE_SDT_POP_1_8
/* The number of values k, by <variadic>_<n1>. */
#define _SIDE_SDT_NVALS_0_1 0
#define _SIDE_SDT_NVALS_0_2 1
#define _SIDE_SDT_NVALS_0_3 2
#define _SIDE_SDT_NVALS_0_4 3
#define _SIDE_SDT_NVALS_0_5 4
#define _SIDE_SDT_NVALS_0_6 5
#define _SIDE_SDT_NVALS_0_7 6
#define _SIDE_SDT_NVALS_0_8 7
#define _SIDE_SDT_NVALS_0_9 8
#define _SIDE_SDT_NVALS_0_10 9
#define _SIDE_SDT_NVALS_0_11 10
#define _SIDE_SDT_NVALS_1_1 0
#define _SIDE_SDT_NVALS_1_2 1
#define _SIDE_SDT_NVALS_1_3 2
#define _SIDE_SDT_NVALS_1_4 3
#define _SIDE_SDT_NVALS_1_5 4
#define _SIDE_SDT_NVALS_1_6 5
#define _SIDE_SDT_NVALS_1_7 6
#define _SIDE_SDT_NVALS_1_8 7
#define _SIDE_SDT_NVALS_1_9 8
#define _SIDE_SDT_NVALS_1_10 9
#define _SIDE_SDT_NVALS_1_11 9
#define _SIDE_SDT_NV(_variadic, _n1) SIDE_PP_CAT(_SIDE_SDT_NVALS_##_variadic##_, _n1)
#define _SIDE_SDT_K(_what, _variadic, _n1) \
	SIDE_PP_CAT(_SIDE_SDT_##_what##_##_variadic##_, _SIDE_SDT_NV(_variadic, _n1))
#define _SIDE_SDT_PTRS_0(_desc, _vec, _var) _SIDE_SDT_PTR(_desc), _SIDE_SDT_PTR(_vec)
#define _SIDE_SDT_PTRS_1(_desc, _vec, _var) \
	_SIDE_SDT_PTR(_desc), _SIDE_SDT_PTR(_vec), _SIDE_SDT_PTR(_var)
#define _SIDE_SDT_PTR_SAVE_0 "\tpush %%" _SIDE_SDT_REG_DESC "\n\tpush %%" _SIDE_SDT_REG_VEC "\n"
#define _SIDE_SDT_PTR_SAVE_1 _SIDE_SDT_PTR_SAVE_0 "\tpush %%" _SIDE_SDT_REG_VAR "\n"
#define _SIDE_SDT_PTR_LOAD_0 \
	"\tmov 0(%%r14), %%" _SIDE_SDT_REG_DESC "\n\tmov 8(%%r14), %%" _SIDE_SDT_REG_VEC "\n"
#define _SIDE_SDT_PTR_LOAD_1 _SIDE_SDT_PTR_LOAD_0 "\tmov 16(%%r14), %%" _SIDE_SDT_REG_VAR "\n"
#define _SIDE_SDT_PTR_POP_0 "\tpop %%" _SIDE_SDT_REG_VEC "\n\tpop %%" _SIDE_SDT_REG_DESC "\n"
#define _SIDE_SDT_PTR_POP_1 "\tpop %%" _SIDE_SDT_REG_VAR "\n" _SIDE_SDT_PTR_POP_0
/*
 * The values are loaded from the argument array the call has stored, not
 * taken from the expressions that computed them: an argument the function
 * also uses after the site then has two users, not three, and gcc stops
 * holding it in a callee-saved register that the disabled path would save
 * and restore (a 10-field function: 11 extra instructions to 8). The empty
 * asm hides that side_sdt_mem is side_sav; its input keeps the stores.
 */
#define _SIDE_SDT_ARGV(_variadic, _n1, _sav, _desc, _vec, _var) \
	const struct side_arg *side_sdt_mem = _sav; \
	__asm__("" : "+r"(side_sdt_mem) : "m"(_sav)); \
	const int64_t side_sdt_argv[] = { \
		_SIDE_SDT_PTRS_##_variadic(_desc, _vec, _var) \
			SIDE_PP_CAT(_SIDE_SDT_VALS_, _SIDE_SDT_NV(_variadic, _n1))(_sav)};
#define _SIDE_SDT_LOAD(_variadic, _n1) \
	"\tlea -128(%%rsp), %%rsp\n" _SIDE_SDT_PTR_SAVE_##_variadic _SIDE_SDT_K( \
		SAVE, _variadic, _n1) "\tpush %%r14\n\tpush %%rbp\n\tmov %[argv], %%r14\n" \
		_SIDE_SDT_PTR_LOAD_##_variadic _SIDE_SDT_K(LOADV, _variadic, _n1)
/*
 * What side_probe_fallback_delta() finds around the fallback; the restore
 * changes no flag, so the asm's output is the test's.
 */
#define _SIDE_SDT_RESTORE(_variadic, _n1) \
	"\txor %%ebp, %%ebp\n" SIDE_PROBE_FALLBACK_INSN \
	"\n\ttest %%ebp, %%ebp\n\tpop %%rbp\n\tpop %%r14\n" _SIDE_SDT_K(POP, _variadic, _n1) \
		_SIDE_SDT_PTR_POP_##_variadic "\tlea 128(%%rsp), %%rsp\n"

/*
 * One probe site: _sav is the array of the call's arguments, _n1 1 + their
 * number (clamped to 11, a preprocessing number), _variadic 0 or 1; sets
 * the int _in_process: the fallback was disarmed, the engine's event.
 */
#define _side_sdt_probe(_identifier, _variadic, _sema, _sav, _n1, _desc, _vec, _var, _in_process) \
	do { \
		_SIDE_SDT_ARGV(_variadic, _n1, _sav, _desc, _vec, _var) \
		__asm__ __volatile__( \
			_SIDE_SDT_LOAD( \
				_variadic, \
				_n1) "990:\t" SIDE_PROBE_INSN \
				     "\n" _SIDE_SDT_RESTORE( \
					     _variadic, \
					     _n1) "\t.pushsection .note.stapsdt,\"?\",\"note\"\n" \
						  "\t.balign 4\n" \
						  "\t.4byte 992f-991f, 994f-993f, 3\n" \
						  "991:\t.asciz \"stapsdt\"\n" \
						  "992:\t.balign 4\n" \
						  "993:\t.8byte 990b\n" \
						  "\t.8byte _.stapsdt.base\n" \
						  "\t.8byte %c[sema]\n" _SIDE_SDT_TAIL_WORDS( \
							  _identifier, \
							  _variadic) "994:\t.balign 4\n" \
								     "\t.popsection\n" \
								     "\t.ifndef _.stapsdt.base\n" \
								     "\t.pushsection " \
								     ".stapsdt.base,\"aG\"," \
								     "\"progbits\",.stapsdt.base," \
								     "comdat\n" \
								     "\t.weak _.stapsdt.base\n" \
								     "\t.hidden _.stapsdt.base\n" \
								     "_.stapsdt.base:\n" \
								     "\t.space 1\n" \
								     "\t.size _.stapsdt.base, 1\n" \
								     "\t.popsection\n" \
								     "\t.endif\n" _SIDE_PROBE_SITE_RECORD \
			: "=@ccnz"(_in_process) \
			: [sema] "i"(_sema), [nargs] "n"(SIDE_ARRAY_SIZE(_sav)), \
			  [argv] "r"(side_sdt_argv), "m"(side_sdt_argv) \
			: "memory"); \
	} while (0)

/* A site for a hand-made argument array, with no callbacks: every value register is bound. */
#define side_sdt_probe(_identifier, _sema, _sav, _desc, _vec) \
	do { \
		int side_sdt_in_process; \
		_side_sdt_probe(_identifier, 0, _sema, _sav, 11, _desc, _vec, 0, \
				side_sdt_in_process); \
		(void)side_sdt_in_process; \
	} while (0)
#define side_sdt_probe_variadic(_identifier, _sema, _sav, _desc, _vec, _var) \
	do { \
		int side_sdt_in_process; \
		_side_sdt_probe(_identifier, 1, _sema, _sav, 11, _desc, _vec, _var, \
				side_sdt_in_process); \
		(void)side_sdt_in_process; \
	} while (0)

/*
 * Emitted once per event definition: sets the 32 symbols above. USDT
 * names are [A-Za-z0-9_]: every other byte of the provider and event names
 * becomes '_' (as USDT names must), in the assembler, because the compiler folds a
 * byte of a string literal into an asm operand even at -O0, but not
 * arithmetic on it. An assembler macro (defined once per file) packs 8
 * bytes into a symbol; an asm statement takes at most 30 operands, so 3
 * words each. The function that carries them is naked: it emits no code.
 */
#define _SIDE_SDT_PAD \
	"                                                                " \
	"                                                                " \
	"                                                                " \
	"                                                                "
#define _SIDE_SDT_OK(_b, _j) \
	"(((((\\" #_b ") == 0) || ((\\" #_b ") == 95) || " \
	"(((\\" #_b ") >= 48) && ((\\" #_b ") <= 57)) || " \
	"(((\\" #_b ") >= 65) && ((\\" #_b ") <= 90)) || " \
	"(((\\" #_b ") >= 97) && ((\\" #_b ") <= 122)) || " \
	"((\\j + " #_j ") >= \\n)) != 0) & 1)"
#define _SIDE_SDT_SAN(_b, _j) \
	"((\\" #_b ") * " _SIDE_SDT_OK(_b, _j) " + 95 * (1 - " _SIDE_SDT_OK(_b, _j) "))"
#define _SIDE_SDT_WORD_MACRO \
	".ifndef .Lside_sdt_word_defined\n" \
	".set .Lside_sdt_word_defined, 1\n" \
	".macro side_sdt_word global, n, j, sym, b0, b1, b2, b3, b4, b5, b6, b7\n" \
	".if \\global\n" \
	".globl \\sym\n" \
	".hidden \\sym\n" \
	".endif\n" \
	".set \\sym, " _SIDE_SDT_SAN(b0, 0) " | (" _SIDE_SDT_SAN(b1, 1) " << 8) | " \
									"(" _SIDE_SDT_SAN(b2, 2) " << 16) | (" _SIDE_SDT_SAN(b3, 3) " << 24) | (" _SIDE_SDT_SAN(b4, 4) " << 32) | (" _SIDE_SDT_SAN( \
										b5, \
										5) " << 40) | " \
										   "(" _SIDE_SDT_SAN(b6, \
												     6) " << 48) | (" _SIDE_SDT_SAN(b7, \
																    7) " << 56)\n" \
																       ".endm\n" \
																       ".endif\n"
#define _SIDE_SDT_WORD(_identifier, _variadic, _k, _b) \
	"\tside_sdt_word %c[global], %c[n], (" #_k \
	"*8), " _SIDE_SDT_SYM(_identifier, nf, _variadic, _k) ", %c[b" #_b "0], %c[b" #_b \
							      "1], %c[b" #_b "2], %c[b" #_b "3], " \
							      "%c[b" #_b "4], %c[b" #_b \
							      "5], %c[b" #_b "6], %c[b" #_b "7]\n"
/* Byte j of the tail; the last one ends the argument string. */
#define _SIDE_SDT_BYTE(_tail, _j) ((_j) == SIDE_SDT_TAIL_SIZE - 1 ? 0 : _tail[_j])
#define _SIDE_SDT_BYTES(_tail, _k, _b) \
	[b##_b##0] "i"(_SIDE_SDT_BYTE(_tail, _k * 8 + 0)), \
		[b##_b##1] "i"(_SIDE_SDT_BYTE(_tail, _k * 8 + 1)), \
		[b##_b##2] "i"(_SIDE_SDT_BYTE(_tail, _k * 8 + 2)), \
		[b##_b##3] "i"(_SIDE_SDT_BYTE(_tail, _k * 8 + 3)), \
		[b##_b##4] "i"(_SIDE_SDT_BYTE(_tail, _k * 8 + 4)), \
		[b##_b##5] "i"(_SIDE_SDT_BYTE(_tail, _k * 8 + 5)), \
		[b##_b##6] "i"(_SIDE_SDT_BYTE(_tail, _k * 8 + 6)), \
		[b##_b##7] "i"(_SIDE_SDT_BYTE(_tail, _k * 8 + 7))
#define _SIDE_SDT_WORDS3(_identifier, _variadic, _global, _n, _tail, _nf, _k0, _k1, _k2) \
	__asm__(_SIDE_SDT_WORD_MACRO _SIDE_SDT_WORD(_identifier, _variadic, _k0, 0) \
			_SIDE_SDT_WORD(_identifier, _variadic, _k1, 1) \
				_SIDE_SDT_WORD(_identifier, _variadic, _k2, 2) \
		: \
		: [global] "i"(_global), [n] "i"(_n), [nf] "i"(_nf), \
		  _SIDE_SDT_BYTES(_tail, _k0, 0), _SIDE_SDT_BYTES(_tail, _k1, 1), \
		  _SIDE_SDT_BYTES(_tail, _k2, 2))
#define _SIDE_SDT_WORDS2(_identifier, _variadic, _global, _n, _tail, _nf, _k0, _k1) \
	__asm__(_SIDE_SDT_WORD_MACRO _SIDE_SDT_WORD(_identifier, _variadic, _k0, 0) \
			_SIDE_SDT_WORD(_identifier, _variadic, _k1, 1) \
		: \
		: [global] "i"(_global), [n] "i"(_n), [nf] "i"(_nf), \
		  _SIDE_SDT_BYTES(_tail, _k0, 0), _SIDE_SDT_BYTES(_tail, _k1, 1))

/*
 * _global: 1 for events other files may call (hidden, export), 0 for
 * static ones; _nf: the number of fields (an integer constant); _n1: 1 +
 * the number of fields, clamped to 11, as a preprocessing number;
 * _variadic: 0 or 1.
 */
#define side_sdt_define_names(_identifier, _global, _provider, _event, _nf, _n1, _variadic) \
	_side_sdt_define_names(_identifier, _global, _provider, _event, _nf, _variadic, \
			       sizeof(_provider) + sizeof(_event), \
			       _provider "\0" _event "\0" _SIDE_SDT_ARGS(_variadic, _n1) \
				       _SIDE_SDT_PAD)
#define _side_sdt_define_names(_identifier, _global, _provider, _event, _nf, _variadic, _n, _tail) \
	side_static_assert(sizeof(_tail) - sizeof(_SIDE_SDT_PAD) < SIDE_SDT_TAIL_SIZE - 1, \
			   "SIDE: the provider and event names are too long (about 150 " \
			   "bytes together at most)", \
			   side_names_too_long); \
	__attribute__((used, naked)) static void side_sdt_names__##_identifier(void) \
	{ \
		_SIDE_SDT_WORDS3(_identifier, _variadic, _global, _n, _tail, _nf, 0, 1, 2); \
		_SIDE_SDT_WORDS3(_identifier, _variadic, _global, _n, _tail, _nf, 3, 4, 5); \
		_SIDE_SDT_WORDS3(_identifier, _variadic, _global, _n, _tail, _nf, 6, 7, 8); \
		_SIDE_SDT_WORDS3(_identifier, _variadic, _global, _n, _tail, _nf, 9, 10, 11); \
		_SIDE_SDT_WORDS3(_identifier, _variadic, _global, _n, _tail, _nf, 12, 13, 14); \
		_SIDE_SDT_WORDS3(_identifier, _variadic, _global, _n, _tail, _nf, 15, 16, 17); \
		_SIDE_SDT_WORDS3(_identifier, _variadic, _global, _n, _tail, _nf, 18, 19, 20); \
		_SIDE_SDT_WORDS3(_identifier, _variadic, _global, _n, _tail, _nf, 21, 22, 23); \
		_SIDE_SDT_WORDS3(_identifier, _variadic, _global, _n, _tail, _nf, 24, 25, 26); \
		_SIDE_SDT_WORDS3(_identifier, _variadic, _global, _n, _tail, _nf, 27, 28, 29); \
		_SIDE_SDT_WORDS2(_identifier, _variadic, _global, _n, _tail, _nf, 30, 31); \
	} \
	SIDE_EXPECT_SEMICOLON()
/* clang-format on */

#endif /* SIDE_PROBE_H */
