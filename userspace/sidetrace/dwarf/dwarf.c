// SPDX-License-Identifier: MIT
/*
 * Functions in DWARF (dwarf.h). A parameter's location is evaluated at
 * the probe's address, never assumed from its position: location lists
 * give registers at an optimized function's entry; at -O0 the parameters
 * live in the frame, stored by the prologue, so the probe goes past it
 * (the line table's prologue end, or its second line) and the frame base
 * comes from the call frame information there.
 */
#define _GNU_SOURCE
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <side/abi/type-description.h>

#include "dwarf/dwarf.h"
#include "objfile/debuginfo.h"
#include "objfile/dwarf_inflate.h"
#include "dwarf/dwarf_int.h"
#include "objfile/sdt_args.h"
#include "side/side_desc.h"

struct st_dwarf {
	Dwarf *dw;
	struct st_inflated inflated; /* dw's sections, when they were compressed */
	Dwarf_CFI *cfi; /* the object's own .eh_frame */
	int debug_fd; /* separate debug info, or -1 */
	Elf *debug_elf;
};

/* x86-64 DWARF register numbers 0-16 by name (17-32 are %xmm0-15). */
static const char *const dwarf_regs[] = {"%rax", "%rdx", "%rcx", "%rbx", "%rsi", "%rdi",
					 "%rbp", "%rsp", "%r8",	 "%r9",	 "%r10", "%r11",
					 "%r12", "%r13", "%r14", "%r15", "%rip"};

static int reg_word(unsigned int dwarf_reg)
{
	const char *name;

	if (dwarf_reg >= sizeof(dwarf_regs) / sizeof(dwarf_regs[0]))
		return -1;
	name = dwarf_regs[dwarf_reg];
	return st_sdt_reg_word(name, strlen(name));
}

struct st_dwarf *st_dwarf_open(struct st_elf *e, const char *path)
{
	struct st_dwarf *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->debug_fd = -1;
	if (!st_dwarf_inflate(e, ST_DWARF_INFLATE_MIN, &d->inflated)) {
		d->dw = dwarf_begin_elf(d->inflated.elf, DWARF_C_READ, NULL);
		if (!d->dw)
			st_dwarf_inflated_free(&d->inflated);
	}
	if (!d->dw)
		d->dw = dwarf_begin_elf(e->elf, DWARF_C_READ, NULL);
	if (!d->dw && path) {
		d->debug_fd = st_debuginfo_open(e, path);
		if (d->debug_fd >= 0)
			d->dw = dwarf_begin(d->debug_fd, DWARF_C_READ);
	}
	if (!d->dw) {
		st_dwarf_close(d);
		return NULL;
	}
	d->cfi = dwarf_getcfi_elf(e->elf);
	return d;
}

void st_dwarf_close(struct st_dwarf *d)
{
	if (!d)
		return;
	if (d->cfi)
		dwarf_cfi_end(d->cfi);
	if (d->dw)
		dwarf_end(d->dw);
	st_dwarf_inflated_free(&d->inflated);
	if (d->debug_fd >= 0)
		close(d->debug_fd);
	free(d);
}

Elf *st_dwarf_debug_elf(const struct st_dwarf *d)
{
	return d && d->debug_fd >= 0 ? dwarf_getelf(d->dw) : NULL;
}

struct find_func {
	Dwarf_Addr addr;
	Dwarf_Die die;
	bool found;
};

static int find_func_cb(Dwarf_Die *die, void *arg)
{
	struct find_func *f = arg;
	Dwarf_Addr pc, end;

	/*
	 * An empty function shares its address with the next one (clang's
	 * DWARF of side_sdt_define_names()' asm-only definitions): not it.
	 */
	if (dwarf_entrypc(die, &pc) || pc != f->addr || (!dwarf_highpc(die, &end) && end == pc))
		return DWARF_CB_OK;
	f->die = *die;
	f->found = true;
	return DWARF_CB_ABORT;
}

/* The frame's base at pc from the call frame information: *reg + *off (CFA). */
static bool cfa_at(struct st_dwarf *d, Dwarf_Addr pc, int *reg, int64_t *off)
{
	Dwarf_Frame *frame;
	Dwarf_Op *ops;
	size_t nops;
	bool ok = false;

	if (!d->cfi || dwarf_cfi_addrframe(d->cfi, pc, &frame))
		return false;
	if (!dwarf_frame_cfa(frame, &ops, &nops) && nops == 1 &&
	    (ops[0].atom == DW_OP_bregx ||
	     (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31))) {
		*reg = reg_word(ops[0].atom == DW_OP_bregx
					? (unsigned int)ops[0].number
					: (unsigned int)(ops[0].atom - DW_OP_breg0));
		*off = ops[0].atom == DW_OP_bregx ? (int64_t)ops[0].number2
						  : (int64_t)ops[0].number;
		ok = *reg >= 0;
	}
	free(frame);
	return ok;
}

