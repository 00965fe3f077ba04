// SPDX-License-Identifier: GPL-2.0
// expect: error no such slot
#include <linux/highmem.h>
#include <linux/module.h>

void bad_type(struct page *page);
void bad_type(struct page *page)
{
	void *p = kmap_atomic(page, KM_USER0);

	kunmap_atomic(p, (enum km_type)42);
}
MODULE_LICENSE("GPL");
