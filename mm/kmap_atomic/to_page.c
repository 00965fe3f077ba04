// SPDX-License-Identifier: GPL-2.0
/*
 * kmap_atomic_to_page(): the page behind an address, whichever kind of
 * mapping gave it. Built with CONFIG_HIGHMEM, with or without the typed
 * slots; without HIGHMEM <linux/highmem-typed.h> has the inline form.
 */
#include <linux/export.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pgtable.h>

#include "kmap_atomic.h"

/*
 * The page that the kernel's page tables map at @vaddr, or NULL: nothing
 * mapped, or a frame without a struct page (ioremap(), vmap_pfn(), a
 * kmap_atomic_pfn() of MMIO). pfn_valid() comes before pfn_to_page(),
 * which with SPARSEMEM is no mere arithmetic; a pte of another CPU's slot
 * may change meanwhile, so it is read without tearing.
 */
static struct page *kernel_page_at(unsigned long vaddr)
{
	pgd_t *pgd = pgd_offset_k(vaddr);
	unsigned long pfn;
	p4d_t *p4d;
	pud_t *pud;
	pmd_t *pmd;
	pte_t pte;

	if (pgd_none(*pgd))
		return NULL;
	p4d = p4d_offset(pgd, vaddr);
	if (p4d_none(*p4d))
		return NULL;
	pud = pud_offset(p4d, vaddr);
	if (pud_none(*pud) || pud_leaf(*pud))
		return NULL;
	pmd = pmd_offset(pud, vaddr);
	if (pmd_none(*pmd))
		return NULL;
	if (pmd_leaf(*pmd)) {
		pfn = pmd_pfn(*pmd) + ((vaddr & ~PMD_MASK) >> PAGE_SHIFT);
	} else {
		pte = ptep_get_lockless(pte_offset_kernel(pmd, vaddr));
		if (!pte_present(pte))
			return NULL;
		pfn = pte_pfn(pte);
	}
	return pfn_valid(pfn) ? pfn_to_page(pfn) : NULL;
}

/* kmap_local's slots and the typed ones: the fixmap pages kmaps use. */
static bool is_fixmap_kmap_addr(unsigned long vaddr)
{
	return (vaddr >= __fix_to_virt(FIX_KMAP_END) &&
		vaddr < __fix_to_virt(FIX_KMAP_BEGIN) + PAGE_SIZE) ||
	       is_kmap_atomic_slot_addr(vaddr);
}

/**
 * kmap_atomic_to_page - the page behind an address
 * @addr: an address inside a page mapped by kmap_atomic(page, type),
 *	kmap_atomic(page), kmap_local_page() or kmap(), or a lowmem, vmalloc
 *	or module address
 *
 * Walks the kernel's page tables for vmalloc and module addresses, the kmap
 * slots in the fixmap (every CPU's typed slots and kmap_local slots) and
 * kmap()'s range, so it is right for any CPU's mapping, and takes nothing
 * from the current task's kmap_local stack.
 * Any context.
 *
 * Return: the page, or NULL if @addr maps no page: a kmap slot or kmap()
 * address whose pte is none (an unmapped slot) or whose frame has no
 * struct page, a vmalloc address of such a frame (ioremap()), a user
 * address, another fixmap address, or any other address outside the
 * ranges above.
 */
struct page *kmap_atomic_to_page(void *addr)
{
	unsigned long vaddr = (unsigned long)addr;

	if (kmap_atomic_is_lowmem(vaddr))
		return virt_to_page(addr);
	if (is_vmalloc_or_module_addr(addr) || is_kmap_addr(addr) ||
	    is_fixmap_kmap_addr(vaddr))
		return kernel_page_at(vaddr);
	return NULL;
}
EXPORT_SYMBOL(kmap_atomic_to_page);
