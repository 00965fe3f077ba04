// SPDX-License-Identifier: GPL-2.0
/*
 * Typed maps on kmap_local's stack: every typed map of a kernel without
 * the slots (CONFIG_KMAP_ATOMIC_SLOTS=n); with them, kmap_atomic_local_top()
 * only (mm/kmap_atomic/core.c). CONFIG_KMAP_ATOMIC_ANY_ORDER:
 * HIGHMEM where the architecture has the slots (x86-32).
 *
 * kmap_local releases its entries in reverse order only: its unmap clears
 * the pte of the top entry and flushes the address it is given. 2.6's
 * typed slots were independent, and correct 2.6 code released them in any
 * order (copy_user_highpage() unmapped KM_USER0 before KM_USER1; a
 * scatterlist walk remaps its source and its destination each at its own
 * page boundaries). So a typed unmap of an entry under the top clears and
 * flushes that entry's own pte at once and leaves the entry on the stack,
 * marked released, until it is the top: kunmap_local_indexed() then pops
 * it (kmap_atomic_pop_released()). A typed map at the same interrupt
 * level takes a released entry before it pushes a new one, so that two
 * mappings remapped in turn keep two entries, not a growing stack.
 */
#include <linux/export.h>
#include <linux/highmem.h>
#include <linux/kmap_atomic_debug.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>

#include "kmap_atomic.h"

/*
 * The address of entry @idx of this task's kmap_local stack, at the index
 * mm/highmem.c gives it (kmap_local_calc_idx(), which no architecture
 * with the slots may override: mm/kmap_atomic/kmap_atomic.h), and its inverse.
 */
static unsigned long kmap_atomic_local_addr(int idx)
{
	return __fix_to_virt(FIX_KMAP_BEGIN + idx + KM_MAX_IDX * smp_processor_id());
}

int kmap_atomic_local_entry(unsigned long vaddr)
{
	return __virt_to_fix(vaddr) - FIX_KMAP_BEGIN - KM_MAX_IDX * smp_processor_id();
}

/* The kmap_local address that kunmap_local() would release now, or 0. */
unsigned long kmap_atomic_local_top(void)
{
	int idx = current->kmap_ctrl.idx - 1;

	return idx < 0 ? 0 : kmap_atomic_local_addr(idx);
}

/*
 * An entry released out of kmap_local's order stays on the task's stack,
 * unmapped, its saved pte a marker (not present, not none, so that a
 * context switch saves and restores it as it is) that carries the
 * interrupt level it was released at, nested NMIs and interrupts apart,
 * until it is the top: then it is popped by the next release at that
 * level, typed unmap or kunmap_local(), never by an interrupt that finds
 * it there. Its entry keeps the task on this CPU meanwhile.
 */
static pte_t released_pte(void)
{
	return arch_kmap_atomic_released_pte(kmap_atomic_level() >> SOFTIRQ_SHIFT);
}

/* How many released entries wait on this CPU, for the cheap test inline. */
DEFINE_PER_CPU(unsigned int, kmap_atomic_released);
EXPORT_PER_CPU_SYMBOL_GPL(kmap_atomic_released);

/**
 * __kmap_atomic_pop_released - pop released entries at the top of the stack
 *
 * Called by kunmap_local_indexed() after each pop while this CPU has a
 * released entry waiting (kmap_atomic_pop_released()). Each pop runs
 * kunmap_local_indexed() again, so every released entry that comes to the
 * top goes.
 */
void __kmap_atomic_pop_released(void)
{
	unsigned long flags;
	int top;

	/* An interrupt between the check and the pop must not pop it too. */
	local_irq_save(flags);
	top = current->kmap_ctrl.idx - 1;
	if (top >= 0 && pte_val(current->kmap_ctrl.pteval[top]) == pte_val(released_pte())) {
		this_cpu_dec(kmap_atomic_released);
		/* Pops it, and (this hook again) any released one under it. */
		kunmap_local_indexed((void *)kmap_atomic_local_addr(top));
	}
	local_irq_restore(flags);
}

