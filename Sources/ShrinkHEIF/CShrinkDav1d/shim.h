#include <dav1d/dav1d.h>
