// The module is its header (include/CFormdStrings.h); a C target needs one source file.
#include "CFormdStrings.h"
