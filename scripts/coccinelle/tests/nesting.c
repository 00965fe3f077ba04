// SPDX-License-Identifier: GPL-2.0
// Must catch (kmap_atomic_to_local.cocci): typed pairs released in the
// order they were mapped, which kmap_local cannot take.
#include <linux/highmem.h>

void copy_highpage_26(struct page *to, struct page *from)
{
	char *vfrom, *vto;

	vfrom = kmap_atomic(from, KM_USER0);
	vto = kmap_atomic(to, KM_USER1);
	copy_page(vto, vfrom);
	kunmap_atomic(vfrom, KM_USER0);	// EXPECT: nesting
	kunmap_atomic(vto, KM_USER1);
}

void xor_pages(struct page *a, struct page *b)
{
	u32 *pa = kmap_atomic(a, KM_SOFTIRQ0);
	u32 *pb = kmap_atomic(b, KM_SOFTIRQ1);

	pb[0] ^= pa[0];
	kunmap_atomic(pa, KM_SOFTIRQ0);	// EXPECT: nesting
	kunmap_atomic(pb, KM_SOFTIRQ1);
}

/* A typed map among kmap_local ones: not converted, and said so. */
void mixed(struct page *p1, struct page *p2, u32 *out)
{
	u32 *a, *b;

	a = kmap_local_page(p1);
	b = kmap_atomic(p2, KM_USER0);	// EXPECT: nesting
	out[0] = a[0] + b[0];
	kunmap_local(a);
	kunmap_atomic(b, KM_USER0);
}
