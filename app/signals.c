/*
 * signals.c: the signals lattop answers, and its way out of a crash.
 *
 * Ending signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT) and stopping ones
 * (SIGTSTP, SIGTTIN, SIGTTOU) only set stop_signal: the session sees it
 * between two reads, puts every register back, and ends or stops.  A
 * crash (SIGSEGV, SIGBUS, SIGABRT, SIGFPE) cannot wait for that: its
 * handler calls what the session registered (async-signal-safe: pread and
 * pwrite on the msr files, ftruncate of the journal), puts the terminal
 * back with tcsetattr and write, and dies of the same signal.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "app/app.h"

volatile sig_atomic_t stop_signal;

bool is_stop_signal(int sig)
{
	return sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

bool stop_ending(void)
{
	return stop_signal && !is_stop_signal(stop_signal);
}

/*
 * Is our process group orphaned: no parent in another group of the same
 * session (checked for our own parent, the usual case)?
 */
static bool orphaned(void)
{
	pid_t pp = getppid();

	return getpgid(pp) == getpgrp() || getsid(pp) != getsid(0);
}

/*
 * In an orphaned process group (started from a script that has exited, a
 * supervisor) the kernel discards the stop signals at their default
 * action: whoever sent one still wants lattop stopped, so it stops with
 * SIGSTOP there.
 */
/*
 * Forget a stop signal, unless a signal that ends the run came meanwhile
 * (while the registers went back, or while stopped): that one must not be
 * lost, and the caller ends instead.  The handled signals are blocked
 * around the test and the clearing, so none falls between them.  True
 * when the run must end.
 */
static bool forget_stop(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU };
	sigset_t block, old;
	bool ending;

	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&block, sigs[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	ending = stop_ending();
	if (!ending)
		stop_signal = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ending;
}

bool stop_here(int sig)
{
	struct sigaction sa, old;

	/* SIGTERM during the write-back: end, do not stop. */
	if (forget_stop())
		return false;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, &old);
	raise(orphaned() ? SIGSTOP : sig);
	sigaction(sig, &old, NULL);
	return !forget_stop();
}

static void on_signal(int sig)
{
	/* An ending signal is never hidden by a stop. */
	if (!is_stop_signal(sig) || !stop_signal)
		stop_signal = sig;
}

void install_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	/* A closed pipe ends the run through a write error, registers restored. */
	signal(SIGPIPE, SIG_IGN);
}

/* What a crash calls, and the terminal it puts back: read by on_crash() only. */
static void (*crash_fn)(void *arg);
static void *crash_arg;
static struct termios crash_tty;
static bool crash_tty_saved;

static void on_crash(int sig)
{
	static const char reset[] = "\033[0m\033[?25h\033[?1049l\r\n";

	if (crash_fn)
		crash_fn(crash_arg);
	if (crash_tty_saved) {
		tcsetattr(STDIN_FILENO, TCSANOW, &crash_tty);
		if (write(STDOUT_FILENO, reset, sizeof(reset) - 1) < 0) {
			/* nothing more can be done */
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void crash_save_tty(void)
{
	crash_tty_saved = tcgetattr(STDIN_FILENO, &crash_tty) == 0;
}

void install_crash_handlers(void (*fn)(void *arg), void *arg)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE };
	static char altstack[64 * 1024];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa;

	crash_fn = fn;
	crash_arg = arg;
	sigaltstack(&ss, NULL);         /* a stack overflow still gets its handler */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}