/* The function's frame base at pc: DW_AT_frame_base, through the CFA when it says so. */
static const char *frame_base(struct st_dwarf *d, Dwarf_Die *fn, Dwarf_Addr pc, int *reg,
			      int64_t *off)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t n;

	if (!dwarf_attr_integrate(fn, DW_AT_frame_base, &attr) ||
	    dwarf_getlocation_addr(&attr, pc, &ops, &n, 1) != 1 || n != 1)
		return "its frame base is unknown at this address";
	if (ops[0].atom == DW_OP_call_frame_cfa)
		return cfa_at(d, pc, reg, off) ? NULL
					       : "the frame at this address is not described";
	/* clang at -O0: the frame base is the value of %rbp. */
	if ((ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) ||
	    (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31)) {
		bool breg = ops[0].atom >= DW_OP_breg0;

		*reg = reg_word(ops[0].atom - (breg ? DW_OP_breg0 : DW_OP_reg0));
		*off = breg ? (int64_t)ops[0].number : 0;
		return *reg >= 0 ? NULL : "its frame base is in a register sidetrace cannot read";
	}
	return "its frame base is computed in a way sidetrace does not evaluate";
}

/*
 * A register's value narrowed by masks and conversions ("DW_OP_breg1 0,
 * DW_OP_constu 0xffffffff, DW_OP_and, DW_OP_convert, DW_OP_stack_value",
 * clang's bool): the register, read at the value's size.
 */
static bool narrowed_reg(const Dwarf_Op *ops, size_t n)
{
	size_t i;

	if (n < 2 || ops[0].atom < DW_OP_breg0 || ops[0].atom > DW_OP_breg16 || ops[0].number ||
	    ops[n - 1].atom != DW_OP_stack_value)
		return false;
	for (i = 1; i + 1 < n; i++) {
		if (ops[i].atom == DW_OP_constu && i + 2 < n && ops[i + 1].atom == DW_OP_and)
			i++;
		else if (ops[i].atom != DW_OP_convert && ops[i].atom != DW_OP_GNU_convert)
			return false;
	}
	return true;
}

/* A constant ("DW_OP_lit3, DW_OP_stack_value"): an inlined copy's argument folded in. */
static bool const_op(const Dwarf_Op *ops, size_t n, int64_t *val)
{
	unsigned int atom = ops[0].atom;

	if (n != 2 || ops[1].atom != DW_OP_stack_value)
		return false;
	if (atom >= DW_OP_lit0 && atom <= DW_OP_lit31)
		*val = atom - DW_OP_lit0;
	else if ((atom >= DW_OP_const1u && atom <= DW_OP_consts) || atom == DW_OP_constu)
		*val = (int64_t)ops[0].number; /* libdw widened the signed ones with their sign */
	else
		return false;
	return true;
}

/*
 * A number with no location but DW_AT_const_value (clang's inlined
 * copies): its bits, widened as its type says; false if it has none.
 */
static bool const_value(Dwarf_Die *var, const struct st_type *t, struct st_arg_spec *spec)
{
	const struct st_type *num = t->label == SIDE_TYPE_ENUM ? t->elem : t;
	unsigned int bits = num ? num->size * 8 : 0;
	Dwarf_Attribute attr;
	Dwarf_Sword sv;
	Dwarf_Word uv;

	if (!bits || bits > 64 || num->label < SIDE_TYPE_BOOL || num->label > SIDE_TYPE_S64 ||
	    dwarf_hasattr_integrate(var, DW_AT_location) ||
	    !dwarf_attr_integrate(var, DW_AT_const_value, &attr))
		return false;
	if (dwarf_whatform(&attr) == DW_FORM_sdata ||
	    dwarf_whatform(&attr) == DW_FORM_implicit_const) {
		if (dwarf_formsdata(&attr, &sv))
			return false;
		uv = (Dwarf_Word)sv;
	} else if (dwarf_formudata(&attr, &uv)) {
		return false;
	}
	if (bits < 64) {
		uv &= (1ULL << bits) - 1;
		if (num->is_signed && uv >> (bits - 1))
			uv |= ~0ULL << bits;
	}
	spec->loc = ST_LOC_CONST;
	spec->val = (int64_t)uv;
	return true;
}

