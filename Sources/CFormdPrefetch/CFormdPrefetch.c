// The module is its header (include/CFormdPrefetch.h); a C target needs one source file.
#include "CFormdPrefetch.h"
