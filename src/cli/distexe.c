/* distexe.c: finding and starting the distributed executable (distexe.h). */
#include "cli/distexe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int distexe_launched(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

int distexe_find(char *buf, size_t len, char *why, size_t wlen)
{
#ifndef IBN_DIST_EXE
    (void)buf;
    (void)len;
    snprintf(why, wlen, "this ibnetsim was built without MPI (libopenmpi-dev; scripts/deps.sh "
             "installs it), so there is no distributed executable");
    return -1;
#else
    char self[4096];
    char here[4096 + 64] = "";
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k > 0) {
        self[k] = 0;
        char *slash = strrchr(self, '/');
        if (slash)
            slash[1] = 0;
        snprintf(here, sizeof here, "%s%s", self, IBN_DIST_EXE);
        if (access(here, X_OK) == 0) {
            snprintf(buf, len, "%s", here);
            return 0;
        }
    }
    char inst[4096];
    snprintf(inst, sizeof inst, "%s/%s", IBN_DIST_INSTALL_DIR, IBN_DIST_EXE);
    if (access(inst, X_OK) == 0) {
        snprintf(buf, len, "%s", inst);
        return 0;
    }
    snprintf(why, wlen, "the distributed mode's executable %s is missing: not found at %s nor "
             "at %s (it is built with ibnetsim when Open MPI is installed, and installed next "
             "to it by cmake --install)", IBN_DIST_EXE, here[0] ? here : "(no /proc/self/exe)",
             inst);
    return -1;
#endif
}

int distexe_exec(char **argv)
{
    char path[4096], why[9000];
    if (distexe_find(path, sizeof path, why, sizeof why)) {
        fprintf(stderr, "ibnetsim: started by mpirun, but %s\n", why);
        return 2;
    }
    argv[0] = path;
    fflush(stdout);
    execv(path, argv);
    fprintf(stderr, "ibnetsim: cannot start the distributed executable %s: %s\n", path,
            strerror(errno));
    return 2;
}
