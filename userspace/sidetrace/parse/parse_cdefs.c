// SPDX-License-Identifier: MIT
/*
 * C definitions in a program, before or between its probes, as bpftrace
 * takes them: struct and union definitions, laid out as C compilers lay
 * them out on this ABI (members aligned to their size, bit fields packed
 * in units of their type), and enum definitions, whose constants become
 * values. Their types go to the program's registry (ctypes/), where casts
 * find them before the kernel's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/parse.h"

/* A type name's words at most this many bytes: "unsigned long long int", "struct name". */
#define TYPE_NAME_MAX 160
/* Members of one definition, enumerators of one enum. */
#define MAX_MEMBERS 1024

static bool word_is(const struct parser *p, const char *w)
{
	return p->cur.kind == T_IDENT && p->cur.len == strlen(w) &&
	       !strncmp(p->lx.src + p->cur.off, w, p->cur.len);
}

bool pr_at_c_definition(const struct parser *p)
{
	static const char *const words[] = {"struct", "union", "enum"};
	const char *s = p->lx.src + p->lx.off;
	size_t i, n;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		n = strlen(words[i]);
		if (!strncmp(s, words[i], n) && (s[n] == ' ' || s[n] == '\t' || s[n] == '\n'))
			return true;
	}
	return false;
}

/* The registry's answer to err, as the parser says it. */
static int registry_err(struct parser *p, struct st_pos pos, int err, const char *name)
{
	if (err == -ENOMEM)
		return pr_oom(p);
	if (err == -EEXIST)
		return pr_err(p, pos, "%s is defined twice", name);
	return err;
}

/* A member's type: a tag and its name, or an integer's words but the last (the member's name). */
static int anonymous(struct parser *p, struct st_ctype **t);

static int member_type(struct parser *p, struct st_ctypes *r, struct st_ctype **t, char *name,
		       size_t namelen)
{
	char words[TYPE_NAME_MAX] = "", why[512];
	struct st_pos pos = p->cur.pos;
	size_t len = 0;
	bool tag;
	int err = 0;

	tag = word_is(p, "struct") || word_is(p, "union") || word_is(p, "enum");
	/* struct { ... } member: an anonymous struct or union in place. */
	if (tag && pr_peek_kind(p) == T_LBRACE) {
		*name = '\0';
		return anonymous(p, t);
	}
	while (!err && p->cur.kind == T_IDENT) {
		/* Qualifiers change nothing that is read. */
		if (word_is(p, "const") || word_is(p, "volatile")) {
			err = pr_advance(p);
			continue;
		}
		if (len + p->cur.len + 2 >= sizeof(words))
			return pr_err(p, p->cur.pos, "a member's type name longer than %zu bytes",
				      sizeof(words) - 1);
		len += sprintf(words + len, "%s%.*s", len ? " " : "", (int)p->cur.len,
			       p->lx.src + p->cur.off);
		err = pr_advance(p);
		if (tag && strchr(words, ' '))
			break;
	}
	if (err)
		return err;
	*name = '\0';
	/* "unsigned int count": the last word names the member, unless a '*' comes first. */
	if (!tag && p->cur.kind != T_STAR && strchr(words, ' ')) {
		snprintf(name, namelen, "%s", strrchr(words, ' ') + 1);
		*strrchr(words, ' ') = '\0';
	}
	err = st_ctypes_named(r, words, t, why, sizeof(why));
	if (err == -ENOMEM)
		return pr_oom(p);
	return err ? pr_err(p, pos, "%s", why) : 0;
}

/* A struct or union being defined, and where its next member goes. */
struct layout {
	struct st_ctype *def;
	uint64_t bit_off; /* a struct's next free bit */
	uint32_t align, size;
};

/* Bytes of a type the program defines, at most: its layout's sums stay far from overflow. */
#define DEF_SIZE_MAX (1U << 30)

