#include <stdio.h>
int main(void) { puts("dse"); return 0; }
