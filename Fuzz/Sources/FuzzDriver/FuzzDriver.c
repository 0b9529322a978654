// The driver is libFuzzer's; this target only declares it (include/FuzzDriver.h).
#include "FuzzDriver.h"
