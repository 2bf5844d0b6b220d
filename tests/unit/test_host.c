/* SPDX-License-Identifier: BSD-2-Clause */
/* Host identity on this machine, checked against what the OS says directly. */
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config.h"
#include "scaletop/error.h"
#include "scaletop/host.h"
#include "../tap.h"

int
main(void)
{
	struct host_info h;
	struct utsname u;
	char err[ST_ERRLEN] = "";
	int rc = host_info_read(&h, err, sizeof(err));

	if (!is_int(rc, 0, "host_info_read succeeds"))
		diag("%s", err);
	uname(&u);
	is_str(h.os_name, u.sysname, "os_name matches uname sysname");
	is_str(h.os_release, u.release, "os_release matches uname release");
	is_str(h.hostname, u.nodename, "hostname matches uname nodename");
	ok(h.os_version[0] != '\0', "os_version is filled (%s)", h.os_version);
	ok(h.platform[0] != '\0', "platform is filled (%s)", h.platform);
	is_int(h.ncpus, sysconf(_SC_NPROCESSORS_CONF), "ncpus matches the configured CPU count");
	ok(h.mem_total > 64ull * 1024 * 1024, "total memory is plausible (%llu bytes)",
	   (unsigned long long)h.mem_total);
#if defined(__linux__) || defined(__FreeBSD__) || defined(__DragonFly__)
	if (strcmp(SCALETOP_OS, "generic") != 0)
		ok(strcmp(h.cpu_model, "unknown") != 0 && h.cpu_model[0] != '\0',
		   "CPU model is known (%s)", h.cpu_model);
	else
		ok(h.cpu_model[0] != '\0', "CPU model is filled on the generic backend (%s)",
		   h.cpu_model);
#endif
	return done_testing();
}
