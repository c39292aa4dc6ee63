// The system SQLite (libsqlite3-dev), for the launcher's quick read of the
// store without GRDB or Foundation.
#include <sqlite3.h>
