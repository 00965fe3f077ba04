// SPDX-License-Identifier: GPL-2.0
// Correct 2.6 usage: a bio walk with KM_BIO_SRC_IRQ under local_irq_save(),
// as 2.6's bio_kmap_irq() did.
#include <linux/bio.h>
#include <linux/highmem.h>

static void copy_from_bio(void *dst, struct bio *bio)
{
	struct bio_vec bv;
	struct bvec_iter iter;
	unsigned long flags;
	char *src;

	bio_for_each_segment(bv, bio, iter) {
		local_irq_save(flags);
		src = kmap_atomic(bv.bv_page, KM_BIO_SRC_IRQ);
		memcpy(dst, src + bv.bv_offset, bv.bv_len);
		kunmap_atomic(src, KM_BIO_SRC_IRQ);
		local_irq_restore(flags);
		dst += bv.bv_len;
	}
}
