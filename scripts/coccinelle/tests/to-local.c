// SPDX-License-Identifier: GPL-2.0
// Patch mode input (kmap_atomic_to_local.cocci); the expected output is
// to-local.res.
#include <linux/highmem.h>

void copy_nested(struct page *to, struct page *from)
{
	char *vfrom, *vto;

	vfrom = kmap_atomic(from, KM_USER0);
	vto = kmap_atomic(to, KM_USER1);
	copy_page(vto, vfrom);
	kunmap_atomic(vto, KM_USER1);
	kunmap_atomic(vfrom, KM_USER0);
}

int check_header(struct page *page)
{
	u32 *p = kmap_atomic(page, KM_USER0);

	if (p[0] != 0x12345678) {
		kunmap_atomic(p, KM_USER0);
		return -EINVAL;
	}
	kunmap_atomic(p, KM_USER0);
	return 0;
}

void fill_ro_and_pfn(struct page *page, unsigned long pfn, u32 *out)
{
	u32 *ro = kmap_atomic_prot(page, KM_USER0, PAGE_KERNEL_RO);
	u32 *raw;

	raw = kmap_atomic_pfn(pfn, KM_USER1);
	out[0] = ro[0] + raw[0];
	kunmap_atomic(raw, KM_USER1);
	kunmap_atomic(ro, KM_USER0);
}

/* Not nested: left as it is. */
void copy_crossed(struct page *to, struct page *from)
{
	char *vfrom, *vto;

	vfrom = kmap_atomic(from, KM_USER0);
	vto = kmap_atomic(to, KM_USER1);
	copy_page(vto, vfrom);
	kunmap_atomic(vfrom, KM_USER0);
	kunmap_atomic(vto, KM_USER1);
}

/* The caller unmaps: left as it is. */
char *map_segment(struct page *page, unsigned int offset)
{
	char *addr = kmap_atomic(page, KM_IRQ1);

	return addr + offset;
}

/* Mixed with kmap_local: converting b would unmap a out of order. */
void mixed(struct page *p1, struct page *p2, u32 *out)
{
	u32 *a, *b;

	a = kmap_local_page(p1);
	b = kmap_atomic(p2, KM_USER0);
	out[0] = a[0] + b[0];
	kunmap_local(a);
	kunmap_atomic(b, KM_USER0);
}