/*
 * Release an entry that is not the top: unmapped now, popped later. An
 * entry of this task's stack that still maps what it was mapped with.
 * Interrupts are off.
 */
void kmap_atomic_release_buried(unsigned long vaddr)
{
	int idx = kmap_atomic_local_entry(vaddr);

	arch_kmap_local_pre_unmap(vaddr);
	pte_clear(&init_mm, vaddr, virt_to_kpte(vaddr));
	arch_kmap_local_post_unmap(vaddr);
	current->kmap_ctrl.pteval[idx] = released_pte();
	this_cpu_inc(kmap_atomic_released);
}

#ifndef CONFIG_KMAP_ATOMIC_SLOTS
/*
 * The map log: one entry per typed map, in map order: its kmap_local
 * index, or KM_LOG_LOWMEM for a page that took none; its type; its
 * interrupt level; the page-fault count its level held before its first
 * map; its call site. A task's maps and those of the softirqs and
 * hard interrupts that come on it (whose kmap_local entries are on its
 * stack too) are in its struct kmap_ctrl; with interrupts off wherever it
 * is read or written, none of them comes in between. An NMI, an #MC, #DB
 * or int3 may come anywhere: theirs are in a log of this CPU's.
 *
 * One invariant: every entry owes exactly one map's counts, and gives
 * them back exactly once, when it is released: by a typed unmap, which
 * releases exactly one entry of its own level; by the one-argument
 * kunmap_atomic() of a typed map (kunmap_atomic_any_order_one()); or
 * where its level ends. An unmap with nothing to release touches nothing.
 * Nothing reaches kmap_local's BUG(): a level holds at most
 * KM_LEVEL_ENTRIES kmap_local entries, past which a map returns NULL, as
 * it does with the log full.
 */
#define KM_LOG_LOWMEM		0xff
#define KM_LOG_NR		KM_MAX_IDX
#define KM_LEVEL_ENTRIES	(KM_LOCAL_RESERVE / 2)

static_assert(KM_LOG_NR < KM_LOG_LOWMEM && KM_TYPE_NR <= U8_MAX);

DEFINE_PER_CPU(struct kmap_atomic_log, kmap_atomic_nmi_log);
EXPORT_PER_CPU_SYMBOL_GPL(kmap_atomic_nmi_log);
/* The task whose kmap_local stack the NMI log's entries are on. */
static DEFINE_PER_CPU(struct task_struct *, nmi_log_task);

/*
 * What a report is about, in the top bits of its key (as the debug
 * flavor's): a call site prints once per kind, so that a map that leaks
 * and then is refused prints both.
 */
enum log_report { LOG_STALE, LOG_UNMAP, LOG_NOTHING, LOG_REFUSED, LOG_LEAK };

/* A misuse, counted, and printed once per call site @ip and kind. */
#define report(ip, kind, fmt, ...)					\
do {									\
	unsigned long __ip = (ip);					\
									\
	if (kmap_atomic_report_site(__ip ^ (unsigned long)(kind) << (BITS_PER_LONG - 4))) \
		WARN(1, "kmap_atomic: %pS " fmt "\n", (void *)__ip, ##__VA_ARGS__); \
} while (0)

/*
 * This context's log. An NMI-class context whose CPU's log holds another
 * task's entries (an int3 or #DB that returned holding a map, then a task
 * switch): those are stale, and dropped.
 */
static struct kmap_atomic_log *this_log(void)
{
	struct kmap_atomic_log *log;

	if (!in_nmi())
		return &current->kmap_ctrl.typed_log;
	log = this_cpu_ptr(&kmap_atomic_nmi_log);
	if (log->n && __this_cpu_read(nmi_log_task) != current) {
		report(log->e[0].ip, LOG_STALE,
		       "maps in an NMI-class context that returned holding %u map(s) on CPU%u, which another task's finds: dropped",
		       log->n, smp_processor_id());
		log->n = 0;
	}
	__this_cpu_write(nmi_log_task, current);
	return log;
}

static void counts_raise(void)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		migrate_disable();
	else
		preempt_disable();
	pagefault_disable();
}

