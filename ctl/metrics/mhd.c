// SPDX-License-Identifier: GPL-2.0
/* libmicrohttpd through dlopen() (mhd.h). */
#include <dlfcn.h>
#include <stdio.h>

#include "metrics/mhd.h"

struct mhd_api mhd;

/* Field f of struct mhd_api is the library's MHD_f; dlsym(3)'s own idiom. */
#define RESOLVE(lib, f)	(*(void **)&mhd.f = dlsym(lib, "MHD_" #f))

static int resolve(void *lib, const char **missing)
{
	*missing = !RESOLVE(lib, start_daemon) ? "MHD_start_daemon" :
		   !RESOLVE(lib, stop_daemon) ? "MHD_stop_daemon" :
		   !RESOLVE(lib, run) ? "MHD_run" :
		   !RESOLVE(lib, get_timeout) ? "MHD_get_timeout" :
		   !RESOLVE(lib, get_daemon_info) ? "MHD_get_daemon_info" :
		   !RESOLVE(lib, create_response_from_buffer) ? "MHD_create_response_from_buffer" :
		   !RESOLVE(lib, add_response_header) ? "MHD_add_response_header" :
		   !RESOLVE(lib, queue_response) ? "MHD_queue_response" :
		   !RESOLVE(lib, destroy_response) ? "MHD_destroy_response" : NULL;
	return *missing ? -1 : 0;
}

/**
 * mhd_load() - map libmicrohttpd and find its functions, once
 * @err: receives why it could not, with the package to install
 * @errlen: size of @err
 *
 * Return: 0, or -1 with @err set; a later call tries again.
 */
int mhd_load(char *err, size_t errlen)
{
	static void *lib;
	const char *missing;

	if (lib)
		return 0;
	lib = dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(err, errlen, "cannot load %s (install libmicrohttpd12): %s", MHD_SONAME,
			 dlerror());
		return -1;
	}
	if (resolve(lib, &missing)) {
		snprintf(err, errlen, "%s has no %s", MHD_SONAME, missing);
		dlclose(lib);
		lib = NULL;
		return -1;
	}
	return 0;
}
