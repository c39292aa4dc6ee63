#ifndef SWITCHBOARD_CLIBPQ_SHIM_H
#define SWITCHBOARD_CLIBPQ_SHIM_H

/* libpq, PostgreSQL's own client library (Debian: libpq-dev to build,
   libpq5 to run). Only the Postgres module imports it. */
#include <libpq-fe.h>

#endif
