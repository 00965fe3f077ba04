// SPDX-License-Identifier: GPL-2.0
// Must catch: one slot mapped twice at once, the 2.6 bug the slots bring.
#include <linux/highmem.h>

void copy_one_slot(struct page *to, struct page *from)
{
	char *vfrom, *vto;

	vfrom = kmap_atomic(from, KM_USER0);
	vto = kmap_atomic(to, KM_USER0);	// EXPECT: slot-reuse
	copy_page(vto, vfrom);
	kunmap_atomic(vto, KM_USER0);
	kunmap_atomic(vfrom, KM_USER0);
}

void xor_one_slot(struct page *a, struct page *b)
{
	u32 *pa = kmap_atomic(a, KM_SOFTIRQ0);
	u32 *pb = kmap_atomic_prot(b, KM_SOFTIRQ0, PAGE_KERNEL_RO);	// EXPECT: slot-reuse

	pa[0] ^= pb[0];
	kunmap_atomic(pb, KM_SOFTIRQ0);
	kunmap_atomic(pa, KM_SOFTIRQ0);
}

/* Unmapped on one path only before the second map. */
void sum_two(struct page *a, struct page *b, bool first, u32 *sum)
{
	u32 *p = kmap_atomic(a, KM_USER1);

	*sum = p[0];
	if (first)
		kunmap_atomic(p, KM_USER1);
	p = kmap_atomic(b, KM_USER1);	// EXPECT: slot-reuse
	*sum += p[0];
	kunmap_atomic(p, KM_USER1);
}
