// SPDX-License-Identifier: GPL-2.0
// expect: compiles
/*
 * The bio helpers in 2.6's forms, as 2.6 drivers wrote them (an int index
 * into bi_io_vec), beside 6.1's (a struct bvec_iter).
 */
#include <linux/bio.h>
#include <linux/module.h>

unsigned int sum_26(struct bio *bio);
unsigned int sum_26(struct bio *bio)
{
	unsigned int sum = 0;
	unsigned long flags;
	struct bvec_iter iter;
	struct bio_vec bv;
	char *p;
	int i;

	for (i = 0; i < bio->bi_vcnt; i++) {
		p = __bio_kmap_atomic(bio, i, KM_USER0);
		sum += p[0];
		__bio_kunmap_atomic(p, KM_USER0);
		p = __bio_kmap_irq(bio, i, &flags);
		sum += p[0];
		bio_kunmap_irq(p, &flags);
	}
	bio_for_each_segment(bv, bio, iter) {
		p = __bio_kmap_atomic(bio, iter, KM_BIO_SRC_IRQ);
		sum += p[0];
		__bio_kunmap_atomic(p, KM_BIO_SRC_IRQ);
		p = bvec_kmap_irq(&bv, &flags);
		sum += p[0];
		bvec_kunmap_irq(p, &flags);
	}
	p = bio_kmap_irq(bio, &flags);
	sum += p[0];
	bio_kunmap_irq(p, &flags);
	return sum;
}
MODULE_LICENSE("GPL");
