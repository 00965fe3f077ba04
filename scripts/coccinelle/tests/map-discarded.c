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
