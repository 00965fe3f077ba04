// SPDX-License-Identifier: GPL-2.0
// expect: error no such slot
#include <linux/highmem.h>
#include <linux/module.h>

void bad_type(struct page *page);
void bad_type(struct page *page)
{
	void *p = kmap_atomic(page, KM_TYPE_NR);

	kunmap_atomic(p, KM_USER0);
}
MODULE_LICENSE("GPL");
