// SPDX-License-Identifier: MIT
/*
 * The event's registers: reg("sp") (and sargN, which the parser makes a
 * read at reg("sp")), uaddr("symbol"). Only the events whose program's
 * context is struct pt_regs have them: uprobes and kprobes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check/check.h"
#include "objfile/sdt_args.h"
#include "objfile/symbols.h"

/* An error if an event of the clause has no registers (or, user_only, no file's). */
static int regs_here(struct checker *c, const struct st_expr *e, bool user_only)
{
	const struct st_clause *cl = c->clause;
	const struct st_probe_kind *k;
	uint32_t i;

	for (i = 0; i < cl->nr_events; i++) {
		k = st_event_kind(cl->events[i]);
		if (k->family == ST_FAMILY_UPROBE || (!user_only && k->family == ST_FAMILY_KPROBE))
			continue;
		return ck_err(c, e->pos,
			      "%s() reads the registers of %s events: a %s: probe's %s has "
			      "none%s",
			      st_func_name(e->func),
			      user_only ? "uprobe:, uretprobe: and usdt:"
					: "uprobe:, uretprobe:, usdt:, kprobe: and kretprobe:",
			      k->name, k->noun,
			      user_only && k->family == ST_FAMILY_KPROBE
				      ? " in a file (kaddr(\"name\") is a kernel symbol's address)"
				      : "");
	}
	return 0;
}

int ck_reg(struct checker *c, struct st_expr *e)
{
	struct st_expr *name = e->nr_kids == 1 ? e->kids[0] : NULL;
	int word, err;

	err = ck_host_has(c, e) ?: regs_here(c, e, false);
	if (err)
		return err;
	if (!name || name->kind != ST_EXPR_STR)
		return ck_err(c, e->pos, "reg() takes a register's name: reg(\"sp\"), one of %s",
			      st_pt_regs_names());
	word = st_pt_regs_word(name->str);
	if (word < 0)
		return ck_err(c, name->pos, "reg(): x86-64 has no register \"%s\": it has %s",
			      name->str, st_pt_regs_names());
	e->uval = word;
	e->vtype = ST_VT_UINT;
	return 0;
}

/*
 * uaddr("name"): where the event's process has the probed file's symbol,
 * a pointer to an unsigned integer of the symbol's size (1, 2, 4 or else
 * 8 bytes), as bpftrace types it. A position-independent file's is found
 * from the probed instruction's address, which a uretprobe does not have.
 */
int ck_uaddr(struct checker *c, struct st_expr *e)
{
	struct st_expr *name = e->nr_kids == 1 ? e->kids[0] : NULL;
	const struct st_clause *cl = c->clause;
	struct st_ctypes *r = ck_ctypes(c);
	uint64_t size = 0;
	struct st_named_sym sym;
	const struct st_event *ev;
	char why[320];
	uint32_t i;
	int err;

	err = ck_host_has(c, e) ?: regs_here(c, e, true);
	if (err)
		return err;
	if (!r)
		return ck_oom(c);
	if (!name || name->kind != ST_EXPR_STR)
		return ck_err(c, e->pos, "uaddr() takes a symbol's name: uaddr(\"GLOBAL_A\")");
	for (i = 0; i < cl->nr_events; i++) {
		ev = cl->events[i];
		err = st_symbol_named(ev->path, name->str, &sym, why, sizeof(why));
		if (err == -ENOMEM)
			return ck_oom(c);
		if (err)
			return ck_err(c, name->pos, "uaddr(): %s", why);
		if (sym.pie && st_event_kind(ev)->retval && !ev->at_returns)
			return ck_err(c, e->pos,
				      "uaddr() in a uretprobe: of %s, which is position-"
				      "independent: where its process loaded it is known from a "
				      "probed instruction, and a return probe has none; read it "
				      "in a uprobe: of the function",
				      ev->path);
		sym.size = sym.size == 1 || sym.size == 2 || sym.size == 4 ? sym.size : 8;
		if (i && sym.size != size)
			return ck_err(c, name->pos,
				      "uaddr(): %s is of %llu bytes in %s but of %llu in another "
				      "file of the clause",
				      name->str, (unsigned long long)sym.size, ev->path,
				      (unsigned long long)size);
		size = sym.size;
	}
	e->ctype = st_ctype_pointer(r, st_ctype_int(r, size, false));
	e->mem = ST_MEM_USER;
	e->vtype = ST_VT_UINT;
	return e->ctype ? 0 : ck_oom(c);
}
