// options: -DMODE=2 -DENABLE_EXTRA -DNAME=value
// Conditional inclusion (C99 6.10.1): #if with defined(), arithmetic,
// logical and ternary operators, character constants, nested #if/#elif/
// #else, #ifdef/#ifndef, #undef, options from -D, and macros that expand
// to further macros inside #if.

#define LEVEL 3
#define TWICE(x) ((x) * 2)
#define IS_BIG (LEVEL > 2)

#if defined(MODE) && MODE == 2 && defined ENABLE_EXTRA
#define SCALE 2.0f
#elif defined(MODE)
#define SCALE 1.0f
#else
#error MODE must be defined
#endif

#if TWICE(LEVEL) != 6 || !IS_BIG
#error arithmetic in #if is wrong
#endif

#if (LEVEL << 2) + 1 == 13 && (LEVEL % 2) && (-1 < 0) && 'A' == 65
#define SHIFT_OK 1
#endif

#if UNDEFINED_NAME == 0       /* undefined identifiers are 0 */
#define UNDEF_IS_ZERO 1
#endif

#ifdef SHIFT_OK
#  ifndef UNDEF_IS_ZERO
#    error nested branch taken wrongly
#  else
#    define RESULT 7
#  endif
#endif

#if LEVEL > 5 ? 0 : 1
#define TERNARY 1
#endif

#if 0
this text is skipped entirely, even " unbalanced quotes and #bogus directives
#bogus
#endif

#undef LEVEL
#ifdef LEVEL
#error undef did not work
#endif

#if 0x10 == 16 && 010 == 8 && 1000000000000 > 0 && (2 + 3) * 4 == 20 && ~0 == -1
#define NUMBERS_OK 1
#endif

__kernel void conditionals(__global float *out)
{
    out[get_global_id(0)] = SCALE * RESULT + TERNARY + NUMBERS_OK;
}
