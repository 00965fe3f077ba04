// SPDX-License-Identifier: GPL-2.0
// Must leave alone: every map's address kept, in a variable, an
// initialiser, an argument, a return.
#include <linux/highmem.h>

u32 peek(struct page *page)
{
	u32 *p = kmap_atomic(page, KM_USER0);
	u32 v = p[0];

	kunmap_atomic(p, KM_USER0);
	return v;
}

void fill(struct page *page, struct sg_mapping_iter *miter)
{
	miter->addr = kmap_atomic(page, KM_USER1);
}

void *map_for_caller(struct page *page)
{
	return kmap_atomic(page, KM_USER0);
}

/*
 * 2.6.32's shmem: a lowmem page mapped only to raise the counts that the
 * caller's later unmap of a lowmem pointer (into the inode) gives back.
 */
static inline void shmem_swp_balance_unmap(void)
{
	(void)kmap_atomic(ZERO_PAGE(0), KM_USER1);
}

void balance_with_kernel_page(void *kernel_buf)
{
	(void)kmap_atomic(virt_to_page(kernel_buf), KM_USER0);
}

void balance_with_own_page(void)
{
	struct page *pg = alloc_page(GFP_KERNEL | __GFP_ZERO);

	kmap_atomic(pg, KM_USER1);
}
