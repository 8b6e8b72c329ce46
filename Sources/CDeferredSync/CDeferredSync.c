// The target's functions are all `static inline`, in its header; SwiftPM needs a source file.
#include "CDeferredSync.h"