/* One map's counts, as kunmap_atomic(addr) gives them back. */
static void counts_give_back(void)
{
	pagefault_enable();
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		migrate_enable();
	else
		preempt_enable();
}

static u16 log_level(void)
{
	return kmap_atomic_level() >> SOFTIRQ_SHIFT;
}

static bool tagged(pte_t pte)
{
	return pte_present(pte) && (pte_val(pte) & arch_kmap_atomic_fallback_tag);
}

static bool is_lowmem_entry(const struct kmap_atomic_entry *e)
{
	return e->idx == KM_LOG_LOWMEM;
}

/* Is @e's kmap_local entry still the typed one it mapped? */
static bool entry_live(const struct kmap_atomic_entry *e)
{
	return is_lowmem_entry(e) ||
	       (e->idx < current->kmap_ctrl.idx && tagged(current->kmap_ctrl.pteval[e->idx]));
}

static void log_remove(struct kmap_atomic_log *log, unsigned int i)
{
	memmove(&log->e[i], &log->e[i + 1], (log->n - i - 1) * sizeof(log->e[0]));
	log->n--;
}

/* Release entry @i: its kmap_local entry (popped, or cleared and popped later). */
static void release_entry(struct kmap_atomic_log *log, unsigned int i)
{
	unsigned long vaddr;

	if (!is_lowmem_entry(&log->e[i])) {
		vaddr = kmap_atomic_local_addr(log->e[i].idx);
		if (vaddr == kmap_atomic_local_top())
			kunmap_local_indexed((void *)vaddr);
		else
			kmap_atomic_release_buried(vaddr);
	}
	log_remove(log, i);
}

/*
 * Does every page-fault disable of @level come from its typed maps? Then
 * a one-argument unmap in it can only stand for one of them.
 */
static bool level_all_typed(struct kmap_atomic_log *log, u16 level)
{
	unsigned int i, n = 0;
	int held = 0;

	for (i = 0; i < log->n; i++) {
		if (log->e[i].level == level && !n++)
			held = current->pagefault_disabled - log->e[i].pf_base;
	}
	return n && held == n;
}

/*
 * Entries of @level whose kmap_local entry kunmap_local() popped (the
 * one-argument kunmap_atomic() of a typed map comes here instead, while
 * the log holds it): they go, their counts given back, reported.
 */
static void log_trim(struct kmap_atomic_log *log, u16 level)
{
	unsigned int i;

	for (i = log->n; i-- > 0;) {
		if (log->e[i].level != level || entry_live(&log->e[i]))
			continue;
		report(log->e[i].ip, LOG_UNMAP,
		       "maps type %u, which kunmap_local() released (use kunmap_atomic(addr, type)): its counts given back",
		       log->e[i].type);
		log_remove(log, i);
		counts_give_back();
	}
}

/* Fill in @e's level's page-fault count before its first map. */
static void level_base(struct kmap_atomic_log *log, struct kmap_atomic_entry *e)
{
	unsigned int i;

	for (i = 0; i < log->n; i++) {
		if (log->e[i].level == e->level) {
			e->pf_base = log->e[i].pf_base;
			return;
		}
	}
	e->pf_base = current->pagefault_disabled;
}

/* Map @pfn into a released entry of this level, if the stack has one. */
static void *map_into_released(unsigned long pfn, pgprot_t prot)
{
	pte_t marker = released_pte(), pte = pfn_pte(pfn, prot);
	unsigned long vaddr;
	int i;

	for (i = current->kmap_ctrl.idx - 1; i >= 0; i--) {
		if (pte_val(current->kmap_ctrl.pteval[i]) != pte_val(marker))
			continue;
		/* Its pte was cleared and flushed at the release: none is cached. */
		vaddr = kmap_atomic_local_addr(i);
		set_pte_at(&init_mm, vaddr, virt_to_kpte(vaddr), pte);
		arch_kmap_local_post_map(vaddr, pte);
		current->kmap_ctrl.pteval[i] = pte;
		this_cpu_dec(kmap_atomic_released);
		return (void *)vaddr;
	}
	return NULL;
}

