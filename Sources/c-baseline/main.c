/* The anchor of `switchboard-bench tui`'s command figures: the least a
   program does to answer on a terminal, a bare C program that prints one
   line and exits. */
#include <stdio.h>

int main(void) {
    puts("c-baseline");
    return 0;
}