/* Member name of type t (bits: a bit field's width, or -1) laid out in l, as C compilers do. */
static int place(struct parser *p, struct layout *l, const char *name, struct st_ctype *t,
		 int64_t bits, struct st_pos pos)
{
	uint32_t align = st_ctype_align(p->ctypes, t), unit = t->size * 8;
	uint64_t at = l->def->kind == ST_CT_UNION ? 0 : l->bit_off;
	int err;

	if (bits >= 0 && (!unit || bits > unit || t->kind == ST_CT_PTR))
		return pr_err(p, pos, "a bit field of %lld bits in %s", (long long)bits, t->name);
	if (at / 8 + t->size > DEF_SIZE_MAX)
		return pr_err(p, pos, "%s grows past %u bytes", l->def->name, DEF_SIZE_MAX);
	if (bits < 0 || (unit && at / unit != (at + (bits ? bits : 1) - 1) / unit) || !bits)
		at = (at + align * 8 - 1) / (align * 8) * (align * 8);
	l->align = align > l->align ? align : l->align;
	err = bits ? st_ctype_add_member(l->def, name, t, at, bits < 0 ? 0 : bits) : 0;
	if (err)
		return pr_oom(p);
	at += bits < 0 ? (uint64_t)t->size * 8 : (uint64_t)bits;
	if (l->def->kind == ST_CT_UNION)
		l->size = (at + 7) / 8 > l->size ? (at + 7) / 8 : l->size;
	else
		l->bit_off = at;
	return 0;
}

/* After a member's type: '*'s, its name, '[N]'s, ': BITS'; then the member placed. */
static int declarator(struct parser *p, struct layout *l, struct st_ctype *t, char *name)
{
	struct st_pos pos = p->cur.pos;
	int64_t bits = -1;
	uint32_t dims[8], nr = 0;
	int err = 0;

	while (!err && p->cur.kind == T_STAR) {
		t = st_ctype_pointer(p->ctypes, t);
		err = t ? pr_advance(p) : pr_oom(p);
	}
	/* struct { ... }; in a struct: its members are the outer one's, as C11 has them. */
	if (!err && !*name && p->cur.kind == T_SEMI && strstr(t->name, "(anonymous)"))
		return place(p, l, "", t, -1, pos);
	if (!err && !*name) {
		if (p->cur.kind != T_IDENT)
			return pr_err(p, p->cur.pos, "expected a member's name in %s",
				      l->def->name);
		snprintf(name, TYPE_NAME_MAX, "%.*s", (int)p->cur.len, p->lx.src + p->cur.off);
		err = pr_advance(p);
	}
	while (!err && p->cur.kind == T_LBRACK && nr < 8) {
		err = pr_advance(p);
		if (!err && (p->cur.kind != T_INT || !p->cur.ival || p->cur.ival > 1 << 20))
			return pr_err(p, p->cur.pos, "expected an array's length, 1 to %d",
				      1 << 20);
		dims[nr++] = p->cur.ival;
		err = err ?: pr_advance(p);
		if (!err && p->cur.kind != T_RBRACK)
			return pr_err(p, p->cur.pos, "expected ']' after the array's length");
		err = err ?: pr_advance(p);
	}
	while (!err && nr) {
		if ((uint64_t)t->size * dims[nr - 1] > DEF_SIZE_MAX)
			return pr_err(p, pos, "an array of more than %u bytes", DEF_SIZE_MAX);
		if (!(t = st_ctype_array(p->ctypes, t, dims[--nr])))
			err = pr_oom(p);
	}
	if (!err && p->cur.kind == T_COLON) {
		err = pr_advance(p);
		if (!err && (p->cur.kind != T_INT || p->cur.ival > 64))
			return pr_err(p, p->cur.pos, "expected a bit field's width, 0 to 64");
		bits = p->cur.ival;
		err = err ?: pr_advance(p);
	}
	return err ?: place(p, l, name, t, bits, pos);
}

/* "{" members "}": each "TYPE declarator (, declarator)* ;". */
static int members(struct parser *p, struct layout *l)
{
	char name[TYPE_NAME_MAX];
	struct st_ctype *t;
	uint32_t n = 0;
	int err = 0;

	while (!err && p->cur.kind != T_RBRACE) {
		if (++n > MAX_MEMBERS)
			return pr_err(p, p->cur.pos, "more than %d members in %s", MAX_MEMBERS,
				      l->def->name);
		err = member_type(p, p->ctypes, &t, name, sizeof(name));
		while (!err) {
			err = declarator(p, l, t, name);
			if (err || p->cur.kind != T_COMMA)
				break;
			*name = '\0';
			err = pr_advance(p);
		}
		/* The last member's ';' may be left out, as bpftrace's parser lets it. */
		if (!err && p->cur.kind == T_RBRACE)
			break;
		if (!err && p->cur.kind != T_SEMI)
			return pr_err(p, p->cur.pos, "expected ';' after a member of %s",
				      l->def->name);
		err = err ?: pr_advance(p);
	}
	return err;
}