/* Why a map of a highmem (@high) or lowmem page returns NULL, or NULL. */
static const char *map_refused(struct kmap_atomic_log *log, u16 level, bool high)
{
	unsigned int i, n = 0;

	if (log->n >= KM_LOG_NR)
		return "the map log full";
	if (!high)
		return NULL;
	for (i = 0; i < log->n; i++)
		n += log->e[i].level == level && !is_lowmem_entry(&log->e[i]);
	if (n >= KM_LEVEL_ENTRIES)
		return "this context's share of kmap_local's stack in use";
	if (current->kmap_ctrl.idx + KM_LOCAL_INCR >= KM_MAX_IDX)
		return "kmap_local's stack full";
	return NULL;
}

/**
 * kmap_atomic_any_order - kmap_atomic(page, type) without the slots
 * @page: the page to map, or NULL for kmap_atomic_pfn(pfn, type)
 * @pfn: its frame
 * @prot: the protection
 * @type: the slot named, kept in the map log for the unmap
 *
 * The one-argument kmap_atomic_prot(page, prot), or kmap_atomic_pfn(pfn),
 * into a released entry of kmap_local's stack at this interrupt level if
 * there is one, else a new entry: preemption (migration on PREEMPT_RT)
 * and page faults off until kunmap_atomic_any_order(). A lowmem page gives
 * page_address(), as there. The map is logged with its call site.
 *
 * Return: the address of the mapping; NULL, with the counts as before and
 * a report, when this context holds KM_LEVEL_ENTRIES kmap_local entries
 * already or the log or kmap_local's stack is full: maps that are never
 * unmapped, in a loop.
 */
void *kmap_atomic_any_order(struct page *page, unsigned long pfn, pgprot_t prot,
			    unsigned int type)
{
	pgprot_t tagged_prot = __pgprot(pgprot_val(prot) | arch_kmap_atomic_fallback_tag);
	bool high = !page || PageHighMem(page) || IS_ENABLED(CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP);
	struct kmap_atomic_entry e = {
		.type = min_t(unsigned int, type, KM_TYPE_NR),
		.level = log_level(),
		.ip = _RET_IP_,
	};
	struct kmap_atomic_log *log;
	unsigned long flags;
	const char *why;
	void *addr = NULL;

	local_irq_save(flags);
	log = this_log();
	log_trim(log, e.level);
	level_base(log, &e);
	counts_raise();
	why = map_refused(log, e.level, high);
	if (unlikely(why)) {
		local_irq_restore(flags);
		counts_give_back();
		report(_RET_IP_, LOG_REFUSED, "maps type %u with %s: not mapped, NULL returned",
		       type, why);
		return NULL;
	}
	if (unlikely(this_cpu_read(kmap_atomic_released)) && high)
		addr = map_into_released(pfn, tagged_prot);
	if (!addr)
		addr = page ? __kmap_local_page_prot(page, tagged_prot) :
			      __kmap_local_pfn_prot(pfn, tagged_prot);
	e.idx = kmap_atomic_is_local((unsigned long)addr & PAGE_MASK) ?
		kmap_atomic_local_entry((unsigned long)addr) : KM_LOG_LOWMEM;
	log->e[log->n++] = e;
	local_irq_restore(flags);
	return addr;
}
EXPORT_SYMBOL(kmap_atomic_any_order);

/* The newest kmap_local entry of @level that maps @vaddr's page, or -1. */
static int entry_at(struct kmap_atomic_log *log, u16 level, unsigned long vaddr)
{
	unsigned int i;

	for (i = log->n; i-- > 0;)
		if (log->e[i].level == level && !is_lowmem_entry(&log->e[i]) &&
		    kmap_atomic_local_addr(log->e[i].idx) == vaddr)
			return i;
	return -1;
}

