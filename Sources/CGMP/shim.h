// The GMP function-like macros Swift cannot import, as static inline functions.
// Everything else is used through GMP's exported __gmpz_* symbols.
#ifndef TLSLAB_CGMP_SHIM_H
#define TLSLAB_CGMP_SHIM_H
#include <gmp.h>

static inline int tlslab_mpz_sgn(mpz_srcptr z) { return mpz_sgn(z); }
static inline int tlslab_mpz_odd_p(mpz_srcptr z) { return mpz_odd_p(z); }
static inline int tlslab_mpz_cmp_ui(mpz_srcptr z, unsigned long v) { return mpz_cmp_ui(z, v); }
static inline int tlslab_mpz_cmp_si(mpz_srcptr z, long v) { return mpz_cmp_si(z, v); }
static inline size_t tlslab_mpz_size(mpz_srcptr z) { return mpz_size(z); }
static inline unsigned long tlslab_mpz_get_ui(mpz_srcptr z) { return mpz_get_ui(z); }

#endif
