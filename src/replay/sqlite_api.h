/* sqlite_api.h - the few SQLite C functions the replay reads an nsys export with, declared here.
 *
 * The GPU machine has the system's libsqlite3.so.0 but no sqlite3.h, so the replay declares what it calls (the
 * library's stable C interface, documented at sqlite.org/c3ref) and links libsqlite3.so.0 by name. */
#ifndef RP_SQLITE_API_H
#define RP_SQLITE_API_H

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;

enum { SQLITE_OK = 0, SQLITE_CORRUPT = 11, SQLITE_NOTADB = 26, SQLITE_ROW = 100, SQLITE_DONE = 101 };
enum { SQLITE_OPEN_READONLY = 0x00000001 };
enum { SQLITE_INTEGER = 1, SQLITE_FLOAT = 2, SQLITE_TEXT = 3, SQLITE_BLOB = 4, SQLITE_NULL = 5 };

int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs);
int sqlite3_close(sqlite3 *db);
const char *sqlite3_errmsg(sqlite3 *db);
int sqlite3_prepare_v2(sqlite3 *db, const char *sql, int nbytes, sqlite3_stmt **stmt, const char **tail);
int sqlite3_step(sqlite3_stmt *stmt);
int sqlite3_finalize(sqlite3_stmt *stmt);
int sqlite3_column_count(sqlite3_stmt *stmt);
int sqlite3_column_type(sqlite3_stmt *stmt, int col);
long long sqlite3_column_int64(sqlite3_stmt *stmt, int col);
double sqlite3_column_double(sqlite3_stmt *stmt, int col);
const unsigned char *sqlite3_column_text(sqlite3_stmt *stmt, int col);

#endif
