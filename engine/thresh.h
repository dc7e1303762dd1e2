/*
 * thresh.h: the load-latency thresholds, as numbers every layer shares:
 * how many one run measures, and the one that is always measured.
 *
 * Owns two constants and nothing else, so that the metrics and the screen
 * can size their arrays without seeing the planner or the PMU.
 */
#ifndef LATTOP_THRESH_H
#define LATTOP_THRESH_H

/* Thresholds of one run, the always-measured one included. */
#define THRESH_MAX 16

/*
 * The load-latency threshold that counts every tagged load: the shortest
 * load takes 4 core cycles and 3 is the smallest threshold the register
 * takes (seed 000, SDM 18.8.1.2).  Always measured: the load-latency
 * event counts only loads the hardware tagged at random (pmu-facts 8.1),
 * so the share above N is above(N) / above(3).
 */
#define THRESH_TAGGED 3

#endif