/* Where a value is at pc, as an SDT operand; NULL, or why it cannot be read there. */
static const char *locate(struct st_dwarf *d, Dwarf_Die *fn, Dwarf_Die *var, Dwarf_Addr pc,
			  struct st_arg_spec *spec)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	unsigned int atom;
	int64_t off;
	size_t n;
	int reg;

	if (!dwarf_attr_integrate(var, DW_AT_location, &attr) ||
	    dwarf_getlocation_addr(&attr, pc, &ops, &n, 1) != 1 || !n)
		return "it is optimized out at this address";
	atom = ops[0].atom;
	if (const_op(ops, n, &off)) {
		spec->loc = ST_LOC_CONST;
		spec->val = off;
		return NULL;
	}
	if (narrowed_reg(ops, n)) {
		atom = DW_OP_reg0 + (atom - DW_OP_breg0);
		n = 1;
	}
	if (n > 1)
		return atom == DW_OP_piece || ops[1].atom == DW_OP_piece
			       ? "it is split in pieces across registers, which sidetrace does not "
				 "join yet"
			       : "its location is computed in a way sidetrace does not evaluate";
	if (atom >= DW_OP_reg17 && atom <= DW_OP_reg31)
		return "it is in a vector register (a floating-point value), which a BPF "
		       "program cannot read";
	if ((atom >= DW_OP_reg0 && atom <= DW_OP_reg16) || atom == DW_OP_regx) {
		spec->loc = ST_LOC_REG;
		reg = reg_word(atom == DW_OP_regx ? ops[0].number : atom - DW_OP_reg0);
	} else if ((atom >= DW_OP_breg0 && atom <= DW_OP_breg16) || atom == DW_OP_fbreg) {
		const char *why = NULL;

		spec->loc = ST_LOC_MEM;
		off = 0;
		if (atom == DW_OP_fbreg)
			why = frame_base(d, fn, pc, &reg, &off);
		else
			reg = reg_word(atom - DW_OP_breg0);
		if (why)
			return why;
		spec->val = off + (int64_t)ops[0].number;
	} else {
		return "its location is computed in a way sidetrace does not evaluate";
	}
	if (reg < 0)
		return "it is in a register sidetrace cannot read";
	spec->reg = reg;
	return NULL;
}

/* Whether a parameter lives in the frame only (a location that is no list: -O0). */
static bool in_frame(Dwarf_Die *var)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t n;

	return dwarf_attr_integrate(var, DW_AT_location, &attr) &&
	       dwarf_whatform(&attr) == DW_FORM_exprloc && !dwarf_getlocation(&attr, &ops, &n) &&
	       n == 1 && ops[0].atom == DW_OP_fbreg;
}

/*
 * Past the prologue: the line table's prologue end, else the function's
 * second line, else (a function on one line) its second row, as gdb
 * takes it.
 */
static Dwarf_Addr past_prologue(Dwarf_Die *fn, Dwarf_Addr entry)
{
	Dwarf_Addr lo = entry, hi = 0, a, first_line_addr = 0, second_row = 0;
	Dwarf_Die cu;
	Dwarf_Lines *lines;
	size_t n, i;
	int first = -1, line;
	bool flag;

	if (dwarf_highpc(fn, &hi) || !dwarf_diecu(fn, &cu, NULL, NULL) ||
	    dwarf_getsrclines(&cu, &lines, &n))
		return entry;
	for (i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);

		if (!l || dwarf_lineaddr(l, &a) || a < lo || a >= hi || dwarf_lineno(l, &line))
			continue;
		/* At the entry, it ends an empty function's prologue (see find_func_cb()). */
		if (!dwarf_lineprologueend(l, &flag) && flag && a > lo)
			return a;
		if (first < 0) {
			first = line;
			first_line_addr = a;
		} else if (line != first && a > first_line_addr) {
			return a;
		} else if (!second_row && a > first_line_addr) {
			second_row = a;
		}
	}
	return second_row ?: entry;
}

/* Whether ops[i] is a whole register followed by an 8-byte piece: its word, or -1. */
static int reg_piece(const Dwarf_Op *ops, size_t n, size_t i)
{
	if (2 * i + 1 >= n || ops[2 * i].atom < DW_OP_reg0 || ops[2 * i].atom > DW_OP_reg16 ||
	    ops[2 * i + 1].atom != DW_OP_piece || ops[2 * i + 1].number != 8)
		return -1;
	return reg_word(ops[2 * i].atom - DW_OP_reg0);
}

