/*
 * uarchs.h: --list-uarchs, the supported microarchitectures from the tables.
 */
#ifndef LATTOP_UARCHS_H
#define LATTOP_UARCHS_H

#include <stdio.h>

#include "output/report.h"

/* Every supported microarchitecture: text (blocks like --list-events) or a JSON array. */
void uarchs_write(FILE *f, enum report_format fmt);

#endif
