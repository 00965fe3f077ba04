// SPDX-License-Identifier: GPL-2.0
/*
 * Typed maps that live on kmap_local's stack: every typed map of a kernel
 * without the slots (CONFIG_KMAP_ATOMIC_SLOTS=n), and a slots kernel's
 * fallbacks for misuse (mm/kmap_atomic/core.c). CONFIG_KMAP_ATOMIC_ANY_ORDER:
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
#include <linux/bits.h>
#include <linux/export.h>
#include <linux/highmem.h>
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
 * What typed map each entry of the task's kmap_local stack is, for an
 * unmap by the wrong pointer (2.6's kunmap_atomic(buf, KM_USER0)): its
 * type, how many typed maps of lowmem pages (which take no entry) its
 * context made after it and holds still, and its interrupt level. Valid
 * while the entry's pte carries the tag, which a kmap_local_page() at the
 * same index never does. Interrupts are off wherever they are read or
 * written.
 */
#define KEY_TYPE		GENMASK(7, 0)
#define KEY_LOWMEM		GENMASK(15, 8)
#define KEY_LOWMEM_ONE		BIT(8)
#define KEY_LEVEL		GENMASK(31, 16)
#define KEY_LEVEL_SHIFT		16

static u32 level_key(void)
{
	BUILD_BUG_ON(KM_TYPE_NR >= KEY_TYPE);
	return (kmap_atomic_level() >> SOFTIRQ_SHIFT) << KEY_LEVEL_SHIFT;
}

static bool tagged(pte_t pte)
{
	return pte_present(pte) && (pte_val(pte) & arch_kmap_atomic_fallback_tag);
}

/* This context's last typed entry on the stack at or under @top, or -1. */
static int last_typed_entry(int top)
{
	u32 level = level_key();
	int i;

	for (i = top; i >= 0; i--)
		if (tagged(current->kmap_ctrl.pteval[i]) &&
		    (current->kmap_ctrl.typed_key[i] & KEY_LEVEL) == level)
			return i;
	return -1;
}

/*
 * Entry @idx is released: the lowmem maps counted on it go to the typed
 * entry of its context under it, which they were made after too.
 */
