// SPDX-License-Identifier: GPL-2.0
// expect: error __same_type
#include <linux/highmem.h>
#include <linux/module.h>

void unmap_page(struct page *page);
void unmap_page(struct page *page)
{
	kmap_atomic(page, KM_USER0);
	kunmap_atomic(page, KM_USER0);	/* the page, not the address */
}
MODULE_LICENSE("GPL");
