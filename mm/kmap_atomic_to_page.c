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

/**
 * kmap_atomic_to_page - the page behind an address
 * @addr: an address inside a page mapped by kmap_atomic(page, type),
 *	kmap_atomic(page), kmap_local_page() or kmap(), or a lowmem, vmalloc
 *	or module address
 *
 * Reads the kernel's pte for the fixmap (every CPU's typed slots and
 * kmap_local slots) and for kmap()'s range, so it is right for any CPU's
 * mapping, and takes nothing from the current task's kmap_local stack.
 * Any context.
 *
 * Return: the page, or NULL if @addr maps no page: a fixmap or kmap()
 * address whose pte is none (an unmapped slot) or not RAM, a user address,
 * or any other address outside the ranges above.
 */
struct page *kmap_atomic_to_page(void *addr)
{
	unsigned long vaddr = (unsigned long)addr;
	pte_t *ptep;
	pte_t pte;

	if (vaddr >= PAGE_OFFSET && vaddr < (unsigned long)high_memory)
		return virt_to_page(addr);
	if (is_vmalloc_or_module_addr(addr))
		return vmalloc_to_page(addr);
	if (!is_kmap_addr(addr) && (vaddr < FIXADDR_START || vaddr >= FIXADDR_TOP))
		return NULL;

	ptep = virt_to_kpte(vaddr);
	if (!ptep)
		return NULL;
	pte = ptep_get(ptep);
	if (!pte_present(pte) || !pfn_valid(pte_pfn(pte)))
		return NULL;
	return pte_page(pte);
}
EXPORT_SYMBOL(kmap_atomic_to_page);