static void pass_lowmem_down(int idx)
{
	u32 lowmem = current->kmap_ctrl.typed_key[idx] & KEY_LOWMEM;
	u32 *key;
	int under;

	if (!lowmem || !tagged(current->kmap_ctrl.pteval[idx]))
		return;
	under = last_typed_entry(idx - 1);
	if (under < 0)
		return;
	key = &current->kmap_ctrl.typed_key[under];
	*key += min_t(u32, lowmem, KEY_LOWMEM - (*key & KEY_LOWMEM));
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

/**
 * kmap_atomic_any_order - kmap_atomic(page, type) without the slots
 * @page: the page to map, or NULL for kmap_atomic_pfn(pfn, type)
 * @pfn: its frame
 * @prot: the protection
 * @type: the slot named, kept for an unmap by the wrong pointer
 *
 * The one-argument kmap_atomic_prot(page, prot), or kmap_atomic_pfn(pfn),
 * into a released entry of kmap_local's stack at this interrupt level if
 * there is one, else a new entry: preemption (migration on PREEMPT_RT)
 * and page faults off until kunmap_atomic_any_order(). A lowmem page gives
 * page_address(), as there.
 *
 * Return: the address of the mapping.
 */
void *kmap_atomic_any_order(struct page *page, unsigned long pfn, pgprot_t prot,
			    unsigned int type)
{
	pgprot_t tagged_prot = __pgprot(pgprot_val(prot) | arch_kmap_atomic_fallback_tag);
	unsigned long flags;
	void *addr = NULL;
	int idx;

	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		migrate_disable();
	else
		preempt_disable();
	pagefault_disable();
	/* An interrupt's maps and unmaps in between nest; its keys are its own. */
	local_irq_save(flags);
	if (unlikely(this_cpu_read(kmap_atomic_released)) && (!page || PageHighMem(page)))
		addr = map_into_released(pfn, tagged_prot);
	if (!addr)
		addr = page ? __kmap_local_page_prot(page, tagged_prot) :
			      __kmap_local_pfn_prot(pfn, tagged_prot);
	if (kmap_atomic_is_local((unsigned long)addr & PAGE_MASK)) {
		idx = kmap_atomic_local_entry((unsigned long)addr);
		current->kmap_ctrl.typed_key[idx] = min_t(unsigned int, type, KM_TYPE_NR) |
						     level_key();
	} else {
		/* A lowmem page takes no entry: count it on the last one. */
		idx = last_typed_entry(current->kmap_ctrl.idx - 1);
		if (idx >= 0 && (current->kmap_ctrl.typed_key[idx] & KEY_LOWMEM) != KEY_LOWMEM)
			current->kmap_ctrl.typed_key[idx] += KEY_LOWMEM_ONE;
	}
	local_irq_restore(flags);
	return addr;
}
EXPORT_SYMBOL(kmap_atomic_any_order);

static atomic_long_t reports;

/**
 * kmap_atomic_reports() - how many misuses of typed atomic kmaps were reported
 *
 * Return: without the slots, the count since boot of typed unmaps of an
 * address that mapped nothing of the task's (the first is printed). For
 * tests.
 */
unsigned long kmap_atomic_reports(void)
{
	return atomic_long_read(&reports);
}
EXPORT_SYMBOL(kmap_atomic_reports);

/* What a typed unmap finds at an address. */
enum local_entry {
	ENTRY_TOP,	/* the top of the stack, or no kmap_local address */
	ENTRY_UNDER,	/* a mapping of this task's under the top */
	ENTRY_GONE,	/* a kmap_local address that maps nothing of this task's */
};

static enum local_entry local_entry(unsigned long vaddr)
{
	int idx, top = current->kmap_ctrl.idx - 1;

	if (!kmap_atomic_is_local(vaddr))
		return ENTRY_TOP;
	idx = kmap_atomic_local_entry(vaddr);
	if (idx < 0 || idx > top || !pte_present(current->kmap_ctrl.pteval[idx]))
		return ENTRY_GONE;
	return idx == top ? ENTRY_TOP : ENTRY_UNDER;
}

/*
 * The entry an unmap by a pointer outside kmap_local's range stands for:
 * this context's last typed entry, if it is of @type and no typed map of
 * a lowmem page made after it is held (2.6's rule: that pointer is for
 * one of those, which is counted off); else -1. Interrupts are off.
 */
static int wrong_pointer_entry(unsigned int type)
{
	int last = last_typed_entry(current->kmap_ctrl.idx - 1);
	u32 *key;

	if (last < 0)
		return -1;
	key = &current->kmap_ctrl.typed_key[last];
	if (*key & KEY_LOWMEM) {
		*key -= KEY_LOWMEM_ONE;
		return -1;
	}
	return (*key & KEY_TYPE) == min_t(unsigned int, type, KM_TYPE_NR) ? last : -1;
}

/**
 * kunmap_atomic_any_order - kunmap_atomic(addr, type) without the slots
 * @addr: the address kmap_atomic(page, type) returned, or one inside its page
 * @type: the slot named
 *
 * Release the mapping in any order, as 2.6's slots could be: the top
 * entry as kunmap_atomic(addr) does, one under it by clearing and
 * flushing its own pte now (it faults from here on) and popping it once
 * the entries above it are gone. Then page faults and preemption
 * (migration on PREEMPT_RT) come back on, as with the one-argument
 * kunmap_atomic(). Any other address (lowmem) only does the latter
 * (2.6's rule), unless this context's last typed map is a kmap_local
 * entry of @type with no lowmem typed map after it: a wrong pointer,
 * reported, which releases that map, as the slots do, so that a loop of
 * them leaves nothing on the stack. An address of
 * kmap_local's range that maps nothing of this task's (an unmap of a
 * mapping already released) is reported and changes nothing, the counts
 * included.
 */
void kunmap_atomic_any_order(const void *addr, unsigned int type)
{
	unsigned long vaddr = (unsigned long)addr & PAGE_MASK;
	enum local_entry entry;
	unsigned long flags;
	int wrong = -1;

	/* An interrupt's maps and unmaps between the test and the release nest. */
	local_irq_save(flags);
	entry = local_entry(vaddr);
	if (entry == ENTRY_TOP && !kmap_atomic_is_local(vaddr))
		wrong = wrong_pointer_entry(type);
	else if (entry != ENTRY_GONE)
		pass_lowmem_down(kmap_atomic_local_entry(vaddr));
	if (wrong >= 0 && wrong < current->kmap_ctrl.idx - 1)
		entry = ENTRY_UNDER;
	if (entry == ENTRY_UNDER)
		kmap_atomic_release_buried(wrong >= 0 ? kmap_atomic_local_addr(wrong) : vaddr);
	local_irq_restore(flags);
	if (wrong >= 0) {
		atomic_long_inc(&reports);
		WARN_ONCE(1, "kmap_atomic: %pS unmaps %p from type %u, no kmap_local address, while this context's last map is a kmap_local mapping of that type (the wrong pointer?): that map released, its counts given back\n",
			  (void *)_RET_IP_, addr, type);
	}
	switch (entry) {
	case ENTRY_TOP:
		__kunmap_atomic(wrong >= 0 ? (void *)kmap_atomic_local_addr(wrong) : addr);
		return;
	case ENTRY_GONE:
		atomic_long_inc(&reports);
		WARN_ONCE(1, "kmap_atomic: %pS unmaps %p, which maps nothing of this task's (unmapped twice?): nothing changed\n",
			  (void *)_RET_IP_, addr);
		return;
	case ENTRY_UNDER:
		break;
	}
	pagefault_enable();
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		migrate_enable();
	else
		preempt_enable();
}
EXPORT_SYMBOL(kunmap_atomic_any_order);
#endif