/*
 * For an address that is no entry of this level: the newest lowmem entry
 * of @type, else the newest entry of @type, else the newest lowmem entry,
 * else the newest entry; -1 if this level has none.
 */
static int entry_by_type(struct kmap_atomic_log *log, u16 level, unsigned int type)
{
	int i, best = -1, rank = 0;

	for (i = log->n - 1; i >= 0; i--) {
		const struct kmap_atomic_entry *e = &log->e[i];
		int r = 1 + is_lowmem_entry(e) + 2 * (e->type == type);

		if (e->level == level && r > rank) {
			rank = r;
			best = i;
		}
	}
	return best;
}

/* How many maps' counts the task's log, and this NMI-class log, still owe. */
static int counts_owed(struct kmap_atomic_log *log)
{
	struct kmap_atomic_log *task_log = &current->kmap_ctrl.typed_log;

	return task_log->n + (log != task_log ? log->n : 0);
}

/* What a typed unmap of an address stands for. */
enum unmap_kind {
	UNMAP_ENTRY,		/* an entry of this level, by its address */
	UNMAP_END,		/* an entry of this level, by its end pointer */
	UNMAP_LOWMEM,		/* a lowmem address for a lowmem entry: 2.6's rule */
	UNMAP_WRONG,		/* another address, for an entry of this level */
	UNMAP_ONE_ARG,		/* the top of the stack, a one-argument kmap_atomic()'s */
	UNMAP_NOTHING,		/* nothing of this level: touch nothing */
};

/* Which entry an unmap of @addr as @type releases (*@i): see kunmap_atomic_any_order(). */
static enum unmap_kind pick(struct kmap_atomic_log *log, const void *addr, unsigned int type,
			    u16 level, int *i)
{
	unsigned long vaddr = (unsigned long)addr & PAGE_MASK;
	int top = current->kmap_ctrl.idx - 1, idx = -1, end;
	pte_t pte;

	/*
	 * The address of one map is the end of the map above it (kmap_local's
	 * stack grows down): the type says which was meant.
	 */
	*i = entry_at(log, level, vaddr);
	end = offset_in_page(addr) ? -1 : entry_at(log, level, vaddr - PAGE_SIZE);
	if (*i >= 0 && !(end >= 0 && log->e[*i].type != type && log->e[end].type == type))
		return UNMAP_ENTRY;
	if (kmap_atomic_is_local(vaddr)) {
		idx = kmap_atomic_local_entry(vaddr);
		if (idx < 0 || idx >= KM_MAX_IDX)
			idx = -1;	/* another CPU's: a wrong pointer */
	}
	/*
	 * An entry of this task's stack that no typed map of this level holds:
	 * released at this level, it was unmapped twice; an untagged map at the
	 * top while page faults are off more often than the typed maps owe (a
	 * one-argument kmap_atomic() disabled them), that map, never an outer
	 * kmap_local_page() under typed maps of lowmem pages; released at
	 * another level or another level's typed map, a stale pointer, unless
	 * it is the end of a map of this level. A guard page of
	 * DEBUG_KMAP_LOCAL (none) is no entry.
	 */
	if (*i < 0 && idx >= 0 && idx <= top) {
		pte = current->kmap_ctrl.pteval[idx];
		if (pte_val(pte) == pte_val(released_pte()))
			return UNMAP_NOTHING;
		if (idx == top && pte_present(pte) && !tagged(pte) &&
		    current->pagefault_disabled > counts_owed(log))
			return UNMAP_ONE_ARG;
		if (end < 0 && !pte_none(pte) && (!pte_present(pte) || tagged(pte)))
			return UNMAP_NOTHING;
	}
	*i = end;
	if (*i >= 0)
		return UNMAP_END;
	/* A free entry of this CPU's: unmapped twice. */
	if (idx > top)
		return UNMAP_NOTHING;
	*i = entry_by_type(log, level, type);
	if (*i < 0)
		return UNMAP_NOTHING;
	if (kmap_atomic_is_lowmem(vaddr) && is_lowmem_entry(&log->e[*i]))
		return UNMAP_LOWMEM;
	return UNMAP_WRONG;
}

