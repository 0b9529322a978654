// The system's zlib, for TallyDelivery's gzip request bodies.
#include <zlib.h>
