/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86-32 half of the typed atomic kmaps (mm/kmap_atomic.c): a slot's
 * pte and the one TLB flush a map needs.
 */
#ifndef _ASM_X86_KMAP_ATOMIC_H
#define _ASM_X86_KMAP_ATOMIC_H

#include <linux/cpufeature.h>
#include <linux/pfn.h>
#include <linux/pgtable.h>
#include <linux/vmstat.h>
#include <asm/tlbflush.h>

/*
 * pfn_pte() less its PROT_NONE (L1TF) pfn inversion, which a present
 * kernel mapping never needs.
 */
static __always_inline pte_t arch_kmap_atomic_pte(unsigned long pfn, pgprot_t prot)
{
	pteval_t protval = pgprot_val(prot);

	if (protval & _PAGE_PRESENT)
		protval &= __supported_pte_mask;
	return __pte(PFN_PHYS(pfn) | protval);
}

/*
 * Drop this CPU's TLB entry for one slot. flush_tlb_one_kernel() is two
 * calls deep and tests PTI twice; without PTI or a paravirt TLB it comes
 * to one INVLPG, done here inline.
 */
static __always_inline void arch_kmap_atomic_flush(unsigned long vaddr)
{
	if (IS_ENABLED(CONFIG_PARAVIRT_XXL) || static_cpu_has(X86_FEATURE_PTI)) {
		flush_tlb_one_kernel(vaddr);
		return;
	}
	count_vm_tlb_event(NR_TLB_LOCAL_FLUSH_ONE);
	asm volatile("invlpg (%0)" : : "r" (vaddr) : "memory");
}

#endif /* _ASM_X86_KMAP_ATOMIC_H */