/**
 * kunmap_atomic_any_order - kunmap_atomic(addr, type) without the slots
 * @addr: the address kmap_atomic(page, type) returned, or one inside its page
 * @type: the slot named
 *
 * Release one map of this context from the map log and give back one
 * map's counts (preemption, or migration on PREEMPT_RT, and page faults).
 * Which map: the newest whose page holds @addr (or the one whose end it
 * is, if that one has @type and this one not); else, for an entry of this
 * task's kmap_local stack, none if it is released or another context's
 * typed map (unmapped twice, a stale pointer), and the entry itself if it
 * is the top (a one-argument kmap_atomic()'s, released as
 * kunmap_atomic(addr) would); else the newest whose page holds @addr - 1
 * (an end pointer); else none for a free kmap_local address of this CPU;
 * else (lowmem, vmalloc, module, an outer kmap_local_page()'s under the
 * top, another CPU's) the newest lowmem map of @type, the newest map of
 * @type, the newest lowmem map, the newest map: 2.6's rule for a lowmem
 * pointer and a lowmem map, else a wrong pointer. Only this context's
 * typed maps are taken, never an outer kmap_local_page() under the top. A
 * kmap_local entry under the top is cleared and flushed now (it faults
 * from here on) and popped once the entries above it are gone. Every
 * misuse is reported; an unmap that stands for no map touches nothing.
 */
void kunmap_atomic_any_order(const void *addr, unsigned int type)
{
	struct kmap_atomic_entry e = {};
	struct kmap_atomic_log *log;
	u16 level = log_level();
	enum unmap_kind kind;
	unsigned long flags;
	int i;

	local_irq_save(flags);
	log = this_log();
	log_trim(log, level);
	kind = pick(log, addr, min_t(unsigned int, type, KM_TYPE_NR), level, &i);
	if (kind == UNMAP_ONE_ARG)
		kunmap_local_indexed(addr);
	if (i >= 0) {
		e = log->e[i];
		release_entry(log, i);
	}
	local_irq_restore(flags);

	switch (kind) {
	case UNMAP_NOTHING:
		report(_RET_IP_, LOG_NOTHING,
		       "unmaps %p from type %u, which stands for no map of this context (unmapped twice, a stale pointer?): nothing changed",
		       addr, type);
		return;
	case UNMAP_ONE_ARG:
		report(_RET_IP_, LOG_UNMAP,
		       "unmaps %p from type %u, a one-argument kmap_atomic()'s mapping (use kunmap_atomic(addr)): released as that, its counts given back",
		       addr, type);
		break;
	case UNMAP_WRONG:
		report(_RET_IP_, LOG_UNMAP,
		       "unmaps %p from type %u, no address of a map of this context (the wrong pointer?): the map of type %u from %pS released, its counts given back",
		       addr, type, e.type, (void *)e.ip);
		break;
	case UNMAP_END:
		report(_RET_IP_, LOG_UNMAP,
		       "unmaps %p from type %u, the end of the map from %pS (an end pointer?): released, its counts given back",
		       addr, type, (void *)e.ip);
		break;
	case UNMAP_ENTRY:
		if (e.type != min_t(unsigned int, type, KM_TYPE_NR))
			report(_RET_IP_, LOG_UNMAP,
			       "unmaps %p from type %u, but %pS mapped it as type %u (the wrong type?): released, its counts given back",
			       addr, type, (void *)e.ip, e.type);
		break;
	case UNMAP_LOWMEM:
		break;
	}
	counts_give_back();
}
EXPORT_SYMBOL(kunmap_atomic_any_order);