/*
 * A Go string or slice at pc, in registers as pieces ("DW_OP_reg0,
 * DW_OP_piece 8, DW_OP_reg3, DW_OP_piece 8"): a string's pointer and its
 * length; a slice's length, its second piece (pointer, length, capacity).
 */
static const char *locate_counted(Dwarf_Die *var, Dwarf_Addr pc, struct st_dwarf_value *v)
{
	bool slice = v->type.label != SIDE_TYPE_STRING_UTF8;
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t n;
	int ptr, len;

	if (!dwarf_attr_integrate(var, DW_AT_location, &attr) ||
	    dwarf_getlocation_addr(&attr, pc, &ops, &n, 1) != 1 || !n)
		return "it is optimized out at this address";
	ptr = reg_piece(ops, n, 0);
	len = reg_piece(ops, n, 1);
	if (ptr < 0 || len < 0 || n != (slice ? 6u : 4u))
		return "its parts are not all in registers here";
	v->spec.loc = v->len_spec.loc = ST_LOC_REG;
	v->spec.reg = slice ? len : ptr;
	v->len_spec.reg = len;
	v->len_spec.size = 8;
	return NULL;
}

static int add_value(struct st_dwarf *d, Dwarf_Die *fn, Dwarf_Die *var, Dwarf_Addr pc,
		     struct st_dwarf_value *v)
{
	const char *name = dwarf_diename(var), *why;
	Dwarf_Attribute attr;

	if (!name && dwarf_attr_integrate(var, DW_AT_name, &attr))
		name = dwarf_formstring(&attr);
	v->name = strdup(name ? name : "?");
	if (!v->name)
		return -ENOMEM;
	why = st_dwarf_type(var, &v->type);
	v->type.c_name = st_dwarf_c_name(var);
	if (!v->type.c_name)
		return -ENOMEM;
	if (!why && !const_value(var, &v->type, &v->spec))
		why = v->type.counted ? locate_counted(var, pc, v)
				      : locate(d, fn, var, pc, &v->spec);
	v->spec.size = v->type.is_signed ? -(int)v->type.size : (int)v->type.size;
	if (v->type.label == SIDE_TYPE_STRING_UTF8)
		v->spec.size = 8;
	if (why && !(v->unreadable = strdup(why)))
		return -ENOMEM;
	return 0;
}

static bool is_result(Dwarf_Die *var);

