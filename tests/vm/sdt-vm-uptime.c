/* sdt-vm-uptime SECONDS COMMAND [ARG...] - run COMMAND in a new time namespace whose boot
 * time is SECONDS ahead, so that the kernel's own /proc/uptime reports a system up for that
 * much longer (Linux >= 5.6 with CONFIG_TIME_NS: Debian's arm64 kernel, not its armmp one).
 * The real-kernel tier uses it for `health`, whose writes per day need an hour of uptime.
 * Built static for the guest by tests/vm/vm.sh. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

int
main(int argc, char **argv)
{
	FILE *offsets;
	pid_t pid;
	int status;

	if (argc < 3) {
		fprintf(stderr, "usage: sdt-vm-uptime SECONDS COMMAND [ARG...]\n");
		return 2;
	}
	if (unshare(CLONE_NEWTIME) != 0) {
		perror("sdt-vm-uptime: unshare(CLONE_NEWTIME)");
		return 1;
	}
	/* the offsets of the new namespace, before a process enters it */
	offsets = fopen("/proc/self/timens_offsets", "w");
	if (offsets == NULL ||
	    fprintf(offsets, "boottime %ld 0\n", strtol(argv[1], NULL, 10)) < 0 ||
	    fclose(offsets) != 0) {
		perror("sdt-vm-uptime: /proc/self/timens_offsets");
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("sdt-vm-uptime: exec");
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