/**
 * kunmap_atomic_any_order_one - kunmap_atomic(addr) while the task has typed maps
 * @addr: the address a map returned
 *
 * The one-argument unmap gives back one map's counts. Given a typed map's
 * address (any byte of its page), or an address that is no kmap_local one
 * while every page-fault disable of this context is one of its typed maps
 * (so that the unmap can stand for nothing else: its newest lowmem map,
 * else its newest map), it releases that map, with its counts, as the
 * typed unmap would: 2.6's lowmem rule for a lowmem map and a lowmem
 * address, a report otherwise. Anything else is upstream's
 * kunmap_atomic(addr).
 */
void kunmap_atomic_any_order_one(const void *addr)
{
	unsigned long vaddr = (unsigned long)addr & PAGE_MASK;
	struct kmap_atomic_entry e;
	struct kmap_atomic_log *log;
	u16 level = log_level();
	bool by_address = true;
	unsigned long flags;
	int i;

	local_irq_save(flags);
	log = this_log();
	log_trim(log, level);
	i = entry_at(log, level, vaddr);
	if (i < 0 && !kmap_atomic_is_local(vaddr) && level_all_typed(log, level)) {
		i = entry_by_type(log, level, UINT_MAX);
		by_address = false;
	}
	if (i >= 0) {
		e = log->e[i];
		release_entry(log, i);
	}
	local_irq_restore(flags);

	if (i < 0) {
		kunmap_atomic_untyped(addr);
		return;
	}
	if (by_address)
		report(_RET_IP_, LOG_UNMAP,
		       "unmaps %p with the one-argument kunmap_atomic(), but %pS mapped it as type %u: released, its counts given back",
		       addr, (void *)e.ip, e.type);
	else if (!kmap_atomic_is_lowmem(vaddr) || !is_lowmem_entry(&e))
		report(_RET_IP_, LOG_UNMAP,
		       "unmaps %p with the one-argument kunmap_atomic(), no address of a map of this context, while all its counts are its typed maps': the map of type %u from %pS released, its counts given back",
		       addr, e.type, (void *)e.ip);
	counts_give_back();
}
EXPORT_SYMBOL(kunmap_atomic_any_order_one);

/* The newest entry of @level or of a level nested in it, or -1. */
static int newest_from(struct kmap_atomic_log *log, u16 level)
{
	int i;

	for (i = log->n - 1; i >= 0; i--)
		if (log->e[i].level >= level)
			return i;
	return -1;
}

/**
 * __kmap_atomic_log_end - release what a context leaves in the map log
 * @end: where it ends
 *
 * Called through kmap_atomic_check_leaks() where a context ends while its
 * map log holds an entry: the entries of the ending level, and of any
 * level nested in it, are released, newest first, each with one map's
 * counts, and reported with its call site (without a WARN for a task an
 * oops kills).
 */
void __kmap_atomic_log_end(enum kmap_atomic_context_end end)
{
	u16 level = log_level();
	struct kmap_atomic_entry e;
	struct kmap_atomic_log *log;
	unsigned long flags;
	int i;

	local_irq_save(flags);
	log = this_log();
	while ((i = newest_from(log, level)) >= 0) {
		log_trim(log, log->e[i].level);
		i = newest_from(log, level);
		if (i < 0)
			break;
		e = log->e[i];
		release_entry(log, i);
		if (end == KMAP_END_TASK_DIES) {
			kmap_atomic_report_count();
			pr_emerg("kmap_atomic: %pS maps type %u, still held as its task dies of an oops: released\n",
				 (void *)e.ip, e.type);
		} else {
			report(e.ip, LOG_LEAK,
			       "maps type %u and never unmaps it: released where its context ends, its counts given back",
			       e.type);
		}
		counts_give_back();
	}
	local_irq_restore(flags);
}
EXPORT_SYMBOL(__kmap_atomic_log_end);
NOKPROBE_SYMBOL(__kmap_atomic_log_end);
#endif
