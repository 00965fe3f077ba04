// SPDX-License-Identifier: GPL-2.0
/*
 * Typed maps that live on kmap_local's stack: every typed map of a kernel
 * without the slots (CONFIG_KMAP_ATOMIC_SLOTS=n), and a slots kernel's
 * fallbacks for misuse (mm/kmap_atomic.c).
 *
 * kmap_local releases its entries in reverse order only: its unmap clears
 * the pte of the top entry and flushes the address it is given. 2.6's
 * typed slots were independent, and correct 2.6 code released them in any
 * order (copy_user_highpage() unmapped KM_USER0 before KM_USER1). So a
 * typed unmap of an entry under the top clears and flushes that entry's
 * own pte at once and leaves the entry on the stack, marked released,
 * until it is the top; kunmap_local_indexed() then pops it
 * (kmap_atomic_pop_released()).
 */
#include <linux/export.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>

#include "kmap_atomic.h"

#ifndef arch_kmap_local_post_unmap
#error "typed atomic kmaps need arch_kmap_local_post_unmap(), the flush after an unmap"
#endif
/* kmap_atomic_local_addr() below gives kmap_local's stack its default index. */
#ifdef arch_kmap_local_map_idx
#error "kmap_atomic_local_addr() assumes the default kmap_local_calc_idx()"
#endif

/* Is @vaddr in kmap_local's fixmap range (kmap_local_page(), kmap_atomic(page))? */
bool kmap_atomic_is_local(unsigned long vaddr)
{
	return vaddr >= __fix_to_virt(FIX_KMAP_END) && vaddr <= __fix_to_virt(FIX_KMAP_BEGIN);
}

/*
 * The address of entry @idx of this task's kmap_local stack, at the index
 * mm/highmem.c gives it (kmap_local_calc_idx(), which x86 does not
 * override), and its inverse.
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
 * interrupt level it was mapped at, until it is the top: then it is popped
 * by the next release at that level, typed unmap or kunmap_local(), never
 * by an interrupt that finds it there. Its entry keeps the task on this
 * CPU meanwhile.
 */
static pte_t released_pte(void)
{
	unsigned int level = kmap_atomic_level();
	pteval_t v = _PAGE_SOFTW1;	/* software bits only: no frame */

	if (level & NMI_MASK)
		v |= _PAGE_SOFTW2 | _PAGE_SOFTW3;
	else if (level & HARDIRQ_MASK)
		v |= _PAGE_SOFTW3;
	else if (level)
		v |= _PAGE_SOFTW2;
	return __pte(v);
}

/* How many released entries wait on this CPU, for the cheap test inline. */
DEFINE_PER_CPU(unsigned int, kmap_atomic_released);
EXPORT_PER_CPU_SYMBOL(kmap_atomic_released);

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
EXPORT_SYMBOL(__kmap_atomic_pop_released);

/*
 * Release an entry that is not the top: unmapped now, popped later. An
 * entry of this task's stack that still maps what it was mapped with.
 * Interrupts are off.
 */
void kmap_atomic_release_buried(unsigned long vaddr)
{
	int idx = kmap_atomic_local_entry(vaddr);

	pte_clear(&init_mm, vaddr, virt_to_kpte(vaddr));
	arch_kmap_local_post_unmap(vaddr);
	current->kmap_ctrl.pteval[idx] = released_pte();
	this_cpu_inc(kmap_atomic_released);
}

#ifndef CONFIG_KMAP_ATOMIC_SLOTS
/* A live entry of this task's stack under the top (not the top itself)? */
static bool buried_entry(unsigned long vaddr)
{
	int idx;

	if (!kmap_atomic_is_local(vaddr))
		return false;
	idx = kmap_atomic_local_entry(vaddr);
	return idx >= 0 && idx < current->kmap_ctrl.idx - 1 &&
	       pte_present(current->kmap_ctrl.pteval[idx]);
}

/**
 * kunmap_atomic_any_order - kunmap_atomic(addr, type) without the slots
 * @addr: the address kmap_atomic(page, type) returned
 *
 * Without CONFIG_KMAP_ATOMIC_SLOTS the typed map is kmap_atomic(page),
 * an entry of kmap_local's stack. Release it in any order, as 2.6's slots
 * could be: the top entry as kunmap_atomic(addr) does, one under it by
 * clearing and flushing its own pte now (it faults from here on) and
 * popping it once the entries above it are gone. Then page faults and
 * preemption (migration on PREEMPT_RT) come back on, as the one-argument
 * kunmap_atomic() does. A lowmem address only does the latter (2.6's
 * rule).
 */
void kunmap_atomic_any_order(const void *addr)
{
	unsigned long vaddr = (unsigned long)addr & PAGE_MASK;
	unsigned long flags;
	bool buried;

	/* An interrupt's maps and unmaps between the test and the release nest. */
	local_irq_save(flags);
	buried = buried_entry(vaddr);
	if (buried)
		kmap_atomic_release_buried(vaddr);
	local_irq_restore(flags);
	if (!buried) {
		__kunmap_atomic(addr);
		return;
	}
	pagefault_enable();
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		migrate_enable();
	else
		preempt_enable();
}
EXPORT_SYMBOL(kunmap_atomic_any_order);
#endif
