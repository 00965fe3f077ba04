// SPDX-License-Identifier: GPL-2.0
// Must leave alone: a slot mapped again after its unmap, in sequence and
// in a loop; two different slots at once; maps on different branches; a
// lowmem page mapped in a slot that is held (it takes no slot).
#include <linux/highmem.h>

void copy_two_slots(struct page *to, struct page *from)
{
	char *vfrom, *vto;

	vfrom = kmap_atomic(from, KM_USER0);
	vto = kmap_atomic(to, KM_USER1);
	copy_page(vto, vfrom);
	kunmap_atomic(vto, KM_USER1);
	kunmap_atomic(vfrom, KM_USER0);
}

u32 sum_pages(struct page **pages, int n)
{
	u32 *p, sum = 0;
	int i;

	p = kmap_atomic(pages[0], KM_USER0);
	sum = p[0];
	kunmap_atomic(p, KM_USER0);
	for (i = 1; i < n; i++) {
		p = kmap_atomic(pages[i], KM_USER0);
		sum += p[0];
		kunmap_atomic(p, KM_USER0);
	}
	return sum;
}

u32 read_either(struct page *a, struct page *b, bool first)
{
	u32 *p, v;

	if (first)
		p = kmap_atomic(a, KM_USER0);
	else
		p = kmap_atomic(b, KM_USER0);
	v = p[0];
	kunmap_atomic(p, KM_USER0);
	return v;
}

void zero_page_over_held(struct page *page, void *other)
{
	u32 *p;

	p = kmap_atomic(page, KM_USER0);
	kmap_atomic(ZERO_PAGE(0), KM_USER0);
	kunmap_atomic(other, KM_USER0);
	p[0] = 0;
	kunmap_atomic(p, KM_USER0);
}
