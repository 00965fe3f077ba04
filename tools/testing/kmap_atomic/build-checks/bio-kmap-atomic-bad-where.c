// SPDX-License-Identifier: GPL-2.0
// expect: error give an int index (2.6's form) or a struct bvec_iter
/* A pointer is neither of __bio_kmap_atomic()'s forms. */
#include <linux/bio.h>
#include <linux/module.h>

char bad_where(struct bio *bio);
char bad_where(struct bio *bio)
{
	char *p = __bio_kmap_atomic(bio, &bio->bi_iter, KM_USER0);
	char c = p[0];

	__bio_kunmap_atomic(p, KM_USER0);
	return c;
}
MODULE_LICENSE("GPL");
