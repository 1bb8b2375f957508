// Lexical corners (C99 5.1.1.2, 6.4): backslash-newline splices inside an
// identifier, a number and a string; a // comment continued by a trailing
// backslash; comments between the tokens of a declaration and inside
// macro arguments; digraphs; form feed and vertical tab as white space;
// adjacent string literals; maximal munch (x+++y, a-->b).

#define ADD(a, b) ((a) + (b))

__constant char spliced_text[] = "abc\
def";

__kernel void lex/* comment between name and parens */(__global int *out)
{
    int va\
lue = 12\
34;
    // this comment continues on the next line \
    value = 0;
    int /* inside */ other /* a declaration */ = /* of */ 5;
    int sum = ADD(value /* first */, /* second */ other);
    int arr<:2:> = <% 1, 2 %>;           /* digraphs for [ ] { } */
    int x = 3, y = 4;
    int z = x+++y;                     /* (x++) + y */
    int a = 3, b = 0;
    while (a-->b)                      /* (a--) > b */
        sum++;
    sum += arr<:1:> + z;
    out[0] = sum + spliced_text[3] + sizeof("two" " parts");
}
// Form feed and vertical tab between tokens.
__kernel void ws(__global int *out)
{
    inta = 1; int b = 2;
    out[0] = a+b;
}