/* "{" NAME ["=" INT] ("," NAME ["=" INT])* [","] "}": each a value of the program. */
static int enumerators(struct parser *p)
{
	char name[TYPE_NAME_MAX];
	int64_t v = 0;
	uint32_t n = 0;
	bool neg;
	int err = 0;

	while (!err && p->cur.kind != T_RBRACE) {
		if (p->cur.kind != T_IDENT || ++n > MAX_MEMBERS)
			return pr_err(p, p->cur.pos, "expected an enumerator's name");
		snprintf(name, sizeof(name), "%.*s", (int)p->cur.len, p->lx.src + p->cur.off);
		err = pr_advance(p);
		if (!err && p->cur.kind == T_ASSIGN) {
			err = pr_advance(p);
			neg = !err && p->cur.kind == T_MINUS;
			err = err ?: neg ? pr_advance(p) : 0;
			if (!err && p->cur.kind != T_INT)
				return pr_err(p, p->cur.pos, "expected %s's value, an integer",
					      name);
			v = neg ? -(int64_t)p->cur.ival : (int64_t)p->cur.ival;
			err = err ?: pr_advance(p);
		}
		err = err
			      ?: registry_err(p, p->cur.pos,
					      st_ctypes_define_value(p->ctypes, name, v++), name);
		if (!err && p->cur.kind == T_COMMA)
			err = pr_advance(p);
		else if (!err && p->cur.kind != T_RBRACE)
			return pr_err(p, p->cur.pos, "expected ',' or '}' after %s", name);
	}
	return err;
}

/* The members of l->def up to its '}', then its size and alignment. */
static int record(struct parser *p, struct layout *l)
{
	int err;

	if (p->depth >= 8)
		return pr_err(p, p->cur.pos, "structs defined in structs more than 8 deep");
	p->depth++;
	err = members(p, l);
	p->depth--;
	if (err)
		return err;
	l->align = l->align ? l->align : 1;
	if (l->def->kind == ST_CT_STRUCT)
		l->size = (l->bit_off + 7) / 8;
	l->def->size = (l->size + l->align - 1) / l->align * l->align;
	l->def->align = l->align;
	return 0;
}

/* "struct {" members "}", the lexer on the tag: a record of its own, named by none. */
static int anonymous(struct parser *p, struct st_ctype **t)
{
	struct layout l = {0};
	int err;

	err = registry_err(p, p->cur.pos,
			   st_ctypes_define(p->ctypes,
					    word_is(p, "union") ? ST_CT_UNION : ST_CT_STRUCT, NULL,
					    &l.def),
			   "an anonymous struct");
	err = err ?: pr_advance(p);
	err = err ?: pr_advance(p);
	err = err ?: record(p, &l);
	*t = l.def;
	return err ?: pr_advance(p);
}

int pr_c_definition(struct parser *p)
{
	char name[TYPE_NAME_MAX];
	struct layout l = {0};
	struct st_pos pos = p->cur.pos;
	bool is_enum;
	int err;

	err = pr_advance(p);
	if (err)
		return err;
	is_enum = word_is(p, "enum");
	snprintf(name, sizeof(name), "%.*s", (int)p->cur.len, p->lx.src + p->cur.off);
	err = pr_advance(p);
	if (!err && p->cur.kind == T_IDENT) {
		snprintf(name + strlen(name), sizeof(name) - strlen(name), " %.*s", (int)p->cur.len,
			 p->lx.src + p->cur.off);
		pos = p->cur.pos;
		err = pr_advance(p);
	} else if (!err && !is_enum) {
		return pr_err(p, p->cur.pos, "expected the name of the %s", name);
	}
	if (!err && p->cur.kind != T_LBRACE)
		return pr_err(p, p->cur.pos, "expected '{' to open the definition of %s", name);
	err = err ?: pr_advance(p);
	if (!err && is_enum)
		return enumerators(p);
	err = err
		      ?: registry_err(p, pos,
				      st_ctypes_define(p->ctypes,
						       strncmp(name, "union", 5) ? ST_CT_STRUCT
										 : ST_CT_UNION,
						       name, &l.def),
				      name);
	return err ?: record(p, &l);
}
