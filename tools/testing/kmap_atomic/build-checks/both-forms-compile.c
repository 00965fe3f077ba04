// SPDX-License-Identifier: GPL-2.0
// expect: compiles
/* The typed and the one-argument forms side by side, in one file. */
#include <linux/highmem.h>
#include <linux/module.h>

void both_forms(struct page *page);
void both_forms(struct page *page)
{
	void *a = kmap_atomic(page);
	void *b = kmap_atomic(page, KM_USER0);
	void *c = kmap_atomic_prot(page, kmap_prot);
	void *d = kmap_atomic_prot(page, KM_USER1, kmap_prot);
	void *e = kmap_atomic_pfn(page_to_pfn(page), KM_SOFTIRQ0);

	kunmap_atomic(e, KM_SOFTIRQ0);
	kunmap_atomic(d, KM_USER1);
	kunmap_atomic(c);
	kunmap_atomic(b, KM_USER0);
	kunmap_atomic(a);
	WARN_ON(kmap_atomic_to_page(b) != page);
}
MODULE_LICENSE("GPL");
