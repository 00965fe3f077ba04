// SPDX-License-Identifier: GPL-2.0
// Must catch: a map whose address is thrown away.
#include <linux/highmem.h>

void warm_page(struct page *page)
{
	kmap_atomic(page, KM_USER0);	// EXPECT: map-discarded
}

void warm_pfn(unsigned long pfn)
{
	(void)kmap_atomic_pfn(pfn, KM_USER1);	// EXPECT: map-discarded
}

void warm_ro(struct page *page)
{
	(void)kmap_atomic_prot(page, KM_PTE0, PAGE_KERNEL_RO);	// EXPECT: map-discarded
}

/* A highmem page (or one that may be) keeps its slot: still found. */
void warm_highmem(void)
{
	struct page *pg = alloc_page(GFP_HIGHUSER);

	(void)kmap_atomic(pg, KM_USER0);	// EXPECT: map-discarded
}

void warm_caller_gfp(gfp_t gfp)
{
	struct page *pg = alloc_page(gfp);

	kmap_atomic(pg, KM_USER1);	// EXPECT: map-discarded
}

/* kmap_atomic_pfn() takes its slot even for a lowmem frame. */
void warm_zero_pfn(void)
{
	(void)kmap_atomic_pfn(page_to_pfn(ZERO_PAGE(0)), KM_USER0);	// EXPECT: map-discarded
}