/* Whether some parameter lives in the frame only: the probe then goes past the prologue. */
static bool params_in_frame(Dwarf_Die *fn)
{
	Dwarf_Die child;

	if (dwarf_child(fn, &child))
		return false;
	do {
		if (dwarf_tag(&child) == DW_TAG_formal_parameter && in_frame(&child))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

bool st_dwarf_origin(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute attr;
	Dwarf_Die cur = *die;
	int depth;

	/* A copy of a copy (gcc's clones) names the copy: go to the abstract root. */
	for (depth = 0; depth < 8 && dwarf_attr(&cur, DW_AT_abstract_origin, &attr); depth++)
		if (!dwarf_formref_die(&attr, &cur))
			return false;
	*out = cur;
	return depth > 0;
}

/* The parameter of an inlined copy that stands for the function's param, if the copy kept it. */
static bool copy_param(Dwarf_Die *copy, Dwarf_Die *param, Dwarf_Die *out)
{
	Dwarf_Die origin;

	if (dwarf_child(copy, out))
		return false;
	do
		if (dwarf_tag(out) == DW_TAG_formal_parameter && st_dwarf_origin(out, &origin) &&
		    dwarf_dieoffset(&origin) == dwarf_dieoffset(param))
			return true;
	while (dwarf_siblingof(out, out) == 0);
	return false;
}

/*
 * fn's parameters where they are at out->probe_addr: its own, or for an
 * inlined copy, the copy's that stand for them (a parameter it dropped is
 * read from fn's, which has no location). The frame base is frame's.
 */
static int read_params(struct st_dwarf *d, Dwarf_Die *frame, Dwarf_Die *fn, Dwarf_Die *copy,
		       struct st_dwarf_func *out)
{
	Dwarf_Die child, var;
	uint32_t n = 0;

	if (dwarf_child(fn, &child))
		return 0;
	do
		n += dwarf_tag(&child) == DW_TAG_formal_parameter && !is_result(&child);
	while (dwarf_siblingof(&child, &child) == 0);
	out->params = calloc(n + 1, sizeof(*out->params));
	if (!out->params)
		return -ENOMEM;
	if (dwarf_child(fn, &child))
		return 0;
	do {
		if (dwarf_tag(&child) != DW_TAG_formal_parameter || is_result(&child) ||
		    out->nr_params >= n)
			continue;
		if (!copy || !copy_param(copy, &child, &var))
			var = child;
		if (add_value(d, frame, &var, out->probe_addr, &out->params[out->nr_params++]))
			return -ENOMEM;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

int st_dwarf_copy_params(struct st_dwarf *d, Dwarf_Die *frame, Dwarf_Die *fn, Dwarf_Die *copy,
			 uint64_t pc, struct st_dwarf_func *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	out->probe_addr = pc;
	err = read_params(d, frame, fn, copy, out);
	if (err)
		st_dwarf_func_fini(out);
	return err;
}

Dwarf *st_dwarf_dw(struct st_dwarf *d)
{
	return d->dw;
}

/* Go's first result, which its register ABI returns in %rax; false when there is none. */
static bool first_result(Dwarf_Die *fn, Dwarf_Die *out)
{
	if (dwarf_child(fn, out))
		return false;
	do
		if (dwarf_tag(out) == DW_TAG_formal_parameter && is_result(out))
			return true;
	while (dwarf_siblingof(out, out) == 0);
	return false;
}

/* The return value: in %rax at a return, typed by the function's type (Go: its first result's). */
static int read_ret(Dwarf_Die *fn, struct st_dwarf_value *ret, bool *has_ret)
{
	Dwarf_Die result;
	const char *why;

	ret->name = strdup("retval");
	if (!ret->name)
		return -ENOMEM;
	why = st_dwarf_type(first_result(fn, &result) ? &result : fn, &ret->type);
	ret->type.c_name = st_dwarf_c_name(first_result(fn, &result) ? &result : fn);
	if (!ret->type.c_name)
		return -ENOMEM;
	*has_ret = !why || strcmp(why, "void");
	if (!why && (ret->type.label == SIDE_TYPE_FLOAT_BINARY32 ||
		     ret->type.label == SIDE_TYPE_FLOAT_BINARY64))
		why = "it is returned in a vector register (%xmm0), which a BPF program cannot "
		      "read";
	ret->spec.loc = ST_LOC_REG;
	ret->spec.reg = reg_word(0);
	ret->spec.size = ret->type.is_signed ? -(int)ret->type.size : (int)ret->type.size;
	if (ret->type.label == SIDE_TYPE_STRING_UTF8)
		ret->spec.size = 8;
	if (why && *has_ret && !(ret->unreadable = strdup(why)))
		return -ENOMEM;
	return 0;
}

/*
 * The compile unit holding addr: through .debug_aranges, which clang does
 * not emit, else by each unit's ranges.
 */
static bool unit_of(Dwarf *dw, Dwarf_Addr addr, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t hdr;

	if (dwarf_addrdie(dw, addr, cu))
		return true;
	while (!dwarf_nextcu(dw, off, &next, &hdr, NULL, NULL, NULL)) {
		if (dwarf_offdie(dw, off + hdr, cu) && dwarf_haspc(cu, addr) > 0)
			return true;
		off = next;
	}
	return false;
}

int st_dwarf_function(struct st_dwarf *d, uint64_t addr, uint64_t at, struct st_dwarf_func *out)
{
	struct find_func f = {.addr = addr};
	Dwarf_Die cu;
	int err;

	memset(out, 0, sizeof(*out));
	if (unit_of(d->dw, addr, &cu))
		dwarf_getfuncs(&cu, find_func_cb, &f, 0);
	if (!f.found)
		return -ENOENT;
	if (at)
		out->probe_addr = at;
	else
		out->probe_addr = params_in_frame(&f.die) ? past_prologue(&f.die, addr) : addr;
	err = read_params(d, &f.die, &f.die, NULL, out);
	return err ? err : read_ret(&f.die, &out->ret, &out->has_ret);
}

/* Go's results are parameters marked as variables ("~r0"), with no location at entry. */
static bool is_result(Dwarf_Die *var)
{
	Dwarf_Attribute attr;
	bool flag = false;

	return dwarf_attr_integrate(var, DW_AT_variable_parameter, &attr) &&
	       !dwarf_formflag(&attr, &flag) && flag;
}

void st_dwarf_func_fini(struct st_dwarf_func *f)
{
	uint32_t i;

	for (i = 0; i < f->nr_params; i++) {
		free(f->params[i].name);
		free(f->params[i].unreadable);
		st_type_fini(&f->params[i].type);
	}
	free(f->params);
	free(f->ret.name);
	free(f->ret.unreadable);
	st_type_fini(&f->ret.type);
	memset(f, 0, sizeof(*f));
}
