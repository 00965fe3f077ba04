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

/* kmap_local's slots and the typed ones: the fixmap pages kmaps use. */
static bool is_fixmap_kmap_addr(unsigned long vaddr)
{
	if (vaddr >= __fix_to_virt(FIX_KMAP_END) &&
	    vaddr < __fix_to_virt(FIX_KMAP_BEGIN) + PAGE_SIZE)
		return true;
#ifdef CONFIG_KMAP_ATOMIC_SLOTS
	if (vaddr >= __fix_to_virt(FIX_KMAP_ATOMIC_END) &&
	    vaddr < __fix_to_virt(FIX_KMAP_ATOMIC_BEGIN) + PAGE_SIZE)
		return true;
#endif
	return false;
}

/**
 * kmap_atomic_to_page - the page behind an address
 * @addr: an address inside a page mapped by kmap_atomic(page, type),
 *	kmap_atomic(page), kmap_local_page() or kmap(), or a lowmem, vmalloc
 *	or module address
 *
 * Reads the kernel's pte for the kmap slots in the fixmap (every CPU's
 * typed slots and kmap_local slots) and for kmap()'s range, so it is right
 * for any CPU's mapping, and takes nothing from the current task's
 * kmap_local stack.
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
	unsigned long pfn;
	pte_t *ptep;
	pte_t pte;

	if (vaddr >= PAGE_OFFSET && vaddr < (unsigned long)high_memory)
		return virt_to_page(addr);
	if (is_vmalloc_or_module_addr(addr)) {
		/* ioremap() and vmap_pfn() map frames that have no page. */
		pfn = vmalloc_to_pfn(addr);
		return pfn && pfn_valid(pfn) ? pfn_to_page(pfn) : NULL;
	}
	if (!is_kmap_addr(addr) && !is_fixmap_kmap_addr(vaddr))
		return NULL;

	ptep = virt_to_kpte(vaddr);
	if (!ptep)
		return NULL;
	/* Another CPU's slot may change meanwhile: no torn PAE pte. */
	pte = ptep_get_lockless(ptep);
	if (!pte_present(pte) || !pfn_valid(pte_pfn(pte)))
		return NULL;
	return pte_page(pte);
}
EXPORT_SYMBOL(kmap_atomic_to_page);
