/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CONFIG_DEBUG_KMAP_ATOMIC: the typed map and unmap go through the checks
 * of mm/kmap_atomic/debug.c, lowmem pages included. Included by
 * <linux/highmem-typed.h> in place of its fast path; include
 * <linux/highmem.h> instead.
 */
#ifndef _LINUX_HIGHMEM_TYPED_DEBUG_H
#define _LINUX_HIGHMEM_TYPED_DEBUG_H

/*
 * Out of line, called from the inline functions below so that their
 * return address is the call site.
 */
void *__kmap_atomic_debug(struct page *page, unsigned long pfn,
			  enum km_type type, pgprot_t prot);
bool __kunmap_atomic_debug(const void *addr, enum km_type type);

static __always_inline void *__kmap_atomic_typed(struct page *page,
						 enum km_type type,
						 pgprot_t prot)
{
	kmap_atomic_counts_raise();
	return __kmap_atomic_debug(page, page_to_pfn(page), type, prot);
}

static __always_inline void *__kmap_atomic_default(struct page *page,
						   enum km_type type)
{
	return __kmap_atomic_typed(page, type, kmap_prot);
}

static __always_inline void *__kmap_atomic_pfn_typed(unsigned long pfn,
						     enum km_type type)
{
	kmap_atomic_counts_raise();
	return __kmap_atomic_debug(NULL, pfn, type, kmap_prot);
}

static __always_inline void __kunmap_atomic_typed(const void *addr,
						  enum km_type type)
{
	/* A misuse was reported there and changed nothing, counts included. */
	if (!__kunmap_atomic_debug(addr, type))
		return;
	kmap_atomic_counts_give_back();
}

#endif /* _LINUX_HIGHMEM_TYPED_DEBUG_H */
