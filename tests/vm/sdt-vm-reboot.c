/* sdt-vm-reboot COMMAND - restart the guest with a restart command, as systemd's
 * `reboot COMMAND` does (busybox's reboot takes none). The kernel prints "reboot: Restarting
 * system with command 'COMMAND'"; on a Raspberry Pi, "0 tryboot" makes the firmware boot
 * from tryboot.txt once. Built static for the guest by tests/vm/vm.sh. */
#include <linux/reboot.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: sdt-vm-reboot COMMAND\n");
		return 2;
	}
	sync();
	syscall(SYS_reboot,
		LINUX_REBOOT_MAGIC1,
		LINUX_REBOOT_MAGIC2,
		LINUX_REBOOT_CMD_RESTART2,
		argv[1]);
	perror("sdt-vm-reboot: reboot");
	return 1;
}
